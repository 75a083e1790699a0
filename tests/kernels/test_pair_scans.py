"""The pair scans behind destroying bodies and shapes (``contacts/pair_keys.py``)
against the NumPy expressions they replaced."""
import numpy as np
from hypothesis import given, settings, strategies as st

from engine.contacts.pair_keys import keys_involve, pairs_kept_without, partners_of_body

pieces_and_bodies = st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, 5), min_size=n, max_size=n),
    st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda t: t[0] < t[1]),
            max_size=30)))


def _keys(pairs):
    return np.array(sorted((a << 32) | b for a, b in pairs), np.int64)


@settings(max_examples=150, deadline=None)
@given(pieces_and_bodies, st.integers(0, 5))
def test_partners_of_body_as_numpy(case, row):
    n, body, pairs = case
    keys, body = _keys(pairs), np.array(body, np.int64)
    ba, bb = body[keys >> 32], body[keys & 0xFFFFFFFF]
    # the pairs of the body with another body (a body's own pieces never pair; the
    # scan skips them all the same), in key order
    want = [int(y if x == row else x) for x, y in zip(ba, bb) if (x == row) != (y == row)]
    assert partners_of_body(keys, body, row).tolist() == want


@settings(max_examples=150, deadline=None)
@given(pieces_and_bodies, st.sets(st.integers(0, 11), max_size=3))
def test_pairs_kept_without_as_numpy(case, gone_pieces):
    _, _, pairs = case
    keys = _keys(pairs)
    gone = np.array(sorted(gone_pieces), np.int64)
    involved = np.isin(keys >> 32, gone) | np.isin(keys & 0xFFFFFFFF, gone)
    keep, count = pairs_kept_without(keys, gone)
    assert keep.tolist() == (~involved).astype(np.uint8).tolist()
    assert count == int(involved.sum())
    for item in range(12):
        assert keys_involve(keys, item) == bool(np.isin(item, [p for pair in pairs for p in pair]))
