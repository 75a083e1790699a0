"""A Gymnasium-style vector environment on ``WorldBatch``: n cart-poles stepped as one.

Run from the repository root::

    python examples/vector_env.py            # 1024 cart-poles, a PD policy and a random one
    python examples/vector_env.py --envs 64 --steps 300

``CartPoleVectorEnv`` follows Gymnasium's vector API (``reset() -> (obs, info)``,
``step(actions) -> (obs, reward, terminated, truncated, info)``, finished worlds reset
automatically) without importing Gymnasium: wrap it in ``gymnasium.vector.VectorEnv``
if you use that library. Each world is a cart on a prismatic joint and a pole on a
revolute joint; an action pushes the cart left (0) or right (1) with 10 N. All worlds
step in the kernel calls of one ``batch.step``; per-world work is only NumPy.
"""
import argparse
import time

import numpy as np

from engine import Polygon, World, WorldBatch

DT = 1 / 60
FORCE = 10.0  # N, each action
MAX_ANGLE = 0.21  # rad: beyond it the pole has fallen
MAX_X = 2.4  # m: beyond it the cart has left the track
MAX_STEPS = 500


def cartpole():
    """The template world: ground, cart (body 1) and pole (body 2)."""
    world = World(gravity=(0, -9.8), sleeping=False)
    ground = world.create_body("static")
    cart = world.create_body(position=(0, 0.5))
    cart.add_shape(Polygon.box(0.5, 0.3), density=4.0)  # 0.6 kg
    pole = world.create_body(position=(0, 1.15))
    pole.add_shape(Polygon.box(0.05, 1.0), density=2.0)  # 0.1 kg, 1 m
    world.create_prismatic_joint(ground, cart, (0, 0.5), (1, 0))
    world.create_revolute_joint(cart, pole, (0, 0.65))
    return world


class CartPoleVectorEnv:
    """``num_envs`` cart-poles in one :class:`~engine.WorldBatch`."""

    def __init__(self, num_envs, seed=0):
        self.num_envs = num_envs
        self.batch = WorldBatch.replicate(cartpole(), num_envs)
        self.rng = np.random.default_rng(seed)
        self.steps = np.zeros(num_envs, np.int64)

    def _kick(self, worlds):
        """Start the chosen worlds' poles with a small random spin (Gymnasium's noise)."""
        b = self.batch.bodies_per_world
        spin = np.zeros((worlds.size, b))
        spin[:, 2] = self.rng.uniform(-0.3, 0.3, worlds.size)
        self.batch.set_state(angular_velocities=spin, worlds=worlds)

    def observe(self):
        """(n, 4): cart x, cart speed, pole angle, pole angular speed."""
        b = self.batch
        return np.stack([b.positions[:, 1, 0], b.velocities[:, 1, 0], b.angles[:, 2],
                         b.angular_velocities[:, 2]], axis=1)

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        everything = np.arange(self.num_envs)
        self.batch.reset()
        self._kick(everything)
        self.steps[:] = 0
        return self.observe(), {}

    def step(self, actions):
        forces = np.zeros((self.num_envs, self.batch.bodies_per_world, 2))
        forces[:, 1, 0] = np.where(np.asarray(actions) > 0, FORCE, -FORCE)
        self.batch.apply_forces(forces)
        self.batch.step(DT)
        self.steps += 1
        obs = self.observe()
        terminated = (np.abs(obs[:, 2]) > MAX_ANGLE) | (np.abs(obs[:, 0]) > MAX_X)
        truncated = self.steps >= MAX_STEPS
        reward = np.ones(self.num_envs)
        done = np.flatnonzero(terminated | truncated)
        info = {"final_observation": obs[done].copy(), "final_steps": self.steps[done].copy(),
                "done": done}
        if done.size:  # Gymnasium's autoreset: finished worlds start again at once
            self.batch.reset(worlds=done)
            self._kick(done)
            self.steps[done] = 0
            obs = self.observe()
        return obs, reward, terminated, truncated, info


def pd_policy(obs):
    """Push the cart under the pole (angles are counter-clockwise: a positive angle leans
    left, so push left), damped, with a little of the cart's own position and speed."""
    lean = obs[:, 2] * 10.0 + obs[:, 3] * 2.0 - obs[:, 0] * 0.3 - obs[:, 1] * 0.5
    return (lean < 0).astype(int)


def run(env, policy, steps):
    """Mean length of the episodes that finished, and environment steps per second."""
    obs, _ = env.reset(seed=1)
    lengths = []
    t = time.perf_counter()
    for _ in range(steps):
        obs, _, _, _, info = env.step(policy(obs))
        lengths.extend(info["final_steps"].tolist())
    rate = steps * env.num_envs / (time.perf_counter() - t)
    return (float(np.mean(lengths)) if lengths else float(steps)), rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=600)
    args = parser.parse_args()
    env = CartPoleVectorEnv(args.envs)
    rng = np.random.default_rng(0)
    for name, policy in (("random", lambda o: rng.integers(0, 2, len(o))), ("pd", pd_policy)):
        length, rate = run(env, policy, args.steps)
        print(f"{name:6} policy: mean episode {length:6.1f} steps, "
              f"{rate:,.0f} env-steps/s over {args.envs} worlds")


if __name__ == "__main__":
    main()
