"""What contact events cost: rain2000 stepped with the events stages and without them.

Run from the repository root::

    python -m benchmarks.events            # about a minute
    python -m benchmarks.events --quick

Two copies of rain2000 (``engine.scenes.rain(2000, 1000)``) step side by side, interleaved
in chunks (``benchmarks.ccd._interleaved``): one as the world steps, one with the
``touching`` and ``events`` stages made no-ops. The difference of the medians is what the
begin/end/hit arrays cost a step; the issue's budget is 5 % of the step. The count of
events per step is printed too.
"""
import argparse

from engine import scenes

from .ccd import DT, _interleaved, without_stage


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer steps (smoke test)")
    args = p.parse_args(argv)
    steps, warmup = (40, 10) if args.quick else (400, 100)
    for name, scene in (("rain2000", scenes.rain(2000, 1000)), ("pyramid40", scenes.pyramid(40))):
        with_events, _ = scene.build()
        without, _ = scene.build()
        skip = without_stage(without, "touching", "events")
        events = 0
        for _ in range(warmup):
            with_events.step(DT)
            skip(DT)
            events += len(with_events.contact_events.begin) + len(with_events.contact_events.end)
        on, off = _interleaved(with_events.step, skip, steps)
        print(f"{name}: {on:.3f} ms/step with events, {off:.3f} without: events cost "
              f"{on - off:+.3f} ms ({100 * (on - off) / off:+.1f} %); "
              f"{events / warmup:.1f} begin+end events a step while warming up")


if __name__ == "__main__":
    main()
