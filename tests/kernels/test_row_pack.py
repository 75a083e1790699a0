"""Contact rows, results and histories packed for snapshots (``contacts/row_pack.py``):
every column anyone reads comes back, results beyond a row's points come back as zero,
and counts out of range (a row never written) can neither overrun nor desynchronise."""
import numpy as np
from hypothesis import given, settings, strategies as st

from engine.contacts.layout import (C_COUNT, C_POINTS, C_TOUCHING, CONTACT_SIZE, H_CACHE,
                                    H_COUNT, H_LP, H_LP_STRIDE, H_POINTS, H_STRIDE,
                                    HIST_SIZE, MAX_POINTS, P_STRIDE, R_STRIDE, RESULT_SIZE)
from engine.contacts.row_pack import pack_pairs, unpack_pairs

COUNTS = [0.0, 1.0, 2.0, np.nan, 7.0, -1.0, 0.5]
EMPTY = np.empty(0)


def _points(c):
    return int(c) if 0.0 < c <= MAX_POINTS else 0


@settings(max_examples=80, deadline=None)
@given(m=st.integers(0, 40), seed=st.integers(0, 2**32 - 1))
def test_what_is_read_comes_back_exactly(m, seed):
    rng = np.random.default_rng(seed)
    rows, results = rng.normal(size=(m, CONTACT_SIZE)), rng.normal(size=(m, RESULT_SIZE))
    hist = rng.normal(size=(m, HIST_SIZE))
    rows[:, C_COUNT] = rng.choice(COUNTS, m, p=[.4, .3, .15, .05, .04, .03, .03])
    hist[:, H_COUNT] = rng.choice(COUNTS, m, p=[.4, .3, .15, .05, .04, .03, .03])
    rows[rows[:, C_COUNT] == 0.0, C_TOUCHING] = 0.0  # as the narrowphase writes them
    counts = np.empty((m, 2), np.uint8)
    sizes = pack_pairs(rows, results, hist, counts, EMPTY, EMPTY, EMPTY)
    bufs = [np.full(n, np.nan) for n in sizes]
    assert pack_pairs(rows, results, hist, counts, *bufs) == sizes
    back_rows, back_results = np.full_like(rows, -9.0), np.full_like(results, -9.0)
    back_hist = np.full_like(hist, -9.0)
    assert unpack_pairs(counts, *bufs, back_rows, back_results, back_hist)
    for i in range(m):
        n, k = _points(rows[i, C_COUNT]), _points(hist[i, H_COUNT])
        if n:
            used = C_POINTS + n * P_STRIDE
            np.testing.assert_array_equal(back_rows[i, :used], rows[i, :used])
        else:  # a row without points: nothing but its count and touching flag is read
            assert back_rows[i, C_COUNT] == 0.0 and back_rows[i, C_TOUCHING] == 0.0
        assert counts[i].tolist() == [n, k]
        np.testing.assert_array_equal(back_results[i, :n * R_STRIDE], results[i, :n * R_STRIDE])
        if n:  # the report reads both points of a row with points; none of one without
            assert (back_results[i, n * R_STRIDE:] == 0.0).all()
        np.testing.assert_array_equal(back_hist[i, H_CACHE:H_LP], hist[i, H_CACHE:H_LP])
        np.testing.assert_array_equal(back_hist[i, H_COUNT], hist[i, H_COUNT])
        for p in range(k):
            h, lp = H_POINTS + p * H_STRIDE, H_LP + p * H_LP_STRIDE
            np.testing.assert_array_equal(back_hist[i, h:h + H_STRIDE], hist[i, h:h + H_STRIDE])
            np.testing.assert_array_equal(back_hist[i, lp:lp + H_LP_STRIDE],
                                          hist[i, lp:lp + H_LP_STRIDE])


def test_outputs_too_small_are_left_alone_and_the_sizes_reported():
    rows = np.zeros((3, CONTACT_SIZE))
    rows[:, C_COUNT] = 2.0
    hist = np.zeros((3, HIST_SIZE))
    small = [np.full(4, 7.0) for _ in range(3)]
    counts = np.empty((3, 2), np.uint8)
    sizes = pack_pairs(rows, np.zeros((3, RESULT_SIZE)), hist, counts, *small)
    assert sizes[0] == 3 * (C_POINTS + 2 * P_STRIDE) and sizes[1] == 6 * R_STRIDE
    assert counts.tolist() == [[2, 0]] * 3
    assert all((b == 7.0).all() for b in small)


def test_packed_arrays_of_the_wrong_length_are_refused():
    rows = np.zeros((4, CONTACT_SIZE))
    rows[:, C_COUNT] = 1.0
    results, hist = np.zeros((4, RESULT_SIZE)), np.zeros((4, HIST_SIZE))
    counts = np.empty((4, 2), np.uint8)
    bufs = [np.empty(n) for n in pack_pairs(rows, results, hist, counts, EMPTY, EMPTY, EMPTY)]
    pack_pairs(rows, results, hist, counts, *bufs)
    a, b, c = bufs
    wrong = counts.copy()
    wrong[1, 0] = 3  # more points than a row has room for
    for bad in ((counts, a[:-1], b, c), (counts, a, b[:-1], c), (counts, a, b, c[:-1]),
                (counts, np.append(a, 0.0), b, c), (counts[:3], a, b, c), (wrong, a, b, c)):
        assert not unpack_pairs(*bad, rows.copy(), results.copy(), hist.copy())
    bigger = np.zeros((5, CONTACT_SIZE))  # more pairs than were packed
    assert not unpack_pairs(counts, a, b, c, bigger, np.zeros((5, RESULT_SIZE)),
                            np.zeros((5, HIST_SIZE)))
