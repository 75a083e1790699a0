"""Sorted sets of integer keys (pair keys, shape ids, body rows) in NumPy, by sorting.

``np.unique`` and the set functions built on it (``np.union1d``, ``np.setdiff1d``) take
integers through a hash table in NumPy 2 before sorting the result: measured on this
machine (NumPy 2.4) 78 us for 1000 int64 keys and 2.9 ms for 20,000, where a sort and
a comparison of neighbours take 9 us and 0.18 ms. The broadphase's filter rule lists
the joined body pairs this way whenever joints change (a ragdoll rain makes ten
ragdolls every eighth step), and the sensor stage merges its key sets every step.
"""
import numpy as np

__all__ = ["unique_keys", "union_keys"]


def unique_keys(a):
    """The sorted distinct values of the 1-D array ``a`` (``np.unique(a)``).

    Examples
    --------
    >>> unique_keys(np.array([5, 1, 5, 3])).tolist()
    [1, 3, 5]
    """
    s = np.sort(a)
    if s.size > 1:
        keep = np.empty(s.size, np.bool_)
        keep[0] = True
        np.not_equal(s[1:], s[:-1], out=keep[1:])
        s = s[keep]
    return s


def union_keys(a, b):
    """The sorted distinct values found in ``a`` or ``b`` (``np.union1d(a, b)``).

    Examples
    --------
    >>> union_keys(np.array([4, 2]), np.array([2, 9])).tolist()
    [2, 4, 9]
    """
    return unique_keys(np.concatenate((a, b)))
