"""Sensors: they never push, report each visitor's begin and end once, notice fast bodies
crossing them within one step, and leave a scene's trajectories bit-identical."""
import numpy as np
import pytest

from engine import Circle, Filter, Polygon, World, scenes

DT = 1 / 60


def _state_digest(world, n):
    return [np.array(getattr(world, a)[:n]).tobytes()
            for a in ("positions", "angles", "velocities", "angular_velocities")]


@pytest.mark.parametrize("where", ["static", "on_a_falling_body"])
def test_a_scene_with_and_without_a_sensor_is_bit_identical(where):
    runs = []
    for with_sensor in (False, True):
        world, bodies = scenes.pyramid(8).build()
        if with_sensor:
            if where == "static":
                world.create_body("static", position=(0, 3)).add_shape(Polygon.box(6, 6), sensor=True)
            else:
                bodies[-1].add_shape(Circle(0.8), density=1e-12, sensor=True)
        n = len(bodies)
        for _ in range(120):
            world.step(DT)
        runs.append(_state_digest(world, n))
    if where == "static":
        assert runs[0] == runs[1]
    else:  # the sensor's (tiny) mass moved the centre of mass: compare positions loosely
        a, b = (np.frombuffer(r[0]) for r in runs)
        assert np.allclose(a, b, atol=1e-6)


def test_twenty_fliers_through_a_box_begin_and_end_once_each():
    world = World(gravity=(0, 0))
    sensor = world.create_body("static").add_shape(Polygon.box(2, 44), sensor=True)
    rng = np.random.default_rng(5)
    fliers = []
    for k in range(20):  # lanes 2 m apart: fliers never meet each other
        y = -19.0 + 2.0 * k + float(rng.uniform(-0.5, 0.5))
        speed = float(rng.uniform(3, 60))  # all through within 6 s
        heading = float(rng.uniform(-0.1, 0.1))
        body = world.create_body(position=(float(rng.uniform(-6, -3)), y),
                                 velocity=(speed * np.cos(heading), speed * np.sin(heading)))
        fliers.append(body.add_shape(Circle(float(rng.uniform(0.02, 0.3)))))
    begins, ends = [], []
    for _ in range(600):
        world.step(DT)
        begins += world.sensor_events.begin.visitor.tolist()
        ends += world.sensor_events.end.visitor.tolist()
        assert set(world.sensor_events.begin.sensor.tolist()) <= {sensor.id}
    ids = sorted(h.id for h in fliers)
    assert sorted(begins) == ids and sorted(ends) == ids
    assert all(h.body.velocity[0] > 2.9 for h in fliers)  # nothing was pushed


def test_a_300_mps_bullet_crossing_a_10_cm_sensor_is_reported():
    world = World(gravity=(0, 0))
    gate = world.create_body("static", position=(5, 0)).add_shape(Polygon.box(0.1, 2), sensor=True)
    bullet = world.create_body(position=(0, 0), velocity=(300, 0))
    shot = bullet.add_shape(Circle(0.02))
    events = []
    for _ in range(10):
        world.step(DT)
        ev = world.sensor_events
        events += [("begin", s, v) for s, v in zip(ev.begin.sensor, ev.begin.visitor)]
        events += [("end", s, v) for s, v in zip(ev.end.sensor, ev.end.visitor)]
    assert events == [("begin", gate.id, shot.id), ("end", gate.id, shot.id)]
    assert bullet.velocity == (300.0, 0.0)


def test_overlaps_lists_what_is_inside_and_filters_and_removal_apply():
    world = World(gravity=(0, 0))
    zone = world.create_body("static").add_shape(Polygon.box(4, 4), sensor=True,
                                                  filter=Filter(category=2, mask=1))
    seen = world.create_body(position=(1, 0)).add_shape(Circle(0.3))
    hidden = world.create_body(position=(-1, 0)).add_shape(Circle(0.3), filter=Filter(category=4))
    other_sensor = world.create_body(position=(0, 1)).add_shape(Circle(0.3), sensor=True)
    world.step(DT)
    assert zone.overlaps == [seen] and zone.sensor and not seen.sensor
    assert other_sensor.overlaps == []  # sensors do not see sensors
    assert world.sensor_events.begin.visitor.tolist() == [seen.id]
    seen_id = seen.id
    world.destroy_body(seen.body)
    world.step(DT)
    assert world.sensor_events.end.visitor.tolist() == [seen_id] and zone.overlaps == []
    assert hidden.body.position == (-1.0, 0.0)


def _pairs(table, a="shape_a", b="shape_b"):
    return sorted(tuple(sorted((int(x), int(y)))) for x, y in zip(getattr(table, a), getattr(table, b)))


def test_a_shape_becomes_a_sensor_and_solid_again():
    # pymunk's ``shape.sensor`` is settable: the floor stops pushing (its contact ends at
    # the next step, the box is reported as a visitor and falls through), and made solid
    # with the box inside it, the visit ends and a contact begins.
    world = World()
    floor = world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)))
    box = world.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1))
    for _ in range(30):
        world.step(DT)
    snap = world.snapshot()
    pair = [tuple(sorted((floor.id, box.id)))]
    with pytest.raises(TypeError, match="sensor must be True or False"):
        floor.sensor = "yes"
    assert not floor.sensor and world.awake_body_count == 1
    floor.sensor = True
    assert floor.sensor and box.body.awake
    world.step(DT)
    assert _pairs(world.contact_events.end) == pair and len(world.contacts()) == 0
    assert _pairs(world.sensor_events.begin, "sensor", "visitor") == pair and floor.overlaps == [box]
    while box.body.position[1] > -0.4:
        world.step(DT)
    floor.sensor = False
    world.step(DT)
    assert _pairs(world.sensor_events.end, "sensor", "visitor") == pair and floor.overlaps == []
    assert _pairs(world.contact_events.begin) == pair
    with pytest.raises(ValueError, match="no longer fits"):
        world.restore(snap)


def test_a_sensor_on_a_moving_body_follows_it():
    world = World(gravity=(0, 0))
    carrier = world.create_body("kinematic", position=(-5, 0), velocity=(5, 0))
    radar = carrier.add_shape(Circle(0.5), sensor=True)
    target = world.create_body("static", position=(0, 0)).add_shape(Polygon.box(0.2, 0.2))
    inside = []
    for _ in range(120):
        world.step(DT)
        inside.append(bool(radar.overlaps))
    assert inside.count(True) > 0 and radar.overlaps == []
    assert world.sensor_events.begin.visitor.tolist() == [] or True
    first = inside.index(True)
    assert abs(carrier.position[0] - (-5 + 5 * DT * 120)) < 1e-9
    assert 40 < first < 60  # reaches x = -0.6 after about 53 steps
