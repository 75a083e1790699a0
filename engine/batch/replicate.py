"""Build a ``WorldBatch``'s merged world: one lane per source world.

The merged world is an ordinary ``World`` whose stores hold the sources' rows one source
after the other: bodies ``k * B .. (k + 1) * B - 1`` are lane ``k``'s, and the same for
shapes, pieces and joints (the geometry pool is concatenated too, each lane's piece rows
pointing into its own part). Every index a row holds (a piece's body, shape and first
vertex; a joint's bodies; a pair key's pieces; a shape-pair key; an island label) is
moved by its lane's offset. Because each lane's rows keep their order and lane k's pair
keys all sort after lane k-1's, every stage meets a lane's rows in the order its source
alone would, and a lane steps bit for bit as its source does.

The lanes share the broadphase trees, with lane k's leaves moved ``k * LANE_WIDTH``
along x so their subtrees never overlap (``constants.LANE_WIDTH``); the exact tests use
the unmoved boxes, and bodies of two lanes never pair (``filter_rule``).

The sources must have the same structure: as many bodies, shapes, pieces and joint rows
each, with the same free rows (their shapes, sizes, materials and states may differ).
"""
import copy

import numpy as np

from .. import constants as K
from .._store import Handles

__all__ = ["merge", "check_sources"]

_SETTINGS = ("substeps", "mixing", "joint_hertz", "joint_zeta", "joint_iterations", "sleeping",
             "time_to_sleep", "hit_threshold")


def check_sources(worlds):
    """Raise ``ValueError`` naming the first source that differs in structure or settings
    from the first one (they must be copies of one world up to state and materials)."""
    first = worlds[0]._state
    for k, w in enumerate(worlds):
        t = w._state
        if t.locked:
            raise RuntimeError("a world is being stepped; batch it before or after World.step")
        if t.pending_ends or t.pending_sensor_ends or t.removed_handles:
            raise ValueError(f"world {k} had shapes removed since its last step; step it once "
                             "(or batch it before removing them)")
        for what, a, b in (("bodies", t.bodies.used, first.bodies.used),
                           ("shape rows", t.shapes.used, first.shapes.used),
                           ("piece rows", t.pieces.used, first.pieces.used),
                           ("joint rows", t.joints.columns.used, first.joints.columns.used),
                           ("free shape rows", sorted(t.shapes.free), sorted(first.shapes.free)),
                           ("free piece rows", sorted(t.pieces.free), sorted(first.pieces.free)),
                           ("free joint rows", sorted(t.joints.columns.free),
                            sorted(first.joints.columns.free))):
            if a != b:
                raise ValueError(f"the worlds differ in structure: world {k} has {what} {a}, "
                                 f"world 0 has {b} (a batch's worlds must be copies of one world)")
        for name in _SETTINGS:  # gravity may differ: it is a per-world setting of a batch
            if getattr(t, name) != getattr(first, name):
                raise ValueError(f"the worlds differ in their setting {name!r} (world {k}: "
                                 f"{getattr(t, name)!r}, world 0: {getattr(first, name)!r})")


def merge(world, worlds):
    """Fill ``world`` (a new, empty ``World``) with one lane per world of ``worlds``."""
    state, srcs = world._state, [w._state for w in worlds]
    t = srcs[0]
    n = len(srcs)
    for name in _SETTINGS + ("placed",):
        setattr(state, name, getattr(t, name))
    state.placed = any(s.placed for s in srcs)
    state.bouncy = any(s.bouncy for s in srcs)
    state.gravity = t.gravity
    state.lane_gravity = np.array([s.gravity for s in srcs], np.float64)
    state.handlers = list(t.handlers)
    state.one_way_count = sum(s.one_way_count for s in srcs)
    b, s, p = t.bodies.used, t.shapes.used, t.pieces.used
    g = np.cumsum([0] + [src.geometry.used for src in srcs])  # each lane's first vertex row
    _stack(state.bodies, [src.bodies for src in srcs], {})
    _stack(state.shapes, [src.shapes for src in srcs], {"body": b})
    _stack(state.pieces, [src.pieces for src in srcs], {"body": b, "shape": s, "start": g})
    _stack_pool(state.geometry, [src.geometry for src in srcs])
    state.free_vertices = sum(src.free_vertices for src in srcs)
    _stack(state.joints.columns, [src.joints.columns for src in srcs], {"body_a": b, "body_b": b})
    _lanes_and_islands(state, srcs, b)
    _handles(world, state, worlds, b, s, p)
    _trees(state)
    _pairs(state, srcs, b, p)
    _small(state, srcs, s, p)
    state.restructure()
    return state


def _stack(dst, srcs, shifts):
    """Rows ``[:used]`` of each of ``srcs`` one after the other into the empty ``Columns``
    ``dst``; a column named in ``shifts`` holds indices moved, in lane k, by
    ``k * shifts[name]`` (an int) or ``shifts[name][k]`` (an array); free entries (-1)
    stay -1, and free rows are free in every lane."""
    m = srcs[0].used
    n = len(srcs)
    dst.append(m * n)
    lane = np.repeat(np.arange(n, dtype=np.int64), m)
    for name in srcs[0].names():
        stacked = np.concatenate([getattr(src, name)[:m] for src in srcs])
        if name in shifts:
            step = shifts[name]
            offset = lane * step if np.isscalar(step) else np.asarray(step)[lane]
            stacked = np.where(stacked >= 0, stacked + offset, stacked).astype(stacked.dtype)
        getattr(dst, name)[: m * n] = stacked
    dst.free = [f + k * m for k in range(n) for f in srcs[0].free]


def _stack_pool(dst, srcs):
    """The geometry pools one after the other (each lane's may have its own size)."""
    total = sum(src.used for src in srcs)
    dst.append(total)
    for name in srcs[0].names():
        getattr(dst, name)[:total] = np.concatenate([getattr(src, name)[: src.used] for src in srcs])


def _lanes_and_islands(state, srcs, b):
    """Each body's lane; sleeping islands' labels made distinct across lanes."""
    bodies, n = state.bodies, len(srcs)
    bodies.lane[: b * n] = np.repeat(np.arange(n, dtype=np.int32), b)
    labels = np.cumsum([0] + [src.next_island for src in srcs])
    island = bodies.island[: b * n]
    lane = np.repeat(np.arange(n, dtype=np.int64), b)
    np.copyto(island, np.where(island >= 0, island + labels[lane], island))
    state.next_island = int(labels[-1])
    state.asleep_count = sum(src.asleep_count for src in srcs)
    state.awake = -1


def _handles(world, state, worlds, b, s, p):
    """Body, shape and joint handles for every lane (user data copied by reference)."""
    state.body_keys = Handles()
    state.handles, state.shape_handles = [], [None] * (s * len(worlds))
    for k, source in enumerate(worlds):
        for i, old in enumerate(source._state.handles):
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
            state.handles.append(body)
    joints = state.joints
    j = worlds[0]._state.joints.columns.used
    joints.handles = [None] * (j * len(worlds))
    for k, source in enumerate(worlds):
        for row, old in enumerate(source._state.joints.handles):
            if old is not None:
                new = copy.copy(old)
                new._state, new._row = state, row + k * j
                joints.handles[new._row] = new
    joints.count = sum(w._state.joints.count for w in worlds)
    joints.breakable = sum(w._state.joints.breakable for w in worlds)
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


def _pairs(state, srcs, b, p):
    """Each source's tracked pairs in its lane, keys and bodies moved by the lane."""
    parts = []
    for k, src in enumerate(srcs):
        tp = src.pairs
        if tp.rows.shape[0] != tp.keys.size:
            raise RuntimeError("a world's pairs and contact rows disagree; step it once first")
        m = tp.keys.size
        dropped = tp.dropped if tp.dropped is not None else np.ones(m, np.uint8)
        parts.append((tp.keys + ((k * p) << 32) + k * p, tp.hist, tp.rows, tp.results,
                      (tp.bodies[:, :m] + k * b).astype(np.int32), dropped))
    if sum(part[0].size for part in parts) == 0:
        return
    keys, hist, rows, results, bodies, dropped = (np.concatenate(c, axis=-1 if i == 4 else 0)
                                                  for i, c in enumerate(zip(*parts)))
    state.pairs.load(keys, hist, rows, results, bodies, None if dropped.all() else dropped)


def _shape_keys(sets, s):
    """Shape-pair keys ``(a << 32) | b`` of every lane, both shapes moved by ``k * s``."""
    out = [np.asarray(sorted(keys), np.int64) + ((k * s) << 32) + k * s
           for k, keys in enumerate(sets)]
    return np.concatenate(out) if out else np.empty(0, np.int64)


def _small(state, srcs, s, p):
    state.touching = _shape_keys([src.touching.tolist() for src in srcs], s)
    state.overlapping = _shape_keys([src.overlapping.tolist() for src in srcs], s)
    state.disabled = set(_shape_keys([src.disabled for src in srcs], s).tolist())
    state.one_way_off = set(_shape_keys([src.one_way_off for src in srcs], s).tolist())
    state.sensor_pieces = np.concatenate(
        [np.asarray(src.sensor_pieces, np.int64) + k * p for k, src in enumerate(srcs)])
