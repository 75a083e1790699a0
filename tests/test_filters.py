"""Collision filters (Box2D's rule), shape and body ids, and handles of removed shapes.

Oracles: pymunk's ``ShapeFilter.rejects_collision`` for the rule (pymunk's group g is
Box2D's -g: a shared pymunk group never collides, and pymunk has no "always" group), and
brute force over every pair of shapes for what the world's broadphase admits.
"""
import itertools

import numpy as np
import pymunk
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ALL_BITS, Circle, Filter, Polygon, World, overlaps
from engine.contacts.layout import C_COUNT

DT = 1 / 60


def box2d_rule(a, b):
    if a.group == b.group and a.group != 0:
        return a.group > 0
    return (a.category & b.mask) != 0 and (b.category & a.mask) != 0


filters = st.builds(Filter, category=st.integers(0, ALL_BITS), mask=st.integers(0, ALL_BITS),
                    group=st.integers(-3, 3))


@settings(max_examples=500, deadline=None)
@given(filters, filters)
def test_rule_is_box2d_and_symmetric(a, b):
    assert a.collides_with(b) == b.collides_with(a) == box2d_rule(a, b)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 3),
       st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_rule_agrees_with_pymunk_with_groups_negated(ca, ma, ga, cb, mb, gb):
    ours = Filter(ca, ma, -ga).collides_with(Filter(cb, mb, -gb))
    theirs = not pymunk.ShapeFilter(ga, ca, ma).rejects_collision(pymunk.ShapeFilter(gb, cb, mb))
    assert ours == theirs


@pytest.mark.parametrize("bad, error", [
    (dict(category=-1), ValueError), (dict(mask=2**64), ValueError), (dict(category=1.5), TypeError),
    (dict(group=2**63), ValueError), (dict(group="1"), TypeError), (dict(mask=True), TypeError),
])
def test_bad_filters_are_refused(bad, error):
    with pytest.raises(error):
        Filter(**bad)


def _scene(seed, n=14):
    """Circles and boxes crowded in a small square, each with a random filter."""
    rng = np.random.default_rng(seed)
    world = World(gravity=(0, 0), sleeping=False)
    handles = []
    for k in range(n):
        kind = "static" if k % 5 == 0 else "dynamic"
        body = world.create_body(kind, position=tuple(rng.uniform(-1.5, 1.5, 2)),
                                 angle=float(rng.uniform(0, 3)))
        shape = Circle(float(rng.uniform(0.3, 0.6))) if k % 2 else Polygon.box(0.8, 0.5)
        filt = Filter(category=int(1 << rng.integers(0, 3)), mask=int(rng.integers(0, 8)),
                      group=int(rng.integers(-2, 3)))
        handles.append(body.add_shape(shape, filter=filt))
    return world, handles


def _touching_shape_pairs(world):
    state = world._state
    a, b = state.pairs.pieces()
    rows = state.pairs.rows
    ids = state.pieces.shape
    return {tuple(sorted((int(ids[p]), int(ids[q])))) for p, q, r in zip(a, b, rows) if r[C_COUNT] > 0}


def _expected_pairs(handles):
    out = set()
    for h1, h2 in itertools.combinations(handles, 2):
        b1, b2 = h1.body, h2.body
        if b1.body_type.name != "DYNAMIC" and b2.body_type.name != "DYNAMIC":
            continue
        if not h1.filter.collides_with(h2.filter):
            continue
        if overlaps(h1.shape, (*b1.position, b1.angle), h2.shape, (*b2.position, b2.angle)):
            out.add(tuple(sorted((h1.id, h2.id))))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_world_pairs_are_exactly_the_admitted_overlaps(seed):
    world, handles = _scene(seed)
    world.step(1e-6)  # contacts for the poses as built (the step barely moves anything)
    got = _touching_shape_pairs(world)
    expected = _expected_pairs(handles)
    # every admitted overlap has a contact; every contact is admitted (speculative ones
    # within 2 cm are allowed among the admitted pairs)
    assert expected <= got
    admitted = {tuple(sorted((h1.id, h2.id))) for h1, h2 in itertools.combinations(handles, 2)
                if h1.filter.collides_with(h2.filter) and h1.body is not h2.body}
    assert got <= admitted


def _stacked():
    world = World()
    ground = world.create_body("static")
    floor = ground.add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    box = world.create_body(position=(0, 0.5))
    top = box.add_shape(Polygon.box(1, 1))
    for _ in range(10):
        world.step(DT)
    return world, floor, box, top


def test_changing_a_filter_ends_the_contact_within_one_step_and_restores_it():
    world, floor, box, top = _stacked()
    assert _touching_shape_pairs(world) == {(floor.id, top.id)}
    top.filter = Filter(category=2, mask=~1 & ALL_BITS)  # no longer sees category 1
    assert len(world._state.pairs) == 0  # the pair is dropped at once, before any step
    world.step(DT)
    assert _touching_shape_pairs(world) == set()
    for _ in range(20):
        world.step(DT)
    assert box.position[1] < 0.0  # it falls through the floor
    box.position = (0, 0.5)
    box.velocity = (0, 0)
    top.filter = Filter()
    world.step(DT)
    assert _touching_shape_pairs(world) == {(floor.id, top.id)}


def test_shapes_that_come_to_admit_their_own_kind_find_each_other_at_the_next_step():
    """The pair search skips a tree when no shape in it can pass a leaf's filter (the
    balls of Box2D's joint grid never search the moving tree); the unions it decides by
    follow filter changes. Here a stale union (category 2 masked out everywhere) would
    keep the two balls apart."""
    world = World(gravity=(0, 0))
    own_kind_out = Filter(category=2, mask=ALL_BITS & ~2)
    balls = []
    for x in (0.0, 0.8):
        body = world.create_body(position=(x, 0))
        balls.append(body.add_shape(Circle(0.5), filter=own_kind_out))
    world.step(DT)
    assert _touching_shape_pairs(world) == set()
    for ball in balls:
        ball.filter = Filter(category=2, mask=ALL_BITS)
    world.step(DT)
    assert _touching_shape_pairs(world) == {tuple(sorted(b.id for b in balls))}
    balls[1].body.body_type = "static"  # a static ball: the other searches the static tree
    balls[1].filter = own_kind_out
    world.step(DT)
    assert _touching_shape_pairs(world) == set()
    balls[1].filter = Filter(category=2, mask=ALL_BITS)
    world.step(DT)
    assert _touching_shape_pairs(world) == {tuple(sorted(b.id for b in balls))}


def test_a_body_made_static_is_found_in_the_static_tree_by_the_pair_search():
    """Its shapes' filters now count for the static tree's union: without that the ball
    beside it would skip the static tree (empty of its kind before) and never touch it."""
    world = World(gravity=(0, 0))
    world.create_body(position=(50, 0)).add_shape(
        Circle(0.5), filter=Filter(category=2, mask=ALL_BITS & ~2))  # some filter leaves a tree out
    a = world.create_body(position=(0, 0)).add_shape(Circle(0.5), filter=Filter(category=2))
    other = world.create_body(position=(20, 0))
    b = other.add_shape(Circle(0.5), filter=Filter(category=2))
    world.step(DT)
    other.body_type = "static"
    other.position = (2.0, 0)  # apart: the pair is found when the moving ball comes near
    world.step(DT)
    a.body.velocity = (3.0, 0)
    for _ in range(60):
        world.step(DT)
    assert a.body.position[0] < 1.0 + 1e-3  # stopped at the static ball, not through it


def test_negative_group_never_collides_positive_always_does():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(10, 1, center=(0, -0.5)), filter=Filter(group=-1))
    never = world.create_body(position=(-2, 0.5))
    never.add_shape(Polygon.box(1, 1), filter=Filter(group=-1))
    always = world.create_body(position=(2, 0.5))
    always.add_shape(Polygon.box(1, 1), filter=Filter(category=4, mask=0, group=5))
    ground.add_shape(Polygon.box(2, 1, center=(2, -0.5)), filter=Filter(category=8, mask=0, group=5))
    for _ in range(30):
        world.step(DT)
    assert never.position[1] < 0.0 and abs(always.position[1] - 0.5) < 0.01


def test_ids_name_handles_and_removed_handles_raise():
    world = World()
    body = world.create_body()
    h1 = body.add_shape(Circle(0.5), user_data="coin")
    h2 = body.add_shape(Polygon.box(1, 1))
    assert world.body(body.id) is body and world.shape(h1.id) is h1 and world.shape(h2.id) is h2
    assert h1.user_data == "coin"
    body.remove_shape(h1)
    for use in (lambda: h1.friction, lambda: setattr(h1, "friction", 0.1), lambda: h1.id,
                lambda: setattr(h1, "restitution", 0.5), lambda: h1.filter, lambda: h1.body):
        with pytest.raises(RuntimeError, match="removed"):
            use()
    with pytest.raises(ValueError, match="removed"):
        world.shape(0)
    h3 = world.create_body().add_shape(Circle(0.2))  # reuses the freed id and piece row
    h2.friction = 0.9
    assert world._state.pieces.friction[h3._pieces].tolist() == [0.6]
    world.destroy_body(body)
    with pytest.raises(RuntimeError):
        h2.friction = 0.1
    with pytest.raises(ValueError, match="destroyed"):
        world.body(body._key)
    with pytest.raises(TypeError):
        world.shape("0")


def test_a_fast_bullet_passes_a_wall_its_filter_rejects_and_stops_at_one_it_accepts():
    world = World(gravity=(0, 0), sleeping=False)
    ghost_wall = world.create_body("static", position=(3, 0))
    ghost_wall.add_shape(Polygon.box(0.1, 4), filter=Filter(category=2))
    wall = world.create_body("static", position=(8, 0))
    wall.add_shape(Polygon.box(0.1, 4))
    bullet = world.create_body(position=(0, 0), velocity=(300, 0))
    bullet.add_shape(Circle(0.05), filter=Filter(mask=1))  # does not see category 2
    for _ in range(10):
        world.step(DT)
    assert 3.2 < bullet.position[0] < 8.0  # through the first wall, stopped by the second
