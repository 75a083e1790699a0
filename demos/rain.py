"""Circles, boxes and hexagons raining into a container.

600 bodies in a 20 m container: a third of the benchmark's rain, so the GIF renders in
seconds, with the same shapes and the same grid start (``engine.scenes.rain``).
"""
from engine import scenes

from . import _viewer

DESCRIPTION = "600 circles, boxes and hexagons pouring into a container"


def main(argv=()):
    opts = _viewer.options(argv, "rain", frames=150)
    return _viewer.run(scenes.rain(circles=400, polygons=200, width=20.0), "Rain", **opts)


if __name__ == "__main__":
    main()
