"""Body: a thin handle over one row of the world's body arrays.

A ``Body`` holds its world and a key; every property reads or writes the world's NumPy
columns, so the handle costs nothing per step. Once the body is destroyed the key maps
to no row and every access raises, so a handle can never read another body's data.
"""
import enum
import math

from ..constants import DYNAMIC, KINEMATIC, STATIC
from .._checks import as_float, as_non_negative, as_vec2

__all__ = ["Body", "BodyType"]


class BodyType(enum.IntEnum):
    """How a body moves.

    ``DYNAMIC`` bodies have mass and respond to gravity, forces and contacts;
    ``KINEMATIC`` bodies move only by the velocity you give them and push dynamic
    bodies without being pushed; ``STATIC`` bodies never move.
    The strings ``"dynamic"``, ``"kinematic"`` and ``"static"`` are accepted too.
    """

    STATIC = STATIC
    KINEMATIC = KINEMATIC
    DYNAMIC = DYNAMIC

    @classmethod
    def parse(cls, value):
        """A ``BodyType`` from a member or its lower-case name."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls[value.upper()]
            except KeyError:
                pass
        raise ValueError(f"body_type must be BodyType.DYNAMIC, KINEMATIC or STATIC "
                         f"(or 'dynamic', 'kinematic', 'static'), got {value!r}")


class Body:
    """A rigid body in a :class:`~engine.World`; create it with ``world.create_body``.

    ``position`` is the body origin (the frame its shapes are given in); ``velocity`` is
    the velocity of its centre of mass. Angles are radians, counter-clockwise.

    Examples
    --------
    >>> from engine import World, Circle
    >>> world = World(gravity=(0, -10))
    >>> ball = world.create_body(position=(0, 5))
    >>> _ = ball.add_shape(Circle(0.5), density=2.0)
    >>> round(ball.mass, 6)
    1.570796
    >>> world.step(1 / 60); ball.velocity
    (0.0, -0.16666666666666666)
    """

    __slots__ = ("_world", "_key", "user_data", "__weakref__")

    def __init__(self, world, key):
        self._world = world
        self._key = key
        self.user_data = None

    # -- plumbing ---------------------------------------------------------------------
    def _row(self):
        row = self._world._body_keys.row(self._key)
        if row < 0:
            raise RuntimeError("this body was destroyed; its handle can no longer be used")
        return row

    def _col(self, name):
        return getattr(self._world._b, name)

    @property
    def world(self):
        """The world this body belongs to."""
        self._row()
        return self._world

    @property
    def alive(self):
        """False once the body has been destroyed."""
        return self._world._body_keys.row(self._key) >= 0

    # -- state ------------------------------------------------------------------------
    @property
    def position(self):
        """Origin of the body frame in the world, ``(x, y)`` in meters."""
        p = self._world._b.pos[self._row()]
        return (float(p[0]), float(p[1]))

    @position.setter
    def position(self, value):
        x, y = as_vec2(value, "position")
        self._world._set_pose(self, x=x, y=y)

    @property
    def angle(self):
        """Rotation in radians, counter-clockwise."""
        return float(self._world._b.angle[self._row()])

    @angle.setter
    def angle(self, value):
        self._world._set_pose(self, angle=as_float(value, "angle"))

    @property
    def velocity(self):
        """Velocity of the centre of mass, ``(vx, vy)`` in m/s."""
        v = self._world._b.vel[self._row()]
        return (float(v[0]), float(v[1]))

    @velocity.setter
    def velocity(self, value):
        vx, vy = as_vec2(value, "velocity")
        self._world._check_unlocked()
        self._world._b.vel[self._row()] = (vx, vy)

    @property
    def angular_velocity(self):
        """Angular velocity in rad/s, counter-clockwise."""
        return float(self._world._b.angvel[self._row()])

    @angular_velocity.setter
    def angular_velocity(self, value):
        w = as_float(value, "angular_velocity")
        self._world._check_unlocked()
        self._world._b.angvel[self._row()] = w

    @property
    def linear_damping(self):
        """Velocity damping rate in 1/s (0: none)."""
        return float(self._world._b.lin_damp[self._row()])

    @linear_damping.setter
    def linear_damping(self, value):
        c = as_non_negative(value, "linear_damping")
        self._world._check_unlocked()
        self._world._b.lin_damp[self._row()] = c

    @property
    def angular_damping(self):
        """Angular velocity damping rate in 1/s (0: none)."""
        return float(self._world._b.ang_damp[self._row()])

    @angular_damping.setter
    def angular_damping(self, value):
        c = as_non_negative(value, "angular_damping")
        self._world._check_unlocked()
        self._world._b.ang_damp[self._row()] = c

    @property
    def gravity_scale(self):
        """Multiplier of the world's gravity for this body (1 by default)."""
        return float(self._world._b.gravity_scale[self._row()])

    @gravity_scale.setter
    def gravity_scale(self, value):
        g = as_float(value, "gravity_scale")
        self._world._check_unlocked()
        self._world._b.gravity_scale[self._row()] = g

    @property
    def body_type(self):
        """:class:`BodyType`; assigning a new type moves the body's shapes between trees."""
        return BodyType(int(self._world._b.btype[self._row()]))

    @body_type.setter
    def body_type(self, value):
        self._world._set_body_type(self, BodyType.parse(value))

    # -- mass -------------------------------------------------------------------------
    @property
    def mass(self):
        """Mass in kg, from the shapes' densities (0 for static and kinematic bodies)."""
        return float(self._world._b.mass[self._row()])

    @mass.setter
    def mass(self, value):
        self._world._override_mass(self, mass=value)

    @property
    def inertia(self):
        """Moment of inertia about the centre of mass, kg m^2."""
        return float(self._world._b.inertia[self._row()])

    @inertia.setter
    def inertia(self, value):
        self._world._override_mass(self, inertia=value)

    @property
    def center_of_mass(self):
        """Centre of mass in the body frame, ``(x, y)``."""
        c = self._world._b.com[self._row()]
        return (float(c[0]), float(c[1]))

    @property
    def world_center_of_mass(self):
        """Centre of mass in the world, ``(x, y)``."""
        i = self._row()
        b = self._world._b
        c, s = math.cos(b.angle[i]), math.sin(b.angle[i])
        return (float(b.pos[i, 0] + c * b.com[i, 0] - s * b.com[i, 1]),
                float(b.pos[i, 1] + s * b.com[i, 0] + c * b.com[i, 1]))

    @property
    def bullet(self):
        """Sweep this body for continuous collision every step, however slowly it moves.

        Fast bodies (one step's motion above half their thinnest extent) are swept
        anyway, against static, kinematic and dynamic bodies; the flag only matters for
        a body that can meet something thinner than itself in less than that.
        """
        return bool(self._world._b.bullet[self._row()])

    @bullet.setter
    def bullet(self, value):
        self._world._check_unlocked()
        self._world._b.bullet[self._row()] = bool(value)

    # -- shapes -----------------------------------------------------------------------
    def add_shape(self, shape, density=1.0, friction=0.6, restitution=0.0):
        """Attach ``shape`` (given in the body frame); returns a :class:`ShapeHandle`.

        Mass, centre of mass and inertia are recomputed from all attached shapes.
        """
        return self._world._add_shape(self, shape, density, friction, restitution)

    def remove_shape(self, handle):
        """Detach a shape added with :meth:`add_shape`."""
        self._world._remove_shape(self, handle)

    @property
    def shapes(self):
        """The attached shapes' handles, in the order they were added."""
        self._row()
        return list(self._world._body_shapes[self._key])

    # -- forces -----------------------------------------------------------------------
    def _arm(self, point):
        if point is None:
            return 0.0, 0.0
        px, py = as_vec2(point, "point")
        cx, cy = self.world_center_of_mass
        return px - cx, py - cy

    def apply_force(self, force, point=None):
        """Add ``force`` (N, world axes) at world ``point`` (default: centre of mass) for the next step."""
        fx, fy = as_vec2(force, "force")
        rx, ry = self._arm(point)
        self._world._check_unlocked()
        i = self._row()
        b = self._world._b
        b.force[i, 0] += fx
        b.force[i, 1] += fy
        b.torque[i] += rx * fy - ry * fx

    def apply_torque(self, torque):
        """Add ``torque`` (N m) for the next step."""
        t = as_float(torque, "torque")
        self._world._check_unlocked()
        self._world._b.torque[self._row()] += t

    def apply_impulse(self, impulse, point=None):
        """Change momentum now by ``impulse`` (N s, world axes) at world ``point``."""
        jx, jy = as_vec2(impulse, "impulse")
        rx, ry = self._arm(point)
        self._world._check_unlocked()
        i = self._row()
        b = self._world._b
        b.vel[i, 0] += b.inv_mass[i] * jx
        b.vel[i, 1] += b.inv_mass[i] * jy
        b.angvel[i] += b.inv_inertia[i] * (rx * jy - ry * jx)

    def __repr__(self):
        if not self.alive:
            return "<Body destroyed>"
        return f"<Body {self.body_type.name.lower()} at {self.position}>"
