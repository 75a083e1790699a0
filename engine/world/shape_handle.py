"""ShapeHandle: a shape attached to a body, with its material.

The geometry (a :class:`~engine.shapes.Shape`) is an immutable value that many bodies
may share; the handle is the attachment: which body, which density, friction and
restitution, and which rows of the world's piece arrays it owns.
"""
import numbers

from .. import constants as K
from .._api import live_read_only
from .._checks import as_between, as_direction, as_flag, as_restitution, as_within
from . import attach
from .filter import Filter

__all__ = ["ShapeHandle"]


def _material(name, check, doc):
    """A material property of the handle (``friction``, ``restitution``): set between
    steps, checked by ``check``, on the handle and on every piece of its shape."""
    attr = "_" + name

    def put(self, value):
        value = check(value)
        state = self._live_body()._state
        state.check_unlocked()
        setattr(self, attr, value)
        getattr(state.pieces, name)[self._pieces] = value
        if name == "restitution":
            state.note_restitution(value)

    return live_read_only("_live_body", attr, doc).setter(put)


class ShapeHandle:
    """A shape attached to a body, with its material; returned by ``Body.add_shape``.

    ``friction``, ``restitution`` and ``filter`` can be changed at any time (between
    steps). Once the shape is removed (``Body.remove_shape``, ``World.destroy_body``)
    every use of the handle raises.

    Parameters
    ----------
    body : Body
        The body carrying the shape (``Body.add_shape`` makes the handle; do not call
        ``ShapeHandle`` yourself).
    shape_id : int
        The shape's id, its row of the world's shape store.
    shape : Circle, Segment or Polygon
        The geometry, in the body's frame.
    density, friction, restitution : float
        The material, as given to ``Body.add_shape``.
    pieces : numpy.ndarray
        The rows of the world's piece arrays the shape occupies, one per convex piece.
    filter : Filter
        Its collision filter.

    Attributes
    ----------
    user_data : object
        Anything to keep with the shape; None by default. The engine never reads it.
    """

    __slots__ = ("_body", "_id", "_shape", "_density", "_friction", "_restitution",
                 "_pieces", "_filter", "_collision_type", "user_data")

    def __init__(self, body, shape_id, shape, density, friction, restitution, pieces, filter):
        self._body = body
        self._id = shape_id
        self._shape = shape
        self._density = density
        self._friction = friction
        self._restitution = restitution
        self._pieces = pieces
        self._filter = filter
        self._collision_type = 0
        self.user_data = None

    def _live_body(self):
        if self._body is None:
            raise RuntimeError("this shape was removed; its handle can no longer be used")
        return self._body

    @property
    def alive(self):
        """False once the shape has been removed from its body."""
        return self._body is not None and self._body.alive

    id = live_read_only("_live_body", "_id", "An int naming this shape while it is attached "
                        "(``world.shape(id)``); a removed\nshape's id may be given to a later shape.")

    @property
    def body(self):
        """The body carrying this shape."""
        return self._live_body()

    shape = live_read_only("_live_body", "_shape",
                           "The attached geometry (read-only: the world's pieces were made from it).")
    density = live_read_only("_live_body", "_density", "Mass per square meter, kg/m^2.")

    friction = _material("friction", lambda v: as_between(v, "friction", 0.0, K.MAX_FRICTION),
                         "Coulomb friction coefficient, 0 to ``MAX_FRICTION`` (1e6), mixed with "
                         "the other shape's (see World.mixing).")
    restitution = _material("restitution", as_restitution, "Bounciness, 0 (none) to 1 (elastic).")

    collision_type = live_read_only("_live_body", "_collision_type", "An int naming the kind of "
                                    "shape for ``World.on_collision`` (0 by default).")

    @collision_type.setter
    def collision_type(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"collision_type must be an int, got {value!r}")
        self._live_body()
        self._collision_type = int(value)

    @property
    def one_way(self):
        """The unit direction a one-way platform pushes along, or None (pushes both
        ways). Set ``(0, 1)`` for a platform that bodies jump up through and land on."""
        state = self._live_body()._state
        d = state.shapes.one_way[self._id]
        return None if not d.any() else (float(d[0]), float(d[1]))

    @one_way.setter
    def one_way(self, value):
        d = (0.0, 0.0) if value is None else as_direction(value, "one_way")
        state = self._live_body()._state
        state.check_unlocked()
        was = state.shapes.one_way[self._id].any()
        state.shapes.one_way[self._id] = d
        state.one_way_count += int(value is not None) - int(was)

    @property
    def sensor(self):
        """Whether the shape is a sensor: it pushes nothing and reports what overlaps it
        (pymunk's ``Shape.sensor``; settable, as there). Changing it ends the shape's
        contacts and its sensor overlaps at the next step's events, and the next step
        finds what it now touches or holds; a snapshot taken before no longer fits."""
        return bool(self._live_body()._state.shapes.sensor[self._id])

    @sensor.setter
    def sensor(self, value):
        value = as_flag(value, "sensor")
        body = self._live_body()
        state = body._state
        state.check_unlocked()
        if value != bool(state.shapes.sensor[self._id]):
            attach.set_sensor(state, self._id, self._pieces, value)
            state.mark_placed(body._row())

    @property
    def overlaps(self):
        """The shapes overlapping this sensor after the last step (handles, by id);
        empty for a shape that is not a sensor."""
        state = self._live_body()._state
        keys = state.overlapping
        visitors = keys[(keys >> 32) == self._id] & 0xFFFFFFFF
        return [state.shape_handles[int(v)] for v in visitors]

    @property
    def surface_speed(self):
        """Speed of the surface along the shape, m/s, positive clockwise: a floor with
        ``surface_speed = 2`` carries what rests on it towards +x at 2 m/s, a conveyor
        belt (Box2D v3's tangent speed; pymunk's ``surface_velocity`` is a vector on the
        other shape's side). Within +-``MAX_INPUT_SPEED`` (1e6 m/s)."""
        state = self._live_body()._state
        return float(state.pieces.surface_speed[self._pieces[0]])

    @surface_speed.setter
    def surface_speed(self, value):
        v = as_within(value, "surface_speed", K.MAX_INPUT_SPEED, "m/s")
        state = self._live_body()._state
        state.check_unlocked()
        state.pieces.surface_speed[self._pieces] = v

    @property
    def rolling_resistance(self):
        """Resistance to rolling on or by this shape, dimensionless, 0 to ``MAX_FRICTION``
        (Box2D v3): the
        contact's angular impulse is capped at it times the larger rounding radius times
        the normal impulse."""
        state = self._live_body()._state
        return float(state.pieces.rolling_resistance[self._pieces[0]])

    @rolling_resistance.setter
    def rolling_resistance(self, value):
        c = as_between(value, "rolling_resistance", 0.0, K.MAX_FRICTION)
        state = self._live_body()._state
        state.check_unlocked()
        state.pieces.rolling_resistance[self._pieces] = c

    @property
    def filter(self):
        """The collision :class:`~engine.Filter`; a new one applies from the next step
        (pairs it no longer admits end, pairs it now admits are found)."""
        self._live_body()
        return self._filter

    @filter.setter
    def filter(self, value):
        if not isinstance(value, Filter):
            raise TypeError(f"filter must be an engine.Filter, got {type(value).__name__}")
        body = self._live_body()
        state = body._state
        state.check_unlocked()
        self._filter = value
        attach.write_filter(state, self._id, value)
        attach.refilter_pairs(state, self._pieces)
        state.mark_placed(body._row())

    def __repr__(self):
        if self._body is None:
            return "<ShapeHandle removed>"
        return f"<ShapeHandle {self._id} {self._shape!r} on {self._body!r}>"
