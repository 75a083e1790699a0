"""The scenes behind the tumbler, domino and cradle demos do what the demos claim."""
import math

import numpy as np
import pytest

from engine import BodyType, scenes

DT = 1.0 / 60.0


def _local(points, pose):
    """Points (k, 2) in the frame of ``pose`` (x, y, angle)."""
    x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    d = np.asarray(points) - (x, y)
    return np.column_stack((c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]))


def _tumble(seed, size=10.0, omega=1.0):
    """Ten seconds (1.6 turns) of the tumbler of ``seed``: ``(box, loose bodies, start
    heights, deepest reach of a body past the box's inner walls in m (each 10th step),
    path length of each body)``."""
    world, bodies = scenes.tumbler(60, size, angular_velocity=omega, seed=seed).build()
    box, loose = bodies[0], bodies[1:]
    assert box.body_type == BodyType.KINEMATIC
    start_heights = np.array([b.position[1] for b in loose])
    worst, travelled = 0.0, np.zeros(len(loose))
    for i in range(1, 601):
        before = world.positions[1:].copy()
        world.step(DT)
        travelled += np.hypot(*(world.positions[1:] - before).T)
        if i % 10 == 0:
            pose = (*box.position, box.angle)
            for body in loose:
                shape = body.shapes[0].shape
                pts = shape.vertices if hasattr(shape, "vertices") else np.array([shape.center])
                r = 0.0 if hasattr(shape, "vertices") else shape.radius
                corners = _local(_local(pts, (0.0, 0.0, -body.angle)) + body.position, pose)
                worst = max(worst, float(np.abs(corners).max() + r))
    return box, loose, start_heights, worst - 0.5 * size, travelled


def test_tumbler_turns_at_its_rate_and_carries_every_body_round():
    omega = 1.0
    box, loose, start_heights, _, travelled = _tumble(3, omega=omega)
    assert box.position == (0.0, 0.0)
    assert box.angle == pytest.approx(omega * 600 * DT, rel=1e-9)  # kinematic: exactly its velocity
    assert travelled.min() > 5.0  # every body was carried round, none stuck
    assert not np.allclose([b.position[1] for b in loose], start_heights, atol=0.5)


def test_tumbler_keeps_every_body_inside_its_walls():
    """Inside the walls (0.5 m thick), give or take the soft contacts' give under the
    pile's load. One seed's deepest corner is the pile's chaos, not a trend: over seeds
    1-8 it was 1.8-11.8 cm (median 5.8) with the colouring in pair-key order, and is
    3.1-14.4 cm (median 6.2) with the scrambled colouring (session 27; seed 3, the one
    this test used alone, went from 6.0 to 14.4 cm past a 10 cm bound). So every seed
    must stay within 20 cm and the median within 8 cm."""
    reach = [_tumble(seed)[3] for seed in range(1, 9)]
    assert max(reach) < 0.20, reach
    assert np.median(reach) < 0.08, reach


def test_dominoes_topple_in_order_and_all_fall():
    count = 20
    world, bodies = scenes.domino(count).build()
    dominoes = bodies[1:]
    fell_at = np.full(count, -1)
    for i in range(480):  # eight seconds
        world.step(DT)
        angles = np.abs(world.angles[1:])
        fell_at[(fell_at < 0) & (angles > math.radians(30))] = i
    assert (fell_at >= 0).all(), f"standing: {np.nonzero(fell_at < 0)[0].tolist()}"
    assert (np.diff(fell_at) > 0).all()  # one after the other, in row order
    gaps = np.diff(fell_at)[2:]
    assert gaps.max() < 2 * gaps.min()  # a steady wave once it runs
    assert dominoes[-1].angle == pytest.approx(-math.pi / 2, abs=0.05)  # the last lies flat
    assert all(b.angle < 0 for b in dominoes)  # all fell the same way


def _energy(bodies):
    return sum(0.5 * b.mass * (b.velocity[0] ** 2 + b.velocity[1] ** 2) for b in bodies)


def test_cradle_moves_all_momentum_to_the_last_ball():
    speed = 3.0
    world, bodies = scenes.cradle(count=5, speed=speed).build()
    balls = [b for b in bodies if b.body_type == BodyType.DYNAMIC]
    row, striker = balls[:-1], balls[-1]
    momentum, energy = sum(b.mass * b.velocity[0] for b in balls), _energy(balls)
    for _ in range(120):
        world.step(DT)
    assert striker.velocity[0] == pytest.approx(0.0, abs=0.02)
    assert row[-1].velocity[0] == pytest.approx(speed, rel=0.01)
    for b in row[:-1]:
        assert b.velocity[0] == pytest.approx(0.0, abs=0.02)
    assert sum(b.mass * b.velocity[0] for b in balls) == pytest.approx(momentum, rel=1e-6)
    assert _energy(balls) == pytest.approx(energy, rel=0.01)


def test_touching_cradle_moves_all_momentum_to_the_last_ball():
    """A struck row of touching balls: the collisions pass down the row one pair at a
    time (the collision phase, ``dynamics/impacts.py``), so the striker stops and the
    last ball leaves at its speed, as with gaps; energy is kept and never created. Before
    that phase the soft solver spread the momentum over the row (Box2D does too)."""
    world, bodies = scenes.cradle(count=5, gap=0.0).build()
    world.sleeping = False
    balls = [b for b in bodies if b.body_type == BodyType.DYNAMIC]
    row, striker = balls[:-1], balls[-1]
    energy = _energy(balls)
    momentum = sum(b.mass * b.velocity[0] for b in balls)
    for _ in range(120):
        world.step(DT)
        assert _energy(balls) <= energy * (1.0 + 1e-9)
    assert sum(b.mass * b.velocity[0] for b in balls) == pytest.approx(momentum, rel=1e-9)
    assert row[-1].velocity[0] == pytest.approx(3.0, abs=1e-9)
    for b in row[:-1] + [striker]:
        assert abs(b.velocity[0]) <= 1e-9
    assert _energy(balls) == pytest.approx(energy, rel=1e-9)
