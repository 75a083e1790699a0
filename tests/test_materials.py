"""Conveyor belts, rolling resistance, hit events and the impulses the solver reports,
against closed forms."""
import math

import pytest
from hypothesis import example, given, settings, strategies as st

from engine import Circle, Polygon, World
import engine.constants as K

DT = 1 / 60
G = 10.0


@pytest.mark.parametrize("belt_first", [True, False])
@pytest.mark.parametrize("speed", [2.0, -3.0])
def test_a_box_on_a_belt_reaches_its_speed_after_the_slip_time(belt_first, speed):
    mu = 0.5
    world = World(gravity=(0, -G))
    box_spec = dict(position=(0, 0.5))
    if not belt_first:
        box = world.create_body(**box_spec)
    belt = world.create_body("static")
    belt.add_shape(Polygon.box(200, 1, center=(0, -0.5)), friction=mu, surface_speed=speed)
    if belt_first:
        box = world.create_body(**box_spec)
    box.add_shape(Polygon.box(1, 1), friction=mu)
    slip = abs(speed) / (math.sqrt(mu * mu) * G)  # v / (mu g), Box2D friction mixing sqrt
    steps = 0
    while abs(box.velocity[0] - speed) > 0.01 * abs(speed):
        world.step(DT)
        steps += 1
        assert steps < 600
    assert abs(steps * DT - slip) <= DT + 1e-9
    for _ in range(60):
        world.step(DT)
    assert box.velocity[0] == pytest.approx(speed, rel=0.01)


def test_rolling_resistance_stops_a_ball_as_the_closed_form_says():
    c, r, v0 = 0.05, 0.5, 5.0
    world = World(gravity=(0, -G))
    world.create_body("static").add_shape(Polygon.box(400, 1, center=(0, -0.5)),
                                          rolling_resistance=c)
    ball = world.create_body(position=(0, r), velocity=(v0, 0), angular_velocity=-v0 / r)
    ball.add_shape(Circle(r), friction=1.0)
    # a solid disc: I = m r^2 / 2, so a = c g / (1 + 1/2)
    decel = c * G / 1.5
    steps = 0
    while ball.velocity[0] > 1e-3:
        world.step(DT)
        steps += 1
        assert steps < 3000
    assert steps * DT == pytest.approx(v0 / decel, rel=0.02)
    assert ball.position[0] == pytest.approx(v0 * v0 / (2 * decel), rel=0.02)


def _first_hits(world, steps=240):
    hits = []
    for _ in range(steps):
        world.step(DT)
        hits += [(int(h.shape_a), int(h.shape_b), float(h.approach_speed), tuple(h.normal))
                 for h in world.contact_events.hit]
    return hits


def test_a_ball_dropped_from_5_m_reports_a_hit_at_10_m_per_s():
    world = World(gravity=(0, -G))
    floor = world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    ball = world.create_body(position=(0, 5.25)).add_shape(Circle(0.25))
    hits, points = [], []
    for _ in range(120):
        gap = ball.body.position[1] - 0.25  # above the floor's top, at the step's start
        world.step(DT)
        hits += [(int(h.shape_a), int(h.shape_b), float(h.approach_speed), tuple(h.normal))
                 for h in world.contact_events.hit]
        points += [(tuple(h.point), gap) for h in world.contact_events.hit]
    assert len(hits) == 1
    # Box2D's convention: the mid-point between the two surfaces at the step's start
    # (speculative: the ball is still falling towards the floor then)
    (x, y), gap = points[0]
    assert 0.05 < gap < 0.2 and x == pytest.approx(0.0, abs=1e-9) and y == pytest.approx(gap / 2, abs=1e-9)
    a, b, speed, normal = hits[0]
    assert (a, b) == (min(floor.id, ball.id), max(floor.id, ball.id))
    # sqrt(2 g h) = 10: the speed at the instant the gap closes, extrapolated from the
    # substep the ball first pushed in (contacts/events.contact_speed). That substep's own
    # speed, g k h, is up to g h = 0.024 m/s off (it read 9.976 here); Box2D reports the
    # speed at the step's start, up to g dt = 0.17 m/s off (10.000 here only because
    # t = 1 s is a whole number of steps).
    assert speed == pytest.approx(10.0, abs=0.02)
    assert normal == pytest.approx((0.0, 1.0) if a == floor.id else (0.0, -1.0))
    world.hit_event_threshold = 20.0
    assert world.hit_event_threshold == 20.0


@settings(max_examples=40, deadline=None)
@given(height=st.floats(0.3, 12.0), substeps=st.integers(1, 12), gravity=st.floats(2.0, 30.0),
       scale=st.sampled_from([0.5, 1.0, 2.0]), upside_down=st.booleans())
@example(height=11.720703125, substeps=1, gravity=30.0, scale=2.0, upside_down=True)
def test_a_dropped_body_reports_the_closed_form_impact_speed(height, substeps, gravity, scale,
                                                            upside_down):
    # Free fall from rest: the hit's approach speed is sqrt(2 g h) (the issue asks 0.02 m/s;
    # it is exact to rounding) whatever the drop, the substeps, the gravity and its scale,
    # whichever body is A, and for a box landing flat (two points) as for a ball. Exact
    # but for rare drops of fast bodies (a step moves them more than CCD_SAFETY_FACTOR of
    # their smallest extent, 0.25 m here), which stay within the 0.02 m/s: a
    # Hypothesis draw found one (the @example: a box at g = 60, one substep: 37.5047 for
    # 37.5031 m/s); 600 drops around it had one more, 8e-4 m/s off, and 300 random draws
    # (244 fast) none. The cause: the step before the hit would have taken the box 1 mm
    # past the slop above the floor, so the continuous stage stopped it at its time of
    # impact, at the slop, keeping the step's end speed (as Box2D does); the hit's speed,
    # extrapolated from the pose and speed the integrator leaves, is then off by about g
    # times the time cut off (here 2.7e-5 s). Not corrected yet.
    world = World(gravity=(0, -gravity), substeps=substeps)
    world.hit_event_threshold = 0.1
    ball = world.create_body(position=(0, height + 0.25))
    ball.gravity_scale = scale
    if upside_down:  # the falling body is created first: it is A, the normal points down
        ball.add_shape(Polygon.box(0.5, 0.5))
    floor = world.create_body("static")
    floor.add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    if not upside_down:
        ball.add_shape(Circle(0.25))
    hits = _first_hits(world, int(60 * (math.sqrt(2 * height / (gravity * scale)) + 0.5)))
    assert len(hits) >= 1
    expected = math.sqrt(2 * gravity * scale * height)
    fast = expected / 60 > K.CCD_SAFETY_FACTOR * 0.25
    assert hits[0][2] == pytest.approx(expected, abs=0.02 if fast else 1e-9)


@pytest.mark.parametrize("shape", [Polygon.box(1, 1), Circle(0.5)])
def test_at_rest_the_normal_impulses_of_a_step_add_up_to_its_weight_times_dt(shape):
    world = World(gravity=(0, -G))
    world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    body = world.create_body(position=(0, 0.5))
    body.add_shape(shape, density=3.0)
    for _ in range(120):
        world.step(DT)
    c = world.contacts()
    assert len(c) == 1
    assert c.normal_impulses.sum() == pytest.approx(body.mass * G * DT, rel=0.005)
    assert abs(c.tangent_impulses.sum()) < 1e-9
