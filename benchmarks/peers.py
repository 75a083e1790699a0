"""Step time of the engine beside pymunk and Box2D v3 on the same scene, sleeping on or off.

Used by ``python -m benchmarks`` (section ``step``); the interleaving (:func:`run`) is shared with
``benchmarks/joints.py`` and ``benchmarks/sleep.py``.

Sleeping is set alike in every engine (``SLEEP_TEXT`` below): on, ours ``World(sleeping=True)`` (its
default), pymunk ``sleep_time_threshold = 0.5`` s and ``idle_speed_threshold = 0.05`` m/s, Box2D
``sleeping_enabled`` (its default; bodies' ``sleep_threshold`` 0.05 m/s, 0.5 s); off, ours
``sleeping=False``, pymunk's threshold infinite (its default), Box2D's sleeping disabled.
"""
import statistics
import time

import numpy as np

from engine import scenes

from .box2d_scene import SUBSTEPS, b2_awake_count, build_b2world
from .pymunk_scene import build_space

__all__ = ["DT", "SCENES", "run", "chunk_ratios", "bench_step", "step_table", "table", "SLEEP_TEXT"]

DT = 1.0 / 60.0
SCENES = {
    "pyramid20": lambda: scenes.pyramid(20),
    "pyramid40": lambda: scenes.pyramid(40),
    "rain2000": lambda: scenes.rain(2000, 1000),
    "idle2000": lambda: scenes.idle(2000),
    # Box2D's benchmark large_pyramid: base 100 (5050 boxes of 1 m on a 200 m ground), the
    # same positions as Box2D's CreateLargePyramid
    "large_pyramid": lambda: scenes.pyramid(100),
    # Box2D's other benchmarks without joints (engine/scenes: the same numbers as its
    # shared/benchmarks.c); the tumbler's container is kinematic in every engine
    "many_pyramids": lambda: scenes.many_pyramids(),
    "smash": lambda: scenes.smash(),
    "tumbler": lambda: scenes.box2d_tumbler(),
}
TIME_TO_SLEEP, SLEEP_SPEED = 0.5, 0.05
SLEEP_TEXT = {
    True: (f"sleeping ON in every engine: ours World(sleeping=True) (default); pymunk "
           f"sleep_time_threshold {TIME_TO_SLEEP} s, idle_speed_threshold {SLEEP_SPEED} m/s; "
           f"Box2D sleeping_enabled (default: {TIME_TO_SLEEP} s below {SLEEP_SPEED} m/s)"),
    False: ("sleeping OFF in every engine: ours world.sleeping = False; pymunk "
            "sleep_time_threshold inf (default); Box2D sleeping_enabled = False"),
}


def run(engines, steps, warmup, chunk):
    """Step every engine in turns of ``chunk`` steps, each turn starting with the next engine.

    ``engines`` maps a name to ``step(k)`` (``k`` the step number, for scenes that change on a
    schedule). Returns per engine every timed step's seconds and the median of each chunk.
    """
    names = list(engines)
    for k in range(warmup):
        for name in names:
            engines[name](k)
    times = {n: [] for n in names}
    chunks = {n: [] for n in names}
    k, turn = warmup, 0
    clock = time.perf_counter
    while k < warmup + steps:
        m = min(chunk, warmup + steps - k)
        order = names[turn % len(names):] + names[:turn % len(names)]
        for name in order:
            step, t = engines[name], []
            for j in range(m):
                t0 = clock()
                step(k + j)
                t.append(clock() - t0)
            times[name] += t
            chunks[name].append(statistics.median(t))
        k, turn = k + m, turn + 1
    return times, chunks


def chunk_ratios(ours, theirs):
    """25th, 50th and 75th percentile of the per-chunk ratios ``ours / theirs``."""
    r = np.asarray(ours, dtype=float) / np.asarray(theirs, dtype=float)
    return tuple(float(x) for x in np.percentile(r, [25, 50, 75]))


def _engines(scene, sleeping, box2d):
    """The step callables of each engine on ``scene``, and a count of awake bodies for each."""
    world, _ = scene.build(sleeping=sleeping)
    space, pm_bodies = build_space(scene, mixing=world.mixing)
    if sleeping:
        space.sleep_time_threshold = TIME_TO_SLEEP
        space.idle_speed_threshold = SLEEP_SPEED
        for spec, body in zip(scene.bodies, pm_bodies):
            if not spec.awake:  # the smash grid starts asleep, as in Box2D's benchmark
                body.sleep()
    dynamic = [b for b in pm_bodies if b.body_type == b.DYNAMIC]
    engines = {"ours": lambda k: world.step(DT), "pymunk": lambda k: space.step(DT)}
    awake = {"ours": lambda: world.awake_body_count,
             "pymunk": lambda: sum(1 for b in dynamic if not b.is_sleeping)}
    if box2d:
        b2world, b2bodies = build_b2world(scene, sleeping=sleeping)
        engines["box2d"] = lambda k: b2world.step(DT, SUBSTEPS)
        awake["box2d"] = lambda: b2_awake_count(b2bodies)
    return engines, awake


def bench_step(name, sleeping, steps, warmup, chunk, box2d):
    """Median ms/step of every engine on scene ``name``, and our ratio to each peer with its spread.

    Returns a dict: ``scene``, ``bodies``, ``sleeping``, ``ms`` / ``min_ms`` / ``awake`` (bodies
    awake after the run) per engine, and ``ratio`` per peer: ``(ratio of medians, q25, q50, q75)``
    of the per-chunk ratios.
    """
    scene = SCENES[name]()
    engines, awake = _engines(scene, sleeping, box2d)
    times, chunks = run(engines, steps, warmup, chunk)
    ms = {n: 1e3 * statistics.median(t) for n, t in times.items()}
    ratio = {n: (ms["ours"] / ms[n],) + chunk_ratios(chunks["ours"], chunks[n])
             for n in times if n != "ours"}
    return {"scene": name, "bodies": len(scene.bodies), "sleeping": sleeping, "steps": steps,
            "ms": ms, "min_ms": {n: 1e3 * min(t) for n, t in times.items()},
            "awake": {n: f() for n, f in awake.items()}, "ratio": ratio}


def _ms(v):
    """Three decimals, or three significant digits below 0.1 ms (a sleeping world's step)."""
    return f"{v:.3f}" if v >= 0.1 else f"{v:.3g}"


def _x(v):
    return f"{v:.2f}" if v >= 0.1 else f"{v:.2g}"


def step_table(results):
    """Headers and rows of the step section for one sleeping configuration (for :func:`table`)."""
    peers = [n for n in results[0]["ms"] if n != "ours"]
    headers = ["scene", "bodies"] + [f"{n} ms/step" for n in results[0]["ms"]]
    headers += [f"ours/{n} (25-75 %)" for n in peers] + ["awake at end (" + "/".join(results[0]["ms"]) + ")"]
    rows = []
    for r in results:
        row = [r["scene"], r["bodies"]] + [_ms(r["ms"][n]) for n in r["ms"]]
        row += [f"{_x(r['ratio'][n][0])} ({_x(r['ratio'][n][1])}-{_x(r['ratio'][n][3])})" for n in peers]
        row.append("/".join(str(r["awake"][n]) for n in r["ms"]))
        rows.append(row)
    return headers, rows


def table(headers, rows):
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    line = lambda r: "| " + " | ".join(c.rjust(w) if i else c.ljust(w)  # noqa: E731
                                       for i, (c, w) in enumerate(zip(r, widths))) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])
