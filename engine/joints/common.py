"""Helpers every joint kind's solver uses: softness, anchors, the point constraint.

Velocities live in the solver's body state ``S`` (``body_state.py``): a row per body
with its velocity, angular velocity, and its displacement ``dp`` and rotation ``q``
since the step began. A joint's anchors were measured from the centres of mass at the
step's start (``J_FAX``, ...); each substep rotates them by ``q`` (Box2D v3
``b2PrepareJointsTask`` and the ``b2Solve*Joint`` functions; Catto, "Solver2D", 2024).

Every constraint is solved as a *soft* constraint (``softness``): in the biased pass it
pushes its position error ``C`` back at ``bias_rate * C`` with its effective mass scaled
by ``mass_scale`` and a leak of ``impulse_scale`` times its accumulated impulse (an
implicit spring-damper of the given frequency and damping ratio); in the relax pass it
is rigid (no bias, full mass, no leak).
"""
import math

from .._jit import njit, njit_inline
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from .layout import (J_LOWER, J_MMAX, J_MSPEED, J_PLOWER, J_PMOTOR, J_PSPRING, J_PUPPER, J_S1B,
                     J_S1I, J_S1M, J_UPPER)


@njit
def softness(hertz, zeta, h):
    """``(bias_rate, mass_scale, impulse_scale)`` of a spring of ``hertz`` and damping
    ratio ``zeta`` integrated implicitly over a substep ``h`` (Box2D ``b2MakeSoft``).
    Zero hertz gives ``(0, 1, 0)``: a rigid constraint with no position correction."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    if a1 == 0.0:  # undamped, and so weak that h * omega underflows: no force at all
        return 0.0, 0.0, 1.0
    a2 = h * omega * a1
    if a2 == math.inf:  # so stiff that a2 overflows: the rigid limit, closing at 1 / h
        return omega / a1 if omega < math.inf else 1.0 / h, 1.0, 0.0
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@njit_inline
def joint_bodies(k, ja, jb, inv_mass, inv_inertia):
    """Joint ``k``'s bodies and their inverse masses and inertias: ``(a, b, ma, ia, mb,
    ib)``."""
    a = ja[k]
    b = jb[k]
    return a, b, inv_mass[a], inv_inertia[a], inv_mass[b], inv_inertia[b]


@njit_inline
def rotated(S, i, x, y):
    """``(x, y)`` (an anchor at the step's start) turned by body ``i``'s rotation since."""
    return turned(S[i, S_QC], S[i, S_QS], x, y)


@njit_inline
def turned(c, s, x, y):
    """``(x, y)`` turned by the rotation ``(c, s)`` (cosine, sine)."""
    return c * x - s * y, s * x + c * y


@njit_inline
def separation(S, a, b, rax, ray, rbx, rby, dcx, dcy):
    """Anchor B minus anchor A in world coordinates, now: the bodies' displacements
    since the step began, plus the centres' offset ``(dcx, dcy)`` at its start."""
    return (S[b, S_DPX] - S[a, S_DPX] + rbx - rax + dcx,
            S[b, S_DPY] - S[a, S_DPY] + rby - ray + dcy)


@njit_inline
def relative_velocity(S, a, b, rax, ray, rbx, rby):
    """Velocity of anchor B minus that of anchor A."""
    return (S[b, S_VX] - S[b, S_W] * rby - S[a, S_VX] + S[a, S_W] * ray,
            S[b, S_VY] + S[b, S_W] * rbx - S[a, S_VY] - S[a, S_W] * rax)


@njit_inline
def apply_impulse(S, a, b, ma, ia, mb, ib, rax, ray, rbx, rby, px, py, torque):
    """Impulse ``(px, py)`` at the anchors (on B; minus on A) and an angular impulse
    ``torque`` (on B; minus on A)."""
    S[a, S_VX] -= ma * px
    S[a, S_VY] -= ma * py
    S[a, S_W] -= ia * (rax * py - ray * px + torque)
    S[b, S_VX] += mb * px
    S[b, S_VY] += mb * py
    S[b, S_W] += ib * (rbx * py - rby * px + torque)


@njit_inline
def apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, impulse):
    """Impulse ``impulse`` along the unit axis ``u`` whose lever arms are ``arm_a`` (at
    A, ``cross(d + rA, u)``) and ``arm_b`` (at B, ``cross(rB, u)``). Also a contact's
    normal impulse (``dynamics/restitution.py``: ``u`` the normal, the arms ``rA x n``
    and ``rB x n``)."""
    S[a, S_VX] -= ma * ux * impulse
    S[a, S_VY] -= ma * uy * impulse
    S[a, S_W] -= ia * arm_a * impulse
    S[b, S_VX] += mb * ux * impulse
    S[b, S_VY] += mb * uy * impulse
    S[b, S_W] += ib * arm_b * impulse


@njit_inline
def limit_terms(c, use_bias, bias_rate, mass_scale, impulse_scale, inv_h):
    """``(bias, mass_scale, impulse_scale)`` of a one-sided limit whose gap is ``c``
    (``c < 0``: violated). A gap is speculative: the limit lets the bodies close it
    within the substep and engages exactly on arrival; a violation is pushed out
    softly in the biased pass; the relax pass is rigid."""
    if c > 0.0:  # (an open side, e.g. a rope's missing max length, may be inf)
        return min(c, 1e300) * inv_h, 1.0, 0.0
    if use_bias:
        return bias_rate * c, mass_scale, impulse_scale
    return 0.0, 1.0, 0.0


@njit_inline
def point_impulse(ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy, bias_rate, mass_scale,
                  impulse_scale, vel_a, vel_b, acc_x, acc_y):
    """The impulse ``(px, py)`` of the point constraint ``anchor B = anchor A`` (a 2x2
    block) this pass, its error ``(cx, cy)``, the bodies' velocities ``vel_a``, ``vel_b``
    ``(vx, vy, w)`` and its accumulated impulse ``(acc_x, acc_y)``. Scalars in and out:
    the revolute joints' pass calls it without handing arrays to a helper (each array a
    helper takes costs two calls of Numba's reference counting, ``_jit.borrowed``)."""
    vax, vay, wa = vel_a
    vbx, vby, wb = vel_b
    vx = vbx - wb * rby - vax + wa * ray  # (relative_velocity)
    vy = vby + wb * rbx - vay - wa * rax
    k11 = ma + mb + ia * ray * ray + ib * rby * rby
    k12 = -ia * rax * ray - ib * rbx * rby
    k22 = ma + mb + ia * rax * rax + ib * rbx * rbx
    det = k11 * k22 - k12 * k12
    if det != 0.0:
        det = 1.0 / det
    rx = vx + bias_rate * cx
    ry = vy + bias_rate * cy
    px = -mass_scale * det * (k22 * rx - k12 * ry) - impulse_scale * acc_x
    py = -mass_scale * det * (k11 * ry - k12 * rx) - impulse_scale * acc_y
    return px, py


@njit_inline
def pushed(ma, ia, mb, ib, rax, ray, rbx, rby, px, py, torque, vel_a, vel_b):
    """The velocities ``(vel_a, vel_b)`` after an impulse ``(px, py)`` at the anchors (on
    B; minus on A) and an angular impulse ``torque`` (:func:`apply_impulse` on scalars)."""
    vax, vay, wa = vel_a
    vbx, vby, wb = vel_b
    return ((vax - ma * px, vay - ma * py, wa - ia * (rax * py - ray * px + torque)),
            (vbx + mb * px, vby + mb * py, wb + ib * (rbx * py - rby * px + torque)))


@njit_inline
def velocity(S, i):
    """Body ``i``'s ``(vx, vy, w)`` in the solver state."""
    return S[i, S_VX], S[i, S_VY], S[i, S_W]


@njit_inline
def solve_point(J, k, px_col, S, a, b, ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy,
                bias_rate, mass_scale, impulse_scale):
    """The point constraint ``anchor B = anchor A`` (:func:`point_impulse`), error
    ``(cx, cy)``. ``J[k, px_col]`` and ``J[k, px_col + 1]`` accumulate its impulse.
    Returns nothing; the bodies' velocities in ``S`` are updated."""
    px, py = point_impulse(ma, ia, mb, ib, rax, ray, rbx, rby, cx, cy, bias_rate, mass_scale,
                           impulse_scale, velocity(S, a), velocity(S, b), J[k, px_col],
                           J[k, px_col + 1])
    J[k, px_col] += px
    J[k, px_col + 1] += py
    apply_impulse(S, a, b, ma, ia, mb, ib, rax, ray, rbx, rby, px, py, 0.0)


@njit_inline
def axis_frame(J, k, S, a, b, fa, fb, dc, axis):
    """Anchors, axis and lever arms of a joint along an axis fixed in A (prismatic,
    wheel): ``(rax, ray, rbx, rby, ux, uy, dx, dy, a1, a2, s1, s2)`` where ``d`` is
    anchor B minus anchor A, ``a1 = cross(d + rA, u)``, ``a2 = cross(rB, u)`` are the
    arms along the axis and ``s1 = dot(d + rA, u)``, ``s2 = dot(rB, u)`` across it
    (``fa``, ``fb``, ``dc``, ``axis``: the columns of the prepared anchors, centre
    offset and world axis)."""
    rax, ray = rotated(S, a, J[k, fa], J[k, fa + 1])
    rbx, rby = rotated(S, b, J[k, fb], J[k, fb + 1])
    ux, uy = rotated(S, a, J[k, axis], J[k, axis + 1])
    dx, dy = separation(S, a, b, rax, ray, rbx, rby, J[k, dc], J[k, dc + 1])
    a1 = (dx + rax) * uy - (dy + ray) * ux
    a2 = rbx * uy - rby * ux
    s1 = (dx + rax) * ux + (dy + ray) * uy
    s2 = rbx * ux + rby * uy
    return rax, ray, rbx, rby, ux, uy, dx, dy, a1, a2, s1, s2


@njit_inline
def axial_speed(S, a, b, ux, uy, arm_a, arm_b):
    """Speed of B relative to A along the axis ``u`` with lever arms ``arm_a``, ``arm_b``."""
    return ((S[b, S_VX] - S[a, S_VX]) * ux + (S[b, S_VY] - S[a, S_VY]) * uy
            + arm_b * S[b, S_W] - arm_a * S[a, S_W])


@njit_inline
def clamp_accumulated(J, k, col, impulse, low, high):
    """Add ``impulse`` to ``J[k, col]`` clamped to ``[low, high]``; returns the impulse
    actually added."""
    J[k, col], added = clamped(J[k, col], impulse, low, high)
    return added


@njit_inline
def clamped(old, impulse, low, high):
    """``(new, added)``: the accumulated impulse ``old + impulse`` clamped to ``[low,
    high]``, and the impulse that adds (:func:`clamp_accumulated` on scalars)."""
    new = min(max(old + impulse, low), high)
    return new, new - old


@njit_inline
def motor_impulse(J, k, mass, cdot, inv_h):
    """A motor's impulse this pass towards its speed (``mass``: the effective mass along
    its axis, ``cdot``: the speed now), accumulated in ``J[k, J_PMOTOR]``
    (:func:`motor_clamped`)."""
    J[k, J_PMOTOR], added = motor_clamped(J[k, J_PMOTOR], J[k, J_MMAX], J[k, J_MSPEED], mass,
                                          cdot, inv_h)
    return added


@njit_inline
def motor_clamped(acc, most_force, speed, mass, cdot, inv_h):
    """``(new, added)`` for a motor whose accumulated impulse is ``acc``: the impulse
    towards ``speed``, the accumulated one clamped to the largest force or torque
    ``most_force`` times the substep ``1 / inv_h``, either way."""
    most = most_force / inv_h
    return clamped(acc, mass * (speed - cdot), -most, most)


@njit_inline
def clamp_accumulated_point(J, k, col, px, py, most):
    """Store the accumulated impulse ``(px, py)`` of a point in ``J[k, col]`` and
    ``J[k, col + 1]``, its length clamped to ``most``; returns the impulse actually added
    ``(dpx, dpy)``."""
    size = math.sqrt(px * px + py * py)
    if size > most:
        px *= most / size
        py *= most / size
    dpx = px - J[k, col]
    dpy = py - J[k, col + 1]
    J[k, col] = px
    J[k, col + 1] = py
    return dpx, dpy


@njit_inline
def solve_axial_spring(J, k, S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, axial_mass, c):
    """The joint's own spring along ``u`` (softness ``J_S1*``), stretched by ``c``;
    solved in both passes: it is a real spring, not an error correction."""
    cdot = axial_speed(S, a, b, ux, uy, arm_a, arm_b)
    imp = (-axial_mass * J[k, J_S1M] * (cdot + J[k, J_S1B] * c)
           - J[k, J_S1I] * J[k, J_PSPRING])
    J[k, J_PSPRING] += imp
    apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, imp)


@njit_inline
def solve_axial_limits(J, k, S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, axial_mass, x,
                       use_bias, soft, inv_h):
    """The lower and upper limits ``J_LOWER <= x <= J_UPPER`` of a position ``x`` along
    ``u`` (one-sided, see :func:`limit_terms`)."""
    bias_rate, mass_scale, impulse_scale = soft
    bias, ms, isc = limit_terms(x - J[k, J_LOWER], use_bias, bias_rate, mass_scale,
                                impulse_scale, inv_h)
    cdot = axial_speed(S, a, b, ux, uy, arm_a, arm_b)
    imp = -axial_mass * ms * (cdot + bias) - isc * J[k, J_PLOWER]
    imp = clamp_accumulated(J, k, J_PLOWER, imp, 0.0, 1e300)
    apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, imp)
    bias, ms, isc = limit_terms(J[k, J_UPPER] - x, use_bias, bias_rate, mass_scale,
                                impulse_scale, inv_h)
    cdot = -axial_speed(S, a, b, ux, uy, arm_a, arm_b)
    imp = -axial_mass * ms * (cdot + bias) - isc * J[k, J_PUPPER]
    imp = clamp_accumulated(J, k, J_PUPPER, imp, 0.0, 1e300)
    apply_axial(S, a, b, ma, ia, mb, ib, ux, uy, arm_a, arm_b, -imp)


@njit_inline
def inverse(x):
    """``1 / x``, or 0 for 0 (a constraint no body can respond to)."""
    return 1.0 / x if x > 0.0 else 0.0
