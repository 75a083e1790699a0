"""``World.create_bodies``: the world a loop of ``create_body`` + ``add_shape`` builds,
bit for bit, from arrays; bad arrays refused with nothing added."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Filter, Polygon, Segment, World


def _ground(world):
    g = world.create_body("static")
    g.add_shape(Polygon.box(40, 1, center=(0, -0.5)))
    return g


def _loop(world, shape, pos, angles, kind, vel, angvel, **material):
    out = []
    for k in range(len(pos)):
        b = world.create_body(kind, position=pos[k], angle=angles[k], velocity=vel[k],
                              angular_velocity=angvel[k])
        b.add_shape(shape, **material)
        out.append(b)
    return out


SHAPES = [Circle(0.3), Circle(0.25, center=(0.1, -0.05)), Polygon.box(0.5, 0.4),
          Polygon([(0, 0), (1, 0), (1, 1), (0.5, 0.4), (0, 1)]),  # concave: two pieces
          Segment((-0.3, 0), (0.3, 0.1), radius=0.05)]


@settings(max_examples=25, deadline=None)
@given(shape=st.sampled_from(SHAPES), n=st.integers(1, 12), kind=st.sampled_from(["dynamic", "kinematic", "static"]),
       seed=st.integers(0, 2**31 - 1), churn=st.booleans())
def test_the_same_world_as_a_loop_bit_for_bit(shape, n, kind, seed, churn):
    """Rows, ids, trees and 30 steps of motion equal a loop's, also when freed ids are
    reused (``churn``: bodies destroyed first)."""
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-8, 8, (n, 2)) + [0, 10]
    angles = rng.uniform(-math.pi, math.pi, n)
    vel = rng.normal(0, 3, (n, 2))
    angvel = rng.normal(0, 2, n)
    worlds, made = [], []
    for bulk in (False, True):
        world = World()
        _ground(world)
        if churn:
            extra = [world.create_body(position=(k, 20)) for k in range(3)]
            for b in extra:
                b.add_shape(Polygon.box(0.2, 0.2))
            world.destroy_body(extra[1])
        if bulk:
            bodies = world.create_bodies(shape, pos, angles, body_type=kind, velocities=vel,
                                         angular_velocities=angvel, density=2.0, friction=0.3,
                                         restitution=0.1)
        else:
            bodies = _loop(world, shape, pos, angles, kind, vel, angvel, density=2.0,
                           friction=0.3, restitution=0.1)
        worlds.append(world)
        made.append(bodies)
    a, b = worlds
    assert [x.id for x in made[0]] == [x.id for x in made[1]]
    assert [x.shapes[0].id for x in made[0]] == [x.shapes[0].id for x in made[1]]
    sa, sb = a._state, b._state
    for store in ("bodies", "shapes", "pieces", "geometry"):
        ca, cb = getattr(sa, store), getattr(sb, store)
        assert ca.used == cb.used and ca.free == cb.free, store
        for name in ca.names():
            np.testing.assert_array_equal(getattr(ca, name)[:ca.used], getattr(cb, name)[:cb.used],
                                          err_msg=f"{store}.{name}")
    for tree in ("tree", "static_tree"):
        for x, y in zip(getattr(sa, tree).arrays, getattr(sb, tree).arrays):
            np.testing.assert_array_equal(x, y)
    for _ in range(30):
        a.step(1 / 60)
        b.step(1 / 60)
    assert a.state_hash() == b.state_hash()
    np.testing.assert_array_equal(a.positions, b.positions)


def test_handles_work_like_a_loops():
    world = World()
    boxes = world.create_bodies(Polygon.box(1, 1), [(0, 0.5), (3, 0.5)], filter=Filter(group=-1))
    handle = boxes[1].shapes[0]
    assert world.shape(handle.id) is handle and world.body(boxes[0].id) is boxes[0]
    assert handle.filter.group == -1 and handle.friction == 0.6
    assert boxes[0].mass == pytest.approx(1.0)
    world.destroy_body(boxes[0])
    assert boxes[1].position == (3.0, 0.5)
    assert world.create_bodies(Circle(1), np.empty((0, 2))) == []
    assert world.create_bodies(Circle(1), []) == []  # found by the stateful test


@pytest.mark.parametrize("kwargs, message", [
    (dict(positions=[(0, 0), (math.nan, 1)]), "finite"),
    (dict(positions=[(0, 0), (2e9, 1)]), "within"),
    (dict(positions=[0, 1, 2]), "shape"),
    (dict(positions=[(0, 0)], angles=[0.0, 1.0]), "shape"),
    (dict(positions=[(0, 0)], velocities=[(1e7, 0)]), "within"),
    (dict(positions=[(0, 0)], angular_velocities=math.inf), "finite"),
    (dict(positions=[(0, 0)], density=0.0), "density"),
    (dict(positions=[(0, 0)], friction=-1), "friction"),
    (dict(positions=[(0, 0)], filter=3), "Filter"),
    (dict(positions=[(0, 0)], body_type="rubber"), "rubber"),
])
def test_bad_arrays_are_refused_and_nothing_is_added(kwargs, message):
    world = World()
    _ground(world)
    before = world.state_hash(), len(world.bodies)
    with pytest.raises((ValueError, TypeError), match=message):
        world.create_bodies(Circle(0.5), **kwargs)
    assert (world.state_hash(), len(world.bodies)) == before
    with pytest.raises(TypeError, match="shape"):
        world.create_bodies("box", [(0, 0)])
