"""Contact events: begin and end per pair of shapes, against closed-form free fall, a
from-scratch count of touching pairs, and the user operations that end contacts."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Filter, Polygon, World, scenes
from engine import constants as K

DT = 1 / 60
G = 10.0


def _ground(world):
    return world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)))


@pytest.mark.parametrize("height", [0.5, 2.0, 5.0])
def test_a_dropped_ball_begins_once_when_free_fall_says(height):
    world = World(gravity=(0, -G))
    floor = _ground(world)
    r = 0.25
    ball = world.create_body(position=(0, height + r)).add_shape(Circle(r))
    begins, ends, first = [], [], None
    for step in range(1, 200):
        world.step(DT)
        ev = world.contact_events
        begins += list(zip(ev.begin.shape_a, ev.begin.shape_b))
        ends += list(zip(ev.end.shape_a, ev.end.shape_b))
        if len(ev.begin) and first is None:
            first = step
    assert begins == [(min(floor.id, ball.id), max(floor.id, ball.id))] and ends == []
    # The step's narrowphase sees the poses the step before left: touching (a point
    # within TOUCHING_DISTANCE) first holds in step k when the gap after k - 1 steps of
    # symplectic Euler, y0 - g dt^2 (k-1) k / 2, is within it.
    gap = lambda n: height - G * DT * DT * n * (n + 1) / 2  # noqa: E731
    predicted = next(k for k in range(1, 200) if gap(k - 1) <= K.TOUCHING_DISTANCE)
    assert abs(first - predicted) <= 1
    assert abs(first * DT - math.sqrt(2 * height / G)) <= 2 * DT


def test_rain_running_sum_of_begins_minus_ends_is_the_touching_pair_count():
    world, _ = scenes.rain(2000, 1000).build()
    open_pairs = set()
    for _ in range(90):
        world.step(DT)
        ev = world.contact_events
        began = set(zip(ev.begin.shape_a.tolist(), ev.begin.shape_b.tolist()))
        ended = set(zip(ev.end.shape_a.tolist(), ev.end.shape_b.tolist()))
        assert not began & open_pairs and ended <= open_pairs  # balanced, never doubled
        open_pairs = (open_pairs | began) - ended
        assert open_pairs == _touching_from_scratch(world)
        assert np.all(np.diff((ev.begin.shape_a << 32) | ev.begin.shape_b) > 0)  # key order


def _touching_from_scratch(world):
    """Shape pairs with a contact point within TOUCHING_DISTANCE, read off the rows."""
    from engine.contacts.layout import C_COUNT, C_POINTS, P_SEP, P_STRIDE
    state = world._state
    out = set()
    a, b = state.pairs.pieces()
    for p, q, row in zip(a, b, state.pairs.rows):
        seps = [row[C_POINTS + k * P_STRIDE + P_SEP] for k in range(int(row[C_COUNT]))]
        if seps and min(seps) <= K.TOUCHING_DISTANCE:
            sa, sb = int(state.pieces.shape[p]), int(state.pieces.shape[q])
            out.add((min(sa, sb), max(sa, sb)))
    return out


def _resting_box():
    world = World()
    floor = _ground(world)
    body = world.create_body(position=(0, 0.5))
    top = body.add_shape(Polygon.box(1, 1))
    for _ in range(5):
        world.step(DT)
    return world, floor, body, top


def _pairs(records):
    return list(zip(records.shape_a.tolist(), records.shape_b.tolist()))


@pytest.mark.parametrize("operation", ["destroy_body", "remove_shape", "filter", "teleport",
                                       "to_static"])
def test_user_operations_end_contacts_at_the_next_step(operation):
    world, floor, body, top = _resting_box()
    key = (min(floor.id, top.id), max(floor.id, top.id))
    if operation == "destroy_body":
        world.destroy_body(body)
    elif operation == "remove_shape":
        body.remove_shape(top)
    elif operation == "filter":
        top.filter = Filter(group=0, category=2, mask=2)
    elif operation == "teleport":
        body.position = (0, 10)
    else:
        body.body_type = "static"
    world.step(DT)
    assert _pairs(world.contact_events.end) == [key]
    world.step(DT)
    assert _pairs(world.contact_events.end) == []


def test_a_new_shape_on_a_removed_shapes_id_begins_anew():
    world, floor, body, top = _resting_box()
    body.remove_shape(top)
    again = body.add_shape(Polygon.box(1, 1))
    assert again.id == top._id  # the freed id is reused
    world.step(DT)
    key = (min(floor.id, again.id), max(floor.id, again.id))
    assert _pairs(world.contact_events.end) == [key] and _pairs(world.contact_events.begin) == [key]


def test_concave_shapes_report_one_begin_per_pair_of_shapes():
    world = World()
    terrain = world.create_body("static").add_shape(scenes.concave_terrain())
    letter = world.create_body(position=(0.3, 3.0)).add_shape(
        Polygon([(0, 0), (1.2, 0), (1.2, 0.3), (0.3, 0.3), (0.3, 1.0), (0, 1.0)]))
    seen = []
    for _ in range(240):
        world.step(DT)
        seen += _pairs(world.contact_events.begin)
    assert seen.count((min(terrain.id, letter.id), max(terrain.id, letter.id))) == 1


def test_event_arrays_are_read_only_and_empty_before_a_step():
    world, *_ = _resting_box()
    ev = world.contact_events
    with pytest.raises(ValueError):
        ev.begin.shape_a[:] = 0
    assert len(World().contact_events.begin) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from([1.0, 2.0, 2.5, 3.0])), min_size=0, max_size=40))
def test_one_hit_per_shape_pair_is_the_fastest_first_of_equals(entries):
    """The hits' dedup (``_fastest_per_key``) against the plain rule: per key, the entry
    with the highest speed, the first of equals; keys in increasing order."""
    from engine.contacts.events import _fastest_per_key
    found = np.array([(k << 32) | (k + 1) for k, _ in entries] + [0], np.int64)
    speed = np.array([v for _, v in entries] + [0.0])
    n = len(entries)
    expected = {}
    for o in range(n):
        key = int(found[o])
        if key not in expected or speed[o] > speed[expected[key]]:
            expected[key] = o
    got = _fastest_per_key(found, speed, n)
    assert got.tolist() == [expected[k] for k in sorted(expected)]
