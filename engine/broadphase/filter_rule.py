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
    i = np.searchsorted(unjoined, key)
    return i < unjoined.shape[0] and unjoined[i] == key


@njit_inline
def pair_admitted(rule, ua, ub):
    """Whether users (pieces) ``ua`` and ``ub`` may form a pair: on different bodies, at
    least one body dynamic (static and kinematic never collide), and their shapes'
    filters admit each other (``filter_rule.should_collide``).

    ``rule`` is a ``PairRule``: ``body`` (per user), ``body_type`` (per body), ``shape``
    (per user), ``category``, ``mask``, ``group`` (per shape), and ``unjoined``: body
    pairs joined with ``collide_connected=False`` never collide.
    """
    body, body_type, shape, category, mask, group, unjoined = rule
    ba = body[ua]
    bb = body[ub]
    if ba == bb:
        return False
    if body_type[ba] != DYNAMIC and body_type[bb] != DYNAMIC:
        return False
    if unjoined.shape[0] and _joined(unjoined, ba, bb):
        return False
    sa = shape[ua]
    sb = shape[ub]
    return should_collide(category[sa], mask[sa], group[sa], category[sb], mask[sb], group[sb])
