"""The contact passes of the soft step, over the solver's own compact rows.

The narrowphase's contact rows keep what persists between steps (anchors, feature ids,
accumulated impulses). Each step the solver gathers the rows that have points, in
colour order (``coloring.py``), into *solver rows* holding only what its passes read,
with the anchors already crossed with the normal and the tangent; it scatters the
impulses back at the end.

Why the crossed anchors: a pass is a chain of dependent multiply-adds through the two
bodies' velocities (measured: a contact costs the same whether or not its neighbours
share its bodies, so the chain, not memory, is the limit). With ``rn = r x n`` stored,
the normal speed is ``(vB - vA) . n + wB rnB - wA rnA`` and an impulse changes ``w`` by
``I^-1 rn * impulse``: two dependent operations fewer per point on each side of the
chain than recomputing the cross products from the anchors every pass.

Sources: Box2D v3 ``src/contact_solver.c`` (``b2PrepareContactsTask``,
``b2WarmStartContactsTask``, ``b2SolveContact``, ``b2ApplyRestitutionTask``).
"""
from .._jit import njit, njit_inline
from ..contacts.layout import C_COUNT, C_FRICTION, C_NX, C_NY, C_POINTS, C_RESTITUTION, H_NI, H_POINTS, H_STRIDE, H_TI, P_ADJ, P_NI, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX, P_RBY, P_SEP, P_STRIDE, P_TI
from .body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W

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
W_POINTS = 9
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
Q_STRIDE = 16
WORK_SIZE = W_POINTS + 2 * Q_STRIDE


@njit
def gather(rows, order, cba, cbb, inv_mass, inv_inertia, state, work, wa, wb):
    """Build the solver rows ``work[k]`` from ``rows[order[k]]`` (Box2D's prepare).

    ``state`` holds the bodies' velocities at the step's start: the approach speed of
    each point is measured there.
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
            work[k, dst + Q_MAXNI] = 0.0
            work[k, dst + Q_RELV] = _speed(state[b, S_VX] - state[a, S_VX],
                                           state[b, S_VY] - state[a, S_VY],
                                           state[a, S_W], state[b, S_W], nx, ny, rna, rnb)


@njit
def scatter(work, order, rows, hist):
    """Copy the impulses back: to the pair history (warm starting next step) and to the
    contact rows (for inspection)."""
    for k in range(order.shape[0]):
        i = order[k]
        for p in range(int(work[k, W_COUNT])):
            src = W_POINTS + p * Q_STRIDE
            dst = C_POINTS + p * P_STRIDE
            h = H_POINTS + p * H_STRIDE
            hist[i, h + H_NI] = work[k, src + Q_NI]
            hist[i, h + H_TI] = work[k, src + Q_TI]
            rows[i, dst + P_NI] = work[k, src + Q_NI]
            rows[i, dst + P_TI] = work[k, src + Q_TI]


@njit_inline
def _speed(dvx, dvy, wa, wb, dx, dy, ra, rb):
    """Relative speed of B's anchor against A's along ``d``: ``dv . d + wB rB - wA rA``
    with ``r = anchor x d`` and ``dv = vB - vA``, summed as a tree (two short chains,
    not one long one)."""
    return (dvx * dx + dvy * dy) + (wb * rb - wa * ra)


@njit_inline
def _store(state, body, inv_mass, inv_inertia, vx, vy, w):
    """Write a body's velocity back, unless contacts cannot change it (static and
    kinematic bodies): an unneeded store would chain every contact of the ground into
    one sequence of store-to-load dependencies."""
    if inv_mass != 0.0 or inv_inertia != 0.0:
        state[body, S_VX] = vx
        state[body, S_VY] = vy
        state[body, S_W] = w


@njit_inline
def _header(work, wa, wb, k):
    """Row ``k``'s bodies, inverse masses and inertias, and normal:
    ``(a, b, ma, mb, ia, ib, nx, ny)``."""
    return (wa[k], wb[k], work[k, W_MA], work[k, W_MB], work[k, W_IA], work[k, W_IB],
            work[k, W_NX], work[k, W_NY])


@njit_inline
def _velocities(state, a, b):
    """``(vax, vay, wa, vbx, vby, wb)``: both bodies' velocities."""
    return (state[a, S_VX], state[a, S_VY], state[a, S_W],
            state[b, S_VX], state[b, S_VY], state[b, S_W])


@njit
def warm_start(work, wa, wb, state):
    """Apply last step's accumulated impulses (start of every substep)."""
    for k in range(work.shape[0]):
        a, b, ma, mb, ia, ib, nx, ny = _header(work, wa, wb, k)
        vax, vay, wa_, vbx, vby, wb_ = _velocities(state, a, b)
        for p in range(int(work[k, W_COUNT])):
            base = W_POINTS + p * Q_STRIDE
            ni = work[k, base + Q_NI]
            ti = work[k, base + Q_TI]
            px = ni * nx + ti * ny
            py = ni * ny - ti * nx
            vax -= ma * px
            vay -= ma * py
            wa_ -= ia * (ni * work[k, base + Q_RNA] + ti * work[k, base + Q_RTA])
            vbx += mb * px
            vby += mb * py
            wb_ += ib * (ni * work[k, base + Q_RNB] + ti * work[k, base + Q_RTB])
        _store(state, a, ma, ia, vax, vay, wa_)
        _store(state, b, mb, ib, vbx, vby, wb_)


@njit_inline
def _apply(imp, dx, dy, ra, rb, ma, mb, ia, ib, vax, vay, wva, vbx, vby, wvb):
    """Velocities after an impulse ``imp`` along ``d``: ``-imp d`` on A, ``+imp d`` on B,
    with ``r = anchor x d`` on each side."""
    return (vax - ma * dx * imp, vay - ma * dy * imp, wva - ia * ra * imp,
            vbx + mb * dx * imp, vby + mb * dy * imp, wvb + ib * rb * imp)


@njit
def solve(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout, impact_gap, use_bias,
          reverse):
    """One pass of normal impulses (and, when ``use_bias`` is off, friction).

    ``use_bias``: the biased pass (soft contacts push penetration out at most
    ``pushout`` m/s); otherwise the relax pass (rigid, no bias, plus friction).
    ``reverse`` solves a manifold's second point first.
    """
    for k in range(work.shape[0]):
        count = int(work[k, W_COUNT])
        a, b, ma, mb, ia, ib, nx, ny = _header(work, wa, wb, k)
        bias_rate, mass_scale, impulse_scale = soft_static if (ma == 0.0 or mb == 0.0) else soft_dyn
        vax, vay, wva, vbx, vby, wvb = _velocities(state, a, b)
        dn = (state[b, S_DPX] - state[a, S_DPX]) * nx + (state[b, S_DPY] - state[a, S_DPY]) * ny
        qca = state[a, S_QC]
        qsa = state[a, S_QS]
        qcb = state[b, S_QC]
        qsb = state[b, S_QS]
        # Normal speeds before this contact's impulses: the impact speed, should a
        # point that started apart first push in this pass (see below). Only such
        # points that have not pushed yet this step need it.
        vn0 = 0.0
        vn1 = 0.0
        if work[k, W_POINTS + Q_MAXNI] == 0.0 and work[k, W_POINTS + Q_SEP] > impact_gap:
            vn0 = _speed(vbx - vax, vby - vay, wva, wvb, nx, ny, work[k, W_POINTS + Q_RNA],
                         work[k, W_POINTS + Q_RNB])
        if (count == 2 and work[k, W_POINTS + Q_STRIDE + Q_MAXNI] == 0.0
                and work[k, W_POINTS + Q_STRIDE + Q_SEP] > impact_gap):
            vn1 = _speed(vbx - vax, vby - vay, wva, wvb, nx, ny,
                         work[k, W_POINTS + Q_STRIDE + Q_RNA], work[k, W_POINTS + Q_STRIDE + Q_RNB])
        for q in range(count):
            p = count - 1 - q if reverse else q
            base = W_POINTS + p * Q_STRIDE
            rna = work[k, base + Q_RNA]
            rnb = work[k, base + Q_RNB]
            # predicted separation from the motion of the core points since the
            # manifold was made (off the velocity chain: positions only)
            s = (dn + (qcb * work[k, base + Q_QBN] + qsb * work[k, base + Q_QBC])
                 - (qca * work[k, base + Q_QAN] + qsa * work[k, base + Q_QAC]) + work[k, base + Q_ADJ])
            # Selects rather than branches: whether a point is speculative varies from
            # contact to contact.
            spec = s > 0.0
            soft = use_bias and not spec
            # speculative: the impulse may close exactly the gap in this substep
            bias = s * inv_h if spec else (max(mass_scale * bias_rate * s, -pushout) if soft else 0.0)
            ms = mass_scale if soft else 1.0
            isc = impulse_scale if soft else 0.0
            vn = _speed(vbx - vax, vby - vay, wva, wvb, nx, ny, rna, rnb)
            acc = work[k, base + Q_NI]
            new = max(acc - work[k, base + Q_NMASS] * (ms * vn + bias) - isc * acc, 0.0)
            imp = new - acc
            work[k, base + Q_NI] = new
            most = work[k, base + Q_MAXNI]
            if most == 0.0 and new > 0.0:
                first = vn0 if p == 0 else vn1
                if first < work[k, base + Q_RELV] and work[k, base + Q_SEP] > impact_gap:
                    # First push of a point that started the step apart: the bodies
                    # meet now, after gravity sped them up since the step began.
                    # Restitution answers this impact speed, not the one the step
                    # started with. Points that started touching keep their start
                    # speed: in a row of touching balls, the speed a push passed down
                    # the row within this step is no impact, and answering it as one
                    # created energy (a struck row of five came off with 2.2 times it).
                    work[k, base + Q_RELV] = first
            work[k, base + Q_MAXNI] = max(most, new)
            vax, vay, wva, vbx, vby, wvb = _apply(imp, nx, ny, rna, rnb, ma, mb, ia, ib,
                                                  vax, vay, wva, vbx, vby, wvb)
        if not use_bias:
            # Friction, in the relax pass only: the biased pass's extra velocity would
            # otherwise leak into the friction impulses (Box2D #1050).
            tx = ny
            ty = -nx
            friction = work[k, W_FRICTION]
            for q in range(count):
                p = count - 1 - q if reverse else q
                base = W_POINTS + p * Q_STRIDE
                rta = work[k, base + Q_RTA]
                rtb = work[k, base + Q_RTB]
                vt = _speed(vbx - vax, vby - vay, wva, wvb, tx, ty, rta, rtb)
                acc = work[k, base + Q_TI]
                limit = friction * work[k, base + Q_NI]
                new = min(max(acc - work[k, base + Q_TMASS] * vt, -limit), limit)
                imp = new - acc
                work[k, base + Q_TI] = new
                vax, vay, wva, vbx, vby, wvb = _apply(imp, tx, ty, rta, rtb, ma, mb, ia, ib,
                                                      vax, vay, wva, vbx, vby, wvb)
        _store(state, a, ma, ia, vax, vay, wva)
        _store(state, b, mb, ib, vbx, vby, wvb)


@njit
def restitution(work, wa, wb, state, threshold):
    """Bounce: drive each impacting point's normal speed to ``-e`` times its impact speed.

    Box2D does one pass, which its own comment calls approximate for two-point
    manifolds: the second point's impulse changes the first's speed (a box landing flat
    with e = 1 came off at 85 % of its speed, spinning). Iterating the two points of a
    manifold to convergence gives the exact simultaneous answer; a few sweeps suffice.
    """
    for k in range(work.shape[0]):
        e = work[k, W_RESTITUTION]
        if e == 0.0:
            continue
        count = int(work[k, W_COUNT])
        a, b, ma, mb, ia, ib, nx, ny = _header(work, wa, wb, k)
        sweeps = 1 if count == 1 else 16
        for _ in range(sweeps):
            moved = 0.0
            for p in range(count):
                base = W_POINTS + p * Q_STRIDE
                relv = work[k, base + Q_RELV]
                # only real impacts: fast approach, and a point that actually touched
                if relv > -threshold or work[k, base + Q_MAXNI] == 0.0:
                    continue
                rna = work[k, base + Q_RNA]
                rnb = work[k, base + Q_RNB]
                vn = _speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
                            state[a, S_W], state[b, S_W], nx, ny, rna, rnb)
                acc = work[k, base + Q_NI]
                new = max(acc - work[k, base + Q_NMASS] * (vn + e * relv), 0.0)
                imp = new - acc
                moved += abs(imp)
                work[k, base + Q_NI] = new
                work[k, base + Q_MAXNI] = max(work[k, base + Q_MAXNI], new)
                state[a, S_VX] -= ma * nx * imp
                state[a, S_VY] -= ma * ny * imp
                state[a, S_W] -= ia * rna * imp
                state[b, S_VX] += mb * nx * imp
                state[b, S_VY] += mb * ny * imp
                state[b, S_W] += ib * rnb * imp
            if moved <= 1e-12 * (1.0 + abs(work[k, W_POINTS + Q_NI])):
                break
