"""The collision filter rule between two shapes (Box2D v3's ``b2ShouldShapesCollide``).

Each shape has a 64-bit ``category`` (the groups it belongs to), a 64-bit ``mask`` (the
groups it collides with) and a signed ``group``: two shapes of the same non-zero group
always collide when the group is positive and never when it is negative; otherwise they
collide when each one's category is in the other's mask. Categories and masks are
stored as ``uint64``. The broadphase applies the rule when a pair is created and again
while it is tracked, so filtered pairs never reach the narrowphase.
"""
import numpy as np

from .._jit import njit_inline
from .key_sort import search_sorted
from ..constants import DYNAMIC, STATIC


@njit_inline
def should_collide(cat_a, mask_a, group_a, cat_b, mask_b, group_b):
    """Box2D's rule for two shapes' filters (uint64 categories and masks, int64 groups)."""
    if group_a == group_b and group_a != 0:
        return group_a > 0
    return (cat_a & mask_b) != 0 and (cat_b & mask_a) != 0


@njit_inline
def _joined(unjoined, ba, bb):
    """Whether bodies ``ba`` and ``bb`` are joined without collision (binary search)."""
    key = (np.int64(min(ba, bb)) << 32) | np.int64(max(ba, bb))
    i = search_sorted(unjoined, unjoined.shape[0], key)
    return i < unjoined.shape[0] and unjoined[i] == key


@njit_inline
def box_misses(fat, p, x0, y0, x1, y1):
    """Whether the box of row ``p`` of ``fat`` and ``[x0, y0, x1, y1]`` are disjoint,
    by the trees' own test (``tree_ops.tree_collect``)."""
    return fat[p, 0] > x1 or fat[p, 2] < x0 or fat[p, 1] > y1 or fat[p, 3] < y0


@njit_inline
def boxes_overlap(rule, ua, ub):
    """Whether the boxes of users ``ua`` and ``ub`` (``rule.fat``) overlap.

    In a world of its own the trees hold these boxes themselves and this never refuses
    a pair the trees found; in a ``WorldBatch``'s merged world they hold them moved by
    the lane (``constants.LANE_WIDTH``), which rounds, and this makes the decision
    exactly the one a world of its own makes."""
    fat = rule.fat
    return not box_misses(fat, ub, fat[ua, 0], fat[ua, 1], fat[ua, 2], fat[ua, 3])


@njit_inline
def pair_admitted(rule, ua, ub):
    """Whether users (pieces) ``ua`` and ``ub`` may form a pair: on different bodies, at
    least one body dynamic (static and kinematic never collide), and their shapes'
    filters admit each other (``filter_rule.should_collide``).

    ``rule`` is a ``PairRule``: ``body`` (per user), ``body_type`` (per body), ``shape``
    (per user), ``category``, ``mask``, ``group`` (per shape), and ``unjoined``: body
    pairs joined with ``collide_connected=False`` never collide; ``lane`` (per body):
    bodies of different lanes (the worlds of a ``WorldBatch``) never collide. ``fat``
    (per user) serves :func:`boxes_overlap`.
    """
    body, body_type, shape, category, mask, group, unjoined, lane, fat = rule
    ba = body[ua]
    bb = body[ub]
    if ba == bb:
        return False
    if lane[ba] != lane[bb]:  # two worlds of a WorldBatch never meet
        return False
    if body_type[ba] != DYNAMIC and body_type[bb] != DYNAMIC:
        return False
    if unjoined.shape[0] and _joined(unjoined, ba, bb):
        return False
    sa = shape[ua]
    sb = shape[ub]
    return should_collide(category[sa], mask[sa], group[sa], category[sb], mask[sb], group[sb])


def filter_unions(shape_body, body_type, category, mask):
    """The unions of the shapes' categories and masks on moving and on static bodies, as
    ``tree_find_pairs`` takes them: ``(moving, static)``, uint64 (4,) each; ``moving`` is
    ``(categories on moving bodies, their masks, categories on static bodies, their
    masks)`` for the search of the moving tree's leaves, ``static`` the same the other
    way round. Free shape rows (body -1) count for nothing. When the unions leave no
    shape out of either tree (every default filter), both are all bits set, which the
    search takes as "no filter test" (it then costs nothing).

    Examples
    --------
    >>> import numpy as np
    >>> moving, static = filter_unions(np.array([0, 1, -1]), np.array([2, 0], np.int8),
    ...                                np.array([2, 1, 8], np.uint64),
    ...                                np.array([1, 7, 8], np.uint64))
    >>> moving.tolist(), static.tolist()
    ([2, 1, 1, 7], [1, 7, 2, 1])
    >>> every, _ = filter_unions(np.array([0, 1]), np.array([2, 0], np.int8),
    ...                          np.array([1, 1], np.uint64), np.array([1, 1], np.uint64))
    >>> every.tolist() == [2 ** 64 - 1] * 4
    True
    """
    live = shape_body >= 0
    fixed = np.zeros(live.shape, np.bool_)
    fixed[live] = body_type[shape_body[live]] == STATIC
    unions = []
    for pick in (live & ~fixed, fixed):
        unions += [np.bitwise_or.reduce(category[pick]), np.bitwise_or.reduce(mask[pick])]
    moving = np.array(unions, np.uint64)
    static = moving[[2, 3, 0, 1]].copy()
    zero = np.uint64(0)
    for pick, own in ((live & ~fixed, moving), (fixed, static)):
        cat, msk = category[pick], mask[pick]
        if not all((((cat & m) != zero) & ((c & msk) != zero)).all()
                   for c, m in (own[:2], own[2:])):
            return moving, static  # some shape can leave some tree out
    every = np.full(4, ~zero)
    return every, every.copy()
