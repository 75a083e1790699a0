"""A program's first run compiles the solver in a second process, beside the first.

On an empty Numba cache a world's first step compiles every kernel it uses, one after
the other on one core: about 45 s on a 2-core machine. Almost half of it is the solver
(``dynamics/soft_step.step_bodies`` and what it calls: ``contact_pass`` alone is about
10 s), which needs nothing from the stages before it but the types of its arguments, and
those are the same for every world without joints. So when the first world of a process
is made and the solver is not in the cache, :func:`start` launches
``python -m engine.world.compile_ahead``: a helper process that makes a one-body world,
calls the solver stage once (compiling it, which writes it to Numba's cache) and exits.
It goes on with the stages after the solver that compile (the sleep timers, the search
for fast bodies). Meanwhile this process compiles the broadphase and the narrowphase as
it steps; when it reaches the solver it waits for the helper (:func:`wait`) and loads
the solver from the cache. Measured on a 2-core machine: a cold pyramid20 start
45.6-48.0 s -> 24.7-25.5 s (``docs/performance.md``, session 18).

The helper only writes Numba's ordinary cache, so a run without it computes the same
thing; whatever it has not finished, this process compiles itself. Only one helper runs
per cache (a lock file in the cache folder): processes started together on a cold
machine (a Dask cluster's workers) do not all compile the solver twice. A helper still
running when this process exits is stopped. ``ENGINE_COMPILE_AHEAD=0`` turns it off;
under ``NUMBA_DISABLE_JIT`` nothing compiles and no helper starts, nor in a frozen
application (its ``sys.executable`` is the application, not Python), nor where the
package's prebuilt kernels are used (``engine/_prebuilt.py``): they hold the solver.
"""
import atexit
import os
import pathlib
import subprocess
import sys
import time

import numba

from .._prebuilt import usable as prebuilt_usable
from ..dynamics.soft_step import step_bodies

__all__ = ["start", "wait", "pending"]

_ENV = "ENGINE_COMPILE_AHEAD"
# A lock older than this is left over from a helper that was killed: ignore it.
_STALE_LOCK_SECONDS = 600.0
# How long the main process waits for the helper at the most before compiling itself.
_WAIT_SECONDS = 300.0

_helper = None  # the running helper (a Popen), or None
_lock = None  # its lock file
_checked = False  # start() looks once per process


def _solver_index():
    """The path of the solver's Numba cache index, or None if Numba keeps none."""
    try:
        return pathlib.Path(step_bodies._cache._cache_file._index_path)
    except AttributeError:  # another Numba, or caching off: no helper
        return None


def _take_lock(index):
    """Create the helper's lock file beside ``index`` and return its path; None when
    another process holds it (a lock older than ten minutes is taken over) or the
    folder is read-only."""
    lock = index.with_suffix(".compiling")
    try:
        if time.time() - lock.stat().st_mtime > _STALE_LOCK_SECONDS:
            lock.unlink()
    except OSError:
        pass
    try:
        index.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except OSError:  # taken, or a read-only cache: no helper
        return None
    return lock


def start():
    """Launch the helper that compiles the solver, if this process needs it.

    Called when a world is made; it does something on the first call of a process only,
    and only if the solver is missing from the cache, compiling is on, and no other
    process holds the helper's lock. Returns whether a helper was launched.

    Examples
    --------
    >>> from engine.world import compile_ahead
    >>> launched = compile_ahead.start()  # True only on a first run
    >>> compile_ahead.wait()  # what the solver stage does before its first call
    >>> compile_ahead.pending()
    False
    """
    global _checked, _helper, _lock
    if _checked:
        return False
    _checked = True
    if os.environ.get(_ENV, "1") == "0" or numba.config.DISABLE_JIT:
        return False
    if prebuilt_usable():  # the shipped kernels (``_prebuilt.py``) hold the solver
        return False
    if not sys.executable or getattr(sys, "frozen", False):  # no Python to run it with
        return False
    index = _solver_index()
    if index is None or index.exists():
        return False
    lock = _take_lock(index)
    if lock is None:
        return False
    env = dict(os.environ, **{_ENV: "0", "ENGINE_COMPILE_NOTICE": "0"})
    root = str(pathlib.Path(__file__).resolve().parents[2])  # so a source checkout imports
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    try:
        _helper = subprocess.Popen(
            [sys.executable, "-m", __name__, str(lock)], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    _lock = lock
    atexit.register(_stop)
    return True


def wait():
    """Wait for the helper to finish (at most five minutes), if one is running."""
    global _helper
    helper, _helper = _helper, None
    if helper is not None:
        try:
            helper.wait(_WAIT_SECONDS)
        except subprocess.TimeoutExpired:  # compile the rest here
            pass


def pending():
    """Whether a helper was launched and not yet waited for."""
    return _helper is not None


def _stop():
    """At exit: stop a helper this process no longer needs."""
    if _helper is not None and _helper.poll() is None:
        _helper.terminate()
        _helper.wait()
        _lock.unlink(missing_ok=True)  # (a terminated helper leaves it)


def _compile_solver(lock):
    """The helper's work: call the solver stage of a one-body world and the two stages
    after it that compile (sleep, the search for fast bodies), then drop the lock."""
    try:
        from . import stages
        from .world import World
        world = World()
        world.create_body(position=(0.0, 0.0))
        stages.solve(world._state, 1.0 / 60.0)
        stages.continuous(world._state)
        stages.sleep(world._state, 1.0 / 60.0)
    finally:
        pathlib.Path(lock).unlink(missing_ok=True)


if __name__ == "__main__":
    _compile_solver(sys.argv[1])
