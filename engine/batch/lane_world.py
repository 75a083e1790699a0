"""``LaneWorld``: one world of a ``WorldBatch``, for reading, queries and debug drawing.

Its bodies and joints are handles into the batch's merged world (reading and setting
them works as on any world's handles); its queries answer with that world's shapes
only; ``debug_draw`` draws that world alone. It is a view: it changes as the batch steps.
"""
import numpy as np

from .. import constants as K
from .._api import column_view
from ..world.queries import LaneFilter
from ..world.world_queries import WorldQueries

__all__ = ["LaneWorld"]


def _in_lane(method):
    """A query of the merged world limited to this handle's lane (its filter wrapped)."""
    query = getattr(WorldQueries, method)

    def lane_query(self, *args, filter=None, sensors=False):
        return query(self._world, *args, filter=LaneFilter(filter, self._lane), sensors=sensors)

    lane_query.__name__ = method
    lane_query.__doc__ = f"""``World.{method}`` in this world alone.

        Parameters
        ----------
        *args
            As for ``World.{method}``.
        filter : Filter, optional
            Report only the shapes it admits (default: every shape of this world).
        sensors : bool
            Report sensor shapes too (default False).
        """
    return lane_query


class LaneWorld:
    """World ``i`` of a :class:`~engine.WorldBatch` (``batch.world(i)``).

    Parameters
    ----------
    merged : World
        The batch's merged world.
    lane : int
        The world's index in the batch.
    per_world : tuple of int
        Rows of one world: bodies, shapes, pieces, joints.

    Examples
    --------
    >>> from engine import World, Circle, WorldBatch
    >>> world = World()
    >>> _ = world.create_body("static").add_shape(Circle(1.0))
    >>> batch = WorldBatch.replicate(world, 4)
    >>> hit = batch.world(2).ray_cast((-3, 0), (3, 0))
    >>> hit.fraction, batch.world(2).bodies[0] is hit.body
    (0.3333333333333333, True)
    """

    def __init__(self, merged, lane, per_world):
        self._world = merged
        self._lane = lane
        self._rows = slice(lane * per_world[0], (lane + 1) * per_world[0])
        self._joint_rows = range(lane * per_world[3], (lane + 1) * per_world[3])

    @property
    def index(self):
        """This world's index in its batch."""
        return self._lane

    def _view(self, column):
        """This world's rows of the body store's ``column`` (``column_view`` makes them
        read-only)."""
        return getattr(self._world._state.bodies, column)[self._rows]

    positions = column_view("pos", "Read-only (bodies, 2) view of the body origins.")
    angles = column_view("angle", "Read-only (bodies,) view of the angles.")
    velocities = column_view("vel", "Read-only (bodies, 2) view of the linear velocities.")
    angular_velocities = column_view("angvel", "Read-only (bodies,) view of the angular velocities.")

    @property
    def bodies(self):
        """This world's body handles, in the template's order."""
        return self._world._state.handles[self._rows]

    @property
    def joints(self):
        """This world's joint handles."""
        handles = self._world._state.joints.handles
        return [handles[r] for r in self._joint_rows if handles[r] is not None]

    ray_cast = _in_lane("ray_cast")
    ray_cast_all = _in_lane("ray_cast_all")
    ray_cast_many = _in_lane("ray_cast_many")
    query_point = _in_lane("query_point")
    query_point_nearest = _in_lane("query_point_nearest")
    query_aabb = _in_lane("query_aabb")
    query_shape = _in_lane("query_shape")
    cast_shape = _in_lane("cast_shape")

    def broadphase_boxes(self):
        """This world's broadphase leaves: ``(boxes, heights, static)`` as
        ``World.broadphase_boxes`` gives them (leaves only, at their own place)."""
        state = self._world._state
        p = state.pieces
        live = np.flatnonzero((p.body[: p.used] >= 0) & (p.sensor[: p.used] == 0))
        mine = live[state.bodies.lane[p.body[live]] == self._lane]
        static = state.bodies.btype[p.body[mine]] == K.STATIC
        return p.fat[mine].copy(), np.zeros(mine.size, np.int32), static

    def debug_draw(self, drawer, flags=None):
        """Draw this world alone (see ``World.debug_draw``).

        Parameters
        ----------
        drawer : engine.draw.debug_draw.DebugDraw
            Receives the drawing primitives.
        flags : engine.draw.debug_draw.DrawFlags, optional
            What to draw; ``DrawFlags.SHAPES`` by default.
        """
        from ..draw import debug_draw  # lazily: drawing is not part of stepping

        debug_draw.draw_world(self, drawer, debug_draw.DrawFlags.SHAPES if flags is None else flags)

    def __repr__(self):
        return f"<LaneWorld {self._lane} of a WorldBatch, {len(self.bodies)} bodies>"
