"""The world's tracked piece pairs: keys, histories, contact rows and bodies, kept aligned.

A pair is an int64 key ``(piece_a << 32) | piece_b``; the keys stay sorted and unique.
Beside each key the set keeps the pair's *history* (feature ids and impulses, what
warm starting needs from one step to the next), its contact row (rewritten by the
narrowphase every step) and its two bodies. Merging new pairs in and compacting dead
ones out moves keys and histories, and the contact rows only while some body sleeps
(``carry_rows``): the narrowphase rewrites every other pair's row, and leaves a pair of
sleeping (or sleeping and static) bodies as it was, so those rows must stay with their
pairs. The rows are a view of a buffer (``contacts/layout.py`` says why).

Pairs the narrowphase drops are compacted out lazily, at the next broadphase: until
then their rows have no points, so nothing reads a stale one.
"""
from typing import NamedTuple

import numpy as np

from .._memory import copy_into, reuse

from . import pair_keys as _pairs
from .._dispatch import StageKernel
from .narrowphase import update_contacts
from .row_pack import pack_pairs, unpack_pairs
from .layout import CONTACT_SIZE, HIST_SIZE, RESULT_SIZE

__all__ = ["PairSet"]

_NO_FLAGS = np.zeros(0, np.uint8)
_update_contacts = StageKernel(update_contacts)


class PairArrays(NamedTuple):
    """The pair set as the stage kernels take it: sorted keys (m,), histories (m,
    HIST_SIZE), contact rows (m, CONTACT_SIZE), the two bodies of each pair (2, >= m)
    and the solver's results (m, RESULT_SIZE)."""

    keys: np.ndarray
    hist: np.ndarray
    rows: np.ndarray
    bodies: np.ndarray
    results: np.ndarray


class PairSet:
    """Sorted pair keys with one history row, contact row and body pair each.

    Examples
    --------
    >>> import numpy as np
    >>> pairs = PairSet()
    >>> pairs.add(np.array([(1 << 32) | 2, (0 << 32) | 3], dtype=np.int64)[::-1].copy())
    >>> len(pairs), pairs.pieces()[0].tolist(), pairs.pieces()[1].tolist()
    (2, [0, 1], [3, 2])
    """

    def __init__(self):
        self.keys = np.empty(0, np.int64)
        self.hist = np.empty((0, HIST_SIZE))
        self._row_buffer = np.empty((16, CONTACT_SIZE))
        self.rows = self._row_buffer[:0]
        self._result_buffer = np.zeros((16, RESULT_SIZE))
        self.results = self._result_buffer[:0]  # the solver's per-point report (layout R_*)
        self.bodies = np.empty((2, 16), np.int32)  # written by the narrowphase
        self._dropped = None  # the last narrowphase's keep flags, until compacted
        self.flags = _NO_FLAGS  # the last narrowphase's flags: 0 dropped, 1 kept, 2 touching
        self._keep = None  # the buffer the flags are written to (``_keep_flags``)
        self._arrays = None  # the last PairArrays (``arrays``)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_arrays"] = None  # views of the arrays below: rebuilt on first use
        return state

    def __len__(self):
        return self.keys.size

    @property
    def dropped(self):
        """The last narrowphase's keep flags (0: dropped) until they are compacted out,
        else None."""
        return self._dropped

    def pieces(self):
        """The two pieces of every pair, as arrays."""
        return self.keys >> _pairs.PIECE_BITS, self.keys & _pairs.PIECE_MASK

    def reserve(self):
        """Room in the body and row buffers for every pair; ``rows`` covers them all."""
        m = self.keys.size
        if self.bodies.shape[1] < m:
            grown = np.empty((2, 2 * m), np.int32)
            grown[:, : self.bodies.shape[1]] = self.bodies
            self.bodies = grown
        if self._row_buffer.shape[0] < m:
            rows = self.rows
            self._row_buffer = np.empty((2 * m, CONTACT_SIZE))
            self._row_buffer[:rows.shape[0]] = rows  # kept: a sleeping pair's row is not rewritten
            self._result_buffer = np.zeros((2 * m, RESULT_SIZE))
        if self.rows.shape[0] != m or self.rows.base is not self._row_buffer:
            self.rows = self._row_buffer[:m]
        if self.results.shape[0] != m or self.results.base is not self._result_buffer:
            self.results = self._result_buffer[:m]

    def arrays(self):
        """:class:`PairArrays` of the current pairs (after :meth:`reserve`): the same
        tuple while its arrays stay the same (``engine._dispatch`` relies on that)."""
        arrays = self._arrays
        if (arrays is None or arrays.keys is not self.keys or arrays.hist is not self.hist
                or arrays.rows is not self.rows or arrays.bodies is not self.bodies
                or arrays.results is not self.results):
            arrays = self._arrays = PairArrays(self.keys, self.hist, self.rows, self.bodies,
                                               self.results)
        return arrays

    def _keep_flags(self, m):
        """A uint8 (m,) buffer for the narrowphase's flags, the same array while ``m`` is."""
        if self._keep is None or self._keep.shape[0] != m:
            self._keep = np.empty(m, np.uint8)
        return self._keep

    def add(self, new_keys, carry_rows=False):
        """Merge sorted unique ``new_keys`` in; new pairs start with an empty history
        (and, with ``carry_rows``, an empty contact row, the old rows moving with their
        pairs)."""
        if new_keys.size == 0:
            return
        old = self.keys
        keys = _pairs.merge_keys(old, new_keys)
        if keys is old:
            return
        # The histories move to their pairs' places in place, in a buffer with room to
        # grow: a new zeroed array each time cost rain2000 0.3 ms a step in page faults.
        hist = self.hist
        buf = hist.base if isinstance(hist.base, np.ndarray) else hist
        if buf.shape[0] < keys.size or buf.ndim != 2 or not buf.flags.c_contiguous:
            buf = np.empty((2 * keys.size, HIST_SIZE))
            buf[:old.size] = hist
        self.hist = buf[:keys.size]
        _pairs.spread_rows(self.hist, old, keys)
        self.keys = keys
        if carry_rows:
            self.reserve()  # (keeps the old rows in front)
            _pairs.spread_rows(self.rows, old, self.keys)

    def update(self, bodies, pieces, params):
        """The narrowphase stage: a manifold for every pair (``narrowphase.update_contacts``).

        Pairs whose fat boxes stopped overlapping get rows with no points and are
        compacted out at the next :meth:`compact_dropped` (or :meth:`keep`).
        """
        m = self.keys.size
        if m == 0:
            self.flags = _NO_FLAGS
            return
        self.reserve()
        keep = self._keep_flags(m)
        dropped = _update_contacts(self.arrays(), keep, bodies, pieces, params)
        self.flags = keep  # 2 where the pair touches (the contact events read this)
        if dropped:
            self._dropped = keep

    def keep(self, keep):
        """Drop the pairs with ``keep`` false now, and those the last narrowphase dropped."""
        if self._dropped is not None:
            keep = keep & (self._dropped != 0)
            self._dropped = None
        keep = np.asarray(keep)
        if keep.dtype == np.bool_:  # as uint8, the narrowphase's flags: one compile, not two
            keep = keep.view(np.uint8)
        self.reserve()
        _pairs.compact_rows(self.rows, keep)
        _pairs.compact_rows(self.results, keep)
        self._shrink(_pairs.compact_pairs(self.keys, self.hist, self.bodies, keep))

    def compact_dropped(self, carry_rows=False):
        """Compact out the pairs the last narrowphase dropped (keys and histories, and
        the contact rows with ``carry_rows``: else the coming narrowphase rewrites them)."""
        if self._dropped is not None:
            keep, self._dropped = self._dropped, None
            if carry_rows:
                _pairs.compact_rows(self.rows, keep)
            self._shrink(_pairs.compact_pairs(self.keys, self.hist, self.bodies, keep))

    def snapshot(self, out=None):
        """Copies of the pairs, and their contact rows, results and histories packed to
        the points in use (``row_pack.py``), for :meth:`restore`; written into the
        arrays of an earlier snapshot ``out`` when they fit."""
        m = self.rows.shape[0]
        old = out or (None,) * 7
        hist, rows, results, counts = self.packed(old[1], old[2], old[3], old[6])
        bodies = reuse((2 * m,), np.int32, old[4]).reshape(2, m)
        np.copyto(bodies, self.bodies[:, :m])
        dropped = None if self._dropped is None else copy_into(self._dropped, old[5])
        return copy_into(self.keys, old[0]), hist, rows, results, bodies, dropped, counts

    def packed(self, hist=None, rows=None, results=None, counts=None):
        """The histories, contact rows and results packed to the points in use, and
        the point counts (``row_pack.pack_pairs``), written into the given arrays when
        they fit."""
        m = self.rows.shape[0]
        if not m == self.results.shape[0] == self.hist.shape[0]:
            raise RuntimeError("the pairs' histories and contact rows disagree (a step was "
                               "interrupted); step the world once first")
        counts = reuse((m, 2), np.uint8, counts)
        bufs = [np.empty(0) if a is None else a.base if isinstance(a.base, np.ndarray) else a
                for a in (rows, results, hist)]
        sizes = pack_pairs(self.rows, self.results, self.hist, counts, *bufs)
        if any(n > len(b) for n, b in zip(sizes, bufs)):
            bufs = [b if n <= len(b) else reuse((n,), np.float64) for n, b in zip(sizes, bufs)]
            pack_pairs(self.rows, self.results, self.hist, counts, *bufs)
        rows, results, hist = (b[:n] for b, n in zip(bufs, sizes))
        return hist, rows, results, counts

    def restore(self, saved):
        """Put back pairs saved by :meth:`snapshot` (copied again: a snapshot can be
        restored many times)."""
        keys, hist, rows, results, bodies, dropped, counts = saved
        self._fit(keys, bodies, dropped)
        self.hist = reuse((keys.size, HIST_SIZE), np.float64, self.hist)
        if not unpack_pairs(counts, rows, results, hist, self.rows, self.results, self.hist):
            raise ValueError("this snapshot's contact arrays are corrupted: they do not hold "
                             f"the {keys.size} pairs it lists")

    def load(self, keys, hist, rows, results, bodies, dropped=None):
        """Take whole arrays as the pairs: keys (m,), histories (m, HIST_SIZE), contact
        rows (m, CONTACT_SIZE), results (m, RESULT_SIZE), bodies (2, m) and the dropped
        flags (None: none dropped)."""
        self._fit(keys, bodies, dropped)
        self.hist = copy_into(hist, self.hist)
        np.copyto(self.rows, rows)
        np.copyto(self.results, results)

    def _fit(self, keys, bodies, dropped):
        """Copy keys, bodies and dropped flags in; size the rows and results for
        ``bodies.shape[1]`` pairs."""
        m = bodies.shape[1]
        if self._row_buffer.shape[0] < m:
            self._row_buffer = np.empty((2 * m, CONTACT_SIZE))
            self._result_buffer = np.zeros((2 * m, RESULT_SIZE))
        if self.bodies.shape[1] < m:
            self.bodies = np.empty((2, 2 * m), np.int32)
        self.keys = copy_into(keys, self.keys)
        self.rows, self.results = self._row_buffer[:m], self._result_buffer[:m]
        np.copyto(self.bodies[:, :m], bodies)
        self._dropped = None if dropped is None else dropped.copy()

    def _shrink(self, m):
        self.keys = self.keys[:m]
        self.hist = self.hist[:m]
        self.rows = self._row_buffer[:m]
        self.results = self._result_buffer[:m]  # (a snapshot before the next step copies it)
