"""Concave shapes: gear and letter outlines, a concave terrain, and letters and gears dropped on it."""
import math

import numpy as np

from ..geometry.shapes import Polygon
from .scene import Scene

__all__ = ["gear_outline", "concave_terrain", "concave_drop"]

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

    Returns the ``4 * teeth`` vertices ``(x, y)`` counter-clockwise around the origin, for
    :class:`~engine.Polygon`.

    Parameters
    ----------
    teeth : int
        Number of teeth, >= 3.
    outer : float
        Radius of the tooth tops, in meters.
    inner : float
        Radius of the gaps between teeth, in meters, < ``outer``.

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

    The flat run (x from 0.5 - ``width`` / 2 to -3) is split by the ``"split"`` method into
    pieces whose cuts meet the top surface, so bodies sliding on it cross interior seams.
    Returns the :class:`~engine.Polygon`, in the coordinates of a body at the origin.

    Parameters
    ----------
    width : float
        Overall width in meters, centred on x = 0; >= 23.8 (the valley, bowl and steps stay put).

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
    scene for measuring what concave shapes cost (``benchmarks/concave.py``). The terrain
    is tagged ``"terrain"``; the falling bodies (friction 0.5, restitution 0.1) have no tag.

    Parameters
    ----------
    rows : int
        Number of rows of falling bodies, 1.4 m apart from y = 3 m up.
    cols : int
        Number of bodies per row, spread from x = -10 m to 10 m.
    hulls : bool
        Give every falling body the convex hull of its outline instead (same positions and draws).
    seed : int
        Seed of the NumPy generator that draws each body's shape, x jitter and angle.

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
