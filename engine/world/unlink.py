"""What ``World.destroy_bodies`` does before the body rows go, for all its bodies at once.

``World.destroy_body`` unlinks one body: it wakes what touches it, destroys its joints
one by one and detaches its shapes one by one (``bulk.unlink_body``). For many bodies
(a ragdoll, a drop of ragdolls) those steps cost Python calls per joint, shape and
piece, and each looks through the pairs and the touching keys again. Here each step
runs once over all the bodies, and the stores end as the one-by-one path leaves them:
the same free rows in the same order (later rows are handed out alike), the same tree
removals in the same order, the same pairs, keys and wake-ups.
"""
import numpy as np

from . import sleeping
from .attach import compact_geometry
from ..broadphase.tree_ops import tree_remove_many
from ..constants import STATIC

__all__ = ["unlink_bodies"]


def unlink_bodies(state, rows, bodies):
    """Unlink body rows ``rows`` (a list, with ``bodies`` their handles, in the caller's
    order): wake their islands and what touches them, destroy their joints, detach
    their shapes. The rows themselves stay for the caller to delete."""
    _wake_around(state, rows)
    if len(state.joints):
        _remove_joints(state, rows)
    handles = [h for body in bodies for h in body._shapes]
    if handles:
        _detach_shapes(state, handles)
    for body in bodies:
        body._shapes = []


def _wake_around(state, rows):
    """``sleeping.wake_neighbours`` of each of ``rows``: their islands wake, and the
    islands of the bodies their pairs reach."""
    for i in rows:
        sleeping.wake(state, i)
    if len(state.pairs) == 0:
        return
    a, b = state.pairs.pieces()
    body = state.pieces.body
    ba, bb = body[a], body[b]
    going = np.zeros(state.bodies.used, bool)
    going[rows] = True
    near = np.concatenate([bb[going[ba] & (ba != bb)], ba[going[bb] & (ba != bb)]])
    if near.size == 0:
        return
    state.bodies.sleep_time[near] = 0.0
    if state.asleep_count:
        for k in np.unique(near[state.bodies.asleep[near] != 0]):
            sleeping.wake(state, int(k))


def _remove_joints(state, rows):
    """Destroy the joints of body ``rows``, in the order ``joint_rows.remove_joint`` on
    the joints of each body in turn would free their rows."""
    store = state.joints
    c = store.columns
    n = c.used
    found = np.flatnonzero((c.kind[:n] >= 0) & (np.isin(c.body_a[:n], rows)
                                                | np.isin(c.body_b[:n], rows)))
    if found.size == 0:
        return
    position = {i: k for k, i in enumerate(rows)}
    ends_a, ends_b = c.body_a[found], c.body_b[found]
    # each joint goes with the first of its bodies in ``rows``, joints of one body in
    # row order
    first = [min(position.get(a, len(rows)), position.get(b, len(rows)))
             for a, b in zip(ends_a.tolist(), ends_b.tolist())]
    order = found[np.argsort(first, kind="stable")].tolist()
    for r in order:
        store.handles[r] = None
    store.breakable -= int(np.count_nonzero(np.isfinite(c.break_force[found])
                                            | np.isfinite(c.break_torque[found])))
    apart = found[(c.collide[found] == 0) & (ends_a != ends_b)]
    for i in np.unique(np.concatenate([ends_a, ends_b])).tolist():
        sleeping.wake(state, i)
    going = set(rows)
    for i in np.unique(np.concatenate([c.body_a[apart], c.body_b[apart]])).tolist():
        if i in going:  # what mark_placed would do more than _wake_around did
            state.placed = True
        else:
            state.mark_placed(i)  # bodies kept apart look for their pairs again
    c.release_many(order)
    c.version += 1
    store.count -= len(order)
    state.restructure()


def _detach_shapes(state, handles):
    """``body_shapes._detach`` of each of ``handles`` (shape handles, in order): their
    pieces leave the trees, the pairs and the piece store, their touching and
    overlapping keys end at the next step, their ids are freed."""
    P = state.pieces
    pieces = [p for h in handles for p in h._pieces.tolist()]
    if state.sensor_pieces.size:
        state.sensor_pieces = np.setdiff1d(state.sensor_pieces, pieces)
    _leave_trees(state, np.array(pieces, np.int64))
    state.free_vertices += int(P.count[pieces].sum())
    if len(state.pairs):
        a, b = state.pairs.pieces()
        dead = np.zeros(P.used, bool)
        dead[pieces] = True
        gone = dead[a] | dead[b]
        if gone.any():
            state.pairs.keep(~gone)
    P.release_many(pieces)
    sids = [h._id for h in handles]
    _end_keys(state, sids)
    if state.one_way_count:
        state.one_way_count -= int(np.count_nonzero(state.shapes.one_way[sids].any(axis=1)))
    for h in handles:
        state.shape_handles[h._id] = None
        h._body = None  # the handle raises from now on
    state.shapes.release_many(sids)
    if state.free_vertices > max(64, state.geometry.used // 2):
        compact_geometry(state)
    state.touch(shapes=True)


def _leave_trees(state, pieces):
    """Remove ``pieces`` (live, int64) from their trees: one kernel call per tree, each
    tree's leaves in the order given, which leaves every tree as removing them one by
    one would (``state.tree_of``)."""
    P = state.pieces
    sensor = P.sensor[pieces] != 0
    static = state.bodies.btype[P.body[pieces]] == STATIC
    for tree, pick in ((state.sensor_tree, sensor), (state.static_tree, ~sensor & static),
                       (state.tree, ~sensor & ~static)):
        nodes = P.node[pieces[pick]].astype(np.int64)
        if nodes.size:
            tree_remove_many(*tree.arrays, nodes)


def _end_keys(state, sids):
    """The touching and overlapping shape-pair keys of shapes ``sids`` move to the keys
    that end at the next step (``attach.free_shape_id``)."""
    for keys, ended in (("touching", "pending_ends"), ("overlapping", "pending_sensor_ends")):
        current = getattr(state, keys)
        if current.size == 0:
            continue
        mine = np.isin(current >> 32, sids) | np.isin(current & 0xFFFFFFFF, sids)
        if not mine.any():
            continue
        setattr(state, ended, list(getattr(state, ended)) + current[mine].tolist())
        setattr(state, keys, current[~mine])
        if state.handlers:  # separate callbacks still get both handles
            for k in current[mine].tolist():
                state.removed_handles[k] = (state.shape_handles[k >> 32],
                                            state.shape_handles[k & 0xFFFFFFFF])

