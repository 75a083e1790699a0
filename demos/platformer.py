"""A platformer in one screen: run, jump through one-way platforms, ride a moving
platform and a conveyor, pick up coins.

Arrows move the player and space jumps in a window; headless, an autopilot plays the
level (``ROUTE``) and picks up every coin.
Everything is the public API: the player is a box with ``fixed_rotation``; a ray cast
straight down under its feet (``world.ray_cast``) says whether it stands on something;
coins are sensors, counted from ``world.sensor_events`` and removed after the step
(``world.after_step`` would do the same from a callback); the platforms are shapes with
``one_way=(0, 1)``; the lift is a kinematic body whose velocity flips at the ends of
its track; the belt is a static box with ``surface_speed``.
"""
import engine
from engine import Circle, Polygon

from . import _viewer

DESCRIPTION = "jump through one-way platforms, ride a lift and a belt, collect coins (arrows, space)"
RUN_SPEED, JUMP_SPEED, ACCEL = 6.0, 12.0, 40.0  # a jump rises 3.6 m at g = 20
LIFT_TRACK = (1.0, 5.0)
# headless: the autopilot runs to each x in turn; standing there (and, for the lift, once
# it has carried the player above min_y) it jumps when asked, towards the next x
ROUTE = [(-12.0, False, None),  # the coin by the start
         (-10.8, True, None), (-9.0, False, None),  # up through the first platform, its coin
         (-8.2, True, None), (-3.0, False, None),  # to the second platform, its coin
         (0.0, False, None), (0.3, True, None), (4.0, False, None),  # onto the belt, its coin
         (5.8, True, None), (9.0, False, None),  # up to the third platform, its coin
         (10.8, False, None), (12.5, True, 5.4)]  # onto the lift; jump for the top coin


def build():
    world = engine.World(gravity=(0, -20))
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(30, 1, center=(0, -0.5)), user_data="ground")
    for x in (-15.5, 15.5):
        ground.add_shape(Polygon.box(1, 20, center=(x, 9.5)))
    for x, y, w in ((-9, 3.0, 4), (-3, 5.5, 4), (9, 4.0, 4)):
        ground.add_shape(Polygon.box(w, 0.2, center=(x, y - 0.1)), one_way=(0, 1), user_data="platform")
    belt = world.create_body("static", position=(4, 1.0))
    belt.add_shape(Polygon.box(5, 0.3), surface_speed=-3.0, user_data="belt")
    lift = world.create_body("kinematic", position=(12.5, LIFT_TRACK[0]), velocity=(0, 1.5))
    lift.add_shape(Polygon.box(2.5, 0.3), user_data="lift")
    for x, y in ((-9, 4.0), (-3, 6.5), (9, 5.0), (4, 2.2), (12.5, 7.0), (-12, 1.0)):
        world.create_body("static", position=(x, y)).add_shape(Circle(0.3), sensor=True, user_data="coin")
    player = world.create_body(position=(-13, 1.0))
    player.add_shape(Polygon.box(0.6, 1.0), friction=0.8, user_data="player")
    player.fixed_rotation = True
    player.user_data = "player"
    return world


class Game:
    """Reads the keys (or, headless, the autopilot), moves the player, counts and removes coins."""

    def __init__(self):
        self.leg = 0
        self.coins = 0

    def autopilot(self, x, y, grounded):
        """The keys the headless run holds: towards ``ROUTE[self.leg]``, then its jump."""
        if self.leg == len(ROUTE):
            return set()
        goal, jump, min_y = ROUTE[self.leg]
        if abs(goal - x) > 0.3 or not grounded or (min_y is not None and y < min_y):
            return {"right"} if goal > x + 0.3 else {"left"} if goal < x - 0.3 else set()
        self.leg += 1
        after = ROUTE[self.leg][0] if self.leg < len(ROUTE) else x
        return ({"jump"} if jump else set()) | ({"right"} if after > x + 0.3 else
                                                 {"left"} if after < x - 0.3 else set())

    def __call__(self, world, keys):
        player = next(b for b in world.bodies if b.user_data == "player")
        lift = next(b for b in world.bodies if b.body_type == engine.BodyType.KINEMATIC)
        x, y = player.position
        below = world.ray_cast((x, y - 0.45), (x, y - 0.65))  # 15 cm under the feet
        grounded = below is not None and below.body is not player
        if keys is None:  # headless
            keys = self.autopilot(x, y, grounded)
        vx, vy = player.velocity
        target = RUN_SPEED * (("right" in keys) - ("left" in keys))
        dv = max(-ACCEL / 60, min(ACCEL / 60, target - vx)) if grounded or target else 0.0
        player.velocity = (vx + dv, JUMP_SPEED if "jump" in keys and grounded else vy)
        ly = lift.position[1]
        if (ly > LIFT_TRACK[1] and lift.velocity[1] > 0) or (ly < LIFT_TRACK[0] and lift.velocity[1] < 0):
            lift.velocity = (0, -lift.velocity[1])
        for visitor, sensor in zip(world.sensor_events.begin.visitor, world.sensor_events.begin.sensor):
            if world.shape(int(visitor)).body is player:
                self.coins += 1
                world.destroy_body(world.shape(int(sensor)).body)

    def overlay(self, drawer, world):
        drawer.draw_text((-14.5, 10.5), f"coins {self.coins}", (250, 220, 80))


def main(argv=()):
    opts = _viewer.options(argv, "platformer", frames=250)  # 500 steps: every coin by step 480
    game = Game()
    return _viewer.run(build, "Platformer", control=game, overlay=game.overlay,
                       bounds=(-16, -1, 16, 11), **opts)


if __name__ == "__main__":
    main()
