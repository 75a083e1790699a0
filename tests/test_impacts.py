"""Collisions between bouncy bodies that touch, or meet within a step
(``engine/dynamics/restitution.impacts``), against the sequential-collision model.

A struck row of touching balls is a chain of pairwise collisions: between equal balls
with restitution 1 each one swaps the two velocities, so the striker stops, the row
stays where it is and the last ball leaves at the striker's speed, from where it touched
its neighbour at the instant the striker arrived. Box2D v3's soft step shares the push
over the row instead (0.33-0.55 of the speed reaches the last ball; pymunk 0.997), and so
did this engine before (0.34). In zero gravity every figure below has a closed form."""
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Polygon, World, WorldBatch, scenes
from engine.constants import IMPACT_MIN_RESTITUTION

DT = 1 / 60


def _row(count, radius, restitution=1.0, gaps=None, radii=None):
    world = World(gravity=(0.0, 0.0), sleeping=False)
    balls, x = [], 0.0
    for k in range(count):
        r = radius if radii is None else radii[k]
        if k:
            x += (radius if radii is None else radii[k - 1]) + r + (0.0 if gaps is None else gaps[k - 1])
        ball = world.create_body(position=(x, 0.0))
        ball.add_shape(Circle(r), friction=0.0, restitution=restitution)
        balls.append(ball)
    return world, balls


@settings(max_examples=25, deadline=None)
@given(count=st.integers(2, 6), speed=st.floats(1.5, 12.0), steps_away=st.floats(0.0, 3.0),
       radius=st.floats(0.1, 1.0))
def test_a_struck_row_of_touching_balls_passes_the_speed_to_the_last(count, speed, steps_away,
                                                                     radius):
    world, row = _row(count, radius)
    distance = steps_away * speed * DT  # the striker arrives within a step, anywhere in it
    striker = world.create_body(position=(-2.0 * radius - distance, 0.0), velocity=(speed, 0.0))
    striker.add_shape(Circle(radius), friction=0.0, restitution=1.0)
    steps = int(steps_away) + 3
    for _ in range(steps):
        world.step(DT)
    hit = distance / speed
    tol = 1e-9 * max(1.0, speed)
    assert row[-1].velocity[0] == pytest.approx(speed, abs=tol)
    for ball in [striker] + row[:-1]:
        assert abs(ball.velocity[0]) <= tol and abs(ball.velocity[1]) <= tol
    # where the sequential model puts them: the striker at the row, the row unmoved, the
    # last ball gone on from its place for the time since the striker arrived. A hit
    # within the first substep after a step is taken at that step's end (the solver's
    # speculative look-ahead, as in Box2D): the striker then stops up to a substep's
    # travel short, and the last ball leaves that much earlier.
    early = speed * DT / world.substeps
    assert -2.0 * radius - early - 1e-9 <= striker.position[0] <= -2.0 * radius + 1e-9
    for k, ball in enumerate(row[:-1]):
        assert ball.position[0] == pytest.approx(2.0 * radius * k, abs=1e-9)
    last = 2.0 * radius * (count - 1) + speed * (steps * DT - hit)
    assert last - 1e-9 <= row[-1].position[0] <= last + early + 1e-9


@settings(max_examples=25, deadline=None)
@given(speed_a=st.floats(1.5, 10.0), speed_b=st.floats(-10.0, 10.0), gap=st.floats(0.0, 0.3),
       ra=st.floats(0.1, 1.0), rb=st.floats(0.1, 1.0), e=st.floats(0.05, 1.0))
def test_two_balls_meeting_within_a_step_collide_at_the_instant_they_meet(speed_a, speed_b, gap,
                                                                         ra, rb, e):
    """Head-on collision of two free balls (densities equal, masses ``pi r^2``): after
    the step the velocities are those of the closed form, whenever in the step the balls
    meet, and so are the positions when the collision phase takes the contact (its
    restitution at least IMPACT_MIN_RESTITUTION; below, the soft solver stops the balls
    where they meet and restitution parts them at the step's end)."""
    closing = speed_a - speed_b
    if closing * DT < gap + 1e-6 or closing < 1.5:
        return  # they do not meet within the step, or too slowly to bounce
    world, (a, b) = _row(2, 0.0, e, gaps=[gap], radii=[ra, rb])
    a.velocity, b.velocity = (speed_a, 0.0), (speed_b, 0.0)
    xa, xb = a.position[0], b.position[0]
    world.step(DT)
    ma, mb = math.pi * ra * ra, math.pi * rb * rb
    hit = gap / closing
    u = (ma * speed_a + mb * speed_b) / (ma + mb)  # the centre of mass's speed
    va = u - e * mb / (ma + mb) * closing
    vb = u + e * ma / (ma + mb) * closing
    tol = 1e-9 * max(1.0, closing)
    assert a.velocity[0] == pytest.approx(va, abs=tol)
    assert b.velocity[0] == pytest.approx(vb, abs=tol)
    if e >= IMPACT_MIN_RESTITUTION:
        assert a.position[0] == pytest.approx(xa + speed_a * hit + va * (DT - hit), abs=1e-9)
        assert b.position[0] == pytest.approx(xb + speed_b * hit + vb * (DT - hit), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), count=st.integers(2, 7))
def test_collisions_keep_momentum_and_never_make_energy(data, count):
    """A row of balls of any sizes, restitutions, gaps and speeds: momentum is kept
    exactly and kinetic energy never exceeds the start's. (Not step by step: the soft
    solver's warm start can hand back some of what an earlier step took, with or
    without the collision phase.)"""
    radii = data.draw(st.lists(st.floats(0.1, 1.0), min_size=count, max_size=count))
    gaps = data.draw(st.lists(st.sampled_from([0.0, 0.0, 0.01, 0.05]), min_size=count - 1,
                              max_size=count - 1))
    e = data.draw(st.floats(0.0, 1.0))
    speeds = data.draw(st.lists(st.floats(-8.0, 8.0), min_size=count, max_size=count))
    world, balls = _row(count, 0.0, e, gaps=gaps, radii=radii)
    for ball, v in zip(balls, speeds):
        ball.velocity = (v, 0.0)
    masses = np.array([b.mass for b in balls])

    def momentum_energy():
        v = np.array([b.velocity[0] for b in balls])
        return masses @ v, 0.5 * masses @ (v * v)

    p0, energy = momentum_energy()
    for _ in range(30):
        world.step(DT)
        p, now = momentum_energy()
        assert p == pytest.approx(p0, abs=1e-9 * (1.0 + abs(masses).sum() * 8.0))
        assert now <= energy * (1.0 + 1e-9) + 1e-12
    for ball in balls:
        assert ball.velocity[1] == 0.0 and ball.angular_velocity == 0.0


def test_a_swinging_cradle_keeps_its_middle_balls_still():
    """Newton's cradle on strings (``scenes.newtons_cradle``: five touching balls, the
    first lifted 0.6 rad): for 8 s the outer balls take turns swinging out to the lift
    angle and the three in the middle stay where they hang. Before the collision phase
    the row soon swung as one (every ball at about 0.12 rad after 6 s)."""
    world = World(gravity=(0.0, -10.0), sleeping=False)
    rig = scenes.newtons_cradle(world, balls=5, lift=0.6)
    balls = rig.bodies[1:]
    hooks = [(0.5 * k, 4.0) for k in range(5)]

    def angle(k):
        x, y = balls[k].position
        return math.atan2(x - hooks[k][0], hooks[k][1] - y)

    widest = np.zeros(5)
    for step in range(8 * 60):
        world.step(DT)
        widest = np.maximum(widest, [abs(angle(k)) for k in range(5)])
        if step % 120 == 119:  # every 2 s (a swing out and back takes 1.4 s)
            assert max(widest[0], widest[4]) >= 0.59
            assert widest[1:4].max() <= 0.01
            widest[:] = 0.0


def _is_bouncy(world):
    return world._state.bouncy  # (a World's or a WorldBatch's)


def test_the_collision_phase_turns_on_with_the_first_bouncy_shape():
    """The solver compiles and runs its collision phase only for a world that was given
    a shape with restitution at least IMPACT_MIN_RESTITUTION: by ``add_shape``, by a
    shape's ``restitution`` setter, by ``create_bodies`` or by ``WorldBatch.set_materials``.
    A world made bouncy by the setter behaves as one built bouncy."""
    world, row = _row(5, 0.5, restitution=0.2)
    assert not _is_bouncy(world)
    for ball in row:
        ball.shapes[0].restitution = 1.0
    assert _is_bouncy(world)
    row[0].velocity = (2.0, 0.0)
    world.step(DT)
    assert row[-1].velocity[0] == pytest.approx(2.0, abs=1e-9)

    plain = World()
    plain.create_bodies(Circle(0.5), np.zeros((3, 2)), restitution=0.4)
    assert not _is_bouncy(plain)
    plain.create_bodies(Circle(0.5), np.ones((3, 2)), restitution=IMPACT_MIN_RESTITUTION)
    assert _is_bouncy(plain)

    batch = WorldBatch.replicate(_row(2, 0.5, restitution=0.0)[0], 3)
    assert not _is_bouncy(batch)
    batch.set_materials(restitution=[0.0, 0.9, 0.0])
    assert _is_bouncy(batch)


def test_a_pickled_world_keeps_its_collision_phase():
    world, row = _row(3, 0.5)
    copy = pickle.loads(pickle.dumps(world))
    assert _is_bouncy(copy) and not _is_bouncy(pickle.loads(pickle.dumps(_row(2, 0.5, 0.1)[0])))


@pytest.mark.parametrize("gap", [0.01, 0.06, 0.2])
def test_a_collision_in_the_phase_is_a_hit_event_at_its_approach_speed(gap):
    """Two balls (restitution 1) closing at 4 m/s: one hit event, in the step their
    contact begins, at 4 m/s, and the speeds exchanged exactly."""
    world = World(gravity=(0.0, 0.0))
    a = world.create_body(position=(0.0, 0.0), velocity=(3.0, 0.0))
    a.add_shape(Circle(0.5), restitution=1.0)
    b = world.create_body(position=(1.0 + gap, 0.0), velocity=(-1.0, 0.0))
    b.add_shape(Circle(0.5), restitution=1.0)
    hits = []
    for _ in range(10):
        world.step(DT)
        hits += [float(s) for s in world.contact_events.hit.approach_speed]
    assert hits == [pytest.approx(4.0, abs=1e-9)]
    assert a.velocity == pytest.approx((-1.0, 0.0), abs=1e-12)
    assert b.velocity == pytest.approx((3.0, 0.0), abs=1e-12)


@pytest.mark.parametrize("kind", ["ball", "box"])
def test_a_pile_of_perfectly_bouncy_bodies_stays_in_its_box(kind):
    """300 bodies of restitution 1 rained into an open box (10 m wide, walls 30 m high):
    none leaves it and the pile comes to rest within 10 s. Without the collision phase
    the soft solver and the restitution pass threw nearly all of them out (298 balls,
    254 boxes), the fastest at 400 m/s."""
    world = World(sleeping=False)
    ground = world.create_body("static")
    for size, center in (((10, 1), (0, -0.5)), ((1, 30), (-5.5, 15)), ((1, 30), (5.5, 15))):
        ground.add_shape(Polygon.box(*size, center=center), restitution=1.0)
    rng = np.random.default_rng(1)
    bodies = []
    for i in range(300):
        body = world.create_body(position=(-4.2 + 0.6 * (i % 15) + rng.uniform(-0.05, 0.05),
                                           1.0 + 0.65 * (i // 15)),
                                 velocity=(rng.uniform(-2.0, 2.0), 0.0))
        shape = Circle(rng.uniform(0.15, 0.3)) if kind == "ball" else Polygon.box(0.4, 0.3)
        body.add_shape(shape, restitution=1.0)
        bodies.append(body)
    for _ in range(600):
        world.step(DT)
    x = np.array([b.position for b in bodies])
    assert (np.abs(x[:, 0]) < 5.0).all() and (x[:, 1] > 0.0).all() and (x[:, 1] < 12.0).all()
    assert max(np.hypot(*b.velocity) for b in bodies) < 10.0
