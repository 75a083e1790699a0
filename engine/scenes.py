"""Scene builders shared by the tests, the demos and the benchmarks.

A scene is plain data (:class:`Scene`: gravity and a list of :class:`BodySpec`), so the
same scene can be built in this engine (:meth:`Scene.build`) and, in the benchmarks and
oracle tests, in pymunk, from identical numbers.
"""
import dataclasses
import math

import numpy as np

from .geometry.shapes import Circle, Polygon
from .world.world import World

__all__ = ["BodySpec", "Scene", "pyramid", "vertical_stack", "rain", "friction_ramp",
           "restitution_drop", "idle", "bullets", "gear_outline", "concave_terrain", "concave_drop"]


@dataclasses.dataclass
class BodySpec:
    """One body: its type, pose, velocity, and ``(shape, density, friction, restitution)`` list."""

    body_type: str
    position: tuple
    angle: float = 0.0
    velocity: tuple = (0.0, 0.0)
    angular_velocity: float = 0.0
    shapes: list = dataclasses.field(default_factory=list)
    tag: str = ""


@dataclasses.dataclass
class Scene:
    """A scene as data: ``gravity`` and ``bodies`` (a list of :class:`BodySpec`)."""

    name: str
    gravity: tuple = (0.0, -10.0)
    bodies: list = dataclasses.field(default_factory=list)

    def add(self, body_type, position, shapes, **kw):
        """Append a :class:`BodySpec` and return it."""
        spec = BodySpec(body_type, tuple(position), shapes=list(shapes), **kw)
        self.bodies.append(spec)
        return spec

    def build(self, world=None, **world_options):
        """Create the scene's bodies in ``world`` (a new :class:`World` by default).

        Returns
        -------
        (world, bodies): the world and the body handles, in scene order.

        Examples
        --------
        >>> world, bodies = pyramid(3).build()
        >>> len(bodies), len(world.bodies)
        (7, 7)
        """
        world = world if world is not None else World(gravity=self.gravity, **world_options)
        handles = []
        for spec in self.bodies:
            body = world.create_body(spec.body_type, position=spec.position, angle=spec.angle,
                                     velocity=spec.velocity, angular_velocity=spec.angular_velocity)
            for shape, density, friction, restitution in spec.shapes:
                body.add_shape(shape, density=density, friction=friction, restitution=restitution)
            body.user_data = spec.tag or None
            handles.append(body)
        return world, handles


def _ground(scene, width, friction=0.6, thickness=1.0, top=0.0):
    scene.add("static", (0.0, 0.0),
              [(Polygon.box(width, thickness, center=(0.0, top - 0.5 * thickness)), 1.0, friction, 0.0)],
              tag="ground")


def pyramid(base, size=1.0, friction=0.6, density=1.0):
    """A pyramid of ``base * (base + 1) / 2`` boxes of side ``size`` on a static ground.

    Rows touch exactly (no gaps, no overlap), as in Box2D's pyramid benchmark.
    """
    scene = Scene(f"pyramid{base}")
    _ground(scene, max(40.0, 2.0 * base * size), friction)
    box = Polygon.box(size, size)
    for row in range(base):
        y = (row + 0.5) * size
        for col in range(base - row):
            x = (col - 0.5 * (base - row - 1)) * size
            scene.add("dynamic", (x, y), [(box, density, friction, 0.0)], tag=f"r{row}")
    return scene


def vertical_stack(count=15, size=1.0, friction=0.6, gap=0.0):
    """``count`` boxes stacked straight up on the ground, ``gap`` meters apart."""
    scene = Scene(f"stack{count}")
    _ground(scene, 40.0, friction)
    box = Polygon.box(size, size)
    for i in range(count):
        scene.add("dynamic", (0.0, (i + 0.5) * size + i * gap), [(box, 1.0, friction, 0.0)])
    return scene


def rain(circles=2000, polygons=1000, width=40.0, seed=1):
    """``circles`` balls and ``polygons`` boxes/hexagons dropped into a static container.

    Bodies start on a jittered grid above the container, apart from each other.
    """
    rng = np.random.default_rng(seed)
    scene = Scene(f"rain{circles + polygons}")
    wall = 60.0
    half = 0.5 * width
    scene.add("static", (0.0, 0.0), [
        (Polygon.box(width + 2.0, 1.0, center=(0.0, -0.5)), 1.0, 0.6, 0.0),
        (Polygon.box(1.0, wall, center=(-half - 0.5, 0.5 * wall)), 1.0, 0.6, 0.0),
        (Polygon.box(1.0, wall, center=(half + 0.5, 0.5 * wall)), 1.0, 0.6, 0.0),
    ], tag="container")
    n = circles + polygons
    cols = int(width / 0.7)
    kinds = np.array([0] * circles + [1] * polygons)
    rng.shuffle(kinds)
    hexagon = Polygon([(0.25 * math.cos(a), 0.25 * math.sin(a)) for a in np.arange(6) * math.pi / 3])
    for k in range(n):
        row, col = divmod(k, cols)
        x = -half + 0.4 + col * 0.7 + rng.uniform(-0.05, 0.05)
        y = 1.0 + row * 0.7
        if kinds[k] == 0:
            shape = Circle(rng.uniform(0.15, 0.3))
        elif rng.random() < 0.5:
            shape = Polygon.box(rng.uniform(0.3, 0.55), rng.uniform(0.3, 0.55))
        else:
            shape = hexagon
        scene.add("dynamic", (x, y), [(shape, 1.0, 0.6, 0.0)], angle=float(rng.uniform(0, math.pi)))
    return scene


def friction_ramp(slope, friction, size=1.0, length=40.0):
    """A box resting on a static ramp inclined by ``slope`` radians; both have ``friction``.

    The box starts in exact contact with the ramp surface, at rest. With Box2D mixing
    the contact friction is ``friction`` (sqrt(f * f)).
    """
    scene = Scene("ramp")
    c, s = math.cos(slope), math.sin(slope)
    scene.add("static", (0.0, 0.0), [(Polygon.box(length, 1.0, center=(0.0, -0.5)), 1.0, friction, 0.0)],
              angle=slope, tag="ramp")
    # box centre half a size above the surface, in the ramp frame, rotated into the world
    x, y = 0.0, 0.5 * size
    scene.add("dynamic", (c * x - s * y, s * x + c * y), [(Polygon.box(size, size), 1.0, friction, 0.0)],
              angle=slope, tag="box")
    return scene


def restitution_drop(restitution, height=5.0, radius=0.25):
    """A ball dropped from ``height`` (its lowest point) onto the ground; both have ``restitution``."""
    scene = Scene("restitution")
    _ground(scene, 10.0)
    scene.bodies[0].shapes = [(s, d, f, restitution) for s, d, f, _ in scene.bodies[0].shapes]
    scene.add("dynamic", (0.0, height + radius), [(Circle(radius), 1.0, 0.6, restitution)], tag="ball")
    return scene


def idle(count=2000, spacing=2.0):
    """``count`` dynamic bodies far apart with no gravity: the per-body cost of a step."""
    scene = Scene(f"idle{count}", gravity=(0.0, 0.0))
    cols = int(math.ceil(math.sqrt(count)))
    box = Polygon.box(0.5, 0.5)
    ball = Circle(0.25)
    for k in range(count):
        row, col = divmod(k, cols)
        scene.add("dynamic", (col * spacing, row * spacing), [((box if k % 2 else ball), 1.0, 0.6, 0.0)])
    return scene



def bullets(count=50, speed=300.0, wall="static", radius=0.1, thickness=0.1, dt=1.0 / 60.0,
            wall_density=1000.0):
    """``count`` small balls fired at ``speed`` m/s at a thin wall, with no gravity.

    The wall (``thickness`` m, 30 m tall, centred on x = 0) is ``"static"``,
    ``"kinematic"`` or ``"dynamic"`` (then ``wall_density`` kg/m^2). Ball ``k`` starts
    further back by ``k / count`` of one step's flight (``speed * dt``), so arrivals are
    spread over a whole step: some would reach the wall just after a step begins, some
    just before it ends. Balls are tagged ``"bullet"``, the wall ``"wall"``.
    """
    scene = Scene(f"bullets{count}", gravity=(0.0, 0.0))
    height = 30.0
    scene.add(wall, (0.0, 0.0), [(Polygon.box(thickness, height), wall_density, 0.6, 0.0)], tag="wall")
    ball = Circle(radius)
    spacing = (height - 2.0) / max(count - 1, 1)
    for k in range(count):
        x = -3.0 - speed * dt * k / count
        y = -0.5 * height + 1.0 + k * spacing
        scene.add("dynamic", (x, y), [(ball, 1.0, 0.6, 0.0)], velocity=(speed, 0.0), tag="bullet")
    return scene


__all__ += ["tumbler", "domino", "cradle"]


def tumbler(count=60, size=10.0, wall=0.5, angular_velocity=1.0, seed=3):
    """A kinematic hollow square box of inner side ``size`` turning at ``angular_velocity``
    rad/s about its centre (the origin), with ``count`` boxes and balls inside.

    The box is one kinematic body (tag ``"tumbler"``) with four wall shapes ``wall``
    meters thick; the loose bodies start on a grid in its lower part, at rest.

    Examples
    --------
    >>> scene = tumbler(count=4)
    >>> scene.bodies[0].body_type, scene.bodies[0].angular_velocity, len(scene.bodies[0].shapes)
    ('kinematic', 1.0, 4)
    """
    rng = np.random.default_rng(seed)
    scene = Scene(f"tumbler{count}")
    h, t = 0.5 * size, 0.5 * wall
    walls = [Polygon.box(size + 2 * wall, wall, center=(0.0, y)) for y in (-h - t, h + t)]
    walls += [Polygon.box(wall, size, center=(x, 0.0)) for x in (-h - t, h + t)]
    scene.add("kinematic", (0.0, 0.0), [(w, 1.0, 0.6, 0.0) for w in walls],
              angular_velocity=angular_velocity, tag="tumbler")
    cols = max(1, int((size - 1.0) / 0.9))
    step = (size - 1.6) / max(cols - 1, 1)
    for k in range(count):
        row, col = divmod(k, cols)
        x, y = -h + 0.8 + col * step, -h + 0.6 + row * 0.9
        shape = Circle(0.3) if k % 2 else Polygon.box(0.6, 0.45)
        scene.add("dynamic", (x, y), [(shape, 1.0, 0.6, 0.0)], angle=float(rng.uniform(0.0, math.pi)))
    return scene


def domino(count=20, width=0.2, height=1.0, spacing=0.6, friction=0.6, lean=0.35):
    """A row of ``count`` dominoes (``width`` x ``height`` boxes, ``spacing`` apart) on the
    ground; the first leans ``lean`` radians towards the others on its bottom corner, so
    it falls and topples the row.

    Dominoes are tagged ``"d0"``, ``"d1"``, ...; the row is centred on x = 0.

    Examples
    --------
    >>> world, bodies = domino(count=3).build()
    >>> [round(b.angle, 2) for b in bodies[1:]], round(bodies[1].position[1], 3)
    ([-0.35, 0.0, 0.0], 0.504)
    """
    scene = Scene(f"domino{count}")
    length = (count - 1) * spacing
    _ground(scene, length + 3.0, friction)
    for k in range(count):
        x = -0.5 * length + k * spacing
        angle = -lean if k == 0 else 0.0
        # rotated about its bottom corner on the side it falls to, so it still stands on it
        c, s = math.cos(angle), math.sin(angle)
        u, v = -0.5 * width, 0.5 * height
        pos = (x + 0.5 * width + c * u - s * v, s * u + c * v)
        scene.add("dynamic", pos, [(Polygon.box(width, height), 1.0, friction, 0.0)], angle=angle, tag=f"d{k}")
    return scene


def cradle(count=5, radius=0.5, speed=3.0, gap=0.02, track=(-6.0, 18.0)):
    """Newton's cradle without strings: a row of ``count`` balls on a frictionless track,
    ``gap`` meters apart, struck by one more ball rolling in from the left at ``speed``.

    All materials have restitution 1 and friction 0, so each impact between equal balls
    swaps their velocities: the striker stops and the last ball of the row leaves at
    ``speed``. The track (a static ground) runs from x = ``track[0]`` to ``track[1]``;
    the row starts at x = 0. Balls are tagged ``"b0"`` .. (left to right) and
    ``"striker"``, which starts 3 m left of the row.

    The small gap makes the impacts one pair at a time. With touching balls the
    sequential-impulse solver resolves the whole row at once and spreads the momentum
    over it, unlike the ideal cradle.

    Examples
    --------
    >>> world, bodies = cradle(count=2).build()
    >>> [b.user_data for b in bodies], bodies[-1].velocity
    (['ground', 'b0', 'b1', 'striker'], (3.0, 0.0))
    """
    scene = Scene(f"cradle{count}")
    lo, hi = track
    scene.add("static", (0.0, 0.0), [(Polygon.box(hi - lo, 1.0, center=(0.5 * (lo + hi), -0.5)), 1.0, 0.0, 1.0)],
              tag="ground")
    ball = Circle(radius)
    for k in range(count):
        scene.add("dynamic", (k * (2.0 * radius + gap), radius), [(ball, 1.0, 0.0, 1.0)], tag=f"b{k}")
    scene.add("dynamic", (-3.0 - 2.0 * radius, radius), [(ball, 1.0, 0.0, 1.0)], velocity=(speed, 0.0),
              tag="striker")
    return scene


# Blocky letters on a 3 x 4 grid (x right, y up), counter-clockwise.
_LETTERS = {
    "L": [(0, 0), (3, 0), (3, 1), (1, 1), (1, 4), (0, 4)],
    "T": [(1, 0), (2, 0), (2, 3), (3, 3), (3, 4), (0, 4), (0, 3), (1, 3)],
    "U": [(0, 0), (3, 0), (3, 4), (2, 4), (2, 1), (1, 1), (1, 4), (0, 4)],
    "E": [(0, 0), (3, 0), (3, 1), (1, 1), (1, 1.5), (2.5, 1.5), (2.5, 2.5), (1, 2.5), (1, 3), (3, 3),
          (3, 4), (0, 4)],
    "S": [(0, 0), (3, 0), (3, 2.5), (1, 2.5), (1, 3), (3, 3), (3, 4), (0, 4), (0, 1.5), (2, 1.5),
          (2, 1), (0, 1)],
}


def gear_outline(teeth=8, outer=0.5, inner=0.38):
    """A gear's outline: ``teeth`` flat-topped teeth between radii ``inner`` and ``outer``.

    Examples
    --------
    >>> gear = Polygon(gear_outline(8))
    >>> len(gear.vertices), gear.is_convex
    (32, False)
    """
    pts = []
    step = 2.0 * math.pi / teeth
    for k in range(teeth):
        a = k * step
        for frac, r in ((0.0, inner), (0.15, outer), (0.45, outer), (0.6, inner)):
            pts.append((r * math.cos(a + frac * step), r * math.sin(a + frac * step)))
    return pts


def _hull(points):
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(map(tuple, np.asarray(points, dtype=np.float64).tolist())))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0.0:
                out.pop()
            out.append(p)
        return out[:-1]

    return half(pts) + half(pts[::-1])


def concave_terrain(width=24.0):
    """A static concave ground: a long flat run, a V valley, a bowl, steps and a notch.

    The flat run (x from -11.5 to -3) is split by the ``"split"`` method into pieces whose
    cuts meet the top surface, so bodies sliding on it cross interior seams.

    Examples
    --------
    >>> terrain = concave_terrain()
    >>> len(terrain.pieces), round(terrain.area, 3)
    (28, 58.214)
    """
    half = 0.5 * width
    bottom = -2.5
    pts = [(-half, 4.0), (-half, bottom)]
    for i in range(8):  # slots from below under the flat run, each ceiling at its own height
        x0 = -half + 1.5 + i
        pts += [(x0, bottom), (x0, -0.3 - 0.02 * i), (x0 + 0.4, -0.3 - 0.02 * i), (x0 + 0.4, bottom)]
    pts += [(half, bottom), (half, 4.0), (half - 0.5, 4.0), (half - 0.5, 1.0),
            # steps down
            (6.0, 1.0), (6.0, 0.6), (5.0, 0.6), (5.0, 0.2), (4.0, 0.2), (4.0, -0.2), (3.0, -0.2),
            # bowl
            (2.6, -0.8), (2.0, -1.2), (1.0, -1.4), (0.0, -1.2), (-0.6, -0.8), (-1.0, 0.0),
            # V valley
            (-1.6, 0.0), (-2.3, -1.3), (-3.0, 0.0),
            # the long flat run, then the left wall
            (-half + 0.5, 0.0), (-half + 0.5, 4.0)]
    return Polygon(pts, method="split")


def concave_drop(rows=3, cols=8, hulls=False, seed=2):
    """Letters and gears (concave) dropped onto :func:`concave_terrain`.

    ``hulls=True`` gives every falling body its shape's convex hull instead, the same
    scene for measuring what concave shapes cost (``benchmarks/concave.py``).

    Examples
    --------
    >>> world, bodies = concave_drop(rows=1, cols=4).build()
    >>> len(bodies), bodies[1].user_data
    (5, None)
    """
    rng = np.random.default_rng(seed)
    scene = Scene("concave_hulls" if hulls else "concave")
    scene.add("static", (0.0, 0.0), [(concave_terrain(), 1.0, 0.6, 0.0)], tag="terrain")
    names = sorted(_LETTERS)
    outlines = [[(0.25 * x - 0.375, 0.25 * y - 0.5) for x, y in _LETTERS[n]] for n in names]
    outlines += [gear_outline(8), gear_outline(6, 0.45, 0.32)]
    shapes = [Polygon(_hull(o) if hulls else o) for o in outlines]
    for r in range(rows):
        for c in range(cols):
            x = -10.0 + c * (20.0 / max(cols - 1, 1)) + rng.uniform(-0.2, 0.2)
            shape = shapes[int(rng.integers(len(shapes)))]
            scene.add("dynamic", (x, 3.0 + 1.4 * r), [(shape, 1.0, 0.5, 0.1)],
                      angle=float(rng.uniform(0.0, 2.0 * math.pi)))
    return scene
