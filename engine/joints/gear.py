"""Gear joint: holds ``ratio * angle_b - angle_a`` at its phase, so B turns ``1/ratio``
times as fast as A (pymunk's ``GearJoint``; Box2D v2's gear joint coupled two other
joints instead). Soft in the biased pass like every joint, rigid in relax.
"""
from .._jit import njit
from ..body_state import S_W
from .common import inverse
from .layout import J_AOFF, J_PA, J_RATIO


@njit
def warm_start_gear(J, idx, ja, jb, S, inv_mass, inv_inertia):
    """Apply the gear joints' accumulated impulses (``idx``: their rows)."""
    for k in idx:
        a = ja[k]
        b = jb[k]
        S[a, S_W] -= inv_inertia[a] * J[k, J_PA]
        S[b, S_W] += inv_inertia[b] * J[k, J_RATIO] * J[k, J_PA]


@njit
def solve_gear(J, idx, ja, jb, S, inv_mass, inv_inertia, angle, soft, inv_h, use_bias):
    """One pass over the gear joints ``idx`` (see ``revolute.solve_revolute``)."""
    bias_rate, mass_scale, impulse_scale = soft
    for k in idx:
        a = ja[k]
        b = jb[k]
        ia, ib = inv_inertia[a], inv_inertia[b]
        ratio = J[k, J_RATIO]
        cdot = ratio * S[b, S_W] - S[a, S_W]
        bias, ms, isc = 0.0, 1.0, 0.0
        if use_bias:
            bias = bias_rate * (ratio * angle[b] - angle[a] - J[k, J_AOFF])
            ms, isc = mass_scale, impulse_scale
        imp = -inverse(ia + ratio * ratio * ib) * ms * (cdot + bias) - isc * J[k, J_PA]
        J[k, J_PA] += imp
        S[a, S_W] -= ia * imp
        S[b, S_W] += ib * ratio * imp
