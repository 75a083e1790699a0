"""Many small worlds: a WorldBatch against loops over worlds, ours and pymunk's (issue #18).

Run from the repository root::

    python -m benchmarks.batch                  # 1024 worlds, 5 rounds
    python -m benchmarks.batch --worlds 256 --rounds 7

The scene: a ground segment and 20 bodies (balls and boxes, alternately) dropped in a
column onto it, the same data in both engines (``benchmarks/pymunk_scene.py``); sleeping
is off in ours, as it is by default in pymunk. Three ways to step ``--worlds`` copies:

- ``batch``: ``WorldBatch.replicate(world, n)``, one ``batch.step`` per step;
- ``ours``: a Python loop over n ``World`` copies;
- ``pymunk``: a Python loop over n ``pymunk.Space`` copies.

All three first run ``--settle`` steps (the piles land and settle), then ``--rounds``
interleaved rounds of ``--steps`` steps each. Reported: microseconds per world-step
(median over the rounds, with the range) and the ratios pymunk / batch and ours / batch
per round (median and range): how many times faster the batch is.
"""
import argparse
import copy
import statistics
import time

import numpy as np

from engine import Circle, Polygon, Segment, WorldBatch
from engine.scenes import Scene

from .pymunk_scene import build_space

DT = 1 / 60


def small_pile(bodies=20, seed=0):
    """The benchmark's scene: a ground segment and ``bodies`` balls and boxes."""
    rng = np.random.default_rng(seed)
    scene = Scene(f"pile{bodies}")
    scene.add("static", (0.0, 0.0), [(Segment((-10, 0), (10, 0), 0.1), 1.0, 0.6, 0.0)], tag="ground")
    for i in range(bodies):
        shape = Circle(0.25) if i % 2 else Polygon.box(0.45, 0.35)
        scene.add("dynamic", (float(rng.uniform(-2, 2)), 0.5 + 0.6 * i),
                  [(shape, 1.0, 0.6, 0.2)], tag="piece")
    return scene


def _timed(step, steps):
    t = time.perf_counter()
    for _ in range(steps):
        step()
    return time.perf_counter() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--settle", type=int, default=90)
    args = parser.parse_args()
    n = args.worlds
    scene = small_pile()
    template = scene.build(sleeping=False)[0]
    t = time.perf_counter()
    batch = WorldBatch.replicate(template, n)
    replicate = time.perf_counter() - t
    worlds = [copy.deepcopy(template) for _ in range(n)]
    spaces = [build_space(scene)[0] for _ in range(n)]
    runs = {
        "batch": lambda: batch.step(DT),
        "ours": lambda: [w.step(DT) for w in worlds],
        "pymunk": lambda: [s.step(DT) for s in spaces],
    }
    for step in runs.values():
        _timed(step, args.settle)
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, step in runs.items():
            times[name].append(_timed(step, args.steps) / (args.steps * n) * 1e6)
    print(f"{n} worlds of {scene.name} (+ ground), {args.rounds} rounds of {args.steps} steps "
          f"after {args.settle}; WorldBatch.replicate took {replicate * 1e3:.0f} ms")
    for name, values in times.items():
        print(f"{name:7} {statistics.median(values):9.2f} us per world-step "
              f"[{min(values):.2f}-{max(values):.2f}]")
    for other in ("pymunk", "ours"):
        ratios = [o / b for o, b in zip(times[other], times["batch"])]
        print(f"{other} / batch: {statistics.median(ratios):6.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
    lone = copy.deepcopy(template)
    for _ in range(args.settle + args.rounds * args.steps):
        lone.step(DT)
    same = all(np.array_equal(batch.positions[k], lone.positions) for k in (0, n - 1))
    print(f"worlds 0 and {n - 1} bit-identical to the world stepped alone: {same}")


if __name__ == "__main__":
    main()
