"""The part of ``World`` that makes the joints acting on relative angles alone and the
filter joint (a base class of ``World``; ``world_joints.py`` makes the others)."""
import math  # noqa: F401 (the doctests use it)

from .. import constants as K
from .._api import fill_doc
from .._checks import as_within
from ..joints import layout as L
from .joint_angular import AngularJoint, FilterJoint, GearJoint, RatchetJoint, as_ratio
from .joint_rows import drive_values
from .world_joints import JOINED

__all__ = ["AngularJoints"]


class AngularJoints:
    """Angular, gear, ratchet and filter joints of :class:`~engine.World`."""

    @fill_doc(**JOINED)
    def create_angular_joint(self, body_a, body_b, *, limits=None, motor_speed=0.0,
                             max_motor_torque=0.0, spring_hertz=0.0, spring_damping=0.0,
                             collide_connected=False):
        """Limits, a motor and a spring on the relative angle ``angle_b - angle_a`` alone
        (pymunk's ``RotaryLimitJoint``, ``SimpleMotor`` and ``DampedRotarySpring``).

        Parameters
        ----------
        {bodies}
        limits : (float, float), optional
            Bounds of the relative angle (rad) from its value now.
        motor_speed, max_motor_torque : float
            A motor driving ``w_b - w_a``. pymunk's ``SimpleMotor(a, b, rate)`` drives
            ``w_b - w_a = -rate``: pass ``motor_speed=-rate``.
        spring_hertz, spring_damping : float
            A rotational spring toward the angle now (0 Hz: none).
        {collide_connected}

        Returns
        -------
        AngularJoint
            ``angle`` and ``speed`` read the relative turn.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World(gravity=(0, 0))
        >>> a, b = world.create_body(), world.create_body(position=(2, 0))
        >>> _ = a.add_shape(Polygon.box(1, 1)), b.add_shape(Polygon.box(1, 1))
        >>> motor = world.create_angular_joint(a, b, motor_speed=1.0, max_motor_torque=100)
        >>> world.step(1 / 60)
        >>> round(b.angular_velocity - a.angular_velocity, 6)
        1.0
        """
        a, b = self._joined_rows(body_a, body_b)
        values = drive_values(motor_speed, max_motor_torque, "max_motor_torque", spring_hertz,
                              spring_damping, limits)
        return self._make(AngularJoint, a, b, self._origin(a), self._origin(b), values,
                          collide_connected)

    @fill_doc(**JOINED)
    def create_gear_joint(self, body_a, body_b, *, ratio=1.0, phase=None,
                          collide_connected=False):
        """Hold ``ratio * angle_b - angle_a`` at ``phase`` (pymunk's ``GearJoint``).

        Parameters
        ----------
        {bodies}
        ratio : float
            Non-zero; B turns ``1 / ratio`` times as fast as A (negative: the other way).
        phase : float, optional
            The held value; by default its value now (no jump).
        {collide_connected}

        Returns
        -------
        GearJoint
            It couples the two bodies' turns: B turns ``1 / ratio`` times as fast as A.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World(gravity=(0, 0))
        >>> a, b = world.create_body(), world.create_body(position=(3, 0))
        >>> _ = a.add_shape(Circle(1)), b.add_shape(Circle(0.5))
        >>> gear = world.create_gear_joint(a, b, ratio=-2.0)
        >>> a.angular_velocity = 1.0
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> round(b.angular_velocity / a.angular_velocity, 4)
        -0.5
        """
        a, b = self._joined_rows(body_a, body_b)
        ratio = as_ratio(ratio)
        angles = self._state.bodies.angle
        now = ratio * float(angles[b]) - float(angles[a])
        phase = now if phase is None else as_within(phase, "phase", K.MAX_COORDINATE, "rad")
        values = {L.J_RATIO: ratio, L.J_AOFF: phase}
        return self._make(GearJoint, a, b, self._origin(a), self._origin(b), values,
                          collide_connected)

    @fill_doc(**JOINED)
    def create_ratchet_joint(self, body_a, body_b, ratchet, *, phase=0.0,
                             collide_connected=False):
        """Let ``angle_b - angle_a`` (from its value now) grow but never fall back past
        the last tooth it passed, teeth ``ratchet`` rad apart; a negative ``ratchet``
        frees the other direction (pymunk's ``RatchetJoint``).

        Parameters
        ----------
        {bodies}
        ratchet : float
            The angle between teeth (rad), non-zero.
        phase : float
            Where the teeth are, as a relative angle (rad).
        {collide_connected}

        Returns
        -------
        RatchetJoint
            It turns freely one way and stops at each tooth the other way.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World(gravity=(0, 0))
        >>> ground, wheel = world.create_body("static"), world.create_body()
        >>> _ = wheel.add_shape(Circle(1))
        >>> click = world.create_ratchet_joint(ground, wheel, math.pi / 8)
        >>> wheel.angular_velocity = -1.0  # the locked direction
        >>> world.step(1 / 60)
        >>> abs(wheel.angular_velocity) < 1e-9
        True
        """
        a, b = self._joined_rows(body_a, body_b)
        values = {L.J_RATIO: as_ratio(ratchet, "ratchet"),
                  L.J_AOFF: as_within(phase, "phase", K.MAX_COORDINATE, "rad"),
                  L.J_LIMIT: 1.0, L.J_LOWER: -1e300, L.J_UPPER: 1e300}
        return self._make(RatchetJoint, a, b, self._origin(a), self._origin(b), values,
                          collide_connected)

    @fill_doc(**JOINED)
    def create_filter_joint(self, body_a, body_b):
        """Stop two bodies' shapes colliding with each other, and nothing else (Box2D's
        filter joint; a per-pair alternative to collision filters).

        Parameters
        ----------
        {bodies}

        Returns
        -------
        FilterJoint
            It only keeps its two bodies from colliding.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> a, b = world.create_body(), world.create_body(position=(0.1, 0))
        >>> _ = a.add_shape(Circle(0.5)), b.add_shape(Circle(0.5))
        >>> _ = world.create_filter_joint(a, b)
        >>> world.step(1 / 60)
        >>> len(world.contacts())
        0
        """
        a, b = self._joined_rows(body_a, body_b)
        return self._make(FilterJoint, a, b, self._origin(a), self._origin(b), {}, False)

    def _origin(self, i):
        pos = self._state.bodies.pos
        return (float(pos[i, 0]), float(pos[i, 1]))


