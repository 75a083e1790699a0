"""Bodies resting on and striking each other in rows: pyramid, stack, domino chain, cradle."""
import math

from ..geometry.shapes import Circle, Polygon, Segment
from .scene import Scene, add_ground

__all__ = ["pyramid", "many_pyramids", "vertical_stack", "domino", "cradle"]


def pyramid(base, size=1.0, friction=0.6, density=1.0):
    """A pyramid of ``base * (base + 1) / 2`` boxes of side ``size`` on a static ground.

    Rows touch exactly (no gaps, no overlap), as in Box2D's pyramid benchmark. The
    ground comes first (tag ``"ground"``), then the boxes row by row from the bottom,
    tagged ``"r0"``, ``"r1"``, ... by row; the scene is named ``f"pyramid{base}"``.

    Parameters
    ----------
    base : int
        Number of boxes in the bottom row (each row above has one fewer).
    size : float
        Side of every box, in meters.
    friction : float
        Friction coefficient of the boxes and the ground.
    density : float
        Density of the boxes, in kg/m^2.

    Examples
    --------
    >>> scene = pyramid(3)
    >>> scene.name, len(scene.bodies), [b.tag for b in scene.bodies[1:]]
    ('pyramid3', 7, ['r0', 'r0', 'r0', 'r1', 'r1', 'r2'])
    """
    scene = Scene(f"pyramid{base}")
    add_ground(scene, max(40.0, 2.0 * base * size), friction)
    box = Polygon.box(size, size)
    for row in range(base):
        y = (row + 0.5) * size
        for col in range(base - row):
            x = (col - 0.5 * (base - row - 1)) * size
            scene.add("dynamic", (x, y), [(box, density, friction, 0.0)], tag=f"r{row}")
    return scene


def many_pyramids(rows=20, columns=20, base=10, extent=0.5):
    """Box2D's ``many_pyramids`` benchmark: ``rows`` x ``columns`` small pyramids of
    ``base`` boxes each, every row of pyramids on its own ground segment.

    The positions are those of Box2D's ``CreateManyPyramids`` (``shared/benchmarks.c``):
    boxes of half side ``extent``, density 1, friction 0.6; one static ground body with
    ``rows`` segment shapes (tag ``"ground"``), then the pyramids row by row. At the
    defaults: 20 x 20 x 55 = 22,000 boxes.

    Parameters
    ----------
    rows, columns : int
        Rows of pyramids (one ground segment each, 11 m apart) and pyramids per row.
    base : int
        Boxes in each pyramid's bottom row.
    extent : float
        Half the side of a box, in meters.

    Examples
    --------
    >>> scene = many_pyramids(rows=2, columns=3, base=4)
    >>> scene.name, len(scene.bodies), len(scene.bodies[0].shapes)
    ('many_pyramids2x3', 61, 2)
    """
    scene = Scene(f"many_pyramids{rows}x{columns}")
    dy = 2.0 * extent * (base + 1.0)
    width = 2.0 * extent * columns * (base + 1.0)
    scene.add("static", (0.0, 0.0), [(Segment((-0.5 * width, i * dy), (0.5 * width, i * dy)), 1.0, 0.6, 0.0)
                                     for i in range(rows)], tag="ground")
    box = Polygon.box(2.0 * extent, 2.0 * extent)
    for r in range(rows):
        for c in range(columns):
            center_x = -0.5 * width + c * (2.0 * extent * base + 2.0 * extent) + 2.0 * extent
            for i in range(base):
                y = (2.0 * i + 1.0) * extent + r * dy
                for j in range(i, base):
                    x = (i + 1.0) * extent + 2.0 * (j - i) * extent + center_x - 0.5
                    scene.add("dynamic", (x, y), [(box, 1.0, 0.6, 0.0)])
    return scene


def vertical_stack(count=15, size=1.0, friction=0.6, gap=0.0):
    """``count`` boxes stacked straight up on the ground, ``gap`` meters apart.

    Parameters
    ----------
    count : int
        Number of boxes.
    size : float
        Side of every box, in meters.
    friction : float
        Friction coefficient of the boxes and the ground.
    gap : float
        Vertical space between neighbouring boxes at the start, in meters (0: touching).

    Examples
    --------
    >>> scene = vertical_stack(3, gap=0.5)
    >>> [b.position for b in scene.bodies]
    [(0.0, 0.0), (0.0, 0.5), (0.0, 2.0), (0.0, 3.5)]
    """
    scene = Scene(f"stack{count}")
    add_ground(scene, 40.0, friction)
    box = Polygon.box(size, size)
    for i in range(count):
        scene.add("dynamic", (0.0, (i + 0.5) * size + i * gap), [(box, 1.0, friction, 0.0)])
    return scene


def domino(count=20, width=0.2, height=1.0, spacing=0.6, friction=0.6, lean=0.35):
    """A row of ``count`` dominoes (``width`` x ``height`` boxes, ``spacing`` apart) on the
    ground; the first leans ``lean`` radians towards the others on its bottom corner, so
    it falls and topples the row.

    Dominoes are tagged ``"d0"``, ``"d1"``, ...; the row is centred on x = 0.

    Parameters
    ----------
    count : int
        Number of dominoes.
    width : float
        Thickness of a domino along the row, in meters.
    height : float
        Height of a domino, in meters.
    spacing : float
        Distance between the centres of neighbouring dominoes, in meters.
    friction : float
        Friction coefficient of the dominoes and the ground.
    lean : float
        Initial tilt of the first domino towards the row, in radians.

    Examples
    --------
    >>> world, bodies = domino(count=3).build()
    >>> [round(b.angle, 2) for b in bodies[1:]], round(bodies[1].position[1], 3)
    ([-0.35, 0.0, 0.0], 0.504)
    """
    scene = Scene(f"domino{count}")
    length = (count - 1) * spacing
    add_ground(scene, length + 3.0, friction)
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

    With a gap or without one (touching balls), the impacts are one pair at a time, as
    in the ideal cradle: the solver's collision phase (``engine/dynamics/impacts.py``)
    takes bouncy bodies that touch or meet pair by pair, in the order they collide.

    Parameters
    ----------
    count : int
        Number of balls in the row (the striker is one more).
    radius : float
        Radius of every ball, striker included, in meters.
    speed : float
        Initial speed of the striker towards +x, in m/s.
    gap : float
        Space between neighbouring balls of the row, in meters.
    track : (float, float)
        x of the left and right ends of the track, in meters.

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
