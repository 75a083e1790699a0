"""engine/_keys.py: sorted key sets by sorting, checked against NumPy's own set functions
(which give the same arrays, more slowly: see the module)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine._keys import union_keys, unique_keys

KEYS = st.lists(st.integers(-(1 << 62), (1 << 62) - 1) | st.integers(0, 8), max_size=60)


@settings(max_examples=200, deadline=None)
@given(KEYS, KEYS)
def test_unique_and_union_keys_equal_numpys(a, b):
    a, b = np.array(a, np.int64), np.array(b, np.int64)
    before = a.copy()
    u = unique_keys(a)
    assert u.dtype == np.int64 and np.array_equal(u, np.unique(a))
    assert np.array_equal(union_keys(a, b), np.union1d(a, b))
    assert np.array_equal(a, before)  # the input is not sorted in place


def test_empty_and_single_keys():
    empty = np.empty(0, np.int64)
    assert unique_keys(empty).size == 0 and union_keys(empty, empty).dtype == np.int64
    assert unique_keys(np.array([7], np.int64)).tolist() == [7]
