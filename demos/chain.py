"""A chain of 20 capsule links on revolute joints swings down from a pin and strikes a
stack of boxes (``engine.scenes.chain``)."""
from engine import Polygon, World, scenes

from . import _viewer

DESCRIPTION = "a 20-link chain on revolute joints swings down into a stack of boxes"


def build():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(30.0, 1.0, center=(0.0, -0.5)))
    scenes.chain(world, links=20, top=(0.0, 12.0))
    for k in range(5):
        world.create_body(position=(-3.0, 0.5 + k)).add_shape(Polygon.box(1.0, 1.0))
    return world


def main(argv=()):
    opts = _viewer.options(argv, "chain", frames=150, joints=True)
    return _viewer.run(build, "Hanging chain", bounds=(-12.0, -1.0, 12.0, 13.0), **opts)


if __name__ == "__main__":
    main()
