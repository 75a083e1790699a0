"""Newton's cradle on a track: a ball strikes a row of five, and only the last one leaves.

There are no joints to hang balls from, so the balls sit on a frictionless track,
2 cm apart; every material has restitution 1 (``engine.scenes.cradle``). An impact of
two equal balls swaps their velocities, so the striker stops dead and the momentum runs
through the row to the last ball. The numbers above the balls are their velocities
(m/s), and the total momentum stays at 3 kg m/s per kg of ball.
"""
from engine import BodyType, scenes

from . import _viewer

DESCRIPTION = "a ball strikes a row of five on a frictionless track: the last one leaves"


def overlay(drawer, world):
    balls = sorted((b for b in world.bodies if b.body_type == BodyType.DYNAMIC), key=lambda b: b.position[0])
    total = 0.0
    for k, body in enumerate(balls):
        (x, y), vx = body.position, body.velocity[0]
        total += vx
        vx = vx if abs(vx) >= 0.05 else 0.0  # no "-0.0"
        # every other label one line higher: neighbours' labels would touch
        drawer.draw_text((x - 0.4, y + 1.2 + 0.6 * (k % 2)), f"{vx:.1f}", (230, 230, 230))
    drawer.draw_text((-5.5, 3.4), f"sum of velocities (momentum / ball mass): {total:.2f} m/s", (230, 230, 230))


def main(argv=()):
    opts = _viewer.options(argv, "cradle", frames=150)
    return _viewer.run(scenes.cradle(), "Newton's cradle on a track", overlay=overlay,
                       bounds=(-6.0, -1.0, 18.0, 4.0), **opts)


if __name__ == "__main__":
    main()
