"""Valid ranges (issue #19 item 3): finite values that would overflow or underflow the
state are refused at the API with a ValueError naming the value and the allowed range,
and the world is left bit-identical (its state and its next 60 steps); inside the
ranges, the extremes step without NaN."""
import math

import numpy as np
import pytest

from engine import Circle, Polygon, Segment, World
from engine import constants as K
from engine.body_state import S_VX, S_VY, S_W, STATE_SIZE
from engine.dynamics.integrate import integrate_free, integrate_velocities

DT = 1 / 60


def _scene():
    world = World()
    world.create_body("static").add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    box = world.create_body(position=(0, 0.6), angular_velocity=0.3)
    box.add_shape(Polygon.box(1, 1))
    ball = world.create_body(position=(2, 3))
    ball.add_shape(Circle(0.4))
    kin = world.create_body("kinematic", position=(-3, 2), velocity=(1, 0), angular_velocity=1.0)
    kin.add_shape(Circle(0.5))
    bare = world.create_body(position=(5, 5))  # no shape
    return world, {"box": box, "ball": ball, "kin": kin, "bare": bare}


def _scene_bodies(world):
    return dict(zip(("box", "ball", "kin", "bare"), world.bodies[1:]))


def _columns(world):
    b = world._state.bodies
    n = b.used
    return {name: np.array(getattr(b, name)[:n]) for name in
            ("pos", "angle", "vel", "angvel", "force", "torque", "mass", "inv_mass", "inertia",
             "inv_inertia", "gravity_scale", "com")}


def _trajectory(world, steps=60):
    out = []
    for _ in range(steps):
        world.step(DT)
        out.append(np.concatenate([world.positions.ravel(), world.angles, world.velocities.ravel(),
                                   world.angular_velocities]))
    return np.array(out)


REFUSED = [
    ("mass 1e-320", lambda w, b: setattr(b["box"], "mass", 1e-320), r"mass must be between 1e-30 and 1e\+40 kg"),
    ("mass 1e300", lambda w, b: setattr(b["box"], "mass", 1e300), r"mass must be between"),
    ("inertia 1e-320", lambda w, b: setattr(b["box"], "inertia", 1e-320), r"inertia must be between 1e-50"),
    ("tiny circle on a dynamic body", lambda w, b: b["bare"].add_shape(Circle(1e-80)),
     r"radius must be between 1e-06 and 1e\+09 m, got 1e-80"),
    ("density 1e308", lambda w, b: b["bare"].add_shape(Circle(1.0), density=1e308),
     r"density must be between 1e-12 and 1e\+12 kg/m\^2"),
    ("density 1e-300", lambda w, b: b["bare"].add_shape(Circle(1.0), density=1e-300), r"density must be between"),
    ("gravity_scale 1e308", lambda w, b: setattr(b["box"], "gravity_scale", 1e308),
     r"gravity_scale must be between -1e\+06 and 1e\+06"),
    ("force 1e308", lambda w, b: b["ball"].apply_force((1e308, 0)), r"force\[0\] must be between -1e\+30 and 1e\+30 N"),
    ("forces adding up", lambda w, b: b["ball"].apply_force((0, 9e29)),
     r"force applied this step, y, would be 1.8e\+30 N"),
    ("torque at a point", lambda w, b: b["ball"].apply_force((-1e30, 0), point=(2, 1e9)),
     r"torque applied this step would be 1.04999.*e\+40 N m"),
    ("torque 1e308", lambda w, b: b["ball"].apply_torque(1e308), r"torque must be between"),
    ("two impulses of 1e308", lambda w, b: [b["ball"].apply_impulse((1e308, 0)) for _ in range(2)],
     r"velocity after the impulse .* must stay between -1e\+06 and 1e\+06 m/s"),
    ("spinning impulse", lambda w, b: b["box"].apply_impulse((0, 9e5), point=(0.5, 0.6)),
     r"angular velocity after the impulse"),
    ("step 1e300 with a moving kinematic body", lambda w, b: w.step(1e300), r"dt must be between 0 and 1 s"),
    ("velocity 1e200", lambda w, b: setattr(b["box"], "velocity", (1e200, 0)), r"velocity\[0\] must be between"),
    ("kinematic velocity 1e300", lambda w, b: setattr(b["kin"], "velocity", (0, 1e300)), r"velocity\[1\] must be between"),
    ("angular velocity 1e300", lambda w, b: setattr(b["kin"], "angular_velocity", 1e300),
     r"angular_velocity must be between -1e\+06 and 1e\+06 rad/s"),
    ("position 1e300", lambda w, b: setattr(b["box"], "position", (0, 1e300)), r"position\[1\] must be between -1e\+09 and 1e\+09 m"),
    ("created far away", lambda w, b: w.create_body(position=(1e10, 0)), r"position\[0\] must be between"),
    # integers beyond the floats: a ValueError naming the value, not Python's OverflowError
    ("created at 10**400", lambda w, b: w.create_body(position=(3, 10 ** 400)),
     r"position\[1\] must be finite, got an integer of 401 digits"),
    ("angle 10**400", lambda w, b: w.create_body(angle=-10 ** 400), r"angle must be finite"),
    ("torque 10**400", lambda w, b: b["ball"].apply_torque(10 ** 400), r"torque must be finite"),
    ("created too fast", lambda w, b: w.create_body("kinematic", velocity=(0, -1e7)), r"velocity\[1\] must be between"),
    ("gravity 1e308", lambda w, b: setattr(w, "gravity", (0, -1e308)), r"gravity\[1\] must be between -1e\+06 and 1e\+06 m/s\^2"),
    ("friction 1e308", lambda w, b: setattr(b["box"].shapes[0], "friction", 1e308), r"friction must be between 0 and 1e\+06"),
    ("surface speed 1e300", lambda w, b: setattr(b["box"].shapes[0], "surface_speed", 1e300), r"surface_speed must be between"),
    ("rolling resistance 1e308", lambda w, b: b["bare"].add_shape(Circle(1.0), rolling_resistance=1e308),
     r"rolling_resistance must be between"),
]


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
def test_out_of_range_is_refused_and_the_world_is_unchanged(case):
    _, bad, message = case
    world, bodies = _scene()
    twin, _ = _scene()
    for w, bs in ((world, bodies), (twin, _scene_bodies(twin))):
        w.step(DT)
        bs["ball"].apply_force((0, 9e29))  # legal; more is not
        bs["ball"].apply_torque(9.5e39)
    with pytest.raises(ValueError, match=message):
        bad(world, bodies)
    before, after = _columns(twin), _columns(world)
    for name in before:
        assert before[name].tobytes() == after[name].tobytes(), name
    assert _trajectory(world).tobytes() == _trajectory(twin).tobytes()


SHAPES = [
    ("Circle(1e80)", lambda: Circle(1e80), r"radius must be between 1e-06 and 1e\+09 m, got 1e\+80"),
    ("Circle(1e-80)", lambda: Circle(1e-80), r"radius must be between"),
    ("circle centre 1e300", lambda: Circle(1.0, center=(1e300, 0)), r"center\[0\] must be between"),
    ("box 1e-80", lambda: Polygon.box(1e-80, 1e-80), r"width must be between"),
    ("box 1e200", lambda: Polygon.box(1.0, 1e200), r"height must be between"),
    ("polygon far away", lambda: Polygon([(0, 0), (1e300, 0), (0, 1)]), r"vertices coordinates must be between"),
    ("polygon of 1e-150 m^2", lambda: Polygon([(0, 0), (1e-75, 0), (0, 1e-75)]), r"at least 1e-12 m\^2"),
    ("polygon radius 1e-80", lambda: Polygon([(0, 0), (1, 0), (0, 1)], radius=1e-80), r"radius must be between .* \(or 0\)"),
    ("segment 1e-80 long", lambda: Segment((0, 0), (1e-80, 0)), r"at least 1e-06 m apart"),
    ("segment radius 1e80", lambda: Segment((0, 0), (1, 0), radius=1e80), r"radius must be between"),
]


@pytest.mark.parametrize("case", SHAPES, ids=[c[0] for c in SHAPES])
def test_shapes_out_of_range_raise_value_error(case):
    _, make, message = case
    with pytest.raises(ValueError, match=message):
        make()


def test_the_extremes_of_every_range_step_without_nan():
    world, b = _scene()
    b["box"].mass = K.MIN_MASS
    b["box"].inertia = K.MIN_INERTIA
    b["box"].apply_force((K.MAX_FORCE, -K.MAX_FORCE))
    b["box"].apply_torque(K.MAX_TORQUE)
    b["box"].gravity_scale = K.MAX_GRAVITY_SCALE
    world.gravity = (K.MAX_GRAVITY, -K.MAX_GRAVITY)
    b["kin"].velocity = (K.MAX_INPUT_SPEED, -K.MAX_INPUT_SPEED)
    b["kin"].angular_velocity = -K.MAX_INPUT_ANGULAR_SPEED
    b["ball"].velocity = (K.MAX_INPUT_SPEED, K.MAX_INPUT_SPEED)
    b["ball"].shapes[0].friction = K.MAX_FRICTION
    big = world.create_body(position=(0, -2 * K.MAX_COORDINATE / 3))
    big.add_shape(Circle(K.MAX_COORDINATE / 3), density=K.MAX_DENSITY)
    big.apply_impulse((K.MAX_INPUT_SPEED * big.mass, 0))
    for i in range(5):
        tiny = world.create_body(position=(i * K.MIN_LENGTH, 1.0))
        tiny.add_shape(Circle(K.MIN_LENGTH), density=K.MIN_DENSITY, friction=K.MAX_FRICTION)
    for i in range(40):
        world.step(K.MAX_DT if i % 2 else 1e-9)
        for a in (world.positions, world.angles, world.velocities, world.angular_velocities):
            assert np.isfinite(a).all()
    dynamic = [world.body_index(x) for x in world.bodies if x.body_type.name == "DYNAMIC"]
    assert np.hypot(*world.velocities[dynamic].T).max() <= K.MAX_LINEAR_SPEED * (1 + 1e-12)
    assert b["kin"].velocity == (K.MAX_INPUT_SPEED, -K.MAX_INPUT_SPEED)  # kinematic: not capped


@pytest.mark.parametrize("speed", [500.0, 1e150, 1e155, 1e200, 1e300, 1.7e308])
@pytest.mark.parametrize("free", [False, True])
def test_the_speed_cap_holds_for_any_finite_speed(speed, free):
    """The cap squared the speed: above ~1e154 m/s the square was inf and the velocity
    became 0 instead of the cap. Kernel-level: the API no longer lets such speeds in."""
    n = 3
    btype = np.full(n, K.DYNAMIC, np.int8)
    in_contact = np.full(n, not free)
    zeros2, zeros = np.zeros((n, 2)), np.zeros(n)
    state = np.zeros((n, STATE_SIZE))
    state[:, S_VX] = [speed, -speed, speed / math.sqrt(2)]
    state[:, S_VY] = [0.0, speed, speed / math.sqrt(2)]
    args = (np.zeros((1, 2)), np.zeros(n, np.int32), btype, in_contact, np.ones(n), zeros, zeros2, zeros, zeros, zeros, np.ones(n))
    if free:  # free bodies keep their velocities in the body columns, not the solver state
        vel, angvel = state[:, [S_VX, S_VY]].copy(), state[:, S_W].copy()
        integrate_free(4, DT / 4, *args, vel, angvel, K.MAX_LINEAR_SPEED, K.MAX_ROTATION,
                       np.zeros((n, 2)), np.zeros(n))
        state[:, S_VX], state[:, S_VY] = vel[:, 0], vel[:, 1]
    else:
        integrate_velocities(DT / 4, *args[:4], (1, 0, n), *args[4:], state, K.MAX_LINEAR_SPEED,
                             K.MAX_ROTATION)  # (1, 0, n): one solve block, every body
    v = state[:, [S_VX, S_VY]]
    assert np.hypot(v[:, 0], v[:, 1]) == pytest.approx(np.full(n, K.MAX_LINEAR_SPEED), rel=1e-12)
    assert (np.sign(v[:, 0]) == [1, -1, 1]).all()
