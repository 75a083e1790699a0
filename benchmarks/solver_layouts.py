"""The relax pass in two memory layouts: the engine's solver rows against colour chunks
that LLVM turns into eight-wide SIMD code (issue #17, item 1: Box2D's wide floats).

Run from the repository root::

    python -m benchmarks.solver_layouts                 # pyramid40
    python -m benchmarks.solver_layouts --scene rain

Both kernels run the same math on the same contacts: the relax pass's normal impulses
(speculative points closing at most their gap) and friction, for manifolds of one or
two points (``dynamics/contact_solver.py`` without the bookkeeping of impact speeds and
rolling resistance). The contacts are the solver rows ``dynamics/solver_rows.gather``
builds for a scene after it has settled a while, in the engine's colour order.

- **rows**: one contact after another, each a row of ``work[k, field]``, as the engine
  solves today.
- **colour chunks**: each colour's contacts (no two share a moving body) side by side,
  each field a row of ``CHUNK`` floats: the colour's bodies' velocities are gathered
  into a scratch of the same shape, every contact is solved in a loop with no branch,
  and the velocities are stored back. LLVM vectorizes that loop eight wide, and the
  vector loop runs (checked with ``benchmarks/perf_map.py``: most samples fall on
  ``zmm`` instructions), once four things hold:

  1. no reference counting in the loop: the arrays are ``_jit.borrowed``;
  2. unsigned indices and offsets (``np.uint64``): Numba's test for negative indices
     otherwise hides the access pattern from LLVM;
  3. a row length known when compiling (``CHUNK``): with a run-time one (``work[field,
     k]``, session 14's branch ``wip/simd-colour-batches``) LLVM must check at run time
     that the rows written do not overlap those read, and one of those checks sent
     every colour to the scalar copy;
  4. a row length that is not a power of two: rows 4 KiB apart alias in the processor's
     store buffer (512 floats a row measured 58 ns a contact, 520 floats 13.5 ns).

Measured 2026-11-27, five rounds each, the gathering and storing of velocities included:
pyramid40 (2380 contacts in six colours of 361-430) rows 26.9 ns a contact, colour chunks
13.3 ns (0.49); pyramid20 27.4 and 13.3 ns (0.48); rain (3302 contacts, mostly circles'
one-point manifolds, which the chunks solve as two) 14.4 and 12.0 ns (0.83). The
velocities after the pass are bit-identical (the order within a colour does not matter).
The engine's own relax pass, with its bookkeeping, takes about 30 ns on pyramid40. Not
yet the engine's layout: the warm start, both passes, the deep points' push, the
restitution and the solver rows' gather and scatter would have to move to it together.
"""
import argparse
import statistics
import time

import numba
import numpy as np

from engine._jit import borrowed
from engine.body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from engine.constants import STATIC
from engine.dynamics.coloring import order_contacts
from engine.dynamics.soft_step import _solver_types, _start_state
from engine.dynamics.solver_rows import (Q_ADJ, Q_NI, Q_NMASS, Q_QAC, Q_QAN, Q_QBC, Q_QBN, Q_RNA,
                                         Q_RNB, Q_RTA, Q_RTB, Q_STRIDE, Q_TI, Q_TMASS, W_COUNT,
                                         W_FRICTION, W_IA, W_IB, W_MA, W_MB, W_NX, W_NY,
                                         W_POINTS, W_SURFACE, WORK_SIZE, gather, relative_speed)

from .perf_map import settled_world

CHUNK = 520  # contacts a chunk holds: the length of every row (see the module docstring)
# The fields of a chunk, each a row of CHUNK floats: the contact's, then each point's.
C_MA, C_MB, C_IA, C_IB, C_NX, C_NY, C_FRICTION, C_SURFACE, C_COUNT = range(9)
POINT_FIELDS = (Q_RNA, Q_RNB, Q_RTA, Q_RTB, Q_QAN, Q_QAC, Q_QBN, Q_QBC, Q_ADJ, Q_NI, Q_TI,
                Q_NMASS, Q_TMASS)
P_RNA, P_RNB, P_RTA, P_RTB, P_QAN, P_QAC, P_QBN, P_QBC, P_ADJ, P_NI, P_TI, P_NMASS, P_TMASS = range(13)
FIRST_POINT = 9
FIELDS = FIRST_POINT + 2 * len(POINT_FIELDS)
VELOCITY_ROWS = 12  # vA (3), vB (3), B's translation minus A's (2), qA, qB (cos, sin)
jit = numba.njit(fastmath={"contract"}, error_model="numpy")


def _row(field):
    """The offset of row ``field``, unsigned (``np.uint64``): Numba folds it in."""
    return np.uint64(field * CHUNK)


O_MA, O_MB, O_IA, O_IB, O_NX, O_NY, O_FR, O_SURF, O_COUNT = (_row(f) for f in range(9))
O_P0, O_P1 = _row(FIRST_POINT), _row(FIRST_POINT + len(POINT_FIELDS))
(O_RNA, O_RNB, O_RTA, O_RTB, O_QAN, O_QAC, O_QBN, O_QBC, O_ADJ, O_NI, O_TI, O_NMASS,
 O_TMASS) = (_row(f) for f in range(len(POINT_FIELDS)))
O_V = tuple(_row(r) for r in range(VELOCITY_ROWS))
O_CHUNK = np.uint64(FIELDS * CHUNK)


@numba.njit(inline="always")
def _apply(imp, dx, dy, ra, rb, ma, mb, ia, ib, vel):
    vax, vay, wva, vbx, vby, wvb = vel
    return (vax - ma * dx * imp, vay - ma * dy * imp, wva - ia * ra * imp,
            vbx + mb * dx * imp, vby + mb * dy * imp, wvb + ib * rb * imp)


@numba.njit(inline="always")
def _normal(w, o, real, motion, inv_h, body, vel):
    """A point's normal impulse at offset ``o``; kept only where ``real`` (a selection)."""
    dn, qca, qsa, qcb, qsb = motion
    ma, mb, ia, ib, nx, ny = body
    s = (dn + (qcb * w[o + O_QBN] + qsb * w[o + O_QBC]) - (qca * w[o + O_QAN] + qsa * w[o + O_QAC])
         + w[o + O_ADJ])
    bias = s * inv_h if s > 0.0 else 0.0
    rna, rnb = w[o + O_RNA], w[o + O_RNB]
    vn = relative_speed(vel[3] - vel[0], vel[4] - vel[1], vel[2], vel[5], nx, ny, rna, rnb)
    acc = w[o + O_NI]
    new = max(acc - w[o + O_NMASS] * (vn + bias), 0.0)
    new = new if real else acc
    w[o + O_NI] = new
    return _apply(new - acc, nx, ny, rna, rnb, ma, mb, ia, ib, vel)


@numba.njit(inline="always")
def _friction(w, o, real, friction, surface, body, vel):
    """A point's tangent impulse at offset ``o``, within friction times its normal one."""
    ma, mb, ia, ib, nx, ny = body
    rta, rtb = w[o + O_RTA], w[o + O_RTB]
    vt = relative_speed(vel[3] - vel[0], vel[4] - vel[1], vel[2], vel[5], ny, -nx, rta, rtb) - surface
    acc = w[o + O_TI]
    limit = friction * w[o + O_NI]
    new = min(max(acc - w[o + O_TMASS] * vt, -limit), limit)
    new = new if real else acc
    w[o + O_TI] = new
    return _apply(new - acc, ny, -nx, rta, rtb, ma, mb, ia, ib, vel)


@numba.njit(inline="always")
def _solve_chunk(w, v, start, n, inv_h):
    """The branch-free loop LLVM vectorizes: contacts ``0 .. n-1`` of the chunk at ``start``."""
    for j in range(n):
        k = np.uint64(j)
        c = start + k
        body = (w[c + O_MA], w[c + O_MB], w[c + O_IA], w[c + O_IB], w[c + O_NX], w[c + O_NY])
        count = w[c + O_COUNT]
        vel = (v[O_V[0] + k], v[O_V[1] + k], v[O_V[2] + k], v[O_V[3] + k], v[O_V[4] + k], v[O_V[5] + k])
        motion = (v[O_V[6] + k] * body[4] + v[O_V[7] + k] * body[5], v[O_V[8] + k], v[O_V[9] + k],
                  v[O_V[10] + k], v[O_V[11] + k])
        vel = _normal(w, c + O_P0, count > 0.0, motion, inv_h, body, vel)
        vel = _normal(w, c + O_P1, count > 1.0, motion, inv_h, body, vel)
        friction, surface = w[c + O_FR], w[c + O_SURF]
        vel = _friction(w, c + O_P0, count > 0.0, friction, surface, body, vel)
        vel = _friction(w, c + O_P1, count > 1.0, friction, surface, body, vel)
        for r in range(6):
            v[O_V[r] + k] = vel[r]


@jit
def relax_colour_chunks(w, body_a, body_b, moves_a, moves_b, counts, state, v, inv_h):
    """The relax pass over colour chunks (see the module docstring); ``v`` is scratch."""
    w, body_a, body_b, moves_a, moves_b, counts, state, v = borrowed(
        (w, body_a, body_b, moves_a, moves_b, counts, state, v))
    for t in range(counts.shape[0]):
        n = counts[t]
        first = t * CHUNK
        for j in range(n):  # the colour's bodies' velocities and motion, side by side
            a, b = body_a[first + j], body_b[first + j]
            v[0 * CHUNK + j], v[1 * CHUNK + j], v[2 * CHUNK + j] = state[a, S_VX], state[a, S_VY], state[a, S_W]
            v[3 * CHUNK + j], v[4 * CHUNK + j], v[5 * CHUNK + j] = state[b, S_VX], state[b, S_VY], state[b, S_W]
            v[6 * CHUNK + j] = state[b, S_DPX] - state[a, S_DPX]
            v[7 * CHUNK + j] = state[b, S_DPY] - state[a, S_DPY]
            v[8 * CHUNK + j], v[9 * CHUNK + j] = state[a, S_QC], state[a, S_QS]
            v[10 * CHUNK + j], v[11 * CHUNK + j] = state[b, S_QC], state[b, S_QS]
        _solve_chunk(w, v, np.uint64(t) * O_CHUNK, n, inv_h)
        for j in range(n):  # back to the bodies contacts can move
            if moves_a[first + j]:
                a = body_a[first + j]
                state[a, S_VX], state[a, S_VY], state[a, S_W] = v[0 * CHUNK + j], v[1 * CHUNK + j], v[2 * CHUNK + j]
            if moves_b[first + j]:
                b = body_b[first + j]
                state[b, S_VX], state[b, S_VY], state[b, S_W] = v[3 * CHUNK + j], v[4 * CHUNK + j], v[5 * CHUNK + j]


@jit
def relax_rows(work, wa, wb, state, inv_h):
    """The same math one contact at a time, over the engine's solver rows."""
    for k in range(work.shape[0]):
        a, b = wa[k], wb[k]
        ma, mb, ia, ib = work[k, W_MA], work[k, W_MB], work[k, W_IA], work[k, W_IB]
        nx, ny = work[k, W_NX], work[k, W_NY]
        vax, vay, wva = state[a, S_VX], state[a, S_VY], state[a, S_W]
        vbx, vby, wvb = state[b, S_VX], state[b, S_VY], state[b, S_W]
        dn = (state[b, S_DPX] - state[a, S_DPX]) * nx + (state[b, S_DPY] - state[a, S_DPY]) * ny
        qca, qsa, qcb, qsb = state[a, S_QC], state[a, S_QS], state[b, S_QC], state[b, S_QS]
        count = int(work[k, W_COUNT])
        for p in range(count):
            q = W_POINTS + p * Q_STRIDE
            s = (dn + (qcb * work[k, q + Q_QBN] + qsb * work[k, q + Q_QBC])
                 - (qca * work[k, q + Q_QAN] + qsa * work[k, q + Q_QAC]) + work[k, q + Q_ADJ])
            bias = s * inv_h if s > 0.0 else 0.0
            rna, rnb = work[k, q + Q_RNA], work[k, q + Q_RNB]
            vn = relative_speed(vbx - vax, vby - vay, wva, wvb, nx, ny, rna, rnb)
            acc = work[k, q + Q_NI]
            new = max(acc - work[k, q + Q_NMASS] * (vn + bias), 0.0)
            work[k, q + Q_NI] = new
            vax, vay, wva, vbx, vby, wvb = _apply(new - acc, nx, ny, rna, rnb, ma, mb, ia, ib,
                                                  (vax, vay, wva, vbx, vby, wvb))
        friction, surface = work[k, W_FRICTION], work[k, W_SURFACE]
        for p in range(count):
            q = W_POINTS + p * Q_STRIDE
            rta, rtb = work[k, q + Q_RTA], work[k, q + Q_RTB]
            vt = relative_speed(vbx - vax, vby - vay, wva, wvb, ny, -nx, rta, rtb) - surface
            acc = work[k, q + Q_TI]
            limit = friction * work[k, q + Q_NI]
            new = min(max(acc - work[k, q + Q_TMASS] * vt, -limit), limit)
            work[k, q + Q_TI] = new
            vax, vay, wva, vbx, vby, wvb = _apply(new - acc, ny, -nx, rta, rtb, ma, mb, ia, ib,
                                                  (vax, vay, wva, vbx, vby, wvb))
        if ma != 0.0 or ia != 0.0:
            state[a, S_VX], state[a, S_VY], state[a, S_W] = vax, vay, wva
        if mb != 0.0 or ib != 0.0:
            state[b, S_VX], state[b, S_VY], state[b, S_W] = vbx, vby, wvb


def solver_rows(world, substeps=7):
    """The solver rows of ``world``'s contacts in colour order, their bodies, the solver
    state (velocities with a small push, so that there is something to solve) and the
    solver types, as ``step_bodies`` builds them."""
    state_, pairs = world._state, world._state.pairs
    pairs.reserve()
    bodies, rows = state_.body_arrays(), pairs.rows
    m = rows.shape[0]
    cba, cbb = np.ascontiguousarray(pairs.bodies[0, :m]), np.ascontiguousarray(pairs.bodies[1, :m])
    stype = _solver_types(bodies.btype, bodies.asleep)
    state = _start_state(bodies.vel, bodies.angvel)
    order = np.empty(m, np.int32)
    count = order_contacts(rows, cba, cbb, bodies.inv_mass, bodies.inv_inertia, stype, order,
                           np.zeros(stype.shape[0], np.uint8))
    order = order[:count]
    work, wa, wb = np.empty((count, WORK_SIZE)), np.empty(count, np.int32), np.empty(count, np.int32)
    gather(rows, order, cba, cbb, bodies.inv_mass, bodies.inv_inertia, state, work, wa, wb,
           1.0 / 60.0 / substeps)
    state[:, S_VX] += 0.01
    state[:, S_VY] -= 0.02
    return work, wa, wb, state, stype


def colour_chunks(work, wa, wb, stype):
    """The rows regrouped into chunks: greedy colours in solving order (no moving body
    twice in a chunk), at most ``CHUNK`` contacts each. Returns the chunk arrays."""
    chunks = []  # (rows, moving bodies)
    for k in range(work.shape[0]):
        moving = {int(x) for x in (wa[k], wb[k]) if stype[x] != STATIC}
        for rows, used in chunks:
            if len(rows) < CHUNK and not moving & used:
                rows.append(k)
                used |= moving
                break
        else:
            chunks.append(([k], moving))
    n = len(chunks)
    w = np.zeros(n * FIELDS * CHUNK)
    body_a, body_b = np.zeros(n * CHUNK, np.int64), np.zeros(n * CHUNK, np.int64)
    moves_a, moves_b = np.zeros(n * CHUNK, np.uint8), np.zeros(n * CHUNK, np.uint8)
    counts = np.array([len(rows) for rows, _ in chunks], np.int64)
    contact = (W_MA, W_MB, W_IA, W_IB, W_NX, W_NY, W_FRICTION, W_SURFACE, W_COUNT)
    for t, (rows, _) in enumerate(chunks):
        rows = np.array(rows)
        at = slice(t * CHUNK, t * CHUNK + len(rows))
        body_a[at], body_b[at] = wa[rows], wb[rows]
        moves_a[at] = (work[rows, W_MA] != 0) | (work[rows, W_IA] != 0)
        moves_b[at] = (work[rows, W_MB] != 0) | (work[rows, W_IB] != 0)
        block = w[t * FIELDS * CHUNK:(t + 1) * FIELDS * CHUNK].reshape(FIELDS, CHUNK)
        block[:len(contact), :len(rows)] = work[rows][:, contact].T
        for p in range(2):
            fields = [W_POINTS + p * Q_STRIDE + f for f in POINT_FIELDS]
            top = FIRST_POINT + p * len(POINT_FIELDS)
            block[top:top + len(fields), :len(rows)] = work[rows][:, fields].T
    return w, body_a, body_b, moves_a, moves_b, counts


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scene", default="pyramid:40", help="an engine.scenes builder[:size]")
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    work, wa, wb, state, stype = solver_rows(settled_world(args.scene, 90))
    chunks = colour_chunks(work, wa, wb, stype)
    scratch = np.zeros(VELOCITY_ROWS * CHUNK)
    inv_h = 60.0 * 7
    count = work.shape[0]
    print(f"{args.scene}: {count} contacts, colour chunks of {chunks[-1].tolist()}")

    def per_contact(solve):
        best = np.inf
        for _ in range(200):
            args_ = solve()
            t = time.perf_counter()
            args_[0](*args_[1:])
            best = min(best, time.perf_counter() - t)
        return best / count * 1e9

    def rows_run():
        return relax_rows, work.copy(), wa, wb, state.copy(), inv_h

    def chunks_run():
        return (relax_colour_chunks, chunks[0].copy(), *chunks[1:], state.copy(), scratch, inv_h)

    ratios = []
    for r in range(args.rounds):
        a, b = per_contact(rows_run), per_contact(chunks_run)
        ratios.append(b / a)
        print(f"round {r + 1}: rows {a:.1f} ns a contact, colour chunks {b:.1f} ns, chunks / rows {b / a:.2f}")
    print(f"median chunks / rows: {statistics.median(ratios):.2f}")
    s_rows, s_chunks = state.copy(), state.copy()
    relax_rows(work.copy(), wa, wb, s_rows, inv_h)
    relax_colour_chunks(chunks[0].copy(), *chunks[1:], s_chunks, scratch, inv_h)
    print(f"largest velocity difference between the two: {np.abs(s_rows[:, :3] - s_chunks[:, :3]).max():.1e}")


if __name__ == "__main__":
    main()
