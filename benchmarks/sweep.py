"""``engine.sweep`` on a LocalCluster against the same sweep in this process (docs/sweep.md).

Run from the repository root (needs ``dask[distributed]``, the ``dask`` or ``test`` extra)::

    python -m benchmarks.sweep                      # 200 points, 600 steps, 5 repetitions
    python -m benchmarks.sweep --points 50 --reps 2 # quicker

The sweep: a ball dropped from 5 m onto the ground, both of restitution ``e``, for ``e`` from
0 to 1 (``--points`` values), each world stepped ``--steps`` times at 1/60 s and measured
(height, vertical speed and the top of the flight it is in). Sleeping is off so that every
world costs about the same (about 30 ms for 600 steps on a quiet 2-core machine); the
batches are strided anyway (``engine/sweep.py``), which evens out costlier parameter sets.

Timed, ``--reps`` times, the two taking turns (each repetition starting with the other one):
``sweep(..., client="serial")`` in this process and ``sweep(..., client=client)`` on a
LocalCluster of ``--workers`` single-threaded worker processes, started before the timing
and warmed (``client.run``: every worker imports the engine and loads its compiled kernels,
about a second). Printed: the times, the speed-up (ratio of the medians, and the range of
the per-repetition ratios), whether the tables are identical byte for byte, and once, the
end-to-end time of ``sweep(...)`` with no client (starting and closing its own cluster).
The load average before and after is printed too: on a shared machine another process
takes cores from both sides, unevenly.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

from engine import scenes, sweep

__all__ = ["bench_sweep", "main"]

G = 10.0
RADIUS = 0.25


def drop(e):
    """A ball dropped from 5 m onto the ground, both of restitution ``e``, sleeping off."""
    return scenes.restitution_drop(e, radius=RADIUS).build(sleeping=False)[0]


def bounce(world):
    """Height and vertical speed of the ball, and the top of the flight it is in."""
    y, vy = float(world.positions[1, 1]), float(world.velocities[1, 1])
    return {"y": y, "vy": vy, "apex": y - RADIUS + vy * vy / (2 * G)}


def warm():
    """Import the engine and load the kernels a drop uses (in a worker, or here)."""
    world = drop(0.5)
    for _ in range(90):
        world.step(1 / 60)
    return True


def bench_sweep(points=200, steps=600, reps=5, workers=2, cold=True):
    """Times of the serial and the cluster sweep; a dict (see :func:`main` for the fields)."""
    import distributed

    params = np.linspace(0.0, 1.0, points).tolist()
    warm()
    t0 = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address="127.0.0.1:0")
    client = distributed.Client(cluster)
    client.run(warm)
    startup = time.perf_counter() - t0
    load = [os.getloadavg()[0]]
    times = {"serial": [], "cluster": []}
    identical = True
    try:
        for rep in range(reps):
            turns = [("serial", "serial"), ("cluster", client)]
            tables = {}
            for name, where in turns if rep % 2 == 0 else turns[::-1]:
                t = time.perf_counter()
                tables[name] = sweep(drop, params, steps, bounce, client=where, progress=False)
                times[name].append(time.perf_counter() - t)
            identical &= tables["serial"].tobytes() == tables["cluster"].tobytes()
    finally:
        client.close()
        cluster.close()
    load.append(os.getloadavg()[0])
    end_to_end = None
    if cold:
        t = time.perf_counter()
        table = sweep(drop, params, steps, bounce, progress=False)
        end_to_end = time.perf_counter() - t
        identical &= table.tobytes() == tables["serial"].tobytes()
    ratios = [s / c for s, c in zip(times["serial"], times["cluster"])]
    return {"points": points, "steps": steps, "workers": workers, "startup": startup, "times": times,
            "ratio": statistics.median(times["serial"]) / statistics.median(times["cluster"]),
            "ratios": ratios, "identical": identical, "end_to_end": end_to_end, "load": load,
            "table": tables["serial"]}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200, help="restitution values from 0 to 1")
    parser.add_argument("--steps", type=int, default=600, help="steps per world (1/60 s each)")
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions of each mode")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    parser.add_argument("--no-cold", action="store_true", help="skip the end-to-end run with no client")
    args = parser.parse_args(argv)
    r = bench_sweep(args.points, args.steps, args.reps, args.workers, cold=not args.no_cold)
    s, c = r["times"]["serial"], r["times"]["cluster"]
    per_world = 1e3 * statistics.median(s) / r["points"]
    print(f"## engine.sweep: {r['points']} restitutions x {r['steps']} steps "
          f"({per_world:.1f} ms per world serially), {os.cpu_count()} cores")
    print(f"  cluster of {r['workers']} workers started and warmed in {r['startup']:.1f} s (not timed below)")
    print(f"  serial  s: {', '.join(f'{t:.2f}' for t in s)}  (median {statistics.median(s):.2f})")
    print(f"  cluster s: {', '.join(f'{t:.2f}' for t in c)}  (median {statistics.median(c):.2f})")
    print(f"  speed-up: {r['ratio']:.2f}x (ratio of the medians; per repetition "
          f"{min(r['ratios']):.2f}-{max(r['ratios']):.2f}: {', '.join(f'{x:.2f}' for x in r['ratios'])})")
    if r["end_to_end"] is not None:
        print(f"  end to end with no client (starts and closes its own LocalCluster): {r['end_to_end']:.2f} s")
    print(f"  tables identical byte for byte: {'yes' if r['identical'] else 'NO'}")
    print(f"  load average (1 min) before and after the timed runs: {r['load'][0]:.2f}, {r['load'][1]:.2f}")
    apex = r["table"]["apex"]
    print(f"  bounce (apex) at e = 0, 0.5, 1: {apex[0]:.3f}, {apex[len(apex) // 2]:.3f}, {apex[-1]:.3f} m")
    return 0 if r["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
