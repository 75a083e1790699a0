"""Swept collision queries: time of impact between two moving shapes, and shape casts.

These run the continuous-collision kernel the world uses for fast bodies
(``engine.collision.toi``: conservative advancement on the exact core distance), here
with the contact target set to the surfaces touching.
"""
import math
from typing import NamedTuple

import numpy as np

from . import toi as _toi
from ..geometry.shapes import Shape
from .._checks import as_float, as_pose, as_vec2

__all__ = ["ShapeCastHit", "time_of_impact"]


def require_shape(shape, name):
    if not isinstance(shape, Shape):
        raise TypeError(f"{name} must be an engine shape (Circle, Segment or Polygon), "
                        f"got {type(shape).__name__}")


def shape_sweep(shape, pose, translation, rotation):
    """The kernel's sweep tuple: the shape turns about its centroid while it translates."""
    x, y, a = pose
    lx, ly = shape.centroid
    c, s = math.cos(a), math.sin(a)
    cx, cy = x + c * lx - s * ly, y + s * lx + c * ly
    return (cx, cy, a, cx + translation[0], cy + translation[1], a + rotation, lx, ly)


def _tolerance(shape_a, shape_b, ta, tb):
    """Distance accepted as touching: 1e-9 of the problem's size (meters or pixels alike)."""
    size = (math.hypot(*ta) + math.hypot(*tb) + float(np.abs(shape_a._verts).max())
            + float(np.abs(shape_b._verts).max()) + shape_a._radius + shape_b._radius)
    return 1e-9 * max(size, 1.0)


def time_of_impact(shape_a, pose_a, shape_b, pose_b, translation_a, translation_b,
                   rotation_a=0.0, rotation_b=0.0):
    """Fraction of a motion at which two moving shapes first touch, or ``None``.

    Each shape starts at its pose and, over the motion, translates by its
    ``translation`` while turning by its ``rotation`` (radians) about its centroid,
    both at a constant rate, the way a rigid body moves over one step.

    Parameters
    ----------
    shape_a, shape_b : Circle, Segment or Polygon (concave polygons too)
    pose_a, pose_b : (x, y, angle) or (x, y)
        Where each shape's local origin starts, and its angle.
    translation_a, translation_b : (float, float)
        Displacement over the whole motion.
    rotation_a, rotation_b : float
        Turn over the whole motion, about the shape's centroid.

    Returns
    -------
    float or None
        ``t`` in [0, 1]: at ``t`` the shapes' surfaces are within a tolerance of
        1e-9 times the problem's size of touching. 0 when they start touching or
        overlapping; ``None`` when they never touch during the motion.

    Notes
    -----
    Conservative advancement (see ``docs/collision.md``) never reports a time after
    the true first contact. With rotation, after 50 iterations on a slow grazing
    approach it stops early and returns the time reached, which is still before the
    contact.

    Examples
    --------
    A unit box moving 4 m right towards a wall segment 2.5 m away touches it halfway:

    >>> from engine import Polygon, Segment, time_of_impact
    >>> t = time_of_impact(Polygon.box(1, 1), (0, 0), Segment((3, -1), (3, 1)), (0, 0),
    ...                    (4, 0), (0, 0))
    >>> round(t, 9)
    0.625
    >>> time_of_impact(Polygon.box(1, 1), (0, 0), Segment((3, -1), (3, 1)), (0, 0),
    ...                (0, 4), (0, 0)) is None
    True
    """
    require_shape(shape_a, "shape_a")
    require_shape(shape_b, "shape_b")
    pa = as_pose(pose_a, "pose_a")
    pb = as_pose(pose_b, "pose_b")
    ta = as_vec2(translation_a, "translation_a")
    tb = as_vec2(translation_b, "translation_b")
    ra = as_float(rotation_a, "rotation_a")
    rb = as_float(rotation_b, "rotation_b")
    t = _toi.shapes_toi(shape_a._verts, shape_a._starts, shape_a._radius, shape_sweep(shape_a, pa, ta, ra),
                        shape_b._verts, shape_b._starts, shape_b._radius, shape_sweep(shape_b, pb, tb, rb),
                        _tolerance(shape_a, shape_b, ta, tb))[0]
    return None if t < 0.0 else float(t)


class ShapeCastHit(NamedTuple):
    """The first shape a cast touches (see :meth:`engine.World.cast_shape`).

    Attributes
    ----------
    body : Body
        The body whose shape was hit.
    shape : ShapeHandle
        The shape that was hit.
    fraction : float
        Fraction of the translation travelled when the surfaces touch (0 when the
        cast shape starts touching or overlapping it).
    point : (float, float)
        The contact point on the hit shape's surface.
    normal : (float, float)
        The hit surface's outward unit normal there, pointing back at the cast shape;
        ``(0, 0)`` when the cast started overlapping.
    """

    body: object
    shape: object
    fraction: float
    point: tuple
    normal: tuple
