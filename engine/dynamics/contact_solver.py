"""The contact passes of the soft step (sequential impulses), over colour chunks.

Each substep runs ``warm_start`` (last impulses applied again), ``solve`` (the biased
pass: soft contacts push penetration out; deep points by position alone, a split
impulse, ``push_deep``), the position integration, then ``relax`` (rigid, no push-out:
removes the velocity the biased pass added); friction in both, first in the biased
pass and last in the relax pass; after the substeps,
restitution. The substep passes read and write the contacts in colour chunks
(``chunk_layout.py``): each chunk's bodies' velocities are gathered into a scratch,
its contacts solved side by side in loops with no branch, which LLVM compiles to
eight-wide SIMD code (Box2D's wide floats), and the velocities stored back.
``restitution`` (``restitution.py``) runs once a step, one contact at a time.

Branch-free means every choice is a selection both of whose sides are computed: a
one-point manifold's second point is solved on zeros and its result dropped; the
soft or rigid, speculative or touching treatment of a point is chosen by value. The
biased and relax passes do each contact's arithmetic in the same order as solving the
rows one at a time, and within a colour the order of contacts does not matter (no two
move the same body); the warm start adds what the impulses change instead of
subtracting them one by one. Run as plain Python the passes gave exactly the old
row-by-row results (pyramid10, 2026-11-28); compiled they differ in the last bits,
where LLVM fuses other multiply-adds in the vector loop than in the scalar one (and a
contact in a chunk's scalar remainder is fused as the scalar code is). Runs stay
bit-identical from run to run.

Within a chunk the friction of every contact is solved before the normal impulses of
any in the biased pass, and after them in the relax pass: the passes that move the
positions next (the biased pass, before ``integrate_positions``) end on the normal
impulses, so no friction impulse after them turns a body into the ground (Box2D v2.4's
order, "non-penetration is more important than friction"). Box2D v3.1 solves friction
after the normal impulses in both passes, and its main branch (#1050) in the relax pass
only; measured on pyramid40 (``benchmarks/pyramid_quality.py``, largest sideways move,
7 substeps at 80 Hz): relax only 0.75 cm; after the normal impulses in both 0.60 cm, but
a fast spinning stick sank 4.9 cm into the ground (``tests/test_ccd.py``, bar 2 cm);
this order 0.25 cm, the stick held.

Sources: Box2D v3 ``src/contact_solver.c`` (the wide-float ``b2WarmStartContactsTask``
and ``b2SolveContactsTask`` over ``b2FloatW`` lanes, the scalar overflow contacts,
``b2ApplyRestitutionTask``); Catto, "Solver2D" (2024).
"""
import numpy as np

from .._jit import borrowed, njit, njit_inline
from ..constants import SPLIT_PUSHOUT_DEPTH
from ..body_state import S_DPX, S_DPY, S_QC, S_QS
from .chunk_layout import (CHUNK, O_ADJ, O_CHUNK, O_COUNT, O_FRICTION, O_GAP, O_IA, O_IB, O_MA,
                           O_MAXNI, O_MB, O_NI, O_NMASS, O_NX, O_NY, O_P0, O_P1, O_QAC, O_QAN,
                           O_QBC, O_QBN, O_RELV, O_RNA, O_RNB, O_ROLLI, O_ROLLING,
                           O_RTA, O_RTB, O_SEP, O_SURFACE, O_TI, O_TMASS, O_TOTNI, O_TOTTI, V_DX,
                           V_DY, V_QCA, V_QCB, V_QSA, V_QSB, V_VAX, V_VAY, V_VBX, V_VBY, V_WA,
                           V_WB, gather_velocities, offset, store_velocities)
from .solver_rows import relative_speed

# What a call of ``contact_pass`` does (``which``).
WARM_START = 0
SOLVE = 1
RELAX = 2


@njit_inline
def _pick(real, new, old):
    """``new`` where ``real``, else ``old``, for a body pair's six velocities (a
    selection, no branch)."""
    return (new[0] if real else old[0], new[1] if real else old[1], new[2] if real else old[2],
            new[3] if real else old[3], new[4] if real else old[4], new[5] if real else old[5])


@njit_inline
def _apply(imp, dx, dy, ra, rb, body, vel):
    """Velocities after an impulse ``imp`` along ``d``: ``-imp d`` on A, ``+imp d`` on B,
    with ``r = anchor x d`` on each side."""
    ma, mb, ia, ib, _, _ = body
    vax, vay, wva, vbx, vby, wvb = vel
    return (vax - ma * dx * imp, vay - ma * dy * imp, wva - ia * ra * imp,
            vbx + mb * dx * imp, vby + mb * dy * imp, wvb + ib * rb * imp)


@njit_inline
def _body(w, c):
    """Contact ``c``'s inverse masses and inertias and normal: ``(ma, mb, ia, ib, nx, ny)``."""
    return w[c + O_MA], w[c + O_MB], w[c + O_IA], w[c + O_IB], w[c + O_NX], w[c + O_NY]


@njit_inline
def _lane(v, k):
    """Lane ``k``'s velocities ``(vax, vay, wa, vbx, vby, wb)`` from the scratch."""
    return v[V_VAX + k], v[V_VAY + k], v[V_WA + k], v[V_VBX + k], v[V_VBY + k], v[V_WB + k]


@njit_inline
def _put(v, k, vel):
    v[V_VAX + k], v[V_VAY + k], v[V_WA + k] = vel[0], vel[1], vel[2]
    v[V_VBX + k], v[V_VBY + k], v[V_WB + k] = vel[3], vel[4], vel[5]


@njit_inline
def _warm_point(w, o, real, body, vel):
    """Apply the accumulated impulses of the point at ``o`` again (where ``real``)."""
    ma, mb, ia, ib, nx, ny = body
    vax, vay, wva, vbx, vby, wvb = vel
    ni = w[o + O_NI]
    ti = w[o + O_TI]
    w[o + O_TOTNI] += ni
    w[o + O_TOTTI] += ti
    px = ni * nx + ti * ny
    py = ni * ny - ti * nx
    new = (vax - ma * px, vay - ma * py, wva - ia * (ni * w[o + O_RNA] + ti * w[o + O_RTA]),
           vbx + mb * px, vby + mb * py, wvb + ib * (ni * w[o + O_RNB] + ti * w[o + O_RTB]))
    return _pick(real, new, vel)


@njit_inline
def _warm_lane(w, c, v, k):
    """Warm-start contact ``c`` (lane ``k``): last step's impulses, and the rolling
    impulse accumulated within this step. The impulses do not depend on the velocities:
    what they change the velocities by goes to ``v``, for ``add_velocities``."""
    body = _body(w, c)
    vel = _warm_point(w, c + O_P0, True, body, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    vel = _warm_point(w, c + O_P1, w[c + O_COUNT] > 1.0, body, vel)
    rolling = w[c + O_ROLLI]
    rolled = (vel[0], vel[1], vel[2] - body[2] * rolling, vel[3], vel[4], vel[5] + body[3] * rolling)
    _put(v, k, _pick(rolling != 0.0, rolled, vel))


@njit_inline
def _point_softness(s, inv_h, soft, pushout, use_bias):
    """``(bias, mass scale, impulse scale)`` of a point at separation ``s``: speculative
    (``s > 0``), the impulse may close exactly the gap in this substep; touching, the
    biased pass pushes out softly (at most ``pushout`` m/s) and the relax pass is rigid
    with no bias. A point deeper than ``SPLIT_PUSHOUT_DEPTH`` is rigid in both passes:
    ``push_deep`` pushes it out by position alone."""
    bias_rate, mass_scale, impulse_scale = soft
    spec = s > 0.0
    soft_point = use_bias and not spec and s >= -SPLIT_PUSHOUT_DEPTH
    bias = s * inv_h if spec else (max(mass_scale * bias_rate * s, -pushout) if soft_point else 0.0)
    ms = mass_scale if soft_point else 1.0
    isc = impulse_scale if soft_point else 0.0
    return bias, ms, isc


@njit_inline
def point_separation(w, o, motion):
    """The point's separation now, from the motion of its core points since the
    manifold was made: ``motion = (dn, qca, qsa, qcb, qsb)``, B's displacement relative
    to A's along the normal and each body's rotation (cos, sin)."""
    dn, qca, qsa, qcb, qsb = motion
    return (dn + (qcb * w[o + O_QBN] + qsb * w[o + O_QBC])
            - (qca * w[o + O_QAN] + qsa * w[o + O_QAC]) + w[o + O_ADJ])


@njit_inline
def _normal_point(w, o, real, vn0, motion, body, vel, pass_):
    """The normal impulse of the point at ``o`` (kept where ``real``); returns the
    velocities after it and whether it is a real point deeper than
    ``SPLIT_PUSHOUT_DEPTH``. ``vn0``: its normal speed before this contact's impulses,
    the impact speed, should it push for the first time this step having started it
    apart (``Q_GAP``: then also the gap hit events extrapolate that speed over).

    The bodies meet now, after gravity sped them up since the step began: restitution
    answers this impact speed, not the one the step started with. Points that started
    touching keep their start speed: in a row of touching balls, the speed a push passed
    down the row within this step is no impact (answering it as one, a struck row of
    five came off with 2.2 times its energy).
    """
    inv_h, soft, pushout, impact_gap, use_bias, lead = pass_
    _, _, _, _, nx, ny = body
    vax, vay, wva, vbx, vby, wvb = vel
    s = point_separation(w, o, motion)
    bias, ms, isc = _point_softness(s, inv_h, soft, pushout, use_bias)
    rna = w[o + O_RNA]
    rnb = w[o + O_RNB]
    vn = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, rna, rnb)
    acc = w[o + O_NI]
    new = max(acc - w[o + O_NMASS] * (ms * vn + bias) - isc * acc, 0.0)
    new = new if real else acc
    w[o + O_NI] = new
    most = w[o + O_MAXNI]
    relv = w[o + O_RELV]
    gap = w[o + O_GAP]
    first = (most == 0.0) & (new > 0.0) & (vn0 < relv) & (w[o + O_SEP] > impact_gap)
    w[o + O_RELV] = vn0 if first else relv
    w[o + O_GAP] = s - lead * vn0 if first else gap
    w[o + O_MAXNI] = max(most, new)
    after = _apply(new - acc, nx, ny, rna, rnb, body, vel)
    return _pick(real, after, vel), real & (s < -SPLIT_PUSHOUT_DEPTH)


@njit_inline
def _normal_lane(w, c, v, k, pass_, soft_dyn, soft_static, order):
    """The normal impulses of contact ``c`` (lane ``k``), its points in ``order``
    ``(first offset, second offset, first's count bound, second's)``; returns how many
    of its points are deeper than ``SPLIT_PUSHOUT_DEPTH``."""
    inv_h, _, pushout, impact_gap, use_bias, lead = pass_
    o1, o2, bound1, bound2 = order
    body = _body(w, c)
    ma, mb, _, _, nx, ny = body
    soft = soft_static if (ma == 0.0) | (mb == 0.0) else soft_dyn
    pass_ = (inv_h, soft, pushout, impact_gap, use_bias, lead)
    vel = _lane(v, k)
    vax, vay, wva, vbx, vby, wvb = vel
    motion = (v[V_DX + k] * nx + v[V_DY + k] * ny, v[V_QCA + k], v[V_QSA + k], v[V_QCB + k],
              v[V_QSB + k])
    vn1 = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, w[c + o1 + O_RNA], w[c + o1 + O_RNB])
    vn2 = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, w[c + o2 + O_RNA], w[c + o2 + O_RNB])
    count = w[c + O_COUNT]
    vel, deep1 = _normal_point(w, c + o1, count > bound1, vn1, motion, body, vel, pass_)
    vel, deep2 = _normal_point(w, c + o2, count > bound2, vn2, motion, body, vel, pass_)
    _put(v, k, vel)
    return np.int64(deep1) + np.int64(deep2)


@njit_inline
def _friction_point(w, o, real, friction, surface, body, vel):
    """The tangent impulse of the point at ``o``, within friction times its normal
    impulse (kept where ``real``); returns the velocities after it."""
    _, _, _, _, nx, ny = body
    vax, vay, wva, vbx, vby, wvb = vel
    rta = w[o + O_RTA]
    rtb = w[o + O_RTB]
    vt = relative_speed(vbx - vax, vby - vay, wva, wvb, ny, -nx, rta, rtb) - surface
    acc = w[o + O_TI]
    limit = friction * w[o + O_NI]
    new = min(max(acc - w[o + O_TMASS] * vt, -limit), limit)
    new = new if real else acc
    w[o + O_TI] = new
    return _pick(real, _apply(new - acc, ny, -nx, rta, rtb, body, vel), vel)


@njit_inline
def _friction_lane(w, c, v, k, order):
    """Friction of contact ``c`` (lane ``k``), then its rolling resistance: an angular
    impulse against the bodies' relative spin, within the rolling resistance arm times
    the contact's normal impulse (Box2D v3.1)."""
    o1, o2, bound1, bound2 = order
    body = _body(w, c)
    _, _, ia, ib, _, _ = body
    count = w[c + O_COUNT]
    friction = w[c + O_FRICTION]
    surface = w[c + O_SURFACE]
    vel = _friction_point(w, c + o1, count > bound1, friction, surface, body, _lane(v, k))
    vel = _friction_point(w, c + o2, count > bound2, friction, surface, body, vel)
    total = 0.0 + w[c + O_P0 + O_NI]
    total = total + w[c + O_P1 + O_NI] if count > 1.0 else total
    limit = w[c + O_ROLLING] * total
    acc = w[c + O_ROLLI]
    vax, vay, wva, vbx, vby, wvb = vel
    new = min(max(acc - (wvb - wva) / (ia + ib), -limit), limit)
    rolls = (w[c + O_ROLLING] > 0.0) & (ia + ib != 0.0)
    new = new if rolls else acc
    w[c + O_ROLLI] = new
    imp = new - acc
    rolled = (vax, vay, wva - ia * imp, vbx, vby, wvb + ib * imp)
    _put(v, k, _pick(rolls, rolled, vel))


@njit_inline
def _impulse_lanes(w, v, start, lo, hi, which, pass_, soft_dyn, soft_static, order):
    """The friction then the normal impulses (biased pass), or the normal impulses then
    the friction (relax pass), of lanes ``lo .. hi - 1``
    of the chunk at ``start``, their points in ``order``: loops with no branch in them,
    which LLVM vectorizes. Returns the deep points' count."""
    deep = 0
    if which == SOLVE:  # friction first: the pass ends on the normal impulses
        for j in range(lo, hi):
            k = np.uint64(j)
            _friction_lane(w, start + k, v, k, order)
    for j in range(lo, hi):
        k = np.uint64(j)
        deep += _normal_lane(w, start + k, v, k, pass_, soft_dyn, soft_static, order)
    if which == RELAX:
        for j in range(lo, hi):
            k = np.uint64(j)
            _friction_lane(w, start + k, v, k, order)
    return deep


@njit_inline
def _lanes(w, v, start, lo, hi, which, pass_, soft_dyn, soft_static, reverse):
    """The biased or relax pass over lanes ``lo .. hi - 1`` of the chunk at ``start``;
    returns the deep points' count. The point order is spelled out as constants in each
    branch: offsets known when compiling let LLVM prove that the rows a loop writes are
    not those it reads (with a run-time choice it checks at run time, and took the
    scalar loop)."""
    if reverse:
        return _impulse_lanes(w, v, start, lo, hi, which, pass_, soft_dyn, soft_static,
                              (O_P1, O_P0, 1.0, 0.0))
    return _impulse_lanes(w, v, start, lo, hi, which, pass_, soft_dyn, soft_static,
                          (O_P0, O_P1, 0.0, 1.0))


@njit
def contact_pass(chunks, state, which, inv_h, soft_dyn, soft_static, pushout, impact_gap,
                 reverse):
    """One pass of the substep over all contacts, chunk by chunk: ``WARM_START``,
    ``SOLVE`` (biased) or ``RELAX``. Returns how many points are deeper than
    ``SPLIT_PUSHOUT_DEPTH`` (``SOLVE``: if any, ``push_deep`` pushes them out).

    ``chunks`` is ``(cw, ca, cb, first, size, sequential, v)`` (``chunk_layout.py``;
    ``v`` the velocity scratch); ``state`` float64 (n, STATE_SIZE), the bodies'
    velocities, updated in place, and motion since the step began. ``soft_dyn`` and
    ``soft_static``: ``(bias rate, mass scale, impulse scale)`` of contacts between two
    moving bodies and with a static or kinematic one (Box2D ``b2MakeSoft``; the relax
    pass is rigid and reads neither). ``impact_gap``: a point whose manifold separation
    exceeds it started the step apart. ``reverse`` solves a manifold's second point
    first (the passes alternate, so that solving one point first adds no spin).
    """
    cw, ca, cb, first, size, sequential, v = borrowed(chunks)
    state = borrowed(state)
    use_bias = which == SOLVE
    # Where the speed read in this pass stands against the positions (``Q_GAP``): the
    # biased pass runs before the substep moves them, the relax pass after.
    pass_ = (inv_h, soft_dyn, pushout, impact_gap, use_bias, (-0.5 if use_bias else 0.5) / inv_h)
    warm = which == WARM_START
    deep = 0
    for t in range(first.shape[0]):
        n = size[t]
        at = np.uint64(t * CHUNK)
        start = np.uint64(t) * O_CHUNK
        run = 1 if sequential[t] else n  # the overflow group: one contact at a time
        for lo in range(0, n, run):
            hi = min(lo + run, n)
            # Each inlined copy of the lanes costs seconds of a first run's compile:
            # ``_lanes`` has one call site, the warm start's loop its own.
            if warm:  # velocity changes, added to the bodies' velocities
                for j in range(lo, hi):
                    k = np.uint64(j)
                    _warm_lane(cw, start + k, v, k)
                for j in range(lo, hi):
                    store_velocities(state, ca, cb, cw, start, v, at, j, True)
                continue
            for j in range(lo, hi):
                gather_velocities(state, ca, cb, v, at, j)
            deep += _lanes(cw, v, start, lo, hi, which, pass_, soft_dyn, soft_static, reverse)
            for j in range(lo, hi):
                store_velocities(state, ca, cb, cw, start, v, at, j, False)
    return deep


@njit
def push_deep(chunks, state, soft_dyn, soft_static, pushout, pseudo):
    """Push the points deeper than ``SPLIT_PUSHOUT_DEPTH`` out by position alone: one
    Gauss-Seidel sweep of impulses on the pseudo-velocities ``pseudo`` (n, 3), zero on
    entry, which ``integrate_positions`` adds to this substep's motion and clears
    (Catto's split impulses, Chipmunk's ``v_bias``). Each such point's pseudo
    separation speed is driven up to the soft push-out speed of the biased pass (at
    most ``pushout``). Other arguments as ``contact_pass``.

    Only deep points are pushed this way (bodies created or placed inside others): in a
    crowd in which every body overlaps hundreds of others, the velocity a soft push-out
    adds is more than the single relax sweep can take back, and the crowd flew apart the
    faster the bigger it was (1,000 circles at one point: 53 m/s). Shallow points keep
    Box2D's soft push, which resting stacks are tuned for. Rare, so one contact at a
    time.
    """
    cw, ca, cb, first, size, _, _ = chunks
    for t in range(first.shape[0]):
        for j in range(size[t]):
            c = offset(t, j)
            a = ca[t * CHUNK + j]
            b = cb[t * CHUNK + j]
            body = _body(cw, c)
            ma, mb, ia, ib, nx, ny = body
            bias_rate, mass_scale, _ = soft_static if (ma == 0.0 or mb == 0.0) else soft_dyn
            motion = ((state[b, S_DPX] - state[a, S_DPX]) * nx + (state[b, S_DPY] - state[a, S_DPY]) * ny,
                      state[a, S_QC], state[a, S_QS], state[b, S_QC], state[b, S_QS])
            for p in range(int(cw[c + O_COUNT])):
                o = c + (O_P0 if p == 0 else O_P1)
                s = point_separation(cw, o, motion)
                if s < -SPLIT_PUSHOUT_DEPTH:
                    _split_push(pseudo, a, b, body, cw[o + O_RNA], cw[o + O_RNB], cw[o + O_NMASS],
                                max(mass_scale * bias_rate * s, -pushout))


@njit_inline
def _split_push(pseudo, a, b, body, rna, rnb, nmass, bias):
    """One deep point's impulse on the bodies' pseudo-velocities ``pseudo`` (see
    ``push_deep``): it drives the point's pseudo separation speed up to ``-bias``."""
    ma, mb, ia, ib, nx, ny = body
    pvn = relative_speed(pseudo[b, 0] - pseudo[a, 0], pseudo[b, 1] - pseudo[a, 1],
                         pseudo[a, 2], pseudo[b, 2], nx, ny, rna, rnb)
    imp = max(-nmass * (pvn + bias), 0.0)
    pseudo[a, 0] -= ma * nx * imp
    pseudo[a, 1] -= ma * ny * imp
    pseudo[a, 2] -= ia * rna * imp
    pseudo[b, 0] += mb * nx * imp
    pseudo[b, 1] += mb * ny * imp
    pseudo[b, 2] += ib * rnb * imp
