"""Kernels of the world's queries: candidates from both broadphase trees, then the exact
per-piece test (``collision``). ``queries.py`` is their Python face."""
import numpy as np

from .._jit import njit
from ..broadphase.tree_ops import META_ROOT, tree_collect
from ..collision.toi import MISS, shapes_toi


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
def cast_pieces(cast, box, bodies, pieces, trees):
    """First world piece a swept shape touches (the kernel of ``World.cast_shape``).

    ``cast`` is ``(verts, starts, radius, sweep, tol)`` of the swept shape, as
    ``collision.toi.shapes_toi`` takes them; ``box`` ``(x0, y0, x1, y1)`` bounds the whole
    sweep; ``bodies``, ``pieces``: the world's ``BodyArrays`` and ``PieceArrays``;
    ``trees``: the moving and the static tree's ``TreeArrays``. The world's pieces are
    held at their current poses. Returns ``(piece, t, px, py, nx, ny)`` as ``shapes_toi`` does, with
    ``piece`` = -1 when nothing is hit.
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
    for h in range(hits):
        q = out[h]
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
