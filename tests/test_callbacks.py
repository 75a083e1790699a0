"""Collision callbacks (pymunk's semantics), checked against the event arrays and against
what the bodies do."""
import pytest

from engine import Circle, Polygon, World, scenes

DT = 1 / 60


def _floor(world, **kw):
    return world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)), **kw)


def test_begin_and_separate_counts_equal_the_event_arrays():
    world, bodies = scenes.rain(300, 150).build()
    for body in bodies:
        for h in body.shapes:
            h.collision_type = 2 if body.body_type.name == "STATIC" else 1
    calls = {"begin": [], "separate": []}
    world.on_collision(1, None, begin=lambda c: calls["begin"].append(c),
                       separate=lambda c: calls["separate"].append(c))
    begins = ends = 0
    for _ in range(150):
        calls["begin"].clear()
        calls["separate"].clear()
        world.step(DT)
        ev = world.contact_events
        for kind, table in (("begin", ev.begin), ("separate", ev.end)):
            expected = sorted(tuple(sorted((int(a), int(b)))) for a, b in zip(table.shape_a, table.shape_b)
                              if 1 in (world.shape(int(a)).collision_type, world.shape(int(b)).collision_type))
            # type 1 against anything: a pair of two type-1 shapes matches both ways, once
            got = sorted(tuple(sorted((c.shapes[0].id, c.shapes[1].id))) for c in calls[kind])
            assert got == expected, kind
            assert all(c.shapes[0].collision_type == 1 for c in calls[kind])
        begins += len(calls["begin"])
        ends += len(calls["separate"])
    assert begins > 100 and ends > 10


def test_disabling_in_begin_lets_a_body_fall_through_until_it_separates():
    world = World()
    floor = _floor(world, collision_type=5)
    ball = world.create_body(position=(0, 2)).add_shape(Circle(0.25), collision_type=9)
    log = []

    def begin(contact):
        log.append(("begin", contact.shapes[0] is ball, contact.normal))
        contact.enabled = False

    world.on_collision(9, 5, begin=begin, separate=lambda c: log.append(("separate",)))
    for _ in range(120):
        world.step(DT)
    assert ball.body.position[1] < -1.5  # fell through the 1 m floor
    assert [entry[0] for entry in log] == ["begin", "separate"]
    assert log[0][1] is True and log[0][2][1] < 0  # ball first; normal from ball down to floor


def test_pre_solve_disables_one_step_and_changes_friction():
    world = World()
    _floor(world)
    box = world.create_body(position=(0, 0.5), velocity=(4, 0)).add_shape(Polygon.box(1, 1))
    world.step(DT)
    v1 = box.body.velocity[0]  # one step of friction: 4 - 0.6 g dt
    seen = []

    def slippery(contact):
        seen.append(contact.friction)
        contact.friction = 0.0

    world.on_collision(pre_solve=slippery)
    for _ in range(60):
        world.step(DT)
    assert seen and seen[0] == pytest.approx(0.6)
    assert v1 == pytest.approx(3.9, abs=1e-3) and box.body.velocity[0] == pytest.approx(v1, abs=1e-9)


@pytest.mark.parametrize("floor_first", [True, False])
def test_pre_solve_surface_speed_drives_the_box_for_the_steps_it_is_set(floor_first):
    # Conveyor by callback (pymunk's ``arbiter.surface_velocity``): friction 0.6 drives
    # the box to the set speed after the slip time v / (mu g) = 0.5 s; the value read is
    # the sum of the shapes' own surface speeds, in either order of the handler's types.
    world = World()
    floor = _floor(world, collision_type=1)
    floor.surface_speed = 0.25
    box = world.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1), collision_type=2)
    box.surface_speed = -0.75
    world.step(DT)
    setting, read = [3.0], []

    def drive(contact):
        # the tangent is the normal turned clockwise (from the floor up: +x; from the box
        # down: -x) and the relative velocity turns with it: one value for both orders
        read.append(contact.surface_speed)
        if setting[0] is not None:
            contact.surface_speed = setting[0]
        with pytest.raises(ValueError, match="surface_speed"):
            contact.surface_speed = float("nan")

    world.on_collision(*((1, 2) if floor_first else (2, 1)), pre_solve=drive)
    for _ in range(60):
        world.step(DT)
    assert read[0] == pytest.approx(-0.5)
    assert box.body.velocity[0] == pytest.approx(3.0, rel=1e-2)
    setting[0] = None  # back to the shapes' own: -0.5 m/s relative, the box at -0.5
    for _ in range(90):
        world.step(DT)
    assert box.body.velocity[0] == pytest.approx(-0.5, rel=1e-2)


def test_pre_solve_disabling_lasts_one_step():
    world = World()
    _floor(world)
    box = world.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1))
    for _ in range(10):
        world.step(DT)
    count = [0]

    def every_other(contact):
        count[0] += 1
        contact.enabled = count[0] % 2 == 0

    world.on_collision(pre_solve=every_other)
    heights = []
    for _ in range(20):
        world.step(DT)
        heights.append(box.body.position[1])
    assert count[0] == 20  # still touching every step: pre_solve every step
    assert min(heights) > 0.45  # caught again every other step


def test_after_step_runs_once_after_the_step_and_structural_changes_raise_inside():
    world = World()
    _floor(world)
    ball = world.create_body(position=(0, 0.26)).add_shape(Circle(0.25))  # 1 cm above
    errors, order = [], []

    def begin(contact):
        with pytest.raises(RuntimeError, match="being stepped"):
            world.create_body()
        errors.append(True)
        world.after_step(lambda body: order.append(("removed", body.alive)) or world.destroy_body(body),
                         contact.bodies[1] if contact.bodies[1] is ball.body else contact.bodies[0])

    world.on_collision(begin=begin)
    world.step(DT)
    assert errors == [True] and order == [("removed", True)] and not ball.alive
    world.step(DT)
    assert order == [("removed", True)]


def test_bad_registrations_raise_and_leave_no_handler():
    world = World()
    with pytest.raises(TypeError):
        world.on_collision(begin=3)
    with pytest.raises(TypeError):
        world.on_collision("a", begin=print)
    with pytest.raises(ValueError):
        world.on_collision(1, 2)
    with pytest.raises(TypeError):
        world.after_step("not callable")
    assert world._state.handlers == []


@pytest.mark.parametrize("velocity", [(0.0, 0.0), (10.0, 0.0)])
def test_callbacks_before_and_after_the_solver_see_the_same_contact_points(velocity):
    # A new body far from the origin, still or sliding: begin and pre_solve place their
    # points from the pose the step starts from, as post_solve does (found in review:
    # once the solver kept that pose itself, the callbacks before it saw the last
    # step's, or the origin for a new body).
    world = World()
    world.create_body(position=(100, 0.24), velocity=velocity).add_shape(Circle(0.25),
                                                                         collision_type=7)
    world.create_body("static").add_shape(Polygon.box(400, 1, center=(0, -0.5)))
    seen = {"begin": [], "pre_solve": [], "post_solve": []}

    def record(name):
        return lambda contact: seen[name].append([tuple(p) for p in contact.points])

    world.on_collision(7, None, **{name: record(name) for name in seen})
    for _ in range(3):
        world.step(1 / 60)
    assert seen["begin"] and seen["begin"][0] == seen["pre_solve"][0] == seen["post_solve"][0]
    assert seen["pre_solve"] == seen["post_solve"]
    assert all(abs(points[0][0] - 100) < 1 for points in seen["begin"] + seen["pre_solve"])


@pytest.mark.parametrize("together", [True, False])
def test_separate_reaches_every_handler_when_touching_shapes_are_removed(together):
    """A separate callback for a pair whose shapes were removed gets both handles, for a
    handler of any collision types (it once read a removed handle's checked property)."""
    world = World()
    world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    a = world.create_body(position=(0.0, 0.5))
    a.add_shape(Polygon.box(1, 1), collision_type=2)
    b = world.create_body(position=(0.0, 1.5))
    b.add_shape(Polygon.box(1, 1), collision_type=3)
    seen = []
    world.on_collision(separate=lambda c: seen.append(("any", c.shapes)))
    world.on_collision(2, 3, separate=lambda c: seen.append(("typed", c.shapes)))
    for _ in range(30):
        world.step(1 / 60)
    handles = (a.shapes[0], b.shapes[0])
    world.destroy_bodies([a, b]) if together else world.destroy_body(b)
    world.step(1 / 60)
    typed = [shapes for kind, shapes in seen if kind == "typed"]
    assert typed == [handles]  # in the handler's type order
    assert sum(1 for kind, _ in seen if kind == "any") == (2 if together else 1)  # a-ground and a-b; or a-b
