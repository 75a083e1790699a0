"""What the world's queries return: :class:`RayHit`, :class:`RayHits` and :class:`PointHit`."""
from typing import NamedTuple

import numpy as np

__all__ = ["RayHit", "RayHits", "PointHit"]


class RayHit(NamedTuple):
    """Where a ray enters a shape (see :meth:`engine.World.ray_cast`).

    Attributes
    ----------
    shape : ShapeHandle
        The shape hit.
    body : Body
        The body carrying it.
    point : (float, float)
        The hit point, on the shape's surface: ``start + fraction * (end - start)``.
    normal : (float, float)
        The surface's outward unit normal at ``point``; ``(0, 0)`` for a shape that holds
        the ray's start (reported only by ``ray_cast_all``, at fraction 0).
    fraction : float
        Where along the ray, in [0, 1]: 0 at ``start``, 1 at ``end``.

    Examples
    --------
    >>> from engine import World, Circle
    >>> world = World()
    >>> ball = world.create_body(position=(1, 0))
    >>> _ = ball.add_shape(Circle(1.0))
    >>> hit = world.ray_cast((-4, 0), (4, 0))
    >>> hit.body is ball, hit.point, hit.normal, hit.fraction
    (True, (0.0, 0.0), (-1.0, 0.0), 0.5)
    """

    shape: object
    body: object
    point: tuple
    normal: tuple
    fraction: float


class RayHits(NamedTuple):
    """The closest hit of each of many rays, as arrays (see :meth:`engine.World.ray_cast_many`).

    Row ``i`` answers ray ``i``; a ray that hits nothing has ``shape_id`` -1,
    ``fraction`` 1, ``point`` its end point and ``normal`` ``(0, 0)``.

    Attributes
    ----------
    fraction : numpy.ndarray
        float64 (k,): where along each ray the hit is, in [0, 1].
    point : numpy.ndarray
        float64 (k, 2): the hit points.
    normal : numpy.ndarray
        float64 (k, 2): the outward unit surface normals; ``(0, 0)`` for a miss.
    shape_id : numpy.ndarray
        int64 (k,): the id of the shape hit (``world.shape(id)``), -1 for a miss.

    Examples
    --------
    >>> from engine import World, Polygon
    >>> world = World()
    >>> _ = world.create_body("static").add_shape(Polygon.box(2, 2))
    >>> hits = world.ray_cast_many([(-4, 0), (-4, 5)], [(4, 0), (4, 5)])
    >>> hits.fraction.tolist(), hits.shape_id.tolist(), hits.point.tolist()
    ([0.375, 1.0], [0, -1], [[-1.0, 0.0], [4.0, 5.0]])
    """

    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    shape_id: np.ndarray


class PointHit(NamedTuple):
    """A shape near a point (see :meth:`engine.World.query_point`).

    Attributes
    ----------
    shape : ShapeHandle
        The shape.
    body : Body
        The body carrying it.
    point : (float, float)
        The point of the shape's surface (its outline, for a concave polygon) nearest to
        the query point.
    distance : float
        The distance from the query point to ``point``: negative when the query point is
        inside the shape (pymunk's ``point_query`` convention).

    Examples
    --------
    >>> from engine import World, Circle
    >>> world = World()
    >>> _ = world.create_body().add_shape(Circle(1.0))
    >>> hit = world.query_point_nearest((0.0, 3.0))
    >>> hit.point, hit.distance
    ((0.0, 1.0), 2.0)
    """

    shape: object
    body: object
    point: tuple
    distance: float
