"""Build a Box2D v3 world (``pyb2d3``) from an engine :class:`~engine.scenes.Scene`.

Used by ``python -m benchmarks`` beside ``benchmarks/pymunk_scene.py``, so the three engines
step the same scene. ``pyb2d3`` is optional: :func:`has_box2d` says whether it imports.

What is matched
---------------
- **Bodies**: type, position, angle (``make_rot``), in scene order. The linear velocity is the
  centre of mass's (Box2D's convention), computed as ``pymunk_scene`` does; gravity is the scene's.
- **Shapes**: ``Circle`` -> circle, ``Segment`` -> segment (radius 0) or capsule, ``Polygon`` ->
  one Box2D polygon per convex piece with the shape's rounding radius.
- **Mass**: Box2D computes it from each shape's density, the scene's (the same numbers as the
  engine's formulas for the benchmark scenes' sharp boxes, hexagons and circles).
- **Materials**: the scene's raw friction and restitution; Box2D mixes them as the engine does by
  default (``sqrt(uA * uB)``, ``max(eA, eB)``).
- **Sleeping**: ``world.sleeping_enabled`` (Box2D's default is on: a body sleeps after 0.5 s below
  its ``sleep_threshold``, 0.05 m/s, as in the engine).

Step it as Box2D's own benchmarks do: ``world.step(1 / 60, 4)`` (4 substeps, Box2D's default).
"""
import math

from .pymunk_scene import mass_properties

__all__ = ["has_box2d", "box2d_version", "build_b2world", "b2_awake_count"]

SUBSTEPS = 4  # Box2D's default sub-step count (b2DefaultWorldDef / its samples and benchmarks)


def has_box2d():
    """True when ``pyb2d3`` (Box2D v3's Python bindings) imports."""
    try:
        import pyb2d3  # noqa: F401
    except ImportError:
        return False
    return True


def box2d_version():
    from importlib import metadata
    try:
        return metadata.version("pyb2d3")
    except metadata.PackageNotFoundError:  # pragma: no cover - imported from a source tree
        return "?"


def _add_shape(b2, body, shape, density, friction, restitution):
    from engine import Circle, Polygon, Segment

    sd = b2.shape_def(density=float(density))
    sd.material.friction = float(friction)
    sd.material.restitution = float(restitution)
    if isinstance(shape, Circle):
        body.create_circle_shape(sd, b2.circle(center=tuple(shape.center), radius=shape.radius))
    elif isinstance(shape, Segment):
        a, b = tuple(shape.a), tuple(shape.b)
        if shape.radius > 0.0:
            body.create_capsule_shape(sd, b2.capsule(a, b, shape.radius))
        else:
            body.create_segment_shape(sd, b2.segment(a, b))
    elif isinstance(shape, Polygon):
        radius = shape.radius if shape.radius > 0.0 else None
        for piece in shape.pieces:
            points = [tuple(map(float, v)) for v in piece]
            body.create_polygon_shape(sd, b2.polygon(points=points, radius=radius))
    else:
        raise TypeError(f"no Box2D equivalent for {shape!r}")


def build_b2world(scene, sleeping=True):
    """A ``pyb2d3.World`` holding ``scene``; returns ``(world, bodies)`` in scene order."""
    import pyb2d3 as b2

    world = b2.World(gravity=tuple(float(g) for g in scene.gravity))
    world.sleeping_enabled = bool(sleeping)
    make = {"dynamic": world.create_dynamic_body, "kinematic": world.create_kinematic_body,
            "static": world.create_static_body}
    bodies = []
    for spec in scene.bodies:
        kind = str(getattr(spec.body_type, "name", spec.body_type)).lower()
        kw = dict(position=tuple(float(x) for x in spec.position), rotation=b2.make_rot(float(spec.angle)))
        if kind != "static":
            # the spec's velocity is the body origin's (see pymunk_scene); Box2D's is the centre's
            _, (cx, cy), _ = mass_properties(spec.shapes)
            c, s, w = math.cos(spec.angle), math.sin(spec.angle), float(spec.angular_velocity)
            rx, ry = c * cx - s * cy, s * cx + c * cy
            vx, vy = spec.velocity
            kw.update(linear_velocity=(vx - w * ry, vy + w * rx), angular_velocity=w)
        body = make[kind](**kw)
        for shape, density, friction, restitution in spec.shapes:
            _add_shape(b2, body, shape, density, friction, restitution)
        if not getattr(spec, "awake", True) and sleeping:
            body.awake = False  # Box2D's isAwake = false (the smash grid)
        bodies.append(body)
    return world, bodies


def b2_awake_count(bodies):
    """How many of ``bodies`` (dynamic or kinematic) are awake."""
    import pyb2d3 as b2

    return sum(1 for b in bodies if b.type != b2.BodyType.STATIC and b.awake)
