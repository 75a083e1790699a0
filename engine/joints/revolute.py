"""Revolute joint: two bodies share a point and turn freely about it, optionally with a
rotational spring, a motor and angle limits (Box2D v3 ``revolute_joint.c``; pymunk's
``PivotJoint`` + ``DampedRotarySpring`` + ``SimpleMotor`` + ``RotaryLimitJoint``). The
angular and ratchet joints are its angular parts alone (``point=False``).

Within a substep the parts are solved in the order spring, motor, limits, point, so
the point constraint, solved last, is the one best satisfied. The angle is
``angle_b - angle_a`` minus its value at creation, unwrapped: limits may span more than
one turn.
"""
from .._jit import njit, njit_inline
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from .common import clamped, limit_terms, motor_clamped, point_impulse, pushed, turned
from .layout import (J_DCX, J_DCY, J_FAX, J_FAY, J_FBX, J_FBY, J_HZ, J_LIMIT, J_LOWER, J_MMAX,
                     J_MSPEED, J_PLOWER, J_PMOTOR, J_PSPRING, J_PUPPER, J_PX, J_PY, J_REF,
                     J_S1B, J_S1I, J_S1M, J_UPPER)


@njit
def warm_start_revolute(J, idx, ja, jb, S, inv_mass, inv_inertia, parts=True):
    """Apply the revolute joints' accumulated impulses (``idx``: their rows); without
    ``parts`` the joints have no spring, motor or limits. (Read into scalars and written
    back, as in :func:`solve_revolute`.)"""
    for k in idx:
        a = ja[k]
        b = jb[k]
        rax, ray = turned(S[a, S_QC], S[a, S_QS], J[k, J_FAX], J[k, J_FAY])
        rbx, rby = turned(S[b, S_QC], S[b, S_QS], J[k, J_FBX], J[k, J_FBY])
        axial = 0.0
        if parts:
            axial = J[k, J_PSPRING] + J[k, J_PMOTOR] + J[k, J_PLOWER] - J[k, J_PUPPER]
        vel_a, vel_b = pushed(inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b],
                              rax, ray, rbx, rby, J[k, J_PX], J[k, J_PY], axial,
                              (S[a, S_VX], S[a, S_VY], S[a, S_W]),
                              (S[b, S_VX], S[b, S_VY], S[b, S_W]))
        S[a, S_VX], S[a, S_VY], S[a, S_W] = vel_a
        S[b, S_VX], S[b, S_VY], S[b, S_W] = vel_b


@njit_inline
def _angular_parts(J, k, wa, wb, ia, ib, theta, use_bias, soft, inv_h):
    """Spring, motor and limits of revolute joint ``k`` on its angle ``theta``: the two
    bodies' angular velocities ``wa``, ``wb`` after them (the impulses accumulate in
    ``J``; no helper here takes an array, see :func:`solve_revolute`)."""
    bias_rate, mass_scale, impulse_scale = soft
    axial_mass = 1.0 / (ia + ib) if ia + ib > 0.0 else 0.0
    if J[k, J_HZ] > 0.0:  # the spring acts in both passes: it is a real spring
        cdot = wb - wa
        imp = (-axial_mass * J[k, J_S1M] * (cdot + J[k, J_S1B] * theta)
               - J[k, J_S1I] * J[k, J_PSPRING])
        J[k, J_PSPRING] += imp
        wa -= ia * imp
        wb += ib * imp
    if J[k, J_MMAX] > 0.0:
        J[k, J_PMOTOR], imp = motor_clamped(J[k, J_PMOTOR], J[k, J_MMAX], J[k, J_MSPEED],
                                            axial_mass, wb - wa, inv_h)
        wa -= ia * imp
        wb += ib * imp
    if J[k, J_LIMIT] != 0.0:
        bias, ms, isc = limit_terms(theta - J[k, J_LOWER], use_bias, bias_rate, mass_scale,
                                    impulse_scale, inv_h)
        cdot = wb - wa
        imp = -axial_mass * ms * (cdot + bias) - isc * J[k, J_PLOWER]
        J[k, J_PLOWER], imp = clamped(J[k, J_PLOWER], imp, 0.0, 1e300)
        wa -= ia * imp
        wb += ib * imp
        bias, ms, isc = limit_terms(J[k, J_UPPER] - theta, use_bias, bias_rate, mass_scale,
                                    impulse_scale, inv_h)
        cdot = wa - wb
        imp = -axial_mass * ms * (cdot + bias) - isc * J[k, J_PUPPER]
        J[k, J_PUPPER], imp = clamped(J[k, J_PUPPER], imp, 0.0, 1e300)
        wa += ia * imp
        wb -= ib * imp
    return wa, wb


@njit
def solve_revolute(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias,
                   point=True, parts=True):
    """One pass over the revolute joints ``idx``; ``soft`` is the joints' softness
    ``(bias_rate, mass_scale, impulse_scale)`` for the biased pass (``use_bias``).
    Without ``point`` only the angular parts act (angular and ratchet joints); without
    ``parts`` the joints have no spring, motor or limits (plain pins: the pass reads
    only the row's first 8 columns)."""
    for k in idx:
        a = ja[k]
        b = jb[k]
        ma, ia, mb, ib = inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b]
        if parts:
            S[a, S_W], S[b, S_W] = _angular_parts(J, k, S[a, S_W], S[b, S_W], ia, ib,
                                                  angle[b] - angle[a] - J[k, J_REF], use_bias,
                                                  soft, inv_h)
        if not point:
            continue
        # The point part reads the bodies into scalars and writes them back once: no
        # helper takes an array (see common.point_impulse).
        rax, ray = turned(S[a, S_QC], S[a, S_QS], J[k, J_FAX], J[k, J_FAY])
        rbx, rby = turned(S[b, S_QC], S[b, S_QS], J[k, J_FBX], J[k, J_FBY])
        cx = cy = 0.0
        bias_rate, mass_scale, impulse_scale = 0.0, 1.0, 0.0  # the relax pass: rigid
        if use_bias:
            cx = S[b, S_DPX] - S[a, S_DPX] + rbx - rax + J[k, J_DCX]  # (common.separation)
            cy = S[b, S_DPY] - S[a, S_DPY] + rby - ray + J[k, J_DCY]
            bias_rate, mass_scale, impulse_scale = soft
        vel_a = (S[a, S_VX], S[a, S_VY], S[a, S_W])
        vel_b = (S[b, S_VX], S[b, S_VY], S[b, S_W])
        px, py = point_impulse(ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy, bias_rate,
                               mass_scale, impulse_scale, vel_a, vel_b, J[k, J_PX], J[k, J_PY])
        J[k, J_PX] += px
        J[k, J_PY] += py
        vel_a, vel_b = pushed(ma, ia, mb, ib, rax, ray, rbx, rby, px, py, 0.0, vel_a, vel_b)
        S[a, S_VX], S[a, S_VY], S[a, S_W] = vel_a
        S[b, S_VX], S[b, S_VY], S[b, S_W] = vel_b
