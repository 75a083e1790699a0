"""``pair_keys.spread_rows`` (a sleeping world's contact rows moved to their places when
new pairs are merged in) against NumPy's scatter through ``searchsorted``."""
import numpy as np
from hypothesis import given, settings, strategies as st

from engine.contacts.pair_keys import spread_rows


@settings(max_examples=60, deadline=None)
@given(total=st.integers(0, 400), kept=st.floats(0.0, 1.0), width=st.integers(1, 5),
       seed=st.integers(0, 2**32 - 1))
def test_moves_each_old_row_to_its_key_and_zeroes_the_new_ones(total, kept, width, seed):
    rng = np.random.default_rng(seed)
    keys = np.unique(rng.integers(0, 1 << 40, total))
    old = np.sort(rng.choice(keys, int(kept * keys.size), replace=False)) if keys.size else keys
    rows = rng.standard_normal((keys.size + 3, width))  # a buffer longer than the keys
    before = rows.copy()
    expected = np.zeros((keys.size, width))
    expected[np.searchsorted(keys, old)] = before[:old.size]
    spread_rows(rows[:keys.size], old, keys)
    assert np.array_equal(rows[:keys.size], expected)
    assert np.array_equal(rows[keys.size:], before[keys.size:])  # nothing past the keys
