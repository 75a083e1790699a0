"""Concave letters and gears falling onto concave terrain.

Every falling body is one concave ``Polygon`` (letters E, L, S, T, U and two gears),
split into convex pieces that collide as one shape; the static terrain is one concave
polygon too: a long flat run whose decomposition cuts reach the surface (bodies that
land there slide across the seams without catching), a V valley, a bowl and steps
(``engine.scenes.concave_drop``). The outlines are drawn, not the pieces.
"""
from engine import scenes

from . import _viewer

DESCRIPTION = "concave letters and gears falling onto concave terrain"


def main(argv=()):
    opts = _viewer.options(argv, "concave", frames=180)
    return _viewer.run(scenes.concave_drop(), "Concave letters and gears", **opts)


if __name__ == "__main__":
    main()
