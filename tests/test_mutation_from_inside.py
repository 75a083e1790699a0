"""Mutation from inside (issue #19 item 8): every API entry that changes the world
converts and checks all its arguments before touching it. A number whose ``__float__``
destroys a body (user code run by the conversion) must give exactly what destroying that
body first and then making the call with a plain number gives: the same outcome (result
or exception) and the same world, and never a piece left pointing at a dead body."""
import numpy as np
import pytest

from engine import Circle, Polygon, World

DT = 1 / 60


class Destroying(float):
    """A float whose conversion destroys the first of ``victims`` still alive before
    returning itself: converted once, it destroys the first; converted again (after the
    world was changed), the second too."""

    def __new__(cls, value, world, victims):
        obj = super().__new__(cls, value)
        obj.world, obj.victims = world, victims
        return obj

    def __float__(self):
        alive = [v for v in self.victims if v.alive]
        if alive:
            self.world.destroy_body(alive[0])
        return float.__float__(self)


def _scene():
    world = World()
    world.create_body("static").add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    other = world.create_body(position=(-2, 1))
    other.add_shape(Polygon.box(1, 1))
    me = world.create_body(position=(0, 1))
    me.add_shape(Circle(0.4))
    after = world.create_body(position=(2, 1))
    after.add_shape(Circle(0.3))
    return world, {"other": other, "me": me, "after": after}


# (name, call(world, bodies, n)) where n(x) wraps a number x; each call wraps one argument.
CALLS = [
    ("add_shape density", lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), density=n(2.0))),
    ("add_shape friction", lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), friction=n(0.5))),
    ("add_shape restitution", lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), restitution=n(0.5))),
    ("add_shape surface_speed", lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), surface_speed=n(1.0))),
    ("add_shape rolling_resistance",
     lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), rolling_resistance=n(0.1))),
    ("add_shape one_way", lambda w, b, n: b["me"].add_shape(Circle(0.2, (0.3, 0)), one_way=(n(0.0), 1.0))),
    ("position", lambda w, b, n: setattr(b["me"], "position", (n(0.5), 1.0))),
    ("angle", lambda w, b, n: setattr(b["me"], "angle", n(0.5))),
    ("velocity", lambda w, b, n: setattr(b["me"], "velocity", (n(0.5), 1.0))),
    ("angular_velocity", lambda w, b, n: setattr(b["me"], "angular_velocity", n(0.5))),
    ("linear_damping", lambda w, b, n: setattr(b["me"], "linear_damping", n(0.5))),
    ("angular_damping", lambda w, b, n: setattr(b["me"], "angular_damping", n(0.5))),
    ("gravity_scale", lambda w, b, n: setattr(b["me"], "gravity_scale", n(0.5))),
    ("mass", lambda w, b, n: setattr(b["me"], "mass", n(3.0))),
    ("inertia", lambda w, b, n: setattr(b["me"], "inertia", n(3.0))),
    ("apply_force", lambda w, b, n: b["me"].apply_force((n(5.0), 0.0))),
    ("apply_force point", lambda w, b, n: b["me"].apply_force((5.0, 0.0), point=(0.0, n(1.2)))),
    ("apply_torque", lambda w, b, n: b["me"].apply_torque(n(5.0))),
    ("apply_impulse", lambda w, b, n: b["me"].apply_impulse((n(1.0), 0.0))),
    ("apply_impulse point", lambda w, b, n: b["me"].apply_impulse((1.0, 0.0), point=(n(0.1), 1.2))),
    ("shape friction", lambda w, b, n: setattr(b["me"].shapes[0], "friction", n(0.1))),
    ("shape restitution", lambda w, b, n: setattr(b["me"].shapes[0], "restitution", n(0.1))),
    ("shape surface_speed", lambda w, b, n: setattr(b["me"].shapes[0], "surface_speed", n(0.1))),
    ("shape rolling_resistance", lambda w, b, n: setattr(b["me"].shapes[0], "rolling_resistance", n(0.1))),
    ("shape one_way", lambda w, b, n: setattr(b["me"].shapes[0], "one_way", (n(0.0), 1.0))),
    ("create_body position", lambda w, b, n: w.create_body(position=(n(4.0), 1.0)).add_shape(Circle(0.2))),
    ("create_body angle", lambda w, b, n: w.create_body(position=(4, 1), angle=n(0.1)).add_shape(Circle(0.2))),
    ("create_body velocity", lambda w, b, n: w.create_body(position=(4, 1), velocity=(0.0, n(1.0)))),
    ("create_body angular_velocity", lambda w, b, n: w.create_body(position=(4, 1), angular_velocity=n(1.0))),
    ("create_body damping", lambda w, b, n: w.create_body(position=(4, 1), linear_damping=n(1.0))),
    ("gravity", lambda w, b, n: setattr(w, "gravity", (0.0, n(-5.0)))),
    ("step", lambda w, b, n: w.step(n(DT))),
]


def _consistent(world):
    """Every live piece belongs to a live body's attached shape, and back."""
    state = world._state
    P = state.pieces
    live = np.flatnonzero(P.body[:P.used] >= 0)
    owned = {}
    for row, body in enumerate(world.bodies):
        for h in body.shapes:
            for p in h._pieces:
                owned[int(p)] = row
    assert sorted(owned) == sorted(int(p) for p in live)
    for p, row in owned.items():
        assert P.body[p] == row


def _outcome(world, bodies, call, wrap):
    try:
        call(world, bodies, wrap)
        result = None
    except Exception as e:  # noqa: BLE001 - the outcome is compared, whatever it is
        result = type(e)
    _consistent(world)
    for _ in range(10):
        world.step(DT)
    _consistent(world)
    state = [np.array(a).tobytes() for a in (world.positions, world.angles, world.velocities,
                                             world.angular_velocities)]
    return result, len(world.bodies), state


@pytest.mark.parametrize("victim", ["me", "other"])
@pytest.mark.parametrize("case", CALLS, ids=[c[0] for c in CALLS])
def test_a_conversion_that_destroys_a_body_is_as_if_it_happened_first(case, victim):
    _, call = case
    world, bodies = _scene()
    victims = [bodies[victim], bodies["after"]]
    got = _outcome(world, bodies, call, lambda x: Destroying(x, world, victims))
    ref, ref_bodies = _scene()
    ref.destroy_body(ref_bodies[victim])
    expected = _outcome(ref, ref_bodies, call, lambda x: x)
    assert got[0] == expected[0]
    assert got[1:] == expected[1:]
