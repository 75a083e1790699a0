"""Contact rows, solver results and pair histories packed to the points they hold.

Half the tracked pairs of a pile have no contact point (their fat boxes overlap, the
shapes do not touch), and most of the rest have one of the two points a row has room
for. A snapshot keeps, per pair, the point counts of its contact row and history (two
bytes), for a row with points its head (normal, materials) and the points' columns and
results, and the head of its history (point count, cached pose and normal) and its
points in use. On rain2000 that is 1.6 MB of the 4.3 MB of rows, results and histories.

The counts are an array of their own so that unpacking never waits on itself: with
each count inside the packed stream, the next pair's offset was a load from an address
the previous load gave (a chain), and that chain was half of the unpack's time.

Nothing reads a point's columns beyond a row's ``C_COUNT`` or a history's ``H_COUNT``,
nor the head of a row without points but its count and ``C_TOUCHING`` (both 0): the
narrowphase rewrites them before it reads them. ``unpack_pairs`` therefore leaves
those columns as they are, and the state hash covers the packed form
(what a snapshot keeps). The results of a row's second point are written as zero when it
has one point: the contact report reads both (a row without points has none read).
"""
import numpy as np  # noqa: F401 (the doctests use np, CONTACT_SIZE and HIST_SIZE)

from .._jit import borrowed, njit, njit_inline
from .layout import (C_COUNT, C_POINTS, C_TOUCHING, CONTACT_SIZE, H_CACHE, H_COUNT, H_LP,  # noqa: F401
                     H_LP_STRIDE, H_POINTS, H_STRIDE, HIST_SIZE, MAX_POINTS, P_STRIDE,
                     R_STRIDE, RESULT_SIZE)

__all__ = ["pack_pairs", "unpack_pairs"]

# A history's head: its point count, then the cached pose, reach and normal.
_HIST_HEAD = 1 + H_LP - H_CACHE
# Per point: feature id and impulses, then the cached surface points.
_HIST_POINT = H_STRIDE + H_LP_STRIDE


@njit_inline
def _points(count):
    """A row's number of points; 0 for a count out of range (a row never written), so a
    bad count can never send a copy out of bounds."""
    return int(count) if 0.0 < count <= MAX_POINTS else 0


@njit_inline
def _row_width(n):
    """Floats a packed row of ``n`` points takes: nothing for a row without points (no
    one reads its head: ``C_TOUCHING`` is 0 and the solver skips it), else its head and
    the points' columns."""
    return C_POINTS + n * P_STRIDE if n > 0 else 0


@njit
def pack_pairs(rows, results, hist, counts, out_rows, out_results, out_hist):
    """Pack the pairs' contact rows, results and histories end to end into the flat
    ``out_rows``, ``out_results`` and ``out_hist``, and their point counts into
    ``counts`` (uint8 (m, 2): the row's, the history's), in one pass over the pairs.

    Per pair: the row's head and its points in use, those points' results, and the
    history's head and its points in use. The copies run over fixed widths (a head,
    then one point at a time), which LLVM unrolls: twice as fast as one loop over a
    row's variable width, and twice as fast as slices.

    Returns
    -------
    (int, int, int)
        Floats the packed rows, results and histories take. When one exceeds its
        output's length nothing more is written: call again with outputs that large.

    Examples
    --------
    >>> rows = np.arange(2.0 * CONTACT_SIZE).reshape(2, CONTACT_SIZE); rows[:, C_COUNT] = (0, 1)
    >>> results, hist = np.ones((2, RESULT_SIZE)), np.arange(2.0 * HIST_SIZE).reshape(2, HIST_SIZE)
    >>> hist[:, H_COUNT] = (0, 2)
    >>> counts, none = np.empty((2, 2), np.uint8), np.empty(0)
    >>> sizes = pack_pairs(rows, results, hist, counts, none, none, none)
    >>> sizes == (C_POINTS + P_STRIDE, R_STRIDE, 2 * (1 + H_LP - H_CACHE) + 2 * (H_STRIDE + H_LP_STRIDE))
    True
    >>> a, b, c = (np.empty(n) for n in sizes)
    >>> _ = pack_pairs(rows, results, hist, counts, a, b, c)
    >>> back, res, h = np.full_like(rows, -1.0), np.full_like(results, -1.0), np.full_like(hist, -1.0)
    >>> unpack_pairs(counts, a, b, c, back, res, h)
    True
    >>> bool((back[1, :C_POINTS + P_STRIDE] == rows[1, :C_POINTS + P_STRIDE]).all()), float(back[0, C_COUNT])
    (True, 0.0)
    >>> res[1].tolist() == [1.0] * R_STRIDE + [0.0] * R_STRIDE
    True
    >>> bool((h[1] == hist[1]).all()), float(h[0, H_POINTS]), bool(h[0, H_CACHE] == hist[0, H_CACHE])
    (True, -1.0, True)
    """
    rows, results, hist, counts, out_rows, out_results, out_hist = borrowed(
        (rows, results, hist, counts, out_rows, out_results, out_hist))  # no atomic counts per pair
    fits = True
    o = 0
    r = 0
    q = 0
    for i in range(rows.shape[0]):
        n = _points(rows[i, C_COUNT])
        m = _points(hist[i, H_COUNT])
        counts[i, 0] = n
        counts[i, 1] = m
        size_o = o + _row_width(n)
        size_r = r + n * R_STRIDE
        size_q = q + _HIST_HEAD + m * _HIST_POINT
        fits = fits and size_o <= out_rows.shape[0] and size_r <= out_results.shape[0] \
            and size_q <= out_hist.shape[0]
        if fits:
            _pack_row(rows, results, i, n, out_rows, o, out_results, r)
            _pack_hist(hist, i, m, out_hist, q)
        o, r, q = size_o, size_r, size_q
    return o, r, q


@njit_inline
def _pack_row(rows, results, i, n, out_rows, o, out_results, r):
    if n == 0:
        return
    for k in range(C_POINTS):
        out_rows[o + k] = rows[i, k]
    o += C_POINTS
    for p in range(n):
        for k in range(P_STRIDE):
            out_rows[o + k] = rows[i, C_POINTS + p * P_STRIDE + k]
        o += P_STRIDE
        for k in range(R_STRIDE):
            out_results[r + k] = results[i, p * R_STRIDE + k]
        r += R_STRIDE


@njit_inline
def _pack_hist(hist, i, m, out, q):
    out[q] = hist[i, H_COUNT]
    for k in range(H_LP - H_CACHE):
        out[q + 1 + k] = hist[i, H_CACHE + k]
    q += _HIST_HEAD
    for p in range(m):
        for k in range(H_STRIDE):
            out[q + k] = hist[i, H_POINTS + p * H_STRIDE + k]
        for k in range(H_LP_STRIDE):
            out[q + H_STRIDE + k] = hist[i, H_LP + p * H_LP_STRIDE + k]
        q += _HIST_POINT


@njit
def unpack_pairs(counts, packed_rows, packed_results, packed_hist, rows, results, hist):
    """Write what :func:`pack_pairs` packed back into ``rows`` (m, CONTACT_SIZE),
    ``results`` (m, RESULT_SIZE) and ``hist`` (m, HIST_SIZE). The results beyond the
    points of a row with points are written as 0 (the contact report reads both of its
    points); other columns beyond the points are left alone.

    Returns False, having stopped, when the packed arrays do not hold exactly ``m``
    pairs (a snapshot tampered with): no read or write goes out of bounds.
    """
    counts, packed_rows, packed_results, packed_hist, rows, results, hist = borrowed(
        (counts, packed_rows, packed_results, packed_hist, rows, results, hist))
    if counts.shape[0] != rows.shape[0]:
        return False
    o = 0
    r = 0
    q = 0
    for i in range(rows.shape[0]):
        n = int(counts[i, 0])
        m = int(counts[i, 1])
        if (n > MAX_POINTS or m > MAX_POINTS or o + _row_width(n) > packed_rows.shape[0]
                or r + n * R_STRIDE > packed_results.shape[0]
                or q + _HIST_HEAD + m * _HIST_POINT > packed_hist.shape[0]):
            return False
        if n == 0:  # (its results are never read: the step zeroes them, reports skip it)
            rows[i, C_COUNT] = 0.0
            rows[i, C_TOUCHING] = 0.0
        else:
            for k in range(C_POINTS):
                rows[i, k] = packed_rows[o + k]
            o += C_POINTS
            for k in range(n * R_STRIDE, RESULT_SIZE):
                results[i, k] = 0.0
        for p in range(n):
            for k in range(P_STRIDE):
                rows[i, C_POINTS + p * P_STRIDE + k] = packed_rows[o + k]
            o += P_STRIDE
            for k in range(R_STRIDE):
                results[i, p * R_STRIDE + k] = packed_results[r + k]
            r += R_STRIDE
        hist[i, H_COUNT] = packed_hist[q]
        for k in range(H_LP - H_CACHE):
            hist[i, H_CACHE + k] = packed_hist[q + 1 + k]
        q += _HIST_HEAD
        for p in range(m):
            for k in range(H_STRIDE):
                hist[i, H_POINTS + p * H_STRIDE + k] = packed_hist[q + k]
            for k in range(H_LP_STRIDE):
                hist[i, H_LP + p * H_LP_STRIDE + k] = packed_hist[q + H_STRIDE + k]
            q += _HIST_POINT
    return o == packed_rows.shape[0] and r == packed_results.shape[0] and q == packed_hist.shape[0]
