"""The joint kinds' handles: each one's readings and settings (``joint.py`` has the
common part). Angles are in radians, lengths in metres, and the ``speed`` readings are
the rates of the matching positions."""
import math

from .._checks import as_float, as_non_negative, as_positive
from ..joints import layout as L
from .joint import HANDLE_DOC, Joint, as_limits, point_setting, setting

__all__ = ["RevoluteJoint", "PrismaticJoint", "DistanceJoint", "WeldJoint", "WheelJoint",
           "MotorJoint", "MouseJoint", "JOINT_TYPES"]


def _limits_property(doc):
    def get(self):
        d = self._data()
        return (float(d[L.J_LOWER]), float(d[L.J_UPPER])) if d[L.J_LIMIT] else None

    def put(self, value):
        value = as_limits(value)
        d = self._writable()
        d[L.J_LIMIT] = value is not None
        if value is not None:
            d[L.J_LOWER], d[L.J_UPPER] = value
        self._refresh()

    return property(get, put, doc=doc)


# What several kinds share word for word, made once and given to each of them.
_SPRING_DAMPING = setting(L.J_ZETA, "spring_damping: the spring's damping ratio.")
_MOTOR_TORQUE = setting(L.J_MMAX, "max_motor_torque: the motor's torque limit (N m; 0: off).")
_SLIDE_LIMITS = _limits_property("limits: None or (lower, upper) bounds of ``translation`` (m).")
_AXIS = property(lambda self: self._axis(), doc="axis: the unit axis in world coordinates now.")


class Relative(Joint):
    """Readings shared by kinds whose bodies turn relative to each other."""

    __slots__ = ()

    def _pair(self):
        row = self._check()
        c = self._state.joints.columns
        return int(c.body_a[row]), int(c.body_b[row])

    def _relative_angle(self):
        a, b = self._pair()
        ang = self._state.bodies.angle
        return float(ang[b] - ang[a] - self._data()[L.J_REF])

    def _relative_spin(self):
        a, b = self._pair()
        w = self._state.bodies.angvel
        return float(w[b] - w[a])

    def _slide(self):
        """``(translation, speed)`` of anchor B along the axis fixed in A."""
        a, b = self._pair()
        (ax, ay), (bx, by) = self.anchor_a, self.anchor_b
        ux, uy = self._axis()
        bodies = self._state.bodies
        va = _point_velocity(bodies, a, ax, ay)
        vb = _point_velocity(bodies, b, bx, by)
        dx, dy = bx - ax, by - ay
        wa = float(bodies.angvel[a])
        # d/dt (d . u) = (vB - vA) . u + d . (wA x u)
        speed = (vb[0] - va[0]) * ux + (vb[1] - va[1]) * uy + wa * (dx * -uy + dy * ux)
        return dx * ux + dy * uy, speed

    def _axial_impulse(self, across, along):
        ux, uy = self._axis()
        return -uy * across + ux * along, ux * across + uy * along


def _point_velocity(bodies, i, x, y):
    c, s = math.cos(bodies.angle[i]), math.sin(bodies.angle[i])
    cx = bodies.pos[i, 0] + c * bodies.com[i, 0] - s * bodies.com[i, 1]
    cy = bodies.pos[i, 1] + s * bodies.com[i, 0] + c * bodies.com[i, 1]
    w = bodies.angvel[i]
    return bodies.vel[i, 0] - w * (y - cy), bodies.vel[i, 1] + w * (x - cx)


def _point_and_turn(self):
    """The impulse of a point constraint and an angular one (weld and motor joints)."""
    d = self._data()
    return float(d[L.J_PX]), float(d[L.J_PY]), float(d[L.J_PA])


class RevoluteJoint(Relative):
    """Two bodies pinned at a point, turning freely (``World.create_revolute_joint``)."""

    __slots__ = ()
    kind = L.REVOLUTE
    angle = property(lambda self: self._relative_angle(),
                     doc="angle: angle_b - angle_a minus its value at creation (rad, unwrapped).")
    speed = property(lambda self: self._relative_spin(), doc="speed: w_b - w_a (rad/s).")
    motor_speed = setting(L.J_MSPEED, "motor_speed: the speed the motor drives (rad/s).", as_float)
    max_motor_torque = _MOTOR_TORQUE
    spring_hertz = setting(L.J_HZ, "spring_hertz: the rotational spring's frequency (Hz; 0: off).")
    spring_damping = _SPRING_DAMPING
    limits = _limits_property("limits: None or (lower, upper) bounds of ``angle`` (rad).")

    def _impulse(self):
        d = self._data()
        return (float(d[L.J_PX]), float(d[L.J_PY]),
                float(d[L.J_PSPRING] + d[L.J_PMOTOR] + d[L.J_PLOWER] - d[L.J_PUPPER]))


class PrismaticJoint(Relative):
    """B slides along an axis fixed in A, without turning (``World.create_prismatic_joint``)."""

    __slots__ = ()
    kind = L.PRISMATIC
    translation = property(lambda self: self._slide()[0],
                           doc="translation: how far anchor B moved along the axis since creation (m).")
    speed = property(lambda self: self._slide()[1], doc="speed: rate of ``translation`` (m/s).")
    axis = _AXIS
    motor_speed = setting(L.J_MSPEED, "motor_speed: the speed the motor drives (m/s).", as_float)
    max_motor_force = setting(L.J_MMAX, "max_motor_force: the motor's force limit (N; 0: off).")
    spring_hertz = setting(L.J_HZ, "spring_hertz: the spring's frequency along the axis (Hz; 0: off).")
    spring_damping = _SPRING_DAMPING
    limits = _SLIDE_LIMITS

    def _impulse(self):
        d = self._data()
        fx, fy = self._axial_impulse(d[L.J_PX], d[L.J_PSPRING] + d[L.J_PMOTOR] + d[L.J_PLOWER]
                                     - d[L.J_PUPPER])
        return float(fx), float(fy), float(d[L.J_PY])


class WheelJoint(Relative):
    """A wheel on a suspension axis fixed in A (``World.create_wheel_joint``)."""

    __slots__ = ()
    kind = L.WHEEL
    translation = property(lambda self: self._slide()[0],
                           doc="translation: the suspension's travel along the axis (m).")
    speed = property(lambda self: self._relative_spin(), doc="speed: the wheel's spin w_b - w_a (rad/s).")
    axis = _AXIS
    motor_speed = setting(L.J_MSPEED, "motor_speed: the spin the motor drives (rad/s).", as_float)
    max_motor_torque = _MOTOR_TORQUE
    spring_hertz = setting(L.J_HZ, "spring_hertz: the suspension's frequency (Hz; 0: none).")
    spring_damping = setting(L.J_ZETA, "spring_damping: the suspension's damping ratio.")
    limits = _SLIDE_LIMITS

    def _impulse(self):
        d = self._data()
        fx, fy = self._axial_impulse(d[L.J_PX], d[L.J_PSPRING] + d[L.J_PLOWER] - d[L.J_PUPPER])
        return float(fx), float(fy), float(d[L.J_PMOTOR])


class DistanceJoint(Relative):
    """Keeps two anchors at a distance: rod, spring or rope (``World.create_distance_joint``)."""

    __slots__ = ()
    kind = L.DISTANCE
    length = setting(L.J_LENGTH, "length: the rest length (m) of the rod or spring.", as_positive)
    spring_hertz = setting(L.J_HZ, "spring_hertz: the spring's frequency (Hz; 0 with no limits: a rigid rod).")
    spring_damping = _SPRING_DAMPING

    @property
    def current_length(self):
        """The anchors' distance now (m)."""
        (ax, ay), (bx, by) = self.anchor_a, self.anchor_b
        return math.hypot(bx - ax, by - ay)

    @property
    def min_length(self):
        """The shortest length allowed (m), or None."""
        d = self._data()
        return float(d[L.J_LOWER]) if d[L.J_LIMIT] and d[L.J_LOWER] > 0.0 else None

    @property
    def max_length(self):
        """The longest length allowed (m), or None."""
        d = self._data()
        return float(d[L.J_UPPER]) if d[L.J_LIMIT] and math.isfinite(d[L.J_UPPER]) else None

    def _refresh(self):
        d = self._data()
        d[L.J_RIGID] = d[L.J_HZ] == 0.0 and d[L.J_LIMIT] == 0.0

    def _impulse(self):
        d = self._data()
        (ax, ay), (bx, by) = self.anchor_a, self.anchor_b
        size = math.hypot(bx - ax, by - ay)
        ux, uy = ((bx - ax) / size, (by - ay) / size) if size > 0.0 else (1.0, 0.0)
        p = float(d[L.J_PX] + d[L.J_PSPRING] + d[L.J_PLOWER] - d[L.J_PUPPER])
        return ux * p, uy * p, 0.0


class WeldJoint(Relative):
    """Glues B to A (``World.create_weld_joint``); 0 hertz is rigid."""

    __slots__ = ()
    kind = L.WELD
    linear_hertz = setting(L.J_HZ, "linear_hertz: the linear spring's frequency (Hz; 0: rigid).")
    angular_hertz = setting(L.J_HZ2, "angular_hertz: the angular spring's frequency (Hz; 0: rigid).")
    linear_damping = setting(L.J_ZETA, "linear_damping: the linear spring's damping ratio.")
    angular_damping = setting(L.J_ZETA2, "angular_damping: the angular spring's damping ratio.")
    angle = property(lambda self: self._relative_angle(),
                     doc="angle: how far B turned relative to A since creation (rad).")
    _impulse = _point_and_turn


class MotorJoint(Relative):
    """Drives B toward a pose relative to A (``World.create_motor_joint``)."""

    __slots__ = ()
    kind = L.MOTOR
    # in the order of World.create_motor_joint's parameters
    linear_offset = point_setting(L.J_AX, "linear_offset",
                                  "The target position of B's origin in A's frame (m).")
    angular_offset = setting(L.J_AOFF, "angular_offset: the target angle_b - angle_a (rad).", as_float)
    max_force = setting(L.J_MAXF, "max_force: the largest force it applies (N).")
    max_torque = setting(L.J_MAXT, "max_torque: the largest torque it applies (N m).")
    correction_factor = setting(L.J_CORR, "correction_factor: the fraction of the pose error "
                                "closed per substep, from 0 to 1.", lambda v, n: _fraction(v, n))
    _impulse = _point_and_turn


class MouseJoint(Joint):
    """Pulls a point of a body toward ``target`` on a spring (``World.create_mouse_joint``)."""

    __slots__ = ()
    kind = L.MOUSE
    hertz = setting(L.J_HZ, "hertz: the spring's frequency (Hz).", as_positive)
    damping_ratio = setting(L.J_ZETA, "damping_ratio: the spring's damping ratio.")
    max_force = setting(L.J_MAXF, "max_force: the largest force it applies (N; inf: no limit).")

    @property
    def body_a(self):
        """None: a mouse joint pulls one body (``body_b``) toward a point."""
        self._check()
        return None

    @property
    def body(self):
        """The body it pulls (the same as ``body_b``)."""
        return self.body_b

    target = point_setting(L.J_TX, "target",
                           "The point (world coordinates) the anchor is pulled toward; settable.")


def _fraction(value, name):
    f = as_non_negative(value, name)
    if f > 1.0:
        raise ValueError(f"{name} must be from 0 to 1, got {f}")
    return f


JOINT_TYPES = (RevoluteJoint, PrismaticJoint, DistanceJoint, WeldJoint, WheelJoint, MotorJoint,
               MouseJoint)
for _kind in JOINT_TYPES:
    _kind.__doc__ += "\n" + HANDLE_DOC
