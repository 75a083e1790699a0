"""The part of ``World`` that answers questions about space: shape casts and the
broadphase boxes (a base class of ``World`` reading ``self._state``)."""
import numpy as np

from .queries import cast_shape as _cast_shape

__all__ = ["WorldQueries"]


class WorldQueries:
    """Queries of :class:`~engine.World` (see ``docs/queries.md``)."""

    def cast_shape(self, shape, pose, translation):
        """The first shape in the world that ``shape`` touches when swept along ``translation``.

        Parameters
        ----------
        shape : Circle, Segment or Polygon
            Any shape, not attached to a body.
        pose : (x, y, angle) or (x, y)
            Where the shape starts.
        translation : (float, float)
            The sweep; the shape does not turn.

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
        return _cast_shape(self._state, shape, pose, translation)

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
