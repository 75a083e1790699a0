"""A kinematic hollow box turning at 1 rad/s, tumbling 60 boxes and balls inside it.

The box is one kinematic body with four wall shapes (``engine.scenes.tumbler``): it
turns at the angular velocity it was given, whatever hits it, and its walls carry the
loose bodies up until they slide and fall. The camera shows the circle the box's
corners sweep.
"""
import math

from engine import scenes

from . import _viewer

DESCRIPTION = "a kinematic box turning at 1 rad/s, tumbling 60 boxes and balls"
SIZE, WALL = 10.0, 0.5


def main(argv=()):
    opts = _viewer.options(argv, "tumbler", frames=150)
    r = math.sqrt(2.0) * (0.5 * SIZE + WALL)  # the corners' circle
    return _viewer.run(scenes.tumbler(60, SIZE, WALL), "Tumbler, 1 rad/s", bounds=(-r, -r, r, r),
                       width=480, **opts)


if __name__ == "__main__":
    main()
