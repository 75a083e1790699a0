"""Many bodies at once, the benchmarks' loads: rain, idle bodies, bullets, tumbler."""
import math

import numpy as np

from ..geometry.shapes import Circle, Polygon
from .scene import Scene

__all__ = ["rain", "idle", "bullets", "smash", "tumbler", "box2d_tumbler"]


def rain(circles=2000, polygons=1000, width=40.0, seed=1):
    """``circles`` balls and ``polygons`` boxes/hexagons dropped into a static container.

    Bodies start on a jittered grid above the container, apart from each other. The
    container (one static body, tag ``"container"``) is a floor ``width`` m wide between
    two walls 60 m tall; the scene is named ``f"rain{circles + polygons}"``.

    Parameters
    ----------
    circles : int
        Number of balls (radius drawn from 0.15 to 0.3 m).
    polygons : int
        Number of boxes (sides drawn from 0.3 to 0.55 m) and hexagons (radius 0.25 m), about half each.
    width : float
        Inner width of the container, in meters; the grid has ``int(width / 0.7)`` columns.
    seed : int
        Seed of the NumPy generator that draws kinds, sizes, jitter and angles.

    Examples
    --------
    >>> scene = rain(circles=3, polygons=2, width=4.0)
    >>> scene.name, len(scene.bodies), scene.bodies[0].tag
    ('rain5', 6, 'container')
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


def idle(count=2000, spacing=2.0):
    """``count`` dynamic bodies far apart with no gravity: the per-body cost of a step.

    Bodies alternate balls (radius 0.25 m) and boxes (0.5 m) on a square grid.

    Parameters
    ----------
    count : int
        Number of bodies.
    spacing : float
        Distance between neighbouring grid points, in meters.

    Examples
    --------
    >>> scene = idle(3)
    >>> scene.gravity, [b.position for b in scene.bodies]
    ((0.0, 0.0), [(0.0, 0.0), (2.0, 0.0), (0.0, 2.0)])
    """
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

    Parameters
    ----------
    count : int
        Number of balls, spread over the wall's height.
    speed : float
        Initial speed of every ball towards +x, in m/s.
    wall : {"static", "kinematic", "dynamic"}
        Body type of the wall.
    radius : float
        Radius of the balls, in meters.
    thickness : float
        Thickness of the wall along x, in meters.
    dt : float
        The step the arrivals are spread over, in seconds (the step the scene is run with).
    wall_density : float
        Density of the wall, in kg/m^2 (matters only for a dynamic wall).

    Examples
    --------
    >>> wall, first, second = bullets(count=2, wall="kinematic").bodies
    >>> wall.body_type, first.velocity, first.position[0], second.position[0]
    ('kinematic', (300.0, 0.0), -3.0, -5.5)
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


def smash(columns=120, rows=80, spacing=0.4):
    """Box2D's ``smash`` benchmark: a heavy 8 x 8 m box at 40 m/s hits a grid of
    ``columns`` x ``rows`` small boxes, in zero gravity.

    The numbers are Box2D's ``CreateSmash`` (``shared/benchmarks.c``): the striker has
    density 8 and starts at (-20, 0); the boxes (side ``spacing``, touching) start at
    x = 30 m, asleep (``BodySpec.awake``; they sleep only in a world with sleeping on).
    At the defaults: 9601 bodies.

    Parameters
    ----------
    columns, rows : int
        The grid of small boxes.
    spacing : float
        Side of a small box and the grid's pitch, in meters.

    Examples
    --------
    >>> scene = smash(columns=3, rows=2)
    >>> scene.gravity, len(scene.bodies), scene.bodies[0].velocity, scene.bodies[1].awake
    ((0.0, 0.0), 7, (40.0, 0.0), False)
    """
    scene = Scene(f"smash{columns * rows + 1}", gravity=(0.0, 0.0))
    scene.add("dynamic", (-20.0, 0.0), [(Polygon.box(8.0, 8.0), 8.0, 0.6, 0.0)], velocity=(40.0, 0.0),
              tag="striker")
    box = Polygon.box(spacing, spacing)
    for i in range(columns):
        for j in range(rows):
            scene.add("dynamic", (i * spacing + 30.0, (j - rows / 2.0) * spacing), [(box, 1.0, 0.6, 0.0)],
                      awake=False)
    return scene


def tumbler(count=60, size=10.0, wall=0.5, angular_velocity=1.0, seed=3):
    """A kinematic hollow square box of inner side ``size`` turning at ``angular_velocity``
    rad/s about its centre (the origin), with ``count`` boxes and balls inside.

    The box is one kinematic body (tag ``"tumbler"``) with four wall shapes ``wall``
    meters thick; the loose bodies start on a grid in its lower part, at rest.

    Parameters
    ----------
    count : int
        Number of loose bodies, alternately boxes (0.6 x 0.45 m) and balls (radius 0.3 m).
    size : float
        Inner side of the box, in meters.
    wall : float
        Thickness of the box's walls, in meters.
    angular_velocity : float
        Angular velocity of the box in rad/s, counter-clockwise.
    seed : int
        Seed of the NumPy generator that draws the loose bodies' angles.

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


def box2d_tumbler(grid=45, degrees_per_second=25.0):
    """Box2D's ``tumbler`` benchmark with a kinematic container: a hollow 20 m square box
    turning at ``degrees_per_second`` about (0, 10), with ``grid`` x ``grid`` boxes of
    0.25 m inside.

    The numbers are Box2D's ``CreateTumbler`` (``shared/benchmarks.c``): walls 1 m thick
    at +-10 m from the centre, density 50 (the container's), boxes density 1 on a
    0.4 m grid from (-0.2 grid, 10 - 0.2 grid). Box2D turns a dynamic container with a
    motor joint; here it is kinematic in every engine (the issue's comparison), which
    turns it at exactly that speed. At the defaults: 2026 bodies.

    Parameters
    ----------
    grid : int
        The boxes form a ``grid`` x ``grid`` square.
    degrees_per_second : float
        The container's turn rate (Box2D's motor speed), counter-clockwise.

    Examples
    --------
    >>> scene = box2d_tumbler(grid=3)
    >>> scene.bodies[0].body_type, len(scene.bodies), scene.bodies[1].position
    ('kinematic', 10, (-0.6000000000000001, 9.4))
    """
    scene = Scene(f"box2d_tumbler{grid * grid + 1}")
    walls = [Polygon.box(1.0, 20.0, center=(x, 0.0)) for x in (10.0, -10.0)]
    walls += [Polygon.box(20.0, 1.0, center=(0.0, y)) for y in (10.0, -10.0)]
    scene.add("kinematic", (0.0, 10.0), [(w, 50.0, 0.6, 0.0) for w in walls],
              angular_velocity=math.radians(degrees_per_second), tag="tumbler")
    box = Polygon.box(0.25, 0.25)
    y = -0.2 * grid + 10.0
    for _ in range(grid):
        x = -0.2 * grid
        for _ in range(grid):
            scene.add("dynamic", (x, y), [(box, 1.0, 0.6, 0.0)])
            x += 0.4
        y += 0.4
    return scene
