"""Contact events: which pairs of shapes started and stopped touching in a step.

Two shapes touch when some point of some pair of their pieces is within
``TOUCHING_DISTANCE`` (Box2D's rule: speculative points up to 4 slop count, so a begin
may come up to 2 cm before the surfaces meet). Events are per pair of *shapes*: the
pieces of a concave polygon report one begin when the first of them touches and one end
when the last stops. A shape pair is an int64 key ``(min_id << 32) | max_id``; the sets
are sorted, so events come in key order and runs repeat exactly.
"""
import numpy as np

from .._jit import njit
from .layout import C_COUNT, C_POINTS, P_SEP, P_STRIDE


@njit
def touching_shape_keys(keys, rows, piece_shape, distance):
    """Sorted unique shape-pair keys of the pairs with a point within ``distance``.

    ``keys`` int64 (m,) piece-pair keys, ``rows`` (m, CONTACT_SIZE) their contact rows,
    ``piece_shape`` int32 the shape id of each piece.
    """
    out = np.empty(keys.shape[0], np.int64)
    n = 0
    for i in range(keys.shape[0]):
        count = int(rows[i, C_COUNT])
        near = False
        for p in range(count):
            if rows[i, C_POINTS + p * P_STRIDE + P_SEP] <= distance:
                near = True
        if near:
            sa = piece_shape[keys[i] >> 32]
            sb = piece_shape[keys[i] & 0xFFFFFFFF]
            out[n] = (min(sa, sb) << 32) | max(sa, sb)
            n += 1
    out = np.sort(out[:n])
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
