"""The examples in ``examples/`` run and do what their docstrings say."""
import importlib.util
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cartpole_vector_env_balances_with_pd_and_falls_at_random():
    ve = _load("vector_env")
    env = ve.CartPoleVectorEnv(8)
    rng = np.random.default_rng(0)
    random_length, _ = ve.run(env, lambda o: rng.integers(0, 2, len(o)), 200)
    pd_length, _ = ve.run(env, ve.pd_policy, ve.MAX_STEPS + 5)
    assert random_length < 60  # a random cart drops its pole within a second
    assert pd_length == ve.MAX_STEPS  # every episode ends by truncation, the pole up


def test_cartpole_autoreset_matches_a_fresh_world():
    """A world the vector env reset continues exactly as a fresh copy of the template
    given the same spin and the same pushes."""
    ve = _load("vector_env")
    env = ve.CartPoleVectorEnv(3)
    obs, _ = env.reset(seed=3)
    while True:  # push right until world 0 falls and is reset
        obs, _, terminated, truncated, _ = env.step(np.ones(3, int))
        if terminated[0] or truncated[0]:
            break
    fresh = ve.cartpole()
    fresh.bodies[2].angular_velocity = float(obs[0, 3])  # the reset's random spin
    for _ in range(6):  # (a constant push drops the pole in about 8 steps)
        env.step(np.array([0, 1, 1]))
        fresh.bodies[1].apply_force((-ve.FORCE, 0.0))
        fresh.step(ve.DT)
        assert np.array_equal(env.batch.positions[0], fresh.positions)
        assert np.array_equal(env.batch.velocities[0], fresh.velocities)
