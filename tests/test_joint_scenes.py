"""The joint scenes of ``engine.scenes`` (issue 15, item 4): each builds and steps, the
ragdoll keeps its limits, the bridge hangs on its catenary, the car drives, the double
pendulum keeps its energy."""
import math

import numpy as np
import pytest

from engine import Polygon, World, scenes

DT = 1.0 / 60.0


def _run(world, steps, before=None):
    for k in range(steps):
        if before:
            before(k)
        world.step(DT)


def _finite(world):
    return bool(np.isfinite(world.positions).all() and np.isfinite(world.angles).all())


def _ground(world, width=40.0):
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(width, 1.0, center=(0.0, -0.5)))
    return ground


BUILDERS = {
    "ragdoll": lambda w: (_ground(w), scenes.ragdoll(w, (0.0, 0.5))),
    "car": lambda w: (scenes.bumpy_terrain(w), scenes.car(w, (0.0, 0.0))),
    "bridge": lambda w: scenes.bridge(w),
    "chain": lambda w: scenes.chain(w),
    "newtons_cradle": lambda w: scenes.newtons_cradle(w),
    "double_pendulum": lambda w: scenes.double_pendulum(w),
    "joint_grid": lambda w: scenes.joint_grid(w, n=12),
}


@pytest.mark.parametrize("name", BUILDERS)
def test_scene_builds_and_steps_without_nan(name):
    world = World()
    BUILDERS[name](world)
    assert world.joints
    _run(world, 60)
    assert _finite(world)


def test_ragdoll_rain_drops_and_replaces_columns():
    world = World()
    rain = scenes.ragdoll_rain(world, rows=1, columns=2, group_size=2, grid_count=40)
    _run(world, 60, rain.update)  # columns dropped at steps 0 and 8, replaced at 16, 24, ...
    assert _finite(world)
    assert rain.ragdoll_count == 4
    assert len(world.bodies) == 1 + 4 * 11 and len(world.joints) == 4 * 10


def test_ragdoll_keeps_its_limits_when_it_lies_on_the_ground():
    world = World()
    _ground(world)
    rig = scenes.ragdoll(world, (0.0, 1.0), velocity=(2.0, 0.0))
    rig.bodies[1].angular_velocity = 3.0
    _run(world, 180)  # 3 s: fallen and still
    assert _finite(world)
    assert max(math.hypot(*b.velocity) for b in rig.bodies) < 0.2
    tolerance = math.radians(0.5)
    for joint in rig.joints:
        lower, upper = joint.limits
        assert lower - tolerance <= joint.angle <= upper + tolerance, (joint.body_b.user_data, joint.angle)


def _bridge_sag(hertz=None, iterations=1):
    """Mean sag of the middle joint over the last 2 s of 10 s, and the catenary's."""
    world = World()
    world.joint_iterations = iterations
    if hertz:
        world.joint_hertz = hertz
    rig = scenes.bridge(world)  # 40 planks of 0.5 m between supports 18 m apart
    sags = []
    _run(world, 600, lambda k: sags.append(10.0 - rig.joints[20].anchor_b[1]) if k >= 480 else None)
    return float(np.mean(sags)), scenes.catenary_sag(20.0, 18.0)


def test_bridge_sags_within_2_percent_of_its_catenary_at_the_defaults():
    """At the defaults (joint_hertz 120, one pass, solved as 108 Hz at 6 substeps) +1.3 %
    (measured); Box2D's 60 Hz gave +3.7 % here (Box2D v3 itself: +1.4 % over a 16 m span)."""
    sag, catenary = _bridge_sag()
    assert abs(sag / catenary - 1.0) < 0.02
    assert sag > catenary * 0.999  # it sags below its catenary, never above


def test_bridge_stiffens_with_joint_hertz():
    # 60 Hz: +3.7 %, 120 (solved as 108): +1.3 %, 240 Hz with 4 passes: +0.33 % (measured)
    soft, catenary = _bridge_sag(hertz=60.0)
    stiff, _ = _bridge_sag(hertz=240.0, iterations=4)  # 1 pass does not converge at 240 Hz
    assert abs(stiff / catenary - 1.0) < 0.005 < abs(soft / catenary - 1.0)


@pytest.mark.parametrize("substeps, hertz, iterations",
                         [(4, 120.0, 1), (2, 120.0, 1), (7, 1000.0, 1), (7, 1000.0, 2),
                          (4, 1000.0, 4), (4, 1000.0, 8)])
def test_a_joint_grid_holds_however_stiff_its_joints_are_asked_to_be(substeps, hertz, iterations):
    """``joint_hertz`` is clamped to the stiffest the passes hold (``constants.py``):
    unclamped, Box2D's 4 substeps at the default 120 Hz (half the substep rate) flung a
    joint grid apart at about 290 m/s. Held, its balls swing at 1-3 m/s on average."""
    world = World(substeps=substeps, sleeping=False)
    world.joint_hertz = hertz
    world.joint_iterations = iterations
    scenes.joint_grid(world, n=20)
    worst = 0.0
    for _ in range(180):
        world.step(DT)
        worst = max(worst, float(np.hypot(*world.velocities.T).mean()))
    assert worst < 5.0


def test_car_drives_right_on_bumpy_terrain():
    world = World()
    scenes.bumpy_terrain(world)
    chassis, rear, front = scenes.car(world, (0.0, 0.0)).bodies
    _run(world, 240)
    assert _finite(world)
    assert chassis.position[0] > 12.0  # about 5 m/s once going
    assert abs(chassis.angle) < 0.6 and chassis.position[1] > 0.5  # on its wheels
    assert abs(rear.position[0] - chassis.position[0] + 1.0) < 0.1  # the axles hold


def _pendulum_energy(bodies, g=10.0):
    e = 0.0
    for b in bodies:
        (vx, vy), w = b.velocity, b.angular_velocity
        e += b.mass * (g * b.world_center_of_mass[1] + 0.5 * (vx * vx + vy * vy)) + 0.5 * b.inertia * w * w
    return e


def test_double_pendulum_keeps_its_energy_for_10_seconds():
    world = World()
    _, upper, lower = scenes.double_pendulum(world).bodies
    e0 = _pendulum_energy((upper, lower))
    # what it can turn into motion: from horizontal to hanging straight down
    available = 10.0 * (upper.mass * 0.5 + lower.mass * 1.5)
    drift = []
    _run(world, 600, lambda k: drift.append(abs(_pendulum_energy((upper, lower)) - e0)))
    assert max(drift) < 0.05 * available  # measured: 4.3 %
