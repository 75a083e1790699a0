"""Structure-of-arrays storage: columns of NumPy arrays that grow by doubling.

The world keeps three stores:

- bodies, *dense*: rows ``0 .. n-1`` are the live bodies in creation order. Destroying
  a body shifts the rows after it down by one, so the order stays stable and the
  public views (``world.positions`` ...) are plain slices ``[:n]`` of the columns.
- pieces (the convex parts of attached shapes), with a free list: their rows are
  internal, referenced by the broadphase tree and the contacts, so they never move.
- contacts, kept sorted by pair key and rebuilt by the narrowphase each step.

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
    """

    def __init__(self, spec, capacity=16):
        self._spec = dict(spec)
        self.capacity = max(int(capacity), 1)
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
