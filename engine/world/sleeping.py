"""Waking and putting to sleep from the Python side (``dynamics/sleep.py`` does it
within the step): what a user's change to a body, a joint or the world does to the
islands."""
import numpy as np

from ..constants import DYNAMIC
from ..contacts.layout import C_COUNT
from ..contacts.pair_keys import partners_of_body
from ..joints.layout import FILTER

__all__ = ["wake", "wake_neighbours", "wake_joined", "wake_all", "sleep_island", "sleep_columns", "sleep_links"]


def sleep_columns(state):
    """The body columns ``dynamics/sleep.py`` reads and writes, live rows only."""
    b = state.bodies
    n = b.used
    return (b.btype[:n], b.asleep[:n], b.vel[:n], b.angvel[:n], b.extent[:n],
            b.sleep_threshold[:n], b.can_sleep[:n], b.sleep_time[:n], b.island[:n])


def sleep_links(state):
    """``(rows, pair_bodies, joint_kind, joint_a, joint_b)``: what links bodies."""
    pairs = state.pairs
    m = len(pairs)
    pairs.reserve()
    joints = state.joints.arrays()
    # The whole (2, capacity) body array, not [:, :m]: a slice is C-contiguous only when
    # m is the capacity, and each layout was a compile of its own (the kernels read rows
    # < m only).
    return (pairs.rows[:m], pairs.bodies, joints.kind, joints.body_a, joints.body_b)


def wake(state, i):
    """Body row ``i`` was changed by the user: its sleep timer restarts, and if it sleeps
    its whole island wakes."""
    b = state.bodies
    b.sleep_time[i] = 0.0
    if b.asleep[i]:
        n = b.used
        members = (b.asleep[:n] != 0) & (b.island[:n] == b.island[i])
        b.asleep[:n][members] = 0
        b.island[:n][members] = -1
        b.sleep_time[:n][members] = 0.0
        state.awake = -1  # recounted at the end of the next step


def wake_neighbours(state, i):
    """Body row ``i`` is going: wake its island and those of the bodies it touches."""
    wake(state, i)
    if len(state.pairs) == 0:
        return
    near = partners_of_body(state.pairs.keys, state.pieces.body, i)
    if near.size == 0:
        return
    state.bodies.sleep_time[near] = 0.0  # what wake() does to an awake body
    if state.asleep_count:
        for k in np.unique(near[state.bodies.asleep[near] != 0]):
            wake(state, int(k))


def wake_joined(state, i):
    """Wake the bodies joined to body row ``i`` (its type changed: links changed)."""
    c = state.joints.columns
    for row in state.joints.rows_of_body(i):
        wake(state, int(c.body_a[row]))
        wake(state, int(c.body_b[row]))


def wake_all(state):
    """Every body awake, every timer restarted (sleeping switched off)."""
    b = state.bodies
    n = b.used
    b.asleep[:n] = 0
    b.island[:n] = -1
    b.sleep_time[:n] = 0.0
    state.awake = -1


def sleep_island(state, i):
    """Put body row ``i`` and every awake dynamic body linked to it (contact rows with
    points, joints) to sleep now, as one island (``body.awake = False``)."""
    b = state.bodies
    if b.btype[i] != DYNAMIC or b.asleep[i]:
        return
    rows, _, kind, ja, jb = sleep_links(state)
    # The pairs' bodies from their pieces: the pair set's body columns are written by the
    # narrowphase and go stale when a body is destroyed between steps (rows shift).
    pa, pb = state.pairs.pieces()
    pair_bodies = (state.pieces.body[pa], state.pieces.body[pb])
    touching = rows[:, C_COUNT] > 0.0
    live = (kind >= 0) & (kind != FILTER)
    edges_a = np.concatenate([pair_bodies[0][touching], ja[live]])
    edges_b = np.concatenate([pair_bodies[1][touching], jb[live]])
    dynamic = (b.btype[:b.used] == DYNAMIC) & (b.asleep[:b.used] == 0)
    island, frontier = {int(i)}, [int(i)]
    while frontier:
        at = np.isin(edges_a, frontier) | np.isin(edges_b, frontier)
        nearby = set(edges_a[at].tolist()) | set(edges_b[at].tolist())
        frontier = [k for k in nearby if k not in island and dynamic[k]]
        island.update(frontier)
    members = np.fromiter(island, np.int64)
    b.asleep[members] = 1
    b.island[members] = state.next_island
    state.next_island += 1
    b.vel[members] = 0.0
    b.angvel[members] = 0.0
    b.sleep_time[members] = 0.0
    state.awake = -1
    # The step wakes islands that an awake body touches only while some body sleeps
    # (``stages.wake``): without this count, a body put to sleep here and touched in the
    # next step stayed asleep, and the solver pushed it (a random stateful run).
    state.asleep_count += members.size
