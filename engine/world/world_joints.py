"""The part of ``World`` that makes and destroys joints (a base class of ``World``).

Each ``create_*_joint`` converts and checks every argument first, then takes a row in
the joint store (``joints/store.py``) and fills it: anchors given in world coordinates
are kept in each body's frame, and the relative angle at creation is the reference of
angles, limits and welds. ``docs/joints.md`` describes the kinds and their peers.
"""
import math

import numpy as np

from .. import constants as K
from .._api import fill_doc
from .._checks import (as_between, as_direction, as_non_negative, as_positive, as_vec2,
                       as_within)
from ..joints import layout as L
from .joint_rows import (distance_values, drive_values, drop_pairs_between, local_of, remove_joint,
                         world_of)
from . import sleeping
from .joint_kinds import (DistanceJoint, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint,
                          WeldJoint, WheelJoint)

__all__ = ["WorldJoints", "JOINED"]

# The parameters most ``create_*_joint`` methods share, described once (``fill_doc``).
JOINED = {
    "bodies": """\
body_a, body_b : Body
    Two different live bodies of this world.""",
    "collide_connected": """\
collide_connected : bool
    Whether the two bodies' shapes still collide with each other.""",
}


class WorldJoints:
    """Joints of :class:`~engine.World` (see ``docs/joints.md``)."""

    # -- creation ------------------------------------------------------------------------
    @fill_doc(**JOINED)
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
        {collide_connected}

        Returns
        -------
        RevoluteJoint
            Its ``angle`` and ``speed`` read the hinge; ``motor_speed``, ``limits`` and the
            spring can be set at any time.

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
        >>> round(math.hypot(*bob.position), 2)
        1.0
        """
        drive = (motor_speed, max_motor_torque, "max_motor_torque", spring_hertz, spring_damping,
                 limits)
        return self._make_at(RevoluteJoint, body_a, body_b, anchor, None, drive, collide_connected)

    @fill_doc(**JOINED)
    def create_prismatic_joint(self, body_a, body_b, anchor, axis, *, limits=None,
                               motor_speed=0.0, max_motor_force=0.0, spring_hertz=0.0,
                               spring_damping=0.0, collide_connected=False):
        """Let B slide along ``axis`` (fixed in A) through ``anchor``, without turning.

        Parameters
        ----------
        {bodies}
        anchor : (float, float)
            A point on the axis, in world coordinates now.
        axis : (float, float)
            The sliding direction (non-zero), in world coordinates now; it turns with A.
        limits : (float, float), optional
            ``(lower, upper)`` bounds of the translation (m) from its value now.
        motor_speed, max_motor_force : float
            A motor driving the sliding speed to ``motor_speed`` with at most that force.
        spring_hertz, spring_damping : float
            A spring along the axis toward the translation at creation (0 Hz: none).
        {collide_connected}

        Returns
        -------
        PrismaticJoint
            Its ``translation`` and ``speed`` read the slide along the axis; the motor, the
            spring and ``limits`` can be set at any time.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> slider = world.create_body()  # at the origin
        >>> _ = slider.add_shape(Polygon.box(0.2, 0.2))
        >>> rail = world.create_prismatic_joint(ground, slider, (0, 0), (1, 1))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> x, y = slider.position
        >>> round(x - y, 3), x < -0.5
        (0.0, True)
        """
        drive = (motor_speed, max_motor_force, "max_motor_force", spring_hertz, spring_damping,
                 limits)
        return self._make_at(PrismaticJoint, body_a, body_b, anchor, axis, drive, collide_connected)

    @fill_doc(**JOINED)
    def create_distance_joint(self, body_a, body_b, anchor_a, anchor_b, *, length=None,
                              min_length=None, max_length=None, spring_hertz=0.0,
                              spring_damping=0.0, collide_connected=False):
        """Keep ``anchor_a`` (on A) and ``anchor_b`` (on B) at a distance.

        A rigid rod by default (``length``, the anchors' distance now unless given); a
        spring toward ``length`` with ``spring_hertz > 0``; ``min_length`` and
        ``max_length`` bound the length (a rope: ``max_length`` alone).

        Parameters
        ----------
        {bodies}
        anchor_a, anchor_b : (float, float)
            World coordinates now.
        length, min_length, max_length : float, optional
            In metres, > 0; ``min_length <= max_length``.
        spring_hertz, spring_damping : float
        {collide_connected}

        Returns
        -------
        DistanceJoint
            ``current_length`` reads the distance now; ``length``, the spring and the limits
            can be set at any time.

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
        anchor_a = as_vec2(anchor_a, "anchor_a", K.MAX_COORDINATE, "m")
        anchor_b = as_vec2(anchor_b, "anchor_b", K.MAX_COORDINATE, "m")
        now = math.hypot(anchor_b[0] - anchor_a[0], anchor_b[1] - anchor_a[1])
        values = distance_values(now, length, min_length, max_length, spring_hertz,
                                  spring_damping)
        return self._make(DistanceJoint, a, b, anchor_a, anchor_b, values, collide_connected)

    @fill_doc(**JOINED)
    def create_weld_joint(self, body_a, body_b, anchor, *, linear_hertz=0.0, angular_hertz=0.0,
                          linear_damping=0.0, angular_damping=0.0, collide_connected=False):
        """Glue B to A at ``anchor``: rigid at 0 hertz, springy above.

        Parameters
        ----------
        {bodies}
        anchor : (float, float)
            The glued point, in world coordinates now.
        linear_hertz, angular_hertz : float
            Springs holding the point and the relative angle (0: rigid, at the world's
            ``joint_hertz``).
        linear_damping, angular_damping : float
            Their damping ratios.
        {collide_connected}

        Returns
        -------
        WeldJoint
            ``angle`` reads how far the weld gave way; its springs can be set at any time.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> ground = world.create_body("static")
        >>> arm = world.create_body(position=(1, 0), angular_velocity=5.0)
        >>> _ = arm.add_shape(Polygon.box(2, 0.2))
        >>> weld = world.create_weld_joint(ground, arm, (0, 0))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> abs(arm.angle) < 0.01
        True
        """
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor", K.MAX_COORDINATE, "m")
        values = {L.J_HZ: as_non_negative(linear_hertz, "linear_hertz"),
                  L.J_HZ2: as_non_negative(angular_hertz, "angular_hertz"),
                  L.J_ZETA: as_non_negative(linear_damping, "linear_damping"),
                  L.J_ZETA2: as_non_negative(angular_damping, "angular_damping")}
        return self._make(WeldJoint, a, b, anchor, anchor, values, collide_connected)

    @fill_doc(**JOINED)
    def create_wheel_joint(self, body_a, body_b, anchor, axis, *, spring_hertz=1.0,
                           spring_damping=0.7, limits=None, motor_speed=0.0,
                           max_motor_torque=0.0, collide_connected=False):
        """A wheel (B) on a suspension along ``axis`` (fixed in A) through ``anchor``.

        Parameters
        ----------
        body_a, body_b : Body
            The chassis and the wheel (two different live bodies of this world).
        anchor : (float, float)
            The wheel's axle, in world coordinates now.
        axis : (float, float)
            The suspension's direction (non-zero), in world coordinates now.
        spring_hertz, spring_damping : float
            The suspension spring (1 Hz, 0.7 by default as in Box2D; 0 Hz: none).
        limits : (float, float), optional
            ``(lower, upper)`` bounds of the suspension's travel (m).
        motor_speed, max_motor_torque : float
            A motor driving the wheel's spin ``w_b - w_a``.
        {collide_connected}

        Returns
        -------
        WheelJoint
            ``translation`` reads the suspension's travel, ``speed`` the wheel's spin.

        Examples
        --------
        >>> from engine import World, Circle, Polygon
        >>> world = World()
        >>> chassis, wheel = world.create_body(position=(0, 1)), world.create_body()
        >>> _ = chassis.add_shape(Polygon.box(2, 0.4)), wheel.add_shape(Circle(0.3))
        >>> axle = world.create_wheel_joint(chassis, wheel, (0, 0), (0, 1), motor_speed=-5)
        >>> axle.spring_hertz
        1.0
        """
        drive = (motor_speed, max_motor_torque, "max_motor_torque", spring_hertz, spring_damping,
                 limits)
        return self._make_at(WheelJoint, body_a, body_b, anchor, axis, drive, collide_connected)

    @fill_doc(**JOINED)
    def create_motor_joint(self, body_a, body_b, *, linear_offset=(0.0, 0.0),
                           angular_offset=0.0, max_force=1.0, max_torque=1.0,
                           correction_factor=0.3, collide_connected=False):
        """Drive B toward ``linear_offset`` (B's origin in A's frame) and
        ``angular_offset`` (``angle_b - angle_a``) with at most ``max_force`` and
        ``max_torque``.

        Parameters
        ----------
        {bodies}
        linear_offset : (float, float)
            The target position of B's origin, in A's frame.
        angular_offset : float
            The target ``angle_b - angle_a`` (rad).
        max_force, max_torque : float
            The most force (N) and torque (N m) it applies.
        correction_factor : float
            From 0 to 1: the fraction of the pose error closed per substep.
        {collide_connected}

        Returns
        -------
        MotorJoint
            Its offsets, ``max_force`` and ``max_torque`` can be set at any time (a
            character's controller).

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
        offset = as_vec2(linear_offset, "linear_offset", K.MAX_COORDINATE, "m")
        corr = as_non_negative(correction_factor, "correction_factor")
        if corr > 1.0:
            raise ValueError(f"correction_factor must be from 0 to 1, got {corr}")
        values = {L.J_AOFF: as_within(angular_offset, "angular_offset", K.MAX_COORDINATE, "rad"),
                  L.J_MAXF: as_between(max_force, "max_force", 0.0, K.MAX_FORCE, "N"),
                  L.J_MAXT: as_between(max_torque, "max_torque", 0.0, K.MAX_TORQUE, "N m"), L.J_CORR: corr}
        bodies = self._state.bodies
        anchor_a = world_of(bodies, a, offset)
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
            Move ``target`` each frame to drag the body.

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
        target = as_vec2(target, "target", K.MAX_COORDINATE, "m")
        values = {L.J_HZ: as_positive(hertz, "hertz"),
                  L.J_ZETA: as_non_negative(damping_ratio, "damping_ratio"),
                  L.J_MAXF: math.inf if max_force is None else as_positive(max_force, "max_force"),
                  L.J_TX: target[0], L.J_TY: target[1]}
        return self._make(MouseJoint, b, b, target, target, values, True)

    # -- helpers -------------------------------------------------------------------------
    def _joined_rows(self, body_a, body_b):
        self._state.check_unlocked()
        a, b = self._body_row(body_a), self._body_row(body_b)
        if a == b:
            raise ValueError("a joint needs two different bodies; body_a is body_b")
        return a, b

    def _make_at(self, cls, body_a, body_b, anchor, axis, drive, collide):
        """A joint at ``anchor`` with a motor, a spring and limits (``drive``: the arguments
        of ``drive_values``): revolute, or with an ``axis`` prismatic or wheel. The
        arguments are checked in that order: bodies, anchor, axis, drive."""
        a, b = self._joined_rows(body_a, body_b)
        anchor = as_vec2(anchor, "anchor", K.MAX_COORDINATE, "m")
        on_axis = () if axis is None else (as_direction(axis, "axis"),)
        values = drive_values(*drive)
        return self._make(cls, a, b, anchor, anchor, values, collide, *on_axis)

    def _make(self, cls, a, b, anchor_a, anchor_b, values, collide, axis=(1.0, 0.0)):
        if not isinstance(collide, (bool, np.bool_)):
            raise TypeError(f"collide_connected must be a bool, got {collide!r}")
        state = self._state
        state.check_unlocked()
        bodies = state.bodies
        row = state.joints.add(cls.kind, a, b, bool(collide))
        state.restructure()
        d = state.joints.columns.data[row]
        d[L.J_AX], d[L.J_AY] = local_of(bodies, a, anchor_a)
        d[L.J_BX], d[L.J_BY] = local_of(bodies, b, anchor_b)
        ca, sa = math.cos(bodies.angle[a]), math.sin(bodies.angle[a])
        d[L.J_UX], d[L.J_UY] = ca * axis[0] + sa * axis[1], -sa * axis[0] + ca * axis[1]
        d[L.J_REF] = bodies.angle[b] - bodies.angle[a]
        if cls is MotorJoint:  # its anchor on A is the offset itself, B's is B's origin
            d[L.J_REF] = 0.0
        for col, value in values.items():
            d[col] = value
        handle = cls(state, row)
        state.joints.handles[row] = handle
        sleeping.wake(state, a)
        sleeping.wake(state, b)
        handle._refresh()
        if not collide:
            drop_pairs_between(state, a, b)
        return handle
