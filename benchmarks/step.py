"""The engine against pymunk on the same scenes: step time, state read-out, memory, start-up.

Run from the repository root::

    python -m benchmarks                         # everything (takes a few minutes)
    python -m benchmarks --quick                 # CI smoke: 30 steps, step + read sections only
    python -m benchmarks --scenes pyramid20,idle2000 --sections step,read
    python -m benchmarks --plot bench.png        # also a bar chart of ms/step (needs pillow)

Every scene is built once as engine data (``engine.scenes``) and handed to both engines
(``benchmarks/pymunk_scene.py``: same bodies, shapes, masses, materials, gravity). Each engine
runs at its own defaults: ours ``World()`` (Box2D soft step, ``K.SUBSTEPS`` substeps, Box2D
material mixing), pymunk one ``space.step(dt)`` with 10 iterations, slop 0.1, friction and
restitution mapped so the mixed contact values equal ours. Sleeping is off in both (the engine
has none; pymunk's ``sleep_time_threshold`` is infinite).

Sections
--------
step     median ms per ``step(1/60)`` over ``--steps`` steps after ``--warmup`` steps (JIT
         compilation and first-contact bookkeeping excluded). The two engines alternate in
         chunks of ``--chunk`` steps, each chunk starting with the other engine, so machine
         noise (other processes on a shared 2-core box) falls on both alike.
read     reading 2000 bodies' positions and angles into NumPy: our read-only views, the same
         with a copy, pymunk's per-body loop, and ``pymunk.batch``.
memory   resident memory of a fresh subprocess per engine and scene: RSS after the imports
         (ours: with the compiled kernels loaded), then the peak (``VmHWM``, reset after the
         imports) while building the scene and stepping it ``--steps`` times. Linux only.
startup  wall time of ``import`` + building pyramid20 + the first step in a fresh subprocess:
         ours with an empty Numba cache (cold: every kernel compiles) and again with the
         cache that run left (warm); pymunk for reference.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from engine import World, scenes

from .pymunk_scene import build_space, scene_data

DT = 1.0 / 60.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCENES = {
    "pyramid20": lambda: scenes.pyramid(20),
    "pyramid40": lambda: scenes.pyramid(40),
    "rain2000": lambda: scenes.rain(2000, 1000),
    "idle2000": lambda: scenes.idle(2000),
}
SECTIONS = ("step", "read", "memory", "startup")


# -- step time ------------------------------------------------------------------------------------

def _timed_steps(step, k, out):
    clock = time.perf_counter
    for _ in range(k):
        t0 = clock()
        step(DT)
        out.append(clock() - t0)


def bench_step(name, steps, warmup, chunk):
    """Median ms/step of both engines on scene ``name``, interleaved in chunks."""
    scene = SCENES[name]()
    world, _ = scene.build()
    space, _ = build_space(scene, mixing=world.mixing)
    for _ in range(warmup):
        world.step(DT)
        space.step(DT)
    ours, theirs = [], []
    done = 0
    flip = False
    while done < steps:
        k = min(chunk, steps - done)
        runs = [(world.step, ours), (space.step, theirs)]
        for step, out in (reversed(runs) if flip else runs):
            _timed_steps(step, k, out)
        flip = not flip
        done += k
    return {
        "scene": name, "bodies": len(scene.bodies), "steps": steps,
        "ours_ms": 1e3 * statistics.median(ours), "pymunk_ms": 1e3 * statistics.median(theirs),
        "ours_min_ms": 1e3 * min(ours), "pymunk_min_ms": 1e3 * min(theirs),
    }


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


# -- memory and start-up (fresh subprocesses) ------------------------------------------------------

# Shared by both memory probes: current and peak RSS from /proc, and a peak reset.
_MEMORY_PRELUDE = r"""
import json, sys
def status_kb(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(field + ":"))
def reset_peak():
    try:  # Linux >= 4.0: "5" resets VmHWM to the current RSS (ru_maxrss survives exec)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False
"""

_MEMORY_OURS = _MEMORY_PRELUDE + r"""
import engine
from engine import scenes
scenes.pyramid(2).build()[0].step(1 / 60)   # load the compiled kernels before the baseline
scene = eval(sys.argv[1], {"scenes": scenes})
base = status_kb("VmRSS")
reset = reset_peak()
world, _ = scene.build()
for _ in range(int(sys.argv[2])):
    world.step(1 / 60)
print(json.dumps({"base_kb": base, "peak_kb": status_kb("VmHWM"), "reset": reset}))
"""

_MEMORY_PYMUNK = _MEMORY_PRELUDE + r"""
import pymunk
from benchmarks.pymunk_scene import build_space   # imports pymunk and numpy, not the engine
with open(sys.argv[1]) as f:
    data = json.load(f)
base = status_kb("VmRSS")
reset = reset_peak()
space, _ = build_space(data, mixing="box2d")
for _ in range(int(sys.argv[2])):
    space.step(1 / 60)
print(json.dumps({"base_kb": base, "peak_kb": status_kb("VmHWM"), "reset": reset}))
"""

_STARTUP_OURS = r"""
import json, time
t0 = time.perf_counter()
import engine
from engine import scenes
t1 = time.perf_counter()
world, _ = scenes.pyramid(20).build()
t2 = time.perf_counter()
world.step(1 / 60)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first_step": t3 - t2, "total": t3 - t0}))
"""

_STARTUP_PYMUNK = r"""
import json, sys, time
t0 = time.perf_counter()
import pymunk
from benchmarks.pymunk_scene import build_space
t1 = time.perf_counter()
with open(sys.argv[1]) as f:
    space, _ = build_space(json.load(f), mixing="box2d")
t2 = time.perf_counter()
space.step(1 / 60)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first_step": t3 - t2, "total": t3 - t0}))
"""

_SCENE_EXPR = {"pyramid20": "scenes.pyramid(20)", "pyramid40": "scenes.pyramid(40)",
               "rain2000": "scenes.rain(2000, 1000)", "idle2000": "scenes.idle(2000)"}


def _run_child(code, args, env=None):
    """Run ``python -c code args`` from the repo root; returns (parsed JSON line, wall seconds)."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = ROOT + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def _scene_file(name, tmpdir):
    path = os.path.join(tmpdir, f"{name}.json")
    if not os.path.exists(path):
        with open(path, "w") as f:
            json.dump(scene_data(SCENES[name]()), f)
    return path


def bench_memory(name, steps, tmpdir):
    ours, _ = _run_child(_MEMORY_OURS, [_SCENE_EXPR[name], steps])
    theirs, _ = _run_child(_MEMORY_PYMUNK, [_scene_file(name, tmpdir), steps])
    return {"scene": name, "ours": ours, "pymunk": theirs}


def bench_startup(tmpdir):
    cache = tempfile.mkdtemp(prefix="numba-cache-", dir=tmpdir)
    env = {"NUMBA_CACHE_DIR": cache}
    cold, cold_wall = _run_child(_STARTUP_OURS, [], env)
    warm, warm_wall = _run_child(_STARTUP_OURS, [], env)
    data = _scene_file("pyramid20", tmpdir)
    _run_child(_STARTUP_PYMUNK, [data])  # page in pymunk's shared library once
    pym, pym_wall = _run_child(_STARTUP_PYMUNK, [data])
    return [("ours, cold (empty Numba cache)", cold, cold_wall),
            ("ours, warm (cache from the cold run)", warm, warm_wall),
            ("pymunk", pym, pym_wall)]


# -- output ----------------------------------------------------------------------------------------

def _table(headers, rows):
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    line = lambda r: "| " + " | ".join(c.rjust(w) if i else c.ljust(w)  # noqa: E731
                                       for i, (c, w) in enumerate(zip(r, widths))) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])


def plot_steps(results, path):
    """A bar chart PNG of ms/step, ours vs pymunk, per scene (pillow only)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    w, h, left, bottom, top = 180 * len(results) + 120, 420, 70, 60, 50
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    vmax = max(max(r["ours_ms"], r["pymunk_ms"]) for r in results) * 1.15
    plot_h = h - bottom - top
    d.line([(left, top), (left, h - bottom), (w - 20, h - bottom)], fill="black")
    for k in range(5):  # y grid
        v = vmax * k / 4
        y = h - bottom - plot_h * k / 4
        d.line([(left - 4, y), (w - 20, y)], fill=(220, 220, 220) if k else "black")
        d.text((8, y - 6), f"{v:.2f}", fill="black", font=font)
    d.text((8, 12), "ms per step (median), lower is better", fill="black", font=font)
    colors = {"ours": (40, 110, 200), "pymunk": (230, 140, 40)}
    for i, r in enumerate(results):
        x0 = left + 30 + 180 * i
        for j, key in enumerate(("ours", "pymunk")):
            v = r[f"{key}_ms"]
            bh = plot_h * v / vmax
            xa = x0 + 60 * j
            d.rectangle([xa, h - bottom - bh, xa + 50, h - bottom], fill=colors[key])
            d.text((xa + 2, h - bottom - bh - 14), f"{v:.2f}", fill="black", font=font)
        d.text((x0, h - bottom + 8), f"{r['scene']} ({r['bodies']})", fill="black", font=font)
        d.text((x0, h - bottom + 22), f"ours/pymunk {r['ours_ms'] / r['pymunk_ms']:.2f}",
               fill="black", font=font)
    for j, (key, col) in enumerate(colors.items()):
        d.rectangle([w - 170, 10 + 16 * j, w - 158, 22 + 16 * j], fill=col)
        d.text((w - 150, 10 + 16 * j), "this engine" if key == "ours" else "pymunk 10 it",
               fill="black", font=font)
    img.save(path)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="CI smoke: 30 steps, 3 warm-up steps; sections step,read unless --sections")
    p.add_argument("--scenes", default=",".join(SCENES),
                   help=f"comma-separated subset of {','.join(SCENES)}")
    p.add_argument("--sections", default=None,
                   help=f"comma-separated subset of {','.join(SECTIONS)} (default: all)")
    p.add_argument("--steps", type=int, default=None, help="timed steps per scene (300)")
    p.add_argument("--warmup", type=int, default=None, help="untimed steps first (20)")
    p.add_argument("--chunk", type=int, default=10, help="steps per engine before switching (10)")
    p.add_argument("--plot", metavar="PATH.png", help="write a bar chart of ms/step (pillow)")
    args = p.parse_args(argv)

    names = [s.strip() for s in args.scenes.split(",") if s.strip()]
    unknown = [s for s in names if s not in SCENES]
    if unknown:
        p.error(f"unknown scene(s) {unknown}; choose from {list(SCENES)}")
    default_sections = "step,read" if args.quick else ",".join(SECTIONS)
    sections = [s.strip() for s in (args.sections or default_sections).split(",") if s.strip()]
    bad = [s for s in sections if s not in SECTIONS]
    if bad:
        p.error(f"unknown section(s) {bad}; choose from {list(SECTIONS)}")
    steps = args.steps or (30 if args.quick else 300)
    warmup = args.warmup if args.warmup is not None else (3 if args.quick else 20)
    if steps < 1 or args.chunk < 1 or warmup < 0:
        p.error("--steps and --chunk must be >= 1, --warmup >= 0")

    import pymunk
    import numba
    print(f"engine vs pymunk {pymunk.version} | Python {sys.version.split()[0]}, NumPy "
          f"{np.__version__}, Numba {numba.__version__} | {os.cpu_count()} CPUs, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"Sleeping is off in both engines. Ours: World() defaults ({World().substeps} substeps, "
          f"Box2D mixing); pymunk: 1 step of 10 iterations, materials mapped to the same mixed values.")
    print("Timings on a shared machine are noisy: the engines alternate in chunks and medians are "
          "reported.\n")

    step_results = []
    if "step" in sections:
        print(f"## Step time: median of {steps} steps at dt = 1/60 after {warmup} warm-up steps, "
              f"alternating in chunks of {args.chunk}")
        for name in names:
            step_results.append(bench_step(name, steps, warmup, args.chunk))
            r = step_results[-1]
            print(f"  {name}: ours {r['ours_ms']:.3f} ms, pymunk {r['pymunk_ms']:.3f} ms", flush=True)
        rows = [(r["scene"], r["bodies"], f"{r['ours_ms']:.3f}", f"{r['pymunk_ms']:.3f}",
                 f"{r['ours_ms'] / r['pymunk_ms']:.2f}", f"{r['ours_min_ms']:.3f}",
                 f"{r['pymunk_min_ms']:.3f}") for r in step_results]
        print(_table(["scene", "bodies", "ours ms/step", "pymunk ms/step", "ours/pymunk",
                      "ours min", "pymunk min"], rows))
        print()
        if args.plot:
            plot_steps(step_results, args.plot)
            print(f"bar chart written to {args.plot}\n")
    elif args.plot:
        print("--plot needs the step section; no chart written\n")

    if "read" in sections:
        count = 2000
        repeats = 20 if args.quick else 200
        print(f"## Reading {count} positions + angles into NumPy (median of {repeats})")
        res = bench_read(count, repeats)
        base = res[0][1]
        rows = [(label, f"{1e3 * t:.4f}", f"{t / base:.0f}x") for label, t in res]
        print(_table(["method", "ms", "vs views"], rows))
        print()

    with tempfile.TemporaryDirectory(prefix="engine-bench-") as tmpdir:
        if "memory" in sections:
            scenes.pyramid(2).build()[0].step(DT)  # compile (and cache) the kernels here, once
            print(f"## Memory of a fresh process: RSS after imports (ours: Numba/LLVM and the "
                  f"loaded kernels), then peak RSS while building the scene and stepping it "
                  f"{steps} times")
            rows, mems = [], []
            for name in names:
                m = bench_memory(name, steps, tmpdir)
                mems.append(m)
                o, t = m["ours"], m["pymunk"]
                rows.append((name, f"{o['base_kb'] / 1024:.0f}", f"{o['peak_kb'] / 1024:.0f}",
                             f"{(o['peak_kb'] - o['base_kb']) / 1024:.1f}",
                             f"{t['base_kb'] / 1024:.0f}", f"{t['peak_kb'] / 1024:.0f}",
                             f"{(t['peak_kb'] - t['base_kb']) / 1024:.1f}"))
            print(_table(["scene", "ours imports MB", "ours peak MB", "ours scene MB",
                          "pymunk imports MB", "pymunk peak MB", "pymunk scene MB"], rows))
            if not all(m[k]["reset"] for m in mems for k in ("ours", "pymunk")):
                print("(the peak could not be reset after the imports: it may be the imports' peak)")
            print()
        if "startup" in sections:
            print("## Start-up: import + build pyramid20 + first step, fresh process each")
            rows = [(label, f"{r['import']:.2f}", f"{r['build']:.3f}", f"{r['first_step']:.3f}",
                     f"{r['total']:.2f}", f"{wall:.2f}") for label, r, wall in bench_startup(tmpdir)]
            print(_table(["run", "import s", "build s", "first step s", "total s",
                          "process wall s"], rows))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
