"""Joint rows from the Python side: settings from arguments, anchors between world and
body frames, removal, and breaking (``World`` and its joint facet use these)."""
import math

import numpy as np

from .. import constants as K
from .._checks import as_between, as_non_negative, as_positive, as_within
from ..joints import layout as L
from . import sleeping
from .joint import as_limits

__all__ = ["spring_values", "drive_values", "limit_values", "distance_values", "local_of", "world_of",
           "drop_pairs_between", "remove_joint", "destroy_joints_of_body",
           "break_overloaded"]

NO_BROKEN = np.empty(0, np.int64)
NO_BROKEN.flags.writeable = False


def spring_values(hertz, damping):
    """Columns of a spring: frequency and damping ratio."""
    return {L.J_HZ: as_non_negative(hertz, "spring_hertz"),
            L.J_ZETA: as_non_negative(damping, "spring_damping")}


def drive_values(motor_speed, max_motor, max_name, spring_hertz, spring_damping, limits):
    """Columns of a motor, a spring and ``limits`` (revolute, prismatic, wheel and angular
    joints), checked in that order; ``max_name`` is ``"max_motor_torque"`` (N m) or
    ``"max_motor_force"`` (N).

    Examples
    --------
    >>> drive_values(2.0, 5.0, "max_motor_force", 0.0, 0.0, None)[L.J_MMAX]
    5.0
    """
    most, unit = (K.MAX_FORCE, "N") if max_name == "max_motor_force" else (K.MAX_TORQUE, "N m")
    return {L.J_MSPEED: as_within(motor_speed, "motor_speed", K.MAX_INPUT_SPEED),
            L.J_MMAX: as_between(max_motor, max_name, 0.0, most, unit),
            **spring_values(spring_hertz, spring_damping), **limit_values(limits)}


def limit_values(limits):
    """Columns of ``limits`` (None or a pair)."""
    limits = as_limits(limits)
    if limits is None:
        return {L.J_LIMIT: 0.0}
    return {L.J_LIMIT: 1.0, L.J_LOWER: limits[0], L.J_UPPER: limits[1]}


def distance_values(now, length, min_length, max_length, hertz, damping):
    """Columns of a distance joint whose anchors are ``now`` apart."""
    length = now if length is None else as_positive(length, "length")
    if length <= 0.0:
        raise ValueError("the anchors coincide: give a length > 0")
    lo = 0.0 if min_length is None else as_positive(min_length, "min_length")
    hi = math.inf if max_length is None else as_positive(max_length, "max_length")
    if lo > hi:
        raise ValueError(f"min_length must be <= max_length, got {lo} > {hi}")
    values = {L.J_LENGTH: length, **spring_values(hertz, damping)}
    if min_length is not None or max_length is not None:
        values.update({L.J_LIMIT: 1.0, L.J_LOWER: lo, L.J_UPPER: hi})
    return values


def local_of(bodies, i, point):
    """World ``point`` in body row ``i``'s frame (relative to its origin)."""
    c, s = math.cos(bodies.angle[i]), math.sin(bodies.angle[i])
    dx, dy = point[0] - bodies.pos[i, 0], point[1] - bodies.pos[i, 1]
    return c * dx + s * dy, -s * dx + c * dy


def world_of(bodies, i, local):
    """Body row ``i``'s ``local`` point in world coordinates."""
    c, s = math.cos(bodies.angle[i]), math.sin(bodies.angle[i])
    return (float(bodies.pos[i, 0] + c * local[0] - s * local[1]),
            float(bodies.pos[i, 1] + s * local[0] + c * local[1]))


def drop_pairs_between(state, a, b):
    """Forget the tracked pairs between bodies ``a`` and ``b`` (joined without collision);
    the ones touching end at the next step."""
    if not len(state.pairs):
        return
    pa, pb = state.pairs.pieces()
    body = state.pieces.body
    ba, bb = body[pa], body[pb]
    between = ((ba == a) & (bb == b)) | ((ba == b) & (bb == a))
    if between.any():  # (none, for two bodies just made: a ragdoll's joints)
        state.pairs.keep(~between)


def remove_joint(state, row):
    """Destroy joint ``row``; bodies it kept apart look for their pairs again."""
    c = state.joints.columns
    a, b, collide = int(c.body_a[row]), int(c.body_b[row]), bool(c.collide[row])
    state.joints.remove(row)
    state.restructure()
    sleeping.wake(state, a)
    sleeping.wake(state, b)
    if not collide and a != b:
        state.mark_placed(a)
        state.mark_placed(b)


def destroy_joints_of_body(state, i):
    """Destroy the joints of body row ``i`` (the body is being destroyed)."""
    for row in state.joints.rows_of_body(i):
        remove_joint(state, int(row))


def break_overloaded(state):
    """Destroy the joints whose load in the last step exceeded their break force or
    torque; their ids go to ``state.broken``."""
    c = state.joints.columns
    n = c.used
    rows = np.flatnonzero((c.kind[:n] >= 0) & (np.isfinite(c.break_force[:n])
                                                | np.isfinite(c.break_torque[:n])))
    broken = []
    for row in rows:
        handle = state.joints.handles[row]
        px, py, torque = handle._impulse()
        inv_h = c.data[row, L.J_INVH]
        if (math.hypot(px, py) * inv_h > c.break_force[row]
                or abs(torque) * inv_h > c.break_torque[row]):
            broken.append(int(row))
    for row in broken:
        remove_joint(state, row)
    state.broken = np.array(broken, np.int64) if broken else NO_BROKEN
