"""The manifold cache: a pair's last manifold, reused while its bodies barely moved.

Most pairs in a resting pile move by micrometres relative to each other from one step
to the next, and their manifolds barely change. Each pair keeps its last computed
manifold in the bodies' own frames (the normal in A's, each point as a point on A's
surface in A's frame and one on B's in B's) with the relative pose it was computed at,
in its history row (the ``H_CACHE`` ... ``H_LP`` columns of ``layout.py``). While the
relative pose stays within the tolerance (``MANIFOLD_REUSE_TOLERANCE``: every point of
the moving body within it of where it was) and the bodies cannot approach faster than
then, the cached points are carried to the current poses and their separations
measured there, and the collision routine is skipped. Persistent manifolds (Bullet)
and PhysX's contact cache do the same; Box2D v3 recomputes every manifold every step.
The refreshed separation is exact for the cached pair of surface points; what the cache
misses is a new point entering the speculative margin or a clipped point sliding, both
bounded by the tolerance. Points beyond the margin when the manifold was computed stay
more than ``margin - tolerance`` apart, so none can be touched without the manifold
being recomputed first.

The narrowphase (``narrowphase.update_contacts``) asks, per pair, :func:`can_reuse`
with the pair's :func:`relative_pose`; then either :func:`refresh_from_cache`, or it
computes a manifold and :func:`store_in_cache` keeps it (all inlined but that last).
A frame is ``(x, y, cos, sin)`` of a body's origin and angle, as ``collide_pieces``
takes a pose; a manifold is the record of ``collision/manifold.py``.
"""
import math

from .._jit import njit_exact, njit_exact_inline
from .layout import CACHE_A_IN_B, CACHE_B_IN_A, CACHE_NONE, H_CACHE, H_COUNT, H_ID, H_LNX, H_LNY, H_LP, H_LP_STRIDE, H_POINTS, H_RA, H_REACH, H_RX, H_RY, H_STRIDE
from ..collision.manifold import M_NX, M_NY, M_P1X, M_P2X

# Values per point in a manifold record, from M_P1X on: x, y, separation, feature id.
MANIFOLD_POINT_STRIDE = M_P2X - M_P1X


@njit_exact_inline
def to_local(x, y, c, s):
    """Vector (x, y) in the frame rotated by (c, s) = (cos, sin) of its angle."""
    return c * x + s * y, c * y - s * x


@njit_exact_inline
def to_world(x, y, c, s):
    """Vector (x, y) of the frame rotated by (c, s) in the world."""
    return c * x - s * y, s * x + c * y


@njit_exact_inline
def relative_pose(com_a, com_b, frame_a, frame_b, angle_a, angle_b, extent_a, extent_b):
    """The pose the cache is keyed on: that of the body with the smaller extent in the
    other's frame, as ``(side, x, y, angle, arm)``.

    ``com_a``, ``com_b`` are the world centres of mass; ``side`` is CACHE_B_IN_A or
    CACHE_A_IN_B; ``arm`` is the smaller extent, how far a turn of the pose moves a point.
    """
    if extent_b <= extent_a:
        rx, ry = to_local(com_b[0] - com_a[0], com_b[1] - com_a[1], frame_a[2], frame_a[3])
        return CACHE_B_IN_A, rx, ry, angle_b - angle_a, extent_b
    rx, ry = to_local(com_a[0] - com_b[0], com_a[1] - com_b[1], frame_b[2], frame_b[3])
    return CACHE_A_IN_B, rx, ry, angle_a - angle_b, extent_a


@njit_exact_inline
def can_reuse(hist, i, pose, reach, tol):
    """Whether pair ``i``'s cached manifold still holds at ``pose`` (:func:`relative_pose`).

    It does while every point of the smaller body is within ``tol`` (meters) of where
    it was relative to the other when the manifold was computed, and the bodies'
    approach ``reach`` within the step exceeds the one then by at most ``tol``.
    """
    side, rx, ry, ra, arm = pose
    reuse = False
    if hist[i, H_CACHE] == side and reach <= hist[i, H_REACH] + tol:
        ex = rx - hist[i, H_RX]
        ey = ry - hist[i, H_RY]
        moved_by = math.sqrt(ex * ex + ey * ey) + abs(ra - hist[i, H_RA]) * arm
        reuse = moved_by <= tol
    return reuse


@njit_exact_inline
def refresh_from_cache(hist, i, frame_a, frame_b, man):
    """Write pair ``i``'s cached manifold at the bodies' current frames into ``man``
    (normal, points midway between the two cached surface points, their separations,
    last step's feature ids); return its point count."""
    xa, ya, ca, sa = frame_a
    xb, yb, cb, sb = frame_b
    n = int(hist[i, H_COUNT])
    man[M_NX], man[M_NY] = to_world(hist[i, H_LNX], hist[i, H_LNY], ca, sa)
    for p in range(n):
        lp = H_LP + p * H_LP_STRIDE
        pax, pay = to_world(hist[i, lp], hist[i, lp + 1], ca, sa)
        pbx, pby = to_world(hist[i, lp + 2], hist[i, lp + 3], cb, sb)
        pax += xa
        pay += ya
        pbx += xb
        pby += yb
        dst = M_P1X + MANIFOLD_POINT_STRIDE * p
        man[dst] = 0.5 * (pax + pbx)
        man[dst + 1] = 0.5 * (pay + pby)
        man[dst + 2] = (pbx - pax) * man[M_NX] + (pby - pay) * man[M_NY]
        man[dst + 3] = hist[i, H_POINTS + p * H_STRIDE + H_ID]
    return n


@njit_exact
def store_in_cache(hist, i, pose, reach, tol, frame_a, frame_b, man, n):
    """Keep the manifold ``man`` (``n`` points) just computed for pair ``i`` at ``pose``
    (:func:`relative_pose`) and ``reach`` in the pair's history; with ``tol`` 0 (the
    cache off) mark the pair as having none.

    Not inlined: it runs only after ``collide_pieces``, and inlined beside
    :func:`refresh_from_cache` (the other branch of the narrowphase's test) its arrays
    kept reference counting on every pair, cached or not (pyramid40's narrowphase:
    0.10 -> 0.12 ms). As a call it costs about 5 ns a recomputed pair.
    """
    hist[i, H_CACHE] = CACHE_NONE
    if tol > 0.0:
        xa, ya, ca, sa = frame_a
        xb, yb, cb, sb = frame_b
        side, rx, ry, ra, _ = pose
        hist[i, H_CACHE] = side
        hist[i, H_RX] = rx
        hist[i, H_RY] = ry
        hist[i, H_RA] = ra
        hist[i, H_REACH] = reach
        nx = man[M_NX]  # 0 for a manifold without points (the narrowphase clears it)
        ny = man[M_NY]
        hist[i, H_LNX], hist[i, H_LNY] = to_local(nx, ny, ca, sa)
        for p in range(n):
            src = M_P1X + MANIFOLD_POINT_STRIDE * p
            # the point on each surface: half the separation behind and ahead of the midpoint
            half = 0.5 * man[src + 2]
            lp = H_LP + p * H_LP_STRIDE
            hist[i, lp], hist[i, lp + 1] = to_local(
                man[src] - half * nx - xa, man[src + 1] - half * ny - ya, ca, sa)
            hist[i, lp + 2], hist[i, lp + 3] = to_local(
                man[src] + half * nx - xb, man[src + 1] + half * ny - yb, cb, sb)
