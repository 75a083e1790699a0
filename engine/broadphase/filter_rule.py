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
from ..constants import DYNAMIC


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
    sa = shape[ua]
    sb = shape[ub]
    # The filter before the joints: a few loads where the joints' test is a binary
    # search, and the pieces of one ragdoll (one negative group, and joined) are
    # refused by it alone (the pair search of falling ragdolls, ``fast_pairs.py``).
    if not should_collide(category[sa], mask[sa], group[sa], category[sb], mask[sb], group[sb]):
        return False
    return not (unjoined.shape[0] and _joined(unjoined, ba, bb))


def unions_of(kinds):
    """The unions of the categories and masks of the filter ``kinds`` (a set of
    ``(category, mask, static)``, the kinds of the shapes on static and on moving bodies)
    as ``tree_find_pairs`` takes them: ``(moving, static)``, uint64 (4,) each; ``moving``
    is ``(categories on moving bodies, their masks, categories on static bodies, their
    masks)`` for the search of the moving tree's leaves, ``static`` the same the other
    way round. When the unions leave no kind out of either tree (every default filter),
    both are all bits set, which the search takes as "no filter test".

    Examples
    --------
    >>> moving, static = unions_of({(2, 1, False), (1, 7, True)})
    >>> moving.tolist(), static.tolist()
    ([2, 1, 1, 7], [1, 7, 2, 1])
    >>> every, _ = unions_of({(1, 2 ** 64 - 1, False), (1, 2 ** 64 - 1, True)})
    >>> every.tolist() == [2 ** 64 - 1] * 4
    True
    """
    cats, masks, held = [0, 0], [0, 0], [False, False]  # [moving, static]
    for category, mask, static in kinds:
        cats[static] |= category
        masks[static] |= mask
        held[static] = True
    moving = np.array([cats[0], masks[0], cats[1], masks[1]], np.uint64)
    static = np.array([cats[1], masks[1], cats[0], masks[0]], np.uint64)
    for category, mask, fixed in kinds:
        for tree in (0, 1):  # (an empty tree costs its search nothing)
            if held[tree] and not (category & masks[tree] and cats[tree] & mask):
                return moving, static  # some shape can leave some tree out
    every = np.full(4, ~np.uint64(0))
    return every, every.copy()
