"""A first run compiles the solver in a helper process (``engine/world/compile_ahead.py``):
the main process then loads it from the cache, and computes what it computes without."""
import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

from engine import scenes
from engine.world import compile_ahead

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled")

_FIRST_RUN = textwrap.dedent('''
    import numba.core.event as ev
    import numpy as np
    compiled = []
    class Spy(ev.Listener):
        def on_start(self, e):
            compiled.append(e.data["dispatcher"].py_func.__name__)
        def on_end(self, e):
            pass
    ev.register("numba:compile", Spy())
    from engine import scenes
    from engine.world import compile_ahead
    world, _ = scenes.pyramid(6).build()
    assert compile_ahead.pending()  # launched by the first world
    world.step(1 / 60)
    assert not compile_ahead.pending()  # waited for at the solver
    print(" ".join(sorted(set(compiled))))
    print(np.asarray(world.positions).tobytes().hex())
''')


def test_a_cold_first_step_loads_the_solver_the_helper_compiled(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               ENGINE_COMPILE_NOTICE="0", ENGINE_PREBUILT="0")  # compile, not the shipped kernels
    env.pop(compile_ahead._ENV, None)
    done = subprocess.run([sys.executable, "-c", _FIRST_RUN], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    compiled, positions = done.stdout.split("\n")[:2]
    compiled = compiled.split()
    # this process compiled the broadphase and the narrowphase itself ...
    assert "update_contacts" in compiled and "refresh_proxies" in compiled
    # ... and loaded the solver, the sleep timers' kernel and the fast-body search
    for name in ("step_bodies", "contact_pass", "update_sleep", "find_fast"):
        assert name not in compiled
    assert not list((tmp_path / "cache").rglob("*.compiling"))  # the lock is gone
    world, _ = scenes.pyramid(6).build()  # the same step here (warm kernels)
    world.step(1 / 60)
    assert positions == np.asarray(world.positions).tobytes().hex()


def test_no_helper_when_turned_off_or_warm_or_locked(tmp_path, monkeypatch):
    index = tmp_path / "soft_step.step_bodies-1.py311.nbi"
    monkeypatch.setattr(compile_ahead, "_solver_index", lambda: index)

    def fresh_start():
        monkeypatch.setattr(compile_ahead, "_checked", False)
        return compile_ahead.start()

    monkeypatch.setenv(compile_ahead._ENV, "0")
    assert not fresh_start()
    monkeypatch.delenv(compile_ahead._ENV)
    index.write_bytes(b"")
    assert not fresh_start()  # the solver is in the cache
    index.unlink()
    lock = index.with_suffix(".compiling")
    lock.write_bytes(b"")  # another process's helper is compiling it
    assert not fresh_start()
    assert not compile_ahead.start()  # once a process: not looked at again
    assert lock.exists() and not compile_ahead.pending()


def test_a_stale_lock_is_taken_and_a_helper_stopped_at_exit_drops_it(tmp_path, monkeypatch):
    index = tmp_path / "soft_step.step_bodies-1.py311.nbi"
    lock = index.with_suffix(".compiling")
    lock.write_bytes(b"")
    os.utime(lock, (0, 0))  # left by a helper killed long ago
    assert compile_ahead._take_lock(index) == lock
    assert compile_ahead._take_lock(index) is None  # now held

    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.setattr(compile_ahead, "_helper", helper)
    monkeypatch.setattr(compile_ahead, "_lock", lock)
    compile_ahead._stop()
    assert helper.poll() is not None and not lock.exists()
