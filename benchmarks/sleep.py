"""What sleeping costs and saves in the engine: sections ``settling`` and ``asleep`` of
``python -m benchmarks``.

settling  pyramid40 from its first step for ``seconds`` (2 s), one world with sleeping on and one
          with it off, stepped in alternating chunks, ``reps`` fresh pairs of worlds. While the
          sleeping world has awake bodies its extra time is the island bookkeeping (union-find
          over touching contacts and joints, sleep timers); the issue's target is at most +15 %
          (Box2D: +9 to +17 %). Steps after the pyramid falls asleep are reported apart.
asleep    pyramid40 stepped until every body sleeps, timed against the same pyramid awake
          (sleeping off, stepped as long), interleaved: a sleeping world's step as a fraction of
          the awake one (target at most 2 %; Box2D v3: about 0.05 %). Box2D is measured the
          same way when ``pyb2d3`` is installed.
"""
import statistics
import time

from engine import scenes

from .box2d_scene import SUBSTEPS, b2_awake_count, build_b2world
from .peers import DT, chunk_ratios, run

__all__ = ["bench_settling", "bench_asleep", "print_sleep_sections"]


def _warm_kernels():
    """Compile the step and island kernels (a small pyramid, falling asleep) before any timing."""
    for sleeping in (True, False):
        world, _ = scenes.pyramid(3).build(sleeping=sleeping)
        for _ in range(90):
            world.step(DT)


def _settle_once(base, steps, chunk):
    """One pair of fresh worlds stepped alternately: (on times, off times, first asleep step)."""
    on, _ = scenes.pyramid(base).build(sleeping=True)
    off, _ = scenes.pyramid(base).build(sleeping=False)
    worlds = [("on", on), ("off", off)]
    times = {"on": [], "off": []}
    asleep_at = None
    clock = time.perf_counter
    for turn, k0 in enumerate(range(0, steps, chunk)):
        for name, world in (worlds if turn % 2 == 0 else worlds[::-1]):
            for k in range(k0, min(k0 + chunk, steps)):
                t0 = clock()
                world.step(DT)
                times[name].append(clock() - t0)
                if name == "on" and asleep_at is None and world.awake_body_count == 0:
                    asleep_at = k + 1
    return times["on"], times["off"], asleep_at


def bench_settling(reps=5, seconds=2.0, chunk=10, base=40):
    """Our step with sleeping on against off while pyramid``base`` settles from its start.

    Returns a dict: ``steps``, ``asleep_at`` (per rep; None if still awake), ``on_ms`` /
    ``off_ms`` (medians of the steps before it fell asleep, pooled over reps), ``ratio`` (of
    those medians), ``spread`` (25/50/75 % of per-chunk ratios before sleep), ``total_ratio``
    (summed time of those steps, on / off), ``after`` ((on, off) ms medians once asleep, or None).
    """
    _warm_kernels()
    steps = int(round(seconds / DT))
    on_set, off_set, on_after, off_after, c_on, c_off, asleep = [], [], [], [], [], [], []
    for _ in range(reps):
        on, off, asleep_at = _settle_once(base, steps, chunk)
        asleep.append(asleep_at)
        cut = asleep_at if asleep_at is not None else steps
        on_set += on[:cut]
        off_set += off[:cut]
        on_after += on[cut:]
        off_after += off[cut:]
        for k0 in range(0, cut - chunk + 1, chunk):  # whole chunks before the pyramid slept
            c_on.append(statistics.median(on[k0:k0 + chunk]))
            c_off.append(statistics.median(off[k0:k0 + chunk]))
    on_ms, off_ms = 1e3 * statistics.median(on_set), 1e3 * statistics.median(off_set)
    after = None
    if on_after:
        after = (1e3 * statistics.median(on_after), 1e3 * statistics.median(off_after))
    return {"scene": f"pyramid{base}", "steps": steps, "reps": reps, "asleep_at": asleep,
            "on_ms": on_ms, "off_ms": off_ms, "ratio": on_ms / off_ms,
            "spread": chunk_ratios(c_on, c_off) if c_on else (float("nan"),) * 3,
            "total_ratio": sum(on_set) / sum(off_set), "after": after}


def _until_asleep(step, awake, limit, every=1):
    """Step until ``awake()`` is 0 (checked every ``every`` steps); returns the steps taken or None."""
    for k in range(1, limit + 1):
        step()
        if k % every == 0 and awake() == 0:
            return k
    return None


def _asleep_vs_awake(step_asleep, step_awake, steps, chunk):
    times, chunks = run({"asleep": lambda k: step_asleep(), "awake": lambda k: step_awake()},
                        steps, 0, chunk)
    asleep_ms = 1e3 * statistics.median(times["asleep"])
    awake_ms = 1e3 * statistics.median(times["awake"])
    return {"asleep_ms": asleep_ms, "awake_ms": awake_ms, "ratio": asleep_ms / awake_ms,
            "spread": chunk_ratios(chunks["asleep"], chunks["awake"])}


def bench_asleep(steps=300, chunk=10, box2d=False, base=40, limit=1200):
    """ms/step of a fully asleep pyramid``base`` against the same pyramid awake, per engine.

    Returns ``{engine: dict}`` with ``slept_at`` (steps until every body slept), ``asleep_ms``,
    ``awake_ms``, ``ratio`` (asleep / awake medians), ``spread`` (per-chunk ratios 25/50/75 %),
    ``still_asleep``; or ``{engine: {"slept_at": None}}`` when it did not sleep within ``limit``.
    """
    _warm_kernels()
    out = {}
    scene = scenes.pyramid(base)
    on, _ = scene.build(sleeping=True)
    off, _ = scene.build(sleeping=False)
    slept = _until_asleep(lambda: on.step(DT), lambda: on.awake_body_count, limit)
    if slept is None:
        out["ours"] = {"slept_at": None}
    else:
        for _ in range(slept):
            off.step(DT)
        out["ours"] = _asleep_vs_awake(lambda: on.step(DT), lambda: off.step(DT), steps, chunk)
        out["ours"].update(slept_at=slept, still_asleep=on.awake_body_count == 0)
    if box2d:
        b_on, bodies = build_b2world(scene, sleeping=True)
        b_off, _ = build_b2world(scene, sleeping=False)
        slept = _until_asleep(lambda: b_on.step(DT, SUBSTEPS), lambda: b2_awake_count(bodies), limit, 10)
        if slept is None:
            out["box2d"] = {"slept_at": None}
        else:
            for _ in range(slept):
                b_off.step(DT, SUBSTEPS)
            out["box2d"] = _asleep_vs_awake(lambda: b_on.step(DT, SUBSTEPS),
                                            lambda: b_off.step(DT, SUBSTEPS), steps, chunk)
            out["box2d"].update(slept_at=slept, still_asleep=b2_awake_count(bodies) == 0)
    return out


def print_sleep_sections(sections, reps, steps, chunk, box2d, table):
    """Print the ``settling`` and ``asleep`` sections (``table`` formats rows as ``step.py`` does)."""
    if "settling" in sections:
        s = bench_settling(reps=reps, chunk=chunk)
        print(f"## Settling: {s['scene']} from its start for {s['steps']} steps (2 s), ours with "
              f"sleeping on vs off, interleaved in chunks of {chunk}, {s['reps']} fresh pairs")
        print(f"  fell asleep at step {', '.join(str(a) for a in s['asleep_at'])} "
              f"(None: still awake); timed below: the steps before")
        lo, mid, hi = s["spread"]
        print(table(["", "on ms/step", "off ms/step", "on/off (chunks 25-75 %)", "on/off total time"],
                    [("while settling", f"{s['on_ms']:.3f}", f"{s['off_ms']:.3f}",
                      f"{s['ratio']:.3f} ({lo:.3f}-{hi:.3f})", f"{s['total_ratio']:.3f}")]))
        print(f"  island bookkeeping while it settles: {100 * (s['ratio'] - 1):+.1f} % "
              f"(target at most +15 %; Box2D +9 to +17 %)")
        if s["after"]:
            print(f"  after it slept: on {1e3 * s['after'][0]:.1f} us/step, off {s['after'][1]:.3f} ms/step")
        print()
    if "asleep" in sections:
        a = bench_asleep(steps=steps, chunk=chunk, box2d=box2d)
        print(f"## Asleep: pyramid40 stepped until every body sleeps, then {steps} steps asleep "
              f"against the same pyramid awake (sleeping off), interleaved in chunks of {chunk}")
        rows = []
        for name, r in a.items():
            if r["slept_at"] is None:
                rows.append((name, "never slept", "", "", "", ""))
                continue
            lo, _, hi = r["spread"]
            rows.append((name, r["slept_at"], f"{1e3 * r['asleep_ms']:.2f}", f"{r['awake_ms']:.3f}",
                         f"{100 * r['ratio']:.2f} % ({100 * lo:.2f}-{100 * hi:.2f})",
                         "yes" if r["still_asleep"] else "NO"))
        print(table(["engine", "asleep at step", "asleep us/step", "awake ms/step",
                     "asleep/awake (chunks 25-75 %)", "still asleep"], rows))
        print("  target: ours at most 2 % of the awake step (Box2D v3: about 0.05 %); Box2D's sleep is "
              "checked every 10 steps\n")
