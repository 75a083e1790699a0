"""Motor joint: drives B toward a pose relative to A (B's origin at ``linear_offset``
in A's frame, its angle ``angular_offset`` from A's) with at most ``max_force`` and
``max_torque``; with zero offsets and small maxima it is top-down friction (Box2D v3.0
``motor_joint.c``; pymunk: a ``SimpleMotor`` with a ``PivotJoint`` on a kinematic
body). Each substep closes ``correction_factor`` of the pose error per substep's worth
of speed, in both passes.
"""
from .._jit import njit
from ..body_state import S_W
from .common import (apply_impulse, clamp_accumulated, clamp_accumulated_point, inverse,
                     joint_bodies, relative_velocity, rotated, separation)

# Its warm start is the weld joint's (a point impulse and an angular one):
# ``weld.warm_start_weld``.
from .layout import (J_AOFF, J_CORR, J_DCX, J_DCY, J_FAX, J_FAY, J_FBX, J_FBY, J_MAXF, J_MAXT,
                     J_PA, J_PX, J_PY)


@njit
def solve_motor(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the motor joints ``idx`` (the same in both passes)."""
    h = 1.0 / inv_h
    for k in idx:
        a, b, ma, ia, mb, ib = joint_bodies(k, ja, jb, inv_mass, inv_inertia)
        corr = J[k, J_CORR] * inv_h
        theta = angle[b] - angle[a] - J[k, J_AOFF]
        cdot = S[b, S_W] - S[a, S_W]
        most = h * J[k, J_MAXT]
        imp = clamp_accumulated(J, k, J_PA, -inverse(ia + ib) * (cdot + corr * theta), -most,
                                most)
        S[a, S_W] -= ia * imp
        S[b, S_W] += ib * imp
        rax, ray = rotated(S, a, J[k, J_FAX], J[k, J_FAY])
        rbx, rby = rotated(S, b, J[k, J_FBX], J[k, J_FBY])
        cx, cy = separation(S, a, b, rax, ray, rbx, rby, J[k, J_DCX], J[k, J_DCY])
        vx, vy = relative_velocity(S, a, b, rax, ray, rbx, rby)
        rx = vx + corr * cx
        ry = vy + corr * cy
        k11 = ma + mb + ia * ray * ray + ib * rby * rby
        k12 = -ia * rax * ray - ib * rbx * rby
        k22 = ma + mb + ia * rax * rax + ib * rbx * rbx
        det = inverse(k11 * k22 - k12 * k12)
        px = J[k, J_PX] - det * (k22 * rx - k12 * ry)
        py = J[k, J_PY] - det * (k11 * ry - k12 * rx)
        dpx, dpy = clamp_accumulated_point(J, k, J_PX, px, py, h * J[k, J_MAXF])
        apply_impulse(S, a, b, ma, ia, mb, ib, rax, ray, rbx, rby, dpx, dpy, 0.0)
