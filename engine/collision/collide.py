"""Standalone collision: ``collide`` and ``overlaps`` for two shapes at two poses.

This is the API for users who move objects themselves and only want to know whether two
shapes overlap and how to push them apart (the minimum translation vector, MTV). It runs
the same SAT kernels the world's narrowphase uses, on one pair.
"""
import threading
from dataclasses import dataclass

import numpy as np

from . import manifold as _k
from .shape_pairs import collide_shapes
from ..geometry.shapes import Shape
from .._api import fill_doc
from .._checks import as_pose

__all__ = ["Manifold", "collide", "overlaps", "manifold_from_rows"]


@dataclass(slots=True, eq=False, repr=False)
class Manifold:
    """The contact between two overlapping shapes.

    Attributes
    ----------
    normal : (float, float)
        Unit vector pointing from shape A to shape B.
    depth : float
        Penetration depth, > 0: how far B must move along ``normal`` to separate.
    mtv : (float, float)
        ``depth * normal``: translating B by it (or A by its negative) separates them.
    points : tuple of (float, float)
        One or two world contact points (more for concave shapes: up to two per
        touching pair of convex pieces), each midway between the two surfaces.
    separations : tuple of float
        One per point, negative where the shapes overlap.
    ids : tuple of int
        Feature ids per point; equal ids in two frames mean the same features touch.
    """

    normal: tuple
    depth: float
    points: tuple
    separations: tuple
    ids: tuple

    @property
    def mtv(self):
        """The minimum translation vector ``depth * normal`` (moves B out of A)."""
        return (self.depth * self.normal[0], self.depth * self.normal[1])

    def __repr__(self):
        return (f"Manifold(normal={self.normal!r}, depth={self.depth!r}, "
                f"points={self.points!r}, separations={self.separations!r})")


_local = threading.local()


def _rows(count):
    """A per-thread scratch block for ``count`` manifold rows (kernels run without the GIL)."""
    rows = getattr(_local, "rows", None)
    if rows is None or rows.shape[0] < count:
        rows = _local.rows = np.empty((max(count, 4), _k.MANIFOLD_SIZE))
    return rows


def _check_shape(shape, name):
    if not isinstance(shape, Shape):
        raise TypeError(f"{name} must be an engine shape (Circle, Segment or Polygon), "
                        f"got {type(shape).__name__}")


def _piece_pairs(shape_a, pose_a, shape_b, pose_b):
    """The arguments checked, the manifold rows of every touching piece pair: ``(rows,
    filled)``, rows ``rows[:filled]`` (``collide_shapes``)."""
    _check_shape(shape_a, "shape_a")
    _check_shape(shape_b, "shape_b")
    pa = as_pose(pose_a, "pose_a")
    pb = as_pose(pose_b, "pose_b")
    rows = _rows((len(shape_a._starts) - 1) * (len(shape_b._starts) - 1))
    filled = collide_shapes(shape_a._pack, shape_a._starts, shape_a._radius, pa[0], pa[1], pa[2],
                            shape_b._pack, shape_b._starts, shape_b._radius, pb[0], pb[1], pb[2],
                            0.0, rows)
    return rows, filled


# The parameters of collide and overlaps: two shapes and their poses (``fill_doc``).
PAIR_PARAMETERS = """\
Parameters
----------
shape_a, shape_b : Circle, Segment or Polygon
pose_a, pose_b : (x, y, angle) or (x, y)
    Position of each shape's local origin in the world and its rotation in radians."""


@fill_doc(parameters=PAIR_PARAMETERS)
def collide(shape_a, pose_a, shape_b, pose_b):
    """Contact manifold of two shapes at two poses, or ``None`` when they do not overlap.

    {parameters}

    Returns
    -------
    Manifold or None
        ``None`` when the shapes are apart or only touch (depth 0).

    Examples
    --------
    >>> from engine import Polygon, Circle, collide
    >>> m = collide(Polygon.box(2, 2), (0, 0, 0), Circle(0.5), (1.25, 0, 0))
    >>> m.normal, m.depth, m.mtv
    ((1.0, 0.0), 0.25, (0.25, 0.0))
    >>> collide(Circle(1), (0, 0), Circle(1), (3, 0)) is None
    True
    """
    rows, filled = _piece_pairs(shape_a, pose_a, shape_b, pose_b)
    if filled == 0:
        return None
    if filled == 1:  # the common case, one convex piece each: no searching
        row = rows[0].tolist()  # plain floats: cheaper than indexing NumPy scalars
        sep = row[_k.M_SEP]
        if not sep < 0.0:
            return None
        # + 0.0 turns -0.0 into 0.0
        if row[_k.M_COUNT] == 1.0:
            return Manifold((row[0] + 0.0, row[1] + 0.0), -sep, ((row[4] + 0.0, row[5] + 0.0),),
                            (row[6],), (int(row[7]),))
        return Manifold((row[0] + 0.0, row[1] + 0.0), -sep,
                        ((row[4] + 0.0, row[5] + 0.0), (row[8] + 0.0, row[9] + 0.0)),
                        (row[6], row[10]), (int(row[7]), int(row[11])))
    return manifold_from_rows(rows[:filled].tolist())


def manifold_from_rows(rows):
    """The :class:`Manifold` of two shapes from their touching piece pairs' manifold rows
    (lists of ``MANIFOLD_SIZE`` floats, in piece-pair order), or None when none overlaps:
    the deepest pair gives the normal and depth, every overlapping pair its points."""
    deepest = min(rows, key=lambda row: row[_k.M_SEP])
    sep = deepest[_k.M_SEP]
    if not sep < 0.0:
        return None
    points, seps, ids = [], [], []
    for row in rows:
        if row[_k.M_SEP] >= 0.0:
            continue
        for p in range(int(row[_k.M_COUNT])):
            b = _k.M_P1X + 4 * p
            points.append((row[b] + 0.0, row[b + 1] + 0.0))
            seps.append(row[b + 2])
            ids.append(int(row[b + 3]))
    normal = (deepest[_k.M_NX] + 0.0, deepest[_k.M_NY] + 0.0)
    return Manifold(normal, float(-sep), tuple(points), tuple(seps), tuple(ids))


@fill_doc(parameters=PAIR_PARAMETERS)
def overlaps(shape_a, pose_a, shape_b, pose_b):
    """True when the shapes overlap with positive depth; cheaper than :func:`collide`.

    {parameters}

    Examples
    --------
    >>> from engine import Circle, overlaps
    >>> overlaps(Circle(1), (0, 0), Circle(1), (1.5, 0)), overlaps(Circle(1), (0, 0), Circle(1), (2.5, 0))
    (True, False)
    """
    rows, filled = _piece_pairs(shape_a, pose_a, shape_b, pose_b)
    return any(sep < 0.0 for sep in rows[:filled, _k.M_SEP].tolist())
