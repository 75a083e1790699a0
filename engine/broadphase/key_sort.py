"""Sorting and searching int64 keys without np.sort and np.searchsorted: the
broadphase's new pair keys, the solver's hit candidates, the hit events' shape pairs,
the filter's joined bodies. ``np.sort`` costs about 3 s of compilation in each kernel
that calls it, ``np.searchsorted`` about 1 s (``_jit.py``, "Compile time"); these are a
few loops."""
import numpy as np

from .._jit import njit, njit_inline

__all__ = ["sort_keys", "sort_unique", "search_sorted"]


@njit_inline
def search_sorted(a, n, key):
    """The first index ``i`` of the sorted ``a[:n]`` with ``a[i] >= key`` (``n`` if none):
    ``np.searchsorted(a[:n], key)``, written out.

    Examples
    --------
    >>> a = np.array([2, 5, 5, 9], np.int64)
    >>> search_sorted(a, 4, 5), search_sorted(a, 4, 10), search_sorted(a, 4, 0)
    (1, 4, 0)
    """
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit_inline
def sort_unique(a):
    """Sort the non-negative int64 keys ``a`` in place and move the distinct ones to its
    front; returns how many there are.

    Examples
    --------
    >>> a = np.array([7, 3, 7, 1, 3], np.int64)
    >>> m = sort_unique(a)
    >>> a[:m].tolist()
    [1, 3, 7]
    """
    sort_keys(a)
    m = 0
    for i in range(a.shape[0]):
        if m == 0 or a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    return m

RADIX_BITS = 11  # digits of 11 bits: 2048 counters, a few passes for piece-pair keys
# Below this many keys, digits of 8 bits: 256 counters to clear and sum per pass instead
# of 2048, which for a few hundred keys cost more than the keys themselves.
SMALL_RADIX_BITS = 8
SMALL_RADIX_BELOW = 1024
# At most this many keys are sorted by insertion: a radix pass clears and sums its 2048
# counters whatever the count, about 5 us a sort of a few keys (measured: 3 % of a
# 60-body world's step, in the solver's hit candidates and the continuous stage's pairs).
SMALL_SORT = 48


@njit_inline
def _insertion_sort(a, n):
    """Sort ``a[:n]`` in place by insertion (for a few keys)."""
    for i in range(1, n):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key


@njit
def sort_keys(a):
    """Sort the non-negative int64 keys ``a`` in place: least significant digit first,
    11 bits a pass (8 for fewer than ``SMALL_RADIX_BELOW`` keys), and only the digits in
    which the keys differ (piece-pair keys ``(a << 32) | b`` with fewer than 2^22 pieces:
    at most four passes of 11 bits). O(n): a heapsort
    took 384 us for rain2000's 4800 keys while the pile lands, this about a tenth of it.

    Examples
    --------
    >>> keys = np.array([(3 << 32) | 1, 5, (1 << 32) | 9, 5], np.int64)
    >>> sort_keys(keys)
    >>> keys.tolist() == sorted([(3 << 32) | 1, 5, (1 << 32) | 9, 5])
    True
    """
    n = a.shape[0]
    if n <= SMALL_SORT:
        _insertion_sort(a, n)
        return
    ones = 0
    alls = -1
    for i in range(n):
        ones |= a[i]
        alls &= a[i]
    varying = ones ^ alls  # the bits in which some keys differ
    bits = SMALL_RADIX_BITS if n < SMALL_RADIX_BELOW else RADIX_BITS
    buf = np.empty(n, np.int64)
    count = np.empty((1 << bits) + 1, np.int64)
    digit_mask = np.int64((1 << bits) - 1)
    passes = 0
    shift = 0
    while shift < 63:
        if (varying >> shift) & digit_mask:
            src = a if passes % 2 == 0 else buf  # the keys go back and forth
            dst = buf if passes % 2 == 0 else a
            count[:] = 0
            for i in range(n):
                count[((src[i] >> shift) & digit_mask) + 1] += 1
            for d in range(1 << bits):
                count[d + 1] += count[d]
            for i in range(n):
                d = (src[i] >> shift) & digit_mask
                dst[count[d]] = src[i]
                count[d] += 1
            passes += 1
        shift += bits
    if passes % 2 == 1:
        for i in range(n):  # not a[:] = buf (see _jit.py, "Compile time")
            a[i] = buf[i]
