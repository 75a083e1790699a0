"""Small geometric helpers shared by the kernels: closest points and convex distance.

All functions are scalar ``@njit`` code over float64 values and (k, 2) float64 vertex
arrays; they allocate nothing.
"""
import math

from .._jit import njit_inline


@njit_inline
def direction(dx, dy):
    """Length ``d`` of ``(dx, dy)`` and its unit vector: ``(d, nx, ny)``; ``(0, 0, 0)`` for zero.

    Exact to rounding at any scale: ``sqrt(dx*dx + dy*dy)`` underflows for offsets below
    about 1e-154 (the square is subnormal) and the quotient is then far from unit length,
    so tiny vectors are scaled by their largest component first.
    """
    d = math.sqrt(dx * dx + dy * dy)
    if d > 1e-150:
        return d, dx / d, dy / d
    m = max(abs(dx), abs(dy))
    if m == 0.0:
        return 0.0, 0.0, 0.0
    ux = dx / m
    uy = dy / m
    u = math.sqrt(ux * ux + uy * uy)
    return m * u, ux / u, uy / u


@njit_inline
def closest_on_segment(px, py, ax, ay, bx, by):
    """Closest point to ``p`` on segment ``a``-``b``.

    Returns ``(cx, cy, t)`` with ``t`` in [0, 1] the fraction along the segment.
    A zero-length segment returns ``a``.
    """
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee <= 0.0:
        return ax, ay, 0.0
    t = ((px - ax) * ex + (py - ay) * ey) / ee
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return ax + t * ex, ay + t * ey, t


@njit_inline
def convex_distance(v, s1, k1, s2, k2):
    """Exact distance between two disjoint convex vertex sets (cores of pieces).

    Parameters
    ----------
    v : float64 array (m, 2)
        Core 1 is rows ``s1 .. s1 + k1 - 1`` of ``v``, core 2 rows ``s2 .. s2 + k2 - 1``,
        counter-clockwise, k >= 1, both in one frame.

    Returns
    -------
    (d, p1x, p1y, p2x, p2y): the distance and the closest points on each core.

    Notes
    -----
    Brute force over every vertex-against-edge pair in both directions: O(k1 * k2),
    exact (no iteration tolerance like GJK). It runs only when SAT found the cores
    apart but within the rounding radii or the speculative margin. For disjoint convex
    sets the closest pair always involves a vertex of one set, so this search finds it.
    """
    best = math.inf
    b1x = b1y = b2x = b2y = 0.0
    for side in range(2):  # core 1's vertices against core 2's edges, then the other way
        sv, kv, se, ke = (s1, k1, s2, k2) if side == 0 else (s2, k2, s1, k1)
        for i in range(sv, sv + kv):
            px = v[i, 0]
            py = v[i, 1]
            for j in range(ke):
                j1 = se + j
                j2 = se + (j + 1 if j + 1 < ke else 0)
                cx, cy, _ = closest_on_segment(px, py, v[j1, 0], v[j1, 1], v[j2, 0], v[j2, 1])
                dd = (cx - px) * (cx - px) + (cy - py) * (cy - py)
                if dd < best:
                    best = dd
                    if side == 0:
                        b1x, b1y, b2x, b2y = px, py, cx, cy
                    else:
                        b1x, b1y, b2x, b2y = cx, cy, px, py
    return math.sqrt(best), b1x, b1y, b2x, b2y


@njit_inline
def turns_freely(verts, start, count):
    """Whether a piece is a circle centred on its body's origin: its box is the same at
    any angle, so boxing it needs no sine or cosine (``piece_box`` with ``c, s = 1, 0``).

    Examples
    --------
    >>> import numpy as np
    >>> turns_freely(np.zeros((1, 2)), 0, 1), turns_freely(np.array([[0.5, 0.0]]), 0, 1)
    (True, False)
    """
    return count == 1 and verts[start, 0] == 0.0 and verts[start, 1] == 0.0


@njit_inline
def piece_box(verts, start, count, radius, x, y, c, s, grow):
    """World AABB (minx, miny, maxx, maxy) of a piece at pose (x, y, c, s), grown by ``grow``."""
    minx = miny = math.inf
    maxx = maxy = -math.inf
    for k in range(start, start + count):
        wx = x + c * verts[k, 0] - s * verts[k, 1]
        wy = y + s * verts[k, 0] + c * verts[k, 1]
        minx = min(minx, wx)
        miny = min(miny, wy)
        maxx = max(maxx, wx)
        maxy = max(maxy, wy)
    r = radius + grow
    return minx - r, miny - r, maxx + r, maxy + r
