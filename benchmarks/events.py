"""What contact events cost: rain2000 and pyramid40 stepped with the events stages and
without them, over the same steps.

Run from the repository root::

    python -m benchmarks.events            # about two minutes
    python -m benchmarks.events --quick

The events are the ``touching`` stage (which shape pairs touch, begun and ended since
the last step) and the ``events`` stage (the begin, end and hit arrays). One world steps
through the scene; at each chunk of ``--chunk`` steps it is snapshotted, the chunk is
timed as the world steps, the world is restored, and the same chunk is timed again with
those two stages made no-ops (the order alternating from chunk to chunk). Both runs do
the same physics (the events only read it: the state hashes after the two runs are
checked to be equal), so the ratio of each pair of chunks is the events' cost on exactly
the same work, free of the drift of a scene whose cost changes from step to step. The
issue's budget is 5 % of the step. Before that, the two stages are timed from inside the
step over as many steps (their own time against the whole step's): a lower bound that
leaves out what they cost the stages after them (memory traffic), and much less noisy. Printed: the median per-chunk cost with its 25-75 %
and full range, and the events a step.
"""
import argparse
import statistics
import time

from engine import scenes

from .ccd import DT, without_stage


def paired_cost(world, chunks, chunk):
    """Per-chunk ``(with, without)`` seconds per step over the same steps of ``world``."""
    skip = without_stage(world, "touching", "events")
    clock = time.perf_counter
    snap = None
    pairs = []
    for c in range(chunks):
        snap = world.snapshot(out=snap)
        times = {}
        order = [("on", world.step), ("off", skip)]
        for k, (name, step) in enumerate(reversed(order) if c % 2 else order):
            if k:
                world.restore(snap)
            t0 = clock()
            for _ in range(chunk):
                step(DT)
            times[name] = (clock() - t0) / chunk
            times[name + "_hash"] = world.state_hash()
        assert times["on_hash"] == times["off_hash"], "the events changed the physics"
        pairs.append((times["on"], times["off"]))
    return pairs


def direct_share(world, steps):
    """Per step, the time spent inside the two events stages over the step's time, in %."""
    from engine.world import stages

    spent = [0.0]
    real = {name: getattr(stages, name) for name in ("touching", "events")}

    def timed(fn):
        def stage(*args):
            t0 = time.perf_counter()
            fn(*args)
            spent[0] += time.perf_counter() - t0
        return stage

    shares = []
    try:
        for name, fn in real.items():
            setattr(stages, name, timed(fn))
        for _ in range(steps):
            spent[0] = 0.0
            t0 = time.perf_counter()
            world.step(DT)
            shares.append(100.0 * spent[0] / (time.perf_counter() - t0))
    finally:
        for name, fn in real.items():
            setattr(stages, name, fn)
    return shares


def _quartiles(values):
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer steps (smoke test)")
    p.add_argument("--warmup", type=int, default=60, help="steps before timing (60)")
    p.add_argument("--chunks", type=int, default=40, help="paired chunks (40)")
    p.add_argument("--chunk", type=int, default=8, help="steps per chunk (8)")
    args = p.parse_args(argv)
    if args.quick:
        args.warmup, args.chunks, args.chunk = 10, 4, 4
    for name, scene in (("rain2000", scenes.rain(2000, 1000)), ("pyramid40", scenes.pyramid(40))):
        world, _ = scene.build()
        world.sleeping = False  # an asleep pyramid would time nothing
        events = 0
        for _ in range(args.warmup):
            world.step(DT)
            events += len(world.contact_events.begin) + len(world.contact_events.end)
        shares = direct_share(world, args.chunks * args.chunk)
        lo, mid, hi = _quartiles(shares)
        print(f"{name}: the two stages' own time is {mid:.2f} % of a step (25-75 %: {lo:.2f} to "
              f"{hi:.2f}; {len(shares)} steps)")
        pairs = paired_cost(world, args.chunks, args.chunk)
        costs = [100.0 * (on - off) / off for on, off in pairs]
        lo, mid, hi = _quartiles(costs)
        on = statistics.median(p[0] for p in pairs) * 1e3
        off = statistics.median(p[1] for p in pairs) * 1e3
        print(f"{name}: {on:.3f} ms/step with events, {off:.3f} without; events cost "
              f"{mid:+.1f} % of a step (25-75 %: {lo:+.1f} to {hi:+.1f}; range "
              f"{min(costs):+.1f} to {max(costs):+.1f}; {len(pairs)} pairs of {args.chunk} "
              f"steps); {events / max(args.warmup, 1):.1f} begin+end events a step while "
              "warming up")


if __name__ == "__main__":
    main()
