"""Build a ``WorldBatch``'s merged world: n copies of a template world, one per lane.

The merged world is an ordinary ``World`` whose stores hold the template's rows n
times over, lane after lane: bodies ``k * B .. (k + 1) * B - 1`` are lane ``k``'s, and
the same for shapes, pieces, geometry and joints. Every index a row holds (a piece's
body, shape and first vertex; a joint's bodies; a pair key's pieces; a shape-pair key)
is moved by its lane's offset. Because each lane's rows keep their order and lane k's
pair keys all sort after lane k-1's, every stage meets a lane's rows in the order the
template alone would, and a lane steps bit for bit as the template does.

The lanes share the broadphase trees, with lane k's leaves moved ``k * LANE_WIDTH``
along x so their subtrees never overlap (``constants.LANE_WIDTH``); the exact tests
use the unmoved boxes, and bodies of two lanes never pair (``filter_rule``).
"""
import copy

import numpy as np

from .. import constants as K
from .._store import Handles

__all__ = ["merge"]


def merge(world, template, n):
    """Fill ``world`` (a new, empty ``World``) with ``n`` lanes of ``template``'s state."""
    t, state = template._state, world._state
    if t.locked:
        raise RuntimeError("the world is being stepped; replicate it before or after World.step")
    if t.pending_ends or t.pending_sensor_ends or t.removed_handles:
        raise ValueError("the template has shapes removed since its last step; step it once "
                         "(or replicate it before removing them)")
    _settings(state, t, n)
    b, s, p, g = (t.bodies.used, t.shapes.used, t.pieces.used, t.geometry.used)
    _tile_bodies(state, t, n, b)
    _tile(state.shapes, t.shapes, n, {"body": b})
    _tile(state.pieces, t.pieces, n, {"body": b, "shape": s, "start": g})
    _tile(state.geometry, t.geometry, n, {})
    state.free_vertices = t.free_vertices * n
    _tile(state.joints.columns, t.joints.columns, n, {"body_a": b, "body_b": b})
    _handles(world, state, t, n, b, s, p)
    _trees(state)
    _pairs(state, t, n, b, p)
    _small(state, t, n, s, p)
    return state


def _settings(state, t, n):
    for name in ("substeps", "mixing", "joint_hertz", "joint_zeta", "joint_iterations",
                 "sleeping", "time_to_sleep", "hit_threshold", "placed"):
        setattr(state, name, getattr(t, name))
    state.gravity = t.gravity
    state.lane_gravity = np.tile(np.array(t.gravity, np.float64), (n, 1))
    state.handlers = list(t.handlers)
    state.one_way_count = t.one_way_count * n


def _tile(dst, src, n, shifts):
    """Rows ``[:used]`` of ``src`` n times into the empty ``Columns`` ``dst``; the columns
    named in ``shifts`` hold indices moved by ``k * shifts[name]`` in lane k (free
    entries, -1, stay -1). Free rows are free in every lane."""
    m = src.used
    dst.append(m * n)
    for name in src.names():
        col = getattr(src, name)[:m]
        tiled = np.concatenate([col] * n) if n else col[:0]
        if name in shifts:
            lane = np.repeat(np.arange(n, dtype=np.int64), m)
            live = tiled >= 0
            tiled = np.where(live, tiled + lane * shifts[name], tiled).astype(col.dtype)
        getattr(dst, name)[: m * n] = tiled
    dst.free = [f + k * m for k in range(n) for f in src.free]


def _tile_bodies(state, t, n, b):
    _tile(state.bodies, t.bodies, n, {})
    bodies = state.bodies
    bodies.lane[: b * n] = np.repeat(np.arange(n, dtype=np.int32), b)
    island = bodies.island[: b * n]
    lane = np.repeat(np.arange(n, dtype=np.int64), b)
    np.copyto(island, np.where(island >= 0, island + lane * t.next_island, island))
    state.next_island = t.next_island * n
    state.asleep_count = t.asleep_count * n
    state.awake = -1


def _handles(world, state, t, n, b, s, p):
    """Body, shape and joint handles for every lane (user data copied by reference)."""
    state.body_keys = Handles()
    state.handles, state.shape_handles = [], [None] * (s * n)
    shape_of = {}
    for k in range(n):
        for i, old in enumerate(t.handles):
            body = copy.copy(old)
            body._world, body._state = world, state
            body._key = state.body_keys.new(k * b + i)
            body._shapes = []
            for h in old._shapes:
                new = copy.copy(h)
                new._body, new._id = body, h._id + k * s
                new._pieces = h._pieces + k * p
                body._shapes.append(new)
                state.shape_handles[new._id] = new
                shape_of[new._id] = new
            state.handles.append(body)
    joints, tj = state.joints, t.joints
    joints.handles = [None] * (tj.columns.used * n)
    for k in range(n):
        for row, old in enumerate(tj.handles):
            if old is not None:
                new = copy.copy(old)
                new._state, new._row = state, row + k * tj.columns.used
                joints.handles[new._row] = new
    joints.count, joints.breakable = tj.count * n, tj.breakable * n
    joints.columns.version += 1


def _trees(state):
    """Insert every live piece's leaf (its fat box moved by its lane) and rebuild."""
    P, B = state.pieces, state.bodies
    for tree in (state.tree, state.static_tree, state.sensor_tree):
        tree.__init__()
    for q in np.flatnonzero(P.body[: P.used] >= 0):
        f = P.fat[q]
        shift = B.lane[P.body[q]] * K.LANE_WIDTH
        P.node[q] = state.tree_of(q).insert((f[0] + shift, f[1], f[2] + shift, f[3]), int(q))
    for tree in (state.tree, state.static_tree, state.sensor_tree):
        if tree.leaf_count:
            tree.rebuild()


def _pairs(state, t, n, b, p):
    """The template's tracked pairs in every lane, keys and bodies moved by the lane."""
    pairs, tp = state.pairs, t.pairs
    m = tp.keys.size
    if m == 0:
        return
    if tp.rows.shape[0] != m:
        raise RuntimeError("the template's pairs and contact rows disagree; step it once first")
    saved = tp.snapshot()
    keys, hist, rows, results, bodies, dropped = saved
    lane = np.repeat(np.arange(n, dtype=np.int64), m)
    pk = np.tile(keys, n)
    pk = pk + ((lane * p) << 32) + lane * p
    rep = lambda a: np.concatenate([a] * n)  # noqa: E731  (rows of every lane)
    moved_bodies = rep(bodies) + (np.repeat(np.arange(n, dtype=np.int64), bodies.shape[0]) * b)[:, None]
    pairs.restore((pk, rep(hist), rep(rows), rep(results), moved_bodies.astype(np.int32),
                   None if dropped is None else rep(dropped)))


def _shape_key(keys, n, s):
    """Shape-pair keys ``(a << 32) | b`` of every lane, both shapes moved by ``k * s``."""
    keys = np.asarray(keys, np.int64)
    lane = np.repeat(np.arange(n, dtype=np.int64), keys.size)
    tiled = np.tile(keys, n)
    return tiled + ((lane * s) << 32) + lane * s


def _small(state, t, n, s, p):
    state.touching = _shape_key(t.touching, n, s)
    state.overlapping = _shape_key(t.overlapping, n, s)
    state.disabled = set(_shape_key(sorted(t.disabled), n, s).tolist())
    state.one_way_off = set(_shape_key(sorted(t.one_way_off), n, s).tolist())
    sensors = np.asarray(t.sensor_pieces, np.int64)
    state.sensor_pieces = (np.tile(sensors, n)
                           + np.repeat(np.arange(n, dtype=np.int64), sensors.size) * p)
    state.restructure()
