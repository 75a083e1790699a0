"""Wheel joint: B slides along an axis fixed in A on a spring (the suspension) and turns
freely, optionally driven by a motor and held within translation limits (Box2D v3
``wheel_joint.c``; pymunk: ``GrooveJoint`` + ``DampedSpring`` + ``SimpleMotor``).

Order within a substep: motor (angular), spring, limits, then the 1-D constraint that
keeps B on the axis.
"""
from .._jit import njit
from ..body_state import S_VX, S_VY, S_W
from .common import (inverse, joint_bodies, motor_impulse, solve_axial_limits,
                     solve_axial_spring)
from .layout import (J_HZ, J_LIMIT, J_MMAX, J_PLOWER, J_PMOTOR, J_PSPRING, J_PUPPER,
                     J_PX)
from .prismatic import apply_block, slider_frame, warm_start_slider


@njit
def warm_start_wheel(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the wheel joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        axial = J[k, J_PSPRING] + J[k, J_PLOWER] - J[k, J_PUPPER]
        warm_start_slider(J, k, S, a, b, ma, ia, mb, ib, axial, J[k, J_PMOTOR])


@njit
def solve_wheel(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the wheel joints ``idx`` (see ``revolute.solve_revolute``)."""
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        if J[k, J_MMAX] > 0.0:
            imp = motor_impulse(J, k, inverse(ia + ib), S[b, S_W] - S[a, S_W], inv_h)
            S[a, S_W] -= ia * imp
            S[b, S_W] += ib * imp
        ux, uy, dx, dy, a1, a2, s1, s2, x, axial_mass = slider_frame(J, k, S, a, b, ma, ia, mb, ib)
        if J[k, J_HZ] > 0.0:
            solve_axial_spring(J, k, S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, axial_mass, x)
        if J[k, J_LIMIT] != 0.0:
            solve_axial_limits(J, k, S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, axial_mass, x,
                               use_bias, soft, inv_h)
        # B on the axis: the 1-D constraint across it.
        cdot = ((S[b, S_VX] - S[a, S_VX]) * -uy + (S[b, S_VY] - S[a, S_VY]) * ux
                + s2 * S[b, S_W] - s1 * S[a, S_W])
        ms, isc, bias = 1.0, 0.0, 0.0
        if use_bias:
            bias_rate, ms, isc = soft
            bias = bias_rate * (-dx * uy + dy * ux)
        across = (-inverse(ma + mb + ia * s1 * s1 + ib * s2 * s2) * ms * (cdot + bias)
                  - isc * J[k, J_PX])
        J[k, J_PX] += across
        apply_block(S, a, b, ma, ia, mb, ib, ux, uy, s1, s2, across, 0.0)
