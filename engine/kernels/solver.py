"""Solver stage: Box2D v3's soft step over all contacts (sequential impulses).

One call advances every body by one step ``dt`` in ``substeps`` substeps of ``h``::

    order the contacts with points by colour (coloring.py); integrate free bodies
    prepare contacts (anchors, effective masses, approach speeds)
    for each substep:
        integrate velocities (gravity, forces, damping) of bodies in contact
        warm start (apply last impulses)
        solve, biased: soft contacts push penetration out (at most ``pushout`` m/s)
        integrate positions of bodies in contact
        relax, unbiased: removes the velocity the bias added, and solves friction
    restitution (one pass, approach speeds above the threshold only)

Penetration is resolved along each contact's normal by the soft constraint ("positional
resolution" without a separate position pass); the separation of a point is predicted
each substep from the bodies' motion since the manifold was computed:
``s = adjusted + dot(dpB - dpA + rot(dqB) rB - rot(dqA) rA, n)``. A point with ``s > 0``
is speculative: its impulse may only stop the bodies from closing more than ``s`` in
this substep (``bias = s / h``), which is what keeps ordinary-speed bodies from tunnelling.

Sources: Box2D v3 ``src/solver.c``, ``src/contact_solver.c`` (``b2PrepareContactsTask``,
``b2WarmStartContactsTask``, ``b2SolveContact``, ``b2ApplyRestitutionTask``); Catto,
"Solver2D" (2024). Friction is solved in the relax pass only (Box2D #1050, 2026).
"""
import math

import numpy as np

from ._jit import njit, njit_inline
from .coloring import order_contacts
from .integrate import integrate_free, integrate_positions, integrate_velocities
from .layout import (STATE_SIZE, STATIC, C_COUNT, C_FRICTION, C_IIA, C_IIB, C_IMA, C_IMB, C_NX,
                     C_NY, C_POINTS, C_RESTITUTION, P_ADJ, P_SEP, S_DPX, S_DPY, S_QC, S_QS, S_VX,
                     S_VY, S_W,
                     P_MAXNI, P_NI, P_NMASS, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX,
                     P_RBY, P_RELV, P_STRIDE, P_TI, P_TMASS)


@njit
def _softness(hertz, zeta, h):
    """(bias rate, mass scale, impulse scale) of a spring-damper contact (b2MakeSoft)."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@njit
def _prepare(rows, cba, cbb, inv_mass, inv_inertia, state):
    for i in range(rows.shape[0]):
        a = cba[i]
        b = cbb[i]
        ma = inv_mass[a]
        mb = inv_mass[b]
        ia = inv_inertia[a]
        ib = inv_inertia[b]
        rows[i, C_IMA] = ma
        rows[i, C_IMB] = mb
        rows[i, C_IIA] = ia
        rows[i, C_IIB] = ib
        nx = rows[i, C_NX]
        ny = rows[i, C_NY]
        tx = ny
        ty = -nx
        for p in range(int(rows[i, C_COUNT])):
            base = C_POINTS + p * P_STRIDE
            rax = rows[i, base + P_RAX]
            ray = rows[i, base + P_RAY]
            rbx = rows[i, base + P_RBX]
            rby = rows[i, base + P_RBY]
            rna = rax * ny - ray * nx
            rnb = rbx * ny - rby * nx
            k = ma + mb + ia * rna * rna + ib * rnb * rnb
            rows[i, base + P_NMASS] = 1.0 / k if k > 0.0 else 0.0
            rta = rax * ty - ray * tx
            rtb = rbx * ty - rby * tx
            k = ma + mb + ia * rta * rta + ib * rtb * rtb
            rows[i, base + P_TMASS] = 1.0 / k if k > 0.0 else 0.0
            dvx = state[b, S_VX] - state[b, S_W] * rby - state[a, S_VX] + state[a, S_W] * ray
            dvy = state[b, S_VY] + state[b, S_W] * rbx - state[a, S_VY] - state[a, S_W] * rax
            rows[i, base + P_RELV] = dvx * nx + dvy * ny


@njit_inline
def _push(px, py, ma, mb, ia, ib, rax, ray, rbx, rby, vax, vay, wa, vbx, vby, wb):
    """Velocities of A and B after the impulse (px, py): -P at anchor rA, +P at rB."""
    return (vax - ma * px, vay - ma * py, wa - ia * (rax * py - ray * px),
            vbx + mb * px, vby + mb * py, wb + ib * (rbx * py - rby * px))


@njit_inline
def _store(state, body, inv_mass, inv_inertia, vx, vy, w):
    """Write a body's velocity back, unless contacts cannot change it (static and
    kinematic bodies): an unneeded store would chain every contact of the ground into
    one sequence of store-to-load dependencies."""
    if inv_mass != 0.0 or inv_inertia != 0.0:
        state[body, S_VX] = vx
        state[body, S_VY] = vy
        state[body, S_W] = w


@njit
def _warm_start(rows, cba, cbb, state):
    for i in range(rows.shape[0]):
        a = cba[i]
        b = cbb[i]
        ma = rows[i, C_IMA]
        mb = rows[i, C_IMB]
        ia = rows[i, C_IIA]
        ib = rows[i, C_IIB]
        nx = rows[i, C_NX]
        ny = rows[i, C_NY]
        vax = state[a, S_VX]
        vay = state[a, S_VY]
        wa = state[a, S_W]
        vbx = state[b, S_VX]
        vby = state[b, S_VY]
        wb = state[b, S_W]
        for p in range(int(rows[i, C_COUNT])):
            base = C_POINTS + p * P_STRIDE
            ni = rows[i, base + P_NI]
            ti = rows[i, base + P_TI]
            vax, vay, wa, vbx, vby, wb = _push(ni * nx + ti * ny, ni * ny - ti * nx, ma, mb, ia, ib,
                                               rows[i, base + P_RAX], rows[i, base + P_RAY],
                                               rows[i, base + P_RBX], rows[i, base + P_RBY],
                                               vax, vay, wa, vbx, vby, wb)
        _store(state, a, ma, ia, vax, vay, wa)
        _store(state, b, mb, ib, vbx, vby, wb)


@njit_inline
def _normal_speed(rows, i, base, nx, ny, vax, vay, wa, vbx, vby, wb):
    """Relative normal speed at the point whose columns start at ``base``."""
    rax = rows[i, base + P_RAX]
    ray = rows[i, base + P_RAY]
    rbx = rows[i, base + P_RBX]
    rby = rows[i, base + P_RBY]
    return (vbx - wb * rby - vax + wa * ray) * nx + (vby + wb * rbx - vay - wa * rax) * ny


@njit
def _solve(rows, cba, cbb, state, inv_h, soft_dyn, soft_static, pushout, impact_gap, use_bias,
           reverse):
    for i in range(rows.shape[0]):
        count = int(rows[i, C_COUNT])
        a = cba[i]
        b = cbb[i]
        ma = rows[i, C_IMA]
        mb = rows[i, C_IMB]
        ia = rows[i, C_IIA]
        ib = rows[i, C_IIB]
        bias_rate, mass_scale, impulse_scale = soft_static if (ma == 0.0 or mb == 0.0) else soft_dyn
        nx = rows[i, C_NX]
        ny = rows[i, C_NY]
        vax = state[a, S_VX]
        vay = state[a, S_VY]
        wa = state[a, S_W]
        vbx = state[b, S_VX]
        vby = state[b, S_VY]
        wb = state[b, S_W]
        ddx = state[b, S_DPX] - state[a, S_DPX]
        ddy = state[b, S_DPY] - state[a, S_DPY]
        qca = state[a, S_QC]
        qsa = state[a, S_QS]
        qcb = state[b, S_QC]
        qsb = state[b, S_QS]
        # Normal speeds before this contact's impulses: the impact speed, should a
        # speculative point first push in this pass (see below). Only points that have
        # not pushed yet this step need it.
        vn0 = 0.0
        vn1 = 0.0
        if rows[i, C_POINTS + P_MAXNI] == 0.0:
            vn0 = _normal_speed(rows, i, C_POINTS, nx, ny, vax, vay, wa, vbx, vby, wb)
        if count == 2 and rows[i, C_POINTS + P_STRIDE + P_MAXNI] == 0.0:
            vn1 = _normal_speed(rows, i, C_POINTS + P_STRIDE, nx, ny, vax, vay, wa, vbx, vby, wb)
        for q in range(count):
            p = count - 1 - q if reverse else q
            base = C_POINTS + p * P_STRIDE
            rax = rows[i, base + P_RAX]
            ray = rows[i, base + P_RAY]
            rbx = rows[i, base + P_RBX]
            rby = rows[i, base + P_RBY]
            # predicted separation from the motion of the core points since the
            # manifold was made
            qax = rows[i, base + P_QAX]
            qay = rows[i, base + P_QAY]
            qbx = rows[i, base + P_QBX]
            qby = rows[i, base + P_QBY]
            dx = ddx + (qcb * qbx - qsb * qby) - (qca * qax - qsa * qay)
            dy = ddy + (qsb * qbx + qcb * qby) - (qsa * qax + qca * qay)
            s = dx * nx + dy * ny + rows[i, base + P_ADJ]
            if s > 0.0:
                bias = s * inv_h  # speculative: may close exactly the gap, no more
                ms = 1.0
                isc = 0.0
            elif use_bias:
                bias = max(mass_scale * bias_rate * s, -pushout)
                ms = mass_scale
                isc = impulse_scale
            else:
                bias = 0.0
                ms = 1.0
                isc = 0.0
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            acc = rows[i, base + P_NI]
            imp = -rows[i, base + P_NMASS] * (ms * vn + bias) - isc * acc
            new = max(acc + imp, 0.0)
            imp = new - acc
            rows[i, base + P_NI] = new
            if new > rows[i, base + P_MAXNI]:
                first = vn0 if p == 0 else vn1
                if (rows[i, base + P_MAXNI] == 0.0 and first < rows[i, base + P_RELV]
                        and rows[i, base + P_SEP] > impact_gap):
                    # First push of a point that started the step apart: the bodies
                    # meet now, after gravity sped them up since the step began.
                    # Restitution answers this impact speed, not the one the step
                    # started with. Points that started touching keep their start
                    # speed: in a row of touching balls, the speed a push passed down
                    # the row within this step is no impact, and answering it as one
                    # created energy (a struck row of five came off with 2.2 times it).
                    rows[i, base + P_RELV] = first
                rows[i, base + P_MAXNI] = new
            vax, vay, wa, vbx, vby, wb = _push(imp * nx, imp * ny, ma, mb, ia, ib, rax, ray, rbx,
                                               rby, vax, vay, wa, vbx, vby, wb)
        if not use_bias:
            # Friction, in the relax pass only: the biased pass's extra velocity would
            # otherwise leak into the friction impulses (Box2D #1050).
            tx = ny
            ty = -nx
            friction = rows[i, C_FRICTION]
            for q in range(count):
                p = count - 1 - q if reverse else q
                base = C_POINTS + p * P_STRIDE
                rax = rows[i, base + P_RAX]
                ray = rows[i, base + P_RAY]
                rbx = rows[i, base + P_RBX]
                rby = rows[i, base + P_RBY]
                dvx = vbx - wb * rby - vax + wa * ray
                dvy = vby + wb * rbx - vay - wa * rax
                vt = dvx * tx + dvy * ty
                acc = rows[i, base + P_TI]
                limit = friction * rows[i, base + P_NI]
                new = min(max(acc - rows[i, base + P_TMASS] * vt, -limit), limit)
                imp = new - acc
                rows[i, base + P_TI] = new
                vax, vay, wa, vbx, vby, wb = _push(imp * tx, imp * ty, ma, mb, ia, ib, rax, ray,
                                                   rbx, rby, vax, vay, wa, vbx, vby, wb)
        _store(state, a, ma, ia, vax, vay, wa)
        _store(state, b, mb, ib, vbx, vby, wb)


@njit
def _restitution(rows, cba, cbb, state, threshold):
    """Bounce: drive each impacting point's normal speed to ``-e`` times its impact speed.

    Box2D does one pass, which its own comment calls approximate for two-point
    manifolds: the second point's impulse changes the first's speed (a box landing flat
    with e = 1 came off at 85 % of its speed, spinning). Iterating the two points of a
    manifold to convergence gives the exact simultaneous answer; a few sweeps suffice.
    """
    for i in range(rows.shape[0]):
        e = rows[i, C_RESTITUTION]
        count = int(rows[i, C_COUNT])
        if e == 0.0:
            continue
        a = cba[i]
        b = cbb[i]
        ma = rows[i, C_IMA]
        mb = rows[i, C_IMB]
        ia = rows[i, C_IIA]
        ib = rows[i, C_IIB]
        nx = rows[i, C_NX]
        ny = rows[i, C_NY]
        sweeps = 1 if count == 1 else 16
        for _ in range(sweeps):
            moved = 0.0
            for p in range(count):
                base = C_POINTS + p * P_STRIDE
                relv = rows[i, base + P_RELV]
                # only real impacts: fast approach, and a point that actually touched
                if relv > -threshold or rows[i, base + P_MAXNI] == 0.0:
                    continue
                rax = rows[i, base + P_RAX]
                ray = rows[i, base + P_RAY]
                rbx = rows[i, base + P_RBX]
                rby = rows[i, base + P_RBY]
                dvx = state[b, S_VX] - state[b, S_W] * rby - state[a, S_VX] + state[a, S_W] * ray
                dvy = state[b, S_VY] + state[b, S_W] * rbx - state[a, S_VY] - state[a, S_W] * rax
                vn = dvx * nx + dvy * ny
                acc = rows[i, base + P_NI]
                new = max(acc - rows[i, base + P_NMASS] * (vn + e * relv), 0.0)
                imp = new - acc
                moved += abs(imp)
                rows[i, base + P_NI] = new
                if new > rows[i, base + P_MAXNI]:
                    rows[i, base + P_MAXNI] = new
                px = imp * nx
                py = imp * ny
                state[a, S_VX] -= ma * px
                state[a, S_VY] -= ma * py
                state[a, S_W] -= ia * (rax * py - ray * px)
                state[b, S_VX] += mb * px
                state[b, S_VY] += mb * py
                state[b, S_W] += ib * (rbx * py - rby * px)
            if moved <= 1e-12 * (1.0 + abs(rows[i, C_POINTS + P_NI])):
                break


@njit
def step_bodies(dt, substeps, gx, gy, hertz, zeta, pushout, restitution_threshold, impact_gap,
                max_speed, max_rotation,
                btype, inv_mass, inv_inertia, com, force, torque, lin_damp, ang_damp,
                gravity_scale, pos, angle, vel, angvel, moved, cba, cbb, rows):
    """Advance all bodies by ``dt``, solving the contacts in ``rows``.

    Parameters
    ----------
    dt : float
        Step in seconds; ``substeps`` substeps of ``h = dt / substeps``.
    gx, gy : float
        Gravity (m/s^2).
    hertz, zeta : float
        Contact stiffness (clamped to a quarter of the substep rate; doubled for
        contacts with a static or kinematic body) and damping ratio.
    pushout, restitution_threshold, max_speed, max_rotation : float
        Limits; see ``engine.constants``.
    impact_gap : float
        A point whose manifold separation exceeds this (m) started the step apart: its
        impact speed for restitution is taken when it first pushes.
    btype ... angvel : body columns, (n,) or (n, 2); ``pos``, ``angle``, ``vel``,
        ``angvel`` are updated in place, ``force``/``torque`` cleared.
    moved : uint8 (n,)
        Set to 1 for bodies whose pose changed in this step, else 0 (2 on entry, set by
        the world for a body it moved by hand, also counts as moved).
    cba, cbb : int32 (m,)
        Body of each contact's piece A and B.
    rows : float64 (m, CONTACT_SIZE)
        Contact rows from the narrowphase; impulses accumulate in place.
    """
    n = btype.shape[0]
    h = dt / substeps
    inv_h = 1.0 / h
    center = np.empty((n, 2))
    for i in range(n):
        center[i, 0] = pos[i, 0]
        center[i, 1] = pos[i, 1]
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:  # most bodies are centred: no trig
            c = math.cos(angle[i])
            s = math.sin(angle[i])
            center[i, 0] += c * com[i, 0] - s * com[i, 1]
            center[i, 1] += s * com[i, 0] + c * com[i, 1]
    center0 = center.copy()
    angle0 = angle.copy()
    state = np.zeros((n, STATE_SIZE))
    for i in range(n):
        state[i, S_VX] = vel[i, 0]
        state[i, S_VY] = vel[i, 1]
        state[i, S_W] = angvel[i]
        state[i, S_QC] = 1.0
    hz = min(hertz, 0.25 * inv_h)
    soft_dyn = _softness(hz, zeta, h)
    soft_static = _softness(min(2.0 * hertz, 0.25 * inv_h), zeta, h)

    # Contacts with points, in colour order; bodies that touch one are integrated
    # substep by substep around the contact passes, free ones in one go.
    order = np.empty(rows.shape[0], np.int32)
    in_contact = np.zeros(n, np.uint8)
    order = order[:order_contacts(rows, cba, cbb, inv_mass, inv_inertia, order, in_contact)]
    integrate_free(substeps, h, gx, gy, btype, in_contact, inv_mass, inv_inertia, force, torque,
                   lin_damp, ang_damp, gravity_scale, state, max_speed, max_rotation, center,
                   angle)

    # The passes run over a copy of the active rows in that order: contiguous reads,
    # where the rows themselves interleave active and empty pairs (rain2000: 9400 rows,
    # 6000 active, 3.3 MB, beyond the core's L2); impulses are copied back at the end.
    count = order.shape[0]
    work = np.empty((count, rows.shape[1]))
    wa = np.empty(count, np.int32)
    wb = np.empty(count, np.int32)
    for k in range(count):
        i = order[k]
        work[k, :] = rows[i, :]
        wa[k] = cba[i]
        wb[k] = cbb[i]

    _prepare(work, wa, wb, inv_mass, inv_inertia, state)
    for sub in range(substeps):
        # Alternate the order of a manifold's two points between substeps so that the
        # Gauss-Seidel bias of solving one point first does not accumulate into spin.
        reverse = sub % 2 == 1
        integrate_velocities(h, gx, gy, btype, in_contact, inv_mass, inv_inertia, force, torque,
                             lin_damp, ang_damp, gravity_scale, state, max_speed, max_rotation)
        _warm_start(work, wa, wb, state)
        _solve(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout, impact_gap, True, reverse)
        integrate_positions(h, btype, in_contact, state, center, angle, center0)
        _solve(work, wa, wb, state, inv_h, soft_dyn, soft_static, pushout, impact_gap, False,
               reverse)
    _restitution(work, wa, wb, state, restitution_threshold)
    for k in range(count):
        rows[order[k], :] = work[k, :]

    for i in range(n):
        vel[i, 0] = state[i, S_VX]
        vel[i, 1] = state[i, S_VY]
        angvel[i] = state[i, S_W]
        force[i, 0] = 0.0
        force[i, 1] = 0.0
        torque[i] = 0.0
        if btype[i] == STATIC:
            continue
        x = center[i, 0]
        y = center[i, 1]
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:
            c = math.cos(angle[i])
            s = math.sin(angle[i])
            x -= c * com[i, 0] - s * com[i, 1]
            y -= s * com[i, 0] + c * com[i, 1]
        # Moved: the broadphase must re-box this body's pieces next step.
        moved[i] = x != pos[i, 0] or y != pos[i, 1] or angle[i] != angle0[i] or moved[i] == 2
        pos[i, 0] = x
        pos[i, 1] = y
