"""Joint benchmarks: Box2D v3's ``joint_grid`` and ``rain`` (ragdolls), this engine against
pymunk and Box2D v3 (``pyb2d3``, when installed) on the same scenes, interleaved.

Run from the repository root::

    python -m benchmarks.joints                    # short: joint_grid 100 x 100, rain of 100 ragdolls
    python -m benchmarks.joints --grid 100 --rain 5,40,5 --steps 300   # Box2D's full sizes

Every engine steps at dt = 1/60 with sleeping off: ours ``World(sleeping=False)``, Box2D 4
substeps (its benchmark's), pymunk 10 iterations. The engines take turns in chunks of ``--chunk`` steps, each chunk
starting with the next engine, so noise from other processes falls on all alike. A step of
the rain includes its ``update`` (dropping or replacing ragdolls), as in Box2D's benchmark.
Reported: the median ms/step of each engine, and our ratio to each peer with its spread, the
25th to 75th percentile of the ratios of the per-chunk medians; and the mean ms/step and the
ratio of the means, which count the rain's steps that make and remove ragdolls (the median
leaves them out).
"""
import argparse
import os
import statistics
import sys

import numpy as np

from engine import World, scenes

from .box2d_scene import has_box2d
from .joint_peers import b2_joint_grid, b2_rain, pymunk_joint_grid, pymunk_rain
from .peers import run

DT = 1.0 / 60.0


def grid_engines(n, box2d):
    world = World(sleeping=False)  # sleeping off, as in the peers
    scenes.joint_grid(world, n)
    engines = {"ours": lambda k: world.step(DT)}
    space = pymunk_joint_grid(n)
    engines["pymunk"] = lambda k: space.step(DT)
    if box2d:
        b2world = b2_joint_grid(n)
        engines["box2d"] = lambda k: b2world.step(DT, 4)
    return engines, f"joint_grid {n}x{n} ({n * n} bodies, {2 * n * (n - 1)} joints)"


def rain_engines(rows, columns, group, box2d, grid_count):
    world = World(sleeping=False)  # sleeping off, as in the peers
    rain = scenes.ragdoll_rain(world, rows, columns, group, grid_count=grid_count)

    def ours(k):
        rain.update(k)
        world.step(DT)

    space, prain = pymunk_rain(rows, columns, group, grid_count)

    def theirs(k):
        prain.update(k)
        space.step(DT)

    engines = {"ours": ours, "pymunk": theirs}
    if box2d:
        b2world, brain = b2_rain(rows, columns, group, grid_count)

        def box(k):
            brain.update(k)
            b2world.step(DT, 4)
        engines["box2d"] = box
    most = rows * columns * group
    return engines, f"ragdoll rain {rows}x{columns}x{group} (up to {most} ragdolls, {11 * most} bodies)"


def report(title, times, chunks):
    """Per engine the median ms/step, and the mean: the median leaves out the few steps
    that make or remove bodies (the rain's every eighth step), the mean counts them, as
    Box2D's benchmark (a total time) does."""
    print(f"## {title}")
    ours = np.array(chunks["ours"])
    for name in times:
        ms = 1e3 * statistics.median(times[name])
        mean = 1e3 * statistics.fmean(times[name])
        line = f"  {name:<7} {ms:8.3f} ms/step (min {1e3 * min(times[name]):.3f}, mean {mean:.3f})"
        if name != "ours":
            r = ours / np.array(chunks[name])
            q1, q2, q3 = np.percentile(r, [25, 50, 75])
            line += f"   ours/{name} {statistics.median(times['ours']) / statistics.median(times[name]):.2f}" \
                    f" (chunks: median {q2:.2f}, 25-75 % {q1:.2f}-{q3:.2f};" \
                    f" means {statistics.fmean(times['ours']) / statistics.fmean(times[name]):.2f})"
        print(line, flush=True)
    print()


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.joints", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--grid", type=int, default=100, help="joint_grid side (100, Box2D's)")
    p.add_argument("--rain", default="2,10,5",
                   help="rows,columns,group of the rain (Box2D's: 5,40,5; default 2,10,5)")
    p.add_argument("--platform", type=int, default=200, help="boxes per platform, less one (Box2D: 500)")
    p.add_argument("--steps", type=int, default=60, help="timed steps per scene (60)")
    p.add_argument("--warmup", type=int, default=5, help="untimed steps first (5)")
    p.add_argument("--chunk", type=int, default=10, help="steps per engine per turn (10)")
    p.add_argument("--only", choices=("grid", "rain"), help="one scene only")
    args = p.parse_args(argv)
    rows, columns, group = (int(x) for x in args.rain.split(","))
    box2d = has_box2d()
    import pymunk
    print(f"engine vs pymunk {pymunk.version}" + (" vs Box2D v3 (pyb2d3)" if box2d else " (pyb2d3 absent)")
          + f" | Python {sys.version.split()[0]} | {os.cpu_count()} CPUs, load "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    print(f"{args.steps} timed steps after {args.warmup}, in turns of {args.chunk}; sleeping off; one thread\n")
    if args.only != "rain":
        engines, title = grid_engines(args.grid, box2d)
        report(title, *run(engines, args.steps, args.warmup, args.chunk))
    if args.only != "grid":
        engines, title = rain_engines(rows, columns, group, box2d, args.platform)
        # the rain fills up over columns * 8 steps: time from the start, as Box2D does
        report(title, *run(engines, max(args.steps, 8 * columns), 1, args.chunk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
