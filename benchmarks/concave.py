"""What concave shapes cost in a step: the same scene with concave bodies and with their hulls.

Run from the repository root: ``python benchmarks/concave.py``. ``engine.scenes.concave_drop``
drops letters and gears (concave ``Polygon``s, 2 to 8 convex pieces each) onto a concave terrain
(28 pieces); ``hulls=True`` is the same scene with every falling body's convex hull. After a
warm-up (kernel compilation and the fall), it prints the median milliseconds per step over
blocks of steps, the number of convex pieces, and the ratio concave / hulls. Timing only:
nothing here is asserted (the tests never time anything).
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import scenes  # noqa: E402

DT = 1.0 / 60.0


def ms_per_step(hulls, rows, cols, warmup=240, blocks=10, steps=30):
    world, bodies = scenes.concave_drop(rows=rows, cols=cols, hulls=hulls).build()
    pieces = sum(len(shape.pieces) for spec in scenes.concave_drop(rows, cols, hulls).bodies
                 for shape, *_ in spec.shapes)
    for _ in range(warmup):
        world.step(DT)
    times = []
    for _ in range(blocks):
        start = time.perf_counter()
        for _ in range(steps):
            world.step(DT)
        times.append((time.perf_counter() - start) / steps)
    return 1e3 * float(np.median(times)), len(bodies), pieces


def main():
    scenes.concave_drop(1, 1).build()[0].step(DT)  # compile (or load) the kernels first
    print(f"{'scene':<22} {'bodies':>6} {'pieces':>6} {'ms/step':>8}")
    for rows, cols in ((3, 8), (6, 16)):
        result = {}
        for hulls in (False, True):
            ms, bodies, pieces = ms_per_step(hulls, rows, cols)
            result[hulls] = ms
            name = f"{rows}x{cols} {'hulls' if hulls else 'concave'}"
            print(f"{name:<22} {bodies:>6} {pieces:>6} {ms:>8.3f}")
        print(f"{'':<22} concave / hulls: {result[False] / result[True]:.2f}")


if __name__ == "__main__":
    main()
