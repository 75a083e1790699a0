"""Kernels of the world's ray queries, over the snapshot of ``query_forest.py``.
``queries.py`` is their Python face; ``overlap_kernels.py`` holds the point, box and
shape queries and the shape cast.

Every query kernel takes the same few arguments, so each query is one call: ``mask``
uint8 (pieces,), 1 where a piece may be reported (``queries.accepted_pieces``: filter,
sensors; free rows 0), and the snapshot's ``forest`` and ``geo`` (``query_forest.py``).
Plain tuples of arrays, not named tuples: Numba unboxes a named tuple of seven arrays in
3 us, the same arrays as plain arguments in 0.6 us, and a single ray cast costs less
than that.
"""
import math

import numpy as np

from .._jit import borrowed, njit_exact as njit, njit_exact_inline as njit_inline
from ..collision.ray_cast import ray_cast_piece
from .query_forest import (N_LINK, PT_C, PT_COUNT, PT_RADIUS, PT_S, PT_SHAPE, PT_START, PT_X, PT_Y,
                           TREES, forest_stack, grown_hits, put_hit)


# Boxes entered up to SLACK (in fractions) beyond the best hit so far are still searched:
# a piece's box and its cast round differently, and a box pruned by a rounding error
# could hold the answer, which would then depend on the order of the search (the grid
# of ``ray_cast_many`` and the tree of ``ray_cast`` must give the same).
SLACK = 1e-9
NO_HIT = (-1, 1.0, -1, 0.0, 0.0)  # (piece, t, shape id, nx, ny) of a ray that hit nothing


@njit_inline
def _slab_axis(lo, hi, p, inv, zero):
    """Where the line ``p + t d`` enters and leaves the slab ``[lo, hi]`` of one axis:
    ``(t_in, t_out)``; ``inv = 1 / d`` unless ``zero`` (``d`` is 0: the line is in the
    slab for every t, or for none)."""
    if zero:
        if p < lo or p > hi:
            return math.inf, -math.inf
        return -math.inf, math.inf
    t1 = (lo - p) * inv
    t2 = (hi - p) * inv
    return min(t1, t2), max(t1, t2)


@njit_inline
def _slab_box(x0, y0, x1, y1, px, py, ix, iy, zx, zy):
    """Where the line ``p + t d`` enters and leaves the box ``[x0, y0, x1, y1]``: ``(t_in,
    t_out)`` (Kay and Kajiya's slabs; ``ix = 1 / dx`` unless ``zx``: ``dx`` is 0). A line
    outside a slab it runs along gives ``t_in > t_out``, as one that misses the box."""
    lx, hx = _slab_axis(x0, x1, px, ix, zx)
    ly, hy = _slab_axis(y0, y1, py, iy, zy)
    return max(lx, ly), min(hx, hy)


@njit_inline
def _slab(nodes, i, px, py, ix, iy, zx, zy):
    """:func:`_slab_box` of node ``i``'s box."""
    return _slab_box(nodes[i, 0], nodes[i, 1], nodes[i, 2], nodes[i, 3], px, py, ix, iy, zx, zy)


@njit_inline
def _ray_piece(geo, q, px, py, dx, dy):
    """Piece ``q`` against the world ray ``p + t d``: ``(t, nx, ny)``, normal in the world."""
    ptab, verts, norms, ghost = geo
    x = ptab[q, PT_X]
    y = ptab[q, PT_Y]
    c = ptab[q, PT_C]
    s = ptab[q, PT_S]
    lx = c * (px - x) + s * (py - y)
    ly = c * (py - y) - s * (px - x)
    t, nx, ny = ray_cast_piece(verts, norms, ghost, int(ptab[q, PT_START]), int(ptab[q, PT_COUNT]),
                               ptab[q, PT_RADIUS], lx, ly, c * dx + s * dy, c * dy - s * dx)
    return t, c * nx - s * ny, s * nx + c * ny


@njit_inline
def _enters(t_in, t_out, best_t):
    """Whether a ray that meets a box over ``[t_in, t_out]`` (:func:`_slab_box`) enters it
    by ``best_t`` (within ``SLACK``)."""
    return t_in <= t_out and t_out >= 0.0 and t_in <= best_t + SLACK


@njit_inline
def _hits(nodes, i, px, py, ix, iy, zx, zy, best_t):
    """``(hit, t_in)``: whether the ray enters box ``i`` by ``best_t`` (:func:`_enters`),
    and where."""
    t_in, t_out = _slab(nodes, i, px, py, ix, iy, zx, zy)
    return _enters(t_in, t_out, best_t), t_in


@njit_inline
def _closer(best, q, t, sid):
    """Whether piece ``q`` of shape ``sid`` hit at ``t`` beats ``best``: the closer hit,
    ties to the lower shape id, then the lower piece row (the answer does not depend on
    the order in which pieces are met: the tree's or the grid's)."""
    tie = t == best[1] and (sid < best[2] or (sid == best[2] and q < best[0]))
    return t < best[1] or best[0] < 0 or tie


@njit_inline
def _ray_search(px, py, dx, dy, mask, forest, geo, stacks, found, clip, best):
    """Search the forest along the ray ``p + t d``, t in [0, 1], from ``best`` (below; a
    grid's answer, or ``NO_HIT``): ``(best, pieces, hits, n)``.

    With ``clip``, ``best = (piece, t, shape id, nx, ny)`` is the closest hit (piece -1
    on a miss) of the pieces that do not hold ``p`` (a hit at t = 0: Box2D's
    ``b2World_CastRayClosest`` skips those too): each hit clips the search (Box2D's
    ``b2DynamicTree_RayCast`` and its ``maxFraction``) and the child the ray enters first
    is searched first. Without, every hit is appended to ``found = (pieces, hits)`` (rows
    ``(t, nx, ny)``; grown when full), those at t = 0 included.
    """
    nodes, roots = forest
    stack, enter = stacks
    pieces, hits = found
    n = 0
    zx = dx == 0.0
    zy = dy == 0.0
    ix = 0.0 if zx else 1.0 / dx
    iy = 0.0 if zy else 1.0 / dy
    for w in range(TREES):
        if roots[w] < 0:
            continue
        hit, enter[0] = _hits(nodes, roots[w], px, py, ix, iy, zx, zy, best[1])
        stack[0] = roots[w]
        top = 1 if hit else 0
        while top > 0:
            top -= 1
            if enter[top] > best[1] + SLACK:
                continue
            i = stack[top]
            link = nodes[i, N_LINK]
            if link >= 0.0:  # push the children the ray enters, the nearer on top
                a = i + 1
                b = int(link)
                ha, ta = _hits(nodes, a, px, py, ix, iy, zx, zy, best[1])
                hb, tb = _hits(nodes, b, px, py, ix, iy, zx, zy, best[1])
                if ha and hb and ta < tb:
                    a, b, ta, tb = b, a, tb, ta
                if ha and hb:
                    stack[top] = a
                    enter[top] = ta
                    top += 1
                    a, ta = b, tb
                elif hb:
                    a, ta = b, tb
                if ha or hb:
                    stack[top] = a
                    enter[top] = ta
                    top += 1
                continue
            q = int(-1.0 - link)
            if mask[q] == 0:
                continue
            t, nx, ny = _ray_piece(geo, q, px, py, dx, dy)
            if t < 0.0 or (clip and t == 0.0):  # the closest hit skips shapes holding p
                continue
            if clip:
                sid = int(geo[0][q, PT_SHAPE])
                if _closer(best, q, t, sid):
                    best = (q, t, sid, nx, ny)
                continue
            if n == pieces.shape[0]:
                pieces, hits = grown_hits(pieces, hits, n)
            put_hit(pieces, hits, n, q, t, nx, ny)
            n += 1
    return best, pieces, hits, n


@njit_inline
def _far_walls(cx, cy, sx, sy, h, ox, oy, px, py, ix, iy, zx, zy):
    """Where the ray ``p + t d`` crosses the far walls of cell ``(cx, cy)`` (``sx``, ``sy``:
    the signs of ``d``), from the cells' indices: ``(tx, ty)``, inf along an axis ``d``
    does not move on."""
    tx = math.inf if zx else (ox + (cx + (1 if sx > 0 else 0)) * h - px) * ix
    ty = math.inf if zy else (oy + (cy + (1 if sy > 0 else 0)) * h - py) * iy
    return tx, ty


@njit_inline
def _next_cell(jump, cx, cy, tx, ty, sx, sy, hx, hy, h, ox, oy, inv, px, py, dx, dy, ix, iy, zx, zy):
    """One move of :func:`_grid_rays`' walk from cell ``(cx, cy)``, whose far walls the ray
    crosses at ``tx``, ``ty``: ``(t, cx, cy, tx, ty)``, ``t`` where it enters the next
    cell. With ``jump`` > 1 (the cell's ``skip``), out of the empty square of ``2 jump -
    1`` cells about this one, the other coordinate staying within the square, and the new
    cell's walls worked out from their indices; else across the nearer wall (Amanatides
    and Woo), the next wall a cell's width (``hx``, ``hy`` in ``t``) further on."""
    if jump > 1:
        tx = math.inf if zx else (ox + (cx + jump if sx > 0 else cx - jump + 1) * h - px) * ix
        ty = math.inf if zy else (oy + (cy + jump if sy > 0 else cy - jump + 1) * h - py) * iy
        if tx < ty:
            t = tx
            cy = min(max(int(math.floor((py + t * dy - oy) * inv)), cy - jump + 1), cy + jump - 1)
            cx += sx * jump
        else:
            t = ty
            cx = min(max(int(math.floor((px + t * dx - ox) * inv)), cx - jump + 1), cx + jump - 1)
            cy += sy * jump
        tx, ty = _far_walls(cx, cy, sx, sy, h, ox, oy, px, py, ix, iy, zx, zy)
    elif tx < ty:
        t = tx
        cx += sx
        tx += hx
    else:
        t = ty
        cy += sy
        ty += hy
    return t, cx, cy, tx, ty


@njit_inline
def _grid_rays(starts, ends, order, geo, grid, fraction, normal, shape_id, escaped):
    """The closest hit of each ray ``starts[j]`` -> ``ends[j]``, ``j`` in ``order``, among
    the pieces filed in ``grid`` (``ray_grid.py``), as :func:`_ray_search` finds it:
    written to ``fraction``, ``normal`` and ``shape_id`` (a miss: 1, (0, 0), -1). Each ray
    walks the cells it crosses, nearest first (Amanatides and Woo), jumping across empty
    squares (``skip``), until the next cell begins beyond its best hit. A ray that runs
    outside the grid first, where only a tree search sees, is listed in ``escaped``
    (rows ``(j, piece of its best hit or -1)``); returns how many. From one cell to the
    next the wall crossings are stepped (adding a cell's width in ``t``); a jump works
    them out again from the cells' indices. The loop over the rays is in here: an inlined
    helper with loops, called once a ray, costs reference counts on its arrays."""
    box, first, ibox, ipiece, skip = grid
    ptab = geo[0]
    gx0, gy0, gx1, gy1 = box[0, 0], box[0, 1], box[0, 2], box[0, 3]
    h, ox, oy, nx = box[0, 4], box[0, 5], box[0, 6], int(box[0, 7])
    ny = (first.shape[0] - 1) // nx
    inv = 1.0 / h
    n_escaped = 0
    for r in range(order.shape[0]):
        j = order[r]
        px, py = starts[j, 0], starts[j, 1]
        dx, dy = ends[j, 0] - px, ends[j, 1] - py
        bq, bt, bs, bnx, bny = NO_HIT
        zx, zy = dx == 0.0, dy == 0.0
        ix = 0.0 if zx else 1.0 / dx
        iy = 0.0 if zy else 1.0 / dy
        t, t_out = _slab_box(gx0, gy0, gx1, gy1, px, py, ix, iy, zx, zy)
        tree = not t <= 0.0 <= t_out  # starts outside the grid
        if t <= t_out and t_out >= 0.0 and t <= 1.0:
            t = max(t, 0.0)
            cx = min(max(int(math.floor((px + t * dx - ox) * inv)), 0), nx - 1)
            cy = min(max(int(math.floor((py + t * dy - oy) * inv)), 0), ny - 1)
            sx = 1 if dx > 0.0 else -1
            sy = 1 if dy > 0.0 else -1
            tx, ty = _far_walls(cx, cy, sx, sy, h, ox, oy, px, py, ix, iy, zx, zy)
            hx = h * abs(ix)  # from one wall to the next
            hy = h * abs(iy)
            seen = -math.inf  # where this cell begins: a box entered before, in a cell before
            while True:
                c = cy * nx + cx
                for e in range(first[c], first[c + 1]):
                    t_in, t_o = _slab_box(ibox[e, 0], ibox[e, 1], ibox[e, 2], ibox[e, 3],
                                          px, py, ix, iy, zx, zy)
                    if not _enters(t_in, t_o, bt) or t_in < seen - SLACK:
                        continue
                    q = ipiece[e]
                    tq, hnx, hny = _ray_piece(geo, q, px, py, dx, dy)
                    sid = int(ptab[q, PT_SHAPE])
                    if tq > 0.0 and _closer((bq, bt, bs, bnx, bny), q, tq, sid):
                        bq, bt, bs, bnx, bny = q, tq, sid, hnx, hny
                t, cx, cy, tx, ty = _next_cell(skip[c], cx, cy, tx, ty, sx, sy, hx, hy, h, ox, oy, inv,
                                               px, py, dx, dy, ix, iy, zx, zy)
                if t > bt + SLACK:
                    break
                seen = t
                if cx < 0 or cx >= nx or cy < 0 or cy >= ny:
                    tree = True
                    break
        fraction[j] = bt
        normal[j, 0] = bnx
        normal[j, 1] = bny
        shape_id[j] = bs
        if tree:
            escaped[n_escaped, 0] = j
            escaped[n_escaped, 1] = bq
            n_escaped += 1
    return n_escaped


@njit
def ray_search(px, py, dx, dy, mask, forest, geo, stacks, found):
    """:func:`_ray_search` compiled once for the single-ray kernels, which call it: the
    closest hit when ``found`` is empty, else every hit (``ray_cast_batch`` inlines its own
    copy with a literal ``clip``, which drops the other mode's code: 25 % faster a ray;
    and a call per ray would cost its arrays' reference counts). The mode is worked out
    here, not passed: a literal True or False argument would compile a copy each."""
    mask, forest, geo = borrowed((mask, forest, geo))  # no atomic counts per node or piece
    return _ray_search(px, py, dx, dy, mask, forest, geo, stacks, found, found[0].shape[0] == 0,
                       NO_HIT)


@njit
def ray_cast_first(px, py, ex, ey, mask, forest, geo):
    """The closest hit of the ray from ``p`` to ``e`` (``World.ray_cast``), shapes holding
    ``p`` skipped: ``(shape id, t, hit x, hit y, nx, ny)``, shape id -1 on a miss."""
    dx = ex - px
    dy = ey - py
    none = (np.empty(0, np.int64), np.empty((0, 3)))
    q, t, s, nx, ny = ray_search(px, py, dx, dy, mask, forest, geo, forest_stack(forest), none)[0]
    if q < 0:
        return -1, 1.0, ex, ey, 0.0, 0.0
    return s, t, px + t * dx, py + t * dy, nx, ny


@njit_inline
def _coherent_order(starts, nodes, roots):
    """The rays' indices sorted by the Z-order cell of their start on a 64 x 64 grid over
    the world's box (a counting sort): consecutive rays then search the same nodes and
    pieces while they are in the cache (rain2000, 10,000 random rays: 550 -> 460 ns)."""
    k = starts.shape[0]
    order = np.arange(k)
    if k < 256 or roots[0] < 0:
        return order
    r = roots[0]
    x0, y0 = nodes[r, 0], nodes[r, 1]
    sx = 64.0 / max(nodes[r, 2] - x0, 1e-300)
    sy = 64.0 / max(nodes[r, 3] - y0, 1e-300)
    cell = np.empty(k, np.int64)
    count = np.zeros(4097, np.int64)
    for i in range(k):
        cx = min(max(int((starts[i, 0] - x0) * sx), 0), 63)  # NaN-free: inputs are checked
        cy = min(max(int((starts[i, 1] - y0) * sy), 0), 63)
        z = 0
        for bit in range(6):
            z |= (((cx >> bit) & 1) << (2 * bit)) | (((cy >> bit) & 1) << (2 * bit + 1))
        cell[i] = z
        count[z + 1] += 1
    for z in range(4096):
        count[z + 1] += count[z]
    for i in range(k):
        order[count[cell[i]]] = i
        count[cell[i]] += 1
    return order


@njit
def ray_cast_batch(starts, ends, mask, forest, geo, grid, fraction, point, normal, shape_id):
    """The closest hit of every ray ``starts[i]`` -> ``ends[i]`` (``World.ray_cast_many``),
    written to ``fraction`` (k,), ``point`` (k, 2), ``normal`` (k, 2), ``shape_id`` (k,):
    a miss is fraction 1, the end point, normal (0, 0), shape id -1. Each ray's answer is
    the one :func:`ray_cast_first` gives (shapes holding its start skipped); the rays are
    searched in a cache-friendly order, through ``grid`` (``ray_grid.py``, of the pieces
    ``mask`` admits) unless it is empty, the trees only for rays that leave the grid."""
    k = starts.shape[0]
    mask, forest, geo = borrowed((mask, forest, geo))  # no atomic counts per node or piece
    stacks = forest_stack(forest)
    none = (np.empty(0, np.int64), np.empty((0, 3)))
    order = _coherent_order(starts, forest[0], forest[1])
    escaped = np.empty((k, 2), np.int64)  # (ray, piece of the grid's best hit or -1)
    if grid[1].shape[0] > 1:
        n = _grid_rays(starts, ends, order, geo, grid, fraction, normal, shape_id, escaped)
    else:  # every ray to the trees
        for i in range(order.shape[0]):  # not escaped[:, 0] = order: see _jit.py, "Compile time"
            escaped[i, 0] = order[i]
        escaped[:, 1] = -1
        n = k
    for e in range(n):
        j, q = escaped[e, 0], escaped[e, 1]
        best = NO_HIT
        if q >= 0:
            best = (q, fraction[j], shape_id[j], normal[j, 0], normal[j, 1])
        best = _ray_search(starts[j, 0], starts[j, 1], ends[j, 0] - starts[j, 0], ends[j, 1] - starts[j, 1],
                           mask, forest, geo, stacks, none, True, best)[0]
        _, fraction[j], shape_id[j], normal[j, 0], normal[j, 1] = best
    for j in range(k):
        t = fraction[j]
        hit = shape_id[j] >= 0
        point[j, 0] = starts[j, 0] + t * (ends[j, 0] - starts[j, 0]) if hit else ends[j, 0]
        point[j, 1] = starts[j, 1] + t * (ends[j, 1] - starts[j, 1]) if hit else ends[j, 1]
        normal[j, 0] += 0.0  # no -0.0
        normal[j, 1] += 0.0


@njit
def ray_cast_every(px, py, ex, ey, mask, forest, geo):
    """Every piece the ray from ``p`` to ``e`` hits (``World.ray_cast_all``): ``(pieces,
    hits)``, ``hits`` float64 (h, 3) = ``(t, nx, ny)``, in search order."""
    found = (np.empty(16, np.int64), np.empty((16, 3)))
    _, pieces, hits, n = ray_search(px, py, ex - px, ey - py, mask, forest, geo, forest_stack(forest),
                                    found)
    return pieces[:n].copy(), hits[:n].copy()
