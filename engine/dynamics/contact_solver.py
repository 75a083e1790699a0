"""The contact passes of the soft step (sequential impulses), over the solver rows.

Each substep runs ``warm_start`` (last impulses applied again), ``solve`` (the biased
pass: soft contacts push penetration out; deep points by position alone, a split
impulse), the position integration, then ``relax``
(rigid, no push-out: removes the velocity the bias added, and solves friction); after
the substeps, ``restitution``. The passes read and write the compact solver rows of
``solver_rows.py`` and the bodies' velocities in ``state`` (``body_state.py``).

The per-contact and per-point steps are helpers inlined at Numba's IR level
(``njit_inline``), so each compiled pass is one loop with the same fused multiply-adds
as code written in one function. Helpers that take an array keep their control flow
simple: ``_impact_speed`` loads its four values before it branches, and the point
loops stay in the pass. With the loads inside its condition, and with the loops in
helpers, Numba kept an atomic reference-count increment and decrement of the arrays per
call (a pass went from 17 to 37 ns per contact). After changing a helper, check that the
pass's ``inspect_llvm()`` calls no ``NRT_incref`` (compile fresh: cached code cannot be
inspected).

Sources: Box2D v3 ``src/contact_solver.c`` (``b2WarmStartContactsTask``,
``b2SolveContact``, ``b2ApplyRestitutionTask``); Catto, "Solver2D" (2024).
"""
import numpy as np

from .._jit import njit, njit_inline
from ..constants import RESTITUTION_SWEEPS, RESTITUTION_TOLERANCE, SPLIT_PUSHOUT_DEPTH
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from .solver_rows import (Q_ADJ, Q_GAP, Q_MAXNI, Q_NI, Q_NMASS, Q_QAC, Q_QAN, Q_QBC, Q_QBN, Q_RELV, Q_RNA,
                          Q_RNB, Q_RTA, Q_RTB, Q_SEP, Q_STRIDE, Q_TI, Q_TMASS, Q_TOTNI, Q_TOTTI,
                          W_COUNT, W_FRICTION, W_IA, W_IB, W_MA, W_MB, W_NX, W_NY, W_POINTS,
                          W_RESTITUTION, W_ROLLI, W_ROLLING, W_SURFACE, relative_speed)


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
            work[k, base + Q_TOTNI] += ni
            work[k, base + Q_TOTTI] += ti
            px = ni * nx + ti * ny
            py = ni * ny - ti * nx
            vax -= ma * px
            vay -= ma * py
            wa_ -= ia * (ni * work[k, base + Q_RNA] + ti * work[k, base + Q_RTA])
            vbx += mb * px
            vby += mb * py
            wb_ += ib * (ni * work[k, base + Q_RNB] + ti * work[k, base + Q_RTB])
        rolling = work[k, W_ROLLI]
        if rolling != 0.0:  # the rolling impulse is warm-started within the step
            wa_ -= ia * rolling
            wb_ += ib * rolling
        _store(state, a, ma, ia, vax, vay, wa_)
        _store(state, b, mb, ib, vbx, vby, wb_)


@njit_inline
def _apply(imp, dx, dy, ra, rb, ma, mb, ia, ib, vax, vay, wva, vbx, vby, wvb):
    """Velocities after an impulse ``imp`` along ``d``: ``-imp d`` on A, ``+imp d`` on B,
    with ``r = anchor x d`` on each side."""
    return (vax - ma * dx * imp, vay - ma * dy * imp, wva - ia * ra * imp,
            vbx + mb * dx * imp, vby + mb * dy * imp, wvb + ib * rb * imp)


@njit_inline
def _motion(state, a, b, nx, ny):
    """What the separation prediction reads of the bodies' motion since the step began:
    ``(dn, qca, qsa, qcb, qsb)``, ``dn`` B's translation relative to A's along the normal,
    ``(qc, qs)`` each body's rotation (cos, sin)."""
    dn = (state[b, S_DPX] - state[a, S_DPX]) * nx + (state[b, S_DPY] - state[a, S_DPY]) * ny
    return dn, state[a, S_QC], state[a, S_QS], state[b, S_QC], state[b, S_QS]


@njit_inline
def _impact_speed(work, k, base, impact_gap, nx, ny, vax, vay, wva, vbx, vby, wvb):
    """A point's normal speed before this contact's impulses: the impact speed, should a
    point that started apart first push in this pass (see ``_note_push``). Only such
    points that have not pushed yet this step need it; 0 for the others."""
    most = work[k, base + Q_MAXNI]
    sep = work[k, base + Q_SEP]
    rna = work[k, base + Q_RNA]
    rnb = work[k, base + Q_RNB]
    vn = 0.0
    if most == 0.0 and sep > impact_gap:
        vn = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, rna, rnb)
    return vn


@njit_inline
def _predicted_separation(work, k, base, dn, qca, qsa, qcb, qsb):
    """A point's separation now, from the motion of its core points since the manifold
    was made (off the velocity chain: positions only)."""
    return (dn + (qcb * work[k, base + Q_QBN] + qsb * work[k, base + Q_QBC])
            - (qca * work[k, base + Q_QAN] + qsa * work[k, base + Q_QAC]) + work[k, base + Q_ADJ])


@njit_inline
def _point_softness(s, inv_h, soft, pushout, use_bias):
    """``(bias, mass scale, impulse scale)`` of a point at separation ``s``: speculative
    (``s > 0``), the impulse may close exactly the gap in this substep; touching, the
    biased pass pushes out softly (at most ``pushout`` m/s) and the relax pass is rigid
    with no bias. A point deeper than ``SPLIT_PUSHOUT_DEPTH`` is rigid in both passes:
    ``push_deep`` pushes it out by position alone. Selects rather than branches: whether
    a point is speculative varies from contact to contact."""
    bias_rate, mass_scale, impulse_scale = soft
    spec = s > 0.0
    soft_point = use_bias and not spec and s >= -SPLIT_PUSHOUT_DEPTH
    bias = s * inv_h if spec else (max(mass_scale * bias_rate * s, -pushout) if soft_point else 0.0)
    ms = mass_scale if soft_point else 1.0
    isc = impulse_scale if soft_point else 0.0
    return bias, ms, isc


@njit_inline
def _split_push(pseudo, a, b, ma, mb, ia, ib, nx, ny, rna, rnb, nmass, bias):
    """One deep point's impulse on the bodies' pseudo-velocities ``pseudo`` (see
    ``push_deep``): it drives the point's pseudo separation speed up to ``-bias``."""
    pvn = relative_speed(pseudo[b, 0] - pseudo[a, 0], pseudo[b, 1] - pseudo[a, 1],
                         pseudo[a, 2], pseudo[b, 2], nx, ny, rna, rnb)
    imp = max(-nmass * (pvn + bias), 0.0)
    pseudo[a, 0] -= ma * nx * imp
    pseudo[a, 1] -= ma * ny * imp
    pseudo[a, 2] -= ia * rna * imp
    pseudo[b, 0] += mb * nx * imp
    pseudo[b, 1] += mb * ny * imp
    pseudo[b, 2] += ib * rnb * imp


@njit_inline
def _note_push(work, k, base, p, new, vn0, vn1, s, lead, impact_gap):
    """Keep the point's largest normal impulse this step; at its first push, if it
    started the step apart, take its impact speed now, and the gap hit events
    extrapolate it over (``Q_GAP``: its separation ``s`` plus ``lead`` times the speed).

    The bodies meet now, after gravity sped them up since the step began: restitution
    answers this impact speed, not the one the step started with. Points that started
    touching keep their start speed: in a row of touching balls, the speed a push passed
    down the row within this step is no impact, and answering it as one created energy
    (a struck row of five came off with 2.2 times it).
    """
    most = work[k, base + Q_MAXNI]
    if most == 0.0 and new > 0.0:
        first = vn0 if p == 0 else vn1
        if first < work[k, base + Q_RELV] and work[k, base + Q_SEP] > impact_gap:
            work[k, base + Q_RELV] = first
            work[k, base + Q_GAP] = s - lead * first
    work[k, base + Q_MAXNI] = max(most, new)


@njit_inline
def _friction_point(work, k, base, ma, mb, ia, ib, nx, ny, vax, vay, wva, vbx, vby, wvb):
    """The tangent impulse of the point at ``base`` of row ``k``, within friction times
    its normal impulse; returns the bodies' velocities after it."""
    tx = ny
    ty = -nx
    friction = work[k, W_FRICTION]
    rta = work[k, base + Q_RTA]
    rtb = work[k, base + Q_RTB]
    vt = relative_speed(vbx - vax, vby - vay, wva, wvb, tx, ty, rta, rtb) - work[k, W_SURFACE]
    acc = work[k, base + Q_TI]
    limit = friction * work[k, base + Q_NI]
    new = min(max(acc - work[k, base + Q_TMASS] * vt, -limit), limit)
    imp = new - acc
    work[k, base + Q_TI] = new
    return _apply(imp, tx, ty, rta, rtb, ma, mb, ia, ib, vax, vay, wva, vbx, vby, wvb)


@njit_inline
def _rolling_resistance(work, k, count, ia, ib, wva, wvb):
    """An angular impulse against the bodies' relative spin, within the rolling
    resistance arm times the contact's normal impulse (Box2D v3.1's rolling resistance,
    relax pass only); returns both angular velocities after it."""
    if ia + ib == 0.0:
        return wva, wvb
    total = 0.0
    for p in range(count):
        total += work[k, W_POINTS + p * Q_STRIDE + Q_NI]
    limit = work[k, W_ROLLING] * total
    acc = work[k, W_ROLLI]
    new = min(max(acc - (wvb - wva) / (ia + ib), -limit), limit)
    work[k, W_ROLLI] = new
    imp = new - acc
    return wva - ia * imp, wvb + ib * imp


@njit
def _sequential_impulses(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout,
                         impact_gap, use_bias, reverse):
    """One Gauss-Seidel sweep of impulses over the solver rows in order: ``solve`` when
    ``use_bias``, else ``relax`` (Box2D ``b2SolveContact``). Returns how many points
    were deeper than ``SPLIT_PUSHOUT_DEPTH`` (for ``push_deep``).

    Both passes call this one kernel with ``use_bias`` a typed ``np.bool_``, not a
    literal: given ``True``, Numba compiled a kernel specialised for it, and that biased
    pass came out slower (measured on pyramid40: 16.6 -> 18.8 ns per contact).
    """
    # Where the speed read in this pass stands against the positions (``Q_GAP``): the
    # biased pass runs before the substep moves them, the relax pass after.
    lead = (-0.5 if use_bias else 0.5) / inv_h
    deep = 0
    for k in range(work.shape[0]):
        count = int(work[k, W_COUNT])
        a, b, ma, mb, ia, ib, nx, ny = _header(work, wa, wb, k)
        soft = soft_static if (ma == 0.0 or mb == 0.0) else soft_dyn
        vax, vay, wva, vbx, vby, wvb = _velocities(state, a, b)
        dn, qca, qsa, qcb, qsb = _motion(state, a, b, nx, ny)
        vn0 = _impact_speed(work, k, W_POINTS, impact_gap, nx, ny, vax, vay, wva, vbx, vby, wvb)
        vn1 = 0.0
        if count == 2:
            vn1 = _impact_speed(work, k, W_POINTS + Q_STRIDE, impact_gap, nx, ny,
                                vax, vay, wva, vbx, vby, wvb)
        for q in range(count):
            p = count - 1 - q if reverse else q
            base = W_POINTS + p * Q_STRIDE
            rna = work[k, base + Q_RNA]
            rnb = work[k, base + Q_RNB]
            s = _predicted_separation(work, k, base, dn, qca, qsa, qcb, qsb)
            bias, ms, isc = _point_softness(s, inv_h, soft, pushout, use_bias)
            deep += s < -SPLIT_PUSHOUT_DEPTH
            vn = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, rna, rnb)
            acc = work[k, base + Q_NI]
            new = max(acc - work[k, base + Q_NMASS] * (ms * vn + bias) - isc * acc, 0.0)
            imp = new - acc
            work[k, base + Q_NI] = new
            _note_push(work, k, base, p, new, vn0, vn1, s, lead, impact_gap)
            vax, vay, wva, vbx, vby, wvb = _apply(imp, nx, ny, rna, rnb, ma, mb, ia, ib,
                                                  vax, vay, wva, vbx, vby, wvb)
        if not use_bias:
            # Friction, in the relax pass only: the biased pass's extra velocity would
            # otherwise leak into the friction impulses (Box2D #1050).
            for q in range(count):
                p = count - 1 - q if reverse else q
                vax, vay, wva, vbx, vby, wvb = _friction_point(
                    work, k, W_POINTS + p * Q_STRIDE, ma, mb, ia, ib, nx, ny,
                    vax, vay, wva, vbx, vby, wvb)
            if work[k, W_ROLLING] > 0.0:
                wva, wvb = _rolling_resistance(work, k, count, ia, ib, wva, wvb)
        _store(state, a, ma, ia, vax, vay, wva)
        _store(state, b, mb, ib, vbx, vby, wvb)
    return deep


@njit
def solve(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout, impact_gap, reverse):
    """The biased pass (Box2D ``b2SolveContact`` with ``useBias``): normal impulses of
    soft contacts that push penetration out at most ``pushout`` m/s, and of speculative
    points that may close their gap within the substep; no friction.

    ``work`` float64 (m, WORK_SIZE), ``wa``/``wb`` int32 (m,): the solver rows and their
    bodies (``gather``); ``state`` float64 (n, STATE_SIZE): the bodies' velocities,
    updated in place, and motion since the step began. ``soft_dyn``/``soft_static``:
    ``(bias rate, mass scale, impulse scale)`` of contacts between two moving bodies and
    with a static or kinematic one (Box2D ``b2MakeSoft``, ``soft_step.py``). ``impact_gap``: a point whose
    manifold separation exceeds it started the step apart (its impact speed is taken at
    its first push). ``reverse`` solves a manifold's second point first.

    Points deeper than ``SPLIT_PUSHOUT_DEPTH`` are rigid here, as in the relax pass;
    returns how many there were: if any, ``push_deep`` pushes them out.
    """
    return _sequential_impulses(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout,
                                impact_gap, np.bool_(True), reverse)


@njit
def push_deep(work, wa, wb, state, soft_dyn, soft_static, pushout, pseudo):
    """Push the points deeper than ``SPLIT_PUSHOUT_DEPTH`` out by position alone: one
    Gauss-Seidel sweep of impulses on the pseudo-velocities ``pseudo`` (n, 3), zero on
    entry, which ``integrate_positions`` adds to this substep's motion and clears
    (Catto's split impulses, Chipmunk's ``v_bias``). Each such point's pseudo
    separation speed is driven up to the soft push-out speed of the biased pass (at
    most ``pushout``). Other arguments as ``solve``.

    Only deep points are pushed this way (bodies created or placed inside others): in a
    crowd in which every body overlaps hundreds of others, the velocity a soft push-out
    adds is more than the single relax sweep can take back, and the crowd flew apart the
    faster the bigger it was (1,000 circles at one point: 53 m/s). Shallow points keep
    Box2D's soft push, which resting stacks are tuned for.
    """
    for k in range(work.shape[0]):
        a, b, ma, mb, ia, ib, nx, ny = _header(work, wa, wb, k)
        bias_rate, mass_scale, _ = soft_static if (ma == 0.0 or mb == 0.0) else soft_dyn
        dn, qca, qsa, qcb, qsb = _motion(state, a, b, nx, ny)
        for p in range(int(work[k, W_COUNT])):
            base = W_POINTS + p * Q_STRIDE
            s = _predicted_separation(work, k, base, dn, qca, qsa, qcb, qsb)
            if s < -SPLIT_PUSHOUT_DEPTH:
                _split_push(pseudo, a, b, ma, mb, ia, ib, nx, ny, work[k, base + Q_RNA],
                            work[k, base + Q_RNB], work[k, base + Q_NMASS],
                            max(mass_scale * bias_rate * s, -pushout))


# The relax pass's points are never soft; this stands in for the softness it does not read.
RELAX_SOFTNESS = (0.0, 1.0, 0.0)


@njit
def relax(work, wa, wb, state, inv_h, impact_gap, reverse):
    """The relax pass (Box2D ``b2SolveContact`` without ``useBias``): rigid normal
    impulses with no push-out, which removes the velocity the biased pass added, then
    friction. Arguments as ``solve``; speculative points still close at most their gap.
    """
    _sequential_impulses(work, wa, wb, state, inv_h, RELAX_SOFTNESS, RELAX_SOFTNESS, 0.0,
                         impact_gap, np.bool_(False), reverse)


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
        sweeps = 1 if count == 1 else RESTITUTION_SWEEPS
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
                vn = relative_speed(state[b, S_VX] - state[a, S_VX], state[b, S_VY] - state[a, S_VY],
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
            if moved <= RESTITUTION_TOLERANCE * (1.0 + abs(work[k, W_POINTS + Q_NI])):
                break
