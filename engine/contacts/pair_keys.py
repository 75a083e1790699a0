"""The tracked pair set: sorted int64 keys ``(piece_a << 32) | piece_b`` with one history
row each (``layout.HIST_SIZE``: feature ids and impulses). New pairs from the broadphase
are merged in, dead ones compacted out, both in one linear pass that keeps the keys
sorted (so solving order, and the whole step, is deterministic) and carries every
surviving row, with its impulses, along.
"""
import numpy as np

from .._jit import njit

PIECE_BITS = 32  # a key is (piece_a << PIECE_BITS) | piece_b
PIECE_MASK = (1 << PIECE_BITS) - 1  # piece_b of a key: key & PIECE_MASK


@njit
def merge_keys(keys, new_keys):
    """Union of sorted unique ``keys`` and ``new_keys``: a new sorted array, or ``keys``
    itself when nothing is new. The rows beside the keys follow with :func:`spread_rows`.

    Examples
    --------
    >>> merge_keys(np.array([3, 7], np.int64), np.array([1, 3, 5], np.int64)).tolist()
    [1, 3, 5, 7]
    """
    m = keys.shape[0]
    j = new_keys.shape[0]
    fresh = 0
    a = 0
    for b in range(j):
        while a < m and keys[a] < new_keys[b]:
            a += 1
        if a == m or keys[a] != new_keys[b]:
            fresh += 1
    if fresh == 0:
        return keys
    out = np.empty(m + fresh, np.int64)
    a = 0
    b = 0
    k = 0
    while a < m or b < j:
        if b == j or (a < m and keys[a] <= new_keys[b]):
            if b < j and keys[a] == new_keys[b]:
                b += 1
            out[k] = keys[a]
            a += 1
        else:
            out[k] = new_keys[b]
            b += 1
        k += 1
    return out


@njit
def spread_rows(rows, old_keys, keys):
    """Move the rows of ``old_keys`` (sorted, unique: ``rows[:len(old_keys)]``) to their
    pairs' places in ``keys`` (sorted, a superset of them), in place, and zero the rows
    of the pairs that are new.

    A pair's place in the superset is never before its place among the old keys, so
    walking both from the end moves each row at most once, forwards, without a copy
    (40,000 rows of 256 bytes: 0.4 ms, where a copy, a zeroing and a scatter through
    ``np.searchsorted`` took 2.2 ms).

    Examples
    --------
    >>> rows = np.array([[1.0], [2.0], [9.0], [9.0]])
    >>> spread_rows(rows, np.array([3, 7], np.int64), np.array([1, 3, 5, 7], np.int64))
    >>> rows.ravel().tolist()
    [0.0, 1.0, 0.0, 2.0]
    """
    j = keys.shape[0] - 1
    for i in range(old_keys.shape[0] - 1, -1, -1):
        while keys[j] != old_keys[i]:
            for c in range(rows.shape[1]):
                rows[j, c] = 0.0
            j -= 1
        if j != i:
            for c in range(rows.shape[1]):  # element by element: see _jit.py, "Compile time"
                rows[j, c] = rows[i, c]
        j -= 1
    for r in range(j + 1):
        for c in range(rows.shape[1]):
            rows[r, c] = 0.0


@njit
def compact_pairs(keys, rows, bodies, keep):
    """Move the pairs with ``keep[i] != 0`` to the front, in order; return their count.

    ``rows`` (>= m, k) float64 and ``bodies`` (2, >= m) int32 move along with the keys.
    """
    k = 0
    for i in range(keys.shape[0]):
        if keep[i] != 0:
            if k != i:
                keys[k] = keys[i]
                for c in range(rows.shape[1]):  # not rows[k] = rows[i]: see _jit.py, "Compile time"
                    rows[k, c] = rows[i, c]
                bodies[0, k] = bodies[0, i]
                bodies[1, k] = bodies[1, i]
            k += 1
    return k


@njit
def compact_rows(rows, keep):
    """Move the rows with ``keep[i] != 0`` (i < len(keep)) to the front, in order."""
    k = 0
    for i in range(keep.shape[0]):
        if keep[i] != 0:
            if k != i:
                for c in range(rows.shape[1]):
                    rows[k, c] = rows[i, c]
            k += 1
    return k


@njit
def partners_of_body(keys, piece_body, row):
    """The body rows paired with body ``row`` in the pair ``keys`` (``piece_body``: each
    piece's body row), once per pair, in key order.

    Examples
    --------
    >>> keys = np.array([(0 << 32) | 1, (1 << 32) | 2, (2 << 32) | 3], np.int64)
    >>> partners_of_body(keys, np.array([5, 6, 7, 5]), 5).tolist()
    [6, 7]
    """
    out = np.empty(keys.shape[0], np.int64)
    n = 0
    for k in range(keys.shape[0]):
        ba = piece_body[keys[k] >> PIECE_BITS]
        bb = piece_body[keys[k] & PIECE_MASK]
        if ba == row and bb != row:
            out[n] = bb
            n += 1
        elif bb == row and ba != row:
            out[n] = ba
            n += 1
    return out[:n]


@njit
def pairs_kept_without(keys, pieces):
    """uint8 (m,) flags of the pair ``keys`` that involve none of ``pieces`` (a few piece
    rows), and how many do involve one.

    Examples
    --------
    >>> keys = np.array([(0 << 32) | 1, (1 << 32) | 2, (2 << 32) | 3], np.int64)
    >>> keep, gone = pairs_kept_without(keys, np.array([3], np.int64))
    >>> keep.tolist(), gone
    ([1, 1, 0], 1)
    """
    keep = np.ones(keys.shape[0], np.uint8)
    gone = 0
    for k in range(keys.shape[0]):
        a = keys[k] >> PIECE_BITS
        b = keys[k] & PIECE_MASK
        for p in pieces:
            if a == p or b == p:
                keep[k] = 0
                gone += 1
                break
    return keep, gone


@njit
def keys_involve(keys, item):
    """Whether any pair key ``(a << 32) | b`` of ``keys`` has ``item`` as ``a`` or ``b``
    (piece-pair and shape-pair keys alike).

    Examples
    --------
    >>> keys_involve(np.array([(4 << 32) | 7], np.int64), 7), keys_involve(np.array([5], np.int64), 7)
    (True, False)
    """
    for k in range(keys.shape[0]):
        if keys[k] >> PIECE_BITS == item or keys[k] & PIECE_MASK == item:
            return True
    return False
