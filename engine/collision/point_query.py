"""Point against one convex piece: inside or not, and the nearest point of its outline.

The piece is rows ``s .. s + k - 1`` of the vertex, normal and seam pools
(``manifold.py``), the point given in the piece's frame. The rounding radius is left to
the caller, which combines the pieces of a shape first: a shape's signed distance is
minus (inside any piece) or plus the distance to the nearest *outline* edge over all
its pieces, minus its radius; the cuts of a concave polygon are not surface
(pymunk's ``cpPolyShapePointQuery`` for one convex polygon).
"""
import math

from .._jit import njit_exact_inline as njit_inline
from ..geometry.convex import closest_on_segment
from ..geometry.seam_rows import G_CUT

__all__ = ["piece_outline_distance"]


@njit_inline
def piece_outline_distance(verts, norms, ghost, s, k, px, py):
    """``(inside, dd, cx, cy, nx, ny)`` of point ``p`` against the piece's core.

    ``inside``: ``p`` is behind (or on) every face plane of a polygon core (never for
    a circle's or a capsule's core, which have no inside); ``dd``: the squared distance
    to the nearest non-cut edge of the core (for a circle, to its centre; ``inf`` for a
    piece cut on every side); ``c``: that nearest point; ``n``: that edge's outward
    normal (``(0, 1)`` for a circle).
    """
    if k == 1:
        cx = verts[s, 0]
        cy = verts[s, 1]
        return False, (px - cx) * (px - cx) + (py - cy) * (py - cy), cx, cy, 0.0, 1.0
    inside = k >= 3
    best = math.inf
    cx = cy = nx = ny = 0.0
    for i in range(k):
        a = s + i
        if norms[a, 0] * (px - verts[a, 0]) + norms[a, 1] * (py - verts[a, 1]) > 0.0:
            inside = False
        if ghost[a, G_CUT] != 0.0:
            continue
        b = s + i + 1 if i + 1 < k else s
        x, y, _ = closest_on_segment(px, py, verts[a, 0], verts[a, 1], verts[b, 0], verts[b, 1])
        dd = (px - x) * (px - x) + (py - y) * (py - y)
        if dd < best:
            best = dd
            cx = x
            cy = y
            nx = norms[a, 0]
            ny = norms[a, 1]
    return inside, best, cx, cy, nx, ny
