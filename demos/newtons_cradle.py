"""Newton's cradle on strings: five touching balls hung on rigid distance joints; the
first is lifted and let go (``engine.scenes.newtons_cradle``).

Every material has restitution 1. The balls touch, so no gap keeps the impacts apart:
the solver's collision phase (``engine/dynamics/impacts.py``) takes them pair by pair
in the order they happen, and the push runs down the row to the last ball, which swings
out as high as the first was lifted while the three in the middle stay still. (With
sequential impulses alone, as in Box2D, the row shares the push and soon swings as one.)
"""
from engine import World, scenes

from . import _viewer

DESCRIPTION = "Newton's cradle on strings: touching balls, only the outer ones swing"


def build():
    world = World(gravity=(0.0, -10.0))
    scenes.newtons_cradle(world, balls=5, lift=0.6)
    return world


def main(argv=()):
    opts = _viewer.options(argv, "newtons_cradle", frames=240, joints=True)
    return _viewer.run(build, "Newton's cradle on strings", bounds=(-2.5, 1.0, 4.5, 4.5), **opts)


if __name__ == "__main__":
    main()
