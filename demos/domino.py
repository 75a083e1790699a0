"""Twenty dominoes, 0.2 m x 1 m and 0.6 m apart; the first leans over and falls.

Each falling domino hits the next one near its top and tips it past its corner, so the
toppling runs down the row at a steady speed; each comes to rest leaning on the next.
The counter counts dominoes tilted more than 30 degrees.
"""
import math

from engine import scenes

from . import _viewer

DESCRIPTION = "a row of 20 dominoes toppling one after the other"
COUNT = 20


def overlay(drawer, world):
    fallen = sum(1 for body in world.bodies if str(body.user_data).startswith("d")
                 and abs(body.angle) > math.radians(30))
    drawer.draw_text((-5.9, 2.0), f"toppled: {fallen} of {COUNT}", (230, 230, 230))


def main(argv=()):
    opts = _viewer.options(argv, "domino", frames=200)
    length = (COUNT - 1) * 0.6
    bounds = (-0.5 * length - 1.5, -0.4, 0.5 * length + 1.5, 2.4)  # a slice of the ground is enough
    return _viewer.run(scenes.domino(COUNT), "Domino chain, 20 dominoes", overlay=overlay, bounds=bounds,
                       **opts)


if __name__ == "__main__":
    main()
