"""A robot in a room of obstacles casting 360 rays a step, drawn.

Every step the robot casts 360 rays of 8 m around itself in one call
(``world.ray_cast_many``: one kernel call, no Python per ray) and the hits are drawn as
a fan. It drives in a loop, turning away when the rays in front of it come back short.
Some obstacles move (a pushed crate, a swinging door), so the scan changes as it goes.
"""
import math

import numpy as np

import engine
from engine import Circle, Polygon

from . import _viewer

DESCRIPTION = "a robot casting 360 rays a step in a room of obstacles (world.ray_cast_many)"
RAYS, RANGE, SPEED = 360, 8.0, 2.5


def build():
    world = engine.World(gravity=(0, 0))
    room = world.create_body("static")
    for box in (Polygon.box(24, 0.4, center=(0, -8)), Polygon.box(24, 0.4, center=(0, 8)),
                Polygon.box(0.4, 16, center=(-12, 0)), Polygon.box(0.4, 16, center=(12, 0))):
        room.add_shape(box)
    rng = np.random.default_rng(4)
    for _ in range(14):
        x, y = rng.uniform(-10, 10), rng.uniform(-6.5, 6.5)
        if math.hypot(x, y) < 2.5:
            continue
        kind = rng.integers(3)
        shape = (Circle(float(rng.uniform(0.3, 0.9))) if kind == 0 else
                 Polygon.box(float(rng.uniform(0.5, 2)), float(rng.uniform(0.5, 2))) if kind == 1 else
                 Polygon([(0, 0), (1.6, 0), (1.6, 1.6), (1.1, 1.6), (1.1, 0.5), (0, 0.5)]))
        body = world.create_body("static" if rng.random() < 0.6 else "dynamic", position=(x, y),
                                 angle=float(rng.uniform(0, math.pi)), linear_damping=2.0,
                                 angular_damping=2.0)
        body.add_shape(shape, density=2.0)
    door = world.create_body("kinematic", position=(0, 5), angular_velocity=0.8)
    door.add_shape(Polygon.box(3, 0.2, center=(1.5, 0)))
    robot = world.create_body(position=(0, 0))
    robot.add_shape(Circle(0.35), user_data="robot")
    robot.user_data = "robot"
    return world


class Lidar:
    """Drives the robot and draws its last scan."""

    def __init__(self):
        self.scan = None
        self.heading = 0.3
        angles = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
        self.dirs = np.column_stack((np.cos(angles), np.sin(angles)))

    def __call__(self, world, keys):
        robot = next(b for b in world.bodies if b.user_data == "robot")
        origin = np.array(robot.position)
        starts = origin + 0.4 * self.dirs  # from just outside the robot's own circle
        self.scan = (starts, world.ray_cast_many(starts, origin + RANGE * self.dirs))
        ahead = int(round(self.heading / (2 * math.pi) * RAYS)) % RAYS
        cone = [(ahead + k) % RAYS for k in range(-20, 21)]
        reach = np.where(self.scan[1].shape_id[cone] >= 0, self.scan[1].fraction[cone], 1.0) * RANGE
        if reach.min() < 1.5:  # something close in front: turn towards the freest side
            left = self.scan[1].fraction[[(ahead + k) % RAYS for k in range(30, 90)]].mean()
            right = self.scan[1].fraction[[(ahead - k) % RAYS for k in range(30, 90)]].mean()
            self.heading += 0.08 if left >= right else -0.08
        robot.velocity = (SPEED * math.cos(self.heading), SPEED * math.sin(self.heading))

    def overlay(self, drawer, world):
        if self.scan is None:
            return
        starts, hits = self.scan
        for k in range(RAYS):
            end = hits.point[k] if hits.shape_id[k] >= 0 else starts[k] + (RANGE - 0.4) * self.dirs[k]
            color = (90, 200, 120) if hits.shape_id[k] >= 0 else (60, 80, 70)
            drawer.draw_segment(tuple(starts[k]), tuple(end), 0.0, color)
        drawer.draw_text((-11.5, 7.2), f"{RAYS} rays per step, one call", (220, 220, 220))


def main(argv=()):
    opts = _viewer.options(argv, "lidar", frames=150)
    lidar = Lidar()
    return _viewer.run(build, "Lidar", control=lidar, overlay=lidar.overlay,
                       bounds=(-12.5, -8.5, 12.5, 8.5), **opts)


if __name__ == "__main__":
    main()
