"""Kernels of the world's queries: candidates from both broadphase trees, then the exact
per-piece test (``collision``). ``queries.py`` is their Python face.

Every kernel takes the same few arguments, so each query is one call:

- ``mask`` uint8 (pieces,): 1 where a piece may be reported (``queries.accepted_pieces``:
  filter, sensors; free rows 0).
- ``escaped`` int64 (e,): pieces whose exact box at the current pose is not inside their
  tree leaf's box (the step refreshes leaves at its start, so a body pushed during the
  step can leave its box until the next one; ``query_poses`` finds them). They are
  tested as well, so no query depends on the trees being fresh.
- ``geo``: ``(pose, body, shape, start, count, radius, verts, norms, ghost)``: per body
  row ``pose`` float64 (bodies, 4) = ``(x, y, cos, sin)``; per piece row its body,
  shape id, first vertex, vertex count and radius; the geometry pool.
- ``trees``: the moving and the static tree, each ``(aabb, child1, child2, height,
  user, meta)`` (``broadphase/tree_ops.py``).

Plain tuples of arrays, not the state's named tuples: Numba unboxes a named tuple of
seven arrays in 3 us and the same arrays as plain arguments in 0.6 us (measured), and a
single ray cast costs less than that.
"""
import math

import numpy as np

from .._jit import njit_exact as njit, njit_inline
from ..broadphase.tree_ops import META_ROOT, grown, tree_collect
from ..collision.ray_cast import ray_cast_piece
from ..collision.toi import MISS, shapes_toi
from ..constants import STATIC
from ..geometry.convex import direction, piece_box


@njit
def query_poses(pos, angle, btype, piece_body, piece_start, piece_count, piece_radius,
                piece_node, verts, moving_aabb, static_aabb, pose):
    """Fill ``pose`` (bodies, 4) with each body's ``(x, y, cos, sin)`` and return the
    ``escaped`` pieces (int64): live pieces whose exact box is not inside their leaf's."""
    for i in range(pos.shape[0]):
        pose[i, 0] = pos[i, 0]
        pose[i, 1] = pos[i, 1]
        pose[i, 2] = math.cos(angle[i])
        pose[i, 3] = math.sin(angle[i])
    out = np.empty(16, np.int64)
    n = 0
    for p in range(piece_body.shape[0]):
        b = piece_body[p]
        if b < 0:
            continue
        x0, y0, x1, y1 = piece_box(verts, piece_start[p], piece_count[p], piece_radius[p],
                                   pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3], 0.0)
        leaf = static_aabb[piece_node[p]] if btype[b] == STATIC else moving_aabb[piece_node[p]]
        if x0 < leaf[0] or y0 < leaf[1] or x1 > leaf[2] or y1 > leaf[3]:
            if n == out.shape[0]:
                out = grown(out)
            out[n] = p
            n += 1
    return out[:n].copy()


@njit_inline
def _ray_piece(geo, q, px, py, dx, dy):
    """Piece ``q`` against the world ray ``p + t d``: ``(t, nx, ny)``, normal in the world."""
    pose, body, _, start, count, radius, verts, norms, ghost = geo
    b = body[q]
    x = pose[b, 0]
    y = pose[b, 1]
    c = pose[b, 2]
    s = pose[b, 3]
    lx = c * (px - x) + s * (py - y)
    ly = c * (py - y) - s * (px - x)
    t, nx, ny = ray_cast_piece(verts, norms, ghost, start[q], count[q], radius[q], lx, ly,
                               c * dx + s * dy, c * dy - s * dx)
    return t, c * nx - s * ny, s * nx + c * ny


@njit_inline
def _crosses(aabb, node, px, py, qx, qy, vx, vy):
    """Whether the segment ``p``-``q`` (unit perpendicular ``v``) may cross box ``node``:
    the boxes overlap and ``v`` does not separate them (Box2D ``b2DynamicTree_RayCast``)."""
    if (aabb[node, 0] > max(px, qx) or aabb[node, 2] < min(px, qx)
            or aabb[node, 1] > max(py, qy) or aabb[node, 3] < min(py, qy)):
        return False
    cx = 0.5 * (aabb[node, 0] + aabb[node, 2])
    cy = 0.5 * (aabb[node, 1] + aabb[node, 3])
    hx = 0.5 * (aabb[node, 2] - aabb[node, 0])
    hy = 0.5 * (aabb[node, 3] - aabb[node, 1])
    return abs(vx * (px - cx) + vy * (py - cy)) <= abs(vx) * hx + abs(vy) * hy


@njit_inline
def tree_stack(trees):
    """A traversal stack deep enough for both ``trees``."""
    depth = 0
    for w in range(2):
        root = trees[w][5][META_ROOT]
        if root >= 0:
            depth = max(depth, trees[w][3][root])
    return np.empty(depth + 2, np.int32)


@njit_inline
def _closer(geo, mask, q, px, py, dx, dy, best):
    """``best`` = ``(piece, t, shape id, nx, ny)``, replaced by piece ``q``'s hit when that
    is closer; ties go to the lower shape id, then the lower piece row."""
    if mask[q] == 0:
        return best
    t, nx, ny = _ray_piece(geo, q, px, py, dx, dy)
    if t < 0.0 or t > best[1]:
        return best
    s = geo[2][q]
    if best[0] < 0 or t < best[1] or s < best[2] or (s == best[2] and q < best[0]):
        return q, t, s, nx, ny
    return best


@njit_inline
def _ray_closest(px, py, dx, dy, mask, escaped, geo, trees, stack):
    """The closest hit of the ray ``p + t d`` (t in [0, 1]): ``(piece, t, shape id, nx,
    ny)``, piece -1 on a miss. Each hit clips the segment the trees are searched with
    (Box2D's ``maxFraction``), and the nearer child is searched first so that the clip
    comes early."""
    best = (-1, 1.0, -1, 0.0, 0.0)
    _, ux, uy = direction(dx, dy)
    for w in range(2):
        aabb, child1, child2, height, user, meta = trees[w]
        if meta[META_ROOT] < 0:
            continue
        stack[0] = meta[META_ROOT]
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            t = best[1]
            if not _crosses(aabb, node, px, py, px + t * dx, py + t * dy, -uy, ux):
                continue
            if height[node] == 0:
                best = _closer(geo, mask, user[node], px, py, dx, dy, best)
                continue
            a = child1[node]
            b = child2[node]
            # centres along d (doubled): the farther child goes below the nearer
            if ((aabb[a, 0] + aabb[a, 2]) * dx + (aabb[a, 1] + aabb[a, 3]) * dy
                    < (aabb[b, 0] + aabb[b, 2]) * dx + (aabb[b, 1] + aabb[b, 3]) * dy):
                a, b = b, a
            stack[top] = a
            stack[top + 1] = b
            top += 2
    for q in escaped:
        best = _closer(geo, mask, q, px, py, dx, dy, best)
    return best


@njit
def ray_cast_first(px, py, ex, ey, mask, escaped, geo, trees):
    """The closest hit of the ray from ``p`` to ``e`` (``World.ray_cast``):
    ``(shape id, t, hit x, hit y, nx, ny)``, shape id -1 on a miss."""
    dx = ex - px
    dy = ey - py
    q, t, s, nx, ny = _ray_closest(px, py, dx, dy, mask, escaped, geo, trees, tree_stack(trees))
    if q < 0:
        return -1, 1.0, ex, ey, 0.0, 0.0
    return s, t, px + t * dx, py + t * dy, nx, ny


@njit
def ray_cast_batch(starts, ends, mask, escaped, geo, trees, fraction, point, normal, shape_id):
    """The closest hit of every ray ``starts[i]`` -> ``ends[i]`` (``World.ray_cast_many``),
    written to ``fraction`` (k,), ``point`` (k, 2), ``normal`` (k, 2), ``shape_id`` (k,):
    a miss is fraction 1, the end point, normal (0, 0), shape id -1."""
    stack = tree_stack(trees)
    for i in range(starts.shape[0]):
        px = starts[i, 0]
        py = starts[i, 1]
        dx = ends[i, 0] - px
        dy = ends[i, 1] - py
        q, t, s, nx, ny = _ray_closest(px, py, dx, dy, mask, escaped, geo, trees, stack)
        fraction[i] = t
        if q < 0:
            point[i, 0] = ends[i, 0]
            point[i, 1] = ends[i, 1]
            shape_id[i] = -1
        else:
            point[i, 0] = px + t * dx
            point[i, 1] = py + t * dy
            shape_id[i] = s
        normal[i, 0] = nx + 0.0  # no -0.0
        normal[i, 1] = ny + 0.0


@njit_inline
def _record(geo, mask, q, px, py, dx, dy, pieces, hits, n):
    """Append piece ``q``'s hit, if any, to ``pieces`` / ``hits`` (grown when full)."""
    if mask[q] == 0:
        return pieces, hits, n
    t, nx, ny = _ray_piece(geo, q, px, py, dx, dy)
    if t < 0.0:
        return pieces, hits, n
    if n == pieces.shape[0]:
        pieces = grown(pieces)
        more = np.empty((2 * n, 3))
        more[:n] = hits
        hits = more
    pieces[n] = q
    hits[n, 0] = t
    hits[n, 1] = nx
    hits[n, 2] = ny
    return pieces, hits, n + 1


@njit
def ray_cast_every(px, py, ex, ey, mask, escaped, geo, trees):
    """Every piece the ray from ``p`` to ``e`` hits (``World.ray_cast_all``): ``(pieces,
    hits)``, ``hits`` float64 (h, 3) = ``(t, nx, ny)``, in search order (an escaped piece
    may come twice)."""
    dx = ex - px
    dy = ey - py
    _, ux, uy = direction(dx, dy)
    stack = tree_stack(trees)
    pieces = np.empty(16, np.int64)
    hits = np.empty((16, 3))
    n = 0
    for w in range(2):
        aabb, child1, child2, height, user, meta = trees[w]
        if meta[META_ROOT] < 0:
            continue
        stack[0] = meta[META_ROOT]
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            if not _crosses(aabb, node, px, py, ex, ey, -uy, ux):
                continue
            if height[node] == 0:
                pieces, hits, n = _record(geo, mask, user[node], px, py, dx, dy, pieces, hits, n)
                continue
            stack[top] = child2[node]
            stack[top + 1] = child1[node]
            top += 2
    for q in escaped:
        pieces, hits, n = _record(geo, mask, q, px, py, dx, dy, pieces, hits, n)
    return pieces[:n].copy(), hits[:n].copy()


@njit
def tree_candidates(aabb, child1, child2, height, user, meta,
                    s_aabb, s_child1, s_child2, s_height, s_user, s_meta, x0, y0, x1, y1, out):
    """Pieces under the box [x0, y0, x1, y1] in both trees: ``(out, count)``, ``out`` grown
    (a new array) when the pieces do not fit."""
    depth = 0
    if meta[META_ROOT] >= 0:
        depth = height[meta[META_ROOT]]
    if s_meta[META_ROOT] >= 0:
        depth = max(depth, s_height[s_meta[META_ROOT]])
    stack = np.empty(depth + 2, np.int32)
    out, n = tree_collect(aabb, child1, child2, height, user, meta[META_ROOT], x0, y0, x1, y1,
                          stack, out, 0)
    return tree_collect(s_aabb, s_child1, s_child2, s_height, s_user, s_meta[META_ROOT],
                        x0, y0, x1, y1, stack, out, n)


@njit
def cast_pieces(cast, box, bodies, pieces, trees, mask, escaped):
    """First world piece a swept shape touches (the kernel of ``World.cast_shape``).

    ``cast`` is ``(verts, starts, radius, sweep, tol)`` of the swept shape, as
    ``collision.toi.shapes_toi`` takes them; ``box`` ``(x0, y0, x1, y1)`` bounds the whole
    sweep; ``bodies``, ``pieces``: the world's ``BodyArrays`` and ``PieceArrays``;
    ``trees``: the moving and the static tree's ``TreeArrays``; ``mask``, ``escaped``:
    as in the module docstring. The world's pieces are held at their current poses.
    Returns ``(piece, t, px, py, nx, ny)`` as ``shapes_toi`` does, with ``piece`` = -1
    when nothing is hit.
    """
    verts_s, starts_s, rs, sweep, tol = cast
    x0, y0, x1, y1 = box
    piece_body, piece_start, piece_radius, verts = pieces.body, pieces.start, pieces.radius, pieces.verts
    piece_count, pos, angle = pieces.count, bodies.pos, bodies.angle
    aabb, parent, child1, child2, height, user, meta = trees[0]
    s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta = trees[1]
    out = np.empty(64, np.int64)
    best_piece = -1
    best = MISS
    px = py = nx = ny = 0.0
    single = np.empty(2, np.int64)
    out, hits = tree_candidates(aabb, child1, child2, height, user, meta, s_aabb, s_child1,
                                s_child2, s_height, s_user, s_meta, x0, y0, x1, y1, out)
    for h in range(hits + escaped.shape[0]):
        q = out[h] if h < hits else escaped[h - hits]
        if mask[q] == 0:
            continue
        j = piece_body[q]
        other = (pos[j, 0], pos[j, 1], angle[j], pos[j, 0], pos[j, 1], angle[j], 0.0, 0.0)
        single[0] = piece_start[q]
        single[1] = piece_start[q] + piece_count[q]
        t, qx, qy, mx, my = shapes_toi(verts_s, starts_s, rs, sweep, verts, single,
                                       piece_radius[q], other, tol)
        # ties go to the lower piece index, so the answer does not depend on tree order
        if t >= 0.0 and (best < 0.0 or t < best or (t == best and q < best_piece)):
            best = t
            best_piece = q
            px, py, nx, ny = qx, qy, mx, my
    return best_piece, best, px, py, nx, ny
