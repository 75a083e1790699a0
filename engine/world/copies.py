"""Copying a world into another (a base class of ``World``): ``World.add_copy``.

A game spawns the same thing again and again: an enemy ragdoll, a car, a crate of
bottles. Built call by call, a ragdoll of 11 bodies, 13 shapes and 10 joints costs
about a millisecond of argument checks, store appends, mass sums and handles. Built
once in a small template ``World`` and copied in, its rows are appended to each store
in one block per store: the body, shape, piece, vertex and joint rows are the
template's own (already checked, their masses already summed), with every index they
hold moved to the rows they land on. Only the broadphase leaves are made piece by piece
(in one kernel call per tree) and the handles object by object.

The copy is the template's state, moved by ``offset``: poses, velocities, materials,
filters, sensors, one-way platforms, joints with their settings and accumulated
impulses, user data (by reference). It starts awake, with no contacts: its contacts
with anything are found by the next step, as for bodies made by hand.
"""
import numpy as np

from .. import constants as K
from .._checks import as_vec2
from ..broadphase.proxies import insert_pieces
from ..constants import MOVED_BY_HAND, STATIC
from ..joints.layout import J_TX, J_TY, MOUSE
from . import filter_kinds
from .body import Body
from .shape_handle import ShapeHandle
from .state import ProxyParams

__all__ = ["WorldCopies"]


class WorldCopies:
    """``World.add_copy``: a template world's bodies, shapes and joints copied in."""

    def add_copy(self, template, offset=(0.0, 0.0), *, velocity=None):
        """Add a copy of everything in ``template`` (another ``World``, or this one),
        moved by ``offset``; returns the new bodies and joints.

        Bit for bit the bodies, shapes and joints ``template`` holds, in its body order,
        with their poses moved by ``offset`` (their angles, materials, filters, masses,
        velocities, joint settings and user data as they are there). The copies start
        awake and without contacts. ``template`` is not changed. For a spawned object
        this is many times faster than building it call by call (a ragdoll: about 14
        times, ``docs/performance.md``), and ``template`` can be kept for the next one.

        Parameters
        ----------
        template : World
            The world to copy (not a ``WorldBatch``'s); the settings of this world
            (gravity, substeps, ...) apply to the copy.
        offset : (float, float)
            Added to every body's position, in m (each copied position must stay within
            +-``MAX_COORDINATE``; a mouse joint's target moves too).
        velocity : (float, float), optional
            If given, the linear velocity of every copied non-static body, in m/s
            (within +-``MAX_INPUT_SPEED``); else the template's velocities.

        Returns
        -------
        bodies : list of Body
            The new bodies, in the template's body order.
        joints : list of Joint
            The new joints, in the order of the template's joint ids.

        Raises
        ------
        TypeError
            ``template`` is not a ``World``.
        ValueError
            An ``offset`` or ``velocity`` that is not finite or out of range, or a
            ``WorldBatch``'s world. Nothing is added.
        RuntimeError
            Either world is being stepped.

        Examples
        --------
        >>> from engine import World, Circle
        >>> crate = World()
        >>> box = crate.create_body(position=(0, 1))
        >>> _ = box.add_shape(Circle(0.5), friction=0.3)
        >>> box.user_data = "crate"
        >>> world = World()
        >>> bodies, joints = world.add_copy(crate, (5, 0))
        >>> bodies[0].position, bodies[0].user_data, bodies[0].shapes[0].friction
        ((5.0, 1.0), 'crate', 0.3)
        """
        from .world import World  # (World derives from this class)

        if not isinstance(template, World):
            raise TypeError(f"template must be an engine.World, got {type(template).__name__}")
        src, dst = template._state, self._state
        offset, velocity = _checked(src, dst, offset, velocity)
        if src.bodies.used == 0:
            return [], []
        rows_of = _read(src)  # everything read before anything is written: a world may
        # copy itself
        i0 = _body_rows(dst, rows_of["bodies"], offset, velocity)
        shape_map = _shape_rows(dst, rows_of["shapes"], i0)
        g0 = _vertex_rows(dst, rows_of["geometry"], src.free_vertices)
        piece_map = _piece_rows(dst, rows_of["pieces"], i0, shape_map, g0)
        joint_rows = _joint_rows(dst, rows_of["joints"], i0, offset)
        bodies = _body_handles(self, dst, rows_of["handles"], i0, shape_map, piece_map)
        joints = _joint_handles(dst, rows_of["joint_handles"], joint_rows)
        dst.placed = True
        dst.awake = -1  # not known: the next step counts them
        dst.touch(shapes=True)
        return bodies, joints


def _checked(src, dst, offset, velocity):
    """``(offset, velocity)`` as floats, once both worlds may take a copy and no body
    would land beyond ``MAX_COORDINATE``; raises otherwise."""
    dx, dy = as_vec2(offset, "offset", K.MAX_COORDINATE, "m")
    if velocity is not None:
        velocity = as_vec2(velocity, "velocity", K.MAX_INPUT_SPEED, "m/s")
    for state in (src, dst):
        state.check_unlocked()
        if state.lane_gravity is not None:
            raise ValueError("add_copy works on single worlds, not a WorldBatch's merged world")
    pos = src.bodies.pos[:src.bodies.used]
    for k, d in enumerate((dx, dy)):
        moved = pos[:, k] + d
        if moved.size and not np.all(np.abs(moved) <= K.MAX_COORDINATE):
            raise ValueError(f"offset[{k}] = {d} moves a body to "
                             f"{moved[np.argmax(np.abs(moved))]} m, beyond the "
                             f"+-{K.MAX_COORDINATE:g} m a position may take")
    return (dx, dy), velocity


def _live(columns, rows):
    """``{name: copy of rows ``rows`` of column name}`` of a ``Columns``."""
    return {name: getattr(columns, name)[rows].copy() for name in columns.names()}


def _read(src):
    """The template's live rows of every store, and its handles, as copies."""
    b, s, p, g, j = src.bodies, src.shapes, src.pieces, src.geometry, src.joints.columns
    shapes = np.flatnonzero(s.body[:s.used] >= 0)
    pieces = np.flatnonzero(p.body[:p.used] >= 0)
    joints = np.flatnonzero(j.kind[:j.used] >= 0)
    return {"bodies": _live(b, slice(0, b.used)), "shapes": (shapes, _live(s, shapes)),
            "pieces": (pieces, _live(p, pieces)), "geometry": _live(g, slice(0, g.used)),
            "joints": _live(j, joints), "handles": list(src.handles),
            "joint_handles": [src.joints.handles[k] for k in joints.tolist()]}


def _body_rows(dst, cols, offset, velocity):
    """Append the body rows, moved by ``offset``, awake and placed by hand; returns the
    first new row."""
    b = dst.bodies
    n = cols["pos"].shape[0]
    i0 = b.append(n)
    rows = slice(i0, i0 + n)
    for name, values in cols.items():
        getattr(b, name)[rows] = values
    b.pos[rows] += offset
    b.pos0[rows] = b.pos[rows]
    b.angle0[rows] = b.angle[rows]
    b.moved[rows] = MOVED_BY_HAND
    b.asleep[rows] = 0
    b.sleep_time[rows] = 0.0
    b.island[rows] = -1
    b.lane[rows] = 0
    if velocity is not None:
        b.vel[rows][b.btype[rows] != STATIC] = velocity
    return i0


def _shape_rows(dst, shapes, i0):
    """New shape ids for the template's shapes; returns the map old id -> new id."""
    old, cols = shapes
    s = dst.shapes
    new = s.alloc_many(old.size)
    for name, values in cols.items():
        getattr(s, name)[new] = values
    s.body[new] += i0
    kinds = zip(cols["category"].tolist(), cols["mask"].tolist(),
                (dst.bodies.btype[s.body[new]] == STATIC).tolist())
    for category, mask, static in set(kinds):
        filter_kinds.note(dst, category, mask, static)
    dst.one_way_count += int(np.count_nonzero(cols["one_way"].any(axis=1)))
    top = int(new.max()) + 1 if new.size else 0
    dst.shape_handles.extend([None] * max(0, top - len(dst.shape_handles)))
    return _map(old, new)


def _map(old, new):
    """int64 array ``m`` with ``m[old[k]] = new[k]`` (-1 elsewhere)."""
    m = np.full(int(old.max()) + 1 if old.size else 0, -1, np.int64)
    m[old] = new
    return m


def _vertex_rows(dst, cols, free):
    """Append the template's whole vertex pool (its free rows too, counted as free);
    returns its first row here."""
    g = dst.geometry
    count = cols["verts"].shape[0]
    g0 = g.append(count)
    for name, values in cols.items():
        getattr(g, name)[g0:g0 + count] = values
    dst.free_vertices += free
    return g0


def _piece_rows(dst, pieces, i0, shape_map, g0):
    """New piece rows pointing at the new bodies, shapes and vertex rows, boxed at their
    bodies' poses and put in their trees; returns the map old row -> new row."""
    old, cols = pieces
    P, b = dst.pieces, dst.bodies
    new = P.alloc_many(old.size)
    for name, values in cols.items():
        getattr(P, name)[new] = values
    P.body[new] += i0
    P.shape[new] = shape_map[cols["shape"]]
    P.start[new] += g0
    body = P.body[new]
    static = b.btype[body] == STATIC
    sensor = P.sensor[new] != 0
    c, s = b.turn[body, 0], b.turn[body, 1]  # (copied with the bodies)
    params = ProxyParams(0.0, K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION)
    for tree, pick in ((dst.sensor_tree, sensor), (dst.static_tree, ~sensor & static),
                       (dst.tree, ~sensor & ~static)):
        k = np.flatnonzero(pick)
        if k.size == 0:
            continue
        fat, nodes = np.empty((k.size, 4)), np.empty(k.size, np.int64)
        args = (dst.geometry.verts, P.start[new[k]], P.count[new[k]], P.radius[new[k]],
                b.pos[body[k], 0], b.pos[body[k], 1], c[k], s[k], static[k],
                np.zeros(k.size), new[k], params, fat, nodes)
        done = 0
        while done < k.size:  # the tree grows as one insert at a time would grow it
            done = insert_pieces(tree.arrays, *args, done)
            if done < k.size:
                tree.reserve(2)
        P.fat[new[k]] = fat
        P.node[new[k]] = nodes
    dst.note_restitution(cols["restitution"])
    if sensor.any():
        dst.sensor_pieces = np.union1d(dst.sensor_pieces, new[sensor])
    return _map(old, new)


def _joint_rows(dst, cols, i0, offset):
    """New joint rows between the new bodies; returns their rows, in template order."""
    store = dst.joints
    c = store.columns
    n = cols["kind"].shape[0]
    rows = c.alloc_many(n)
    for name, values in cols.items():
        getattr(c, name)[rows] = values
    c.body_a[rows] += i0
    c.body_b[rows] += i0
    mouse = rows[cols["kind"] == MOUSE]
    c.data[mouse, J_TX] += offset[0]
    c.data[mouse, J_TY] += offset[1]
    top = int(rows.max()) + 1 if n else 0
    store.handles.extend([None] * max(0, top - len(store.handles)))
    store.count += n
    store.breakable += int(np.count_nonzero(np.isfinite(cols["break_force"])
                                            | np.isfinite(cols["break_torque"])))
    c.version += 1
    return rows


def _body_handles(world, dst, old_bodies, i0, shape_map, piece_map):
    """A ``Body`` per new row and a ``ShapeHandle`` per new shape, each body's in the
    order they were added (user data shared with the template's handles)."""
    keys = dst.body_keys.new_many(range(i0, i0 + len(old_bodies)))
    bodies = []
    for key, old in zip(keys, old_bodies):
        body = Body(world, dst, key)
        body.user_data = old.user_data
        for h in old._shapes:
            sid = int(shape_map[h._id])
            new = ShapeHandle(body, sid, h._shape, h._density, h._friction, h._restitution,
                              piece_map[h._pieces], h._filter)
            new._collision_type = h._collision_type
            new.user_data = h.user_data
            dst.shape_handles[sid] = new
            body._shapes.append(new)
        bodies.append(body)
    dst.handles.extend(bodies)
    return bodies


def _joint_handles(dst, old_handles, rows):
    """A joint handle of the template's kind per new row (user data shared)."""
    joints = []
    for old, row in zip(old_handles, rows.tolist()):
        new = type(old)(dst, row)  # (a joint handle is its state, its row, its user data)
        new.user_data = old.user_data
        dst.joints.handles[row] = new
        joints.append(new)
    return joints
