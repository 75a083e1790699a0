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
import json
import os
import subprocess
import sys

from engine import _prebuilt, scenes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

JOINTS = """
from engine import Circle, Polygon, World


def every_joint():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(20, 1, center=(0, -3)))
    prev = ground
    for i in range(6):
        link = world.create_body(position=(0.25 + 0.5 * i, 2))
        link.add_shape(Polygon.box(0.5, 0.1))
        world.create_revolute_joint(prev, link, (0.5 * i, 2), limits=(-1, 1) if i % 2 else None)
        prev = link
    bob = world.create_body(position=(3, 0))
    bob.add_shape(Circle(0.2))
    world.create_distance_joint(prev, bob, (3, 2), (3, 0), spring_hertz=2, spring_damping=0.1)
    car = world.create_body(position=(-3, -2))
    car.add_shape(Polygon.box(1.5, 0.3))
    wheel = world.create_body(position=(-3.5, -2.3))
    wheel.add_shape(Circle(0.2))
    world.create_wheel_joint(car, wheel, (-3.5, -2.3), (0, 1), motor_speed=-10, max_motor_torque=20)
    world.create_prismatic_joint(ground, car, (-3, -2), (1, 0), limits=(-1, 1), motor_speed=1,
                                 max_motor_force=5)
    arm = world.create_body(position=(-6, 0))
    arm.add_shape(Polygon.box(1, 0.2))
    world.create_weld_joint(car, arm, (-5.5, 0), angular_hertz=3)
    puck = world.create_body(position=(5, -2))
    puck.add_shape(Circle(0.3))
    world.create_motor_joint(ground, puck, linear_offset=(6, -2), max_force=50, max_torque=5)
    world.create_mouse_joint(bob, (3, 0), max_force=100).target = (4, 1)
    world.create_gear_joint(wheel, puck, ratio=2.0)
    world.create_angular_joint(arm, puck, limits=(-0.5, 0.5))
    world.create_ratchet_joint(ground, link, 0.2)
    return world
"""

SCRIPT = JOINTS + """
import collections, json
import numba.core.event

class Compiles(numba.core.event.Listener):  # what compiles, and how often (cold run only)
    def __init__(self):
        self.count = collections.Counter()
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        self.count[f.__module__ + "." + f.__name__] += 1
    def on_end(self, event):
        pass

compiles = Compiles()
numba.core.event.register("numba:compile", compiles)
import hashlib
import numpy as np
from engine import scenes
digest = hashlib.sha256()
for scene, steps in ((scenes.rain(2000, 1000), 60), (scenes.concave_drop(), 60), (scenes.tumbler(), 60), (None, 120)):
    world = scene.build()[0] if scene is not None else every_joint()
    for _ in range(steps):
        world.step(1 / 60)
    for a in (world.positions, world.angles, world.velocities, world.angular_velocities):
        digest.update(np.ascontiguousarray(a).tobytes())
    for joint in world.joints:
        digest.update(np.array(joint.reaction_force + (joint.reaction_torque,)).tobytes())
print(digest.hexdigest())
print(json.dumps(compiles.count))
"""


def _run(cache_dir, prebuilt="0"):
    # prebuilt "0": kernels compiled here, not loaded from the package's archive
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir), ENGINE_PREBUILT=prebuilt)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)
    digest, compiles = out.stdout.strip().splitlines()
    return digest, json.loads(compiles)


# Kernels compiled twice on purpose: a world without joints passes None for them, so
# its step never compiles the joint solvers; the first world with a joint compiles the
# step again with them (docs/performance.md).
COMPILED_TWICE = {"engine.dynamics.soft_step.step_bodies", "engine.dynamics.soft_step._solve_block",
                  "engine.dynamics.soft_step._substeps"}


def test_cold_and_warm_runs_give_bit_identical_states(tmp_path):
    cold, compiled = _run(tmp_path)
    assert any(tmp_path.rglob("*.nbc")), "the cold run should have filled the cache"
    warm, recompiled = _run(tmp_path)
    assert cold == warm
    assert not any(name.startswith("engine.") for name in recompiled)  # all loaded from the cache
    # Compile time (_jit.py, "Compile time"): no kernel compiled once per literal
    # argument, and no array-into-array assignment compiling Numba's string machinery.
    twice = {name for name, n in compiled.items() if name.startswith("engine.") and n > 1}
    assert twice <= COMPILED_TWICE, twice - COMPILED_TWICE
    assert not [name for name in compiled if name.startswith("numba.cpython.unicode")]
    # The kernels shipped compiled for x86-64-v3 (engine/_prebuilt.py) compute the same
    # numbers as those just compiled for this machine, and hold every kernel these reach.
    if _prebuilt.usable():
        shipped, compiled_too = _run(tmp_path / "shipped", prebuilt="1")
        assert shipped == cold
        assert not [name for name in compiled_too if name.startswith("engine.")]


def _copies_continue(world):
    import copy
    import pickle

    import numpy as np

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
        assert [j.reaction_force for j in w.joints] == [j.reaction_force for j in world.joints]
        assert all(j.body_b.world is w for j in w.joints)


def test_pickled_and_deep_copied_worlds_continue_bit_identically():
    """A copy is a world of its own: stepping it and the original gives the same states
    bit for bit, and neither touches the other (the state's cached array views must not
    survive the copy as copies of their own); joints included."""
    _copies_continue(scenes.pyramid(6).build()[0])
    namespace = {}
    exec(JOINTS, namespace)
    _copies_continue(namespace["every_joint"]())
