"""Collisions before the substeps: bouncy bodies that touch, or meet within the step,
collide one pair at a time in the order the collisions happen.

A push passed down a row of touching balls is then a chain of collisions, as in Newton's
cradle, and not a load the soft solver spreads over the row (Guendelman, Bridson and
Fedkiw 2003, "Nonconvex rigid bodies with stacking": a collision phase before the
contact phase). Box2D v3 has no such phase: its cradle of touching balls passes on
0.33-0.55 of the striker's speed to the last ball.

Which points collide: those of contacts with restitution at least
``IMPACT_MIN_RESTITUTION`` that approach faster than the restitution threshold and touch
now, or meet within the step at the speeds the bodies have now (two dynamic bodies; a
body that hits a static or kinematic one across a gap is answered by ``restitution.py``
after the substeps, with the impact speed gravity gave it during the step). Collisions
are taken earliest first from a heap of meeting times; after each, the contacts of the
two bodies get new times. Each body moves at constant velocity between its collisions,
so one whose velocity changes by ``dv`` at ``tau`` is shifted by ``-dv tau`` before the
substeps and ends the step where its velocities before and after would have taken it.
"""
import math

import numpy as np

from .._jit import njit, njit_inline
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from ..constants import IMPACTS_PER_CONTACT
from .chunk_layout import (CHUNK, O_ADJ, O_COUNT, O_MA, O_MAXNI, O_MB, O_NI, O_NX, O_NY, O_P0,
                           O_P1, O_RESTITUTION, O_TI, O_TOTNI, O_TOTTI, offset)
from .contact_solver import point_separation
from .restitution import drive_normal, normal_speed
from .time_heap import heap_pop, heap_push


@njit
def impacts(chunks, state, least, threshold, touching, dt, h, center, center0, angle):
    """Collide the points of contacts with restitution at least ``least`` that approach
    faster than ``threshold`` (m/s) and touch (are at most ``touching`` m apart) or meet
    within the step ``dt`` (s), earliest first.

    Also those that meet within the first substep ``h`` after the step, at its end:
    the last substep's relax pass would stop them (its speculative look-ahead).

    Each collision of a contact with restitution ``e`` turns its points' normal speeds
    ``vn`` into ``-e vn`` (two points together), keeps momentum and, with ``e <= 1``,
    loses energy or keeps it; its impulse counts in the point's impulse over the step
    (``O_TOTNI``) and the point's warm start is dropped. A contact that collided has its
    restitution negated, which tells ``restitution`` it is answered. At most
    ``IMPACTS_PER_CONTACT`` collisions per such contact (the threshold ends a chain of
    ever slower ones first). Ties in time go in solve order.

    A collision at time ``tau`` of the step that changes a body's velocity by ``dv``
    (linear and angular) shifts it by ``-dv tau`` (``_shift_bodies``: ``center`` and
    ``angle``, and the state's motion since ``center0``). Returns how many collisions
    there were.
    """
    cw, ca, cb, _, _, _, _ = chunks
    tau_max = (dt + h) * (1.0 + 1e-9)  # (a gap the look-ahead closes exactly)
    bouncy = _bouncy(chunks, least)
    m = bouncy.shape[0]
    if m == 0:
        return 0
    shift = np.zeros((0, 3))
    since = np.zeros(0)
    heap = (np.empty(m), np.empty(m, np.int64), np.empty(m, np.int64))
    size = np.int64(0)
    for k in range(m):
        tau = _meeting(chunks, bouncy[k], state, threshold, touching, since, shift)
        if tau <= tau_max:
            heap, size = heap_push(heap, size, tau, k, np.int64(0))
    if size == 0:
        return 0
    n = state.shape[0]
    since = np.zeros(n)  # each body's last collision
    shift = np.zeros((n, 3))
    starts, links = _links(ca, cb, bouncy, n)
    version = np.zeros(m, np.int64)
    collided = np.zeros(m, np.int64)  # (each contact's own budget: worlds of a batch
    events = 0  # step as they would alone)
    while size > 0:
        tau, k, stamp, size = heap_pop(heap, size)
        if stamp != version[k] or collided[k] == IMPACTS_PER_CONTACT:
            continue  # its bodies collided since (a newer entry holds its time), or spent
        collided[k] += 1
        events += 1
        g = bouncy[k]
        c = offset(g // CHUNK, g % CHUNK)
        a, b = ca[g], cb[g]
        _collide(cw, c, a, b, state, threshold, min(tau, dt), shift)
        since[a] = min(tau, dt)
        since[b] = min(tau, dt)
        for side in range(2):
            i = a if side == 0 else b
            if cw[c + (O_MA if side == 0 else O_MB)] == 0.0:
                continue  # static or kinematic: its velocity did not change
            for q in range(starts[i], starts[i + 1]):
                other = links[q]
                version[other] += 1
                tau = _meeting(chunks, bouncy[other], state, threshold, touching, since, shift)
                if tau <= tau_max:
                    heap, size = heap_push(heap, size, tau, other, version[other])
    _shift_bodies(chunks, shift, state, center, center0, angle, dt)
    return events


@njit_inline
def _bouncy(chunks, least):
    """The contacts with restitution at least ``least``, as
    ``t * CHUNK + j`` (chunk ``t``, lane ``j``). Counted first: most scenes have none,
    and then allocate nothing."""
    cw, _, _, first, size, _, _ = chunks
    m = 0
    for t in range(first.shape[0]):
        for j in range(size[t]):
            m += cw[offset(t, j) + O_RESTITUTION] >= least
    found = np.empty(m, np.int64)
    m = 0
    if found.shape[0]:
        for t in range(first.shape[0]):
            for j in range(size[t]):
                if cw[offset(t, j) + O_RESTITUTION] >= least:
                    found[m] = t * CHUNK + j
                    m += 1
    return found


@njit_inline
def _links(ca, cb, bouncy, n):
    """Each body's bouncy contacts: ``links[starts[i]:starts[i + 1]]`` are the indices
    into ``bouncy`` of body ``i``'s."""
    starts = np.zeros(n + 1, np.int64)
    for g in bouncy:
        starts[ca[g] + 1] += 1
        starts[cb[g] + 1] += 1
    for i in range(n):
        starts[i + 1] += starts[i]
    links = np.empty(starts[n], np.int64)
    fill = starts[:n].copy()
    for k in range(bouncy.shape[0]):
        for i in (ca[bouncy[k]], cb[bouncy[k]]):
            links[fill[i]] = k
            fill[i] += 1
    return starts, links


@njit_inline
def _shift_bodies(chunks, shift, state, center, center0, angle, dt):
    """Move the bodies by ``impacts``' shifts before the substeps: their centres of mass,
    angles and the state's motion since ``center0`` (so that every contact sees them
    where they are). Two bodies that collided at ``tau`` and part at the normal speed
    ``u`` then overlap by ``u tau`` (they touch at ``tau``): each point of a contact that
    collided has its separation raised back towards what it was at the step's start (0
    if that was a gap), or the substeps would push the bodies apart a second time; by at
    most the distance ``u dt`` the point parts by in the step, so that an overlap the
    step will not undo stays visible to the solver."""
    for i in range(shift.shape[0]):
        center[i, 0] += shift[i, 0]
        center[i, 1] += shift[i, 1]
        state[i, S_DPX] = center[i, 0] - center0[i, 0]
        state[i, S_DPY] = center[i, 1] - center0[i, 1]
        turn = shift[i, 2]
        if turn != 0.0:
            angle[i] += turn
            qc, qs = math.cos(turn), math.sin(turn)
            state[i, S_QC], state[i, S_QS] = qc, qs
    cw, ca, cb, first, size, _, _ = chunks
    for t in range(first.shape[0]):
        for j in range(size[t]):
            c = offset(t, j)
            if cw[c + O_RESTITUTION] >= 0.0:
                continue  # did not collide
            a, b = ca[t * CHUNK + j], cb[t * CHUNK + j]
            nx, ny = cw[c + O_NX], cw[c + O_NY]
            dn = (state[b, S_DPX] - state[a, S_DPX]) * nx + (state[b, S_DPY] - state[a, S_DPY]) * ny
            motion = (dn, state[a, S_QC], state[a, S_QS], state[b, S_QC], state[b, S_QS])
            for p in range(int(cw[c + O_COUNT])):
                o = c + (O_P0 if p == 0 else O_P1)
                before = min(point_separation(cw, o, (0.0, 1.0, 0.0, 1.0, 0.0)), 0.0)
                parting = normal_speed(cw, c, o, a, b, state) * dt
                cw[o + O_ADJ] += max(min(before - point_separation(cw, o, motion), parting), 0.0)


@njit
def _meeting(chunks, g, state, threshold, touching, since, shift):
    """When in the step a point of contact ``g`` (``t * CHUNK + j``) meets faster than
    ``threshold``, at the bodies' present velocities: ``inf`` if none does (see
    ``impacts``). ``since``: each body's last collision (empty: none yet)."""
    cw, ca, cb, _, _, _, _ = chunks
    c = offset(g // CHUNK, g % CHUNK)
    a, b = ca[g], cb[g]
    start = 0.0
    dn = 0.0  # B's shift relative to A's along the normal
    if since.shape[0]:
        start = max(since[a], since[b])
        dn = ((shift[b, 0] - shift[a, 0]) * cw[c + O_NX] + (shift[b, 1] - shift[a, 1]) * cw[c + O_NY])
    motion = (dn, 1.0, 0.0, 1.0, 0.0)
    both = cw[c + O_MA] > 0.0 and cw[c + O_MB] > 0.0
    tau = math.inf
    for p in range(int(cw[c + O_COUNT])):
        o = c + (O_P0 if p == 0 else O_P1)
        vn = normal_speed(cw, c, o, a, b, state)
        if vn >= -threshold:
            continue
        gap = point_separation(cw, o, motion) + vn * start  # at ``start``
        if gap <= touching or both:
            tau = min(tau, start + max(gap, 0.0) / -vn)
    return tau


@njit_inline
def _collide(cw, c, a, b, state, threshold, tau, shift):
    """The collision of contact ``c`` at ``tau`` (see ``impacts``)."""
    count = int(cw[c + O_COUNT])
    e = abs(cw[c + O_RESTITUTION])
    v0 = normal_speed(cw, c, c + O_P0, a, b, state)
    v1 = normal_speed(cw, c, c + O_P1, a, b, state) if count > 1 else 0.0
    before = (state[a, S_VX], state[a, S_VY], state[a, S_W], state[b, S_VX], state[b, S_VY],
              state[b, S_W])
    i0, i1 = drive_normal(cw, c, a, b, e, state, threshold, v0, v1, 0.0, 0.0)
    cw[c + O_RESTITUTION] = -e
    _forget(cw, c + O_P0, i0)
    if count > 1:
        _forget(cw, c + O_P1, i1)
    shift[a, 0] -= (state[a, S_VX] - before[0]) * tau
    shift[a, 1] -= (state[a, S_VY] - before[1]) * tau
    shift[a, 2] -= (state[a, S_W] - before[2]) * tau
    shift[b, 0] -= (state[b, S_VX] - before[3]) * tau
    shift[b, 1] -= (state[b, S_VY] - before[4]) * tau
    shift[b, 2] -= (state[b, S_W] - before[5]) * tau


@njit_inline
def _forget(cw, o, impulse):
    """Count a collision's ``impulse`` in the point at ``o``'s impulses over the step, and
    drop its warm start: the load it carried before the collision is gone (replayed, it
    would push the next body of a row before the contact's own pass takes it back)."""
    cw[o + O_TOTNI] += cw[o + O_NI] + impulse
    cw[o + O_TOTTI] += cw[o + O_TI]
    cw[o + O_NI] = 0.0
    cw[o + O_TI] = 0.0
    cw[o + O_MAXNI] = max(cw[o + O_MAXNI], impulse)


