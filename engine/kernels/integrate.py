"""Integration of body velocities and positions for one substep (symplectic Euler).

Used inside the solver's substep loop (Box2D v3 soft step: velocities, warm start,
biased solve, positions, relax) and by continuous collision. Bodies are integrated
about their centre of mass ``c``; the world converts origins to centres and back.
"""
import math

from ._jit import njit
from .layout import DYNAMIC, S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W, STATIC


@njit
def integrate_velocities(h, gx, gy, btype, inv_mass, inv_inertia, force, torque,
                         lin_damp, ang_damp, gravity_scale, state, max_speed, max_rotation):
    """``v = h*(g + f/m) + v / (1 + h*c)`` for dynamic bodies, in ``state`` (n, STATE_SIZE).

    The damping factor ``1 / (1 + h*c)`` is the Pade approximation of ``exp(-h*c)``
    for ``dv/dt = -c*v`` (Box2D v3): unconditionally stable, never reverses v.
    Speeds are capped at ``max_speed`` and turn rates so one substep turns at most
    ``max_rotation`` radians.
    """
    for i in range(btype.shape[0]):
        if btype[i] != DYNAMIC:
            continue
        ld = 1.0 if lin_damp[i] == 0.0 else 1.0 / (1.0 + h * lin_damp[i])
        ad = 1.0 if ang_damp[i] == 0.0 else 1.0 / (1.0 + h * ang_damp[i])
        im = inv_mass[i]
        vx = h * (gravity_scale[i] * gx + im * force[i, 0]) + ld * state[i, S_VX]
        vy = h * (gravity_scale[i] * gy + im * force[i, 1]) + ld * state[i, S_VY]
        w = h * inv_inertia[i] * torque[i] + ad * state[i, S_W]
        speed2 = vx * vx + vy * vy
        if speed2 > max_speed * max_speed:
            f = max_speed / math.sqrt(speed2)
            vx *= f
            vy *= f
        if w * w * h * h > max_rotation * max_rotation:
            w = math.copysign(max_rotation / h, w)
        state[i, S_VX] = vx
        state[i, S_VY] = vy
        state[i, S_W] = w


@njit
def integrate_positions(h, btype, state, center, angle, center0):
    """``c += h*v``, ``angle += h*w`` for moving bodies; track the change this step.

    The state's displacement (S_DPX, S_DPY) and rotation (S_QC, S_QS) since the step
    began let the solver predict contact separations without recomputing manifolds.
    The rotation is advanced as ``normalize(q + h*w*perp(q))`` (Box2D's
    ``b2IntegrateRotation``): one square root instead of a sine and a cosine per body
    and substep; its angle lags the exact ``angle`` by O((h w)^3), which only the
    separation prediction sees.
    """
    for i in range(btype.shape[0]):
        if btype[i] == STATIC:
            continue
        center[i, 0] += h * state[i, S_VX]
        center[i, 1] += h * state[i, S_VY]
        state[i, S_DPX] = center[i, 0] - center0[i, 0]
        state[i, S_DPY] = center[i, 1] - center0[i, 1]
        w = state[i, S_W]
        if w != 0.0:
            angle[i] += h * w
            qc = state[i, S_QC] - h * w * state[i, S_QS]
            qs = state[i, S_QS] + h * w * state[i, S_QC]
            inv = 1.0 / math.sqrt(qc * qc + qs * qs)
            state[i, S_QC] = qc * inv
            state[i, S_QS] = qs * inv
