"""Integration of body velocities and positions (symplectic Euler), substep by substep.

Used inside the solver's substep loop (Box2D v3 soft step: velocities, warm start,
biased solve, positions, relax) for the bodies that touch a contact, and once per step
for the *free* bodies that touch none. Bodies are integrated about their centre of mass
``c``; the world converts origins to centres and back.

The per-substep loops run over every body with a mask rather than over an index list:
contiguous loops vectorize (measured: 5 ns per body against 12 through an index list).

A free body needs nothing from the solver between substeps, so :func:`integrate_free`
jumps over all ``N`` substeps of ``h`` at once with the closed form of the same
integrator under constant acceleration ``a`` (gravity and force)::

    v_N = v_0 + N h a,      c_N = c_0 + N h v_0 + h^2 a N (N + 1) / 2

which equals the substep loop up to rounding (a few ulp). Bodies with damping, or
whose speed or turn rate reaches its cap during the step, take the loop instead.
"""
import math

from .._jit import njit, njit_inline
from ..constants import DYNAMIC, STATIC
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W


@njit_inline
def _capped(h, vx, vy, w, max_speed, max_rotation):
    """``(vx, vy, w)`` capped: the speed at ``max_speed`` (any finite speed, even one
    whose square overflows) and the turn rate so one substep of ``h`` turns at most
    ``max_rotation``."""
    speed2 = vx * vx + vy * vy
    if speed2 > max_speed * max_speed:
        if speed2 < math.inf:
            f = max_speed / math.sqrt(speed2)
        else:  # the square overflows above ~1e154 m/s: scale before squaring
            m = max(abs(vx), abs(vy))
            f = (max_speed / m) / math.sqrt((vx / m) * (vx / m) + (vy / m) * (vy / m))
        vx *= f
        vy *= f
    if w * w * h * h > max_rotation * max_rotation:
        w = math.copysign(max_rotation / h, w)
    return vx, vy, w


@njit_inline
def _velocity(h, ax, ay, alpha, lin_damp, ang_damp, vx, vy, w, max_speed, max_rotation):
    """One substep of ``v = h*a + v / (1 + h*c)``, capped (:func:`_capped`); returns
    ``(vx, vy, w)``.

    ``a`` is gravity plus force over mass, ``alpha`` torque over inertia. The damping
    factor ``1 / (1 + h*c)`` is the Pade approximation of ``exp(-h*c)`` for
    ``dv/dt = -c*v`` (Box2D v3): unconditionally stable, never reverses v. Only dynamic
    bodies come here: kinematic bodies are not capped, they move exactly at the
    velocity they are given (which the API bounds by ``MAX_INPUT_SPEED``).
    """
    ld = 1.0 if lin_damp == 0.0 else 1.0 / (1.0 + h * lin_damp)
    ad = 1.0 if ang_damp == 0.0 else 1.0 / (1.0 + h * ang_damp)
    vx = h * ax + ld * vx
    vy = h * ay + ld * vy
    w = h * alpha + ad * w
    return _capped(h, vx, vy, w, max_speed, max_rotation)


@njit
def integrate_velocities(h, gravity, lane, btype, in_contact, block, inv_mass, inv_inertia,
                         force, torque, lin_damp, ang_damp, gravity_scale, state, max_speed,
                         max_rotation):
    """One substep of velocity integration for the dynamic bodies of one solve block:
    ``block`` is ``(tag, lo, hi)``, and its bodies are those of rows ``lo .. hi - 1``
    whose ``in_contact`` is ``tag`` (``solve_blocks.block_spans``; one block: 1, 0, n).
    ``state`` is (n, STATE_SIZE). ``gravity`` (lanes, 2) is each lane's gravity and
    ``lane`` each body's lane (one row and all zeros outside a ``WorldBatch``)."""
    tag, lo, hi = block
    for i in range(lo, hi):
        if btype[i] != DYNAMIC or in_contact[i] != tag:
            continue
        im = inv_mass[i]
        gx = gravity[lane[i], 0]
        gy = gravity[lane[i], 1]
        state[i, S_VX], state[i, S_VY], state[i, S_W] = _velocity(
            h, gravity_scale[i] * gx + im * force[i, 0], gravity_scale[i] * gy + im * force[i, 1],
            inv_inertia[i] * torque[i], lin_damp[i], ang_damp[i], state[i, S_VX], state[i, S_VY],
            state[i, S_W], max_speed, max_rotation)


@njit
def cap_velocities(h, btype, in_contact, state, max_speed, max_rotation):
    """Cap the velocities of the dynamic bodies with ``in_contact`` set (:func:`_capped`);
    the solver calls it after the warm start in a world with joints.

    Joints that cannot all hold (two joints on one body after the static body they hang
    from was moved by hand) fight, and their accumulated impulses cancel only in the pose
    they were summed in: re-applied by the next substep's warm start in a turned pose,
    they kick the body at any speed, the biased pass absorbs that kick into the
    accumulated impulses, and the next warm start kicks harder. Uncapped, the impulses
    grew about tenfold per substep until the state overflowed to NaN, after about 50
    steps even with the bodies' motion capped (:func:`integrate_positions`). Capped
    here, each pass adds a bounded amount to an accumulated impulse (its effective mass
    times speeds bounded by the caps and the bias), and the soft constraints' leak keeps
    the sum bounded (``tests/test_conflicting_joints.py``). Box2D v3 caps only in
    :func:`integrate_velocities`, and diverges on such scenes.
    """
    for i in range(btype.shape[0]):
        if btype[i] == DYNAMIC and in_contact[i]:
            state[i, S_VX], state[i, S_VY], state[i, S_W] = _capped(
                h, state[i, S_VX], state[i, S_VY], state[i, S_W], max_speed, max_rotation)


@njit_inline
def _advanced(h, vx, vy, w, cx, cy, c0x, c0y, a, qc, qs):
    """A body moved by ``h`` at ``(vx, vy, w)`` from centre ``(cx, cy)``, angle ``a`` and
    rotation ``(qc, qs)`` since the step began at centre ``(c0x, c0y)``: returns its new
    ``(cx, cy, dpx, dpy, a, qc, qs)``. Scalars in and out: an inlined helper that takes
    arrays costs two calls of Numba's reference counting per array per body, which
    made this loop twice as slow (``_jit.borrowed``)."""
    cx += h * vx
    cy += h * vy
    if w != 0.0:
        a += h * w
        qc, qs = qc - h * w * qs, qs + h * w * qc
        inv = 1.0 / math.sqrt(qc * qc + qs * qs)
        qc *= inv
        qs *= inv
    return cx, cy, cx - c0x, cy - c0y, a, qc, qs


@njit
def integrate_positions(h, btype, in_contact, block, state, center, angle, center0, max_speed,
                        max_rotation, pseudo, split):
    """One substep of ``c += h*v``, ``angle += h*w`` for the moving bodies of one solve
    block (``block``: see :func:`integrate_velocities`).

    A dynamic body's velocity is capped again here (:func:`_capped`, and stored back):
    :func:`integrate_velocities` capped it before the warm start and the biased pass,
    and the biased pass may speed it up without bound (joints that cannot all hold:
    :func:`cap_velocities`). Capped where it moves, no body moves faster than
    ``max_speed`` or turns more than ``max_rotation`` in a substep, as the contact
    prediction, continuous collision and the rotation ``q`` below assume.

    The state's displacement (S_DPX, S_DPY) and rotation (S_QC, S_QS) since the step
    began let the solver predict contact separations without recomputing manifolds.
    The rotation is advanced as ``normalize(q + h*w*perp(q))`` (Box2D's
    ``b2IntegrateRotation``): one square root instead of a sine and a cosine per body
    and substep; its angle lags the exact ``angle`` by O((h w)^3), which only the
    separation prediction sees.

    ``split`` true: the biased pass pushed deep points out by position alone, through
    the pseudo-velocities ``pseudo`` (n, 3); the dynamic bodies then also move by them
    (under the same caps), and they are cleared. A second loop, so that the usual
    substep pays nothing for it.
    """
    tag, lo, hi = block
    for i in range(lo, hi):
        if btype[i] == STATIC or in_contact[i] != tag:
            continue
        if btype[i] == DYNAMIC:  # kinematic bodies move as told (see _velocity)
            state[i, S_VX], state[i, S_VY], state[i, S_W] = _capped(
                h, state[i, S_VX], state[i, S_VY], state[i, S_W], max_speed, max_rotation)
        (center[i, 0], center[i, 1], state[i, S_DPX], state[i, S_DPY], angle[i],
         state[i, S_QC], state[i, S_QS]) = _advanced(
            h, state[i, S_VX], state[i, S_VY], state[i, S_W], center[i, 0], center[i, 1],
            center0[i, 0], center0[i, 1], angle[i], state[i, S_QC], state[i, S_QS])
    if not split:
        return
    for i in range(lo, hi):
        if btype[i] != DYNAMIC or in_contact[i] != tag:  # only dynamic bodies are pushed
            continue
        # the total motion capped: the body's own first, then what the push adds
        vx, vy, w = _capped(h, state[i, S_VX] + pseudo[i, 0], state[i, S_VY] + pseudo[i, 1],
                            state[i, S_W] + pseudo[i, 2], max_speed, max_rotation)
        (center[i, 0], center[i, 1], state[i, S_DPX], state[i, S_DPY], angle[i],
         state[i, S_QC], state[i, S_QS]) = _advanced(
            h, vx - state[i, S_VX], vy - state[i, S_VY], w - state[i, S_W], center[i, 0],
            center[i, 1], center0[i, 0], center0[i, 1], angle[i], state[i, S_QC], state[i, S_QS])
        pseudo[i, 0] = 0.0
        pseudo[i, 1] = 0.0
        pseudo[i, 2] = 0.0


@njit
def integrate_free(substeps, h, gravity, lane, btype, in_contact, inv_mass, inv_inertia,
                   force, torque, lin_damp, ang_damp, gravity_scale, vel, angvel, max_speed,
                   max_rotation, center, angle):
    """All ``substeps`` substeps of ``h`` at once for the moving bodies with
    ``in_contact`` clear (see the module docstring): their velocities (the body columns
    ``vel`` (n, 2) and ``angvel`` (n,), final when this returns), centres and angles.
    The solver state has no row for them: it serves contacts, which they have none of."""
    nh = substeps * h
    tri = h * h * 0.5 * substeps * (substeps + 1)
    max_turn = max_rotation / h
    for i in range(btype.shape[0]):
        if btype[i] == STATIC or in_contact[i]:
            continue
        vx = vel[i, 0]
        vy = vel[i, 1]
        w = angvel[i]
        ax = ay = alpha = 0.0
        if btype[i] == DYNAMIC:
            ax = gravity_scale[i] * gravity[lane[i], 0] + inv_mass[i] * force[i, 0]
            ay = gravity_scale[i] * gravity[lane[i], 1] + inv_mass[i] * force[i, 1]
            alpha = inv_inertia[i] * torque[i]
        vx1 = vx + nh * ax
        vy1 = vy + nh * ay
        w1 = w + nh * alpha
        # |v| along a straight line in velocity space peaks at an end: checking both ends
        # tells whether a cap could act in between.
        capped = (max(vx * vx + vy * vy, vx1 * vx1 + vy1 * vy1) > max_speed * max_speed
                  or max(abs(w), abs(w1)) > max_turn)
        if btype[i] == DYNAMIC and (lin_damp[i] != 0.0 or ang_damp[i] != 0.0 or capped):
            for _ in range(substeps):
                vx, vy, w = _velocity(h, ax, ay, alpha, lin_damp[i], ang_damp[i], vx, vy, w,
                                      max_speed, max_rotation)
                center[i, 0] += h * vx
                center[i, 1] += h * vy
                angle[i] += h * w
        else:
            center[i, 0] += nh * vx + tri * ax
            center[i, 1] += nh * vy + tri * ay
            angle[i] += nh * w + tri * alpha
            vx = vx1
            vy = vy1
            w = w1
        vel[i, 0] = vx
        vel[i, 1] = vy
        angvel[i] = w
