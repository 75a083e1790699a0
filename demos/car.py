"""A car on wheel joints drives over bumpy ground: a motor turns the rear wheel, springs
carry the chassis (``engine.scenes.car``, ``engine.scenes.bumpy_terrain``). In a window
the arrow keys drive it (right: forward, left: back, neither: coast)."""
from engine import Circle, World, scenes

from . import _viewer

DESCRIPTION = "a car on wheel joints (rear-wheel motor, spring suspension) on bumpy ground"


def build():
    world = World()
    scenes.bumpy_terrain(world)
    scenes.car(world, (0.0, 0.0))
    for k in range(6):  # a few balls in the way
        world.create_body(position=(12.0 + 4.0 * k, 3.0)).add_shape(Circle(0.25), density=0.5)
    return world


def control(world, keys):
    """Headless (``keys`` None) the car drives right; in a window the arrows drive it."""
    rear = world.joints[0]
    if keys is None or "right" in keys:
        rear.motor_speed = -20.0
    elif "left" in keys:
        rear.motor_speed = 20.0
    else:
        rear.motor_speed = 0.0


def main(argv=()):
    opts = _viewer.options(argv, "car", frames=150, joints=True)
    return _viewer.run(build, "Car on wheel joints", bounds=(-4.0, -1.5, 30.0, 5.0), control=control, **opts)


if __name__ == "__main__":
    main()
