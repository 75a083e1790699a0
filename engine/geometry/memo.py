"""A bounded memo of recently built shape geometry.

Shapes are immutable values, and programs build the same ones again and again: a
bullet each step, the boxes of a pyramid, a scene rebuilt for each run of a sweep. A
shape's constructor validates its arguments, then looks its geometry (pieces, normals,
seam rows, exact mass moments) up here by the validated values before computing it:
a repeated ``Circle(0.1)`` costs the validation and a dictionary lookup instead of a
few dozen small NumPy operations. The arrays kept here are shared by every shape built
from the same values and are never written.
"""

__all__ = ["Memo"]


class Memo:
    """A dict of at most ``size`` entries; the oldest entry goes first when it is full.

    Examples
    --------
    >>> memo = Memo(size=2)
    >>> memo.get("a", lambda: 1), memo.get("a", lambda: 2)
    (1, 1)
    >>> _ = memo.get("b", lambda: 3); _ = memo.get("c", lambda: 4)
    >>> len(memo), memo.get("a", lambda: 5)  # "a" was the oldest: computed again
    (2, 5)
    """

    def __init__(self, size=1024):
        self.size = size
        self._entries = {}

    def __len__(self):
        return len(self._entries)

    def get(self, key, make):
        """The value kept for ``key``, or ``make()`` kept for it (an exception keeps nothing)."""
        entries = self._entries
        value = entries.get(key)
        if value is None:
            value = make()
            if len(entries) >= self.size:
                del entries[next(iter(entries))]
            entries[key] = value
        return value
