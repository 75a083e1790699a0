"""Build a :class:`pymunk.Space` from an engine :class:`~engine.scenes.Scene`, number for number.

Used by the benchmarks (``python -m benchmarks``) and by the oracle tests
(``tests/test_world_oracle.py``), so both engines run the *same* scene data.

``scene_data(scene)`` turns a Scene into plain JSON-able data (mass properties included);
``build_space`` accepts either, so a subprocess can build the pymunk side without importing
the engine (the benchmarks' memory and start-up measurements rely on that).

What is matched
---------------
- **Bodies**: type, angle, position, velocity, angular velocity, in scene order. Sleeping is
  off (``sleep_time_threshold = inf``, pymunk's default; ``benchmarks/peers.py`` turns it on to
  match an engine world that sleeps), damping is 1 (none), gravity is the
  scene's; ``iterations`` stays at pymunk's default 10.
- **Shapes**: ``Circle`` -> ``pymunk.Circle(radius, offset=center)``; ``Segment`` ->
  ``pymunk.Segment(a, b, radius)``; ``Polygon`` -> one ``pymunk.Poly(vertices, radius=...)`` per
  convex piece (pymunk takes the convex hull of what it is given, so concave polygons are passed
  as the engine's own decomposition).
- **Mass**: mass, centre of mass and moment of inertia are computed with the engine's exact
  formulas (``Shape.mass_properties``) and set on the pymunk body explicitly; the pymunk shapes
  carry no mass or density. pymunk's own ``shape.density`` path gives the same numbers for
  circles and sharp polygons but not the moments of capsules and rounded polygons (measured,
  pymunk 7.3.1, density 1: capsule (0,0)-(2,0) r 0.5: 2.32 vs exact 2.05 kg m^2; unit box
  rounded by 0.2: 0.32 vs 0.61), so the explicit route keeps every scene identical.
- **Materials**: pymunk multiplies the two shapes' values (``u = uA * uB``, ``e = eA * eB``).
  With ``mixing="pymunk"`` (engine ``World(mixing="pymunk")``) the shapes get the scene's raw
  numbers. With ``mixing="box2d"`` (the engine's default) each shape gets ``sqrt(friction)`` and
  ``sqrt(restitution)``: the product of square roots is ``sqrt(uA * uB)``, exactly Box2D's
  friction rule, and equals Box2D's ``max(eA, eB)`` whenever the two restitutions are equal
  (true in every builder of ``engine.scenes``; otherwise it is the geometric mean).
- ``collision_slop`` stays at pymunk's default 0.1 unless ``collision_slop=`` is given (the
  oracle tests pass the engine's ``LINEAR_SLOP``).

Positions are comparable as they are
------------------------------------
Chipmunk stores the centre of gravity internally, but pymunk's ``Body.position`` is the
*origin of the body frame* (``cpBodyGetPosition`` transforms the local point (0, 0)) and its
shapes are given in that frame, like the engine's ``Body.position``. ``Body.velocity`` is the
velocity of the centre of gravity in both. So ``pymunk_body.position`` and
``world.positions[i]`` mean the same point, and no offset is applied to positions.

Velocities need one: ``Scene.build`` creates each body with ``BodySpec.velocity`` and *then*
adds its shapes, and the engine keeps the material points' velocities when the centre of mass
moves, so a spinning body with an off-centre centre of mass ends up with centre velocity
``v + w x (R(angle) com)`` (``BodySpec.velocity`` acts as the origin's velocity). The builder
gives pymunk that centre velocity. Kinematic bodies get the shapes' centroid as their centre
of gravity, since the engine turns them about it (pymunk would turn them about the origin).

One trap: pymunk's ``angle`` setter rotates the body about its centre of gravity, which moves
the origin when ``center_of_gravity != (0, 0)``. The builder therefore sets the centre of
gravity first, then the angle, then the position.
"""
import math

import numpy as np
import pymunk

__all__ = ["build_space", "scene_data", "mass_properties", "pymunk_state"]

_TYPES = {"dynamic": pymunk.Body.DYNAMIC, "kinematic": pymunk.Body.KINEMATIC,
          "static": pymunk.Body.STATIC}


def _type_name(body_type):
    name = getattr(body_type, "name", body_type)
    return str(name).lower()


def mass_properties(shapes):
    """Mass, centre of mass (body frame) and inertia about it, as ``World._update_mass`` does.

    ``shapes`` is a BodySpec's ``[(shape, density, friction, restitution), ...]``. A body
    without shapes gets 1 kg and no rotational inertia (the engine's documented default).
    """
    mass = mx = my = inertia_origin = 0.0
    for shape, density, _, _ in shapes:
        m, (cx, cy), inertia = shape.mass_properties(density)
        mass += m
        mx += m * cx
        my += m * cy
        inertia_origin += inertia + m * (cx * cx + cy * cy)
    if mass <= 0.0:
        return 1.0, (0.0, 0.0), 0.0
    cx, cy = mx / mass, my / mass
    return mass, (cx, cy), max(inertia_origin - mass * (cx * cx + cy * cy), 0.0)


def _shape_data(shape, friction, restitution):
    from engine import Circle, Polygon, Segment  # only here: build_space(data) needs no engine

    material = {"friction": float(friction), "restitution": float(restitution)}
    if isinstance(shape, Circle):
        return [dict(kind="circle", radius=shape.radius, center=list(shape.center), **material)]
    if isinstance(shape, Segment):
        return [dict(kind="segment", a=list(shape.a), b=list(shape.b), radius=shape.radius,
                     **material)]
    if isinstance(shape, Polygon):
        return [dict(kind="poly", vertices=np.asarray(piece, dtype=float).tolist(),
                     radius=shape.radius, **material) for piece in shape.pieces]
    raise TypeError(f"no pymunk equivalent for {shape!r}")


def scene_data(scene):
    """The scene as plain JSON-able data (floats, lists, dicts), mass properties included.

    This is what :func:`build_space` consumes; a subprocess can build the pymunk space from it
    without importing the engine (the benchmarks' memory and start-up runs do).
    """
    bodies = []
    for spec in scene.bodies:
        kind = _type_name(spec.body_type)
        if kind not in _TYPES:
            raise ValueError(f"unknown body type {spec.body_type!r}")
        mass, com, inertia = mass_properties(spec.shapes)
        shapes = []
        for shape, _density, friction, restitution in spec.shapes:
            shapes.extend(_shape_data(shape, friction, restitution))
        bodies.append(dict(type=kind, position=[float(x) for x in spec.position],
                           angle=float(spec.angle), velocity=[float(x) for x in spec.velocity],
                           angular_velocity=float(spec.angular_velocity), mass=mass,
                           com=list(com), inertia=inertia, shapes=shapes))
    return {"name": scene.name, "gravity": [float(g) for g in scene.gravity], "bodies": bodies}


def _pymunk_shape(body, s):
    if s["kind"] == "circle":
        return pymunk.Circle(body, s["radius"], offset=tuple(s["center"]))
    if s["kind"] == "segment":
        return pymunk.Segment(body, tuple(s["a"]), tuple(s["b"]), s["radius"])
    return pymunk.Poly(body, [tuple(v) for v in s["vertices"]], radius=s["radius"])


def build_space(scene, mixing="box2d", collision_slop=None, iterations=10):
    """Create a pymunk Space holding ``scene``.

    Parameters
    ----------
    scene : engine.scenes.Scene or dict
        A scene, or its :func:`scene_data`.
    mixing : {"box2d", "pymunk"}
        The engine World's material mixing to reproduce (see the module docstring).
    collision_slop : float, optional
        Overrides pymunk's default slop (0.1 m).
    iterations : int
        Solver iterations per ``space.step`` (pymunk's default 10).

    Returns
    -------
    (space, bodies): ``bodies[i]`` is the pymunk body of ``scene.bodies[i]``.
    """
    if mixing not in ("box2d", "pymunk"):
        raise ValueError(f"mixing must be 'box2d' or 'pymunk', got {mixing!r}")
    data = scene if isinstance(scene, dict) else scene_data(scene)
    mix = math.sqrt if mixing == "box2d" else (lambda x: x)
    space = pymunk.Space()
    space.gravity = tuple(data["gravity"])
    space.iterations = iterations
    space.sleep_time_threshold = float("inf")  # sleeping off (the caller may turn it on)
    space.damping = 1.0
    if collision_slop is not None:
        space.collision_slop = float(collision_slop)
    bodies = []
    for spec in data["bodies"]:
        kind = _TYPES[spec["type"]]
        if kind == pymunk.Body.DYNAMIC:
            inertia = spec["inertia"]
            body = pymunk.Body(spec["mass"], inertia if inertia > 0.0 else float("inf"))
        else:
            body = pymunk.Body(body_type=kind)
        if kind != pymunk.Body.STATIC:
            # kinematic bodies too: the engine turns them about their shapes' centroid
            body.center_of_gravity = tuple(spec["com"])
        body.angle = spec["angle"]  # before position: pymunk's angle setter pivots on the COG
        body.position = tuple(spec["position"])
        if kind != pymunk.Body.STATIC:
            # Scene.build creates the body with the spec's velocity, then adds the shapes,
            # keeping the velocity of the material points: the spec's velocity ends up as
            # the body *origin's*; the centre's is v + w x (R(angle) com).
            w = spec["angular_velocity"]
            c, s = math.cos(spec["angle"]), math.sin(spec["angle"])
            cx, cy = spec["com"]
            rx, ry = c * cx - s * cy, s * cx + c * cy
            vx, vy = spec["velocity"]
            body.velocity = (vx - w * ry, vy + w * rx)
            body.angular_velocity = w
        shapes = []
        for s in spec["shapes"]:
            shape = _pymunk_shape(body, s)
            shape.friction = mix(s["friction"])
            shape.elasticity = mix(s["restitution"])
            shapes.append(shape)
        space.add(body, *shapes)
        bodies.append(body)
    return space, bodies


def pymunk_state(bodies):
    """(positions (n, 2), angles (n,), velocities (n, 2), angular velocities (n,)) as NumPy arrays."""
    pos = np.array([tuple(b.position) for b in bodies], dtype=np.float64).reshape(-1, 2)
    ang = np.array([b.angle for b in bodies], dtype=np.float64)
    vel = np.array([tuple(b.velocity) for b in bodies], dtype=np.float64).reshape(-1, 2)
    w = np.array([b.angular_velocity for b in bodies], dtype=np.float64)
    return pos, ang, vel, w
