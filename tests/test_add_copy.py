"""``World.add_copy``: a template world copied in is the template, moved, bit for bit;
the template is unchanged; bad input adds nothing."""
import copy

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Filter, Polygon, Segment, World, scenes

DT = 1 / 60
SHAPES = (Circle(0.3), Polygon.box(0.6, 0.4), Segment((-0.3, 0), (0.3, 0.1), 0.1),
          Polygon([(0, 0), (1, 0), (1, 1), (0.6, 0.3), (0, 1)]),  # concave: two pieces
          Circle(0.2, center=(0.3, 0.1)))


def _template(seed, n, joints=True):
    """A ground and ``n`` bodies of every type, shape kind, filter, sensor and one-way
    platform, with joints of several kinds between them (not stepped)."""
    rng = np.random.default_rng(seed)
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(30, 1, center=(0, -0.5)), friction=0.8)
    ground.user_data = {"name": "ground"}
    bodies = [ground]
    for k in range(n):
        kind = "kinematic" if k % 9 == 8 else "dynamic"
        body = world.create_body(kind, position=(rng.uniform(-5, 5), rng.uniform(0.5, 5)),
                                 angle=rng.uniform(-3, 3), velocity=(rng.uniform(-2, 2), 0.0),
                                 angular_velocity=rng.uniform(-1, 1), linear_damping=0.1 * (k % 2))
        body.add_shape(SHAPES[k % len(SHAPES)], density=rng.uniform(0.5, 2),
                       friction=rng.uniform(0, 1), restitution=0.6 if k % 5 == 1 else 0.0,
                       filter=Filter(group=-1) if k % 4 == 3 else None, user_data=k)
        if k % 6 == 5:
            body.add_shape(Circle(0.5), sensor=True)
        if k % 7 == 2:
            body.add_shape(Polygon.box(0.8, 0.1, center=(0, 0.4)), one_way=(0, 1))
        body.user_data = f"body {k}"
        bodies.append(body)
    if joints:
        for k in range(1, n - 1, 3):
            a, b = bodies[k], bodies[k + 1]
            world.create_revolute_joint(a, b, a.position, limits=(-0.5, 0.5),
                                        max_motor_torque=0.5).user_data = ("pin", k)
            world.create_distance_joint(a, bodies[k + 2], a.position, bodies[k + 2].position,
                                        spring_hertz=2.0)
            world.create_prismatic_joint(ground, b, b.position, (1, 0), limits=(-1, 1))
        world.create_mouse_joint(bodies[-1], (1.0, 6.0))
    return world


def _motion(world):
    return (world.positions.copy(), world.angles.copy(), world.velocities.copy(),
            world.angular_velocities.copy())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 16), n=st.integers(2, 12), joints=st.booleans())
def test_a_copy_into_an_empty_world_steps_as_the_template_bit_for_bit(seed, n, joints):
    template = _template(seed, n, joints)
    alone = copy.deepcopy(template)
    world = World()
    bodies, new_joints = world.add_copy(template)
    assert len(bodies) == n + 1 and len(new_joints) == len(template.joints)
    for _ in range(90):
        alone.step(DT)
        world.step(DT)
        for a, b in zip(_motion(alone), _motion(world)):
            assert np.array_equal(a, b)
    assert world.state_hash() == alone.state_hash()


def _busy_world():
    """A world with rows freed and reused: bodies, shapes and joints removed."""
    world = World()
    world.create_body("static").add_shape(Polygon.box(200, 1, center=(0, -0.5)))
    made = [world.create_body(position=(x, 2.0)) for x in range(-8, 8, 2)]
    for body in made:
        body.add_shape(Circle(0.4))
    world.create_revolute_joint(made[0], made[1], made[0].position)
    world.create_revolute_joint(made[2], made[3], made[2].position)
    for _ in range(20):
        world.step(DT)
    world.destroy_bodies(made[1:4])
    made[5].remove_shape(made[5].shapes[0])
    return world


def test_a_copy_is_the_template_moved_by_the_offset():
    template = _template(3, 10)
    before = (template.state_hash(), len(template.bodies), len(template.joints))
    world = _busy_world()
    count = len(world.bodies)
    offset = (40.0, 3.0)
    bodies, joints = world.add_copy(template, offset)
    assert (template.state_hash(), len(template.bodies), len(template.joints)) == before
    assert world.bodies[count:] == bodies
    assert np.array_equal(world.positions[count:], template.positions + offset)
    assert np.array_equal(world.angles[count:], template.angles)
    assert np.array_equal(world.velocities[count:], template.velocities)
    for old, new in zip(template.bodies, bodies):
        assert new.user_data is old.user_data and new.body_type == old.body_type
        assert (new.mass, new.inertia, new.center_of_mass) == (
            old.mass, old.inertia, old.center_of_mass)
        assert len(new.shapes) == len(old.shapes)
        for hn, ho in zip(new.shapes, old.shapes):
            assert hn.body is new and hn.shape is ho.shape and hn.user_data is ho.user_data
            assert (hn.friction, hn.restitution, hn.density, hn.filter, hn.sensor, hn.one_way) == (
                ho.friction, ho.restitution, ho.density, ho.filter, ho.sensor, ho.one_way)
            assert world.shape(hn.id) is hn
    index = {id(old): new for old, new in zip(template.bodies, bodies)}
    index[id(None)] = None  # a mouse joint's body_a
    for old, new in zip(sorted(template.joints, key=lambda j: j.id), joints):
        assert type(new) is type(old) and new.user_data is old.user_data
        assert new.body_a is index[id(old.body_a)] and new.body_b is index[id(old.body_b)]
        assert world.joint(new.id) is new
    mouse = [j for j in joints if type(j).__name__ == "MouseJoint"]
    assert mouse and mouse[0].target == (41.0, 9.0)


def test_a_copy_far_away_moves_as_the_template_does():
    template = _template(11, 10)
    world = _busy_world()
    count = len(world.bodies)
    bodies, _ = world.add_copy(template, (64.0, 0.0))
    alone = copy.deepcopy(template)
    for step in range(60):
        world.step(DT)
        alone.step(DT)
        # the same motion up to rounding: coordinates near 64 m round more coarsely than
        # near 0, and a pile with joints and bounces grows those differences
        tolerance = 1e-9 if step == 0 else 5e-3
        assert np.allclose(world.positions[count:] - (64.0, 0.0), alone.positions, atol=tolerance)
        assert np.allclose(world.angles[count:], alone.angles, atol=tolerance)


def test_a_world_may_copy_itself_and_copies_can_be_destroyed():
    world = _template(5, 8)
    n, m = len(world.bodies), len(world.joints)
    bodies, joints = world.add_copy(world, (0.0, 20.0))
    assert len(world.bodies) == 2 * n and len(world.joints) == 2 * m
    assert np.array_equal(world.positions[n:], world.positions[:n] + (0.0, 20.0))
    for _ in range(30):
        world.step(DT)
    world.destroy_bodies(bodies)
    assert len(world.bodies) == n and len(world.joints) == m
    assert not any(j.alive for j in joints)
    world.add_copy(world, (0.0, 40.0))
    for _ in range(30):
        world.step(DT)
    assert np.isfinite(world.positions).all()


def test_velocity_replaces_the_moving_bodies_velocities():
    template = _template(2, 5, joints=False)
    world = World()
    bodies, _ = world.add_copy(template, velocity=(3.0, -1.0))
    assert bodies[0].velocity == (0.0, 0.0)  # the static ground
    assert all(b.velocity == (3.0, -1.0) for b in bodies[1:])


def test_a_copied_ragdoll_drop_steps_as_one_built_call_by_call():
    rain = scenes.ragdoll_rain(World(), rows=1, columns=1, group_size=3, grid_count=10)
    template = rain.drop_template()
    built = World()
    for i in range(3):
        scenes.ragdoll(built, (0.5 * i, 0.0), joint_friction=0.05, joint_hertz=5.0,
                       joint_damping=0.5, group=i + 1)
    copied = World()
    copied.add_copy(template)
    for _ in range(60):
        built.step(DT)
        copied.step(DT)
    assert built.state_hash() == copied.state_hash()


@pytest.mark.parametrize("args, error, message", [
    ((None,), TypeError, "template must be an engine.World"),
    (("T", (float("nan"), 0.0)), ValueError, "offset"),
    (("T", (2e9, 0.0)), ValueError, "offset"),
    (("T", (1e9 - 1, 0.0)), ValueError, "beyond"),
    (("T", (0.0, 0.0), (float("inf"), 0.0)), ValueError, "velocity"),
])
def test_bad_input_adds_nothing(args, error, message):
    template = _template(4, 6)
    world = _busy_world()
    before = (world.state_hash(), len(world.bodies), len(world.joints), world.positions.copy())
    args = tuple(template if a == "T" else a for a in args)
    with pytest.raises(error, match=message):
        world.add_copy(*args[:2], **({"velocity": args[2]} if len(args) > 2 else {}))
    assert (world.state_hash(), len(world.bodies), len(world.joints)) == before[:3]
    assert np.array_equal(world.positions, before[3])


def test_copying_during_a_step_is_refused():
    template = _template(4, 3, joints=False)
    world = _busy_world()
    seen = []

    def begin(contact):
        with pytest.raises(RuntimeError, match="being stepped"):
            world.add_copy(template)
        seen.append(1)

    world.on_collision(begin=begin)
    world.create_body(position=(0.0, 0.5)).add_shape(Circle(0.5))
    world.step(DT)
    assert seen
