"""Mouse joint: a spring pulling a point of one body toward a target point, with at most
``max_force`` (Box2D v3.1 ``mouse_joint.c``; pymunk: a kinematic body with a
``PivotJoint``). It is a spring in both passes. The joint's one body is ``jb``.
"""
from .._jit import njit, njit_inline
from ..body_state import S_DPX, S_DPY, S_VX, S_VY, S_W
from .common import clamp_accumulated_point, inverse, rotated
from .layout import J_DCX, J_DCY, J_FBX, J_FBY, J_MAXF, J_PX, J_PY, J_S1B, J_S1I, J_S1M


@njit
def warm_start_mouse(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the mouse joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        b = jb[k]
        rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
        _push(S, b, inv_mass[b], inv_inertia[b], rbx, rby, J[k, J_PX], J[k, J_PY])


@njit_inline
def _push(S, b, mb, ib, rbx, rby, px, py):
    S[b, S_VX] += mb * px
    S[b, S_VY] += mb * py
    S[b, S_W] += ib * (rbx * py - rby * px)


@njit
def solve_mouse(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the mouse joints ``idx`` (the same in both passes)."""
    h = 1.0 / inv_h
    for k in idx:
        b = jb[k]
        mb, ib = inv_mass[b], inv_inertia[b]
        rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
        cx = J[k, J_DCX] + S[b, S_DPX] + rbx
        cy = J[k, J_DCY] + S[b, S_DPY] + rby
        vx = S[b, S_VX] - S[b, S_W] * rby + J[k, J_S1B] * cx
        vy = S[b, S_VY] + S[b, S_W] * rbx + J[k, J_S1B] * cy
        k11 = mb + ib * rby * rby
        k12 = -ib * rbx * rby
        k22 = mb + ib * rbx * rbx
        det = inverse(k11 * k22 - k12 * k12)
        ms = J[k, J_S1M]
        isc = J[k, J_S1I]
        px = J[k, J_PX] * (1.0 - isc) - ms * det * (k22 * vx - k12 * vy)
        py = J[k, J_PY] * (1.0 - isc) - ms * det * (k11 * vy - k12 * vx)
        dpx, dpy = clamp_accumulated_point(J, k, J_PX, px, py, h * J[k, J_MAXF])
        _push(S, b, mb, ib, rbx, rby, dpx, dpy)
