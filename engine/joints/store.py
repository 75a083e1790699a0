"""The world's joints: a store of rows (``layout.py``) with a free list.

A joint's row is its id: rows never move (the solver keeps impulses in them), a
destroyed joint's row is reused by a later one, and its handle then no longer matches
(``handles[row] is handle``). Body rows are the world's dense body rows: when a body is
destroyed, its joints go first and the rows after it shift down (:meth:`shift_bodies`).
"""
from typing import NamedTuple

import numpy as np

from .._keys import unique_keys
from .._store import Columns, rows_removed
from .layout import JOINT_SIZE

__all__ = ["JointStore", "JointArrays"]

JOINT_COLUMNS = {
    "kind": (np.int8, (), -1),  # layout.REVOLUTE ... or -1 for a free row
    "body_a": (np.int32, (), -1), "body_b": (np.int32, (), -1),
    "collide": (np.uint8, (), 0),  # collide_connected
    "data": (np.float64, (JOINT_SIZE,), 0.0),
    "break_force": (np.float64, (), np.inf), "break_torque": (np.float64, (), np.inf),
}


class JointArrays(NamedTuple):
    """The joint rows in use (free ones have kind -1), for the solver."""

    kind: np.ndarray
    body_a: np.ndarray
    body_b: np.ndarray
    data: np.ndarray


class JointStore:
    """Joint rows, their handles, and the body pairs that must not collide."""

    def __init__(self):
        self.columns = Columns(JOINT_COLUMNS, 8)
        self.handles = []  # the Joint handle of each row (None for a free row)
        self.count = 0  # live joints
        self.breakable = 0  # live joints with a finite break force or torque
        self._arrays = (None, None)
        self._unjoined = (None, None)
        self.shifts = 0  # bumped whenever body rows change under the joints

    def __len__(self):
        return self.count

    def __getstate__(self):
        # The cached arrays are views of the columns; a copy would copy them apart.
        state = self.__dict__.copy()
        state["_arrays"] = state["_unjoined"] = (None, None)
        return state

    def add(self, kind, a, b, collide):
        """A new row for a joint of ``kind`` between body rows ``a`` and ``b``."""
        c = self.columns
        k = c.alloc()
        c.kind[k], c.body_a[k], c.body_b[k], c.collide[k] = kind, a, b, collide
        c.data[k] = 0.0
        while len(self.handles) <= k:
            self.handles.append(None)
        self.count += 1
        c.version += 1
        return k

    def remove(self, k):
        """Free row ``k``."""
        c = self.columns
        if np.isfinite(c.break_force[k]) or np.isfinite(c.break_torque[k]):
            self.breakable -= 1
        self.handles[k] = None
        c.release(k)
        c.version += 1
        self.count -= 1

    def rows_of_body(self, i):
        """Rows of the live joints attached to body row ``i``, in row order."""
        c = self.columns
        n = c.used
        live = c.kind[:n] >= 0
        return np.flatnonzero(live & ((c.body_a[:n] == i) | (c.body_b[:n] == i)))

    def shift_bodies(self, i):
        """Body row ``i`` was deleted: the body rows after it moved down by one."""
        c = self.columns
        for col in (c.body_a[:c.used], c.body_b[:c.used]):
            col[col > i] -= 1
        self.shifts += 1

    def body_rows_removed(self, gone):
        """Body rows ``gone`` (sorted int64) were deleted at once: the body rows after
        them moved up (``engine._store.rows_removed``)."""
        c = self.columns
        for col in (c.body_a[:c.used], c.body_b[:c.used]):
            rows_removed(col, gone)
        self.shifts += 1

    def arrays(self):
        """:class:`JointArrays` of the rows in use (kept until the store changes)."""
        c = self.columns
        version, arrays = self._arrays
        if version != c.version:
            n = c.used
            arrays = JointArrays(c.kind[:n], c.body_a[:n], c.body_b[:n], c.data[:n])
            self._arrays = (c.version, arrays)
        return arrays

    def unjoined(self):
        """Sorted int64 keys ``(min << 32) | max`` of the body-row pairs joined with
        ``collide_connected=False``: the broadphase never pairs their shapes."""
        c = self.columns
        key = (c.version, self.shifts)
        if self._unjoined[0] != key:
            n = c.used
            pick = (c.kind[:n] >= 0) & (c.collide[:n] == 0)
            a = c.body_a[:n][pick].astype(np.int64)
            b = c.body_b[:n][pick].astype(np.int64)
            keys = unique_keys((np.minimum(a, b) << 32) | np.maximum(a, b))
            self._unjoined = (key, keys)
        return self._unjoined[1]
