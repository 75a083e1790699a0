"""Kernels of the world's overlap queries: points, boxes and shapes against the world's
shapes, and the shape cast (``cast_pieces``). The arguments are those of
``query_kernels.py`` (``mask``, ``forest``, ``geo``), plus ``shape_pieces = (first,
rows)``: shape ``i``'s pieces are rows ``rows[first[i]:first[i + 1]]`` of the piece
store, in the shape's own piece order (a concave shape is measured by all its pieces,
also those the search did not reach).
"""
import math

import numpy as np

from .._jit import borrowed, copy_rows, njit_exact as njit, njit_exact_inline as njit_inline
from ..broadphase.tree_ops import grown
from ..collision.manifold import MANIFOLD_SIZE, collide_pieces
from ..collision.point_query import piece_outline_distance
from ..collision.shape_pairs import unpack_into
from ..geometry.convex import direction, piece_box
from ..geometry.seam_rows import GHOST_SIZE
from ..collision.toi import MISS, shapes_toi
from .query_forest import (N_LINK, PT_ANGLE, PT_C, PT_COUNT, PT_RADIUS, PT_S, PT_SHAPE, PT_START,
                           PT_X, PT_Y, forest_collect, forest_stack, grown_hits, push_roots,
                           put_hit)


@njit_inline
def _shape_distance(geo, shape_pieces, sid, px, py):
    """Signed distance from world point ``p`` to shape ``sid`` (negative inside: minus
    the distance to its outline) and the nearest point of its surface: ``(d, x, y)``."""
    ptab, verts, norms, ghost = geo
    first, rows = shape_pieces
    q = rows[first[sid]]
    x, y, c, s = ptab[q, PT_X], ptab[q, PT_Y], ptab[q, PT_C], ptab[q, PT_S]
    lx = c * (px - x) + s * (py - y)
    ly = c * (py - y) - s * (px - x)
    inside = False
    best = math.inf
    cx = cy = nx = ny = 0.0
    r = ptab[q, PT_RADIUS]
    for j in range(first[sid], first[sid + 1]):
        q = rows[j]
        into, dd, qx, qy, mx, my = piece_outline_distance(verts, norms, ghost, int(ptab[q, PT_START]),
                                                          int(ptab[q, PT_COUNT]), lx, ly)
        inside = inside or into
        if dd < best:
            best, cx, cy, nx, ny = dd, qx, qy, mx, my
    d, ux, uy = direction(lx - cx, ly - cy)
    if d > 0.0:  # outward: away from the point when it is inside
        nx, ny = (-ux, -uy) if inside else (ux, uy)
    hx = cx + r * nx
    hy = cy + r * ny
    return (-d if inside else d) - r, x + c * hx - s * hy, y + s * hx + c * hy


@njit_inline
def _visit_point(geo, shape_pieces, mask, seen, q, px, py, limit, nearest, found):
    """Shape of piece ``q`` against the point query; ``found = (sids, hits, n, bound)``
    (``hits`` rows ``(d, x, y)``), with ``bound`` the box distance still worth searching."""
    sids, hits, n, bound = found
    sid = int(geo[0][q, PT_SHAPE])
    if mask[q] == 0 or seen[sid] != 0:
        return found
    seen[sid] = 1
    d, x, y = _shape_distance(geo, shape_pieces, sid, px, py)
    if not d <= limit:
        return found
    if nearest:
        if n > 0 and (d > hits[0, 0] or (d == hits[0, 0] and sid > sids[0])):
            return found
        n = 0
        bound = max(d, 0.0)  # only a shape holding p can beat a negative distance
    elif n == sids.shape[0]:
        sids, hits = grown_hits(sids, hits, n)
    put_hit(sids, hits, n, sid, d, x, y)
    return sids, hits, n + 1, bound


@njit
def query_points(px, py, limit, nearest, mask, forest, geo, shape_pieces):
    """Shapes within ``limit`` of point ``p`` (``World.query_point``; with ``nearest``,
    only the nearest one, ties to the lower id): ``(sids, hits)``, ``hits`` float64 (h, 3)
    = ``(distance, x, y)`` of the nearest surface point, in search order.

    Boxes farther than the bound from ``p`` are skipped; for the nearest shape the bound
    shrinks to the best distance found (pymunk's ``cpSpacePointQueryNearest``)."""
    mask, forest, geo, shape_pieces = borrowed((mask, forest, geo, shape_pieces))  # no atomic counts
    nodes, roots = forest
    seen = np.zeros(shape_pieces[0].shape[0] - 1, np.uint8)
    found = (np.empty(8, np.int64), np.empty((8, 3)), 0, limit)
    stack = forest_stack(forest)[0]
    top = push_roots(roots, stack)
    while top > 0:
        top -= 1
        i = stack[top]
        gx = max(nodes[i, 0] - px, px - nodes[i, 2], 0.0)
        gy = max(nodes[i, 1] - py, py - nodes[i, 3], 0.0)
        if math.sqrt(gx * gx + gy * gy) > found[3]:
            continue
        link = nodes[i, N_LINK]
        if link < 0.0:
            found = _visit_point(geo, shape_pieces, mask, seen, int(-1.0 - link), px, py, limit,
                                 nearest, found)
            continue
        stack[top] = int(link)
        stack[top + 1] = i + 1
        top += 2
    sids, hits, n, _ = found
    return sids[:n].copy(), hits[:n].copy()


@njit_inline
def _shape_box(geo, shape_pieces, sid):
    """Exact box ``(x0, y0, x1, y1)`` of shape ``sid`` at its pose: the union of its pieces'."""
    ptab, verts = geo[0], geo[1]
    first, rows = shape_pieces
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for j in range(first[sid], first[sid + 1]):
        q = rows[j]
        a0, a1, a2, a3 = piece_box(verts, int(ptab[q, PT_START]), int(ptab[q, PT_COUNT]),
                                   ptab[q, PT_RADIUS], ptab[q, PT_X], ptab[q, PT_Y], ptab[q, PT_C],
                                   ptab[q, PT_S], 0.0)
        x0 = min(x0, a0)
        y0 = min(y0, a1)
        x1 = max(x1, a2)
        y1 = max(y1, a3)
    return x0, y0, x1, y1


@njit
def query_box(x0, y0, x1, y1, mask, forest, geo, shape_pieces, multi):
    """Ids of the shapes whose exact box overlaps ``[x0, y0, x1, y1]`` (``World.query_aabb``;
    touching counts), in search order. ``multi`` int64: the shapes of several pieces,
    whose box may overlap where none of their pieces' boxes does."""
    mask, forest, geo, shape_pieces = borrowed((mask, forest, geo, shape_pieces))  # no atomic counts
    first, rows = shape_pieces
    out, n = forest_collect(forest, x0, y0, x1, y1, forest_stack(forest)[0], np.empty(64, np.int64), 0)
    seen = np.zeros(first.shape[0] - 1, np.uint8)
    sids = np.empty(n + multi.shape[0], np.int64)
    m = 0
    for k in range(n + multi.shape[0]):
        q = out[k] if k < n else rows[first[multi[k - n]]]
        sid = int(geo[0][q, PT_SHAPE])
        if mask[q] == 0 or seen[sid] != 0:
            continue
        seen[sid] = 1
        a0, a1, a2, a3 = _shape_box(geo, shape_pieces, sid)
        if a0 <= x1 and x0 <= a2 and a1 <= y1 and y0 <= a3:
            sids[m] = sid
            m += 1
    return sids[:m].copy()


@njit_inline
def _load(work, at, pool, src, count):
    """Copy ``count`` rows of the ``pool`` (verts, norms, ghost) from ``src`` into ``work``
    at ``at``, growing it when needed."""
    wv, wn, wg = work
    verts, norms, ghost = pool
    if at + count > wv.shape[0]:
        size = 2 * (at + count)
        nv = np.empty((size, 2))
        nn = np.empty((size, 2))
        ng = np.empty((size, GHOST_SIZE))
        copy_rows(nv, wv, at)
        copy_rows(nn, wn, at)
        copy_rows(ng, wg, at)
        wv, wn, wg = nv, nn, ng
    for k in range(count):
        wv[at + k, 0] = verts[src + k, 0]
        wv[at + k, 1] = verts[src + k, 1]
        wn[at + k, 0] = norms[src + k, 0]
        wn[at + k, 1] = norms[src + k, 1]
        for g in range(GHOST_SIZE):
            wg[at + k, g] = ghost[src + k, g]
    return wv, wn, wg


@njit_inline
def _unpack(pack, radius, starts, x, y, angle):
    """The query shape's rows in a fresh work pool, its pose ``(x, y, cos, sin)`` and box."""
    na = pack.shape[0]
    wv, wn, wg = np.empty((na + 16, 2)), np.empty((na + 16, 2)), np.empty((na + 16, GHOST_SIZE))
    unpack_into(pack, wv, wn, wg, 0)
    pa = (x, y, math.cos(angle), math.sin(angle))
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for i in range(starts.shape[0] - 1):
        a0, a1, a2, a3 = piece_box(wv, starts[i], starts[i + 1] - starts[i], radius, pa[0], pa[1],
                                   pa[2], pa[3], 0.0)
        x0, y0, x1, y1 = min(x0, a0), min(y0, a1), max(x1, a2), max(y1, a3)
    return (wv, wn, wg), pa, (x0, y0, x1, y1)


@njit
def query_overlaps(pack, starts, radius, x, y, angle, mask, forest, geo, shape_pieces):
    """Manifolds of a shape placed at ``(x, y, angle)`` with every world shape it touches
    (``World.query_shape``), computed exactly as ``engine.collide`` computes them (the same
    piece pairs in the same order, ``collision.manifold.collide_pieces``).

    ``pack``, ``starts``, ``radius``: the shape's ``_pack``, ``_starts`` and radius
    (``collision/shape_pairs.py``). Returns ``(owners, rows)``: per touching piece pair
    the world shape's id and its manifold row (MANIFOLD_SIZE), grouped by shape.
    """
    mask, forest, geo, shape_pieces = borrowed((mask, forest, geo, shape_pieces))  # no atomic counts
    ptab = geo[0]
    first, rows = shape_pieces
    work, pa, box = _unpack(pack, radius, starts, x, y, angle)
    na = pack.shape[0]
    npa = starts.shape[0] - 1
    cands, n = forest_collect(forest, box[0], box[1], box[2], box[3], forest_stack(forest)[0],
                              np.empty(64, np.int64), 0)
    seen = np.zeros(first.shape[0] - 1, np.uint8)
    out = np.empty((4, MANIFOLD_SIZE))
    owners = np.empty(4, np.int64)
    filled = 0
    for c in range(n):
        sid = int(ptab[cands[c], PT_SHAPE])
        if mask[cands[c]] == 0 or seen[sid] != 0:
            continue
        seen[sid] = 1
        at = na
        for j in range(first[sid], first[sid + 1]):  # the world shape's pieces after the query's
            work = _load(work, at, geo[1:], int(ptab[rows[j], PT_START]), int(ptab[rows[j], PT_COUNT]))
            at += int(ptab[rows[j], PT_COUNT])
        scratch = np.empty((2, at, 2))
        many = npa > 1 or first[sid + 1] - first[sid] > 1
        for i in range(npa):  # piece pairs in engine.collide's order
            sa = starts[i]
            ka = starts[i + 1] - sa
            if many:
                a0, a1, a2, a3 = piece_box(work[0], sa, ka, radius, pa[0], pa[1], pa[2], pa[3], 0.0)
            sb = na
            for j in range(first[sid], first[sid + 1]):
                q = rows[j]
                kb = int(ptab[q, PT_COUNT])
                pb = (ptab[q, PT_X], ptab[q, PT_Y], ptab[q, PT_C], ptab[q, PT_S])
                sb += kb
                if many:
                    b0, b1, b2, b3 = piece_box(work[0], sb - kb, kb, ptab[q, PT_RADIUS], pb[0], pb[1],
                                               pb[2], pb[3], 0.0)
                    if a0 > b2 or b0 > a2 or a1 > b3 or b1 > a3:
                        continue
                if filled == owners.shape[0]:
                    owners = grown(owners)
                    more = np.empty((2 * filled, MANIFOLD_SIZE))
                    copy_rows(more, out, filled)
                    out = more
                if collide_pieces(work[0], work[1], work[2], sa, ka, radius, pa, sb - kb, kb,
                                  ptab[q, PT_RADIUS], pb, 0.0, 0.0, scratch[0], scratch[1], out[filled]) > 0:
                    owners[filled] = sid
                    filled += 1
    return owners[:filled].copy(), out[:filled].copy()


@njit
def cast_pieces(cast, box, mask, forest, geo):
    """First world piece a swept shape touches (the kernel of ``World.cast_shape``).

    ``cast`` is ``(verts, starts, radius, sweep, tol)`` of the swept shape, as
    ``collision.toi.shapes_toi`` takes them; ``box`` ``(x0, y0, x1, y1)`` bounds the whole
    sweep; ``mask``, ``forest``, ``geo``: as in the module docstring. The world's pieces
    are held at their current poses. Returns ``(piece, t, px, py, nx, ny)`` as
    ``shapes_toi`` does, with ``piece`` = -1 when nothing is hit.
    """
    cast, mask, forest, geo = borrowed((cast, mask, forest, geo))  # no atomic counts per piece
    verts_s, starts_s, rs, sweep, tol = cast
    ptab, verts = geo[0], geo[1]
    best_piece = -1
    best = MISS
    px = py = nx = ny = 0.0
    single = np.empty(2, np.int64)
    out, hits = forest_collect(forest, box[0], box[1], box[2], box[3], forest_stack(forest)[0],
                               np.empty(64, np.int64), 0)
    for h in range(hits):
        q = out[h]
        if mask[q] == 0:
            continue
        x, y, a = ptab[q, PT_X], ptab[q, PT_Y], ptab[q, PT_ANGLE]
        single[0] = int(ptab[q, PT_START])
        single[1] = single[0] + int(ptab[q, PT_COUNT])
        t, qx, qy, mx, my = shapes_toi(verts_s, starts_s, rs, sweep, verts, single,
                                       ptab[q, PT_RADIUS], (x, y, a, x, y, a, 0.0, 0.0), tol)
        # ties go to the lower piece index, so the answer does not depend on tree order
        if t >= 0.0 and (best < 0.0 or t < best or (t == best and q < best_piece)):
            best = t
            best_piece = q
            px, py, nx, ny = qx, qy, mx, my
    return best_piece, best, px, py, nx, ny
