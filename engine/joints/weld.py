"""Weld joint: glues B to A: same anchor point and same relative angle, rigid by
default or springy with ``linear_hertz`` / ``angular_hertz`` (Box2D v3
``weld_joint.c``; pymunk: ``PivotJoint`` + ``GearJoint``). The angular part is solved
before the linear one.

A rigid weld (0 hertz) is soft only in the biased pass, at the world's joint softness;
a springy one keeps its spring in both passes.
"""
from .._jit import njit
from ..body_state import S_W
from .common import apply_impulse, inverse, joint_bodies, rotated, separation, solve_point
from .layout import (J_DCX, J_DCY, J_FAX, J_FAY, J_FBX, J_FBY, J_HZ, J_HZ2, J_PA, J_PX, J_PY,
                     J_REF, J_S1B, J_S1I, J_S1M, J_S2B, J_S2I, J_S2M)


@njit
def warm_start_weld(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the weld joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        a = ja[k]
        b = jb[k]
        rax, ray = rotated(S, a, J[k, J_FAX], J[k, J_FAY])
        rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
        apply_impulse(S, a, b, inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b],
                      rax, ray, rbx, rby, J[k, J_PX], J[k, J_PY], J[k, J_PA])


@njit
def solve_weld(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the weld joints ``idx`` (see ``revolute.solve_revolute``)."""
    bias_rate, mass_scale, impulse_scale = soft
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        # angular
        br, ms, isc = 0.0, 1.0, 0.0
        if J[k, J_HZ2] > 0.0:
            br, ms, isc = J[k, J_S2B], J[k, J_S2M], J[k, J_S2I]
        elif use_bias:
            br, ms, isc = bias_rate, mass_scale, impulse_scale
        theta = angle[b] - angle[a] - J[k, J_REF]
        cdot = S[b, S_W] - S[a, S_W]
        imp = -inverse(ia + ib) * ms * (cdot + br * theta) - isc * J[k, J_PA]
        J[k, J_PA] += imp
        S[a, S_W] -= ia * imp
        S[b, S_W] += ib * imp
        # linear
        br, ms, isc = 0.0, 1.0, 0.0
        if J[k, J_HZ] > 0.0:
            br, ms, isc = J[k, J_S1B], J[k, J_S1M], J[k, J_S1I]
        elif use_bias:
            br, ms, isc = bias_rate, mass_scale, impulse_scale
        rax, ray = rotated(S, a, J[k, J_FAX], J[k, J_FAY])
        rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
        cx, cy = separation(S, a, b, rax, ray, rbx, rby, J[k, J_DCX], J[k, J_DCY])
        solve_point(J, k, J_PX, S, a, b, ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy, br, ms,
                    isc)
