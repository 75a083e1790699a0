"""Rollback netcode: two peers simulate one match and agree bit for bit.

Two players each push a ball around an arena full of boxes. Each peer runs its own
world and knows its own player's input at once, but the other player's input reaches it
``DELAY`` steps late; until then it guesses "same as last known". Every step each peer
restores the snapshot taken ``ROLLBACK`` steps ago (``World.restore``), replays those
steps with the inputs it knows now, and takes new snapshots into a ring (``World.snapshot
(out=...)``, no allocation once warm). A third world steps with every input on time.

Shown is peer A's world. Each step, the state A restores (``ROLLBACK`` steps back, when
every input before it is known) must hash (``World.state_hash``) as the on-time world did
at that step; the count of confirmed steps and of mismatches is on screen, and the last
line printed compares the three worlds at the end, after the players stop.
"""
import numpy as np

from engine import Circle, Polygon, World

from . import _viewer

DESCRIPTION = "two peers with a delayed input roll back 8 steps every step and stay bit-identical"
DELAY = 6  # steps the other player's input takes to arrive
ROLLBACK = 8  # steps each peer replays every step (>= DELAY)
PUSH = 1.2  # impulse of one input, N s
QUIET = 30  # steps at the end without input, so every guess comes true


def arena():
    """Walls, a floor, a pile of boxes and the two players' balls (bodies 1 and 2)."""
    world = World(sleeping=False)
    walls = world.create_body("static")
    walls.add_shape(Polygon.box(16, 0.5, center=(0, -0.25)))
    for x in (-8, 8):
        walls.add_shape(Polygon.box(0.5, 8, center=(x, 4)))
    for color, x in (("a", -5.0), ("b", 5.0)):
        ball = world.create_body(position=(x, 0.6))
        ball.add_shape(Circle(0.5), density=2.0, friction=0.4, restitution=0.2)
        ball.user_data = color
    rng = np.random.default_rng(7)
    for i in range(24):
        box = world.create_body(position=(rng.uniform(-3, 3), 0.4 + 0.5 * i), angle=rng.uniform(-0.5, 0.5))
        box.add_shape(Polygon.box(0.6, 0.4), density=0.5, friction=0.6)
    return world


def script(steps, seed):
    """A player's inputs: -1, 0 or +1 (left, none, right), changing every 10-30 steps."""
    rng = np.random.default_rng(seed)
    out = np.zeros(steps, np.int8)
    t = 0
    while t < steps - QUIET:
        span = int(rng.integers(10, 30))
        out[t:t + span] = rng.integers(-1, 2)
        t += span
    out[steps - QUIET:] = 0
    return out


class Peer:
    """One peer: its world, what it knows of both inputs, and its snapshot ring."""

    def __init__(self, me, inputs):
        self.world = arena()
        self.me, self.inputs = me, inputs  # inputs[p][t]: player p's input at step t
        self.ring = [None] * (ROLLBACK + 1)

    def known(self, player, t, now):
        """Player's input at step t as this peer knows it at step ``now``."""
        if player == self.me or t <= now - DELAY:
            return self.inputs[player][t]
        last = now - DELAY  # the latest input of the other player that has arrived
        return self.inputs[player][last] if last >= 0 else 0

    def advance(self, t, now, step=True):
        """Snapshot the start of step t, apply its inputs, step (unless ``step``)."""
        slot = t % len(self.ring)
        self.ring[slot] = self.world.snapshot(out=self.ring[slot])
        push(self.world, [self.known(p, t, now) for p in (0, 1)])
        if step:
            self.world.step(_viewer.DT)

    def frame(self, now, step=True):
        """Roll back to step ``now - ROLLBACK``, replay to ``now``, then play ``now``.
        Returns that step and the state hash restored there."""
        start = max(0, now - ROLLBACK)
        if now > 0:
            self.world.restore(self.ring[start % len(self.ring)])
        restored = self.world.state_hash()
        for t in range(start, now):
            self.advance(t, now)
        self.advance(now, now, step)
        return start, restored


def push(world, moves):
    for body, move in zip(world.bodies[1:3], moves):
        if move:
            body.apply_impulse((PUSH * float(move), 0.0))


class Match:
    def __init__(self, steps):
        self.inputs = [script(steps, 1), script(steps, 2)]
        self.a, self.b = Peer(0, self.inputs), Peer(1, self.inputs)
        self.truth, self.hashes = arena(), []
        self.now = self.checked = self.mismatches = 0

    def control(self, world, keys):
        """Runs before each of the viewer's steps of peer A's world."""
        now = self.now
        self.hashes.append(self.truth.state_hash())
        start, restored = self.a.frame(now, step=False)  # the viewer steps A
        if now >= ROLLBACK:  # A restored step ``start``: every input before it was known
            self.checked += 1
            self.mismatches += restored != self.hashes[start]
        self.b.frame(now)
        push(self.truth, [self.inputs[p][now] for p in (0, 1)])
        self.truth.step(_viewer.DT)
        self.now += 1

    def overlay(self, drawer, world):
        drawer.draw_text((-7.5, 8.6), f"peer A: input of B {DELAY} steps late, rolls back {ROLLBACK} "
                                      f"steps every step", (230, 230, 230))
        drawer.draw_text((-7.5, 8.0), f"confirmed steps {self.checked}, hash mismatches "
                                      f"{self.mismatches}", (255, 230, 60))


def main(argv=()):
    opts = _viewer.options(argv, "rollback", frames=150)
    steps = opts["frames"] * _viewer.STEPS_PER_FRAME + 2
    match = Match(max(steps, QUIET + 2))
    out = _viewer.run(match.a.world, "Rollback: peer A", control=match.control,
                      overlay=match.overlay, **opts)
    match.b.frame(match.now, step=False)  # both peers replay the last steps with all inputs
    match.a.frame(match.now, step=False)
    same = match.a.world.state_hash() == match.b.world.state_hash() == match.truth.state_hash()
    print(f"rollback: {match.checked} confirmed steps, {match.mismatches} mismatches; at the end "
          f"peer A, peer B and the on-time world are {'bit-identical' if same else 'DIFFERENT'}")
    return out


if __name__ == "__main__":
    main()
