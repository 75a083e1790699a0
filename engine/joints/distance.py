"""Distance joint: keeps two anchor points at a distance: a rigid rod by default, a
spring (``J_HZ > 0``) toward its rest length, and/or limits on the length (a rope is an
upper limit alone) (Box2D v3 ``distance_joint.c``; pymunk's ``PinJoint``,
``SlideJoint``, ``DampedSpring``).
"""
import math

from .._jit import njit, njit_inline
from .common import (apply_axial, axial_speed, inverse, joint_bodies, rotated, separation,
                     solve_axial_limits, solve_axial_spring)
from .layout import (J_DCX, J_DCY, J_FAX, J_FAY, J_FBX, J_FBY, J_HZ, J_LENGTH, J_LIMIT,
                     J_PLOWER, J_PSPRING, J_PUPPER, J_PX, J_RIGID)


@njit_inline
def _frame(J, k, S, a, b):
    """``(ux, uy, length, arm_a, arm_b)``: the unit direction from anchor A to anchor B,
    their distance and the lever arms ``cross(r, u)``."""
    rax, ray = rotated(S, a, J[k, J_FAX], J[k, J_FAY])
    rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
    dx, dy = separation(S, a, b, rax, ray, rbx, rby, J[k, J_DCX], J[k, J_DCY])
    length = math.sqrt(dx * dx + dy * dy)
    if length > 1e-12:
        ux = dx / length
        uy = dy / length
    else:  # coincident anchors: any direction is as good (and no force is needed)
        ux = 1.0
        uy = 0.0
    return ux, uy, length, rax * uy - ray * ux, rbx * uy - rby * ux


@njit
def warm_start_distance(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the distance joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        a = ja[k]
        b = jb[k]
        ux, uy, _, arm_a, arm_b = _frame(J, k, S, a, b)
        axial = J[k, J_PX] + J[k, J_PSPRING] + J[k, J_PLOWER] - J[k, J_PUPPER]
        apply_axial(S, a, b, inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b], ux, uy,
                    arm_a, arm_b, axial)


@njit
def solve_distance(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the distance joints ``idx`` (see ``revolute.solve_revolute``)."""
    bias_rate, mass_scale, impulse_scale = soft
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        ux, uy, length, arm_a, arm_b = _frame(J, k, S, a, b)
        axial_mass = inverse(ma + mb + ia * arm_a * arm_a + ib * arm_b * arm_b)
        if J[k, J_RIGID] != 0.0:
            cdot = axial_speed(S, a, b, ux, uy, arm_a, arm_b)
            bias, ms, isc = 0.0, 1.0, 0.0
            if use_bias:
                bias = bias_rate * (length - J[k, J_LENGTH])
                ms, isc = mass_scale, impulse_scale
            imp = -axial_mass * ms * (cdot + bias) - isc * J[k, J_PX]
            J[k, J_PX] += imp
            apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, imp)
            continue
        if J[k, J_HZ] > 0.0:
            solve_axial_spring(J, k, S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, axial_mass,
                               length - J[k, J_LENGTH])
        if J[k, J_LIMIT] != 0.0:
            solve_axial_limits(J, k, S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, axial_mass,
                               length, use_bias, soft, inv_h)
