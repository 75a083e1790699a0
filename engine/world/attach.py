"""Attaching shapes to bodies: pieces, the vertex pool, broadphase proxies, mass properties.

Functions over the world's state (``state.py``), called by ``Body.add_shape``,
``Body.remove_shape``, ``World.destroy_body`` and the body-type and mass setters. The
arguments are validated by the callers before anything here touches the state.
"""
import math

import numpy as np

from .. import constants as K
from . import filter_kinds, sleeping
from ..broadphase.proxies import fat_box
from ..broadphase.tree_ops import tree_insert, tree_remove
from ..constants import DYNAMIC, STATIC
from ..contacts.pair_keys import keys_involve, pairs_kept_without
from ..geometry.mass import combine, min_extent

__all__ = ["compact_geometry", "new_shape_id", "write_filter", "set_sensor", "free_shape_id", "attach_pieces", "detach_pieces", "reinsert_pieces", "update_mass",
           "refilter_pairs", "drop_pairs_of_body", "write_mass"]


def new_shape_id(state, row, filter_, sensor):
    """A free shape id (a row of the shape store) for a shape on body ``row``."""
    shapes = state.shapes
    sid = shapes.alloc()
    shapes.body[sid] = row
    shapes.sensor[sid] = sensor
    write_filter(state, sid, filter_)
    while len(state.shape_handles) <= sid:
        state.shape_handles.append(None)
    return sid


def write_filter(state, sid, filter_):
    """Store ``filter_``'s bits in shape ``sid``'s columns."""
    shapes = state.shapes
    shapes.category[sid] = filter_.category
    shapes.mask[sid] = filter_.mask
    shapes.group[sid] = filter_.group
    filter_kinds.note(state, filter_.category, filter_.mask,
                      state.bodies.btype[shapes.body[sid]] == STATIC)
    state.touch(shapes=True)


def set_sensor(state, sid, pieces, sensor):
    """Make shape ``sid`` (piece rows ``pieces``) a sensor, or a solid shape again: its
    leaves move to the sensor tree or back, and its contact pairs are dropped (a sensor
    pushes nothing and visits no sensor). The next step's events end its contacts and
    its overlaps, whose keys are missing from what that step finds."""
    P = state.pieces
    for p in pieces:
        state.tree_of(p).remove(int(P.node[p]))
    state.shapes.sensor[sid] = sensor
    P.sensor[pieces] = sensor
    for p in pieces:
        P.node[p] = state.tree_of(p).insert(_leaf_box(state, p), p)
    if sensor:
        state.sensor_pieces = np.union1d(state.sensor_pieces, pieces)
    else:
        state.sensor_pieces = np.setdiff1d(state.sensor_pieces, pieces)
    if len(state.pairs):
        a, b = state.pairs.pieces()
        state.pairs.keep(~(np.isin(a, pieces) | np.isin(b, pieces)))
    state.touch(shapes=True)


def free_shape_id(state, sid):
    """Give shape id ``sid`` back (its shape was removed); its touching pairs end at the
    next step's events."""
    for keys, ended in (("touching", "pending_ends"), ("overlapping", "pending_sensor_ends")):
        current = getattr(state, keys)
        if current.size == 0 or not keys_involve(current, sid):
            continue
        mine = ((current >> 32) == sid) | ((current & 0xFFFFFFFF) == sid)
        if mine.any():
            setattr(state, ended, list(getattr(state, ended)) + [int(k) for k in current[mine]])
            setattr(state, keys, current[~mine])
            if state.handlers:  # separate callbacks still get both handles
                for k in current[mine]:
                    a, b = int(k >> 32), int(k & 0xFFFFFFFF)
                    state.removed_handles[int(k)] = (state.shape_handles[a], state.shape_handles[b])
    if state.one_way_count:
        state.one_way_count -= int(state.shapes.one_way[sid].any())
    state.shape_handles[sid] = None
    state.shapes.release(sid)


def attach_pieces(state, row, shape_id, shape, friction, restitution):
    """Copy ``shape``'s pieces into the stores and the trees for body ``row`` as shape
    ``shape_id``; returns the new piece rows (int64 array).

    One shape is added at a time by the API, so this is written for few pieces: Python
    numbers where NumPy scalars would cost more, the body's pose read once, each piece's
    box handed to the tree as worked out (``_insert_leaf``).
    """
    starts = shape._starts
    nv = int(starts[-1])
    geo = state.geometry
    g0 = geo.append(nv)
    geo.verts[g0:g0 + nv] = shape._verts
    geo.norms[g0:g0 + nv] = shape._norms
    geo.ghost[g0:g0 + nv] = shape._ghost
    P, b = state.pieces, state.bodies
    sensor = bool(state.shapes.sensor[shape_id])
    static = int(b.btype[row]) == STATIC
    tree = state.sensor_tree if sensor else state.static_tree if static else state.tree
    c, s = b.turn[row, :2].tolist()
    x, y = b.pos[row, 0], b.pos[row, 1]
    shift = int(b.lane[row]) * K.LANE_WIDTH
    verts, radius = geo.verts, shape._radius
    state.note_restitution(restitution)
    pieces = []
    for k in range(len(starts) - 1):
        p = P.alloc()
        start, count = g0 + int(starts[k]), int(starts[k + 1] - starts[k])
        P.body[p] = row
        P.shape[p] = shape_id
        P.sensor[p] = sensor
        P.start[p] = start
        P.count[p] = count
        P.radius[p] = radius
        P.friction[p] = friction
        P.restitution[p] = restitution
        x0, y0, x1, y1 = fat_box(verts, start, count, radius, x, y, c, s, static,
                                 K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION)
        P.fat[p] = (x0, y0, x1, y1)
        P.node[p] = _insert_leaf(tree, x0 + shift, y0, x1 + shift, y1, p)
        pieces.append(p)
    state.mark_placed(row)
    pieces = np.array(pieces, dtype=np.int64)
    if sensor:
        state.sensor_pieces = np.union1d(state.sensor_pieces, pieces)
    state.touch(shapes=True)
    return pieces


def _insert_leaf(tree, x0, y0, x1, y1, user):
    """``tree.insert((x0, y0, x1, y1), user)`` for a piece's own box, finite with min <=
    max, and a piece row as ``user``: the tree grows its pool as an insert does, and the
    box and user are not checked again (the checks cost what the insert does)."""
    tree.reserve(2)
    return int(tree_insert(*tree.arrays, x0, y0, x1, y1, user))


def detach_pieces(state, pieces):
    """Remove ``pieces`` from the trees, the pair set and the piece store; their vertex
    rows are freed by compacting the geometry pool once half of it is free."""
    if state.sensor_pieces.size:
        state.sensor_pieces = np.setdiff1d(state.sensor_pieces, pieces)
    P = state.pieces
    for p in pieces.tolist():
        state.free_vertices += int(P.count[p])
        tree_remove(*state.tree_of(p).arrays, int(P.node[p]))  # (a live leaf: not checked again)
        P.release(p)
    if len(state.pairs):
        keep, gone = pairs_kept_without(state.pairs.keys, np.asarray(pieces, np.int64))
        if gone:
            state.pairs.keep(keep)
    if state.free_vertices > max(64, state.geometry.used // 2):
        compact_geometry(state)
    state.touch(shapes=True)


def compact_geometry(state):
    """Move the live pieces' vertex rows to the front of the geometry pool, in order,
    and point the pieces at their new rows (the pool's free rows are given back)."""
    P, G = state.pieces, state.geometry
    live = np.flatnonzero(P.body[:P.used] >= 0)
    keep = np.zeros(G.used, bool)
    starts, counts = P.start[live], P.count[live]
    rows = np.repeat(starts, counts) + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
    keep[rows] = True
    new_row = np.cumsum(keep) - 1
    P.start[live] = new_row[starts]
    n = int(keep.sum())
    for column in (G.verts, G.norms, G.ghost):
        column[:n] = column[:G.used][keep]
    G.truncate(n)
    P.version += 1
    state.free_vertices = 0
    state.touch(shapes=True)


def reinsert_pieces(state, pieces, moved_trees=False):
    """Re-box ``pieces`` at their body's pose (a pose or type set by hand); with
    ``moved_trees`` their tree is chosen anew (the body type changed)."""
    P = state.pieces
    for p in pieces:
        if moved_trees and not P.sensor[p]:  # a sensor's piece stays in the sensor tree
            old = state.static_tree if state.tree_of(p) is state.tree else state.tree
            old.remove(int(P.node[p]))
            P.node[p] = state.tree_of(p).insert(_leaf_box(state, p), p)
        P.fat[p] = _fat_box(state, p)
        state.tree_of(p).move(int(P.node[p]), _leaf_box(state, p))


def _leaf_box(state, p):
    """Piece ``p``'s box in its tree: its fat box, moved along x by its body's lane
    offset (``constants.LANE_WIDTH``; 0 outside a ``WorldBatch``)."""
    x0, y0, x1, y1 = state.pieces.fat[p].tolist()  # (floats: no NumPy scalar arithmetic)
    shift = int(state.bodies.lane[state.pieces.body[p]]) * K.LANE_WIDTH
    return (x0 + shift, y0, x1 + shift, y1)


def refilter_pairs(state, pieces):
    """Drop the tracked pairs of ``pieces`` that their shapes' filters no longer admit."""
    a, b = state.pairs.pieces()
    involved = np.isin(a, pieces) | np.isin(b, pieces)
    if not involved.any():
        return
    P, S = state.pieces, state.shapes
    sa, sb = P.shape[a], P.shape[b]
    ga, gb = S.group[sa], S.group[sb]
    crossed = ((S.category[sa] & S.mask[sb]) != 0) & ((S.category[sb] & S.mask[sa]) != 0)
    admitted = np.where((ga == gb) & (ga != 0), ga > 0, crossed)
    state.pairs.keep(~involved | admitted)


def drop_pairs_of_body(state, row):
    """Forget every tracked pair of body ``row`` (its type changed)."""
    a, b = state.pairs.pieces()
    pb = state.pieces.body
    state.pairs.keep((pb[a] != row) & (pb[b] != row))


def _fat_box(state, p):
    """Piece ``p``'s fat box at its body's pose, ``(x0, y0, x1, y1)``."""
    P, b = state.pieces, state.bodies
    i = P.body[p]
    c, s = b.turn[i, :2].tolist()
    return fat_box(state.geometry.verts, P.start[p], P.count[p], P.radius[p],
                   b.pos[i, 0], b.pos[i, 1], c, s, b.btype[i] == STATIC,
                   K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION)


def write_mass(b, rows, dynamic, mass, inertia):
    """Mass, inertia and their inverses of body ``rows`` (a row or an array of rows of the
    body store ``b``) from their shapes' total: none unless ``dynamic``; a dynamic body
    without mass gets the documented unit mass and no rotation."""
    if not dynamic:
        b.mass[rows] = b.inv_mass[rows] = b.inertia[rows] = b.inv_inertia[rows] = 0.0
    elif mass > 0.0:
        b.mass[rows], b.inv_mass[rows] = mass, 1.0 / mass
        b.inertia[rows] = inertia
        b.inv_inertia[rows] = 1.0 / inertia if inertia > 0.0 else 0.0
    else:
        b.mass[rows] = b.inv_mass[rows] = 1.0
        b.inertia[rows] = b.inv_inertia[rows] = 0.0


def update_mass(state, row, attached):
    """Mass, centre of mass, inertia and extents of body ``row`` from its ``attached``
    shape handles; the velocity of the body's material points is kept."""
    b = state.bodies
    sleeping.wake(state, row)
    mass, (cx, cy), inertia, extent = combine([(h._shape, h._density) for h in attached])
    b.min_extent[row] = (attached[0]._shape._thin if len(attached) == 1  # (no generator)
                         else min_extent(h._shape for h in attached))
    ox, oy = b.com[row].tolist()  # (floats from here: no NumPy scalar arithmetic)
    b.com[row] = (cx, cy)
    write_mass(b, row, b.btype[row] == DYNAMIC, mass, inertia)
    b.extent[row] = extent
    if b.fixed_rotation[row]:
        b.inertia[row] = b.inv_inertia[row] = 0.0
    # The centre moved by d: keep the material points' velocity, v follows w x d.
    w = float(b.angvel[row])
    c, s = b.turn[row, :2].tolist()
    dx, dy = cx - ox, cy - oy
    wx, wy = c * dx - s * dy, s * dx + c * dy
    vx, vy = b.vel[row].tolist()
    b.vel[row] = (vx - w * wy, vy + w * wx)
