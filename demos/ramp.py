"""Boxes on 30 degree ramps with friction 0.2, 0.5 and 0.7.

A box at rest on a slope stays put when mu >= tan(slope) (0.577 here) and otherwise
slides with acceleration g (sin - mu cos): 3.3 m/s^2 at mu = 0.2, 0.67 m/s^2 at 0.5.
Each ramp is ``engine.scenes.friction_ramp``, moved sideways; a floor catches the
boxes that slide off, and a wall stops them.
"""
import dataclasses
import math

from engine import Polygon, scenes

from . import _viewer

DESCRIPTION = "boxes on 30 degree ramps: mu 0.2 and 0.5 slide, mu 0.7 sticks"
SLOPE = math.radians(30.0)
FRICTIONS = (0.2, 0.5, 0.7)
LENGTH = 10.0
SPACING = 11.0


def scene():
    base = scenes.friction_ramp(SLOPE, FRICTIONS[0], length=LENGTH)
    base.bodies = []
    for k, mu in enumerate(FRICTIONS):
        for spec in scenes.friction_ramp(SLOPE, mu, length=LENGTH).bodies:
            x, y = spec.position
            base.bodies.append(dataclasses.replace(spec, position=(x + k * SPACING, y)))
    # A floor under the ramps' low ends (2.5 m below their centres, undersides ~3.4 m)
    # catches the boxes that slide off; a wall stops the fast one before the floor ends.
    left, right = -9.5, (len(FRICTIONS) - 1) * SPACING + 0.5 * LENGTH + 2.0
    floor = Polygon.box(right - left, 1.0, center=(0.5 * (left + right), 0.0))
    wall = Polygon.box(0.5, 1.5, center=(left + 0.25, 1.25))
    base.add("static", (0.0, -4.5), [(floor, 1.0, 0.6, 0.0), (wall, 1.0, 0.6, 0.0)], tag="floor")
    return base


def overlay(drawer, world):
    for k, mu in enumerate(FRICTIONS):
        verdict = "sticks" if mu >= math.tan(SLOPE) else "slides"
        drawer.draw_text((k * SPACING - 3.0, 3.6), f"mu = {mu:.1f}: {verdict}", (230, 230, 230))


def main(argv=()):
    opts = _viewer.options(argv, "ramp", frames=150)
    return _viewer.run(scene(), "Friction ramps, 30 degrees (tan = 0.577)", overlay=overlay,
                       width=1000, **opts)


if __name__ == "__main__":
    main()
