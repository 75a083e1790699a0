"""The kernels shipped compiled (``engine/_prebuilt.py``): the archive matches the sources,
a first run loads every kernel from it instead of compiling, and what it computes is
what kernels compiled on this machine compute (``test_determinism.py`` compares the two
on rain, concave, tumbler and joint scenes)."""
import json
import os
import subprocess
import sys
import textwrap
import zipfile

import numba
import pytest

from engine import _jit, _prebuilt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = _prebuilt.archive_path(os.path.join(ROOT, "engine"))  # this Python's
ARCHIVES = sorted(ARCHIVE.parent.glob("*.zip"))  # every Python's


def _manifest(path=ARCHIVE):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read(_prebuilt.MANIFEST))


@pytest.mark.parametrize("path", ARCHIVES, ids=[p.name for p in ARCHIVES])
def test_every_archive_is_built_from_these_sources(path):
    """Fails after a kernel changes until ``python tools/build_kernels.py`` is run again
    (a stale archive is never loaded, so a first run would compile for a minute)."""
    manifest = _manifest(path)
    python = "python%d.%d" % tuple(manifest["python"])
    assert manifest["fingerprint"] == _jit.kernel_fingerprint(), (
        f"kernel sources changed since {path.name} was built: rebuild it with {python} "
        f"(python tools/build_kernels.py in a virtual environment of {python} with the test "
        f"extras), or delete it (that Python then compiles on a first run)")
    assert manifest["target"] == _prebuilt.TARGET
    assert tuple(manifest["magic"])[1:] == (_prebuilt.TARGET, "")
    assert manifest["kernels"] >= 100
    assert path == _prebuilt.archive_path(os.path.join(ROOT, "engine"), tuple(manifest["python"]))


def test_the_package_ships_kernels_for_the_python_ci_runs():
    assert ARCHIVE.parent / "x86-64-v3-py311.zip" in ARCHIVES


def _host_matches():
    if not ARCHIVE.is_file():
        return False
    manifest = _manifest()
    return (_prebuilt.host_runs() and manifest["numba"] == numba.__version__
            and manifest["python"] == list(sys.version_info[:2]))


needs_archive = pytest.mark.skipif(
    not _host_matches() or numba.config.DISABLE_JIT or os.environ.get("ENGINE_PREBUILT") == "0",
    reason="the archives serve Linux x86-64-v3 with the Numba and Python they were built with")


@needs_archive
def test_the_archive_is_used_here():
    assert _prebuilt.usable()


def test_the_archive_is_refused_when_stale_or_turned_off(monkeypatch):
    """Refused, and nothing loaded from it; ``stale`` is what the compile notice reads."""
    root = os.path.join(ROOT, "engine")
    monkeypatch.delenv("ENGINE_PREBUILT", raising=False)  # (the archive's build turns it off)
    try:
        assert not _prebuilt.configure(root, "0" * 64)  # sources changed since the build
        assert not _prebuilt.usable()
        assert _prebuilt.stale() == _host_matches()  # what the compile notice tells
        monkeypatch.setenv("ENGINE_PREBUILT", "0")
        assert not _prebuilt.configure(root, _jit.kernel_fingerprint())
        assert not _prebuilt.host_runs({"avx2": True})  # a processor without FMA and the rest
    finally:
        monkeypatch.delenv("ENGINE_PREBUILT", raising=False)
        _prebuilt.configure(root, _jit.kernel_fingerprint())


_FIRST_RUN = textwrap.dedent('''
    import collections, sys, time
    import numba.core.event as ev
    compiled = collections.Counter()
    class Spy(ev.Listener):
        def on_start(self, e):
            compiled[e.data["dispatcher"].py_func.__module__] += 1
        def on_end(self, e):
            pass
    ev.register("numba:compile", Spy())
    start = time.perf_counter()
    from engine import Circle, World, scenes
    world, _ = scenes.pyramid(20).build()
    world.step(1 / 60)
    first = time.perf_counter() - start
    ball = world.create_body(position=(0, 30))
    ball.add_shape(Circle(0.5))
    world.create_revolute_joint(world.bodies[0], ball, (0, 25))
    for _ in range(30):
        world.step(1 / 60)
    world.ray_cast((-30, 5), (30, 5))
    print(sum(n for m, n in compiled.items() if m.startswith("engine")), round(first, 2))
''')


@needs_archive
def test_a_first_run_compiles_no_kernel_and_keeps_what_it_loaded(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), ENGINE_COMPILE_NOTICE="0")
    done = subprocess.run([sys.executable, "-c", _FIRST_RUN], env=env, capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    compiles, seconds = done.stdout.split()
    assert compiles == "0"  # every kernel came from the archive (import + build + step: seconds)
    # ... and went into Numba's ordinary cache, from which later runs load it
    assert len(list((tmp_path / "cache").rglob("*.nbc"))) >= 10
    assert not list((tmp_path / "cache").rglob("*.compiling"))  # no compile-ahead helper
