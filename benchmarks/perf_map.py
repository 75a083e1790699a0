"""Name the engine's compiled kernels in Linux ``perf`` profiles.

``perf`` shows machine code that Numba compiled at run time as bare addresses. A JIT
can write ``/tmp/perf-<pid>.map`` (start, size and name of each function) for ``perf
report`` to read; Numba does not, so this module writes one from the object code of
every compiled Numba function in the process: each function's symbols and their
offsets in its object file (``nm``), placed by one symbol whose address the loaded
library gives. Helpers Numba inlined show up as part of their caller; the reference
count helpers (``NRT_incref``, ``NRT_decref``: ``lock incq``, ``lock decq``) stay
anonymous addresses in a page of their own.

Only freshly compiled code keeps its object code: run with an empty cache directory,
which costs the cold compile once (about a minute)::

    NUMBA_CACHE_DIR=$(mktemp -d) python -m benchmarks.perf_map --scene tumbler --seconds 20 &
    # once it prints "profiling", in another shell (it prints its pid):
    perf record -F 4000 -p <pid> -o perf.data -- sleep 10
    # after it exits (the map is written at the end, so late compiles are named too):
    perf report -i perf.data --sort sym --no-children

Scenes are ``engine.scenes`` builders, with their defaults or one integer argument
(``tumbler``, ``box2d_tumbler``, ``rain``, ``pyramid:20`` ...), sleeping off.
"""
import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time

import numba

__all__ = ["settled_world", "write_perf_map"]


def _text_symbols(obj):
    """``(offset, size, name)`` of the function symbols of an ELF object file's bytes."""
    with tempfile.NamedTemporaryFile(suffix=".o", delete=False) as fh:
        fh.write(obj)
        path = fh.name
    try:
        out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True,
                             text=True, check=True).stdout
    finally:
        os.unlink(path)
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT":
            found.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return found


def _readable(name):
    """``engine.dynamics.soft_step.step_bodies`` from a mangled Numba symbol."""
    if not name.startswith("_ZN"):
        return name
    parts = re.findall(r"\d+([A-Za-z_][A-Za-z0-9_]*)", name[3:])
    return ".".join(p for p in parts[:6] if not p.startswith("B"))


def write_perf_map(path=None):
    """Write the perf map of every Numba function compiled in this process; returns
    how many symbols it names (0 when every function came from the cache).

    Examples
    --------
    >>> write_perf_map(os.devnull) >= 0
    True
    """
    entries = set()
    for dispatcher in [o for o in gc.get_objects() if isinstance(o, numba.core.registry.CPUDispatcher)]:
        for cres in list(dispatcher.overloads.values()):
            library = cres.library
            obj = getattr(library, "_compiled_object", None)
            if not obj:
                continue  # loaded from the cache: no object code kept
            symbols = _text_symbols(obj)
            base = None
            for offset, _, name in symbols:
                try:
                    address = library.get_pointer_to_function(name)
                except Exception:  # noqa: BLE001 - a local symbol: not exported
                    address = 0
                if address:
                    base = address - offset
                    break
            if base is not None:
                entries.update((base + offset, max(size, 1), _readable(name))
                               for offset, size, name in symbols)
    path = path or f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as fh:
        for address, size, name in sorted(entries):
            fh.write(f"{address:x} {size:x} {name}\n")
    return len(entries)


def settled_world(spec, steps):
    """The world of ``engine.scenes`` builder ``spec`` (``"name"`` or ``"name:size"``),
    sleeping off, after ``steps`` steps of 1/60 s."""
    from engine import scenes
    name, _, size = spec.partition(":")
    factory = getattr(scenes, name)
    world = (factory(int(size)) if size else factory()).build()[0]
    world.sleeping = False
    for _ in range(steps):
        world.step(1 / 60)
    return world


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scene", default="tumbler", help="an engine.scenes builder[:size]")
    p.add_argument("--seconds", type=float, default=20.0, help="how long to step after warming up")
    args = p.parse_args(argv)
    world = settled_world(args.scene, 60)
    print(f"profiling pid {os.getpid()} for {args.seconds:g} s", flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        world.step(1 / 60)
    print(f"perf map: {write_perf_map()} symbols", file=sys.stderr)


if __name__ == "__main__":
    main()
