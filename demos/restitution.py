"""Five balls dropped from 5 m with restitution 0, 0.25, 0.5, 0.75 and 1.

Each ball is ``engine.scenes.restitution_drop(e)``'s ball, moved sideways onto one
ground. With Box2D mixing the contact uses max(e_ball, e_ground) = e. The tick beside
each ball marks the ideal first bounce, e^2 * h; bounces slower than the restitution
threshold (1 m/s) stop dead, as in Box2D.
"""
import dataclasses

from engine import scenes

from . import _viewer

DESCRIPTION = "balls with restitution 0 to 1 bouncing; ticks mark the ideal bounce e^2 h"
HEIGHT = 5.0
RESTITUTIONS = (0.0, 0.25, 0.5, 0.75, 1.0)
SPACING = 2.0


def scene():
    base = scenes.restitution_drop(0.0, HEIGHT)  # its ground has e = 0: max() leaves the ball's e
    base.bodies = base.bodies[:1]
    for k, e in enumerate(RESTITUTIONS):
        ball = scenes.restitution_drop(e, HEIGHT).bodies[1]
        x = (k - 0.5 * (len(RESTITUTIONS) - 1)) * SPACING
        base.bodies.append(dataclasses.replace(ball, position=(x, ball.position[1]), tag=f"e={e}"))
    return base


def overlay(drawer, world):
    for k, e in enumerate(RESTITUTIONS):
        x = (k - 0.5 * (len(RESTITUTIONS) - 1)) * SPACING
        drawer.draw_text((x - 0.45, -0.25), f"e = {e:.2f}", (230, 230, 230))
        y = e * e * HEIGHT  # apex of the ball's lowest point after the first bounce
        drawer.draw_segment((x + 0.35, y), (x + 0.75, y), 0.0, (255, 230, 60))


def main(argv=()):
    opts = _viewer.options(argv, "restitution", frames=150)
    return _viewer.run(scene(), "Restitution, drop from 5 m", overlay=overlay, **opts)


if __name__ == "__main__":
    main()
