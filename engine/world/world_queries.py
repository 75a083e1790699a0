"""The part of ``World`` that answers questions about space: ray casts, point, box and
shape queries, shape casts, and the broadphase boxes (a base class of ``World`` reading
``self._state``).

Names and arguments follow Box2D v3 and pymunk, so code written for either ports line by
line; ``docs/queries.md`` has the conventions, where the two differ, and the costs.
"""
import math

import numpy as np

from .._api import fill_doc
from . import queries as _q

__all__ = ["WorldQueries"]

# The parameters every query takes, described once (``fill_doc``): a query that lists
# shapes reports them, one that picks a single shape considers them.
REPORTED = """\
filter : Filter, optional
    Report only the shapes it admits (default: every shape).
sensors : bool
    Report sensor shapes too (default False)."""
CONSIDERED = REPORTED.replace("Report", "Consider")
RAY_PARAMETERS = """\
Parameters
----------
start, end : (float, float)
    The ray's ends, in meters.
""" + REPORTED
SHAPE = """\
shape : Circle, Segment or Polygon
    Any shape, not attached to a body."""


class WorldQueries:
    """Queries of :class:`~engine.World` (see ``docs/queries.md``).

    Every query takes ``filter`` (an :class:`~engine.Filter`, or None for every shape: a
    filter admits a shape when ``filter.collides_with(shape.filter)``) and ``sensors``
    (report sensor shapes too). Queries read the world at its current poses and change
    nothing; bad arguments raise ``TypeError``/``ValueError`` naming the argument.
    """

    @fill_doc(parameters=RAY_PARAMETERS)
    def ray_cast(self, start, end, *, filter=None, sensors=False):
        """The closest shape the ray from ``start`` to ``end`` hits, or None.

        {parameters}

        Returns
        -------
        RayHit or None
            ``(shape, body, point, normal, fraction)`` of the first surface the ray
            enters. Shapes that hold the start (or have it on their surface) are skipped,
            as Box2D's ``b2World_CastRayClosest`` skips them: a ray cast from inside a
            character finds what is around it (:meth:`ray_cast_all` reports them, at
            fraction 0). Ties in fraction go to the lower shape id. A concave polygon is
            hit where the ray enters its outline.

        Examples
        --------
        Box2D's unit case: a ray along x through a circle of radius 1 at (1, 0):

        >>> from engine import World, Circle
        >>> world = World()
        >>> _ = world.create_body("static", position=(1, 0)).add_shape(Circle(1.0))
        >>> hit = world.ray_cast((-4, 0), (4, 0))
        >>> hit.fraction, hit.point, hit.normal
        (0.5, (0.0, 0.0), (-1.0, 0.0))
        >>> world.ray_cast((-4, 2), (4, 2)) is None
        True
        >>> world.ray_cast((1, 0), (4, 0)) is None  # from inside the circle
        True
        """
        return _q.ray_cast(self._state, start, end, filter, sensors)

    @fill_doc(parameters=RAY_PARAMETERS)
    def ray_cast_all(self, start, end, *, filter=None, sensors=False):
        """Every shape the ray from ``start`` to ``end`` hits, as a list sorted from the
        nearest.

        {parameters}

        Returns
        -------
        list of RayHit
            One per shape, where the ray first enters it (a concave polygon: its
            outline), sorted by fraction, ties by shape id. A shape that holds the start
            (or has it on its surface) is hit at fraction 0 with ``point = start`` and
            ``normal = (0, 0)`` (Box2D v3.2's shape cast; pymunk: alpha 0, the ray's end
            point and an inward normal); ``start == end`` gives the shapes holding the
            point.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> for x in (3, 1):
        ...     _ = world.create_body("static", position=(x, 0)).add_shape(Circle(0.5))
        >>> [(h.shape.id, h.fraction) for h in world.ray_cast_all((0, 0), (4, 0))]
        [(1, 0.125), (0, 0.625)]
        """
        return _q.ray_cast_all(self._state, start, end, filter, sensors)

    @fill_doc(filter=REPORTED)
    def ray_cast_many(self, starts, ends, *, filter=None, sensors=False):
        """The closest hit of each of many rays, as arrays, in one kernel call.

        For sensors of learning agents, lidar and line-of-sight grids: no Python runs per
        ray.

        Parameters
        ----------
        starts, ends : array_like (k, 2)
            Ray ``i`` runs from ``starts[i]`` to ``ends[i]``.
        {filter}

        Returns
        -------
        RayHits
            Arrays ``fraction`` (k,), ``point`` (k, 2), ``normal`` (k, 2), ``shape_id``
            (k,); as :meth:`ray_cast` per ray (shapes holding a ray's start skipped); a
            miss has ``shape_id`` -1, fraction 1, the end point and normal (0, 0).

        Examples
        --------
        A lidar of four 5 m rays from the origin, a 2 m box 3 m to the east:

        >>> import numpy as np
        >>> from engine import World, Polygon
        >>> world = World()
        >>> _ = world.create_body("static", position=(3, 0)).add_shape(Polygon.box(2, 2))
        >>> angles = np.arange(4) * np.pi / 2
        >>> hits = world.ray_cast_many(np.zeros((4, 2)), 5 * np.c_[np.cos(angles), np.sin(angles)])
        >>> hits.shape_id.tolist(), hits.fraction.tolist()
        ([0, -1, -1, -1], [0.4, 1.0, 1.0, 1.0])
        >>> hits.point[0].tolist(), hits.normal[0].tolist()
        ([2.0, 0.0], [-1.0, 0.0])
        """
        return _q.ray_cast_many(self._state, starts, ends, filter, sensors)

    @fill_doc(filter=REPORTED)
    def query_point(self, point, max_distance=0.0, *, filter=None, sensors=False):
        """The shapes within ``max_distance`` of ``point``, nearest first.

        Parameters
        ----------
        point : (float, float)
            The query point.
        max_distance : float
            How far from the point a shape may be, >= 0 (``math.inf``: any distance).
            0 (default) gives the shapes holding the point, on their surface included.
        {filter}

        Returns
        -------
        list of PointHit
            ``(shape, body, point, distance)`` of every shape whose distance is <=
            ``max_distance`` (pymunk: <), sorted by distance, ties by shape id;
            ``distance`` is negative inside, minus the distance to the outline.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> _ = world.create_body("static").add_shape(Polygon.box(2, 2))
        >>> [(h.point, h.distance) for h in world.query_point((0.0, 0.75))]
        [((0.0, 1.0), -0.25)]
        >>> world.query_point((0.0, 1.5)), len(world.query_point((0.0, 1.5), 0.5))
        ([], 1)
        """
        return _q.query_point(self._state, point, max_distance, filter, sensors)

    @fill_doc(filter=CONSIDERED)
    def query_point_nearest(self, point, max_distance=math.inf, *, filter=None, sensors=False):
        """The shape nearest to ``point`` within ``max_distance``, or None.

        Parameters
        ----------
        point : (float, float)
            The query point.
        max_distance : float
            How far to look, >= 0 (default: anywhere).
        {filter}

        Returns
        -------
        PointHit or None
            As :meth:`query_point`; ties go to the lower shape id.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> for x in (0, 5):
        ...     _ = world.create_body(position=(x, 0)).add_shape(Circle(1.0))
        >>> hit = world.query_point_nearest((3.5, 0))
        >>> hit.shape.id, hit.point, hit.distance
        (1, (4.0, 0.0), 0.5)
        >>> world.query_point_nearest((3.5, 10), max_distance=1.0) is None
        True
        """
        return _q.query_point_nearest(self._state, point, max_distance, filter, sensors)

    @fill_doc(filter=REPORTED)
    def query_aabb(self, lower, upper, *, filter=None, sensors=False):
        """The shapes whose bounding box overlaps the box from ``lower`` to ``upper``.

        The shapes' own boxes at their current poses (exact, as pymunk's ``bb_query``),
        not the broadphase's fat ones (Box2D's ``OverlapAABB``); touching counts.

        Parameters
        ----------
        lower, upper : (float, float)
            The box's lower-left and upper-right corners (``lower <= upper``).
        {filter}

        Returns
        -------
        list of ShapeHandle
            Sorted by shape id.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> ball = world.create_body(position=(2, 0)).add_shape(Circle(0.5))
        >>> world.query_aabb((0, 0), (1.5, 1)) == [ball], world.query_aabb((0, 0), (1.49, 1))
        (True, [])
        """
        return _q.query_aabb(self._state, lower, upper, filter, sensors)

    @fill_doc(shape=SHAPE, filter=REPORTED)
    def query_shape(self, shape, pose, *, filter=None, sensors=False):
        """The shapes that ``shape`` placed at ``pose`` overlaps, with their manifolds.

        Parameters
        ----------
        {shape}
        pose : (x, y, angle) or (x, y)
            Where to place it.
        {filter}

        Returns
        -------
        list of (ShapeHandle, Manifold)
            Sorted by shape id; each manifold is ``engine.collide(shape, pose,
            handle.shape, body pose)``: its normal points from ``shape`` to the world's
            shape, and moving ``shape`` by ``-manifold.mtv`` separates them. Shapes that
            only touch (depth 0) are not reported.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> floor = world.create_body("static").add_shape(Polygon.box(10, 1))
        >>> [(h is floor, m.normal, m.depth) for h, m in world.query_shape(Circle(0.5), (0, 0.75))]
        [(True, (0.0, -1.0), 0.25)]
        """
        return _q.query_shape(self._state, shape, pose, filter, sensors)

    @fill_doc(shape=SHAPE, filter=CONSIDERED)
    def cast_shape(self, shape, pose, translation, *, filter=None, sensors=False):
        """The first shape in the world that ``shape`` touches when swept along ``translation``.

        Parameters
        ----------
        {shape}
        pose : (x, y, angle) or (x, y)
            Where the shape starts.
        translation : (float, float)
            The sweep; the shape does not turn.
        {filter}

        Returns
        -------
        engine.ShapeCastHit or None
            ``(body, shape, fraction, point, normal)`` of the earliest touch, bodies held
            at their current poses; ``None`` when nothing is in the way.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> wall = world.create_body("static", position=(5, 0))
        >>> _ = wall.add_shape(Polygon.box(1, 4))
        >>> hit = world.cast_shape(Circle(0.5), (0, 0), (10, 0))
        >>> hit.body is wall, round(hit.fraction, 6), hit.point, hit.normal
        (True, 0.4, (4.5, 0.0), (-1.0, 0.0))
        """
        return _q.cast_shape(self._state, shape, pose, translation, filter, sensors)

    def broadphase_boxes(self):
        """The broadphase trees' live nodes, read-only copies for drawing and inspection.

        Returns
        -------
        boxes : (k, 4) float64
            ``(min_x, min_y, max_x, max_y)`` of each node: a leaf holds one convex piece's
            fat box, an internal node the union of its children.
        heights : (k,) int32
            0 for leaves.
        static : (k,) bool
            Whether the node is in the static tree (static bodies) or the moving one.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> for x in (0, 3):
        ...     world.create_body(position=(x, 0)).add_shape(Circle(0.5)) and None
        >>> boxes, heights, static = world.broadphase_boxes()
        >>> heights.tolist(), static.tolist()
        ([0, 0, 1], [False, False, False])
        """
        state = self._state
        parts = [(*t.nodes(), s) for t, s in ((state.tree, False), (state.static_tree, True))]
        boxes = np.concatenate([b for b, _, _ in parts])
        heights = np.concatenate([h for _, h, _ in parts])
        static = np.concatenate([np.full(h.size, s) for _, h, s in parts])
        return boxes, heights, static
