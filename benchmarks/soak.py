"""Soak: long runs that must not drift, gain energy, leak memory or slow down (issue #19).

Not a CI test: a script, run from the repository root::

    python -m benchmarks.soak                          # 10^6 pyramid steps, 10^5 churn steps (hours)
    python -m benchmarks.soak --steps 20000 --churn-steps 20000    # a few minutes

Two scenes:

pyramid  a pyramid settles for ``--settle`` steps; its kinetic energy then (the largest over
         the last 100 settling steps) is the *settled* value. Then ``--steps`` steps, each
         checked: no NaN or infinity in the body state, kinetic energy never above the settled
         value by more than 1e-9 J. Resident memory (``VmRSS``) is sampled every 1000 steps
         and must stay within 1 MB of its value after the first 1000.
churn    one body created and one destroyed every step (``--alive`` bodies alive, boxes and
         circles in turn, dropped onto a ground), ``--churn-steps`` steps: resident memory
         within 1 MB of its value after ``--alive`` + 1000 steps, and the median time of the
         last 1000 steps (create + destroy + step) within ``--slowdown`` times that of the
         first 1000 after the same warm-up.

Exits with status 1 if a check fails. Prints the figures either way.
"""
import argparse
import sys
import time

import numpy as np

from engine import Circle, Polygon, World, scenes

MB = 1 << 20


def rss():
    """Resident set size of this process in bytes (Linux ``/proc``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def kinetic_energy(world, mass, inertia):
    """Total kinetic energy in J, from the bodies' (constant) masses and inertias."""
    v, w = world.velocities, world.angular_velocities
    return 0.5 * float((mass * (v * v).sum(axis=1)).sum() + (inertia * w * w).sum())


def finite(world):
    return all(np.isfinite(a).all() for a in (world.positions, world.angles, world.velocities,
                                               world.angular_velocities))


def soak_pyramid(base, settle, steps, dt=1 / 60, sleeping=False):
    """The pyramid checks; returns (ok, figures). Sleeping is off by default: an asleep
    pyramid would not move, and the checks would check nothing."""
    world, _ = scenes.pyramid(base).build(sleeping=sleeping)
    bodies = world.bodies
    mass = np.array([b.mass for b in bodies])
    inertia = np.array([b.inertia for b in bodies])
    recent = []
    for i in range(settle):
        world.step(dt)
        recent.append(kinetic_energy(world, mass, inertia))
    settled = max(recent[-100:])
    worst, nan_at = -np.inf, None
    memory = np.zeros(steps // 1000)  # preallocated, as the churn's records (see there)
    for i in range(steps):
        world.step(dt)
        worst = max(worst, kinetic_energy(world, mass, inertia) - settled)
        if nan_at is None and not finite(world):
            nan_at = i
        if i % 1000 == 999:
            memory[i // 1000] = rss()
    growth = (memory.max() - memory[0]) / MB if memory.size else 0.0
    ok = nan_at is None and worst <= 1e-9 and growth <= 1.0
    return ok, {"boxes": len(bodies) - 1, "steps": steps, "settled_ke_J": settled,
                "max_ke_above_settled_J": worst, "first_nan_step": nan_at, "rss_growth_MB": growth}


def soak_churn(steps, alive, slowdown, dt=1 / 60):
    """The spawn-and-despawn checks; returns (ok, figures)."""
    world = World()
    world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)))
    shapes = [Polygon.box(0.5, 0.5), Circle(0.3)]
    live = []
    # The records are preallocated: appending a Python float per step to a list grew
    # this process by 32 bytes a step (3.2 MB over 10^5 steps), which the memory check
    # then blamed on the engine.
    times = np.zeros(steps)
    memory = np.zeros((steps + 999) // 1000)
    warm = alive + 1000
    for i in range(warm + steps):
        t0 = time.perf_counter()
        body = world.create_body(position=(i % 30 - 15.0, 8.0 + (i % 7)))
        body.add_shape(shapes[i % 2])
        live.append(body)
        if len(live) > alive:
            world.destroy_body(live.pop(0))
        world.step(dt)
        if i >= warm:
            times[i - warm] = time.perf_counter() - t0
            if (i - warm) % 1000 == 0:
                memory[(i - warm) // 1000] = rss()
    first, last = np.median(times[:1000]), np.median(times[-1000:])
    growth = (memory.max() - memory[0]) / MB
    ok = growth <= 1.0 and last <= slowdown * first and finite(world)
    return ok, {"steps": steps, "alive": alive, "first_1000_median_ms": 1e3 * first,
                "last_1000_median_ms": 1e3 * last, "ratio": last / first, "rss_growth_MB": growth}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", type=int, default=20, help="pyramid base (boxes in the bottom row)")
    p.add_argument("--settle", type=int, default=1200, help="settling steps before the checks")
    p.add_argument("--steps", type=int, default=1_000_000, help="checked pyramid steps")
    p.add_argument("--sleeping", action="store_true",
                   help="let the pyramid sleep (off: it stays awake and is checked every step)")
    p.add_argument("--churn-steps", type=int, default=100_000, help="spawn-and-despawn steps")
    p.add_argument("--alive", type=int, default=100, help="bodies alive in the churn scene")
    p.add_argument("--slowdown", type=float, default=1.25,
                   help="largest allowed ratio of the last 1000 churn steps' median time to the first's")
    args = p.parse_args(argv)
    ok = True
    runs = []  # each scene runs and reports in turn (a 0 count skips it)
    if args.steps:
        runs.append(("pyramid", lambda: soak_pyramid(args.base, args.settle, args.steps,
                                                     sleeping=args.sleeping)))
    if args.churn_steps:
        runs.append(("churn", lambda: soak_churn(args.churn_steps, args.alive, args.slowdown)))
    for name, run in runs:
        passed, figures = run()
        ok &= passed
        print(f"{name}: {'ok' if passed else 'FAILED'}", flush=True)
        for key, value in figures.items():
            print(f"  {key}: {value:.4g}" if isinstance(value, float) else f"  {key}: {value}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
