"""Islands and sleeping: a resting group of bodies stops costing anything.

An *island* is a set of dynamic bodies linked by touching contacts (rows with points)
and joints; static and kinematic bodies never link (a floor does not join everything
on it into one island). After each step, :func:`update_sleep` advances every awake
body's ``sleep_time`` (reset while its speed plus turn rate times extent exceeds its
``sleep_threshold``, while it cannot sleep, or while a moving kinematic body touches it
or is joined to it), finds the islands by union-find over the awake bodies, and puts an
island to sleep when all its bodies have rested for ``time_to_sleep``: their velocities
are zeroed and they get the island's label. A sleeping body is static for the solver
(``soft_step._solver_types``): its rows and joints are not solved (``coloring``,
``joints/solver``) and its proxies do not move. Its pairs' manifolds come from their
cache (the poses do not change), so its contacts and their impulses are kept and it
wakes where it was.

:func:`wake_touched` (after the narrowphase) wakes every sleeping island that an awake
dynamic body or a moving kinematic body now has a contact row or a joint with. The
world wakes a body's island when the user changes it (``WorldState.wake``).

Box2D v3 keeps islands persistently (linking when a contact begins, splitting lazily);
here they are found afresh each step over the awake bodies, a loop of a few
microseconds for a thousand bodies, with nothing to keep consistent (``docs/sleeping.md``).
"""
import math

import numpy as np

from .._jit import borrowed, njit, njit_inline
from ..constants import DYNAMIC, KINEMATIC, STATIC
from ..joints.layout import FILTER
from ..contacts.layout import C_COUNT


@njit_inline
def find_root(parent, i):
    """Root of ``i`` in the union-find forest ``parent``, halving the path on the way
    (the islands here and in ``solve_blocks``).

    Examples
    --------
    >>> import numpy as np
    >>> parent = np.array([0, 0, 1, 2], np.int32)
    >>> int(find_root(parent, 3)), parent.tolist()
    (0, [0, 0, 1, 1])
    """
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit_inline
def _moving_kinematic(btype, vel, angvel, i):
    return btype[i] == KINEMATIC and (vel[i, 0] != 0.0 or vel[i, 1] != 0.0 or angvel[i] != 0.0)


@njit_inline
def _link(parent, btype, asleep, vel, angvel, sleep_time, a, b):
    """Join the islands of ``a`` and ``b`` when both are awake dynamic bodies; a moving
    kinematic body keeps the dynamic one awake."""
    dyn_a = btype[a] == DYNAMIC and not asleep[a]
    dyn_b = btype[b] == DYNAMIC and not asleep[b]
    if dyn_a and dyn_b:
        ra = find_root(parent, a)
        rb = find_root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    elif dyn_a and _moving_kinematic(btype, vel, angvel, b):
        sleep_time[a] = 0.0
    elif dyn_b and _moving_kinematic(btype, vel, angvel, a):
        sleep_time[b] = 0.0


@njit
def update_sleep(bodies, links, dt, time_to_sleep, label):
    """Advance sleep timers, find the awake islands, put the rested ones to sleep.

    ``bodies``: ``(btype, asleep, vel, angvel, extent, sleep_threshold, can_sleep,
    sleep_time, island)`` columns of the live bodies (the last four and ``vel``,
    ``angvel`` written); ``links``: ``(rows, pair_bodies, joint_kind, joint_a,
    joint_b)`` (contact rows with points link their two bodies, ``pair_bodies[:, r]``
    for row ``r < len(rows)``; live joints theirs, except filter joints). ``label``:
    the next island label. Returns ``(label, awake,
    sleeping)``: the next free label and the numbers of awake and sleeping non-static
    bodies.
    """
    n = bodies[0].shape[0]
    return _sleep_islands(bodies, links, dt, time_to_sleep, label, np.arange(n), np.full(n, np.inf),
                          np.full(n, -1, np.int64))


@njit
def _sleep_islands(bodies, links, dt, time_to_sleep, label, parent, rested, labels):
    """:func:`update_sleep` with its work arrays as arguments (``parent`` the identity,
    ``rested`` inf, ``labels`` -1, one entry per body), so that all its arrays can be
    borrowed: the union-find helpers, inlined once per contact row and per body, then
    cost no atomic reference counts (rain2000: 2 % of a step)."""
    bodies, links, parent, rested, labels = borrowed((bodies, links, parent, rested, labels))
    btype, asleep, vel, angvel, extent, threshold, can_sleep, sleep_time, island = bodies
    rows, pair_bodies, kind, ja, jb = links
    n = btype.shape[0]
    for i in range(n):
        if btype[i] != DYNAMIC or asleep[i]:
            continue
        speed = math.sqrt(vel[i, 0] ** 2 + vel[i, 1] ** 2) + extent[i] * abs(angvel[i])
        if not can_sleep[i] or speed > threshold[i]:
            sleep_time[i] = 0.0
        else:
            sleep_time[i] += dt
    for r in range(rows.shape[0]):
        a, b = pair_bodies[0, r], pair_bodies[1, r]
        # Pairs of sleeping (or sleeping and static) bodies link nothing: tested before
        # their contact row is read, so a sleeping pile costs little here.
        if (asleep[a] or btype[a] == STATIC) and (asleep[b] or btype[b] == STATIC):
            continue
        if rows[r, C_COUNT] > 0.0:
            _link(parent, btype, asleep, vel, angvel, sleep_time, a, b)
    for k in range(kind.shape[0]):
        if kind[k] >= 0 and kind[k] != FILTER:
            _link(parent, btype, asleep, vel, angvel, sleep_time, ja[k], jb[k])
    for i in range(n):
        if btype[i] == DYNAMIC and not asleep[i]:
            r = find_root(parent, i)
            rested[r] = min(rested[r], sleep_time[i])
    awake = 0
    sleeping = 0
    for i in range(n):
        if btype[i] == STATIC:
            continue
        if asleep[i]:
            sleeping += 1
            continue
        if btype[i] != DYNAMIC:
            awake += 1
            continue
        r = find_root(parent, i)
        if rested[r] < time_to_sleep:
            awake += 1
            continue
        if labels[r] < 0:
            labels[r] = label
            label += 1
        asleep[i] = 1
        island[i] = labels[r]
        vel[i, 0] = 0.0
        vel[i, 1] = 0.0
        angvel[i] = 0.0
        sleeping += 1
    return label, awake, sleeping


@njit
def wake_touched(bodies, links):
    """Wake the sleeping islands that an awake dynamic or moving kinematic body has a
    contact row with points or a joint with (same arguments as :func:`update_sleep`).
    Returns the number of bodies woken."""
    bodies, links = borrowed((bodies, links))  # no atomic counts per call of _mark
    btype, asleep, vel, angvel, extent, threshold, can_sleep, sleep_time, island = bodies
    rows, pair_bodies, kind, ja, jb = links
    count = 0
    wake = np.empty(rows.shape[0] + kind.shape[0], np.int64)
    for r in range(rows.shape[0]):
        a, b = pair_bodies[0, r], pair_bodies[1, r]
        if asleep[a] == asleep[b]:  # both awake or both asleep: nothing to wake
            continue
        if rows[r, C_COUNT] > 0.0:
            count = _mark(wake, count, btype, asleep, vel, angvel, island, a, b)
    for k in range(kind.shape[0]):
        if kind[k] >= 0 and kind[k] != FILTER:
            count = _mark(wake, count, btype, asleep, vel, angvel, island, ja[k], jb[k])
    if count == 0:
        return 0
    marked = np.unique(wake[:count])
    woken = 0
    for i in range(btype.shape[0]):
        if asleep[i]:
            j = np.searchsorted(marked, island[i])
            if j < marked.shape[0] and marked[j] == island[i]:
                asleep[i] = 0
                island[i] = -1
                sleep_time[i] = 0.0
                woken += 1
    return woken


@njit
def _mark(wake, count, btype, asleep, vel, angvel, island, a, b):
    """Append the island of whichever of ``a``, ``b`` sleeps while the other is awake."""
    for s, o in ((a, b), (b, a)):
        if asleep[s] and not asleep[o] and (btype[o] == DYNAMIC
                                              or _moving_kinematic(btype, vel, angvel, o)):
            wake[count] = island[s]
            count += 1
    return count
