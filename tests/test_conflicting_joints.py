"""Joints that cannot all hold: a dynamic body held to a static body by two joints, then
the static body moved by hand, so the two joints pull the body toward poses that
differ (a random run of ``test_stateful.py`` found NaN this way, 2026-11-25).

The joints fight: the warm start and the biased pass kick the body far faster than any
contact would. Before the fix a body so kicked moved at whatever speed the solver left,
turned hundreds of radians within a substep, and the kicks grew about tenfold per
substep until the state overflowed to NaN (within three steps in
``test_a_turned_static_body_under_a_prismatic_and_a_revolute_joint``). The step now
caps a dynamic body's velocity where it moves (``integrate_positions``), so no body
moves faster than ``MAX_LINEAR_SPEED`` or turns more than ``MAX_ROTATION`` in a
substep, and after the warm start (``cap_velocities``), so that a lasting fight's
accumulated impulses stay bounded (with the first cap alone they grew about 1e5-fold a
step and overflowed after 54 steps in ``test_a_lasting_fight_stays_finite``; Box2D v3
diverges on such scenes).
"""
import math

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import Circle, World
from engine import constants as K

DT = 1 / 60
STEPS = 10
KINDS = ("revolute", "prismatic", "weld")
coord = st.floats(-3.0, 3.0, allow_nan=False)
point = st.tuples(coord, coord)
angle = st.floats(-math.pi, math.pi, allow_nan=False)


def _joint(world, kind, a, b, anchor):
    if kind == "revolute":
        return world.create_revolute_joint(a, b, anchor)
    if kind == "prismatic":
        return world.create_prismatic_joint(a, b, anchor, (1.0, 0.0))
    return world.create_weld_joint(a, b, anchor)


def _held_body(kinds, anchors, static_first, radius, position):
    """A world with a static body at the origin and a circle at ``position`` held to it
    by joints of ``kinds`` at ``anchors`` (the static body first where ``static_first``)."""
    world = World(gravity=(0.0, -10.0), sleeping=False)
    ground = world.create_body("static")
    body = world.create_body(position=position)
    body.add_shape(Circle(radius))
    for kind, anchor, first in zip(kinds, anchors, static_first):
        _joint(world, kind, *((ground, body) if first else (body, ground)), anchor)
    return world, ground, body


def _assert_finite_and_capped(world, body, steps):
    """Step ``world``; after each step the state and the joints' forces are finite and
    ``body`` moved at most ``MAX_LINEAR_SPEED`` and turned at most ``MAX_ROTATION`` per
    substep."""
    reach = K.MAX_LINEAR_SPEED * DT * (1 + 1e-12)
    turn = world.substeps * K.MAX_ROTATION * (1 + 1e-12)
    for step in range(steps):
        before, angle0 = np.array(body.position), body.angle
        world.step(DT)
        for arr in (world.positions, world.angles, world.velocities, world.angular_velocities):
            assert np.isfinite(arr).all(), f"NaN or infinity after step {step}"
        for joint in world.joints:
            assert np.isfinite(joint.reaction_force).all() and math.isfinite(joint.reaction_torque)
        assert np.hypot(*(np.array(body.position) - before)) <= reach, f"too fast at step {step}"
        assert abs(body.angle - angle0) <= turn, f"turned too far at step {step}"


def test_a_turned_static_body_under_a_prismatic_and_a_revolute_joint():
    """The stateful finding, minimized: a circle on a prismatic and a revolute joint at
    one anchor, then the static body turned by one radian. It was NaN at the third
    step (1e22 m/s at the first)."""
    world, ground, body = _held_body(("prismatic", "revolute"), [(0.0, -1.5)] * 2,
                                     (False, True), 0.125, (0.0, -3.0))
    ground.angle = 1.0
    _assert_finite_and_capped(world, body, STEPS)


def test_a_lasting_fight_stays_finite():
    """Two revolute joints whose anchors cannot meet (the static body moved between
    their creations), found by a search over the family below run for 60 steps. With
    the cap where bodies move alone, the joints' forces grew about 1e5-fold a step while
    the body circled at 182 m/s, and were NaN at step 54; they now settle near 1e5 N."""
    world = World(gravity=(0.0, -10.0))
    ground = world.create_body("static", position=(0.98876, -1.60801), angle=0.42052)
    body = world.create_body(position=(-1.15084, 2.51513), angle=-0.99202)
    body.add_shape(Circle(0.19719), density=0.5)
    world.create_revolute_joint(ground, body, (-0.9449, 2.93668))
    ground.position, ground.angle = (-1.68996, -0.25169), 2.96633
    world.create_revolute_joint(ground, body, (1.9271, -2.42561))
    ground.position, ground.angle = (2.56978, 2.00734), -2.24277
    _assert_finite_and_capped(world, body, 80)
    assert max(math.hypot(*j.reaction_force) for j in world.joints) < 1e7


@settings(max_examples=60, deadline=None)
@given(kinds=st.tuples(st.sampled_from(KINDS), st.sampled_from(KINDS)),
       anchors=st.tuples(point, point), static_first=st.tuples(st.booleans(), st.booleans()),
       radius=st.floats(0.05, 0.8), position=point, moved_to=point, turned_to=angle)
@example(kinds=("prismatic", "revolute"), anchors=((0.0, -1.5), (0.0, -1.5)),
         static_first=(False, True), radius=0.125, position=(0.0, -3.0),
         moved_to=(-0.752, 0.0), turned_to=-1.927)
def test_a_body_held_by_two_joints_that_cannot_both_hold(kinds, anchors, static_first, radius,
                                                         position, moved_to, turned_to):
    """Any two of the revolute, prismatic and weld joints on one circle, the static body
    then moved and turned anywhere: finite, and no faster than the caps."""
    world, ground, body = _held_body(kinds, anchors, static_first, radius, position)
    ground.position, ground.angle = moved_to, turned_to
    _assert_finite_and_capped(world, body, STEPS)
