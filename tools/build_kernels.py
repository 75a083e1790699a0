"""Build ``engine/prebuilt/x86-64-v3-py311.zip``: the engine's kernels compiled ahead of time.

Run it after changing any kernel (``tests/test_prebuilt.py`` fails until you do)::

    python tools/build_kernels.py            # runs the test suite as the workload
    python tools/build_kernels.py --quick    # a few scenes only (for trying the tool)

The archive is for the Python that runs the tool (``-py311`` in its name): to ship
kernels for another one, run the tool with a virtual environment of that Python that
has the test extras installed (``pip install -e ".[test]"``).

It runs a workload with Numba compiling for ``x86-64-v3`` into an empty cache folder
(``NUMBA_CPU_NAME``, ``NUMBA_CACHE_DIR``), then packs every engine kernel that folder
holds, with a manifest (the sources' fingerprint, the Python and Numba versions, the
target), into the archive. The workload is the test suite: every kernel and argument
type the tests reach, which is what programs reach. See ``engine/_prebuilt.py`` for how
the archive is used.
"""
import argparse
import io
import json
import os
import pathlib
import pickle
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from numba.core.caching import _CacheLocator  # noqa: E402

from engine import _jit, _prebuilt  # noqa: E402

QUICK = """
from engine import scenes
for world, _ in (scenes.pyramid(20).build(), scenes.rain(200, 100).build()):
    for _ in range(30):
        world.step(1 / 60)
"""


def run_workload(cache_dir, quick):
    """Run the workload compiling for the target into ``cache_dir``; returns its code."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir), NUMBA_CPU_NAME=_prebuilt.TARGET,
               NUMBA_CPU_FEATURES="", ENGINE_PREBUILT="0", CI="1", ENGINE_COMPILE_NOTICE="0")
    if quick:
        command = [sys.executable, "-c", QUICK]
    else:
        command = [sys.executable, "-m", "pytest", "-q", "tests"]
    return subprocess.run(command, cwd=ROOT, env=env).returncode


def _magic(index_bytes):
    """The codegen descriptions (``magic_tuple``) of every entry of a Numba index file."""
    stream = io.BytesIO(index_bytes)
    pickle.load(stream)
    _, overloads = pickle.loads(stream.read())
    return {key[1] for key in overloads}


def pack(cache_dir, out):
    """Pack the engine's kernels found in ``cache_dir`` into the archive ``out``."""
    package = ROOT / "engine"
    magics, count = set(), 0
    with zipfile.ZipFile(out.with_suffix(".tmp"), "w", zipfile.ZIP_LZMA) as archive:
        for folder in sorted({p.parent for p in package.rglob("*.py")}):
            cached = cache_dir / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
            if not cached.is_dir():
                continue
            prefix = _prebuilt.entry_folder(folder, package)
            for path in sorted(cached.iterdir()):
                if path.suffix == ".nbi":
                    magics |= _magic(path.read_bytes())
                if path.suffix in (".nbi", ".nbc"):
                    archive.write(path, f"{prefix}{path.name}")
                    count += path.suffix == ".nbc"
        if len(magics) != 1:
            raise SystemExit(f"expected one target in the cache, found {sorted(magics)}")
        manifest = {"fingerprint": _jit.kernel_fingerprint(package), "target": _prebuilt.TARGET,
                    "magic": list(magics.pop()), "numba": __import__("numba").__version__,
                    "python": list(sys.version_info[:2]), "kernels": count}
        archive.writestr(_prebuilt.MANIFEST, json.dumps(manifest, indent=1))
    out.with_suffix(".tmp").replace(out)
    return manifest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few scenes, not the test suite")
    args = parser.parse_args()
    out = _prebuilt.archive_path(ROOT / "engine")
    out.parent.mkdir(exist_ok=True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache_dir:
        code = run_workload(pathlib.Path(cache_dir), args.quick)
        if code != 0:  # e.g. test_prebuilt's own check of the stale archive being replaced
            print(f"warning: the workload exited with code {code}; packing what it compiled")
        manifest = pack(pathlib.Path(cache_dir), out)
    print(f"{out.relative_to(ROOT)}: {manifest['kernels']} compiled kernels, "
          f"{out.stat().st_size / 1e6:.1f} MB, built in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
