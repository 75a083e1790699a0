"""The colouring's scrambled visit order (``dynamics/coloring.py``)."""
import numpy as np
from hypothesis import given, strategies as st

from engine.dynamics.coloring import scrambled


@given(st.integers(0, 14))
def test_scrambled_is_a_bijection_that_moves_neighbours_apart(bits):
    n = 1 << bits
    image = np.array([scrambled(r, bits) for r in range(n)])
    assert sorted(image.tolist()) == list(range(n))  # every row visited once
    if bits >= 6:  # consecutive rows land far apart: no direction left in the order
        assert np.median(np.abs(np.diff(image))) > n / 16
