"""Cost of a snapshot and a restore against the cost of a step (issue #18).

Run from the repository root::

    python -m benchmarks.snapshot             # rain2000 and tumbler2025, 9 rounds
    python -m benchmarks.snapshot --rounds 15

Each scene is stepped 100 times first. Then, in every round and interleaved, one step, one
``world.snapshot(out=ring_slot)`` into a reused snapshot (a rollback ring allocates
nothing once warm), a fresh ``world.snapshot()`` and one ``world.restore``. The world
is restored to the round's snapshot afterwards, so every round times the same frame.
Reported: medians in ms, and the ratio (snapshot into the ring + restore) / step with its
range over the rounds; ``snap.nbytes``.
"""
import argparse
import statistics
import time

from engine import scenes


def _time(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def measure(world, rounds):
    """Per round: (step, snapshot into a ring slot, fresh snapshot, restore) in seconds."""
    for _ in range(100):
        world.step(1 / 60)
    ring = world.snapshot()
    out = []
    for _ in range(rounds):
        base = world.snapshot(out=ring)
        step = _time(lambda: world.step(1 / 60))
        world.restore(base)
        into = _time(lambda: world.snapshot(out=ring))
        fresh = _time(world.snapshot)
        world.step(1 / 60)
        restore = _time(lambda: world.restore(ring))
        out.append((step, into, fresh, restore))
    return out, ring.nbytes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    builds = {"rain2000": lambda: scenes.rain(2000, 1000).build()[0],
              "tumbler2025": lambda: scenes.tumbler(2025, size=40.0).build()[0]}
    print(f"{'scene':12} {'step ms':>8} {'snap ms':>8} {'fresh ms':>9} {'restore ms':>11} "
          f"{'(snap+restore)/step':>20} {'nbytes':>11}")
    for name, build in builds.items():
        rows, nbytes = measure(build(), args.rounds)
        step, into, fresh, restore = (statistics.median(c) * 1e3 for c in zip(*rows))
        ratios = sorted((r[1] + r[3]) / r[0] for r in rows)
        print(f"{name:12} {step:8.3f} {into:8.3f} {fresh:9.3f} {restore:11.3f} "
              f"{statistics.median(ratios):8.3f} [{ratios[0]:.3f}-{ratios[-1]:.3f}] {nbytes:11,}")


if __name__ == "__main__":
    main()
