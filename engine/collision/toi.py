"""Time of impact of swept convex pieces (the kernels behind ``time_of_impact``,
``cast_shape`` and the continuous stage in ``ccd.py``).

Time of impact is found by *conservative advancement* (Mirtich 1996; Catto, GDC 2013):
at time ``t`` take the exact distance ``d`` between the two pieces' cores and the
direction ``n`` between the closest points. Along that fixed axis the gap can close at
most as fast as ``(dA - dB) . n + |turnA| reachA + |turnB| reachB`` per unit of ``t``
(translation over the step, turn angle, farthest core point from the rotation centre),
and the distance is never smaller than the gap along any axis. So advancing ``t`` by
``(d - target) / speed`` can never step past the first contact. Pure translation along
a face converges in one iteration; a glancing pass ends at once because nothing closes
along ``n``.

A *sweep* is a tuple ``(c0x, c0y, a0, c1x, c1y, a1, lx, ly)``: the rotation centre moves
linearly from ``c0`` to ``c1`` while the angle goes linearly from ``a0`` to ``a1``; a
vertex ``v`` (in the vertex pool's frame) is at ``c(t) + R(a(t)) (v - l)``.
"""
import math

import numpy as np

from .._jit import borrowed, njit, njit_inline
from ..geometry.convex import convex_distance

MAX_ITERATIONS = 50  # conservative advancement steps before giving up (stopping early)
MISS = -1.0


@njit_inline
def _place(verts, start, count, sweep, t, out, at):
    """Write the piece's core vertices at time ``t`` of ``sweep`` to ``out[at:at + count]``."""
    cx = sweep[0] + t * (sweep[3] - sweep[0])
    cy = sweep[1] + t * (sweep[4] - sweep[1])
    a = sweep[2] + t * (sweep[5] - sweep[2])
    c = math.cos(a)
    s = math.sin(a)
    for k in range(count):
        x = verts[start + k, 0] - sweep[6]
        y = verts[start + k, 1] - sweep[7]
        out[at + k, 0] = cx + c * x - s * y
        out[at + k, 1] = cy + s * x + c * y


@njit_inline
def core_reach(verts, start, count, lx, ly):
    """Distance from the rotation centre ``l`` to the farthest core vertex of the piece in
    rows ``start .. start + count - 1`` of ``verts`` (float64 (m, 2))."""
    r = 0.0
    for k in range(start, start + count):
        dx = verts[k, 0] - lx
        dy = verts[k, 1] - ly
        r = max(r, math.sqrt(dx * dx + dy * dy))
    return r


@njit_inline
def _inside(v, s, k, px, py):
    """Point strictly inside or on the counter-clockwise convex polygon rows s..s+k-1 (k >= 3)."""
    for i in range(k):
        j = i + 1 if i + 1 < k else 0
        ax = v[s + i, 0]
        ay = v[s + i, 1]
        ex = v[s + j, 0] - ax
        ey = v[s + j, 1] - ay
        if ex * (py - ay) - ey * (px - ax) < 0.0:
            return False
    return True


@njit_inline
def _cross(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit
def cores_overlap(v, s1, k1, s2, k2):
    """True when two convex cores (rows of ``v``, counter-clockwise) share a point.

    Two convex sets overlap exactly when one contains a vertex of the other or their
    boundaries cross; ``convex_distance`` measures boundaries only, so this decides
    whether its answer is a distance or an overlap.
    """
    v = borrowed(v)  # (the caller keeps it alive)
    if k1 >= 3:
        for j in range(s2, s2 + k2):
            if _inside(v, s1, k1, v[j, 0], v[j, 1]):
                return True
    if k2 >= 3:
        for i in range(s1, s1 + k1):
            if _inside(v, s2, k2, v[i, 0], v[i, 1]):
                return True
    if k1 < 2 or k2 < 2:
        return False
    e1 = k1 if k1 > 2 else 1  # a segment core has one edge, not two
    e2 = k2 if k2 > 2 else 1
    for i in range(e1):
        ax = v[s1 + i, 0]
        ay = v[s1 + i, 1]
        bx = v[s1 + (i + 1) % k1, 0]
        by = v[s1 + (i + 1) % k1, 1]
        for j in range(e2):
            cx = v[s2 + j, 0]
            cy = v[s2 + j, 1]
            dx = v[s2 + (j + 1) % k2, 0]
            dy = v[s2 + (j + 1) % k2, 1]
            d1 = _cross(ax, ay, bx, by, cx, cy)
            d2 = _cross(ax, ay, bx, by, dx, dy)
            d3 = _cross(cx, cy, dx, dy, ax, ay)
            d4 = _cross(cx, cy, dx, dy, bx, by)
            if ((d1 > 0.0) != (d2 > 0.0) and (d3 > 0.0) != (d4 > 0.0)
                    and d1 != 0.0 and d2 != 0.0 and d3 != 0.0 and d4 != 0.0):
                return True
    return False


@njit
def piece_toi(verts_a, sa, ka, sweep_a, verts_b, sb, kb, sweep_b, target, tol, scratch):
    """First time in [0, 1] at which two swept convex cores come within ``target``.

    Parameters
    ----------
    verts_a, verts_b : float64 (n, 2)
        Core vertices; piece A is rows ``sa .. sa + ka - 1`` of ``verts_a`` (k = 1 for a
        circle, 2 for a capsule, >= 3 for a polygon, counter-clockwise).
    sweep_a, sweep_b : tuple of 8 floats (see the module docstring).
    target : float
        Core distance that counts as contact (the sum of the rounding radii to find
        touching surfaces; the world uses a little less, so the clamped body touches).
    tol : float
        Accept any distance up to ``target + tol``.
    scratch : float64 (>= ka + kb, 2)

    Returns
    -------
    (t, d, px, py, nx, ny): the fraction (``MISS`` = -1.0 when the cores never come
    within ``target`` during the sweep), the core distance then, the closest point on
    B's core and the unit direction from A's closest point to it (kept from the last
    iteration where the cores were apart, so a face reached exactly still has its
    normal). ``t`` is 0, with ``d`` and ``n`` zero, when the cores start overlapping. Never later
    than the true first contact; if ``MAX_ITERATIONS`` runs out (slow grazing rotation)
    the time reached so far is returned, which is early, never late.
    """
    # no atomic counts on the arrays (the caller keeps them alive; once per candidate pair)
    verts_a, verts_b, scratch = borrowed((verts_a, verts_b, scratch))
    ta_x = sweep_a[3] - sweep_a[0]
    ta_y = sweep_a[4] - sweep_a[1]
    tb_x = sweep_b[3] - sweep_b[0]
    tb_y = sweep_b[4] - sweep_b[1]
    turn = (abs(sweep_a[5] - sweep_a[2]) * core_reach(verts_a, sa, ka, sweep_a[6], sweep_a[7])
            + abs(sweep_b[5] - sweep_b[2]) * core_reach(verts_b, sb, kb, sweep_b[6], sweep_b[7]))
    t = 0.0
    d = 0.0
    p2x = p2y = nx = ny = 0.0
    for it in range(MAX_ITERATIONS):
        _place(verts_a, sa, ka, sweep_a, t, scratch, 0)
        _place(verts_b, sb, kb, sweep_b, t, scratch, ka)
        if it == 0 and cores_overlap(scratch, 0, ka, ka, kb):
            return 0.0, 0.0, scratch[ka, 0], scratch[ka, 1], 0.0, 0.0
        d, p1x, p1y, p2x, p2y = convex_distance(scratch, 0, ka, ka, kb)
        if d > 0.0:
            nx = (p2x - p1x) / d
            ny = (p2y - p1y) / d
        if d <= target + tol:
            return t, d, p2x, p2y, nx, ny
        speed = (ta_x - tb_x) * nx + (ta_y - tb_y) * ny + turn
        if speed <= 0.0:
            return MISS, d, p2x, p2y, nx, ny  # nothing closes the gap along n
        t += (d - target) / speed
        if t >= 1.0:
            return MISS, d, p2x, p2y, nx, ny
    return t, d, p2x, p2y, nx, ny


@njit
def shapes_toi(verts_a, starts_a, ra, sweep_a, verts_b, starts_b, rb, sweep_b, tol):
    """First touch of two swept shapes (one or several convex pieces each).

    Returns ``(t, px, py, nx, ny)``: the fraction (``MISS`` when they never touch), the
    contact point on B's surface and B's outward surface normal there (pointing at
    A). Shapes that start overlapping give ``t = 0`` and a zero normal.
    """
    npa = starts_a.shape[0] - 1
    npb = starts_b.shape[0] - 1
    kmax = 1
    for p in range(npa):
        kmax = max(kmax, starts_a[p + 1] - starts_a[p])
    for p in range(npb):
        kmax = max(kmax, starts_b[p + 1] - starts_b[p])
    scratch = np.empty((2 * kmax, 2))
    best = MISS
    px = py = nx = ny = 0.0
    for i in range(npa):
        for j in range(npb):
            t, d, qx, qy, ux, uy = piece_toi(
                verts_a, starts_a[i], starts_a[i + 1] - starts_a[i], sweep_a,
                verts_b, starts_b[j], starts_b[j + 1] - starts_b[j], sweep_b, ra + rb, tol, scratch)
            if t < 0.0 or (best >= 0.0 and t >= best):
                continue
            best = t
            nx = -ux
            ny = -uy
            px = qx + rb * nx
            py = qy + rb * ny
    return best, px, py, nx, ny
