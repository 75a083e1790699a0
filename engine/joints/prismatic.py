"""Prismatic joint: B slides along an axis fixed in A and does not turn relative to A,
optionally with a spring, a motor and translation limits (Box2D v3
``prismatic_joint.c``; pymunk's ``GrooveJoint`` + ``GearJoint``).

Order within a substep: spring, motor, limits, then the 2x2 block that holds B on the
axis and at A's angle. The translation is measured from the anchors' offset at
creation (zero there).
"""
from .._jit import njit, njit_inline
from .common import (apply_axial, axial_speed, axis_frame, inverse, motor_impulse,
                     joint_bodies, solve_axial_limits, solve_axial_spring)
from ..body_state import S_VX, S_VY, S_W
from .layout import (J_DCX, J_FAX, J_FBX, J_HZ, J_LIMIT, J_MMAX, J_PLOWER, J_PMOTOR,
                     J_PSPRING, J_PUPPER, J_PX, J_PY, J_REF, J_WUX)


@njit
def warm_start_prismatic(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the prismatic joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        axial = J[k, J_PSPRING] + J[k, J_PMOTOR] + J[k, J_PLOWER] - J[k, J_PUPPER]
        warm_start_slider(J, k, S, a, b, ma, ia, mb, ib, axial, J[k, J_PY])


@njit_inline
def warm_start_slider(J, k, S, a, b, ma, ia, mb, ib, axial, turn):
    """Apply the accumulated impulses of a joint sliding along an axis fixed in A
    (prismatic, wheel): ``axial`` along the axis, ``J_PX`` across it, angular ``turn``."""
    _, _, _, _, ux, uy, _, _, a1, a2, s1, s2 = axis_frame(J, k, S, a, b, J_FAX, J_FBX, J_DCX,
                                                          J_WUX)
    apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, axial)
    apply_block(S, a, b, ma, ia, mb, ib, ux, uy, s1, s2, J[k, J_PX], turn)


@njit_inline
def slider_frame(J, k, S, a, b, ma, ia, mb, ib):
    """:func:`~engine.joints.common.axis_frame` of a joint sliding along an axis fixed in A
    (prismatic, wheel) with anchor B's translation ``x`` along the axis and the axial
    effective mass: ``(ux, uy, dx, dy, a1, a2, s1, s2, x, axial_mass)``."""
    _, _, _, _, ux, uy, dx, dy, a1, a2, s1, s2 = axis_frame(J, k, S, a, b, J_FAX, J_FBX, J_DCX,
                                                            J_WUX)
    x = dx * ux + dy * uy
    axial_mass = inverse(ma + mb + ia * a1 * a1 + ib * a2 * a2)
    return ux, uy, dx, dy, a1, a2, s1, s2, x, axial_mass


@njit_inline
def apply_block(S, a, b, ma, ia, mb, ib, ux, uy, s1, s2, across, turn):
    """Impulse ``across`` the axis (arms ``s1``, ``s2``) and angular impulse ``turn``."""
    px = -uy * across
    py = ux * across
    S[a, S_VX] -= ma * px
    S[a, S_VY] -= ma * py
    S[a, S_W] -= ia * (across * s1 + turn)
    S[b, S_VX] += mb * px
    S[b, S_VY] += mb * py
    S[b, S_W] += ib * (across * s2 + turn)


@njit
def solve_prismatic(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the prismatic joints ``idx`` (see ``revolute.solve_revolute``)."""
    bias_rate, mass_scale, impulse_scale = soft
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        ux, uy, dx, dy, a1, a2, s1, s2, x, axial_mass = slider_frame(J, k, S, a, b, ma, ia, mb, ib)
        if J[k, J_HZ] > 0.0:
            solve_axial_spring(J, k, S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, axial_mass, x)
        if J[k, J_MMAX] > 0.0:
            imp = motor_impulse(J, k, axial_mass, axial_speed(S, a, b, ux, uy, a1, a2), inv_h)
            apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, imp)
        if J[k, J_LIMIT] != 0.0:
            solve_axial_limits(J, k, S, a, b, ma, ia, mb, ib, ux, uy, a1, a2, axial_mass, x,
                               use_bias, soft, inv_h)
        # B on the axis (across it) and at A's angle: a 2x2 block.
        vx = (S[b, S_VX] - S[a, S_VX]) * -uy + (S[b, S_VY] - S[a, S_VY]) * ux
        c1 = vx + s2 * S[b, S_W] - s1 * S[a, S_W]
        c2 = S[b, S_W] - S[a, S_W]
        ms, isc = 1.0, 0.0
        if use_bias:
            c1 += bias_rate * (-dx * uy + dy * ux)
            c2 += bias_rate * (angle[b] - angle[a] - J[k, J_REF])
            ms, isc = mass_scale, impulse_scale
        k11 = ma + mb + ia * s1 * s1 + ib * s2 * s2
        k12 = ia * s1 + ib * s2
        k22 = ia + ib
        if k22 == 0.0:
            k22 = 1.0
        det = inverse(abs(k11 * k22 - k12 * k12))
        across = -ms * det * (k22 * c1 - k12 * c2) - isc * J[k, J_PX]
        turn = -ms * det * (k11 * c2 - k12 * c1) - isc * J[k, J_PY]
        J[k, J_PX] += across
        J[k, J_PY] += turn
        apply_block(S, a, b, ma, ia, mb, ib, ux, uy, s1, s2, across, turn)
