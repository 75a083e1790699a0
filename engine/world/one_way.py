"""One-way shapes: a platform that pushes only bodies arriving against its direction.

A shape with ``one_way = (nx, ny)`` decides, in the step a pair with it begins touching,
whether to push: only when the contact normal out of the platform is within 45 degrees of
its direction and the other shape is not already overlapping it by more than
``ONE_WAY_DEPTH`` (it came from the open side). Otherwise the pair is let through until
the shapes separate: a body jumping up through a platform from below passes, lands on
it when it falls back, and a body left half-way through sinks out of it instead of
being thrown out. Pymunk does the same with a ``begin`` callback on the player's
velocity, Box2D with a pre-solve callback on the normal.
"""
import math

import numpy as np

from .. import constants as K
from ..contacts.layout import C_COUNT, C_NX, C_NY, C_POINTS, P_SEP, P_STRIDE

__all__ = ["one_way_platforms", "ONE_WAY_COS", "ONE_WAY_DEPTH"]

ONE_WAY_COS = math.cos(math.radians(45.0))  # widest angle between normal and direction
ONE_WAY_DEPTH = 4.0 * K.LINEAR_SLOP  # deeper than this at the begin: came through, let pass


def one_way_platforms(state):
    """Empty the contact rows a one-way shape does not push: those whose normal out of it
    is off its direction or that are too deep (the body came from the closed side), and
    every row of a pair that began touching that way, until the shapes separate."""
    off = state.one_way_off
    off.difference_update(state.ended.tolist())
    rows = state.pairs.rows
    a, b = state.pairs.pieces()
    sa = state.pieces.shape[a].astype(np.int64)
    sb = state.pieces.shape[b].astype(np.int64)
    da, db = state.shapes.one_way[sa], state.shapes.one_way[sb]
    involved = np.flatnonzero((da.any(axis=1) | db.any(axis=1)) & (rows[:, C_COUNT] > 0))
    if involved.size == 0:
        return
    n = rows[involved][:, [C_NX, C_NY]]
    count = rows[involved, C_COUNT].astype(np.int64)
    seps = rows[involved][:, C_POINTS + P_STRIDE * np.arange(2) + P_SEP]
    depth = -np.where(np.arange(2) < count[:, None], seps, np.inf).min(axis=1)
    # the normal out of each one-way shape: piece A's shape pushes along n, B's along -n
    wrong_a = da[involved].any(axis=1) & ((n * da[involved]).sum(axis=1) < ONE_WAY_COS)
    wrong_b = db[involved].any(axis=1) & ((-n * db[involved]).sum(axis=1) < ONE_WAY_COS)
    through = wrong_a | wrong_b | (depth > ONE_WAY_DEPTH)
    keys = (np.minimum(sa, sb) << 32 | np.maximum(sa, sb))[involved]
    began = np.isin(keys, state.begun) & through
    off.update(keys[began].tolist())
    through |= np.isin(keys, np.array(sorted(off), np.int64))
    rows[involved[through], C_COUNT] = 0.0
