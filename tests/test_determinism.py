"""Two program runs of one scene give bit-identical states, whether the kernels were just
compiled (cold) or loaded from Numba's on-disk cache (warm).

In-process repeatability is in ``test_dynamics``. Across processes the kernels' machine
code is what can differ: with FMA contraction on, the collision kernels compiled fresh
and the same kernels loaded from the cache once fused different multiply-adds, and the
trajectories of a rain scene drifted apart after 26 steps (``_jit.py``). This
runs the scene in a subprocess with an empty cache directory, then again in one that
finds that cache, and compares hashes of the full body state. The cold run compiles
every kernel it reaches (about half a minute).
"""
import os
import subprocess
import sys

from engine import scenes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = """
import hashlib
import numpy as np
from engine import scenes
digest = hashlib.sha256()
for scene, steps in ((scenes.rain(2000, 1000), 60), (scenes.concave_drop(), 60), (scenes.tumbler(), 60)):
    world, _ = scene.build()
    for _ in range(steps):
        world.step(1 / 60)
    for a in (world.positions, world.angles, world.velocities, world.angular_velocities):
        digest.update(np.ascontiguousarray(a).tobytes())
print(digest.hexdigest())
"""


def _run(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


def test_cold_and_warm_runs_give_bit_identical_states(tmp_path):
    cold = _run(tmp_path)
    assert any(tmp_path.rglob("*.nbc")), "the cold run should have filled the cache"
    warm = _run(tmp_path)
    assert cold == warm


def test_pickled_and_deep_copied_worlds_continue_bit_identically():
    """A copy is a world of its own: stepping it and the original gives the same states
    bit for bit, and neither touches the other (the state's cached array views must not
    survive the copy as copies of their own)."""
    import copy
    import pickle

    import numpy as np

    world, _ = scenes.pyramid(6).build()
    for _ in range(30):
        world.step(1 / 60)
    copies = [pickle.loads(pickle.dumps(world)), copy.deepcopy(world)]
    for _ in range(30):
        for w in (world, *copies):
            w.step(1 / 60)
    for w in copies:
        for name in ("positions", "angles", "velocities", "angular_velocities"):
            assert np.array_equal(getattr(w, name), getattr(world, name))
        assert w.bodies[3].position == world.bodies[3].position
        assert w.bodies[3].world is w
