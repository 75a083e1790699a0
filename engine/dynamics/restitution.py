"""Restitution: points that hit during the step bounce, after the substeps (Box2D v3
``b2ApplyRestitutionTask``, iterated over a manifold's points). Collisions that
``impacts.py`` answered before the substeps are left alone.

Sources: Box2D v3 ``src/contact_solver.c``.
"""
from .._jit import njit, njit_inline
from ..body_state import S_VX, S_VY, S_W
from ..joints.common import apply_axial
from ..constants import RESTITUTION_SWEEPS, RESTITUTION_TOLERANCE
from .chunk_layout import (CHUNK, O_COUNT, O_IA, O_IB, O_MA, O_MAXNI, O_MB, O_NI, O_NMASS, O_NX,
                           O_NY, O_P0, O_P1, O_RELV, O_RESTITUTION, O_RNA, O_RNB, offset)
from .solver_rows import relative_speed


@njit
def restitution(chunks, state, threshold):
    """Bounce: drive each impacting point's normal speed to ``-e`` times its impact speed.

    Only points that hit faster than ``threshold`` (m/s) and pushed, of contacts that
    ``impacts`` did not answer (their restitution is negated).
    Box2D does one pass, which its own comment calls approximate for two-point
    manifolds: the second point's impulse changes the first's speed (a box landing flat
    with e = 1 came off at 85 % of its speed, spinning). Iterating the two points of a
    manifold to convergence gives the exact simultaneous answer; a few sweeps suffice.
    One contact at a time, in solve order (few contacts bounce).
    """
    cw, ca, cb, first, size, _, _ = chunks
    for t in range(first.shape[0]):
        for j in range(size[t]):
            c = offset(t, j)
            e = cw[c + O_RESTITUTION]
            if e > 0.0:
                _bounce(cw, c, ca[t * CHUNK + j], cb[t * CHUNK + j], e, state, threshold)


@njit_inline
def _bounce(cw, c, a, b, e, state, threshold):
    """Restitution of contact ``c`` between bodies ``a`` and ``b`` (see ``restitution``)."""
    count = int(cw[c + O_COUNT])
    # only real impacts: fast approach (_drive) and a point that actually pushed
    o0 = c + O_P0
    o1 = c + O_P1
    speed0 = cw[o0 + O_RELV] if cw[o0 + O_MAXNI] != 0.0 else 0.0
    speed1 = cw[o1 + O_RELV] if count > 1 and cw[o1 + O_MAXNI] != 0.0 else 0.0
    i0, i1 = drive_normal(cw, c, a, b, e, state, threshold, speed0, speed1, cw[o0 + O_NI],
                    cw[o1 + O_NI] if count > 1 else 0.0)
    cw[o0 + O_NI] = i0
    cw[o0 + O_MAXNI] = max(cw[o0 + O_MAXNI], i0)
    if count > 1:
        cw[o1 + O_NI] = i1
        cw[o1 + O_MAXNI] = max(cw[o1 + O_MAXNI], i1)


@njit_inline
def normal_speed(cw, c, o, a, b, state):
    """The normal speed of the point at ``o`` of contact ``c`` (negative: approaching)."""
    return relative_speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                          state[a, S_W], state[b, S_W], cw[c + O_NX], cw[c + O_NY],
                          cw[o + O_RNA], cw[o + O_RNB])


@njit
def drive_normal(cw, c, a, b, e, state, threshold, speed0, speed1, acc0, acc1):
    """Drive the normal speed of each point of contact ``c`` whose ``speed`` is below
    ``-threshold`` to ``-e speed``, its accumulated impulse ``acc`` kept non-negative;
    the two points in turn until their impulses settle. Returns the two impulses."""
    count = int(cw[c + O_COUNT])
    ma, mb, ia, ib = cw[c + O_MA], cw[c + O_MB], cw[c + O_IA], cw[c + O_IB]
    nx, ny = cw[c + O_NX], cw[c + O_NY]
    sweeps = 1 if count == 1 else RESTITUTION_SWEEPS
    for _ in range(sweeps):
        moved = 0.0
        for p in range(count):
            o = c + (O_P0 if p == 0 else O_P1)
            speed = speed0 if p == 0 else speed1
            if speed > -threshold:
                continue
            rna = cw[o + O_RNA]
            rnb = cw[o + O_RNB]
            vn = relative_speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                                state[a, S_W], state[b, S_W], nx, ny, rna, rnb)
            acc = acc0 if p == 0 else acc1
            new = max(acc - cw[o + O_NMASS] * (vn + e * speed), 0.0)
            imp = new - acc
            moved += abs(imp)
            if p == 0:
                acc0 = new
            else:
                acc1 = new
            apply_axial(state, a, b, ma, ia, mb, ib, nx, ny, rna, rnb, imp)
        if moved <= RESTITUTION_TOLERANCE * (1.0 + abs(acc0)):
            break
    return acc0, acc1
