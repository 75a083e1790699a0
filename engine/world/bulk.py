"""Building many bodies in one call (a base class of ``World``): ``World.create_bodies``.

A loop of ``create_body`` and ``add_shape`` pays Python's cost per body several times
over: argument checks, one store append per column, a handle, a mass computation. This
path checks the arrays once, appends every row of every store in one block, computes the
shape's mass once, and writes each column with one NumPy operation; only the broadphase
leaves (one tree insertion each) and the handles are made body by body. The result is
the world a loop would have built, bit for bit: the same rows, ids, trees and
velocities (``tests/test_bulk.py``).
"""
import gc
import math

import numpy as np

from .. import constants as K
from .._checks import as_array, as_between, as_restitution
from .._store import rows_removed
from ..broadphase.proxies import insert_pieces
from ..constants import DYNAMIC, MOVED_BY_HAND, STATIC
from ..geometry.limits import as_density
from ..geometry.mass import combine, min_extent
from ..geometry.shapes import Shape
from . import filter_kinds, sleeping
from .attach import write_mass
from .body import Body
from .body_type import BodyType
from .columns import set_angles
from .filter import Filter
from .joint_rows import destroy_joints_of_body
from .shape_handle import ShapeHandle
from .state import ProxyParams
from .unlink import unlink_bodies

__all__ = ["WorldBulk", "unlink_body"]


def unlink_body(state, i, body):
    """What destroying ``body`` (row ``i``) does before its row goes: wake what touches
    it, destroy its joints, remove its shapes (``World.destroy_body``; ``unlink.py`` does
    it for many bodies at once)."""
    sleeping.wake_neighbours(state, i)
    if len(state.joints):
        destroy_joints_of_body(state, i)
    body._detach_all()


class WorldBulk:
    """``World.create_bodies`` (many bodies with one shape each, from arrays) and
    ``World.destroy_bodies``."""

    def destroy_bodies(self, bodies):
        """Remove many bodies, their shapes and their joints in one call; their handles
        raise from now on (pymunk's ``space.remove(*bodies)``).

        The world ends as ``destroy_body`` called on each would leave it, in any order:
        the bodies that stay keep their order and move up in the array views. But
        each of their rows moves once, where ``destroy_body`` moves every row after the
        destroyed one at each call: removing k bodies of a world of n costs O(n + k)
        rather than O(n k) (a ragdoll of 11 bodies among 4,000: 0.55 ms one by one).

        Parameters
        ----------
        bodies : iterable of Body
            Live bodies of this world, each at most once. All are checked before any
            is removed: a bad one raises and leaves the world unchanged.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> balls = [world.create_body(position=(x, 0)) for x in range(5)]
        >>> world.destroy_bodies([balls[3], balls[1]])
        >>> world.positions[:, 0].tolist(), world.body_index(balls[4])
        ([0.0, 2.0, 4.0], 2)
        """
        state = self._state
        state.check_unlocked()
        bodies = list(bodies)
        rows = [self._body_row(body) for body in bodies]
        if len(set(rows)) != len(rows):
            raise ValueError("destroy_bodies got the same body more than once: list each "
                             "body to destroy once")
        if not rows:
            return
        unlink_bodies(state, rows, bodies)
        gone = np.array(sorted(rows), np.int64)
        state.bodies.delete_rows(gone)
        for i in reversed(gone.tolist()):
            del state.handles[i]
        for body in bodies:
            state.body_keys.kill(body._key)
        state.body_keys.rows_removed(gone)
        rows_removed(state.pieces.body[: state.pieces.used], gone)
        rows_removed(state.shapes.body[: state.shapes.used], gone)
        if len(state.joints):
            state.joints.body_rows_removed(gone)
        state.restructure()

    def create_bodies(self, shape, positions, angles=0.0, *, body_type=BodyType.DYNAMIC,
                      velocities=(0.0, 0.0), angular_velocities=0.0, density=1.0,
                      friction=0.6, restitution=0.0, filter=None):
        """Add one body per row of ``positions``, each carrying ``shape``; returns their handles.

        The same world as a loop of :meth:`create_body` and ``body.add_shape`` with these
        arguments, bit for bit, built many times faster (``benchmarks/small.py``). Nothing
        is added when an argument is refused.

        Parameters
        ----------
        shape : Circle, Segment or Polygon
            The shape every body carries, in its body's frame.
        positions : array_like, (n, 2)
            Body origins in meters, within +-``MAX_COORDINATE`` (1e9).
        angles : float or array_like, (n,)
            Rotations in radians.
        body_type : BodyType or {"dynamic", "kinematic", "static"}
            The type of every body.
        velocities : array_like, (2,) or (n, 2)
            Velocities of the centres of mass in m/s, within +-``MAX_INPUT_SPEED``
            (ignored for static bodies).
        angular_velocities : float or array_like, (n,)
            In rad/s, within +-``MAX_INPUT_ANGULAR_SPEED`` (ignored for static bodies).
        density, friction, restitution : float
            As for ``Body.add_shape``.
        filter : Filter, optional
            The shapes' collision filter (default: collide with everything).

        Returns
        -------
        list of Body
            The new bodies, in the order of ``positions``; ``body.shapes[0]`` is the
            shape's handle.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> balls = world.create_bodies(Circle(0.5), [(0, 1), (2, 1), (4, 1)])
        >>> len(balls), world.positions.tolist()
        (3, [[0.0, 1.0], [2.0, 1.0], [4.0, 1.0]])
        """
        if not isinstance(shape, Shape):
            raise TypeError(f"shape must be a Circle, Segment or Polygon, got {type(shape).__name__}")
        pos = np.ascontiguousarray(as_array(positions, "positions", np.shape(positions), K.MAX_COORDINATE))
        if pos.size == 0:  # [] is no bodies, as np.empty((0, 2)) is
            pos = pos.reshape(0, 2)
        if pos.ndim != 2 or pos.shape[1] != 2:
            raise ValueError(f"positions must have shape (n, 2), got {pos.shape}")
        n = pos.shape[0]
        kind = BodyType.parse(body_type)
        angle = as_array(angles, "angles", (n,), math.inf)
        vel = as_array(velocities, "velocities", (n, 2), K.MAX_INPUT_SPEED)
        angvel = as_array(angular_velocities, "angular_velocities", (n,), K.MAX_INPUT_ANGULAR_SPEED)
        material = (as_density(density), as_between(friction, "friction", 0.0, K.MAX_FRICTION),
                    as_restitution(restitution))
        filter = Filter() if filter is None else filter
        if not isinstance(filter, Filter):
            raise TypeError(f"filter must be an engine.Filter, got {type(filter).__name__}")
        state = self._state
        state.check_unlocked()
        if n == 0:
            return []
        rows = _body_rows(state, kind, pos, angle, vel, angvel)
        # Python's cyclic collector would run every few hundred of the handles made below
        # and walk every object alive each time it reaches its oldest generation: 40 % of
        # building 5000 bodies. Nothing made here is garbage, so it waits until the end.
        collecting = gc.isenabled()
        gc.disable()
        try:
            bodies = _handles(self, state, rows, shape, filter, material)
        finally:
            if collecting:
                gc.enable()
        state.touch(shapes=True)
        return bodies


def _body_rows(state, kind, pos, angle, vel, angvel):
    """Append the body rows (placed by hand: they look for pairs at the next step)."""
    b = state.bodies
    i0 = b.append(pos.shape[0])
    rows = np.arange(i0, b.used)
    b.pos[rows] = pos
    set_angles(b, rows, angle)
    b.btype[rows] = int(kind)
    if kind != BodyType.STATIC:
        b.vel[rows] = vel
        b.angvel[rows] = angvel
    b.moved[rows] = MOVED_BY_HAND
    state.placed = True
    return rows


def _shape_rows(state, rows, filter_):
    """A shape id per body (free ids first, as ``alloc`` hands them out)."""
    shapes = state.shapes
    sids = shapes.alloc_many(rows.size)
    shapes.body[sids] = rows
    shapes.sensor[sids] = False
    shapes.category[sids] = filter_.category
    shapes.mask[sids] = filter_.mask
    shapes.group[sids] = filter_.group
    filter_kinds.note(state, filter_.category, filter_.mask,
                      state.bodies.btype[rows[0]] == STATIC)  # (one type for all)
    state.shape_handles.extend([None] * max(0, int(sids.max()) + 1 - len(state.shape_handles)))
    return sids


def _handles(world, state, rows, shape, filter_, material):
    """The stores' shape and piece rows of bodies ``rows`` (made by ``_body_rows``), their
    mass, and the body and shape handles; returns the bodies."""
    keys = state.body_keys.new_many(rows)
    bodies = [Body(world, state, key) for key in keys]
    state.handles.extend(bodies)
    sids = _shape_rows(state, rows, filter_)
    pieces = _piece_rows(state, rows, sids, shape, material)
    _set_mass(state, rows, shape, material[0])
    per = len(shape._starts) - 1
    # each handle's piece rows: a row of one (n, per) array (handles never write them)
    for body, sid, own in zip(bodies, sids.tolist(), pieces.reshape(-1, per)):
        handle = ShapeHandle(body, sid, shape, material[0], material[1], material[2], own,
                             filter_)
        state.shape_handles[sid] = handle
        body._shapes.append(handle)
    return bodies

def _piece_rows(state, rows, sids, shape, material):
    """The pieces of every body's shape: vertex rows, piece rows, fat boxes, tree leaves."""
    starts = shape._starts
    per, nv, n = len(starts) - 1, int(starts[-1]), rows.size
    geo = state.geometry
    g0 = geo.append(n * nv)
    for column, source in ((geo.verts, shape._verts), (geo.norms, shape._norms), (geo.ghost, shape._ghost)):
        column[g0:g0 + n * nv] = np.tile(source, (n, 1))
    P = state.pieces
    pieces = P.alloc_many(n * per)
    P.body[pieces] = np.repeat(rows, per)
    P.shape[pieces] = np.repeat(sids, per)
    P.sensor[pieces] = 0
    P.start[pieces] = g0 + (np.arange(n)[:, None] * nv + starts[None, :-1]).ravel()
    P.count[pieces] = np.tile(np.diff(starts), n)
    P.radius[pieces] = shape._radius
    P.friction[pieces] = material[1]
    P.restitution[pieces] = material[2]
    state.note_restitution(material[2])
    b = state.bodies
    tree = state.static_tree if b.btype[rows[0]] == STATIC else state.tree
    body = np.repeat(rows, per)
    c = np.repeat(b.turn[rows, 0], per)  # (set_angles wrote them)
    s = np.repeat(b.turn[rows, 1], per)
    fat, nodes = np.empty((pieces.size, 4)), np.empty(pieces.size, np.int64)
    args = (geo.verts, P.start[pieces], P.count[pieces], np.full(pieces.size, float(shape._radius)),
            b.pos[body, 0], b.pos[body, 1], c, s, np.full(pieces.size, b.btype[rows[0]] == STATIC),
            b.lane[body] * K.LANE_WIDTH, pieces,
            ProxyParams(0.0, K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION), fat, nodes)
    done = 0
    while done < pieces.size:  # the tree grows as one insert at a time would grow it
        done = insert_pieces(tree.arrays, *args, done)
        if done < pieces.size:
            tree.reserve(2)
    P.fat[pieces] = fat
    P.node[pieces] = nodes
    return pieces


def _set_mass(state, rows, shape, density):
    """Mass, inertia, centre and extents of bodies carrying ``shape`` alone, and their
    velocities as ``attach.update_mass`` leaves them (the centre moved from the origin)."""
    b = state.bodies
    mass, com, inertia, extent = combine([(shape, density)])
    b.min_extent[rows] = min_extent([shape])
    b.extent[rows] = extent
    b.com[rows] = com
    write_mass(b, rows, b.btype[rows[0]] == DYNAMIC, mass, inertia)
    # v follows w x d for the centre's move d = R(angle) com, exactly as update_mass
    # computes it, once when the body is made (d = 0: only the signs of zeros can
    # change) and once when the shape is added (the kept rotation: math's cosine and
    # sine, as update_mass's, not NumPy's, which may differ in the last bit).
    cos, sin = b.turn[rows, 0], b.turn[rows, 1]
    for dx, dy in ((0.0, 0.0), (com[0] - 0.0, com[1] - 0.0)):
        wx, wy = cos * dx - sin * dy, sin * dx + cos * dy
        b.vel[rows, 0] -= b.angvel[rows] * wy
        b.vel[rows, 1] += b.angvel[rows] * wx
