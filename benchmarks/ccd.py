"""Continuous collision: who lets bullets through, what the bullets scene costs, and what
the sweep stage costs a scene with no fast bodies.

Run from the repository root::

    python -m benchmarks.ccd            # about a minute
    python -m benchmarks.ccd --quick

1. **Tunnelling**: ``engine.scenes.bullets`` (50 balls of radius 0.1 at 300 m/s, arrivals
   spread over one step) against a 0.1 m wall that is static, or dynamic with density
   1000, in both engines built from the same data; how many balls end beyond the wall.
2. **ms/step** of the bullets scene (static wall), both engines interleaved in the same
   run, as ``python -m benchmarks`` does.
3. **Stage cost**: ms/step of rain2000 and pyramid40 in this engine with the
   continuous stage and without it (``engine.world.stages.continuous`` replaced by a
   no-op while the second world steps),
   interleaved; the issue's budget is 10 % of the step.
"""
import argparse
import statistics
import time

from engine import scenes

from .pymunk_scene import build_space

DT = 1.0 / 60.0


def tunnel_counts(steps=90):
    rows = []
    for wall in ("static", "dynamic"):
        scene = scenes.bullets(50, 300.0, wall=wall)
        world, bodies = scene.build()
        space, pm_bodies = build_space(scene, mixing=world.mixing)
        for _ in range(steps):
            world.step(DT)
            space.step(DT)
        ours = sum(b.position[0] > bodies[0].position[0] for b in bodies[1:])
        theirs = sum(b.position.x > pm_bodies[0].position.x for b in pm_bodies[1:])
        rows.append((wall, ours, theirs))
    return rows


def _interleaved(a, b, steps, chunk=10):
    ta, tb = [], []
    flip = False
    clock = time.perf_counter
    for _ in range(0, steps, chunk):
        pair = [(a, ta), (b, tb)]
        for step, out in (reversed(pair) if flip else pair):
            for _ in range(chunk):
                t0 = clock()
                step(DT)
                out.append(clock() - t0)
        flip = not flip
    return 1e3 * statistics.median(ta), 1e3 * statistics.median(tb)


def bullets_step(steps):
    scene = scenes.bullets(50, 300.0)
    world, _ = scene.build()
    space, _ = build_space(scene, mixing=world.mixing)
    world.step(DT)
    space.step(DT)
    return _interleaved(world.step, space.step, steps)


def without_stage(world, *names):
    """``world.step`` with the named stages of ``engine.world.stages`` made no-ops."""
    from engine.world import stages

    real = {name: getattr(stages, name) for name in names}

    def step(dt):
        for name in names:
            setattr(stages, name, lambda *args: None)
        try:
            world.step(dt)
        finally:
            for name, fn in real.items():
                setattr(stages, name, fn)
    return step


def stage_cost(name, scene, steps, warmup):
    with_ccd, _ = scene.build()
    without, _ = scene.build()
    skip = without_stage(without, "continuous")
    for _ in range(warmup):
        with_ccd.step(DT)
        skip(DT)
    return _interleaved(with_ccd.step, skip, steps)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer steps (smoke test)")
    args = p.parse_args(argv)
    steps = 40 if args.quick else 300
    print("bullets through a 0.1 m wall (of 50, 300 m/s):")
    for wall, ours, theirs in tunnel_counts():
        print(f"  {wall:8s} wall   engine {ours:2d}   pymunk {theirs:2d}")
    ours, theirs = bullets_step(steps)
    print(f"bullets50 ms/step: engine {ours:.3f}  pymunk {theirs:.3f}  ratio {ours / theirs:.2f}")
    for name, scene, warmup in (("rain2000", scenes.rain(2000, 1000), 10 if args.quick else 100),
                                ("pyramid40", scenes.pyramid(40), 10)):
        on, off = stage_cost(name, scene, steps, warmup)
        print(f"{name} ms/step: with the continuous stage {on:.3f}, without {off:.3f} "
              f"({100 * (on - off) / off:+.1f} %)")


if __name__ == "__main__":
    main()
