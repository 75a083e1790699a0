"""The soft step's prepare and store: the active contact rows to colour chunks and back.

The narrowphase's contact rows keep what persists between steps (anchors, feature ids,
accumulated impulses). Each step the solver gathers the rows that have points, in
colour order (``coloring.py``), into colour chunks (``chunk_layout.py``) holding only
what its passes (``contact_solver.py``) read, with the anchors already crossed with the
normal and the tangent; it scatters the impulses back at the end.

Why the crossed anchors: a pass is a chain of dependent multiply-adds through the two
bodies' velocities (measured: a contact costs the same whether or not its neighbours
share its bodies, so the chain, not memory, is the limit). With ``rn = r x n`` stored,
the normal speed is ``(vB - vA) . n + wB rnB - wA rnA`` and an impulse changes ``w`` by
``I^-1 rn * impulse``: two dependent operations fewer per point on each side of the
chain than recomputing the cross products from the anchors every pass.

Sources: Box2D v3 ``src/contact_solver.c`` (``b2PrepareContactsTask``; the impulses go
back as in ``b2StoreImpulsesTask``).
"""
import numpy as np

from .._jit import njit, njit_inline
from .._memory import prefetch
from ..broadphase.key_sort import sort_keys
from ..contacts.events import hit_bound
from ..contacts.layout import CONTACT_SIZE, R_APPROACH, R_GAP, R_NORMAL, R_STRIDE, R_TANGENT
from ..contacts.layout import C_COUNT, C_FRICTION, C_ROLLING, C_SURFACE, C_NX, C_NY, C_POINTS, C_RESTITUTION, H_NI, H_POINTS, H_STRIDE, H_TI, P_ADJ, P_NI, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX, P_RBY, P_SEP, P_STRIDE, P_TI
from ..body_state import S_VX, S_VY, S_W
from .chunk_layout import (CHUNK, O_ADJ, O_COUNT, O_FRICTION, O_GAP, O_IA, O_IB, O_MA, O_MAXNI,
                           O_MB, O_NI, O_NMASS, O_NX, O_NY, O_P0, O_P1, O_QAC, O_QAN, O_QBC, O_QBN,
                           O_RELV, O_RESTITUTION, O_RNA, O_RNB, O_ROLLI, O_ROLLING, O_RTA, O_RTB,
                           O_SEP, O_SURFACE, O_TI, O_TMASS, O_TOTNI, O_TOTTI, POINT_ROWS, offset)


@njit_inline
def relative_speed(dvx, dvy, wa, wb, dx, dy, ra, rb):
    """Relative speed of B's anchor against A's along ``d``: ``dv . d + wB rB - wA rA``
    with ``r = anchor x d`` and ``dv = vB - vA``, summed as a tree (two short chains,
    not one long one)."""
    return (dvx * dx + dvy * dy) + (wb * rb - wa * ra)


# ``gather`` reads the contact rows in colour order, which jumps through memory: it asks
# for the row AHEAD contacts later to be loaded while it works on this one (measured on
# many_pyramids' 58,000 contacts, one process, alternating: 110-118 -> 87-90 ns a contact;
# pyramid40 0.90 times). Prefetching the bodies' rows too, or the rows ``scatter``
# writes, gained nothing (2026-11-28).
AHEAD = 8


@njit
def gather(rows, order, cba, cbb, inv_mass, inv_inertia, state, chunks, h):
    """Fill the chunks (``chunk_layout.py``) from the contact rows: chunk ``t``'s contact
    ``j`` is ``rows[order[first[t] + j]]`` (Box2D's prepare). A one-point manifold's
    second point is zeros: the passes select it away.

    ``state`` holds the bodies' velocities at the step's start: the approach speed of
    each point is measured there. ``h``: the substep, s (for ``O_GAP``).
    """
    cw, ca, cb, first, size, _, _ = chunks
    last = order.shape[0] - 1
    for t in range(first.shape[0]):
        for j in range(size[t]):
            later = order[min(first[t] + j + AHEAD, last)]
            for line in range(0, CONTACT_SIZE, 8):
                prefetch(rows, later * CONTACT_SIZE + line)
            i = order[first[t] + j]
            a = cba[i]
            b = cbb[i]
            ca[t * CHUNK + j] = a
            cb[t * CHUNK + j] = b
            c = offset(t, j)
            masses = (inv_mass[a], inv_mass[b], inv_inertia[a], inv_inertia[b])
            _gather_contact(rows, i, cw, c, masses)
            relv = (state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                    state[a, S_W], state[b, S_W])
            count = int(rows[i, C_COUNT])
            for p in range(2):
                o = c + (O_P0 if p == 0 else O_P1)
                if p < count:
                    _gather_point(rows, i, C_POINTS + p * P_STRIDE, cw, o, masses, relv, h)
                else:
                    for f in range(POINT_ROWS):
                        cw[o + np.uint64(f * CHUNK)] = 0.0


@njit_inline
def _gather_contact(rows, i, cw, c, masses):
    """The contact's rows of contact row ``i``, at ``c``."""
    ma, mb, ia, ib = masses
    cw[c + O_NX] = rows[i, C_NX]
    cw[c + O_NY] = rows[i, C_NY]
    cw[c + O_FRICTION] = rows[i, C_FRICTION]
    cw[c + O_RESTITUTION] = rows[i, C_RESTITUTION]
    cw[c + O_COUNT] = rows[i, C_COUNT]
    cw[c + O_MA] = ma
    cw[c + O_MB] = mb
    cw[c + O_IA] = ia
    cw[c + O_IB] = ib
    cw[c + O_SURFACE] = rows[i, C_SURFACE]
    cw[c + O_ROLLING] = rows[i, C_ROLLING]
    cw[c + O_ROLLI] = 0.0


@njit_inline
def _gather_point(rows, i, src, cw, o, masses, relv, h):
    """A point's rows from its columns at ``src`` of contact row ``i``, at ``o``;
    ``masses`` the bodies' ``(ma, mb, ia, ib)``, ``relv`` their relative velocity
    ``(dvx, dvy, wa, wb)`` at the step's start."""
    nx = rows[i, C_NX]
    ny = rows[i, C_NY]
    ma, mb, ia, ib = masses
    rax = rows[i, src + P_RAX]
    ray = rows[i, src + P_RAY]
    rbx = rows[i, src + P_RBX]
    rby = rows[i, src + P_RBY]
    rna = rax * ny - ray * nx
    rnb = rbx * ny - rby * nx
    rta = -(rax * nx + ray * ny)  # r x t with t = (ny, -nx)
    rtb = -(rbx * nx + rby * ny)
    cw[o + O_RNA] = rna
    cw[o + O_RNB] = rnb
    cw[o + O_RTA] = rta
    cw[o + O_RTB] = rtb
    kn = ma + mb + ia * rna * rna + ib * rnb * rnb
    kt = ma + mb + ia * rta * rta + ib * rtb * rtb
    cw[o + O_NMASS] = 1.0 / kn if kn > 0.0 else 0.0
    cw[o + O_TMASS] = 1.0 / kt if kt > 0.0 else 0.0
    qax = rows[i, src + P_QAX]
    qay = rows[i, src + P_QAY]
    qbx = rows[i, src + P_QBX]
    qby = rows[i, src + P_QBY]
    cw[o + O_QAN] = nx * qax + ny * qay
    cw[o + O_QAC] = qax * ny - qay * nx
    cw[o + O_QBN] = nx * qbx + ny * qby
    cw[o + O_QBC] = qbx * ny - qby * nx
    cw[o + O_ADJ] = rows[i, src + P_ADJ]
    cw[o + O_SEP] = rows[i, src + P_SEP]
    cw[o + O_NI] = rows[i, src + P_NI]
    cw[o + O_TI] = rows[i, src + P_TI]
    cw[o + O_TOTNI] = -rows[i, src + P_NI]
    cw[o + O_TOTTI] = -rows[i, src + P_TI]
    cw[o + O_MAXNI] = 0.0
    dvx, dvy, wa, wb = relv
    speed = relative_speed(dvx, dvy, wa, wb, nx, ny, rna, rnb)
    cw[o + O_RELV] = speed
    # taken where the last substep left the positions (see O_GAP)
    cw[o + O_GAP] = rows[i, src + P_SEP] - 0.5 * h * speed


@njit
def scatter(chunks, order, rows, hist, results, reach, threshold):
    """Copy the impulses back: to the pair history (warm starting next step) and to the
    contact rows; report each point's impulses over the step and its approach speed in
    ``results`` (``contacts/layout.py``, R_*; rows not solved keep zeros).

    Returns the sorted int64 indices of the pairs with a point that pushed and whose
    ``hit_bound`` (``reach`` bounds the approach acceleration) exceeds ``threshold``
    squared: the only pairs that can hold a hit event faster than ``threshold``."""
    cw, _, _, first, size, _, _ = chunks
    hitters = np.empty(order.shape[0], np.int64)
    n = 0
    limit = threshold * threshold
    for t in range(first.shape[0]):
        for j in range(size[t]):
            i = order[first[t] + j]
            c = offset(t, j)
            fastest = 0.0
            for p in range(int(cw[c + O_COUNT])):
                o = c + (O_P0 if p == 0 else O_P1)
                dst = C_POINTS + p * P_STRIDE
                hp = H_POINTS + p * H_STRIDE
                r = p * R_STRIDE
                hist[i, hp + H_NI] = cw[o + O_NI]
                hist[i, hp + H_TI] = cw[o + O_TI]
                rows[i, dst + P_NI] = cw[o + O_NI]
                rows[i, dst + P_TI] = cw[o + O_TI]
                results[i, r + R_NORMAL] = cw[o + O_TOTNI] + cw[o + O_NI]
                results[i, r + R_TANGENT] = cw[o + O_TOTTI] + cw[o + O_TI]
                pushed = cw[o + O_MAXNI] > 0.0
                results[i, r + R_APPROACH] = -cw[o + O_RELV] if pushed else 0.0
                results[i, r + R_GAP] = cw[o + O_GAP] if pushed else 0.0
                if pushed:
                    fastest = max(fastest, hit_bound(-cw[o + O_RELV], cw[o + O_GAP], reach))
            if fastest > limit:
                hitters[n] = i
                n += 1
    hitters = hitters[:n]
    sort_keys(hitters)  # (np.sort would add seconds of compilation)
    return hitters
