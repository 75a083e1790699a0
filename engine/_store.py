"""Structure-of-arrays storage: columns of NumPy arrays that grow by doubling, with the
count of rows in use and a free list.

The world keeps three stores of this kind (``world/state.py``):

- bodies, *dense*: rows ``0 .. used-1`` are the live bodies in creation order.
  Destroying a body shifts the rows after it down by one (:meth:`Columns.delete`), so the
  order stays stable and the public views (``world.positions`` ...) are plain slices.
- pieces (the convex parts of attached shapes), with a free list (:meth:`Columns.alloc`,
  :meth:`Columns.release`): their rows are referenced by the broadphase tree and the
  pairs, so they never move.
- the geometry pool: vertices, edge normals and seam rows of every piece, appended.

The tracked pairs are kept apart, sorted by pair key (``contacts/pair_set.py``).

A column is reallocated when the store grows, so views handed out earlier stop seeing
updates after the store grows: take views again after adding bodies.
"""
import numpy as np

from ._jit import njit
from ._memory import copy_into, move_items

__all__ = ["Columns", "Handles", "rows_removed"]


@njit
def _delete_rows(columns, fills, gone, n):
    """Rows ``gone`` (int64, sorted, unique, all below ``n``) removed from the first
    ``n`` rows of every column, the rows between them moved down to close the gaps, and
    the ``len(gone)`` rows freed at the end set to the column's fill: ``columns`` the
    columns as ``(capacity, bytes a row)`` uint8 views, ``fills`` their fill rows one
    after the other (bytes). One call instead of NumPy operations per column: the body
    store's 28 columns, 130 rows, shifted by one row in 26 us, in 4 this way
    (2026-11-28), most of it Numba taking the 28 views; many rows removed at once move
    each row once."""
    at = 0
    k = gone.shape[0]
    for c in range(len(columns)):
        rows = columns[c]
        width = rows.shape[1]
        flat = rows.reshape(rows.size)
        for g in range(k):  # the run of rows after gone[g] moves down by g + 1 rows
            stop = gone[g + 1] if g + 1 < k else n
            move_items(flat, (gone[g] - g) * width, (gone[g] + 1) * width,
                       (stop - gone[g] - 1) * width)
        for r in range(n - k, n):
            for b in range(width):
                rows[r, b] = fills[at + b]
        at += width


def rows_removed(rows, gone):
    """Rows of a dense store, in place, after the rows ``gone`` (sorted int64) were
    removed from it (:meth:`Columns.delete_rows`): each moves up by the number of rows
    removed below it, as that many single deletions would move it; negative entries
    (no row) stay as they are.

    Examples
    --------
    >>> rows = np.array([0, 2, 4, -1], np.int32)
    >>> rows_removed(rows, np.array([1, 3])); rows.tolist()
    [0, 1, 2, -1]
    """
    rows -= np.searchsorted(gone, rows).astype(rows.dtype)


class Columns:
    """Named NumPy columns with a shared row capacity.

    Parameters
    ----------
    spec : dict
        ``name -> (dtype, trailing_shape, fill)``; each column has shape
        ``(capacity, *trailing_shape)`` and new rows start at ``fill``.
    capacity : int

    Examples
    --------
    >>> c = Columns({"pos": (np.float64, (2,), 0.0), "kind": (np.int8, (), -1)}, 2)
    >>> c.ensure(5)
    >>> c.pos.shape, int(c.kind[4])
    ((8, 2), -1)
    >>> c.append(3), c.used
    (0, 3)
    >>> c.release(1); c.alloc(), c.alloc()
    (1, 3)
    """

    def __init__(self, spec, capacity=16):
        self._spec = dict(spec)
        self.capacity = max(int(capacity), 1)
        self.used = 0  # rows in use: 0 .. used-1 (free rows among them are listed in free)
        self.free = []  # released rows, reused by alloc (last released first)
        self.version = 0  # changes whenever a column is reallocated or ``used`` changes
        for name, (dtype, shape, fill) in self._spec.items():
            setattr(self, name, np.full((self.capacity,) + tuple(shape), fill, dtype=dtype))

    def ensure(self, rows):
        """Grow (doubling) until at least ``rows`` rows fit; existing rows are kept."""
        if rows <= self.capacity:
            return
        cap = self.capacity
        while cap < rows:
            cap *= 2
        for name, (dtype, shape, fill) in self._spec.items():
            old = getattr(self, name)
            new = np.full((cap,) + tuple(shape), fill, dtype=dtype)
            new[: self.capacity] = old
            setattr(self, name, new)
        self.capacity = cap
        self.__dict__.pop("_bytes", None)  # views of the old columns
        self.__dict__.pop("_fills", None)
        self.version += 1

    def append(self, rows=1):
        """Take ``rows`` new rows at the end (filled); returns the first one."""
        first = self.used
        self.ensure(first + rows)
        self.used += rows
        self.version += 1
        return first

    def alloc(self):
        """A row for a new item: a released one if any, else a new one at the end."""
        if self.free:
            return self.free.pop()
        return self.append()

    def alloc_many(self, n):
        """``n`` rows, the ones ``n`` calls of :meth:`alloc` would give, in that order
        (an int64 array).

        Examples
        --------
        >>> c = Columns({"x": (np.float64, (), 0.0)}, 4)
        >>> c.append(3); c.release(0); c.release(2)
        0
        >>> c.alloc_many(3).tolist()
        [2, 0, 3]
        """
        reused = [self.free.pop() for _ in range(min(n, len(self.free)))]
        first = self.append(n - len(reused)) if n > len(reused) else self.used
        return np.concatenate([np.array(reused, np.int64), np.arange(first, first + n - len(reused))])

    def release(self, i):
        """Give row ``i`` back (reset to the fills) for :meth:`alloc` to reuse."""
        self.reset_row(i)
        self.free.append(int(i))

    def release_many(self, rows):
        """Give rows ``rows`` (a list of ints) back, as :meth:`release` on each in turn."""
        idx = np.array(rows, np.int64)
        for name, (_, _, fill) in self._spec.items():
            getattr(self, name)[idx] = fill
        self.free.extend(rows)

    def truncate(self, rows):
        """Keep only the first ``rows`` rows in use (the ones after are filled again)."""
        for name, (_, _, fill) in self._spec.items():
            getattr(self, name)[rows:self.used] = fill
        self.used = rows
        self.version += 1

    def delete(self, i):
        """Remove row ``i`` of a dense store: the rows after it shift down by one."""
        self.delete_row(i, self.used)
        self.used -= 1
        self.version += 1

    def reset_row(self, i):
        """Set row ``i`` of every column back to its fill value."""
        cached = self.__dict__.get("_fills")
        if cached is None or cached[0] != self.capacity:
            cached = self._fills = (self.capacity, [(getattr(self, name), fill) for name, (_, _, fill)
                                                    in self._spec.items()])
        for column, fill in cached[1]:
            column[i] = fill

    def delete_row(self, i, n):
        """Remove row ``i`` of the first ``n`` rows, shifting the rows after it down.

        Examples
        --------
        >>> c = Columns({"x": (np.float64, (), -1.0), "k": (np.int8, (2,), 0)}, 4)
        >>> c.append(3); c.x[:3] = [1, 2, 3]; c.k[:3] = [[1, 1], [2, 2], [3, 3]]
        0
        >>> c.delete(0); c.x.tolist(), c.k[:, 0].tolist(), c.used
        ([2.0, 3.0, -1.0, -1.0], [2, 3, 0, 0], 2)
        """
        if i == n - 1:  # the last row (as a body made and destroyed in turn): no shift
            self.reset_row(i)
            return
        columns, fills = self._byte_rows()
        _delete_rows(columns, fills, np.array([i], np.int64), int(n))

    def delete_rows(self, rows):
        """Remove the rows ``rows`` (sorted, unique, below ``used``) of a dense store at
        once: the rows between them shift down, each moved once.

        Examples
        --------
        >>> c = Columns({"x": (np.float64, (), -1.0)}, 8)
        >>> c.append(5); c.x[:5] = [0, 1, 2, 3, 4]
        0
        >>> c.delete_rows(np.array([1, 3])); c.x[:5].tolist(), c.used
        ([0.0, 2.0, 4.0, -1.0, -1.0], 3)
        """
        rows = np.asarray(rows, np.int64)
        if rows.size:
            columns, fills = self._byte_rows()
            _delete_rows(columns, fills, rows, int(self.used))
            self.used -= int(rows.size)
            self.version += 1

    def _byte_rows(self):
        """Every column as a ``(capacity, bytes a row)`` uint8 view of it, and the
        columns' fill rows one after the other (uint8); made again after the columns
        were reallocated."""
        cached = self.__dict__.get("_bytes")
        if cached is None or cached[0] != self.capacity:
            columns, fills = [], []
            for name, (dtype, shape, fill) in self._spec.items():
                col = getattr(self, name)
                columns.append(col.reshape(self.capacity, -1).view(np.uint8))
                fills.append(np.full((1,) + tuple(shape), fill, dtype).reshape(-1).view(np.uint8))
            cached = self._bytes = (self.capacity, tuple(columns), np.concatenate(fills))
        return cached[1], cached[2]

    def __getstate__(self):
        """Pickled and copied without the byte views and the column list of
        :meth:`reset_row`: a copy's would not be the copy's columns."""
        state = dict(self.__dict__)
        state.pop("_bytes", None)
        state.pop("_fills", None)
        return state

    def names(self):
        """The column names."""
        return list(self._spec)

    def snapshot(self, names, out=None):
        """Copies of the rows in use of the columns ``names`` (:meth:`restore` writes them
        back), written into the arrays of an earlier snapshot ``out`` when they fit."""
        out = out or {}
        return {name: copy_into(getattr(self, name)[: self.used], out.get(name)) for name in names}

    def restore(self, saved):
        """Write rows saved by :meth:`snapshot` back in place (views stay valid); the
        store must hold as many rows as when they were saved."""
        for name, rows in saved.items():
            np.copyto(getattr(self, name)[: len(rows)], rows)


class Handles:
    """Generational keys for objects whose rows move or get reused.

    A key is ``(generation << 32) | slot``. The table maps a slot to the object's current
    row; destroying the object frees the slot for a later object and bumps its
    generation, so a stale key no longer matches and reads -1: a handle can never reach
    another object's row, and the table is as large as the most objects alive at once,
    not as all ever made.

    Examples
    --------
    >>> h = Handles()
    >>> k = h.new(0)
    >>> h.row(k)
    0
    >>> h.kill(k); h.row(k)
    -1
    >>> k2 = h.new(0)
    >>> k2 != k, k2 & 0xFFFFFFFF == k & 0xFFFFFFFF, h.row(k), h.row(k2)
    (True, True, -1, 0)
    """

    def __init__(self):
        self._rows = np.full(16, -1, dtype=np.int64)
        self._gens = np.zeros(16, dtype=np.int64)
        self._slots = 0  # slots ever used (the table's live part)
        self._free = []

    def new(self, row):
        """A fresh key pointing at ``row``."""
        if self._free:
            slot = self._free.pop()
        else:
            if self._slots == len(self._rows):
                grow = len(self._rows)
                self._rows = np.concatenate([self._rows, np.full(grow, -1, dtype=np.int64)])
                self._gens = np.concatenate([self._gens, np.zeros(grow, dtype=np.int64)])
            slot = self._slots
            self._slots += 1
        self._rows[slot] = row
        return (int(self._gens[slot]) << 32) | slot

    def new_many(self, rows):
        """Fresh keys for ``rows`` (ints), the ones as many calls of :meth:`new` would
        give, in that order (a list of ints).

        Examples
        --------
        >>> h = Handles()
        >>> k = h.new(0); h.kill(k)
        >>> keys = h.new_many([4, 5])
        >>> [h.row(key) for key in keys], keys[0] & 0xFFFFFFFF == k & 0xFFFFFFFF, keys[0] != k
        ([4, 5], True, True)
        """
        rows = [int(r) for r in rows]
        reused = [self.new(r) for r in rows[:len(self._free)]]  # free slots first, as new does
        rest = rows[len(reused):]
        if not rest:
            return reused
        first = self._slots
        while self._slots + len(rest) > len(self._rows):
            grow = len(self._rows)
            self._rows = np.concatenate([self._rows, np.full(grow, -1, dtype=np.int64)])
            self._gens = np.concatenate([self._gens, np.zeros(grow, dtype=np.int64)])
        self._rows[first:first + len(rest)] = rest
        self._slots += len(rest)
        gens = self._gens[first:first + len(rest)].tolist()
        return reused + [(g << 32) | slot for g, slot in zip(gens, range(first, first + len(rest)))]

    def _slot(self, key):
        slot = key & 0xFFFFFFFF
        if key < 0 or slot >= self._slots or self._gens[slot] != key >> 32:
            return -1
        return slot

    def row(self, key):
        """The row of ``key``, or -1 when its object was destroyed (or never existed)."""
        slot = self._slot(key)
        return -1 if slot < 0 else int(self._rows[slot])

    def move(self, key, row):
        """Point ``key`` at a new row."""
        self._rows[self._slot(key)] = row

    def kill(self, key):
        """Mark ``key`` destroyed; its slot serves a later key of the next generation."""
        slot = self._slot(key)
        if slot >= 0:
            self._rows[slot] = -1
            self._gens[slot] += 1
            self._free.append(slot)

    @property
    def size(self):
        """Slots in the table: the most objects that were alive at once."""
        return self._slots

    def rows_removed(self, gone):
        """The rows ``gone`` (sorted int64) of the dense store were removed: the keys'
        rows after them move up (:func:`rows_removed`)."""
        rows_removed(self._rows[: self._slots], gone)

    def shift_after(self, row):
        """Rows greater than ``row`` move down by one (a dense store deleted ``row``)."""
        live = self._rows[: self._slots]
        live[live > row] -= 1
