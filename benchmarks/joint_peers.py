"""Box2D v3's ``joint_grid`` and ``rain`` (ragdolls) built in pymunk and in Box2D v3
(``pyb2d3``) from the numbers of ``engine.scenes`` (``joint_grid``, ``HUMAN``, ``FOOT``,
``rain_event``), for ``benchmarks/joints.py``.

Matched: positions, shapes (capsules, the rounded foot, circles), density 1 (pymunk gets
the engine's mass, centre and inertia of each body), friction, filters (categories,
masks, groups: Box2D's negative group is pymunk's positive one), joint anchors, limits,
friction motors and springs. pymunk has no one joint with all of that: a ragdoll joint
is a ``PivotJoint`` + ``RotaryLimitJoint`` + ``SimpleMotor`` (max_force = the friction
torque) + ``DampedRotarySpring`` (stiffness and damping from the hertz and damping ratio
with the two bodies' effective inertia, as Box2D computes its spring). Sleeping is off
in all three engines (ours ``World(sleeping=False)`` in ``joints.py``; Box2D's own rain benchmark
lets ragdolls sleep).
"""
import math

import pymunk

from benchmarks.pymunk_scene import mass_properties
from engine import Polygon, Segment
from engine.scenes.ragdoll import FOOT, HUMAN, rain_event

__all__ = ["pymunk_joint_grid", "b2_joint_grid", "PeerRain", "pymunk_rain", "b2_rain"]

ALL = 0xFFFFFFFFFFFFFFFF
RAIN = dict(friction=0.05, hertz=5.0, damping=0.5)


def _pm_body(space, position, shapes_spec, static=False):
    if static:
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
    else:
        mass, com, inertia = mass_properties(shapes_spec)
        body = pymunk.Body(mass, inertia)
        body.center_of_gravity = com
    body.position = position
    space.add(body)
    return body


def pymunk_joint_grid(n=100):
    space = pymunk.Space()
    space.gravity = (0.0, -10.0)
    from engine import Circle
    spec = [(Circle(0.4), 1.0, 0.6, 0.0)]
    no_self = pymunk.ShapeFilter(categories=2, mask=pymunk.ShapeFilter.ALL_MASKS() ^ 2)
    bodies = []
    for k in range(n):
        for i in range(n):
            static = i == 0 and n // 2 - 3 <= k <= n // 2 + 3
            body = _pm_body(space, (k, -i), spec, static)
            shape = pymunk.Circle(body, 0.4)
            shape.filter = no_self
            space.add(shape)
            if i > 0:
                space.add(pymunk.PivotJoint(bodies[-1], body, (k, 0.5 - i)))
            if k > 0 and not (static and bodies[-n].body_type == pymunk.Body.STATIC):
                # pymunk refuses a joint between two static bodies (Box2D keeps it, idle)
                space.add(pymunk.PivotJoint(bodies[-n], body, (k - 0.5, -i)))
            bodies.append(body)
    return space


def b2_joint_grid(n=100):
    import pyb2d3 as b2
    world = b2.World(gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    sd = b2.shape_def(density=1.0, filter=b2.make_filter(category_bits=2, mask_bits=ALL & ~2))
    bodies = []
    for k in range(n):
        for i in range(n):
            static = i == 0 and n // 2 - 3 <= k <= n // 2 + 3
            make = world.create_static_body if static else world.create_dynamic_body
            body = make(position=(k, -i))
            body.create_circle_shape(sd, b2.circle(radius=0.4))
            if i > 0:
                world.create_revolute_joint(b2.revolute_joint_def(
                    body_a=bodies[-1], body_b=body, local_anchor_a=(0, -0.5), local_anchor_b=(0, 0.5)))
            if k > 0:
                world.create_revolute_joint(b2.revolute_joint_def(
                    body_a=bodies[-n], body_b=body, local_anchor_a=(0.5, 0), local_anchor_b=(-0.5, 0)))
            bodies.append(body)
    return world


def _pm_human(space, position, group):
    px, py = position
    foot = [(x, y) for x, y in FOOT]
    bodies, parts = [], []
    for name, y, (y0, y1, r), parent, pivot, limits, fscale, damping in HUMAN:
        spec = [(Segment((0.0, y0), (0.0, y1), r), 1.0, 0.2, 0.0)]
        is_shin = name.startswith("lower") and name.endswith("leg")
        if is_shin:
            spec.append((Polygon(foot, radius=0.015), 1.0, 0.05, 0.0))
        body = _pm_body(space, (px, py + y), spec)
        caps = pymunk.Segment(body, (0.0, y0), (0.0, y1), r)
        caps.friction, caps.filter = 0.2, pymunk.ShapeFilter(group=group, categories=2, mask=3)
        shapes = [caps]
        if is_shin:
            sole = pymunk.Poly(body, foot, radius=0.015)
            sole.friction, sole.filter = 0.05, pymunk.ShapeFilter(group=group, categories=2, mask=1)
            shapes.append(sole)
        space.add(*shapes)
        if parent >= 0:
            a = bodies[parent]
            ieff = 1.0 / (1.0 / a.moment + 1.0 / body.moment)
            omega = 2.0 * math.pi * RAIN["hertz"]
            motor = pymunk.SimpleMotor(a, body, 0.0)
            motor.max_force = fscale * RAIN["friction"]
            parts += [pymunk.PivotJoint(a, body, (px, py + pivot)),
                      pymunk.RotaryLimitJoint(a, body, *limits), motor,
                      pymunk.DampedRotarySpring(a, body, 0.0, ieff * omega * omega,
                                                2.0 * RAIN["damping"] * ieff * omega)]
        bodies.append(body)
    space.add(*parts)
    return bodies, parts


def _b2_human(world, position, group):
    import pyb2d3 as b2
    px, py = position
    caps_def = b2.shape_def(density=1.0, filter=b2.make_filter(category_bits=2, mask_bits=3, group_index=-group))
    caps_def.material.friction = 0.2
    foot_def = b2.shape_def(density=1.0, filter=b2.make_filter(category_bits=2, mask_bits=1, group_index=-group))
    foot_def.material.friction = 0.05
    bodies = []
    for name, y, (y0, y1, r), parent, pivot, limits, fscale, damping in HUMAN:
        body = world.create_dynamic_body(position=(px, py + y), linear_damping=damping)
        body.create_capsule_shape(caps_def, b2.capsule((0.0, y0), (0.0, y1), r))
        if name.startswith("lower") and name.endswith("leg"):
            body.create_polygon_shape(foot_def, b2.polygon(points=list(FOOT), radius=0.015))
        if parent >= 0:
            a = bodies[parent]
            world.create_revolute_joint(b2.revolute_joint_def(
                body_a=a, body_b=body, local_anchor_a=a.local_point((px, py + pivot)),
                local_anchor_b=body.local_point((px, py + pivot)), enable_limit=True,
                lower_angle=limits[0], upper_angle=limits[1], enable_motor=True, motor_speed=0.0,
                max_motor_torque=fscale * RAIN["friction"], enable_spring=True,
                hertz=RAIN["hertz"], damping_ratio=RAIN["damping"]))
        bodies.append(body)
    return bodies


class PeerRain:
    """Box2D's rain schedule (``rain_event``) for a peer engine: ``make(position, group)``
    adds a ragdoll and returns a handle, ``drop(handle)`` removes it."""

    def __init__(self, rows, columns, group_size, span, make, drop):
        self.rows, self.columns, self.group_size, self.span = rows, columns, group_size, span
        self.make, self.drop, self.groups = make, drop, {}

    def update(self, step):
        event = rain_event(step, self.columns)
        if event is None:
            return
        kind, column = event
        gap = self.span / self.columns
        for row in range(self.rows):
            for handle in self.groups.pop((row, column), []) if kind == "replace" else []:
                self.drop(handle)
            x, y = -0.5 * self.span + gap * (column + 0.5), 40.0 + 45.0 * row
            self.groups[(row, column)] = [self.make((x + 0.5 * i, y), i + 1) for i in range(self.group_size)]


def pymunk_rain(rows, columns, group_size, grid_count, grid_size=0.5):
    space = pymunk.Space()
    space.gravity = (0.0, -10.0)
    ground = space.static_body
    h = 0.5 * grid_size
    for row in range(rows):
        for j in range(grid_count + 1):
            x, y = -0.5 * grid_count * grid_size + j * grid_size, 45.0 * row
            box = pymunk.Poly(ground, [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)])
            box.friction = 0.6
            space.add(box)

    def drop(handle):
        bodies, parts = handle
        space.remove(*parts)
        for body in bodies:
            space.remove(body, *body.shapes)

    rain = PeerRain(rows, columns, group_size, grid_count * grid_size,
                    lambda p, g: _pm_human(space, p, g), drop)
    return space, rain


def b2_rain(rows, columns, group_size, grid_count, grid_size=0.5):
    import pyb2d3 as b2
    world = b2.World(gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    ground = world.create_static_body(position=(0.0, 0.0))
    sd = b2.shape_def()
    sd.material.friction = 0.6
    for row in range(rows):
        for j in range(grid_count + 1):
            x = -0.5 * grid_count * grid_size + j * grid_size
            ground.create_polygon_shape(sd, b2.box(0.5 * grid_size, 0.5 * grid_size, center=(x, 45.0 * row)))

    def drop(bodies):
        for body in bodies:
            body.destroy()

    rain = PeerRain(rows, columns, group_size, grid_count * grid_size,
                    lambda p, g: _b2_human(world, p, g), drop)
    return world, rain
