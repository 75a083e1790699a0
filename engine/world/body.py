"""Body: a thin handle over one row of the world's body arrays.

A ``Body`` holds the world's state and a key; every property reads or writes the state's
NumPy columns, so the handle costs nothing per step. Once the body is destroyed the key
maps to no row and every access raises, so a handle can never read another body's data.
"""
from .. import constants as K
from .._api import live_read_only
from .._checks import as_between, as_flag, as_float, as_non_negative, as_vec2, as_within
from ..constants import DYNAMIC
from . import attach, filter_kinds
from .body_shapes import BodyShapes
from .body_sleep import BodySleep
from .body_forces import BodyForces
from . import sleeping
from .body_type import BodyType
from .columns import set_angles

__all__ = ["Body"]


def _damping(column, name, doc):
    """A damping rate of the body, its row of ``column``: a float >= 0; setting it wakes
    the body."""
    return property(lambda self: float(getattr(self._state.bodies, column)[self._row()]),
                    lambda self, value: self._set(column, as_non_negative(value, name)), doc=doc)


class Body(BodyShapes, BodySleep, BodyForces):
    """A rigid body in a :class:`~engine.World`; create it with ``world.create_body``.

    ``position`` is the body origin (the frame its shapes are given in); ``velocity`` is
    the velocity of its centre of mass. Angles are radians, counter-clockwise.

    Parameters
    ----------
    world : World
        The world holding the body (``World.create_body`` makes the handle; do not
        call ``Body`` yourself).
    state : engine.world.state.WorldState
        That world's state, which the handle reads and writes.
    key : int
        The body's key in the world's handle table.

    Attributes
    ----------
    user_data : object
        Anything to keep with the body (a name, a game object); None by default. The
        engine never reads it.

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

    __slots__ = ("_world", "_state", "_key", "_shapes", "user_data", "__weakref__")

    def __init__(self, world, state, key):
        self._world = world
        self._state = state
        self._key = key
        self._shapes = []  # ShapeHandles, in the order they were added
        self.user_data = None

    # -- plumbing ---------------------------------------------------------------------
    def _row(self):
        return self._state.row(self._key)

    def _set(self, column, value):
        """Write ``value`` into this body's row of ``column`` (between steps only)."""
        self._state.check_unlocked()
        i = self._row()
        getattr(self._state.bodies, column)[i] = value
        sleeping.wake(self._state, i)

    id = live_read_only("_row", "_key", "An int naming this body for its life (never given to "
                        "another body of its world):\n``world.body(id)`` returns the handle.")
    world = live_read_only("_row", "_world", "The world this body belongs to.")

    @property
    def alive(self):
        """False once the body has been destroyed."""
        return self._state.body_keys.row(self._key) >= 0

    # -- state ------------------------------------------------------------------------
    @property
    def position(self):
        """Origin of the body frame in the world, ``(x, y)`` in meters (each within
        +-``MAX_COORDINATE``, 1e9 m)."""
        p = self._state.bodies.pos[self._row()]
        return (float(p[0]), float(p[1]))

    @position.setter
    def position(self, value):
        self._place(position=as_vec2(value, "position", K.MAX_COORDINATE, "m"))

    @property
    def angle(self):
        """Rotation in radians, counter-clockwise."""
        return float(self._state.bodies.angle[self._row()])

    @angle.setter
    def angle(self, value):
        self._place(angle=as_float(value, "angle"))

    def _place(self, position=None, angle=None):
        """Set the pose by hand: the broadphase re-boxes the pieces and finds new pairs."""
        self._state.check_unlocked()
        i = self._row()
        if position is not None:
            self._state.bodies.pos[i] = position
        if angle is not None:
            set_angles(self._state.bodies, i, angle)
        self._state.mark_placed(i)
        attach.reinsert_pieces(self._state, self._pieces())

    @property
    def velocity(self):
        """Velocity of the centre of mass, ``(vx, vy)`` in m/s (each set within
        +-``MAX_INPUT_SPEED``, 1e6 m/s; the step caps dynamic bodies at
        ``MAX_LINEAR_SPEED``, 400 m/s, and moves kinematic bodies as told)."""
        v = self._state.bodies.vel[self._row()]
        return (float(v[0]), float(v[1]))

    @velocity.setter
    def velocity(self, value):
        vx, vy = as_vec2(value, "velocity", K.MAX_INPUT_SPEED, "m/s")
        self._set("vel", (vx, vy))

    @property
    def angular_velocity(self):
        """Angular velocity in rad/s, counter-clockwise (set within
        +-``MAX_INPUT_ANGULAR_SPEED``, 1e6 rad/s)."""
        return float(self._state.bodies.angvel[self._row()])

    @angular_velocity.setter
    def angular_velocity(self, value):
        w = as_within(value, "angular_velocity", K.MAX_INPUT_ANGULAR_SPEED, "rad/s")
        self._set("angvel", w)

    linear_damping = _damping("lin_damp", "linear_damping",
                              "Velocity damping rate in 1/s (0: none).")
    angular_damping = _damping("ang_damp", "angular_damping",
                               "Angular velocity damping rate in 1/s (0: none).")

    @property
    def gravity_scale(self):
        """Multiplier of the world's gravity for this body (1 by default).

        Any float within +-``MAX_GRAVITY_SCALE`` (1e6): 0 turns gravity off for the
        body, a negative value reverses it. Only dynamic bodies feel gravity.
        """
        return float(self._state.bodies.gravity_scale[self._row()])

    @gravity_scale.setter
    def gravity_scale(self, value):
        g = as_within(value, "gravity_scale", K.MAX_GRAVITY_SCALE)
        self._set("gravity_scale", g)

    @property
    def body_type(self):
        """:class:`BodyType`; assigning a new type moves the body's shapes between trees."""
        return BodyType(int(self._state.bodies.btype[self._row()]))

    @body_type.setter
    def body_type(self, value):
        kind = BodyType.parse(value)
        state = self._state
        state.check_unlocked()
        i = self._row()
        old = int(state.bodies.btype[i])
        if old == int(kind):
            return
        state.bodies.btype[i] = int(kind)
        state.restructure()
        if kind == BodyType.STATIC:
            state.bodies.vel[i] = 0.0
            state.bodies.angvel[i] = 0.0
        # Static pieces live in the static tree, dynamic and kinematic ones in the other.
        moved_trees = (old == BodyType.STATIC) != (kind == BodyType.STATIC)
        attach.reinsert_pieces(state, self._pieces(), moved_trees=moved_trees)
        if moved_trees:
            filter_kinds.forget(state)  # its shapes' filters are in the other tree now
        state.mark_placed(i)
        sleeping.wake_joined(state, i)  # its joints may now link it to sleeping islands
        attach.drop_pairs_of_body(state, i)
        self._update_mass()

    # -- mass -------------------------------------------------------------------------
    @property
    def mass(self):
        """Mass in kg, from the shapes' densities (0 for static and kinematic bodies).

        Assigning a mass from ``MIN_MASS`` to ``MAX_MASS`` (1e-30 .. 1e40 kg) overrides
        it (dynamic bodies only; others raise ``ValueError``) until a shape is added or removed or the body type changes, which
        recompute it from the densities. The centre of mass does not move.
        """
        return float(self._state.bodies.mass[self._row()])

    @mass.setter
    def mass(self, value):
        m = as_between(value, "mass", K.MIN_MASS, K.MAX_MASS, "kg")
        i = self._dynamic_row("mass")
        self._state.bodies.mass[i], self._state.bodies.inv_mass[i] = m, 1.0 / m
        sleeping.wake(self._state, i)

    @property
    def inertia(self):
        """Moment of inertia about the centre of mass, kg m^2.

        Assigning 0 (the body stops rotating) or a value from ``MIN_INERTIA`` to
        ``MAX_INERTIA`` (1e-50 .. 1e60 kg m^2) overrides it (dynamic bodies only) until a shape is added or removed or the body type changes.
        """
        return float(self._state.bodies.inertia[self._row()])

    @inertia.setter
    def inertia(self, value):
        j = as_non_negative(value, "inertia")
        if j != 0.0:
            as_between(j, "inertia", K.MIN_INERTIA, K.MAX_INERTIA, "kg m^2 (or 0)")
        i = self._dynamic_row("inertia")
        self._state.bodies.inertia[i] = j
        self._state.bodies.inv_inertia[i] = 1.0 / j if j > 0.0 else 0.0
        sleeping.wake(self._state, i)

    def _dynamic_row(self, what):
        self._state.check_unlocked()
        i = self._row()
        if self._state.bodies.btype[i] != DYNAMIC:
            raise ValueError(f"only dynamic bodies have a {what} to set")
        return i

    @property
    def center_of_mass(self):
        """Centre of mass in the body frame, ``(x, y)``."""
        c = self._state.bodies.com[self._row()]
        return (float(c[0]), float(c[1]))

    @property
    def world_center_of_mass(self):
        """Centre of mass in the world, ``(x, y)``."""
        return self._state.world_center(self._row())

    @property
    def fixed_rotation(self):
        """True for a body that never turns (a character that must not tip over): its
        rotational inertia is infinite (pymunk: ``moment = inf``; Box2D: ``fixedRotation``)
        and ``inertia`` reads 0. Setting it stops the body's spin.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> player = world.create_body()
        >>> _ = player.add_shape(Polygon.box(0.5, 1.0))
        >>> player.fixed_rotation = True
        >>> player.apply_torque(100.0); world.step(1 / 60); player.angle
        0.0
        """
        return bool(self._state.bodies.fixed_rotation[self._row()])

    @fixed_rotation.setter
    def fixed_rotation(self, value):
        self._set("fixed_rotation", as_flag(value, "fixed_rotation"))
        if value:
            self._state.bodies.angvel[self._row()] = 0.0
        self._update_mass()

    @property
    def bullet(self):
        """Sweep this body for continuous collision every step, however slowly it moves.

        Fast bodies (one step's motion above half their thinnest extent) are swept
        anyway, against static, kinematic and dynamic bodies; the flag only matters for
        a body that can meet something thinner than itself in less than that.
        """
        return bool(self._state.bodies.bullet[self._row()])

    @bullet.setter
    def bullet(self, value):
        self._set("bullet", as_flag(value, "bullet"))

    # -- forces -----------------------------------------------------------------------
    def __repr__(self):
        if not self.alive:
            return "<Body destroyed>"
        return f"<Body {self.body_type.name.lower()} at {self.position}>"

