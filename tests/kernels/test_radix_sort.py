"""The broadphase's key sort (``find_pairs.sort_keys``) against NumPy's sort."""
import numpy as np
from hypothesis import given, settings, strategies as st

from engine.broadphase.key_sort import SMALL_SORT, sort_keys


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 3000), hi=st.sampled_from([1, 2, 7, 3000, 1 << 21, 1 << 31]),
       seed=st.integers(0, 2**32 - 1))
def test_sorts_piece_pair_keys_as_numpy_does(n, hi, seed):
    rng = np.random.default_rng(seed)
    keys = (rng.integers(0, hi, n).astype(np.int64) << 32) | rng.integers(0, hi, n)
    out = keys.copy()
    sort_keys(out)
    assert out.tolist() == np.sort(keys).tolist()


def test_sorts_any_non_negative_int64():
    keys = np.array([2**62 + 5, 0, 1, 2**62, 2**40, 7, 2**63 - 1, 3, 3], np.int64)
    out = keys.copy()
    sort_keys(out)
    assert out.tolist() == sorted(keys.tolist())


@settings(max_examples=80, deadline=None)
@given(keys=st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 5), max_size=SMALL_SORT + 3))
def test_sorts_a_few_keys_either_way(keys):
    """Both sides of SMALL_SORT: insertion below, radix above (duplicates and all)."""
    out = np.array(keys, np.int64)
    sort_keys(out)
    assert out.tolist() == sorted(keys)
