"""Closed-form physics: free fall, projectiles, momentum, restitution, friction ramps.

Each expectation is derived from the integrator or from Newton's laws, not from another
engine. Tolerances are the issue's: 1e-12 for the integrator's own closed form, 1e-9
for momentum, 1 % for elastic energy, 5 % for bounce heights, 2 % for ramp accelerations.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Circle, Polygon, World, scenes


def integrator_closed_form(x0, v0, g, dt, steps, substeps):
    """Symplectic Euler with ``substeps`` substeps of h: v += g h, then x += v h.

    After n substeps: v = v0 + g h n and x = x0 + v0 h n + g h^2 n (n + 1) / 2.
    """
    h = dt / substeps
    n = steps * substeps
    return x0 + v0 * h * n + g * h * h * n * (n + 1) / 2.0, v0 + g * h * n


@given(x0=st.floats(-100, 100), y0=st.floats(-100, 100), vx=st.floats(-50, 50), vy=st.floats(-50, 50),
       gy=st.floats(-20, 0), steps=st.integers(1, 120))
@settings(max_examples=25, deadline=None)
def test_projectile_matches_integrator_closed_form(x0, y0, vx, vy, gy, steps):
    # No sleeping: in zero gravity a body drifting below 0.05 m/s rests, and after 0.5 s
    # it sleeps and stops (as in Box2D); the closed form knows nothing of that.
    world = World(gravity=(0.0, gy), sleeping=False)
    body = world.create_body(position=(x0, y0), velocity=(vx, vy))
    body.add_shape(Circle(0.1))
    for _ in range(steps):
        world.step(1 / 60)
    ex, evx = integrator_closed_form(x0, vx, 0.0, 1 / 60, steps, world.substeps)
    ey, evy = integrator_closed_form(y0, vy, gy, 1 / 60, steps, world.substeps)
    scale = 1.0 + abs(ey) + abs(ex)
    assert abs(body.position[0] - ex) < 1e-12 * scale
    assert abs(body.position[1] - ey) < 1e-12 * scale
    assert abs(body.velocity[0] - evx) < 1e-12 * (1 + abs(evx))
    assert abs(body.velocity[1] - evy) < 1e-12 * (1 + abs(evy))


def test_free_fall_of_an_off_centre_body_moves_its_centre_of_mass():
    # The centre of mass follows the closed form; the origin keeps its offset.
    world = World()
    body = world.create_body(position=(1.0, 50.0))
    body.add_shape(Circle(0.5, center=(0.3, 0.0)))
    for _ in range(30):
        world.step(1 / 60)
    ey, _ = integrator_closed_form(50.0, 0.0, -10.0, 1 / 60, 30, world.substeps)
    cx, cy = body.world_center_of_mass
    assert abs(cx - 1.3) < 1e-12 and abs(cy - ey) < 1e-12
    assert body.angle == 0.0


def _pair(world, shape_a, shape_b, pa, pb, va, vb, wa=0.0, wb=0.0, restitution=0.0, friction=0.6):
    a = world.create_body(position=pa, velocity=va, angular_velocity=wa)
    a.add_shape(shape_a, density=1.0, restitution=restitution, friction=friction)
    b = world.create_body(position=pb, velocity=vb, angular_velocity=wb, angle=0.3)
    b.add_shape(shape_b, density=2.0, restitution=restitution, friction=friction)
    return a, b


def _momentum(world):
    p = np.zeros(2)
    for body in world.bodies:
        p += body.mass * np.array(body.velocity)
    return p


@given(dy=st.floats(-0.8, 0.8), speed=st.floats(0.5, 20.0), e=st.sampled_from([0.0, 0.5, 1.0]),
       kind=st.sampled_from(["circles", "boxes", "mixed"]))
@settings(max_examples=30, deadline=None)
def test_collisions_between_free_bodies_conserve_linear_momentum(dy, speed, e, kind):
    # Every contact impulse acts on both bodies with opposite signs, so the total
    # momentum changes only by rounding: 1e-9 relative to its scale.
    world = World(gravity=(0.0, 0.0), sleeping=False)
    shapes = {"circles": (Circle(0.5), Circle(0.4)), "boxes": (Polygon.box(1, 1), Polygon.box(0.8, 1.2)),
              "mixed": (Circle(0.5), Polygon.box(0.8, 1.2))}[kind]
    _pair(world, shapes[0], shapes[1], (-0.6, 0.0), (0.6, dy), (speed, 0.0), (-speed, 0.0), 1.0, -2.0,
          restitution=e)
    p0 = _momentum(world)
    touched = False
    for _ in range(60):
        world.step(1 / 60)
        touched |= len(world._state.pairs) > 0
    assert touched
    assert np.all(np.abs(_momentum(world) - p0) < 1e-9 * (1.0 + np.abs(p0).max() + 3 * speed))


def test_elastic_head_on_circles_keep_kinetic_energy():
    world = World(gravity=(0.0, 0.0), sleeping=False)
    a = world.create_body(position=(-2.0, 0.0), velocity=(5.0, 0.0))
    a.add_shape(Circle(0.5), restitution=1.0)
    b = world.create_body(position=(2.0, 0.0), velocity=(-5.0, 0.0))
    b.add_shape(Circle(0.5), restitution=1.0)
    ke0 = 0.5 * a.mass * 25 + 0.5 * b.mass * 25
    for _ in range(90):
        world.step(1 / 60)
    ke = 0.5 * a.mass * np.dot(a.velocity, a.velocity) + 0.5 * b.mass * np.dot(b.velocity, b.velocity)
    assert a.velocity[0] < -4.9 and b.velocity[0] > 4.9  # they did bounce back
    assert abs(ke - ke0) < 0.01 * ke0


@pytest.mark.parametrize("e", [0.2, 0.5, 0.8])
def test_restitution_drop_bounces_to_e_squared_h(e):
    # A ball hitting the ground at v = sqrt(2 g h) leaves at e v and rises e^2 h. The
    # apex is sampled once per step (a 1/60 s grid), which is part of the 5 % budget.
    height = 5.0
    world, (_, ball) = scenes.restitution_drop(e, height=height).build()
    bottoms = []
    for _ in range(240):
        world.step(1 / 60)
        bottoms.append(ball.position[1] - 0.25)
    bottoms = np.array(bottoms)
    first_impact = int(np.argmax(bottoms < 1e-3))
    apex = bottoms[first_impact:first_impact + 150].max()
    assert abs(apex - e * e * height) < 0.05 * e * e * height


@pytest.mark.parametrize("slope,mu", [(0.5, 0.2), (0.4, 0.0), (0.6, 0.4)])
def test_box_slides_down_ramp_with_coulomb_acceleration(slope, mu):
    # a = g (sin t - mu cos t) along the ramp; distance after T seconds = a T^2 / 2.
    world, (_, box) = scenes.friction_ramp(slope, mu).build()
    p0 = np.array(box.position)
    seconds = 2.0
    for _ in range(int(seconds * 60)):
        world.step(1 / 60)
    d = np.array(box.position) - p0
    along = -(d[0] * math.cos(slope) + d[1] * math.sin(slope))
    expected = 0.5 * 10.0 * (math.sin(slope) - mu * math.cos(slope)) * seconds ** 2
    assert abs(along - expected) < 0.02 * expected


@pytest.mark.parametrize("slope,mu", [(0.3, 0.5), (0.5, 0.6), (0.2, 0.25)])
def test_box_sticks_on_ramp_when_friction_exceeds_tangent(slope, mu):
    assert mu > math.tan(slope)
    world, (_, box) = scenes.friction_ramp(slope, mu).build()
    p0 = np.array(box.position)
    for _ in range(120):
        world.step(1 / 60)
    assert np.hypot(*(np.array(box.position) - p0)) < 1e-3


def test_same_scene_twice_gives_bit_identical_state():
    def run():
        world, _ = scenes.rain(150, 80, width=8.0, seed=3).build()
        for _ in range(120):
            world.step(1 / 60)
        return (world.positions.copy(), world.angles.copy(), world.velocities.copy(),
                world.angular_velocities.copy())
    first, second = run(), run()
    for a, b in zip(first, second):
        assert np.array_equal(a, b)


def test_kinematic_body_moves_by_its_velocity_and_pushes_dynamic_bodies():
    world = World(gravity=(0.0, 0.0), sleeping=False)
    pusher = world.create_body("kinematic", position=(-2.0, 0.0), velocity=(2.0, 0.0))
    pusher.add_shape(Polygon.box(1, 1))
    ball = world.create_body(position=(0.0, 0.0))
    ball.add_shape(Circle(0.5))
    for _ in range(60):
        world.step(1 / 60)
    assert abs(pusher.position[0] - 0.0) < 1e-9  # exactly v t: nothing pushes back
    assert pusher.velocity == (2.0, 0.0)
    assert ball.position[0] > 0.9  # shoved ahead of the pusher
