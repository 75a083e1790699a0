"""The collision filter rule between two shapes (Box2D v3's ``b2ShouldShapesCollide``).

Each shape has a 64-bit ``category`` (the groups it belongs to), a 64-bit ``mask`` (the
groups it collides with) and a signed ``group``: two shapes of the same non-zero group
always collide when the group is positive and never when it is negative; otherwise they
collide when each one's category is in the other's mask. Categories and masks are
stored as ``uint64``. The broadphase applies the rule when a pair is created and again
while it is tracked, so filtered pairs never reach the narrowphase.
"""
from .._jit import njit_inline


@njit_inline
def should_collide(cat_a, mask_a, group_a, cat_b, mask_b, group_b):
    """Box2D's rule for two shapes' filters (uint64 categories and masks, int64 groups)."""
    if group_a == group_b and group_a != 0:
        return group_a > 0
    return (cat_a & mask_b) != 0 and (cat_b & mask_a) != 0
