"""Contact events: which pairs of shapes started and stopped touching in a step.

Two shapes touch when some point of some pair of their pieces is within
``TOUCHING_DISTANCE`` (Box2D's rule: speculative points up to 4 slop count, so a begin
may come up to 2 cm before the surfaces meet). Events are per pair of *shapes*: the
pieces of a concave polygon report one begin when the first of them touches and one end
when the last stops. A shape pair is an int64 key ``(min_id << 32) | max_id``; the sets
are sorted, so events come in key order and runs repeat exactly.
"""
import math

import numpy as np

from .._jit import njit, njit_inline
from ..broadphase.key_sort import search_sorted, sort_keys, sort_unique
from ..constants import DYNAMIC
from .layout import (C_NX, C_NY, C_POINTS, P_RAX, P_RAY, P_STRIDE, R_APPROACH,
                     R_GAP, R_NORMAL, R_STRIDE)


@njit
def touch_changes(keys, flags, piece_shape, before):
    """The shape pairs that touch now, and those that began and ended touching since
    ``before`` (the sorted keys that touched after the last step): ``(now, begun, ended)``,
    each sorted unique int64 shape-pair keys. One call, as a step makes it.

    ``keys`` int64 (m,) piece-pair keys, ``flags`` uint8 (m,) the narrowphase's ``keep``
    flags (2: some point within ``TOUCHING_DISTANCE``), ``piece_shape`` int32 the shape
    id of each piece.
    """
    now = touching_shape_keys(keys, flags, piece_shape)
    return now, sorted_difference(now, before), sorted_difference(before, now)


@njit
def touching_shape_keys(keys, flags, piece_shape):
    """Sorted unique shape-pair keys of the pairs that touch (see :func:`touch_changes`)."""
    out = np.empty(keys.shape[0], np.int64)
    n = 0
    for i in range(keys.shape[0]):
        if flags[i] == 2:
            sa = piece_shape[keys[i] >> 32]
            sb = piece_shape[keys[i] & 0xFFFFFFFF]
            out[n] = (min(sa, sb) << 32) | max(sa, sb)
            n += 1
    out = out[:n]
    for i in range(1, n):  # piece order is shape order unless shapes were removed and
        if out[i] < out[i - 1]:  # re-added, or a concave shape has several pieces:
            sort_keys(out)  # then sort (most steps skip it; np.sort compiled for 1.5 s)
            break
    m = 0
    for i in range(n):
        if m == 0 or out[i] != out[m - 1]:
            out[m] = out[i]
            m += 1
    return out[:m].copy()


@njit
def sorted_difference(a, b):
    """The keys of sorted unique ``a`` that are not in sorted unique ``b`` (a linear merge)."""
    out = np.empty(a.shape[0], np.int64)
    n = 0
    j = 0
    for i in range(a.shape[0]):
        while j < b.shape[0] and b[j] < a[i]:
            j += 1
        if j == b.shape[0] or b[j] != a[i]:
            out[n] = a[i]
            n += 1
    return out[:n].copy()


@njit
def contact_speed(speed, gap, accel):
    """The approach speed at the instant a point's gap closed: its speed ``speed`` when it
    was taken, carried over ``gap`` (``dynamics/chunk_layout.O_GAP``) under the approach
    acceleration ``accel`` (m/s^2): ``sqrt(v^2 + 2 a gap)``.

    The integrator (semi-implicit Euler: velocity first, then position, substeps of
    ``h``) keeps ``v^2 + a h v - 2 a x`` constant under a constant acceleration ``a``;
    which is why ``gap`` is the separation when the speed was read plus or minus ``h v /
    2``. For a body dropped from rest this is exactly ``sqrt(2 g H)``; the speed of the
    substep in which the point pushes is up to ``g h`` (0.024 m/s at the defaults) off.

    A ball dropped from rest 5 m above the ground, g = 10, first pushes in the relax pass
    of substep k = 419 of h = 1/420 s, at the speed g k h, once the substep has moved it
    to 5 - g h^2 k (k + 1) / 2 above the ground:

    >>> h, k = 1 / 420, 419
    >>> v, s = 10 * k * h, 5 - 10 * h * h * k * (k + 1) / 2
    >>> round(v, 4), round(contact_speed(v, s + 0.5 * h * v, 10.0), 9)
    (9.9762, 10.0)
    """
    return math.sqrt(max(speed * speed + 2.0 * accel * gap, 0.0))


@njit_inline
def hit_bound(speed, gap, reach):
    """An upper bound of the squared :func:`contact_speed` of a point, given a bound
    ``reach`` of the approach acceleration: the solver lists the pairs where it exceeds
    the hit threshold squared, and :func:`hit_events` looks at those only."""
    return speed * speed + 2.0 * reach * abs(gap)


@njit
def _approach_accel(bodies, piece_body, gravity, key, nx, ny):
    """How fast gravity makes the pair's two bodies approach along the normal ``n``
    (from piece A's body to piece B's), m/s^2; static and kinematic bodies do not fall."""
    ax = ay = 0.0
    for side in range(2):
        b = piece_body[key >> 32] if side == 0 else piece_body[key & 0xFFFFFFFF]
        if bodies.btype[b] == DYNAMIC:
            g = gravity[bodies.lane[b]]
            sign = -1.0 if side == 0 else 1.0  # B's acceleration minus A's
            ax += sign * bodies.gravity_scale[b] * g[0]
            ay += sign * bodies.gravity_scale[b] * g[1]
    return -(ax * nx + ay * ny)


@njit
def most_gravity(bodies, gravity):
    """The largest acceleration gravity gives any dynamic body, m/s^2 (twice it bounds
    the approach acceleration of any pair: :func:`hit_bound`)."""
    g = 0.0
    for lane in range(gravity.shape[0]):
        g = max(g, math.hypot(gravity[lane, 0], gravity[lane, 1]))
    scale = 0.0
    for b in range(bodies.btype.shape[0]):
        if bodies.btype[b] == DYNAMIC:
            scale = max(scale, abs(bodies.gravity_scale[b]))
    return g * scale


@njit
def hit_events(pairs, candidates, pieces, bodies, gravity, threshold):
    """Hits: per pair of shapes, the point that pushed this step after approaching
    fastest, when faster than ``threshold`` (Box2D's hit events).

    ``pairs``: the pair set's ``PairArrays`` (keys, rows, results); ``candidates``: the
    indices of the pairs to look at (the solver's list of those that may hold a hit,
    ``dynamics/solver_rows.scatter``); ``pieces``: the piece columns
    (``PieceArrays``: each piece's ``shape`` id and ``body`` row are read); ``bodies``: ``BodyArrays`` (the
    step's start pose places the anchors); ``gravity`` (lanes, 2): each point reports
    its speed at the instant its gap closed (:func:`contact_speed`). Returns, sorted by
    shape-pair key, the keys int64 (k,), points (k, 2), normals (k, 2, from the lower
    shape id to the higher) and approach speeds (k,).
    """
    keys, rows, results = pairs.keys, pairs.rows, pairs.results
    piece_shape, piece_body = pieces.shape, pieces.body
    m = candidates.shape[0]
    found = np.empty(m, np.int64)
    point = np.empty((m, 2))
    normal = np.empty((m, 2))
    speed = np.empty(m)
    n = 0
    reach = 2.0 * most_gravity(bodies, gravity)  # bounds any pair's approach acceleration
    for c in range(m):
        i = candidates[c]
        best = threshold
        which = -1
        accel = 0.0
        for p in range(results.shape[1] // R_STRIDE):
            r = p * R_STRIDE
            v = results[i, r + R_APPROACH]
            if results[i, r + R_NORMAL] <= 0.0 or v <= 0.0:
                continue
            if hit_bound(v, results[i, r + R_GAP], reach) <= best * best:
                continue  # too slow to be a hit, whatever the bodies' gravity (most points)
            if accel == 0.0:
                accel = _approach_accel(bodies, piece_body, gravity, keys[i],
                                        rows[i, C_NX], rows[i, C_NY])
            v = contact_speed(results[i, r + R_APPROACH], results[i, r + R_GAP], accel)
            if v > best:
                best = v
                which = p
        if which < 0:
            continue
        pa = keys[i] >> 32
        sa = np.int64(piece_shape[pa])
        sb = np.int64(piece_shape[keys[i] & 0xFFFFFFFF])
        sign = -1.0 if sa > sb else 1.0
        found[n] = (min(sa, sb) << 32) | max(sa, sb)
        normal[n, 0] = sign * rows[i, C_NX]
        normal[n, 1] = sign * rows[i, C_NY]
        body = piece_body[pa]
        c = math.cos(bodies.angle0[body])
        s = math.sin(bodies.angle0[body])
        col = C_POINTS + which * P_STRIDE
        point[n, 0] = (bodies.pos0[body, 0] + c * bodies.com[body, 0] - s * bodies.com[body, 1]
                       + rows[i, col + P_RAX])
        point[n, 1] = (bodies.pos0[body, 1] + s * bodies.com[body, 0] + c * bodies.com[body, 1]
                       + rows[i, col + P_RAY])
        speed[n] = best
        n += 1
    keep = _fastest_per_key(found, speed, n)
    return found[keep], point[keep], normal[keep], speed[keep]


@njit_inline
def _fastest_per_key(found, speed, n):
    """Indices of the fastest of ``found[:n]``'s entries for each key (the first of
    equals), in key order: one hit per pair of shapes. (Sorted keys and a binary search
    rather than ``np.argsort``, which compiles generic comparisons: _jit.py, "Compile
    time".)"""
    unique = np.empty(n, np.int64)
    for j in range(n):
        unique[j] = found[j]
    u = sort_unique(unique)
    keep = np.full(u, -1, np.int64)
    for o in range(n):
        slot = search_sorted(unique, u, found[o])
        if keep[slot] < 0 or speed[o] > speed[keep[slot]]:
            keep[slot] = o
    return keep
