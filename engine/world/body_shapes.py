"""The part of ``Body`` that attaches shapes (a base class of ``Body`` over its row of
the world's state): adding and removing shapes, and the mass they give the body."""
from .. import constants as K
from .._checks import as_between, as_direction, as_restitution, as_within
from ..geometry.limits import as_density
from ..geometry.shapes import Shape
from . import attach
from .filter import DEFAULT_FILTER, Filter
from .shape_handle import ShapeHandle

__all__ = ["BodyShapes"]


class BodyShapes:
    """Shapes of a :class:`~engine.Body` (see ``Body.add_shape``)."""

    __slots__ = ()

    def add_shape(self, shape, density=1.0, friction=0.6, restitution=0.0, *, filter=None,
                  sensor=False, collision_type=0, one_way=None, surface_speed=0.0,
                  rolling_resistance=0.0, user_data=None):
        """Attach ``shape`` (given in the body frame); returns a :class:`ShapeHandle`.

        Mass, centre of mass and inertia are recomputed from all attached shapes.

        Parameters
        ----------
        shape : Circle, Segment or Polygon
            The geometry in the body's frame; one shape may be attached to many bodies.
        density : float
            Mass per square meter, kg/m^2, from ``MIN_DENSITY`` to ``MAX_DENSITY``
            (1e-12 .. 1e12; only dynamic bodies have mass).
        friction : float
            Coulomb friction coefficient from 0 to ``MAX_FRICTION`` (1e6), mixed with the other shape's
            (``World.mixing``).
        restitution : float
            Bounciness >= 0: 0 none, 1 elastic; mixed with the other shape's.
        filter : Filter, optional
            Collision categories, mask and group (default ``Filter()``: category 1,
            colliding with everything).
        sensor : bool
            A sensor never pushes anything: it reports the shapes that start and stop
            overlapping it (``World.sensor_events``, ``handle.overlaps``), fast ones
            crossing it within a step included. Its mass still counts (as in Box2D).
        collision_type : int
            The kind of shape, for ``World.on_collision`` (``handle.collision_type``).
        surface_speed : float
            Speed of the shape's surface along itself, m/s, positive clockwise (the top
            of a floor runs towards +x), within +-``MAX_INPUT_SPEED`` (1e6): a conveyor belt (``handle.surface_speed``).
        rolling_resistance : float
            Dimensionless resistance to rolling, 0 to ``MAX_FRICTION`` (Box2D v3): a rolling ball on the
            shape slows by about ``c g / (1 + I / (m r^2))``.
        one_way : (float, float), optional
            Make a one-way platform: the shape pushes only bodies arriving against this
            direction (``(0, 1)``: bodies landing from above), see ``handle.one_way``.
        user_data : object, optional
            Anything to keep with the shape (``handle.user_data``).
        """
        if not isinstance(shape, Shape):
            raise TypeError(f"shape must be a Circle, Segment or Polygon, got {type(shape).__name__}")
        density = as_density(density)
        friction = as_between(friction, "friction", 0.0, K.MAX_FRICTION)
        restitution = as_restitution(restitution)
        filter = DEFAULT_FILTER if filter is None else filter
        if not isinstance(filter, Filter):
            raise TypeError(f"filter must be an engine.Filter, got {type(filter).__name__}")
        if not isinstance(sensor, bool):
            raise TypeError(f"sensor must be True or False, got {sensor!r}")
        if isinstance(collision_type, bool) or not isinstance(collision_type, int):
            raise TypeError(f"collision_type must be an int, got {collision_type!r}")
        if one_way is not None:
            one_way = as_direction(one_way, "one_way")
        # Every argument converted once, here: a conversion that runs user code (a
        # ``__float__``) must not run again after the world has been changed.
        surface_speed = as_within(surface_speed, "surface_speed", K.MAX_INPUT_SPEED, "m/s")
        rolling_resistance = as_between(rolling_resistance, "rolling_resistance", 0.0, K.MAX_FRICTION)
        collision_type = int(collision_type)
        state = self._state
        state.check_unlocked()
        i = self._row()
        sid = attach.new_shape_id(state, i, filter, sensor)
        pieces = attach.attach_pieces(state, i, sid, shape, friction, restitution)
        handle = ShapeHandle(self, sid, shape, density, friction, restitution, pieces, filter)
        handle.user_data = user_data
        handle._collision_type = collision_type  # (checked above: no setter's checks again)
        if one_way is not None:
            handle.one_way = one_way
        if surface_speed:
            handle.surface_speed = surface_speed
        if rolling_resistance:
            handle.rolling_resistance = rolling_resistance
        state.shape_handles[sid] = handle
        self._shapes.append(handle)
        self._update_mass()
        return handle

    def remove_shape(self, handle):
        """Detach a shape added with :meth:`add_shape`.

        Mass, centre of mass and inertia are recomputed from the remaining shapes.

        Parameters
        ----------
        handle : ShapeHandle
            The handle :meth:`add_shape` returned (``ValueError`` if it is not attached
            to this body).
        """
        self._state.check_unlocked()
        self._row()
        if not isinstance(handle, ShapeHandle) or handle not in self._shapes:
            raise ValueError(f"{handle!r} is not attached to {self!r}")
        self._shapes.remove(handle)
        self._detach(handle)
        self._update_mass()

    @property
    def shapes(self):
        """The attached shapes' handles, in the order they were added."""
        self._row()
        return list(self._shapes)

    def _pieces(self):
        return [p for h in self._shapes for p in h._pieces]

    def _update_mass(self):
        attach.update_mass(self._state, self._row(), self._shapes)

    def _detach(self, handle):
        attach.detach_pieces(self._state, handle._pieces)
        attach.free_shape_id(self._state, handle._id)
        handle._body = None  # the handle raises from now on

    def _detach_all(self):
        """Remove every shape (the body is being destroyed)."""
        for h in self._shapes:
            self._detach(h)
        self._shapes = []
