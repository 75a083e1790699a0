"""The engine against pymunk and Box2D v3 on the same scenes: step time with sleeping on and off,
what sleeping costs and saves, state read-out, memory, start-up.

Run from the repository root::

    python -m benchmarks                         # everything (a few minutes)
    python -m benchmarks --quick                 # CI smoke: 30 steps, step + read sections only
    python -m benchmarks --scenes pyramid20,idle2000 --sections step,settling,asleep
    python -m benchmarks --sleep off --steps 1000 --chunk 20     # longer, one configuration
    python -m benchmarks --plot bench.png        # also a bar chart of ms/step (needs pillow)

Every scene is built once as engine data (``engine.scenes``) and handed to every engine
(``benchmarks/pymunk_scene.py``, ``benchmarks/box2d_scene.py``: same bodies, shapes, masses,
materials, gravity). Each engine runs at its own defaults: ours ``World()`` (Box2D soft step,
``K.SUBSTEPS`` substeps, Box2D material mixing), pymunk one ``space.step(dt)`` with 10 iterations,
slop 0.1, friction and restitution mapped so the mixed contact values equal ours; Box2D v3
(``pyb2d3``, optional: skipped with a note when it does not import) ``world.step(dt, 4)``, its
default 4 substeps. Sleeping is set alike in every engine, on and off (``benchmarks/peers.py``).

Sections
--------
step      median ms per ``step(1/60)`` over ``--steps`` steps after ``--warmup`` steps (JIT
          compilation and first-contact bookkeeping excluded), for each ``--sleep``
          configuration. The engines take turns in chunks of ``--chunk`` steps, each turn
          starting with the next engine, so machine noise (other processes on a shared 2-core
          box) falls on all alike. Ratios: ours / peer of the medians, and the 25th-75th
          percentile of the per-chunk ratios. With sleeping on, the timed steps run from step
          ``--warmup``: scenes that come to rest fall asleep part-way (the "awake at end" column).
settling  island bookkeeping while pyramid40 settles: ours sleeping on vs off (``benchmarks/sleep.py``).
asleep    a fully asleep pyramid40 against the same one awake, ours and Box2D.
read      reading 2000 bodies' positions and angles into NumPy: our read-only views, the same
          with a copy, pymunk's per-body loop, and ``pymunk.batch``.
memory    resident memory of a fresh subprocess per engine and scene: RSS after the imports
          (ours: with the compiled kernels loaded), then the peak (``VmHWM``, reset after the
          imports) while building the scene and stepping it ``--steps`` times (each engine at
          its sleeping default: ours on, pymunk off). Linux only.
startup   wall time of ``import`` + building pyramid20 + the first step in a fresh subprocess:
          ours with an empty Numba cache (cold: every kernel compiles) and again with the
          cache that run left (warm); pymunk for reference.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

from engine import World, scenes

from .box2d_scene import SUBSTEPS, box2d_version, has_box2d
from .peers import DT, SCENES, SLEEP_TEXT, bench_step, step_table, table as _table
from .process import memory_section, startup_section
from .pymunk_scene import build_space
from .sleep import print_sleep_sections

SECTIONS = ("step", "settling", "asleep", "read", "memory", "startup")


# -- reading state ---------------------------------------------------------------------------------

def _median_time(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_read(count, repeats):
    """Seconds to get ``count`` bodies' positions and angles as NumPy arrays, several ways."""
    scene = scenes.idle(count)
    world, _ = scene.build()
    space, bodies = build_space(scene, mixing=world.mixing)
    world.step(DT)
    space.step(DT)

    def ours_view():
        return world.positions, world.angles

    def ours_copy():
        return world.positions.copy(), world.angles.copy()

    def pymunk_loop():
        return np.array([b.position for b in bodies]), np.array([b.angle for b in bodies])

    results = [("ours: world.positions / .angles views", ours_view),
               ("ours: views + .copy()", ours_copy),
               ("pymunk: [b.position for b in bodies] + angles", pymunk_loop)]
    try:
        import pymunk.batch as batch
    except ImportError:  # pragma: no cover - pymunk < 6.6
        batch = None
    if batch is not None:
        buf = batch.Buffer()
        fields = batch.BodyFields.POSITION | batch.BodyFields.ANGLE

        def pymunk_batch():
            buf.clear()
            batch.get_space_bodies(space, fields, buf)
            xya = np.frombuffer(buf.float_buf(), dtype=np.float64).reshape(-1, 3).copy()
            return xya[:, :2], xya[:, 2]

        # the batch API returns every body, ground included: check it reads the same numbers
        xy, _ = pymunk_batch()
        assert xy.shape[0] == len(bodies)
        results.append(("pymunk: pymunk.batch.get_space_bodies (+ copy)", pymunk_batch))
    pos, ang = ours_copy()
    ref, _ = pymunk_loop()
    assert pos.shape == ref.shape == (count, 2) and ang.shape == (count,)
    return [(label, _median_time(fn, repeats)) for label, fn in results]


# -- output ----------------------------------------------------------------------------------------

def plot_steps(results, path):
    """A bar chart PNG of ms/step per engine and scene, one sleeping configuration (pillow only)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    names = list(results[0]["ms"])
    w, h, left, bottom, top = 200 * len(results) + 120, 420, 70, 60, 50
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    vmax = max(max(r["ms"].values()) for r in results) * 1.15
    plot_h = h - bottom - top
    d.line([(left, top), (left, h - bottom), (w - 20, h - bottom)], fill="black")
    for k in range(5):  # y grid
        v = vmax * k / 4
        y = h - bottom - plot_h * k / 4
        d.line([(left - 4, y), (w - 20, y)], fill=(220, 220, 220) if k else "black")
        d.text((8, y - 6), f"{v:.2f}", fill="black", font=font)
    sleep = "on" if results[0]["sleeping"] else "off"
    d.text((8, 12), f"ms per step (median), lower is better; sleeping {sleep}", fill="black", font=font)
    colors = {"ours": (40, 110, 200), "pymunk": (230, 140, 40), "box2d": (90, 170, 90)}
    labels = {"ours": "this engine", "pymunk": "pymunk 10 it", "box2d": f"Box2D v3, {SUBSTEPS} sub"}
    for i, r in enumerate(results):
        x0 = left + 20 + 200 * i
        for j, key in enumerate(names):
            v = r["ms"][key]
            bh = plot_h * v / vmax
            xa = x0 + 58 * j
            d.rectangle([xa, h - bottom - bh, xa + 50, h - bottom], fill=colors[key])
            d.text((xa + 2, h - bottom - bh - 14), f"{v:.2f}", fill="black", font=font)
        d.text((x0, h - bottom + 8), f"{r['scene']} ({r['bodies']})", fill="black", font=font)
        d.text((x0, h - bottom + 22), " ".join(f"/{n} {r['ratio'][n][0]:.2f}" for n in names[1:]),
               fill="black", font=font)
    for j, key in enumerate(names):
        d.rectangle([w - 170, 10 + 16 * j, w - 158, 22 + 16 * j], fill=colors[key])
        d.text((w - 150, 10 + 16 * j), labels[key], fill="black", font=font)
    img.save(path)


def _parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="CI smoke: 30 steps, 3 warm-up steps; sections step,read unless --sections")
    p.add_argument("--scenes", default=",".join(SCENES),
                   help=f"comma-separated subset of {','.join(SCENES)}")
    p.add_argument("--sections", default=None,
                   help=f"comma-separated subset of {','.join(SECTIONS)} (default: all)")
    p.add_argument("--sleep", default="on,off",
                   help="sleeping configurations of the step section: on, off or on,off (default)")
    p.add_argument("--steps", type=int, default=None, help="timed steps per scene (300)")
    p.add_argument("--warmup", type=int, default=None, help="untimed steps first (20)")
    p.add_argument("--chunk", type=int, default=10, help="steps per engine before switching (10)")
    p.add_argument("--reps", type=int, default=None, help="fresh world pairs in settling (5)")
    p.add_argument("--no-box2d", action="store_true", help="leave Box2D v3 out even if installed")
    p.add_argument("--plot", metavar="PATH.png", help="write a bar chart of ms/step (pillow)")
    args = p.parse_args(argv)

    args.names = [s.strip() for s in args.scenes.split(",") if s.strip()]
    unknown = [s for s in args.names if s not in SCENES]
    if unknown:
        p.error(f"unknown scene(s) {unknown}; choose from {list(SCENES)}")
    default_sections = "step,read" if args.quick else ",".join(SECTIONS)
    args.sections = [s.strip() for s in (args.sections or default_sections).split(",") if s.strip()]
    bad = [s for s in args.sections if s not in SECTIONS]
    if bad:
        p.error(f"unknown section(s) {bad}; choose from {list(SECTIONS)}")
    configs = [s.strip() for s in args.sleep.split(",") if s.strip()]
    if not configs or any(c not in ("on", "off") for c in configs):
        p.error("--sleep takes on, off or on,off")
    args.configs = [c == "on" for c in configs]
    args.steps = args.steps or (30 if args.quick else 300)
    args.warmup = args.warmup if args.warmup is not None else (3 if args.quick else 20)
    args.reps = args.reps or (2 if args.quick else 5)
    if args.steps < 1 or args.chunk < 1 or args.warmup < 0:
        p.error("--steps and --chunk must be >= 1, --warmup >= 0")
    return args


def _header(box2d):
    import numba
    import pymunk
    peer = f"Box2D v3 (pyb2d3 {box2d_version()})" if box2d else None
    print(f"engine vs pymunk {pymunk.version}" + (f" vs {peer}" if peer else "")
          + f" | Python {sys.version.split()[0]}, NumPy {np.__version__}, Numba {numba.__version__}"
          + f" | {os.cpu_count()} CPUs, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"Ours: World() defaults ({World().substeps} substeps, Box2D mixing); pymunk: 1 step of "
          f"10 iterations, materials mapped to the same mixed values" + (
              f"; Box2D: world.step(1/60, {SUBSTEPS}) ({SUBSTEPS} substeps, its default), "
              f"its default materials mixing, one thread." if box2d else "."))
    if not box2d:
        print("Box2D v3 left out: pyb2d3 is not installed (pip install pyb2d3) or --no-box2d.")
    print("Timings on a shared machine are noisy: the engines alternate in chunks and medians are "
          "reported.\n")


def _step_section(args, box2d):
    last = []
    for sleeping in args.configs:
        print(f"## Step time, {SLEEP_TEXT[sleeping]}")
        print(f"   median of {args.steps} steps at dt = 1/60 after {args.warmup} warm-up steps, "
              f"in turns of {args.chunk}; ours/peer: ratio of medians (25-75 % of per-chunk ratios)")
        results = []
        for name in args.names:
            r = bench_step(name, sleeping, args.steps, args.warmup, args.chunk, box2d)
            results.append(r)
            print(f"  {name}: " + ", ".join(f"{n} {ms:.3g} ms" for n, ms in r["ms"].items()), flush=True)
        print(_table(*step_table(results)))
        print()
        last = results
    if args.plot:
        plot_steps(last, args.plot)
        print(f"bar chart (sleeping {'on' if last[0]['sleeping'] else 'off'}) written to {args.plot}\n")


def _read_section(quick):
    count = 2000
    repeats = 20 if quick else 200
    print(f"## Reading {count} positions + angles into NumPy (median of {repeats})")
    res = bench_read(count, repeats)
    base = res[0][1]
    rows = [(label, f"{1e3 * t:.4f}", f"{t / base:.0f}x") for label, t in res]
    print(_table(["method", "ms", "vs views"], rows))
    print()


def main(argv=None):
    args = _parse(argv)
    box2d = has_box2d() and not args.no_box2d
    _header(box2d)
    if "step" in args.sections:
        _step_section(args, box2d)
    elif args.plot:
        print("--plot needs the step section; no chart written\n")
    print_sleep_sections(args.sections, args.reps, args.steps, args.chunk, box2d, _table)
    if "read" in args.sections:
        _read_section(args.quick)
    with tempfile.TemporaryDirectory(prefix="engine-bench-") as tmpdir:
        if "memory" in args.sections:
            memory_section(args.names, args.steps, tmpdir)
        if "startup" in args.sections:
            startup_section(tmpdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
