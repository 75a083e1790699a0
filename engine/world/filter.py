"""Filter: which shapes collide with which (categories, masks and groups, Box2D's rule)."""
import numbers

from .._api import read_only

__all__ = ["Filter", "ALL_BITS", "DEFAULT_FILTER"]

ALL_BITS = (1 << 64) - 1


def _bits(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int of 64 bits, got {value!r}")
    value = int(value)
    if not 0 <= value <= ALL_BITS:
        raise ValueError(f"{name} must be between 0 and 2**64 - 1, got {value!r}")
    return value


class Filter:
    """Collision categories, mask and group of a shape, or of a query.

    Two shapes collide when they share a non-zero ``group`` that is positive; never when
    they share a negative one; otherwise when ``(a.category & b.mask) != 0 and
    (b.category & a.mask) != 0`` (Box2D v3's rule; pymunk's ``ShapeFilter`` maps to it
    with its group negated). Shapes on one body never collide.

    Parameters
    ----------
    category : int
        The bits of the groups this shape belongs to, 0 to 2**64 - 1 (default 1).
    mask : int
        The bits of the categories it collides with (default all).
    group : int
        Collision group, a signed 64-bit int: positive always collides within the group,
        negative never, 0 none (default).

    Examples
    --------
    >>> from engine import Filter
    >>> player, bullet = Filter(category=0b01, mask=0b10), Filter(category=0b10, mask=0b01)
    >>> player.collides_with(bullet), player.collides_with(player)
    (True, False)
    >>> Filter(group=-3).collides_with(Filter(group=-3))
    False
    """

    __slots__ = ("_category", "_mask", "_group")
    category = read_only("_category", "The category bits (int).")
    mask = read_only("_mask", "The mask bits (int).")
    group = read_only("_group", "The collision group (int).")

    def __init__(self, category=1, mask=ALL_BITS, group=0):
        self._category = _bits(category, "category")
        self._mask = _bits(mask, "mask")
        if isinstance(group, bool) or not isinstance(group, numbers.Integral):
            raise TypeError(f"group must be an int, got {group!r}")
        if not -(1 << 63) <= int(group) < (1 << 63):
            raise ValueError(f"group must be a signed 64-bit int, got {group!r}")
        self._group = int(group)

    def collides_with(self, other):
        """Whether shapes with filters ``self`` and ``other`` collide (on different bodies).

        Parameters
        ----------
        other : Filter
        """
        if self._group == other._group and self._group != 0:
            return self._group > 0
        return (self._category & other._mask) != 0 and (other._category & self._mask) != 0

    def __eq__(self, other):
        return isinstance(other, Filter) and (self._category, self._mask, self._group) == (
            other._category, other._mask, other._group)

    def __hash__(self):
        return hash((self._category, self._mask, self._group))

    def __repr__(self):
        return f"Filter(category={self._category:#x}, mask={self._mask:#x}, group={self._group})"


# ``Filter()``, made once: a filter cannot be changed after it is made, so every shape
# given no filter can share this one (``Body.add_shape``; making one costs a few us).
DEFAULT_FILTER = Filter()
