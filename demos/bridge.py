"""A chain bridge: 40 planks pinned end to end by revolute joints hang between two
posts on their catenary; boxes and balls drop onto it (``engine.scenes.bridge``)."""
from engine import Circle, Polygon, World, scenes

from . import _viewer

DESCRIPTION = "a 40-plank chain bridge on revolute joints; boxes and balls drop on it"


def build():
    world = World()
    scenes.bridge(world)
    for k in range(8):
        body = world.create_body(position=(-6.0 + 1.6 * k, 12.0 + 0.8 * (k % 3)))
        body.add_shape(Polygon.box(0.6, 0.6) if k % 2 else Circle(0.35), density=2.0)
    return world


def main(argv=()):
    opts = _viewer.options(argv, "bridge", frames=150, joints=True)
    return _viewer.run(build, "Chain bridge", bounds=(-10.5, 5.0, 10.5, 14.0), **opts)


if __name__ == "__main__":
    main()
