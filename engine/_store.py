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

__all__ = ["Columns", "Handles"]


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

    def release(self, i):
        """Give row ``i`` back (reset to the fills) for :meth:`alloc` to reuse."""
        self.reset_row(i)
        self.free.append(int(i))

    def delete(self, i):
        """Remove row ``i`` of a dense store: the rows after it shift down by one."""
        self.delete_row(i, self.used)
        self.used -= 1
        self.version += 1

    def reset_row(self, i):
        """Set row ``i`` of every column back to its fill value."""
        for name, (_, _, fill) in self._spec.items():
            getattr(self, name)[i] = fill

    def delete_row(self, i, n):
        """Remove row ``i`` of the first ``n`` rows, shifting the rows after it down."""
        for name, (_, _, fill) in self._spec.items():
            col = getattr(self, name)
            col[i:n - 1] = col[i + 1:n]
            col[n - 1] = fill

    def names(self):
        """The column names."""
        return list(self._spec)


class Handles:
    """Generational keys for objects whose rows move or get reused.

    A handle keeps a key; the table maps the key to the object's current row, or -1
    once destroyed. Keys are never reused, so a stale handle can never reach another
    object's row.

    Examples
    --------
    >>> h = Handles()
    >>> k = h.new(0)
    >>> h.row(k)
    0
    >>> h.kill(k); h.row(k)
    -1
    """

    def __init__(self):
        self._rows = np.full(16, -1, dtype=np.int64)
        self._count = 0

    def new(self, row):
        """A fresh key pointing at ``row``."""
        if self._count == len(self._rows):
            self._rows = np.concatenate([self._rows, np.full(len(self._rows), -1, dtype=np.int64)])
        key = self._count
        self._rows[key] = row
        self._count += 1
        return key

    @property
    def count(self):
        """How many keys were ever handed out (keys are 0 .. count-1)."""
        return self._count

    def row(self, key):
        """The row of ``key``, or -1 when its object was destroyed."""
        return int(self._rows[key])

    def move(self, key, row):
        """Point ``key`` at a new row."""
        self._rows[key] = row

    def kill(self, key):
        """Mark ``key`` destroyed."""
        self._rows[key] = -1

    def shift_after(self, row):
        """Rows greater than ``row`` move down by one (a dense store deleted ``row``)."""
        live = self._rows[: self._count]
        live[live > row] -= 1
