"""Kernels of the sensor pass: which shapes overlap each sensor after the step, and which
crossed it within the step.

Sensors are shapes that never push: their pieces form no contact pairs and live in a
tree of their own (so a scene with and without a sensor steps bit for bit alike). After
the step, each sensor piece queries the two body trees with its box (swept over its own
motion); each candidate piece that may visit it (not a sensor, not on the same body, not
both on static bodies, admitted by the filters) is tested exactly: overlapping at the
step's end, or, if not, touching at some time of the step when both bodies move from
their start poses to their end poses (conservative advancement, ``collision/toi.py``).
The second test is what catches a fast body crossing a thin sensor within one step,
which Box2D documents that its sensors miss.
"""
import math

import numpy as np

from .._jit import borrowed, njit
from ..broadphase.filter_rule import box_misses, should_collide
from ..broadphase.tree_ops import META_ROOT, tree_collect, tree_move
from ..collision.toi import MISS, piece_toi
from ..dynamics.sweeps import body_sweep
from ..constants import LANE_WIDTH, STATIC
from ..geometry.convex import piece_box

OVERLAPS = 1  # the visitor overlaps the sensor at the end of the step
CROSSED = 2  # it touched the sensor during the step but does not overlap it at the end


@njit
def _sweep(bodies, i, moving):
    """Sweep tuple of body ``i`` about its centre of mass (``collision/toi.py``): from
    its start pose to its end pose, or held at its end pose."""
    pos, angle = bodies.pos, bodies.angle
    pos0, angle0 = (bodies.pos0, bodies.angle0) if moving else (pos, angle)
    return body_sweep(pos0, angle0, pos, angle, bodies.com, np.int64(i), bodies.turn,
                      np.int64(2 if moving else 0))


@njit
def _box(bodies, pieces, p):
    """The piece's tight box over the step: at its start pose united with its end pose."""
    b = pieces.body[p]
    v, s, k, r = pieces.verts, pieces.start[p], pieces.count[p], pieces.radius[p]
    x0, y0, x1, y1 = piece_box(v, s, k, r, bodies.pos[b, 0], bodies.pos[b, 1],
                               math.cos(bodies.angle[b]), math.sin(bodies.angle[b]), 0.0)
    u0, v0, u1, v1 = piece_box(v, s, k, r, bodies.pos0[b, 0], bodies.pos0[b, 1],
                               math.cos(bodies.angle0[b]), math.sin(bodies.angle0[b]), 0.0)
    return min(x0, u0), min(y0, v0), max(x1, u1), max(y1, v1)


@njit
def _visits(sensor, visitor, bodies, pieces, shapes):
    """Whether piece ``visitor`` may visit sensor piece ``sensor`` at all."""
    bs = pieces.body[sensor]
    bv = pieces.body[visitor]
    if bs == bv or bv < 0 or (bodies.btype[bs] == STATIC and bodies.btype[bv] == STATIC):
        return False
    if bodies.lane[bs] != bodies.lane[bv]:  # two worlds of a WorldBatch
        return False
    ss = pieces.shape[sensor]
    sv = pieces.shape[visitor]
    if shapes.sensor[sv]:
        return False
    return should_collide(shapes.category[ss], shapes.mask[ss], shapes.group[ss],
                          shapes.category[sv], shapes.mask[sv], shapes.group[sv])


@njit
def sensor_visits(sensors, bodies, pieces, shapes, trees):
    """Test every sensor piece against the pieces near it.

    ``sensors`` int64 (s,): the sensor pieces; ``bodies``, ``pieces``: the world's
    ``BodyArrays`` and ``PieceArrays``; ``shapes``: the shape columns (``sensor``,
    ``category``, ``mask``, ``group``); ``trees``: the moving, static and sensor trees'
    ``TreeArrays``. Moving sensors' leaves in the sensor tree are moved to their boxes.

    Returns int64 (k,) keys ``(sensor_shape << 32) | visitor_shape`` and int8 (k,)
    ``OVERLAPS`` or ``CROSSED`` per key, one entry per piece pair (unsorted).
    """
    # borrowed: the helpers compiled apart, called per candidate, count no references
    sensors, bodies, pieces, shapes, trees = borrowed((sensors, bodies, pieces, shapes, trees))
    keys = np.empty(16, np.int64)
    kinds = np.empty(16, np.int8)
    n = 0
    out = np.empty(64, np.int64)
    kmax = 1
    for p in range(pieces.count.shape[0]):
        kmax = max(kmax, pieces.count[p])
    scratch = np.empty((2 * kmax + 1, 2))
    st = trees[2]
    for s in sensors:
        x0, y0, x1, y1 = _box(bodies, pieces, s)
        shift = bodies.lane[pieces.body[s]] * LANE_WIDTH  # 0 outside a WorldBatch
        if bodies.btype[pieces.body[s]] != STATIC:
            tree_move(st.aabb, st.parent, st.child1, st.child2, st.height, st.user, st.meta,
                      pieces.node[s], x0 + shift, y0, x1 + shift, y1)
        out, hits = tree_candidates(trees[0].aabb, trees[0].child1, trees[0].child2,
                                    trees[0].height, trees[0].user, trees[0].meta,
                                    trees[1].aabb, trees[1].child1, trees[1].child2,
                                    trees[1].height, trees[1].user, trees[1].meta,
                                    x0 + shift, y0, x1 + shift, y1, out)
        for h in range(hits):
            v = out[h]
            if not _visits(s, v, bodies, pieces, shapes) or box_misses(pieces.fat, v, x0, y0, x1, y1):
                continue
            kind = _touch(s, v, bodies, pieces, scratch)
            if kind == 0:
                continue
            if n == keys.shape[0]:
                keys = np.concatenate((keys, np.empty(n, np.int64)))
                kinds = np.concatenate((kinds, np.empty(n, np.int8)))
            keys[n] = (np.int64(pieces.shape[s]) << 32) | pieces.shape[v]
            kinds[n] = kind
            n += 1
    return keys[:n].copy(), kinds[:n].copy()


@njit
def _touch(s, v, bodies, pieces, scratch):
    """OVERLAPS, CROSSED or 0 for sensor piece ``s`` and visitor piece ``v``."""
    verts = pieces.verts
    target = pieces.radius[s] + pieces.radius[v]
    tol = 1e-9 * (1.0 + bodies.extent[pieces.body[s]] + bodies.extent[pieces.body[v]])
    bs = pieces.body[s]
    bv = pieces.body[v]
    t = piece_toi(verts, pieces.start[s], pieces.count[s], _sweep(bodies, bs, False),
                  verts, pieces.start[v], pieces.count[v], _sweep(bodies, bv, False),
                  target, tol, scratch)[0]
    if t == 0.0:
        return OVERLAPS
    t = piece_toi(verts, pieces.start[s], pieces.count[s], _sweep(bodies, bs, True),
                  verts, pieces.start[v], pieces.count[v], _sweep(bodies, bv, True),
                  target, tol, scratch)[0]
    return CROSSED if t != MISS else 0


@njit
def tree_candidates(aabb, child1, child2, height, user, meta,
                    s_aabb, s_child1, s_child2, s_height, s_user, s_meta, x0, y0, x1, y1, out):
    """Pieces under the box [x0, y0, x1, y1] in two broadphase trees (their fat boxes):
    ``(out, count)``, ``out`` grown (a new array) when the pieces do not fit. For the sensor
    stage; the queries search their snapshot instead (``query_kernels.py``)."""
    depth = 0
    if meta[META_ROOT] >= 0:
        depth = height[meta[META_ROOT]]
    if s_meta[META_ROOT] >= 0:
        depth = max(depth, s_height[s_meta[META_ROOT]])
    stack = np.empty(depth + 2, np.int32)
    out, n = tree_collect(aabb, child1, child2, height, user, meta[META_ROOT], x0, y0, x1, y1,
                          stack, out, 0)
    return tree_collect(s_aabb, s_child1, s_child2, s_height, s_user, s_meta[META_ROOT],
                        x0, y0, x1, y1, stack, out, n)
