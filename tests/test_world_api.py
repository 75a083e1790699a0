"""The World/Body API: handles, views, mass properties, shape attachment, bad input."""
import math

import numpy as np
import pytest

from engine.world import stages
from engine import Body, BodyType, Circle, Polygon, Segment, World


def make_world():
    world = World(gravity=(0.0, -10.0))
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    return world, ground


def test_hello_world_box_lands_on_ground():
    # Box2D's HelloWorld test: a 2 x 2 box dropped from y = 4 onto ground whose top is
    # y = 0 rests at y = 1 within 0.01 after 90 steps.
    world, _ = make_world()
    box = world.create_body(position=(0, 4))
    box.add_shape(Polygon.box(2, 2), friction=0.3)
    for _ in range(90):
        world.step(1 / 60)
    x, y = box.position
    assert abs(x) < 0.01 and abs(y - 1.0) < 0.01 and abs(box.angle) < 0.01


def test_body_types_accept_enum_and_strings():
    world = World()
    for kind in ("dynamic", "kinematic", "static", BodyType.DYNAMIC, BodyType.STATIC):
        assert world.create_body(kind).body_type == BodyType.parse(kind)
    with pytest.raises(ValueError, match="body_type"):
        world.create_body("flying")


def test_views_are_zero_copy_read_only_and_in_body_order():
    world = World(gravity=(0, 0))
    bodies = [world.create_body(position=(i, 2 * i), velocity=(i, 0)) for i in range(5)]
    pos = world.positions
    assert pos.shape == (5, 2) and not pos.flags.writeable
    assert np.shares_memory(pos, world._state.bodies.pos)
    with pytest.raises(ValueError):
        pos[0, 0] = 1.0
    world.step(0.5)
    assert pos[3, 0] == pytest.approx(3 + 0.5 * 3)  # the same view sees the step
    assert [world.body_index(b) for b in bodies] == list(range(5))
    assert world.velocities.shape == (5, 2) and world.angles.shape == (5,)
    assert world.angular_velocities.shape == (5,)


def test_destroy_keeps_order_and_stale_handles_raise():
    world = World(gravity=(0, 0))
    bodies = [world.create_body(position=(i, 0)) for i in range(4)]
    for b in bodies:
        b.add_shape(Circle(0.2))
    world.destroy_body(bodies[1])
    assert [b.position[0] for b in world.bodies] == [0.0, 2.0, 3.0]
    assert world.body_index(bodies[3]) == 2
    assert world.positions[2, 0] == 3.0
    for use in (lambda: bodies[1].position, lambda: setattr(bodies[1], "velocity", (1, 0)),
                lambda: world.destroy_body(bodies[1]), lambda: bodies[1].add_shape(Circle(1))):
        with pytest.raises(RuntimeError, match="destroyed"):
            use()
    # a new body never revives the old handle
    world.create_body(position=(9, 9))
    with pytest.raises(RuntimeError):
        bodies[1].position
    world.step(1 / 60)


def test_mass_properties_follow_the_shapes():
    world = World()
    body = world.create_body()
    h1 = body.add_shape(Polygon.box(2, 1), density=3.0)
    assert body.mass == pytest.approx(6.0)
    assert body.inertia == pytest.approx(6.0 * (4 + 1) / 12)
    body.add_shape(Circle(0.5, center=(2.0, 0.0)), density=1.0)
    m_circle = math.pi * 0.25
    total = 6.0 + m_circle
    cx = m_circle * 2.0 / total
    assert body.mass == pytest.approx(total)
    assert body.center_of_mass == pytest.approx((cx, 0.0))
    expected_i = 6.0 * 5 / 12 + 6.0 * cx ** 2 + m_circle * 0.125 + m_circle * (2.0 - cx) ** 2
    assert body.inertia == pytest.approx(expected_i)
    body.remove_shape(h1)
    assert body.mass == pytest.approx(m_circle)
    assert body.center_of_mass == pytest.approx((2.0, 0.0))


def test_dynamic_body_without_shapes_has_unit_mass_and_does_not_rotate():
    world = World(gravity=(0, -10))
    body = world.create_body()
    assert body.mass == 1.0 and body.inertia == 0.0
    body.apply_torque(5.0)
    world.step(0.1)
    assert body.angular_velocity == 0.0 and body.velocity[1] == pytest.approx(-1.0)


def test_forces_and_impulses():
    world = World(gravity=(0, 0))
    body = world.create_body()
    body.add_shape(Polygon.box(1, 1), density=2.0)  # mass 2, inertia 2/6
    body.apply_impulse((4.0, 0.0))
    assert body.velocity == pytest.approx((2.0, 0.0))
    body.apply_impulse((0.0, 1.0), point=(0.5, 0.0))  # torque arm 0.5
    assert body.angular_velocity == pytest.approx(0.5 / (2.0 / 6.0))
    body.velocity = (0, 0)
    body.angular_velocity = 0
    body.apply_force((2.0, 0.0))
    world.step(0.5)  # force lasts one step: dv = F/m * dt
    assert body.velocity[0] == pytest.approx(0.5)
    world.step(0.5)
    assert body.velocity[0] == pytest.approx(0.5)


def test_materials_mixing_rules():
    for mixing, friction, restitution in (("box2d", math.sqrt(0.2 * 0.8), 0.7), ("pymunk", 0.16, 0.7 * 0.1)):
        world = World(gravity=(0, 0), mixing=mixing)
        a = world.create_body(position=(0, 0))
        a.add_shape(Circle(0.5), friction=0.2, restitution=0.7)
        b = world.create_body(position=(0.9, 0))
        b.add_shape(Circle(0.5), friction=0.8, restitution=0.1)
        world.step(1 / 60)
        assert world._state.pairs.rows[0, 3] == pytest.approx(friction)
        assert world._state.pairs.rows[0, 4] == pytest.approx(restitution)
    with pytest.raises(ValueError, match="mixing"):
        World(mixing="chipmunk")


def test_teleporting_a_body_finds_new_contacts():
    world = World(gravity=(0, 0))
    a = world.create_body(position=(0, 0))
    a.add_shape(Circle(0.5))
    b = world.create_body(position=(50, 0))
    b.add_shape(Circle(0.5))
    world.step(1 / 60)
    assert len(world._state.pairs) == 0
    b.position = (0.8, 0)
    world.step(1 / 60)
    # found at once, and the overlap is being pushed out (by position: the relax pass
    # takes the push-out velocity back, as in Box2D)
    assert len(world._state.pairs) == 1
    assert b.position[0] - a.position[0] > 0.8


def test_changing_body_type():
    world, _ = make_world()
    body = world.create_body(position=(0, 3))
    body.add_shape(Polygon.box(1, 1))
    body.body_type = "static"
    for _ in range(30):
        world.step(1 / 60)
    assert body.position == (0.0, 3.0) and body.mass == 0.0
    body.body_type = BodyType.DYNAMIC
    assert body.mass == pytest.approx(1.0)
    for _ in range(120):
        world.step(1 / 60)
    assert body.position[1] == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize("old,new", [("dynamic", "kinematic"), ("kinematic", "dynamic")])
def test_dynamic_kinematic_switch_keeps_the_trees(old, new):
    # Found by tests/test_stateful.py: both types live in the moving tree, but the setter
    # took the static tree for the old one and removed whichever leaf of it had the
    # piece's node id (here the ground's): ValueError, or a ground that vanished.
    world, ground = make_world()
    body = world.create_body(old, position=(0, 2))
    body.add_shape(Circle(0.5))
    body.body_type = new
    state = world._state
    for tree in (state.tree, state.static_tree):
        tree.validate()
    assert state.static_tree.leaf_count == 1 and state.tree.leaf_count == 1
    body.body_type = "dynamic"
    for _ in range(120):
        world.step(1 / 60)
    assert body.position[1] == pytest.approx(0.5, abs=0.01)  # the ground is still there


@pytest.mark.parametrize("call,error,message", [
    (lambda w, b: w.create_body(position=(math.nan, 0)), ValueError, "finite"),
    (lambda w, b: w.create_body(velocity=(0, math.inf)), ValueError, "finite"),
    (lambda w, b: w.create_body(position="here"), TypeError, "pair"),
    (lambda w, b: setattr(b, "position", (math.inf, 0)), ValueError, "finite"),
    (lambda w, b: setattr(b, "velocity", (math.nan, 0)), ValueError, "finite"),
    (lambda w, b: setattr(b, "angle", math.nan), ValueError, "finite"),
    (lambda w, b: b.add_shape(Circle(1), density=0.0), ValueError, "density"),
    (lambda w, b: b.add_shape(Circle(1), density=-1.0), ValueError, "density"),
    (lambda w, b: b.add_shape(Circle(1), friction=-0.1), ValueError, "friction"),
    (lambda w, b: b.add_shape("circle"), TypeError, "shape"),
    (lambda w, b: b.apply_force((math.nan, 0)), ValueError, "finite"),
    (lambda w, b: w.step(0.0), ValueError, "dt"),
    (lambda w, b: w.step(math.nan), ValueError, "dt"),
    (lambda w, b: w.destroy_body("body"), TypeError, "Body"),
    (lambda w, b: World().destroy_body(b), TypeError, "Body"),
    (lambda w, b: b.remove_shape(object()), ValueError, "not attached"),
    (lambda w, b: setattr(b, "mass", -1), ValueError, "mass"),
    (lambda w, b: setattr(b, "mass", None), TypeError, "mass"),
    (lambda w, b: setattr(b, "inertia", None), TypeError, "inertia"),
    (lambda w, b: setattr(b, "bullet", "no"), TypeError, "bullet"),
    (lambda w, b: setattr(w, "substeps", 0), ValueError, "substeps"),
    (lambda w, b: setattr(w, "substeps", "4"), TypeError, "substeps"),
    (lambda w, b: setattr(w, "substeps", -1), ValueError, "substeps"),
    (lambda w, b: World(substeps=True), TypeError, "substeps"),
    (lambda w, b: b.add_shape(Circle(1), restitution=5), ValueError, "restitution"),
    (lambda w, b: setattr(b.shapes[0], "restitution", 1.5), ValueError, "restitution"),
    (lambda w, b: setattr(b.shapes[0], "shape", Circle(3)), AttributeError, "setter|attribute"),
    (lambda w, b: b.add_shape(Circle(1), filter="all"), TypeError, "filter"),
    (lambda w, b: b.add_shape(Circle(1), sensor=1), TypeError, "sensor"),
    (lambda w, b: b.add_shape(Circle(1), one_way=(0, 0)), ValueError, "one_way"),
    (lambda w, b: setattr(b.shapes[0], "filter", None), TypeError, "filter"),
    (lambda w, b: setattr(b.shapes[0], "collision_type", 1.5), TypeError, "collision_type"),
    (lambda w, b: w.shape(99), ValueError, "shape"),
    (lambda w, b: w.body(-1), ValueError, "body"),
])
def test_bad_input_raises_and_leaves_the_world_unchanged(call, error, message):
    world, _ = make_world()
    body = world.create_body(position=(0, 2), velocity=(1, 0))
    body.add_shape(Polygon.box(1, 1))
    before = (world.positions.copy(), world.velocities.copy(), len(world.bodies), world._state.pieces.used,
              body.mass)
    with pytest.raises(error, match=message):
        call(world, body)
    after = (world.positions.copy(), world.velocities.copy(), len(world.bodies), world._state.pieces.used,
             body.mass)
    for x, y in zip(before, after):
        assert np.array_equal(x, y)


def test_mutating_the_world_during_a_step_raises(monkeypatch):
    world, _ = make_world()
    body = world.create_body(position=(0, 2))
    body.add_shape(Circle(0.5))
    seen = []

    def meddle(state, dt, _solve=stages.solve):
        for attempt in (lambda: world.create_body(), lambda: body.add_shape(Circle(1)),
                        lambda: setattr(body, "position", (0, 0)), lambda: world.destroy_body(body)):
            with pytest.raises(RuntimeError, match="being stepped"):
                attempt()
            seen.append(True)
        _solve(state, dt)

    monkeypatch.setattr(stages, "solve", meddle)
    world.step(1 / 60)
    assert len(seen) == 4 and len(world.bodies) == 2


def test_segments_make_static_terrain():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Segment((-10, 0), (10, 0)))
    ball = world.create_body(position=(0, 2))
    ball.add_shape(Circle(0.5))
    for _ in range(120):
        world.step(1 / 60)
    assert ball.position[1] == pytest.approx(0.5, abs=0.01)


def test_body_repr_and_user_data():
    world = World()
    body = world.create_body(position=(1, 2))
    body.user_data = {"name": "crate"}
    assert "dynamic" in repr(body) and body.user_data["name"] == "crate"
    assert isinstance(world.bodies[0], Body)


def test_fixed_rotation_keeps_a_character_upright_and_survives_new_shapes():
    world = World()
    world.create_body("static").add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    player = world.create_body(position=(0, 1.0), angular_velocity=3.0)
    player.add_shape(Polygon.box(0.5, 1.0))
    player.fixed_rotation = True
    player.add_shape(Circle(0.25), density=5.0)  # the mass is recomputed: still no turning
    for _ in range(60):
        player.apply_force((40.0, 0.0), point=(0.0, 1.4))  # pushed high: would tip it over
        world.step(1 / 60)
    assert player.angle == 0.0 and player.angular_velocity == 0.0 and player.inertia == 0.0
    assert player.velocity[0] > 1.0
    player.fixed_rotation = False
    assert player.inertia > 0.0
    with pytest.raises(TypeError):
        player.fixed_rotation = "yes"
