"""Restitution: after the substeps, impacting points bounce (Box2D v3
``b2ApplyRestitutionTask``, iterated over a manifold's points).

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
            if e != 0.0:
                _bounce(cw, c, ca[t * CHUNK + j], cb[t * CHUNK + j], e, state, threshold)


@njit_inline
def _bounce(cw, c, a, b, e, state, threshold):
    """Restitution of contact ``c`` between bodies ``a`` and ``b`` (see ``restitution``)."""
    count = int(cw[c + O_COUNT])
    ma, mb, ia, ib = cw[c + O_MA], cw[c + O_MB], cw[c + O_IA], cw[c + O_IB]
    nx, ny = cw[c + O_NX], cw[c + O_NY]
    sweeps = 1 if count == 1 else RESTITUTION_SWEEPS
    for _ in range(sweeps):
        moved = 0.0
        for p in range(count):
            o = c + (O_P0 if p == 0 else O_P1)
            relv = cw[o + O_RELV]
            # only real impacts: fast approach, and a point that actually touched
            if relv > -threshold or cw[o + O_MAXNI] == 0.0:
                continue
            rna = cw[o + O_RNA]
            rnb = cw[o + O_RNB]
            vn = relative_speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                                state[a, S_W], state[b, S_W], nx, ny, rna, rnb)
            acc = cw[o + O_NI]
            new = max(acc - cw[o + O_NMASS] * (vn + e * relv), 0.0)
            imp = new - acc
            moved += abs(imp)
            cw[o + O_NI] = new
            cw[o + O_MAXNI] = max(cw[o + O_MAXNI], new)
            apply_axial(state, a, b, ma, ia, mb, ib, nx, ny, rna, rnb, imp)
        if moved <= RESTITUTION_TOLERANCE * (1.0 + abs(cw[c + O_P0 + O_NI])):
            break
