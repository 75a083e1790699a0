"""Integration of body velocities and positions for one substep (symplectic Euler).

Used inside the solver's substep loop (Box2D v3 soft step: velocities, warm start,
biased solve, positions, relax) and by continuous collision. Bodies are integrated
about their centre of mass ``c``; the world converts origins to centres and back.
"""
import math

from ._jit import njit
from .layout import DYNAMIC, STATIC


@njit
def integrate_velocities(h, gx, gy, btype, inv_mass, inv_inertia, force, torque,
                         lin_damp, ang_damp, gravity_scale, vel, angvel, max_speed, max_rotation):
    """``v = h*(g + f/m) + v / (1 + h*c)`` for dynamic bodies.

    The damping factor ``1 / (1 + h*c)`` is the Pade approximation of ``exp(-h*c)``
    for ``dv/dt = -c*v`` (Box2D v3): unconditionally stable, never reverses v.
    Speeds are capped at ``max_speed`` and turn rates so one substep turns at most
    ``max_rotation`` radians.
    """
    for i in range(btype.shape[0]):
        if btype[i] != DYNAMIC:
            continue
        ld = 1.0 / (1.0 + h * lin_damp[i])
        ad = 1.0 / (1.0 + h * ang_damp[i])
        im = inv_mass[i]
        vx = h * (gravity_scale[i] * gx + im * force[i, 0]) + ld * vel[i, 0]
        vy = h * (gravity_scale[i] * gy + im * force[i, 1]) + ld * vel[i, 1]
        w = h * inv_inertia[i] * torque[i] + ad * angvel[i]
        speed2 = vx * vx + vy * vy
        if speed2 > max_speed * max_speed:
            f = max_speed / math.sqrt(speed2)
            vx *= f
            vy *= f
        if w * w * h * h > max_rotation * max_rotation:
            w = math.copysign(max_rotation / h, w)
        vel[i, 0] = vx
        vel[i, 1] = vy
        angvel[i] = w


@njit
def integrate_positions(h, btype, vel, angvel, center, angle, center0, dp, dq):
    """``c += h*v``, ``angle += h*w`` for moving bodies; track the change this step.

    ``dp`` (n, 2) and ``dq`` (n, 2) receive the displacement of the centre of mass and
    the rotation (cos, sin) since the step began: the solver predicts contact
    separations from them without recomputing manifolds. ``dq`` is advanced as
    ``normalize(q + h*w*perp(q))`` (Box2D's ``b2IntegrateRotation``): one square root
    instead of a sine and a cosine per body and substep; its angle lags the exact
    ``angle`` by O((h w)^3), which only the separation prediction sees.
    """
    for i in range(btype.shape[0]):
        if btype[i] == STATIC:
            continue
        center[i, 0] += h * vel[i, 0]
        center[i, 1] += h * vel[i, 1]
        dp[i, 0] = center[i, 0] - center0[i, 0]
        dp[i, 1] = center[i, 1] - center0[i, 1]
        w = angvel[i]
        if w != 0.0:
            angle[i] += h * w
            qc = dq[i, 0] - h * w * dq[i, 1]
            qs = dq[i, 1] + h * w * dq[i, 0]
            inv = 1.0 / math.sqrt(qc * qc + qs * qs)
            dq[i, 0] = qc * inv
            dq[i, 1] = qs * inv
