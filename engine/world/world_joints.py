"""The part of ``World`` that makes and destroys joints (a base class of ``World``).

Each ``create_*_joint`` converts and checks every argument first, then takes a row in
the joint store (``joints/store.py``) and fills it: anchors given in world coordinates
are kept in each body's frame, and the relative angle at creation is the reference of
angles, limits and welds. ``docs/joints.md`` describes the kinds and their peers.
"""
import math

import numpy as np

from .. import constants as K
from .._checks import as_direction, as_float, as_non_negative, as_positive, as_vec2
from ..joints import layout as L
from .joint import JointEvents, as_limits
from .joint_kinds import (DistanceJoint, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint,
                          WeldJoint, WheelJoint)

__all__ = ["WorldJoints", "break_overloaded", "destroy_joints_of_body"]

NO_BROKEN = np.empty(0, np.int64)
NO_BROKEN.flags.writeable = False


class WorldJoints:
    """Joints of :class:`~engine.World` (see ``docs/joints.md``)."""

    # -- settings -------------------------------------------------------------------------
    @property
    def joint_hertz(self):
        """Stiffness of every joint's position correction, in Hz (clamped to half the
        substep rate); 60 by default as in Box2D v3. Higher is stiffer.

        Examples
        --------
        >>> from engine import World
        >>> World().joint_hertz
        60.0
        """
        return self._state.joint_hertz

    @joint_hertz.setter
    def joint_hertz(self, value):
        self._state.check_unlocked()
        self._state.joint_hertz = as_positive(value, "joint_hertz")

    @property
    def joint_damping_ratio(self):
        """Damping ratio of the joints' position correction (2 by default, as in Box2D)."""
        return self._state.joint_zeta

    @joint_damping_ratio.setter
    def joint_damping_ratio(self, value):
        self._state.check_unlocked()
        self._state.joint_zeta = as_non_negative(value, "joint_damping_ratio")

    @property
    def joints(self):
        """The live joints, in id order."""
        return [h for h in self._state.joints.handles if h is not None]

    def joint(self, id):
        """The joint with ``id`` (``joint.id``); raises ValueError when there is none."""
        handles = self._state.joints.handles
        if isinstance(id, bool) or not isinstance(id, (int, np.integer)):
            raise TypeError(f"a joint id must be an int, got {id!r}")
        if not 0 <= id < len(handles) or handles[id] is None:
            raise ValueError(f"no joint has id {id} (destroyed, or never made)")
        return handles[id]

    @property
    def joint_events(self):
        """The last step's :class:`~engine.world.joint.JointEvents`: ``broken``, the ids of
        the joints whose load exceeded ``break_force`` or ``break_torque`` (destroyed)."""
        return JointEvents(self._state.broken)

    # -- creation ------------------------------------------------------------------------
    def create_revolute_joint(self, body_a, body_b, anchor, *, limits=None, motor_speed=0.0,
                              max_motor_torque=0.0, spring_hertz=0.0, spring_damping=0.0,
                              collide_connected=False):
        """Pin two bodies together at ``anchor`` (world coordinates); they turn freely.

        Parameters
        ----------
        body_a, body_b : Body
            Two different live bodies of this world (at least one dynamic to act).
        anchor : (float, float)
            The shared point, in world coordinates now.
        limits : (float, float), optional
            ``(lower, upper)`` bounds of the relative angle (rad) from its value now.
        motor_speed, max_motor_torque : float
            A motor driving ``w_b - w_a`` to ``motor_speed`` with at most that torque.
        spring_hertz, spring_damping : float
            A rotational spring toward the angle at creation (0 Hz: none).
        collide_connected : bool
            Whether the two bodies' shapes still collide with each other.

        Returns
        -------
        RevoluteJoint

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> bob = world.create_body(position=(1, 0))
        >>> _ = bob.add_shape(Circle(0.1))
        >>> pin = world.create_revolute_joint(ground, bob, (0, 0))
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> round(math.hypot(*bob.position), 4)
        1.0
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor")
        values = {L.J_MSPEED: as_float(motor_speed, "motor_speed"),
                  L.J_MMAX: as_non_negative(max_motor_torque, "max_motor_torque"),
                  **_spring(spring_hertz, spring_damping), **_limits(limits)}
        return self._make(RevoluteJoint, a, b, anchor, anchor, values, collide_connected)

    def create_prismatic_joint(self, body_a, body_b, anchor, axis, *, limits=None,
                               motor_speed=0.0, max_motor_force=0.0, spring_hertz=0.0,
                               spring_damping=0.0, collide_connected=False):
        """Let B slide along ``axis`` (fixed in A) through ``anchor``, without turning.

        Parameters are those of :meth:`create_revolute_joint`, with ``axis`` (a
        non-zero direction in world coordinates now) and forces for torques; ``limits``
        bound the translation (m) from its value now.

        Returns
        -------
        PrismaticJoint

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> slider = world.create_body(position=(0, 0))
        >>> _ = slider.add_shape(Polygon.box(0.2, 0.2))
        >>> rail = world.create_prismatic_joint(ground, slider, (0, 0), (1, 1))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> x, y = slider.position
        >>> round(x - y, 6), x < -0.5
        (0.0, True)
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor")
        axis = as_direction(axis, "axis")
        values = {L.J_MSPEED: as_float(motor_speed, "motor_speed"),
                  L.J_MMAX: as_non_negative(max_motor_force, "max_motor_force"),
                  **_spring(spring_hertz, spring_damping), **_limits(limits)}
        return self._make(PrismaticJoint, a, b, anchor, anchor, values, collide_connected, axis)

    def create_distance_joint(self, body_a, body_b, anchor_a, anchor_b, *, length=None,
                              min_length=None, max_length=None, spring_hertz=0.0,
                              spring_damping=0.0, collide_connected=False):
        """Keep ``anchor_a`` (on A) and ``anchor_b`` (on B) at a distance.

        A rigid rod by default (``length``, the anchors' distance now unless given); a
        spring toward ``length`` with ``spring_hertz > 0``; ``min_length`` and
        ``max_length`` bound the length (a rope: ``max_length`` alone).

        Parameters
        ----------
        body_a, body_b : Body
        anchor_a, anchor_b : (float, float)
            World coordinates now.
        length, min_length, max_length : float, optional
            In metres, > 0; ``min_length <= max_length``.
        spring_hertz, spring_damping : float
        collide_connected : bool

        Returns
        -------
        DistanceJoint

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> bob = world.create_body(position=(0, -2))
        >>> _ = bob.add_shape(Circle(0.1))
        >>> rope = world.create_distance_joint(ground, bob, (0, 0), (0, -2), max_length=2.0)
        >>> rope.max_length, rope.min_length
        (2.0, None)
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor_a, anchor_b = as_vec2(anchor_a, "anchor_a"), as_vec2(anchor_b, "anchor_b")
        now = math.hypot(anchor_b[0] - anchor_a[0], anchor_b[1] - anchor_a[1])
        values = _distance_values(now, length, min_length, max_length, spring_hertz,
                                  spring_damping)
        return self._make(DistanceJoint, a, b, anchor_a, anchor_b, values, collide_connected)

    def create_weld_joint(self, body_a, body_b, anchor, *, linear_hertz=0.0, angular_hertz=0.0,
                          linear_damping=0.0, angular_damping=0.0, collide_connected=False):
        """Glue B to A at ``anchor``: rigid at 0 hertz, springy above.

        Returns
        -------
        WeldJoint

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> arm = world.create_body(position=(1, 0))
        >>> _ = arm.add_shape(Polygon.box(2, 0.2))
        >>> weld = world.create_weld_joint(ground, arm, (0, 0))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> abs(arm.angle) < 0.01
        True
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor")
        values = {L.J_HZ: as_non_negative(linear_hertz, "linear_hertz"),
                  L.J_HZ2: as_non_negative(angular_hertz, "angular_hertz"),
                  L.J_ZETA: as_non_negative(linear_damping, "linear_damping"),
                  L.J_ZETA2: as_non_negative(angular_damping, "angular_damping")}
        return self._make(WeldJoint, a, b, anchor, anchor, values, collide_connected)

    def create_wheel_joint(self, body_a, body_b, anchor, axis, *, spring_hertz=1.0,
                           spring_damping=0.7, limits=None, motor_speed=0.0,
                           max_motor_torque=0.0, collide_connected=False):
        """A wheel (B) on a suspension along ``axis`` (fixed in A) through ``anchor``.

        Returns
        -------
        WheelJoint

        Examples
        --------
        >>> from engine import World, Circle, Polygon
        >>> world = World()
        >>> chassis = world.create_body(position=(0, 1))
        >>> _ = chassis.add_shape(Polygon.box(2, 0.4))
        >>> wheel = world.create_body(position=(0.8, 0.6))
        >>> _ = wheel.add_shape(Circle(0.3))
        >>> axle = world.create_wheel_joint(chassis, wheel, (0.8, 0.6), (0, 1), motor_speed=-5,
        ...                                 max_motor_torque=50)
        >>> axle.spring_hertz
        1.0
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor")
        axis = as_direction(axis, "axis")
        values = {L.J_MSPEED: as_float(motor_speed, "motor_speed"),
                  L.J_MMAX: as_non_negative(max_motor_torque, "max_motor_torque"),
                  **_spring(spring_hertz, spring_damping), **_limits(limits)}
        return self._make(WheelJoint, a, b, anchor, anchor, values, collide_connected, axis)

    def create_motor_joint(self, body_a, body_b, *, linear_offset=(0.0, 0.0),
                           angular_offset=0.0, max_force=1.0, max_torque=1.0,
                           correction_factor=0.3, collide_connected=False):
        """Drive B toward ``linear_offset`` (B's origin in A's frame) and
        ``angular_offset`` (``angle_b - angle_a``) with at most ``max_force`` and
        ``max_torque``.

        Returns
        -------
        MotorJoint

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World(gravity=(0, 0))
        >>> ground = world.create_body("static")
        >>> puck = world.create_body(position=(1, 0))
        >>> _ = puck.add_shape(Polygon.box(0.5, 0.5))
        >>> drive = world.create_motor_joint(ground, puck, linear_offset=(0, 0), max_force=100)
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> abs(puck.position[0]) < 1e-3
        True
        """
        a, b = self._joined_rows(body_a, body_b)
        offset = as_vec2(linear_offset, "linear_offset")
        corr = as_non_negative(correction_factor, "correction_factor")
        if corr > 1.0:
            raise ValueError(f"correction_factor must be from 0 to 1, got {corr}")
        values = {L.J_AOFF: as_float(angular_offset, "angular_offset"),
                  L.J_MAXF: as_non_negative(max_force, "max_force"),
                  L.J_MAXT: as_non_negative(max_torque, "max_torque"), L.J_CORR: corr}
        bodies = self._state.bodies
        anchor_a = _world_of(bodies, a, offset)
        anchor_b = (float(bodies.pos[b, 0]), float(bodies.pos[b, 1]))
        return self._make(MotorJoint, a, b, anchor_a, anchor_b, values, collide_connected)

    def create_mouse_joint(self, body, target, *, hertz=5.0, damping_ratio=0.7, max_force=None):
        """Pull ``body`` by the point now at ``target`` toward ``joint.target`` on a spring.

        Parameters
        ----------
        body : Body
        target : (float, float)
            World coordinates; the body's point there becomes the anchor.
        hertz, damping_ratio : float
            The spring (hertz > 0).
        max_force : float, optional
            The largest pull in N (None: no limit; Box2D's samples use 1000 times the
            body's mass).

        Returns
        -------
        MouseJoint

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World(gravity=(0, 0))
        >>> ball = world.create_body()
        >>> _ = ball.add_shape(Circle(0.5))
        >>> drag = world.create_mouse_joint(ball, (0, 0))
        >>> drag.target = (1, 0)
        >>> for _ in range(120):
        ...     world.step(1 / 60)
        >>> round(ball.position[0], 2)
        1.0
        """
        b = self._body_row(body)
        target = as_vec2(target, "target")
        values = {L.J_HZ: as_positive(hertz, "hertz"),
                  L.J_ZETA: as_non_negative(damping_ratio, "damping_ratio"),
                  L.J_MAXF: math.inf if max_force is None else as_positive(max_force, "max_force"),
                  L.J_TX: target[0], L.J_TY: target[1]}
        return self._make(MouseJoint, b, b, target, target, values, True)

    def destroy_joint(self, joint):
        """Remove ``joint``; its handle raises from now on.

        Parameters
        ----------
        joint : Joint
            A live joint of this world.
        """
        state = self._state
        if not hasattr(joint, "_state") or joint._state is not state or not hasattr(joint, "_check"):
            raise TypeError(f"expected a joint of this world, got {joint!r}")
        row = joint._check()
        state.check_unlocked()
        _remove(state, row)

    # -- helpers -------------------------------------------------------------------------
    def _joined_rows(self, body_a, body_b):
        self._state.check_unlocked()
        a, b = self._body_row(body_a), self._body_row(body_b)
        if a == b:
            raise ValueError("a joint needs two different bodies; body_a is body_b")
        return a, b

    def _make(self, cls, a, b, anchor_a, anchor_b, values, collide, axis=(1.0, 0.0)):
        if not isinstance(collide, (bool, np.bool_)):
            raise TypeError(f"collide_connected must be a bool, got {collide!r}")
        state = self._state
        state.check_unlocked()
        bodies = state.bodies
        row = state.joints.add(cls.kind, a, b, bool(collide))
        d = state.joints.columns.data[row]
        d[L.J_AX], d[L.J_AY] = _local_of(bodies, a, anchor_a)
        d[L.J_BX], d[L.J_BY] = _local_of(bodies, b, anchor_b)
        ca, sa = math.cos(bodies.angle[a]), math.sin(bodies.angle[a])
        d[L.J_UX], d[L.J_UY] = ca * axis[0] + sa * axis[1], -sa * axis[0] + ca * axis[1]
        d[L.J_REF] = bodies.angle[b] - bodies.angle[a]
        if cls is MotorJoint:  # its anchor on A is the offset itself, B's is B's origin
            d[L.J_REF] = 0.0
        for col, value in values.items():
            d[col] = value
        handle = cls(state, row)
        state.joints.handles[row] = handle
        handle._refresh()
        if not collide:
            _drop_pairs_between(state, a, b)
        return handle


def _spring(hertz, damping):
    return {L.J_HZ: as_non_negative(hertz, "spring_hertz"),
            L.J_ZETA: as_non_negative(damping, "spring_damping")}


def _limits(limits):
    limits = as_limits(limits)
    if limits is None:
        return {L.J_LIMIT: 0.0}
    return {L.J_LIMIT: 1.0, L.J_LOWER: limits[0], L.J_UPPER: limits[1]}


def _distance_values(now, length, min_length, max_length, hertz, damping):
    length = now if length is None else as_positive(length, "length")
    if length <= 0.0:
        raise ValueError("the anchors coincide: give a length > 0")
    lo = 0.0 if min_length is None else as_positive(min_length, "min_length")
    hi = math.inf if max_length is None else as_positive(max_length, "max_length")
    if lo > hi:
        raise ValueError(f"min_length must be <= max_length, got {lo} > {hi}")
    values = {L.J_LENGTH: length, **_spring(hertz, damping)}
    if min_length is not None or max_length is not None:
        values.update({L.J_LIMIT: 1.0, L.J_LOWER: lo, L.J_UPPER: hi})
    return values


def _local_of(bodies, i, point):
    c, s = math.cos(bodies.angle[i]), math.sin(bodies.angle[i])
    dx, dy = point[0] - bodies.pos[i, 0], point[1] - bodies.pos[i, 1]
    return c * dx + s * dy, -s * dx + c * dy


def _world_of(bodies, i, local):
    c, s = math.cos(bodies.angle[i]), math.sin(bodies.angle[i])
    return (float(bodies.pos[i, 0] + c * local[0] - s * local[1]),
            float(bodies.pos[i, 1] + s * local[0] + c * local[1]))


def _drop_pairs_between(state, a, b):
    """Forget the tracked pairs between bodies ``a`` and ``b`` (joined without collision);
    the ones touching end at the next step."""
    pa, pb = state.pairs.pieces()
    body = state.pieces.body
    ba, bb = body[pa], body[pb]
    state.pairs.keep(~(((ba == a) & (bb == b)) | ((ba == b) & (bb == a))))


def _remove(state, row):
    """Destroy joint ``row``; bodies it kept apart look for their pairs again."""
    c = state.joints.columns
    a, b, collide = int(c.body_a[row]), int(c.body_b[row]), bool(c.collide[row])
    state.joints.remove(row)
    if not collide and a != b:
        state.mark_placed(a)
        state.mark_placed(b)


def destroy_joints_of_body(state, i):
    """Destroy the joints of body row ``i`` (the body is being destroyed)."""
    for row in state.joints.rows_of_body(i):
        _remove(state, int(row))


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
        _remove(state, row)
    state.broken = np.array(broken, np.int64) if broken else NO_BROKEN
