"""Kernels of the world's overlap queries: points, boxes and shapes against the world's
shapes. The arguments are those of ``query_kernels.py`` (``mask``, ``escaped``, ``geo``,
``trees``), plus ``shape_pieces = (first, rows)``: shape ``i``'s pieces are rows
``rows[first[i]:first[i + 1]]`` of the piece store, in the shape's own piece order (a
concave shape is measured by all its pieces, also those the trees did not return).
"""
import math

import numpy as np

from .._jit import njit_exact as njit, njit_inline
from ..broadphase.tree_ops import META_ROOT, grown, tree_collect
from ..collision.manifold import MANIFOLD_SIZE, collide_pieces
from ..collision.point_query import piece_outline_distance
from ..collision.shape_pairs import PACK_GHOST, PACK_NX, PACK_VX
from ..geometry.convex import direction, piece_box
from ..geometry.seam_rows import GHOST_SIZE
from .query_kernels import tree_stack


@njit_inline
def _shape_distance(geo, shape_pieces, sid, px, py):
    """Signed distance from world point ``p`` to shape ``sid`` (negative inside: minus
    the distance to its outline) and the nearest point of its surface: ``(d, x, y)``."""
    pose, body, _, start, count, radius, verts, norms, ghost = geo
    first, rows = shape_pieces
    b = body[rows[first[sid]]]
    x = pose[b, 0]
    y = pose[b, 1]
    c = pose[b, 2]
    s = pose[b, 3]
    lx = c * (px - x) + s * (py - y)
    ly = c * (py - y) - s * (px - x)
    inside = False
    best = math.inf
    cx = cy = nx = ny = r = 0.0
    for j in range(first[sid], first[sid + 1]):
        q = rows[j]
        r = radius[q]
        into, dd, qx, qy, mx, my = piece_outline_distance(verts, norms, ghost, start[q], count[q],
                                                          lx, ly)
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
    sid = geo[2][q]
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
        sids = grown(sids)
        more = np.empty((2 * n, 3))
        more[:n] = hits
        hits = more
    sids[n] = sid
    hits[n, 0] = d
    hits[n, 1] = x
    hits[n, 2] = y
    return sids, hits, n + 1, bound


@njit
def query_points(px, py, limit, nearest, mask, escaped, geo, shape_pieces, trees):
    """Shapes within ``limit`` of point ``p`` (``World.query_point``; with ``nearest``,
    only the nearest one, ties to the lower id): ``(sids, hits)``, ``hits`` float64 (h, 3)
    = ``(distance, x, y)`` of the nearest surface point, in search order.

    Tree nodes farther than the bound from ``p`` are skipped; for the nearest shape the
    bound shrinks to the best distance found (pymunk's ``cpSpacePointQueryNearest``)."""
    seen = np.zeros(shape_pieces[0].shape[0] - 1, np.uint8)
    found = (np.empty(8, np.int64), np.empty((8, 3)), 0, limit)
    stack = tree_stack(trees)
    for w in range(2):
        aabb, child1, child2, height, user, meta = trees[w]
        if meta[META_ROOT] < 0:
            continue
        stack[0] = meta[META_ROOT]
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            gx = max(aabb[node, 0] - px, px - aabb[node, 2], 0.0)
            gy = max(aabb[node, 1] - py, py - aabb[node, 3], 0.0)
            if math.sqrt(gx * gx + gy * gy) > found[3]:
                continue
            if height[node] == 0:
                found = _visit_point(geo, shape_pieces, mask, seen, user[node], px, py, limit,
                                     nearest, found)
                continue
            stack[top] = child2[node]
            stack[top + 1] = child1[node]
            top += 2
    for q in escaped:
        found = _visit_point(geo, shape_pieces, mask, seen, q, px, py, limit, nearest, found)
    sids, hits, n, _ = found
    return sids[:n].copy(), hits[:n].copy()


@njit_inline
def _shape_box(geo, shape_pieces, sid):
    """Exact box ``(x0, y0, x1, y1)`` of shape ``sid`` at its pose: the union of its pieces'."""
    pose, body, _, start, count, radius, verts, _, _ = geo
    first, rows = shape_pieces
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for j in range(first[sid], first[sid + 1]):
        q = rows[j]
        b = body[q]
        a0, a1, a2, a3 = piece_box(verts, start[q], count[q], radius[q], pose[b, 0], pose[b, 1],
                                   pose[b, 2], pose[b, 3], 0.0)
        x0 = min(x0, a0)
        y0 = min(y0, a1)
        x1 = max(x1, a2)
        y1 = max(y1, a3)
    return x0, y0, x1, y1


@njit_inline
def _candidates(box, escaped, trees, extra):
    """Pieces under ``box`` in both trees, then ``escaped``, then the first piece of each
    shape in ``extra`` (int64 shape ids, with ``first``/``rows``): ``(out, n)``."""
    x0, y0, x1, y1 = box
    out = np.empty(64, np.int64)
    stack = tree_stack(trees)
    n = 0
    for w in range(2):
        aabb, child1, child2, height, user, meta = trees[w]
        out, n = tree_collect(aabb, child1, child2, height, user, meta[META_ROOT], x0, y0, x1, y1,
                              stack, out, n)
    for q in escaped:
        if n == out.shape[0]:
            out = grown(out)
        out[n] = q
        n += 1
    first, rows, ids = extra
    for sid in ids:
        if n == out.shape[0]:
            out = grown(out)
        out[n] = rows[first[sid]]
        n += 1
    return out, n


@njit
def query_box(x0, y0, x1, y1, mask, escaped, geo, shape_pieces, multi, trees):
    """Ids of the shapes whose exact box overlaps ``[x0, y0, x1, y1]`` (``World.query_aabb``;
    touching counts), in search order. ``multi`` int64: the shapes of several pieces,
    whose box may overlap where none of their pieces' boxes does."""
    out, n = _candidates((x0, y0, x1, y1), escaped, trees, (shape_pieces[0], shape_pieces[1], multi))
    seen = np.zeros(shape_pieces[0].shape[0] - 1, np.uint8)
    sids = np.empty(n, np.int64)
    m = 0
    for k in range(n):
        q = out[k]
        sid = geo[2][q]
        if mask[q] == 0 or seen[sid] != 0:
            continue
        seen[sid] = 1
        a0, a1, a2, a3 = _shape_box(geo, shape_pieces, sid)
        if a0 <= x1 and x0 <= a2 and a1 <= y1 and y0 <= a3:
            sids[m] = sid
            m += 1
    return sids[:m].copy()


@njit_inline
def _load(work, at, verts, norms, ghost, src, count):
    """Copy ``count`` pool rows from ``src`` into ``work`` (verts, norms, ghost) at ``at``,
    growing it when needed."""
    wv, wn, wg = work
    if at + count > wv.shape[0]:
        size = 2 * (at + count)
        nv = np.empty((size, 2))
        nn = np.empty((size, 2))
        ng = np.empty((size, GHOST_SIZE))
        nv[:at] = wv[:at]
        nn[:at] = wn[:at]
        ng[:at] = wg[:at]
        wv, wn, wg = nv, nn, ng
    for k in range(count):
        wv[at + k, 0] = verts[src + k, 0]
        wv[at + k, 1] = verts[src + k, 1]
        wn[at + k, 0] = norms[src + k, 0]
        wn[at + k, 1] = norms[src + k, 1]
        for g in range(GHOST_SIZE):
            wg[at + k, g] = ghost[src + k, g]
    return wv, wn, wg


@njit
def query_overlaps(pack, starts, radius, x, y, angle, mask, escaped, geo, shape_pieces, trees):
    """Manifolds of a shape placed at ``(x, y, angle)`` with every world shape it touches
    (``World.query_shape``), computed exactly as ``engine.collide`` computes them (the same
    piece pairs in the same order, ``collision.manifold.collide_pieces``).

    ``pack``, ``starts``, ``radius``: the shape's ``_pack``, ``_starts`` and radius
    (``collision/shape_pairs.py``). Returns ``(owners, rows)``: per touching piece pair
    the world shape's id and its manifold row (MANIFOLD_SIZE), grouped by shape.
    """
    pose, body, _, _, count, pradius, verts, norms, ghost = geo
    first, rows = shape_pieces
    pa = (x, y, math.cos(angle), math.sin(angle))
    na = pack.shape[0]
    npa = starts.shape[0] - 1
    work = (np.empty((na + 16, 2)), np.empty((na + 16, 2)), np.empty((na + 16, GHOST_SIZE)))
    wv, wn, wg = work
    for k in range(na):
        wv[k, 0] = pack[k, PACK_VX]
        wv[k, 1] = pack[k, PACK_VX + 1]
        wn[k, 0] = pack[k, PACK_NX]
        wn[k, 1] = pack[k, PACK_NX + 1]
        for g in range(GHOST_SIZE):
            wg[k, g] = pack[k, PACK_GHOST + g]
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for i in range(npa):
        a0, a1, a2, a3 = piece_box(wv, starts[i], starts[i + 1] - starts[i], radius, pa[0], pa[1],
                                   pa[2], pa[3], 0.0)
        x0, y0, x1, y1 = min(x0, a0), min(y0, a1), max(x1, a2), max(y1, a3)
    none = np.empty(0, np.int64)
    cands, n = _candidates((x0, y0, x1, y1), escaped, trees, (first, rows, none))
    seen = np.zeros(first.shape[0] - 1, np.uint8)
    out = np.empty((4, MANIFOLD_SIZE))
    owners = np.empty(4, np.int64)
    filled = 0
    for c in range(n):
        q = cands[c]
        sid = geo[2][q]
        if mask[q] == 0 or seen[sid] != 0:
            continue
        seen[sid] = 1
        at = na
        for j in range(first[sid], first[sid + 1]):
            work = _load(work, at, verts, norms, ghost, geo[3][rows[j]], count[rows[j]])
            at += count[rows[j]]
        wv, wn, wg = work
        scratch = np.empty((2, at, 2))
        many = npa > 1 or first[sid + 1] - first[sid] > 1
        for i in range(npa):
            sa = starts[i]
            ka = starts[i + 1] - sa
            if many:
                a0, a1, a2, a3 = piece_box(wv, sa, ka, radius, pa[0], pa[1], pa[2], pa[3], 0.0)
            sb = na
            for j in range(first[sid], first[sid + 1]):
                qb = rows[j]
                kb = count[qb]
                b = body[qb]
                pb = (pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3])
                sb += kb
                if many:
                    b0, b1, b2, b3 = piece_box(wv, sb - kb, kb, pradius[qb], pb[0], pb[1], pb[2], pb[3],
                                               0.0)
                    if a0 > b2 or b0 > a2 or a1 > b3 or b1 > a3:
                        continue
                if filled == owners.shape[0]:
                    owners = grown(owners)
                    more = np.empty((2 * filled, MANIFOLD_SIZE))
                    more[:filled] = out
                    out = more
                if collide_pieces(wv, wn, wg, sa, ka, radius, pa, sb - kb, kb, pradius[qb], pb, 0.0,
                                  0.0, scratch[0], scratch[1], out[filled]) > 0:
                    owners[filled] = sid
                    filled += 1
    return owners[:filled].copy(), out[:filled].copy()
