"""Ragdolls: Box2D's human (11 capsule bones, 10 revolute joints with limits and a little
joint friction) tumbling down a flight of steps (``engine.scenes.ragdoll``)."""
from engine import Polygon, World, scenes

from . import _viewer

DESCRIPTION = "three ragdolls (11 bones, 10 limited revolute joints each) tumble down steps"


def build():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(30.0, 1.0, center=(4.0, -0.5)))
    for k in range(6):  # steps 0.4 m high and 1 m deep, falling to the right
        ground.add_shape(Polygon.box(1.0, 0.4 * (6 - k), center=(-3.0 + k, 0.2 * (6 - k))))
    for k, (x, y) in enumerate([(-4.5, 2.4), (-3.5, 4.5), (-2.2, 6.5)]):
        rig = scenes.ragdoll(world, (x, y), group=k + 1, velocity=(1.5, 0.0))
        rig.bodies[1].angular_velocity = (-1.0) ** k * 2.0  # a shove at the chest
    return world


def main(argv=()):
    opts = _viewer.options(argv, "ragdoll", frames=150, joints=True)
    return _viewer.run(build, "Ragdolls", bounds=(-6.0, -1.0, 10.0, 9.0), **opts)


if __name__ == "__main__":
    main()
