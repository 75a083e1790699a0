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
def _parts_inputs(J, k, theta):
    """What the angular parts of joint ``k`` read: ``(theta, spring, motor, limit, acc)``
    with ``spring = (hertz, mass scale, bias rate, impulse scale)``, ``motor = (largest
    torque, speed)``, ``limit = (on, lower, upper)`` and the accumulated impulses ``acc
    = (spring, motor, lower, upper)``."""
    return (theta, (J[k, J_HZ], J[k, J_S1M], J[k, J_S1B], J[k, J_S1I]),
            (J[k, J_MMAX], J[k, J_MSPEED]), (J[k, J_LIMIT], J[k, J_LOWER], J[k, J_UPPER]),
            (J[k, J_PSPRING], J[k, J_PMOTOR], J[k, J_PLOWER], J[k, J_PUPPER]))


@njit_inline
def _angular_parts(wa, wb, ia, ib, inputs, use_bias, soft, inv_h):
    """Spring, motor and limits of a revolute joint (``inputs`` from
    :func:`_parts_inputs`): the bodies' angular velocities ``wa``, ``wb`` after them and
    the parts' accumulated impulses. Scalars in and out (see :func:`solve_revolute`)."""
    theta, spring, motor, limit, acc = inputs
    bias_rate, mass_scale, impulse_scale = soft
    p_spring, p_motor, p_lower, p_upper = acc
    axial_mass = 1.0 / (ia + ib) if ia + ib > 0.0 else 0.0
    if spring[0] > 0.0:  # the spring acts in both passes: it is a real spring
        imp = -axial_mass * spring[1] * (wb - wa + spring[2] * theta) - spring[3] * p_spring
        p_spring += imp
        wa -= ia * imp
        wb += ib * imp
    if motor[0] > 0.0:
        p_motor, imp = motor_clamped(p_motor, motor[0], motor[1], axial_mass, wb - wa, inv_h)
        wa -= ia * imp
        wb += ib * imp
    if limit[0] != 0.0:
        bias, ms, isc = limit_terms(theta - limit[1], use_bias, bias_rate, mass_scale,
                                    impulse_scale, inv_h)
        imp = -axial_mass * ms * (wb - wa + bias) - isc * p_lower
        p_lower, imp = clamped(p_lower, imp, 0.0, 1e300)
        wa -= ia * imp
        wb += ib * imp
        bias, ms, isc = limit_terms(limit[2] - theta, use_bias, bias_rate, mass_scale,
                                    impulse_scale, inv_h)
        imp = -axial_mass * ms * (wa - wb + bias) - isc * p_upper
        p_upper, imp = clamped(p_upper, imp, 0.0, 1e300)
        wa += ia * imp
        wb -= ib * imp
    return wa, wb, (p_spring, p_motor, p_lower, p_upper)


@njit_inline
def _point_inputs(J, k, a, b, S, inv_mass, inv_inertia):
    """What the shared point of joint ``k`` reads: ``(mass, vel_a, vel_b, rot, d,
    anchors, acc)``: the bodies' inverse masses and inertias ``(ma, ia, mb, ib)``, their
    velocities ``(vx, vy, w)``, their rotations since the step began ``(ca, sa, cb,
    sb)``, ``d`` = B's displacement since then less A's and the centres' offset then,
    the anchors at the step's start, and the point's accumulated impulse."""
    return ((inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b]),
            (S[a, S_VX], S[a, S_VY], S[a, S_W]), (S[b, S_VX], S[b, S_VY], S[b, S_W]),
            (S[a, S_QC], S[a, S_QS], S[b, S_QC], S[b, S_QS]),
            (S[b, S_DPX] - S[a, S_DPX], S[b, S_DPY] - S[a, S_DPY], J[k, J_DCX], J[k, J_DCY]),
            (J[k, J_FAX], J[k, J_FAY], J[k, J_FBX], J[k, J_FBY]), (J[k, J_PX], J[k, J_PY]))


@njit_inline
def _point(inputs, vel_a, vel_b, use_bias, soft):
    """The shared point on the velocities ``vel_a``, ``vel_b`` (``inputs`` from
    :func:`_point_inputs`; the velocities there may since have been changed by the
    angular parts): ``(vel_a, vel_b, acc)`` after it."""
    mass, _, _, rot, d, anchors, acc = inputs
    ma, ia, mb, ib = mass
    rax, ray = turned(rot[0], rot[1], anchors[0], anchors[1])
    rbx, rby = turned(rot[2], rot[3], anchors[2], anchors[3])
    cx = cy = 0.0
    bias_rate, mass_scale, impulse_scale = 0.0, 1.0, 0.0  # the relax pass: rigid
    if use_bias:
        cx = d[0] + rbx - rax + d[2]  # (common.separation)
        cy = d[1] + rby - ray + d[3]
        bias_rate, mass_scale, impulse_scale = soft
    px, py = point_impulse(ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy, bias_rate, mass_scale,
                           impulse_scale, vel_a, vel_b, acc[0], acc[1])
    vel_a, vel_b = pushed(ma, ia, mb, ib, rax, ray, rbx, rby, px, py, 0.0, vel_a, vel_b)
    return vel_a, vel_b, (acc[0] + px, acc[1] + py)


@njit_inline
def _store(J, k, a, b, S, vel_a, vel_b, acc):
    """Write joint ``k``'s point impulse and its bodies' velocities back."""
    J[k, J_PX], J[k, J_PY] = acc
    S[a, S_VX], S[a, S_VY], S[a, S_W] = vel_a
    S[b, S_VX], S[b, S_VY], S[b, S_W] = vel_b


@njit
def solve_revolute(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias,
                   point=True, parts=True):
    """One pass over the revolute joints ``idx``; ``soft`` is the joints' softness
    ``(bias_rate, mass_scale, impulse_scale)`` for the biased pass (``use_bias``).
    Without ``point`` only the angular parts act (angular and ratchet joints); without
    ``parts`` the joints have no spring, motor or limits (plain pins: the pass reads
    only the row's first 8 columns).

    Each joint reads everything it needs into scalars first, then works on them, then
    writes its results: measured on a ragdoll's joints (2026-12-08) 37 ns a joint and
    pass, against 49-55 when the parts read the row as they went and wrote their
    impulses before the point read its inputs (loads after a store wait, and LLVM reads
    again what a store may have changed). One loop per case: no loop tests the flags."""
    if point and parts:
        for k in idx:
            a = ja[k]
            b = jb[k]
            pin = _point_inputs(J, k, a, b, S, inv_mass, inv_inertia)
            rest = _parts_inputs(J, k, angle[b] - angle[a] - J[k, J_REF])
            _, vel_a, vel_b = pin[:3]
            wa, wb, acc = _angular_parts(vel_a[2], vel_b[2], pin[0][1], pin[0][3], rest,
                                         use_bias, soft, inv_h)
            vel_a, vel_b, pacc = _point(pin, (vel_a[0], vel_a[1], wa), (vel_b[0], vel_b[1], wb),
                                        use_bias, soft)
            J[k, J_PSPRING], J[k, J_PMOTOR], J[k, J_PLOWER], J[k, J_PUPPER] = acc
            _store(J, k, a, b, S, vel_a, vel_b, pacc)
    elif point:
        for k in idx:
            a = ja[k]
            b = jb[k]
            pin = _point_inputs(J, k, a, b, S, inv_mass, inv_inertia)
            vel_a, vel_b, pacc = _point(pin, pin[1], pin[2], use_bias, soft)
            _store(J, k, a, b, S, vel_a, vel_b, pacc)
    elif parts:
        for k in idx:
            a = ja[k]
            b = jb[k]
            rest = _parts_inputs(J, k, angle[b] - angle[a] - J[k, J_REF])
            wa, wb, acc = _angular_parts(S[a, S_W], S[b, S_W], inv_inertia[a], inv_inertia[b],
                                         rest, use_bias, soft, inv_h)
            J[k, J_PSPRING], J[k, J_PMOTOR], J[k, J_PLOWER], J[k, J_PUPPER] = acc
            S[a, S_W] = wa
            S[b, S_W] = wb
