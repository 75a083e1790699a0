"""Bullets at 300 m/s against two thin walls: none gets through.

A gun on the left fires a ball of radius 0.1 m at 300 m/s every frame, alternately at
a dynamic wall of density 1000 (top) and a static one (bottom), both 0.1 m thick. One
step moves a bullet 5 m, fifty times the wall's thickness: pymunk, which has no
continuous collision, lets 48 of 50 through (``python -m benchmarks.ccd``). Here each
bullet's speculative contact stops it at the wall, and the continuous-collision sweep
catches what that misses (see ``docs/collision.md``). The streaks show one step of
flight; the counters count bullets beyond each wall. Rails between the lanes keep
ricochets from going round the walls.
"""
import math

import engine
from engine import scenes

from . import _viewer

DESCRIPTION = "300 m/s bullets stop at 0.1 m static and dynamic walls (no tunnelling)"
SPEED = 300.0
GUN_X = -14.0
LANES = {"dynamic": (0.0, 7.0), "static": (-7.0, 0.0)}  # the camera keeps moving bodies on top
GAP = 0.05  # between a wall and the rails: narrower than a bullet


def scene():
    s = scenes.Scene("bullets", gravity=(0.0, 0.0))
    s.add("static", (GUN_X - 0.6, 0.0), [(engine.Polygon.box(1.0, 13.0), 1.0, 0.6, 0.0)], tag="gun")
    for kind, (lo, hi) in LANES.items():
        s.add(kind, (0.0, 0.5 * (lo + hi)),
              [(engine.Polygon.box(0.1, hi - lo - 2 * GAP), 1000.0, 0.0, 0.0)], tag=f"{kind} wall")
    # rails keep ricochets in their lane (nothing goes round a wall), and a backstop
    # would catch any bullet that got through one
    rails = [(engine.Segment((GUN_X, y), (10.0, y)), 1.0, 0.0, 0.0) for y in (-7.0, 0.0, 7.0)]
    rails.append((engine.Segment((10.0, -7.0), (10.0, 7.0)), 1.0, 0.6, 0.0))
    s.add("static", (0.0, 0.0), rails, tag="rails")
    return s


class Gun:
    """Fires one bullet per frame from the overlay (demos only use the public API)."""

    def __init__(self):
        self.shots = 0

    def __call__(self, drawer, world):
        kind = ("static", "dynamic")[self.shots % 2]
        lo, hi = LANES[kind]
        # golden-ratio spacing spreads the shots over the lane's middle without repeating
        y = lo + 1.0 + (hi - lo - 2.0) * ((self.shots // 2 * 0.618034) % 1.0)
        ball = world.create_body(position=(GUN_X + 0.5, y), velocity=(SPEED, 0.0))
        ball.add_shape(engine.Circle(0.1))
        ball.user_data = kind
        self.shots += 1
        walls = {b.user_data.split()[0]: b for b in world.bodies
                 if isinstance(b.user_data, str) and b.user_data.endswith("wall")}
        passed = {k: 0 for k in LANES}
        for body in world.bodies:
            if body.user_data in LANES:
                passed[body.user_data] += body.position[0] > walls[body.user_data].position[0] + 0.5
                vx, vy = body.velocity
                if math.hypot(vx, vy) > 10.0:  # a streak of one step's flight
                    x, y = body.position
                    drawer.draw_segment((x - vx * _viewer.DT, y - vy * _viewer.DT), (x, y), 0.0,
                                        (255, 230, 60))
        for kind, (lo, hi) in LANES.items():
            drawer.draw_text((1.5, 0.5 * (lo + hi)), f"{kind} wall: {passed[kind]} of {self.shots // 2} through",
                             (230, 230, 230))


def main(argv=()):
    opts = _viewer.options(argv, "bullets", frames=120)
    return _viewer.run(scene(), "Bullets, 300 m/s", overlay=Gun(), **opts)


if __name__ == "__main__":
    main()
