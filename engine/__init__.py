"""engine: a 2D rigid-body physics engine for Python.

Numba kernels over NumPy arrays behind a small Pythonic API: shapes (circles, convex and
concave polygons, segments and capsules), standalone SAT collision with the minimum
translation vector, and a world that steps bodies with a soft-step contact solver.
"""
from .world.body import Body
from .world.body_type import BodyType
from .collision.collide import Manifold, collide, overlaps
from .collision.sweep import ShapeCastHit, time_of_impact
from .geometry.shapes import Circle, Polygon, Segment, Shape
from .world.filter import ALL_BITS, Filter
from .world.query_results import PointHit, RayHit, RayHits
from .world.joint import Joint
from .world.joint_angular import AngularJoint, FilterJoint, GearJoint, RatchetJoint
from .world.joint_kinds import (DistanceJoint, MotorJoint, MouseJoint, PrismaticJoint, RevoluteJoint,
                                WeldJoint, WheelJoint)
from .world.snapshot import Snapshot
from .batch import LaneWorld, WorldBatch
from .world.world import ShapeHandle, World
from .sweep import sweep

__all__ = [
    "ALL_BITS", "AngularJoint", "Body", "BodyType", "Circle", "DistanceJoint", "Filter", "FilterJoint", "GearJoint", "Joint", "Manifold", "MotorJoint",
    "MouseJoint", "PointHit", "Polygon", "PrismaticJoint", "RatchetJoint", "RayHit", "RayHits", "RevoluteJoint", "Segment",
    "Shape", "ShapeCastHit", "ShapeHandle", "Snapshot", "WeldJoint", "WheelJoint", "World", "WorldBatch",
    "LaneWorld", "collide", "overlaps", "sweep", "time_of_impact",
]
__version__ = "0.1.0"
