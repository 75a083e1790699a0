"""The soft step's solver rows: compact copies of the active contact rows, in solve order.

The narrowphase's contact rows keep what persists between steps (anchors, feature ids,
accumulated impulses). Each step the solver gathers the rows that have points, in
colour order (``coloring.py``), into *solver rows* holding only what its passes
(``contact_solver.py``) read, with the anchors already crossed with the normal and the
tangent; it scatters the impulses back at the end.

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
from ..broadphase.key_sort import sort_keys
from ..contacts.events import hit_bound
from ..contacts.layout import R_APPROACH, R_GAP, R_NORMAL, R_STRIDE, R_TANGENT
from ..contacts.layout import C_COUNT, C_FRICTION, C_ROLLING, C_SURFACE, C_NX, C_NY, C_POINTS, C_RESTITUTION, H_NI, H_POINTS, H_STRIDE, H_TI, P_ADJ, P_NI, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX, P_RBY, P_SEP, P_STRIDE, P_TI
from ..body_state import S_VX, S_VY, S_W

# Solver row: a header, then up to two points of Q_STRIDE columns from W_POINTS.
W_NX = 0  # normal from A to B; the tangent is (ny, -nx)
W_NY = 1
W_FRICTION = 2
W_RESTITUTION = 3
W_COUNT = 4
W_MA = 5  # inverse masses and inertias of bodies A and B
W_MB = 6
W_IA = 7
W_IB = 8
W_SURFACE = 9  # relative surface speed the friction drives towards (conveyors), m/s
W_ROLLING = 10  # rolling resistance arm (coefficient x radius), m; 0: none
W_ROLLI = 11  # accumulated rolling impulse this step, N m s
W_POINTS = 12
Q_RNA = 0  # rA x n: anchor on A (from A's centre of mass) crossed with the normal
Q_RNB = 1  # rB x n
Q_RTA = 2  # rA x t
Q_RTB = 3  # rB x t
# The core points q on A and B (see layout.P_QAX) predict the separation. Along the
# fixed normal, a point turned by q's body rotation (c, s) since the step began projects
# to c (n . q) + s (q x n): these two numbers per point replace q's coordinates.
Q_QAN = 4  # n . qA
Q_QAC = 5  # qA x n
Q_QBN = 6  # n . qB
Q_QBC = 7  # qB x n
Q_ADJ = 8  # separation minus the core points' gap along n when the manifold was made
Q_SEP = 9  # separation when the manifold was made
Q_NI = 10  # accumulated normal and tangent impulses
Q_TI = 11
Q_NMASS = 12  # effective masses along n and t
Q_TMASS = 13
Q_RELV = 14  # impact speed restitution answers (negative: approaching)
Q_MAXNI = 15  # largest normal impulse this step (0: never touched)
# Impulses delivered over the step: starts at minus the warm-start impulse, and each
# substep's warm start adds the accumulated impulse it applies, so with the final
# accumulated impulse added at the end it sums what every substep delivered (in substep
# k the contact delivers the accumulated impulse after k: warm start plus increments).
Q_TOTNI = 16
Q_TOTTI = 17
# For hit events: the gap over which Q_RELV extrapolates to the speed at the instant the
# point's gap closed, ``v^2 + 2 a gap`` under a constant approach acceleration ``a``
# (``contacts/events.contact_speed``): the separation when the speed was taken, plus
# (after the substep's positions moved) or minus (before) half the distance the speed
# covers in a substep, which is where semi-implicit Euler leads or lags the motion.
Q_GAP = 18
Q_STRIDE = 19
WORK_SIZE = W_POINTS + 2 * Q_STRIDE


@njit_inline
def relative_speed(dvx, dvy, wa, wb, dx, dy, ra, rb):
    """Relative speed of B's anchor against A's along ``d``: ``dv . d + wB rB - wA rA``
    with ``r = anchor x d`` and ``dv = vB - vA``, summed as a tree (two short chains,
    not one long one)."""
    return (dvx * dx + dvy * dy) + (wb * rb - wa * ra)


@njit
def gather(rows, order, cba, cbb, inv_mass, inv_inertia, state, work, wa, wb, h):
    """Build the solver rows ``work[k]`` from ``rows[order[k]]`` (Box2D's prepare).

    ``state`` holds the bodies' velocities at the step's start: the approach speed of
    each point is measured there. ``h``: the substep, s (for ``Q_GAP``).
    """
    for k in range(order.shape[0]):
        i = order[k]
        a = cba[i]
        b = cbb[i]
        wa[k] = a
        wb[k] = b
        ma = inv_mass[a]
        mb = inv_mass[b]
        ia = inv_inertia[a]
        ib = inv_inertia[b]
        nx = rows[i, C_NX]
        ny = rows[i, C_NY]
        work[k, W_NX] = nx
        work[k, W_NY] = ny
        work[k, W_FRICTION] = rows[i, C_FRICTION]
        work[k, W_RESTITUTION] = rows[i, C_RESTITUTION]
        work[k, W_COUNT] = rows[i, C_COUNT]
        work[k, W_MA] = ma
        work[k, W_MB] = mb
        work[k, W_IA] = ia
        work[k, W_IB] = ib
        work[k, W_SURFACE] = rows[i, C_SURFACE]
        work[k, W_ROLLING] = rows[i, C_ROLLING]
        work[k, W_ROLLI] = 0.0
        for p in range(int(rows[i, C_COUNT])):
            src = C_POINTS + p * P_STRIDE
            dst = W_POINTS + p * Q_STRIDE
            rax = rows[i, src + P_RAX]
            ray = rows[i, src + P_RAY]
            rbx = rows[i, src + P_RBX]
            rby = rows[i, src + P_RBY]
            rna = rax * ny - ray * nx
            rnb = rbx * ny - rby * nx
            rta = -(rax * nx + ray * ny)  # r x t with t = (ny, -nx)
            rtb = -(rbx * nx + rby * ny)
            work[k, dst + Q_RNA] = rna
            work[k, dst + Q_RNB] = rnb
            work[k, dst + Q_RTA] = rta
            work[k, dst + Q_RTB] = rtb
            kn = ma + mb + ia * rna * rna + ib * rnb * rnb
            kt = ma + mb + ia * rta * rta + ib * rtb * rtb
            work[k, dst + Q_NMASS] = 1.0 / kn if kn > 0.0 else 0.0
            work[k, dst + Q_TMASS] = 1.0 / kt if kt > 0.0 else 0.0
            qax = rows[i, src + P_QAX]
            qay = rows[i, src + P_QAY]
            qbx = rows[i, src + P_QBX]
            qby = rows[i, src + P_QBY]
            work[k, dst + Q_QAN] = nx * qax + ny * qay
            work[k, dst + Q_QAC] = qax * ny - qay * nx
            work[k, dst + Q_QBN] = nx * qbx + ny * qby
            work[k, dst + Q_QBC] = qbx * ny - qby * nx
            work[k, dst + Q_ADJ] = rows[i, src + P_ADJ]
            work[k, dst + Q_SEP] = rows[i, src + P_SEP]
            work[k, dst + Q_NI] = rows[i, src + P_NI]
            work[k, dst + Q_TI] = rows[i, src + P_TI]
            work[k, dst + Q_TOTNI] = -rows[i, src + P_NI]
            work[k, dst + Q_TOTTI] = -rows[i, src + P_TI]
            work[k, dst + Q_MAXNI] = 0.0
            relv = relative_speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                                  state[a, S_W], state[b, S_W], nx, ny, rna, rnb)
            work[k, dst + Q_RELV] = relv
            # taken where the last substep left the positions (see Q_GAP)
            work[k, dst + Q_GAP] = rows[i, src + P_SEP] - 0.5 * h * relv


@njit
def scatter(work, order, rows, hist, results, reach, threshold):
    """Copy the impulses back: to the pair history (warm starting next step) and to the
    contact rows; report each point's impulses over the step and its approach speed in
    ``results`` (``contacts/layout.py``, R_*; rows not solved keep zeros).

    Returns the sorted int64 indices of the pairs with a point that pushed and whose
    ``hit_bound`` (``reach`` bounds the approach acceleration) exceeds ``threshold``
    squared: the only pairs that can hold a hit event faster than ``threshold``."""
    hitters = np.empty(order.shape[0], np.int64)
    n = 0
    limit = threshold * threshold
    for k in range(order.shape[0]):
        fastest = 0.0
        i = order[k]
        for p in range(int(work[k, W_COUNT])):
            src = W_POINTS + p * Q_STRIDE
            dst = C_POINTS + p * P_STRIDE
            h = H_POINTS + p * H_STRIDE
            r = p * R_STRIDE
            hist[i, h + H_NI] = work[k, src + Q_NI]
            hist[i, h + H_TI] = work[k, src + Q_TI]
            rows[i, dst + P_NI] = work[k, src + Q_NI]
            rows[i, dst + P_TI] = work[k, src + Q_TI]
            results[i, r + R_NORMAL] = work[k, src + Q_TOTNI] + work[k, src + Q_NI]
            results[i, r + R_TANGENT] = work[k, src + Q_TOTTI] + work[k, src + Q_TI]
            pushed = work[k, src + Q_MAXNI] > 0.0
            results[i, r + R_APPROACH] = -work[k, src + Q_RELV] if pushed else 0.0
            results[i, r + R_GAP] = work[k, src + Q_GAP] if pushed else 0.0
            if pushed:
                fastest = max(fastest, hit_bound(-work[k, src + Q_RELV], work[k, src + Q_GAP],
                                                 reach))
        if fastest > limit:
            hitters[n] = i
            n += 1
    hitters = hitters[:n]
    sort_keys(hitters)  # (np.sort would add seconds of compilation)
    return hitters
