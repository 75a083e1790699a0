"""Ray casts: this engine's ``World.ray_cast`` and ``World.ray_cast_many`` against pymunk's
``Space.segment_query_first`` on the same scene.

Run from the repository root::

    python -m benchmarks.queries            # about a minute after the kernels are compiled
    python -m benchmarks.queries --quick

The scene is rain2000 (``engine.scenes.rain(2000, 1000)``: 3000 bodies in a 40 m wide
container), built in both engines from the same data (``benchmarks/pymunk_scene.py``) and
stepped ``--steps`` times (120: the pile has landed). pymunk's bodies are then placed at
this engine's poses (and reindexed), so both answer the same question; the answers are
compared (same shape hit, fraction within 1e-9).

Rays: ``--rays`` (10,000) from points uniform in the container's lower half
(x in [-20, 20], y in [0, 20]) that no shape holds, in uniform random directions,
``--length`` (10 m) long; most of them start among the bodies. (From inside a shape the
two engines answer different questions: pymunk reports that shape at alpha 0, this
engine the first surface the ray enters, as Box2D's ``b2World_CastRayClosest``.) pymunk
is called with radius 0 and the default ``ShapeFilter()``; this engine with no filter.

1. **Single rays**: calls per second of ``world.ray_cast(start, end)`` and of
   ``space.segment_query_first(start, end, 0, filter)`` over the same rays, in chunks of
   ``--chunk`` rays, the two engines alternating (each round starting with the other),
   ``--rounds`` rounds. Reported: the median rate of each, and the median ratio of
   paired chunks with its lowest and highest.
2. **Many rays**: one ``world.ray_cast_many(starts, ends)`` call against a Python loop of
   ``segment_query_first`` over the same rays, alternating, ``--rounds`` rounds; medians,
   and the ratio's median, lowest and highest.
3. **First query after a step**: the queries search a snapshot of the trees with exact
   boxes, built on the first query after the world changed (``world/query_forest.py``);
   after each of ``--rounds`` steps, the first ``ray_cast`` and a second one are timed
   (pymunk keeps its index up to date inside its step instead).
"""
import argparse
import math
import statistics
import time

import numpy as np
import pymunk

from engine import scenes

from .pymunk_scene import build_space

DT = 1.0 / 60.0


def setup(steps, count, length, seed):
    """The stepped scene in both engines, pymunk placed at our poses, and the rays."""
    scene = scenes.rain(2000, 1000)
    world, _ = scene.build()
    space, pm_bodies = build_space(scene, mixing=world.mixing)
    for _ in range(steps):
        world.step(DT)
        space.step(DT)
    for body, twin in zip(world.bodies, pm_bodies):
        twin.angle = body.angle  # before the position: pymunk turns a body about its COG
        twin.position = body.position
        space.reindex_shapes_for_body(twin)
    rng = np.random.default_rng(seed)
    starts = np.empty((0, 2))
    while len(starts) < count:  # starts in free space
        more = np.c_[rng.uniform(-20, 20, count), rng.uniform(0, 20, count)]
        free = [not world.query_point(tuple(p)) for p in more.tolist()]
        starts = np.concatenate([starts, more[free]])
    starts = starts[:count]
    angles = rng.uniform(0, 2 * math.pi, count)
    ends = starts + length * np.c_[np.cos(angles), np.sin(angles)]
    index = {s: k for k, s in enumerate(s for b in pm_bodies for s in b.shapes)}
    return world, space, index, starts, ends


def pymunk_loop(space, starts, ends):
    """pymunk's closest hit per ray: ``(shape, alpha)`` or None."""
    query = space.segment_query_first
    f = pymunk.ShapeFilter()
    return [query(a, b, 0.0, f) for a, b in zip(starts, ends)]


def check(world, index, starts, ends, theirs):
    """How many rays hit, and how many answers differ (shape or fraction beyond 1e-9)."""
    hits = world.ray_cast_many(starts, ends)
    differ = 0
    for k, info in enumerate(theirs):
        ours = int(hits.shape_id[k])
        if info is None:
            differ += ours != -1
        elif ours != index[info.shape] or abs(hits.fraction[k] - info.alpha) > 1e-9:
            differ += 1
    return int((hits.shape_id >= 0).sum()), differ


def _rates(run_ours, run_theirs, rounds):
    ours, theirs, ratios = [], [], []
    clock = time.perf_counter
    for r in range(rounds):
        pair = [run_ours, run_theirs]
        times = {}
        for fn in (reversed(pair) if r % 2 else pair):
            t0 = clock()
            fn()
            times[fn] = clock() - t0
        ours.append(times[run_ours])
        theirs.append(times[run_theirs])
        ratios.append(times[run_theirs] / times[run_ours])
    return ours, theirs, ratios


def bench_single(world, space, starts, ends, chunk, rounds):
    """Seconds per call of each engine over paired chunks of the same rays (round ``r``
    takes the ``r``-th chunk), and the ratios pymunk/ours."""
    s_list = [tuple(q) for q in starts.tolist()]
    e_list = [tuple(q) for q in ends.tolist()]
    f = pymunk.ShapeFilter()
    cast, query = world.ray_cast, space.segment_query_first

    def ours(a):
        for s, e in zip(s_list[a:a + chunk], e_list[a:a + chunk]):
            cast(s, e)

    def theirs(a):
        for s, e in zip(s_list[a:a + chunk], e_list[a:a + chunk]):
            query(s, e, 0.0, f)

    ours(0)  # compile and fill the caches first
    theirs(0)
    o, t, ratios = [], [], []
    clock = time.perf_counter
    for r in range(rounds):
        a = (r * chunk) % (len(s_list) - chunk + 1)
        order = [(ours, o), (theirs, t)]
        for fn, out in (reversed(order) if r % 2 else order):
            t0 = clock()
            fn(a)
            out.append((clock() - t0) / chunk)
        ratios.append(t[-1] / o[-1])
    return o, t, ratios


def bench_many(world, space, starts, ends, rounds):
    s_list = [tuple(p) for p in starts.tolist()]
    e_list = [tuple(p) for p in ends.tolist()]
    world.ray_cast_many(starts, ends)
    return _rates(lambda: world.ray_cast_many(starts, ends), lambda: pymunk_loop(space, s_list, e_list),
                  rounds)


def bench_first_after_step(world, starts, ends, rounds):
    """Median seconds of a step, of the first ray_cast after it and of the next one."""
    s, e = tuple(starts[0].tolist()), tuple(ends[0].tolist())
    steps, first, second = [], [], []
    clock = time.perf_counter
    for _ in range(rounds):
        t0 = clock()
        world.step(DT)
        steps.append(clock() - t0)
        t0 = clock()
        world.ray_cast(s, e)
        t1 = clock()
        world.ray_cast(s, e)
        first.append(t1 - t0)
        second.append(clock() - t1)
    return statistics.median(steps), statistics.median(first), statistics.median(second)


def _spread(values):
    return f"{statistics.median(values):.2f} (min {min(values):.2f}, max {max(values):.2f})"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.queries", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="1000 rays, 3 rounds")
    p.add_argument("--steps", type=int, default=120, help="steps before querying (120)")
    p.add_argument("--rays", type=int, default=10_000, help="rays (10000)")
    p.add_argument("--length", type=float, default=10.0, help="ray length in m (10)")
    p.add_argument("--chunk", type=int, default=1000, help="single rays per timed chunk (1000)")
    p.add_argument("--rounds", type=int, default=15, help="alternating rounds (15)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.quick:
        args.rays, args.rounds, args.chunk = 1000, 3, 200
    world, space, index, starts, ends = setup(args.steps, args.rays, args.length, args.seed)
    s_list = [tuple(q) for q in starts.tolist()]
    e_list = [tuple(q) for q in ends.tolist()]
    hit, differ = check(world, index, starts, ends, pymunk_loop(space, s_list, e_list))
    print(f"rain2000 after {args.steps} steps, {args.rays} rays of {args.length:g} m: "
          f"{hit} hit something; answers differing from pymunk's: {differ}")
    o, t, ratios = bench_single(world, space, starts, ends, min(args.chunk, args.rays), args.rounds)
    print(f"single rays ({args.rounds} rounds of {min(args.chunk, args.rays)} calls):")
    print(f"  world.ray_cast                 {1 / statistics.median(o):10,.0f} calls/s "
          f"({1e6 * statistics.median(o):.2f} us)")
    print(f"  pymunk segment_query_first     {1 / statistics.median(t):10,.0f} calls/s "
          f"({1e6 * statistics.median(t):.2f} us)")
    print(f"  ours faster by (pymunk time / ours): {_spread(ratios)}")
    o, t, ratios = bench_many(world, space, starts, ends, args.rounds)
    print(f"{args.rays} rays at once ({args.rounds} rounds):")
    print(f"  world.ray_cast_many            {1e3 * statistics.median(o):8.2f} ms "
          f"({1e9 * statistics.median(o) / args.rays:.0f} ns per ray)")
    print(f"  pymunk segment_query_first loop {1e3 * statistics.median(t):7.2f} ms")
    print(f"  ours faster by (pymunk time / ours): {_spread(ratios)}")
    step, first, second = bench_first_after_step(world, starts, ends, args.rounds)
    print(f"first ray_cast after a step {1e6 * first:.0f} us, the next one {1e6 * second:.1f} us "
          f"(the snapshot of the trees: {1e6 * (first - second):.0f} us; a step: {1e3 * step:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
