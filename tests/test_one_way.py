"""One-way platforms: jump up through, land on top, never catapult a body caught inside."""
import pytest

from engine import Circle, Polygon, World

DT = 1 / 60


def _platform(world, top=2.0, **kw):
    slab = world.create_body("static", position=(0, top - 0.1))
    return slab.add_shape(Polygon.box(4, 0.2), one_way=(0, 1), **kw)


@pytest.mark.parametrize("shape", [Polygon.box(0.5, 0.5), Circle(0.25)])
def test_thrown_up_from_below_it_passes_lands_and_rests_on_top(shape):
    world = World()
    world.create_body("static").add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    platform = _platform(world)
    body = world.create_body(position=(0, 0.3), velocity=(0, 9.0))  # peaks near 4.3 m
    body.add_shape(shape)
    heights = []
    for _ in range(300):
        world.step(DT)
        heights.append(body.position[1])
    assert max(heights) > 3.5  # went up through the platform
    assert body.position[1] == pytest.approx(2.25, abs=0.01)  # and rests on its top
    assert abs(body.velocity[1]) < 1e-3 and platform.one_way == (0.0, 1.0)


def test_a_body_half_way_through_is_never_thrown_out():
    world = World()
    world.create_body("static").add_shape(Polygon.box(20, 1, center=(-10, -0.5)))
    _platform(world)
    body = world.create_body(position=(0, 2.0))  # its middle at the platform's top
    body.add_shape(Polygon.box(0.5, 0.5))
    for _ in range(120):
        world.step(DT)
        assert body.velocity[1] < 0.1
    assert body.position[1] < 1.0  # it sank out of the platform instead


def test_a_two_way_shape_and_clearing_one_way():
    world = World()
    platform = _platform(world)
    platform.one_way = None
    body = world.create_body(position=(0, 0.5), velocity=(0, 9.0))
    body.add_shape(Polygon.box(0.5, 0.5))
    for _ in range(60):
        world.step(DT)
    assert body.position[1] < 1.8  # bumped its head: the platform pushes both ways now
    with pytest.raises(ValueError):
        platform.one_way = (0, 0)


def test_a_fast_drop_still_lands_and_a_fast_jump_still_passes():
    """Continuous collision stops a 30 m/s drop on the platform and lets a 30 m/s body
    pass up through it (it moves along the platform's direction)."""
    world = World(gravity=(0, 0))
    _platform(world)
    down = world.create_body(position=(-1, 8), velocity=(0, -30))
    down.add_shape(Circle(0.1))
    up = world.create_body(position=(1, -4), velocity=(0, 30))
    up.add_shape(Circle(0.1))
    for _ in range(30):
        world.step(DT)
    assert down.position[1] == pytest.approx(2.1, abs=0.02) and up.position[1] > 5.0
