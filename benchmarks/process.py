"""Memory and start-up of a fresh process per engine: sections ``memory`` and ``startup`` of
``python -m benchmarks`` (see ``benchmarks/step.py``)."""
import json
import os
import subprocess
import sys
import tempfile
import time

from engine import scenes

from .peers import DT, SCENES, table as _table
from .pymunk_scene import scene_data

__all__ = ["bench_memory", "bench_startup", "memory_section", "startup_section"]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
               "rain2000": "scenes.rain(2000, 1000)", "idle2000": "scenes.idle(2000)",
               "large_pyramid": "scenes.pyramid(100)", "many_pyramids": "scenes.many_pyramids()",
               "smash": "scenes.smash()", "tumbler": "scenes.box2d_tumbler()"}


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
    # a first run loads the kernels shipped compiled where they apply (engine/_prebuilt.py)
    cold, cold_wall = _run_child(_STARTUP_OURS, [], env)
    warm, warm_wall = _run_child(_STARTUP_OURS, [], env)
    compiling = {"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-cache-", dir=tmpdir),
                 "ENGINE_PREBUILT": "0"}
    built, built_wall = _run_child(_STARTUP_OURS, [], compiling)
    data = _scene_file("pyramid20", tmpdir)
    _run_child(_STARTUP_PYMUNK, [data])  # page in pymunk's shared library once
    pym, pym_wall = _run_child(_STARTUP_PYMUNK, [data])
    return [("ours, first run (empty Numba cache, shipped kernels)", cold, cold_wall),
            ("ours, warm (cache from the first run)", warm, warm_wall),
            ("ours, first run compiling (empty cache, ENGINE_PREBUILT=0)", built, built_wall),
            ("pymunk", pym, pym_wall)]


def memory_section(names, steps, tmpdir):
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


def startup_section(tmpdir):
    print("## Start-up: import + build pyramid20 + first step, fresh process each")
    rows = [(label, f"{r['import']:.2f}", f"{r['build']:.3f}", f"{r['first_step']:.3f}",
             f"{r['total']:.2f}", f"{wall:.2f}") for label, r, wall in bench_startup(tmpdir)]
    print(_table(["run", "import s", "build s", "first step s", "total s",
                  "process wall s"], rows))
    print()
