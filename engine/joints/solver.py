"""The joints' part of the soft step (``dynamics/soft_step.py`` calls these).

Per step, :func:`prepare_joints` measures every joint's anchors from the bodies'
centres of mass, computes the springs' softness for the substep, and lists the joints
by kind. Per substep, :func:`joint_pass` applies the accumulated impulses (the warm
start), then runs one pass over every kind (biased), then another (relax). Joints are
solved before the contacts in each pass, kind by kind, each kind in row order (Box2D v3
solves joints before contacts within each colour; see ``docs/joints.md``).
"""
import math

import numpy as np

from .._jit import borrowed, njit
from ..constants import DYNAMIC
from .common import softness
from .distance import solve_distance, warm_start_distance
from .gear import solve_gear, warm_start_gear
from .layout import (ANGULAR, DISTANCE, FILTER, GEAR, J_ACTIVE, J_AOFF, J_AX, J_AY, J_BX, J_BY,
                     J_DCX, J_DCY, J_FAX, J_FAY, J_FBX, J_FBY, J_HZ, J_HZ2, J_INVH, J_LIMIT,
                     J_LOWER, J_MMAX, J_PLOWER, J_PMOTOR, J_PSPRING, J_PUPPER, J_RATIO, J_REF,
                     J_S1B, J_S1I, J_S1M, J_S2B, J_S2I, J_S2M, J_TX, J_TY, J_UPPER, J_UX, J_UY,
                     J_WUX, J_WUY, J_ZETA, J_ZETA2, BUCKETS, MOTOR, MOUSE, PLAIN_REVOLUTE, PRISMATIC, RATCHET,
                     REVOLUTE, WELD, WHEEL)
from .motor import solve_motor
from .mouse import solve_mouse, warm_start_mouse
from .prismatic import solve_prismatic, warm_start_prismatic
from .revolute import solve_revolute, warm_start_revolute
from .weld import solve_weld, warm_start_weld
from .wheel import solve_wheel, warm_start_wheel


@njit
def _turn(c, s, x, y):
    return c * x - s * y, s * x + c * y


@njit
def _ratchet_teeth(J, k, theta):
    """Move a ratchet's one-sided limit to the last tooth its angle passed: a positive
    tooth angle lets the angle grow (the limit is below), a negative one lets it shrink."""
    tooth = J[k, J_RATIO]
    phase = J[k, J_AOFF]
    J[k, J_LIMIT] = 1.0
    if tooth > 0.0:
        J[k, J_LOWER] = max(J[k, J_LOWER], phase + tooth * math.floor((theta - phase) / tooth))
        J[k, J_UPPER] = 1e300
    else:
        J[k, J_UPPER] = min(J[k, J_UPPER], phase - tooth * math.ceil((theta - phase) / -tooth))
        J[k, J_LOWER] = -1e300


@njit
def _bucket(J, k, t):
    """The solver's list for joint ``k`` of kind ``t``."""
    if t == REVOLUTE and J[k, J_HZ] == 0.0 and J[k, J_MMAX] == 0.0 and J[k, J_LIMIT] == 0.0:
        return PLAIN_REVOLUTE
    return t


@njit
def prepare_joints(J, kind, ja, jb, btype, angle, turn, com, center, h, in_contact):
    """Prepare the joints for a step of substeps ``h``; returns ``(order, starts)``:
    ``order[starts[t]:starts[t + 1]]`` are the rows of the active joints of kind ``t``
    (bucket ``PLAIN_REVOLUTE``: revolute joints without spring, motor or limits), in
    colour order (:func:`_colour_order`).

    A joint is active when one of its bodies is dynamic; both its bodies then take part
    in the substeps (``in_contact`` set). ``turn``: the bodies' rotations (cos, sin)."""
    # borrowed: else each call of _bucket counts J atomically (the caller keeps them alive)
    J, kind, ja, jb, btype, angle, turn, com, center, in_contact = borrowed(
        (J, kind, ja, jb, btype, angle, turn, com, center, in_contact))
    m = kind.shape[0]
    bucket = np.full(m, -1, np.int64)  # each active joint's bucket (-1: not solved)
    for k in range(m):
        t = kind[k]
        a = ja[k]
        b = jb[k]
        J[k, J_ACTIVE] = 0.0
        if t < 0 or t == FILTER or (btype[a] != DYNAMIC and btype[b] != DYNAMIC):
            continue
        J[k, J_ACTIVE] = 1.0
        in_contact[a] = 1
        in_contact[b] = 1
        ca, sa, cb, sb = turn[a, 0], turn[a, 1], turn[b, 0], turn[b, 1]
        J[k, J_FAX], J[k, J_FAY] = _turn(ca, sa, J[k, J_AX] - com[a, 0], J[k, J_AY] - com[a, 1])
        J[k, J_FBX], J[k, J_FBY] = _turn(cb, sb, J[k, J_BX] - com[b, 0], J[k, J_BY] - com[b, 1])
        J[k, J_WUX], J[k, J_WUY] = _turn(ca, sa, J[k, J_UX], J[k, J_UY])
        if t == MOUSE:
            J[k, J_DCX] = center[b, 0] - J[k, J_TX]
            J[k, J_DCY] = center[b, 1] - J[k, J_TY]
        else:
            J[k, J_DCX] = center[b, 0] - center[a, 0]
            J[k, J_DCY] = center[b, 1] - center[a, 1]
        J[k, J_S1B], J[k, J_S1M], J[k, J_S1I] = softness(J[k, J_HZ], J[k, J_ZETA], h)
        J[k, J_S2B], J[k, J_S2M], J[k, J_S2I] = softness(J[k, J_HZ2], J[k, J_ZETA2], h)
        J[k, J_INVH] = 1.0 / h
        if t == RATCHET:
            _ratchet_teeth(J, k, angle[b] - angle[a] - J[k, J_REF])
        # Parts switched off since the last step start from zero.
        if J[k, J_HZ] == 0.0 and t != WELD and t != MOUSE:
            J[k, J_PSPRING] = 0.0
        if J[k, J_MMAX] == 0.0:
            J[k, J_PMOTOR] = 0.0
        if J[k, J_LIMIT] == 0.0:
            J[k, J_PLOWER] = 0.0
            J[k, J_PUPPER] = 0.0
        bucket[k] = _bucket(J, k, t)
    return _colour_order(bucket, ja, jb, btype)


# Colours a joint may take, a bit each of an int64 per body. A joint whose two bodies
# already hold all of them goes into colour COLOURS, whose joints may share bodies (they
# are solved one after another, as in row order).
COLOURS = 63


@njit
def _colour_order(bucket, ja, jb, btype):
    """``(order, starts)`` of the active joints (see :func:`prepare_joints`; ``bucket``:
    each joint's bucket, -1 for one not solved): by bucket, and within a bucket by
    colour, then row. Two joints of one colour share no dynamic
    body, so the processor overlaps one's pass with the next one's instead of waiting
    for the velocities it writes (a joint grid's pins in row order share a ball, one
    joint after the other; coloured, its passes ran 25 % faster, 2026-12-02). Greedy:
    each joint, in row order, takes the first colour none of its bodies' earlier joints
    took. Box2D v3 colours its joints too (with the contacts, for threads and SIMD lanes)."""
    m = bucket.shape[0]
    width = COLOURS + 1
    taken = np.zeros(btype.shape[0], np.int64)  # each body's colours, a bit each
    key = np.empty(m, np.int64)
    counts = np.zeros(BUCKETS * width + 1, np.int64)
    for k in range(m):
        if bucket[k] < 0:
            continue
        a = ja[k]
        b = jb[k]
        used = (taken[a] if btype[a] == DYNAMIC else 0) | (taken[b] if btype[b] == DYNAMIC else 0)
        c = 0
        while c < COLOURS and (used >> c) & 1:
            c += 1
        if c < COLOURS:
            if btype[a] == DYNAMIC:
                taken[a] |= 1 << c
            if btype[b] == DYNAMIC:
                taken[b] |= 1 << c
        key[k] = bucket[k] * width + c
        counts[key[k] + 1] += 1
    fill = np.cumsum(counts)
    order = np.empty(fill[-1], np.int32)
    starts = np.empty(BUCKETS + 1, np.int64)
    for t in range(BUCKETS + 1):
        starts[t] = fill[t * width]
    for k in range(m):
        if bucket[k] >= 0:
            order[fill[key[k]]] = k
            fill[key[k]] += 1
    return order, starts


# The order the kinds are solved in, within every pass (Gauss-Seidel: a later kind sees
# the earlier kinds' impulses of the same pass).
PASS_ORDER = (PLAIN_REVOLUTE, REVOLUTE, PRISMATIC, DISTANCE, WELD, WHEEL, MOTOR, MOUSE, ANGULAR,
              RATCHET, GEAR)


@njit
def joint_pass(J, order, starts, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, which):
    """One pass over every active joint, kind by kind in ``PASS_ORDER``: ``which`` 0
    applies the accumulated impulses (the warm start of a substep), 1 solves with the
    position bias (soft at ``soft``), 2 relaxes (rigid, no bias)."""
    body = (ja, jb, S, inv_mass, inv_inertia)
    args = body + (angle, soft, inv_h, which == 1)
    warm = which == 0
    for t in PASS_ORDER:
        if starts[t + 1] == starts[t]:
            continue
        rows = order[starts[t]:starts[t + 1]]
        # solve_revolute's and warm_start_revolute's flags are always passed, and typed:
        # each way of passing them (a constant, a default left out) is a compile of its own.
        point = np.bool_(t == PLAIN_REVOLUTE or t == REVOLUTE)  # the shared point
        extras = np.bool_(t != PLAIN_REVOLUTE)  # spring, motor, limits
        if point or t == ANGULAR or t == RATCHET:
            if warm:
                warm_start_revolute(J, rows, *body, extras)
            else:
                solve_revolute(J, rows, *args, point, extras)
        elif t == PRISMATIC:
            warm_start_prismatic(J, rows, *body) if warm else solve_prismatic(J, rows, *args)
        elif t == DISTANCE:
            warm_start_distance(J, rows, *body) if warm else solve_distance(J, rows, *args)
        elif t == WELD:
            warm_start_weld(J, rows, *body) if warm else solve_weld(J, rows, *args)
        elif t == MOTOR:  # a motor joint's impulses are a weld's
            warm_start_weld(J, rows, *body) if warm else solve_motor(J, rows, *args)
        elif t == WHEEL:
            warm_start_wheel(J, rows, *body) if warm else solve_wheel(J, rows, *args)
        elif t == MOUSE:
            warm_start_mouse(J, rows, *body) if warm else solve_mouse(J, rows, *args)
        else:  # GEAR
            warm_start_gear(J, rows, *body) if warm else solve_gear(J, rows, *args)
