"""``World.destroy_bodies``: many bodies removed in one call leave the world exactly as
``destroy_body`` on each, in any order, leaves it; bad input changes nothing."""
import copy

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Filter, Polygon, World

DT = 1 / 60


def _world(seed, n):
    """A ground, ``n`` bodies of several kinds on it (one static, one kinematic, some
    with two shapes, some filtered), revolute and distance joints between some, and a
    body left asleep: stepped so that pairs, contacts and joint impulses exist."""
    rng = np.random.default_rng(seed)
    world = World()
    world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)))
    bodies = []
    for k in range(n):
        kind = "static" if k == 3 else "kinematic" if k == 5 else "dynamic"
        body = world.create_body(kind, position=(rng.uniform(-6, 6), rng.uniform(0.5, 6)))
        body.add_shape(Circle(rng.uniform(0.2, 0.5)) if k % 2 else Polygon.box(0.6, 0.4),
                       filter=Filter(group=-1) if k % 7 == 6 else None)
        if k % 4 == 2:
            body.add_shape(Circle(0.2, center=(0.4, 0.0)))
        bodies.append(body)
    dynamic = [b for b in bodies if b.body_type.name == "DYNAMIC"]
    for k in range(0, len(dynamic) - 1, 3):
        a, b = dynamic[k], dynamic[k + 1]
        world.create_revolute_joint(a, b, a.position)
        if k + 2 < len(dynamic):
            world.create_distance_joint(a, dynamic[k + 2], a.position, dynamic[k + 2].position)
    for _ in range(30):
        world.step(DT)
    dynamic[-1].awake = False
    return world


def _columns(world):
    """Every store's rows in use, the handles' rows and the joints' bodies."""
    s = world._state
    out = {}
    for store, name in ((s.bodies, "bodies"), (s.pieces, "pieces"), (s.shapes, "shapes"),
                        (s.joints.columns, "joints")):
        for column in store._spec:
            out[f"{name}.{column}"] = getattr(store, column)[: store.used].copy()
    out["body rows of ids"] = np.array([world.body_index(b) for b in world.bodies])
    out["ids"] = np.array([b.id for b in world.bodies])
    out["joint ids"] = np.array(sorted(j.id for j in world.joints))
    return out


def _same(a, b):
    ca, cb = _columns(a), _columns(b)
    assert ca.keys() == cb.keys()
    for key in ca:
        assert np.array_equal(ca[key], cb[key], equal_nan=True), key
    assert a.state_hash() == b.state_hash()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 16), n=st.integers(6, 16), data=st.data())
def test_destroying_many_at_once_equals_destroying_each_in_any_order(seed, n, data):
    world = _world(seed, n)
    ids = [b.id for b in world.bodies]
    gone = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids)))
    order = data.draw(st.permutations(gone))
    at_once, one_by_one = copy.deepcopy(world), copy.deepcopy(world)
    at_once.destroy_bodies([at_once.body(i) for i in gone])
    for i in order:
        one_by_one.destroy_body(one_by_one.body(i))
    _same(at_once, one_by_one)
    for _ in range(40):
        at_once.step(DT)
        one_by_one.step(DT)
    _same(at_once, one_by_one)
    assert np.array_equal(at_once.positions, one_by_one.positions)


def test_destroyed_handles_raise_and_the_rest_keep_their_order():
    world = World()
    balls = [world.create_body(position=(float(x), 0.0)) for x in range(6)]
    for b in balls:
        b.add_shape(Circle(0.25))
    world.destroy_bodies([balls[4], balls[0], balls[2]])
    assert world.positions[:, 0].tolist() == [1.0, 3.0, 5.0]
    assert [world.body_index(b) for b in (balls[1], balls[3], balls[5])] == [0, 1, 2]
    for b in (balls[0], balls[2], balls[4]):
        assert not b.alive
        with pytest.raises(RuntimeError):
            b.position
    world.destroy_bodies([])  # nothing to do
    assert len(world.bodies) == 3


@pytest.mark.parametrize("bad", ["twice", "destroyed", "other world", "not a body"])
def test_bad_input_raises_and_changes_nothing(bad):
    world = _world(7, 10)
    other = World()
    stranger = other.create_body()
    victim = world.create_body(position=(0.0, 9.0))
    world.destroy_body(victim)
    first = world.bodies[2]
    extra = {"twice": first, "destroyed": victim, "other world": stranger,
             "not a body": "body"}[bad]
    before = copy.deepcopy(world)
    with pytest.raises((ValueError, TypeError, RuntimeError)) as err:
        world.destroy_bodies([world.bodies[1], first, extra])
    assert str(err.value)
    _same(world, before)
    for _ in range(20):
        world.step(DT)
        before.step(DT)
    assert np.array_equal(world.positions, before.positions)


def test_refused_from_a_callback_during_the_step():
    world = World()
    world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    ball = world.create_body(position=(0.0, 0.3))
    ball.add_shape(Circle(0.3))
    seen = []

    def begin(arbiter):
        try:
            world.destroy_bodies([ball])
        except RuntimeError as e:
            seen.append(str(e))
        return True

    world.on_collision(begin=begin)
    for _ in range(10):
        world.step(DT)
    assert seen and ball.alive
