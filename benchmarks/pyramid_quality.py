"""How well a pyramid holds while it settles: ours against Box2D v3 (``pyb2d3``).

    python -m benchmarks.pyramid_quality [--base 40] [--seconds 5] [--substeps 4]
                                         [--hertz 30] [--box2d] [--sleeping]

Steps ``pyramid(base)`` (boxes of side 1 m, friction 0.6, g = -10) at 60 Hz with the
given substeps and contact hertz (Box2D: ``set_contact_tuning(hertz, 10, 3)``, its
damping ratio and push-out speed), sleeping off unless asked, and reports:

- top: how far the top box moved (at the end);
- max sideways: the largest ``|x - x0|`` of any box at any step (the pile spreads most
  while it first settles);
- end sideways: the same at the end;
- drift: the mean ``x - x0`` of all boxes at the end (a pile that spreads evenly has
  none; a solve order with a direction makes the whole pile lean).
"""
import argparse
import time

import numpy as np

from engine import constants as K
from engine import scenes

HZ = 60


def _report(start, pos, side, wall):
    return {"top": float(np.hypot(*(pos[-1] - start[-1]))), "side": side,
            "end": float(np.abs(pos[:, 0] - start[:, 0]).max()),
            "drift": float(np.mean(pos[:, 0] - start[:, 0])), "wall": wall}


def measure_ours(base=40, seconds=5.0, substeps=4, hertz=30.0, sleeping=False):
    """The figures (a dict, meters and seconds) for the engine. Sets
    ``engine.constants.CONTACT_HERTZ`` (read when a world's step parameters are made)."""
    K.CONTACT_HERTZ = float(hertz)
    world, _ = scenes.pyramid(base).build()
    world.substeps = substeps
    world.sleeping = sleeping
    start = world.positions[1:].copy()
    side = 0.0
    t0 = time.perf_counter()
    for _ in range(int(round(seconds * HZ))):
        world.step(1 / HZ)
        side = max(side, float(np.abs(world.positions[1:, 0] - start[:, 0]).max()))
    return _report(start, world.positions[1:], side, time.perf_counter() - t0)


def measure_box2d(base=40, seconds=5.0, substeps=4, hertz=30.0, sleeping=False):
    """The same figures for Box2D v3 through ``pyb2d3``."""
    from benchmarks.box2d_scene import build_b2world
    world, bodies = build_b2world(scenes.pyramid(base), sleeping=sleeping)
    world.set_contact_tuning(float(hertz), 10.0, 3.0)
    boxes = bodies[1:]
    start = np.array([b.position for b in boxes])
    pos = start
    side = 0.0
    t0 = time.perf_counter()
    for _ in range(int(round(seconds * HZ))):
        world.step(1 / HZ, substeps)
        pos = np.array([b.position for b in boxes])
        side = max(side, float(np.abs(pos[:, 0] - start[:, 0]).max()))
    return _report(start, pos, side, time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--substeps", type=int, default=4)
    ap.add_argument("--hertz", type=float, default=30.0)
    ap.add_argument("--box2d", action="store_true")
    ap.add_argument("--sleeping", action="store_true")
    a = ap.parse_args()
    measure = measure_box2d if a.box2d else measure_ours
    r = measure(a.base, a.seconds, a.substeps, a.hertz, a.sleeping)
    print(f"{'box2d' if a.box2d else 'ours'} pyramid{a.base} {a.substeps} substeps "
          f"{a.hertz:g} Hz{' sleeping' if a.sleeping else ''}: top {r['top'] * 100:.2f} cm, "
          f"max sideways {r['side'] * 100:.2f} cm, end sideways {r['end'] * 100:.2f} cm, "
          f"drift {r['drift'] * 1000:+.2f} mm ({r['wall']:.1f} s)")


if __name__ == "__main__":
    main()
