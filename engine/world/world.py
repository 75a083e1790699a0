"""World: owns the body, piece and contact arrays and runs the step.

``World.step(dt)`` is a short list of stage kernels (see ``docs/pipeline.md``)::

    broadphase   refresh fat boxes, reinsert escaped proxies, find new pairs (sorted)
    narrowphase  manifold per tracked pair (cached while the pair barely moved), impulses
                 matched by feature id
    solver       soft step: contacts in colour order, substeps of integrate / warm start /
                 solve / relax, restitution
    continuous   fast bodies swept from their start pose, clamped to the first impact

Everything per body, per piece and per contact happens inside those kernels; the
Python code here only validates user input and keeps the arrays consistent.
"""

import numpy as np

from .. import constants as K
from ..broadphase.dynamic_tree import AABBTree
from .body import Body, BodyType
from ..broadphase import find_pairs as _bp
from ..dynamics import continuous as _ccd
from ..contacts import narrowphase as _np
from ..broadphase import proxies as _px
from ..dynamics import soft_step as _sv
from ..constants import DYNAMIC
from ..geometry.seam_rows import GHOST_SIZE
from .queries import cast_shape as _cast_shape
from ..contacts.pair_set import PairSet
from .._store import Columns, Handles
from .attach import WorldShapes
from .shape_handle import ShapeHandle
from .._checks import as_float, as_non_negative, as_positive, as_vec2

__all__ = ["World", "ShapeHandle"]

_BODY_COLUMNS = {
    "pos": (np.float64, (2,), 0.0), "angle": (np.float64, (), 0.0),
    "vel": (np.float64, (2,), 0.0), "angvel": (np.float64, (), 0.0),
    "force": (np.float64, (2,), 0.0), "torque": (np.float64, (), 0.0),
    "mass": (np.float64, (), 0.0), "inv_mass": (np.float64, (), 0.0),
    "inertia": (np.float64, (), 0.0), "inv_inertia": (np.float64, (), 0.0),
    "com": (np.float64, (2,), 0.0), "lin_damp": (np.float64, (), 0.0),
    "ang_damp": (np.float64, (), 0.0), "gravity_scale": (np.float64, (), 1.0),
    "extent": (np.float64, (), 0.0),  # farthest shape point from the centre of mass
    "min_extent": (np.float64, (), np.inf),  # thinnest part (continuous collision)
    "pos0": (np.float64, (2,), 0.0), "angle0": (np.float64, (), 0.0),  # pose at step start
    "moved": (np.uint8, (), 1),  # pose changed since the last broadphase (2: set by hand)
    "btype": (np.int8, (), DYNAMIC), "bullet": (np.bool_, (), False),
    "key": (np.int64, (), -1),
}
_PIECE_COLUMNS = {
    "alive": (np.uint8, (), 0), "body": (np.int32, (), -1), "dynamic": (np.uint8, (), 0),
    "start": (np.int64, (), 0), "count": (np.int64, (), 0), "radius": (np.float64, (), 0.0),
    "friction": (np.float64, (), 0.0), "restitution": (np.float64, (), 0.0),
    "fat": (np.float64, (4,), 0.0), "node": (np.int32, (), -1), "static": (np.uint8, (), 0),
}
_GEOM_COLUMNS = {"verts": (np.float64, (2,), 0.0), "norms": (np.float64, (2,), 0.0),
                 "ghost": (np.float64, (GHOST_SIZE,), 0.0)}


class World(WorldShapes):
    """A physics world: bodies, their shapes, gravity, and the step.

    Parameters
    ----------
    gravity : (float, float)
        Acceleration in m/s^2, default ``(0, -10)``.
    substeps : int
        Solver substeps per step (4: Box2D's default; more is stiffer and slower).
    mixing : {"box2d", "pymunk"}
        How two shapes' materials combine: Box2D's ``sqrt(f1*f2)`` friction and
        ``max(e1, e2)`` restitution, or pymunk's products ``f1*f2`` and ``e1*e2``.

    Examples
    --------
    >>> from engine import World, Polygon
    >>> world = World()
    >>> ground = world.create_body("static")
    >>> _ = ground.add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    >>> box = world.create_body(position=(0, 4))
    >>> _ = box.add_shape(Polygon.box(1, 1))
    >>> for _ in range(120):
    ...     world.step(1 / 60)
    >>> round(box.position[1], 2)
    0.5
    """

    def __init__(self, gravity=(0.0, -10.0), substeps=K.SUBSTEPS, mixing="box2d"):
        self.gravity = gravity
        if not isinstance(substeps, int) or substeps < 1:
            raise ValueError(f"substeps must be a positive int, got {substeps!r}")
        self.substeps = substeps
        self.mixing = mixing
        self._b = Columns(_BODY_COLUMNS, 16)
        self._n = 0
        self._body_keys = Handles()
        self._handles = {}  # key -> Body
        self._body_shapes = {}  # key -> [ShapeHandle]
        self._p = Columns(_PIECE_COLUMNS, 16)
        self._p_used = 0
        self._p_free = []
        self._g = Columns(_GEOM_COLUMNS, 64)
        self._g_used = 0
        self._tree = AABBTree()  # moving pieces (dynamic and kinematic bodies)
        self._static_tree = AABBTree()
        self._teleported = []
        self._pairs = PairSet()  # tracked piece pairs: keys, histories, contact rows, bodies
        self._moved = np.empty(16, np.int32)
        self._fast = np.empty(16, np.uint8)  # continuous collision: bodies to sweep
        self._locked = False

    # -- settings ---------------------------------------------------------------------
    @property
    def gravity(self):
        """Gravity ``(gx, gy)`` in m/s^2."""
        return self._gravity

    @gravity.setter
    def gravity(self, value):
        self._gravity = as_vec2(value, "gravity")

    @property
    def mixing(self):
        """Material mixing rule, ``"box2d"`` or ``"pymunk"``."""
        return "box2d" if self._mixing == _np.MIX_BOX2D else "pymunk"

    @mixing.setter
    def mixing(self, value):
        rules = {"box2d": _np.MIX_BOX2D, "pymunk": _np.MIX_PYMUNK}
        if value not in rules:
            raise ValueError(f"mixing must be 'box2d' or 'pymunk', got {value!r}")
        self._mixing = rules[value]

    def _check_unlocked(self):
        if self._locked:
            raise RuntimeError("the world is being stepped; change it before or after World.step")

    # -- bodies -----------------------------------------------------------------------
    def create_body(self, body_type=BodyType.DYNAMIC, position=(0.0, 0.0), angle=0.0,
                    velocity=(0.0, 0.0), angular_velocity=0.0, linear_damping=0.0,
                    angular_damping=0.0):
        """Add a body and return its :class:`~engine.Body` handle.

        A dynamic body without shapes has mass 1 kg and no rotational inertia (it does
        not rotate) until shapes are added.
        """
        self._check_unlocked()
        kind = BodyType.parse(body_type)
        x, y = as_vec2(position, "position")
        a = as_float(angle, "angle")
        vx, vy = as_vec2(velocity, "velocity")
        w = as_float(angular_velocity, "angular_velocity")
        ld = as_non_negative(linear_damping, "linear_damping")
        ad = as_non_negative(angular_damping, "angular_damping")
        i = self._n
        self._b.ensure(i + 1)
        self._b.reset_row(i)
        key = self._body_keys.new(i)
        b = self._b
        b.pos[i] = (x, y)
        b.angle[i] = a
        b.btype[i] = int(kind)
        b.key[i] = key
        b.lin_damp[i] = ld
        b.ang_damp[i] = ad
        if kind != BodyType.STATIC:
            b.vel[i] = (vx, vy)
            b.angvel[i] = w
        self._n += 1
        body = Body(self, key)
        self._handles[key] = body
        self._body_shapes[key] = []
        self._update_mass(i)
        return body

    def destroy_body(self, body):
        """Remove ``body`` and its shapes; its handle raises from now on."""
        self._check_unlocked()
        i = self._body_row(body)
        for h in list(self._body_shapes[body._key]):
            self._detach_pieces(h)
        del self._body_shapes[body._key]
        del self._handles[body._key]
        self._b.delete_row(i, self._n)
        self._n -= 1
        self._body_keys.kill(body._key)
        self._body_keys.shift_after(i)
        pb = self._p.body[: self._p_used]
        pb[pb > i] -= 1

    @property
    def bodies(self):
        """The live bodies, in body order (the row order of the array views)."""
        keys = self._b.key[: self._n]
        return [self._handles[int(k)] for k in keys]

    def body_index(self, body):
        """Row of ``body`` in the array views (``positions[world.body_index(b)]``)."""
        return self._body_row(body)

    def _body_row(self, body):
        if not isinstance(body, Body) or body._world is not self:
            raise TypeError(f"expected a Body of this world, got {body!r}")
        return body._row()

    # -- zero-copy views ----------------------------------------------------------------
    def _view(self, col):
        v = col[: self._n]
        v.flags.writeable = False
        return v

    @property
    def positions(self):
        """Read-only (n, 2) view of body origins, in body order (no copy)."""
        return self._view(self._b.pos)

    @property
    def angles(self):
        """Read-only (n,) view of body angles in radians."""
        return self._view(self._b.angle)

    @property
    def velocities(self):
        """Read-only (n, 2) view of centre-of-mass velocities."""
        return self._view(self._b.vel)

    @property
    def angular_velocities(self):
        """Read-only (n,) view of angular velocities."""
        return self._view(self._b.angvel)

    # -- pose and type changes --------------------------------------------------------
    def _set_pose(self, body, x=None, y=None, angle=None):
        self._check_unlocked()
        i = self._body_row(body)
        if x is not None:
            self._b.pos[i] = (x, y)
        if angle is not None:
            self._b.angle[i] = angle
        self._b.moved[i] = 2
        for h in self._body_shapes[body._key]:
            for p in h._pieces:
                self._reinsert(p)

    def _set_body_type(self, body, kind):
        self._check_unlocked()
        i = self._body_row(body)
        if int(self._b.btype[i]) == int(kind):
            return
        self._b.btype[i] = int(kind)
        if kind == BodyType.STATIC:
            self._b.vel[i] = 0.0
            self._b.angvel[i] = 0.0
        for h in self._body_shapes[body._key]:
            for p in h._pieces:
                self._tree_of(p).remove(int(self._p.node[p]))
                self._p.static[p] = kind == BodyType.STATIC
                self._p.dynamic[p] = kind == BodyType.DYNAMIC
                self._p.node[p] = self._tree_of(p).insert(self._p.fat[p], p)
                self._reinsert(p)
        self._drop_contacts_of_body(i)
        self._update_mass(i)

    # -- contacts bookkeeping -------------------------------------------------------------
    def _drop_contacts_of_body(self, i):
        a, b = self._pairs.pieces()
        pb = self._p.body
        self._pairs.keep((pb[a] != i) & (pb[b] != i))

    # -- the step ---------------------------------------------------------------------------
    def step(self, dt):
        """Advance the world by ``dt`` seconds (fixed steps of 1/60 s are typical).

        Raises
        ------
        ValueError
            If ``dt`` is not a finite number > 0.
        """
        dt = as_positive(dt, "dt")
        self._check_unlocked()
        self._locked = True
        try:
            self._broadphase(dt)
            self._narrowphase(dt)
            self._save_start_poses()
            self._solve(dt)
            self._continuous()
        finally:
            self._locked = False

    def _broadphase(self, dt):
        self._pairs.compact_dropped()
        P, b = self._p, self._b
        n_p = self._p_used
        if self._moved.size < n_p:
            self._moved = np.empty(2 * n_p, np.int32)
        tree = self._tree
        moved_count = _px.refresh_proxies(
            P.alive[:n_p], P.body[:n_p], P.start[:n_p], P.count[:n_p], P.radius[:n_p],
            P.node[:n_p], P.fat[:n_p], self._g.verts, b.btype, b.pos, b.angle, b.vel, b.angvel,
            b.extent, b.moved, dt, K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION,
            *tree.arrays, self._moved)
        moved = self._moved[:moved_count]
        if self._teleported:
            extra_dyn = [node for st, node in self._teleported if not st]
            extra_static = [node for st, node in self._teleported if st]
            self._teleported = []
            moved = np.concatenate([moved, np.array(extra_dyn, dtype=np.int32)])
            if extra_static:
                keys = _bp.tree_find_pairs(*self._static_tree.arrays, *tree.arrays,
                                           np.array(extra_static, dtype=np.int32), P.body, P.dynamic)
                self._pairs.add(keys)
        if moved.size:
            keys = _bp.tree_find_pairs(*tree.arrays, *self._static_tree.arrays, moved, P.body, P.dynamic)
            self._pairs.add(keys)

    def _narrowphase(self, dt):
        pairs = self._pairs
        m = len(pairs)
        if m == 0:
            return
        pairs.reserve()
        P, b = self._p, self._b
        keep = np.empty(m, np.uint8)
        _np.update_contacts(pairs.keys, pairs.hist, pairs.rows, keep, pairs.bodies,
                            P.body, P.start, P.count, P.radius, P.friction, P.restitution, P.fat,
                            self._g.verts, self._g.norms, self._g.ghost, b.pos, b.angle, b.com, b.vel,
                            b.angvel, b.extent, dt, K.SPECULATIVE_DISTANCE, 0.1 * K.LINEAR_SLOP,
                            K.MANIFOLD_REUSE_TOLERANCE, self._mixing)
        if not keep.all():
            pairs.pending_keep = keep

    def _solve(self, dt):
        b, n = self._b, self._n
        if n == 0:
            return
        pairs = self._pairs
        m = len(pairs)
        gx, gy = self._gravity
        _sv.step_bodies(dt, self.substeps, gx, gy, K.CONTACT_HERTZ, K.CONTACT_DAMPING_RATIO,
                        K.MAX_PUSHOUT_SPEED, K.RESTITUTION_THRESHOLD, K.LINEAR_SLOP, K.MAX_LINEAR_SPEED,
                        K.MAX_ROTATION, b.btype[:n], b.inv_mass[:n], b.inv_inertia[:n], b.com[:n],
                        b.force[:n], b.torque[:n], b.lin_damp[:n], b.ang_damp[:n],
                        b.gravity_scale[:n], b.pos[:n], b.angle[:n], b.vel[:n], b.angvel[:n],
                        b.moved[:n], pairs.bodies[0, :m], pairs.bodies[1, :m], pairs.rows,
                        pairs.hist)

    def _save_start_poses(self):
        n = self._n
        np.copyto(self._b.pos0[:n], self._b.pos[:n])
        np.copyto(self._b.angle0[:n], self._b.angle[:n])

    def _continuous(self):
        b, n = self._b, self._n
        if self._fast.size < n:
            self._fast = np.empty(2 * n, np.uint8)
        fast = self._fast[:n]
        count = _ccd.find_fast(K.CCD_SAFETY_FACTOR, b.btype[:n], b.bullet[:n], b.com[:n],
                               b.extent[:n], b.min_extent[:n], b.pos0[:n], b.angle0[:n],
                               b.pos[:n], b.angle[:n], fast)
        if count == 0:
            return
        P, n_p = self._p, self._p_used
        _ccd.solve_continuous(fast, K.LINEAR_SLOP, K.CCD_SAFETY_FACTOR, P.alive[:n_p],
                              P.body[:n_p], P.start[:n_p], P.count[:n_p], P.radius[:n_p],
                              P.fat[:n_p], self._g.verts, self._g.norms, b.btype[:n], b.bullet[:n],
                              b.com[:n], b.extent[:n], b.min_extent[:n], b.pos0[:n],
                              b.angle0[:n], b.pos[:n], b.angle[:n], b.moved[:n],
                              self._pairs.keys, *self._tree.arrays,
                              *self._static_tree.arrays)

    def cast_shape(self, shape, pose, translation):
        """The first shape in the world that ``shape`` touches when swept along ``translation``.

        Parameters
        ----------
        shape : Circle, Segment or Polygon
            Any shape, not attached to a body.
        pose : (x, y, angle) or (x, y)
            Where the shape starts.
        translation : (float, float)
            The sweep; the shape does not turn.

        Returns
        -------
        engine.ShapeCastHit or None
            ``(body, shape, fraction, point, normal)`` of the earliest touch, bodies held
            at their current poses; ``None`` when nothing is in the way.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> wall = world.create_body("static", position=(5, 0))
        >>> _ = wall.add_shape(Polygon.box(1, 4))
        >>> hit = world.cast_shape(Circle(0.5), (0, 0), (10, 0))
        >>> hit.body is wall, round(hit.fraction, 6), hit.point, hit.normal
        (True, 0.4, (4.5, 0.0), (-1.0, 0.0))
        """
        return _cast_shape(self, shape, pose, translation)

    @property
    def contact_count(self):
        """Pairs of pieces in contact after the last step (touching or within the speculative margin).

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World()
        >>> world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5))) and None
        >>> world.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1)) and None
        >>> world.step(1 / 60)
        >>> world.contact_count
        1
        """
        from ..contacts.layout import C_TOUCHING  # here: keeps this read-only addition self-contained

        return int(np.count_nonzero(self._pairs.rows[:, C_TOUCHING] > 0.0))

    def broadphase_boxes(self):
        """The broadphase trees' live nodes, read-only copies for drawing and inspection.

        Returns
        -------
        boxes : (k, 4) float64
            ``(min_x, min_y, max_x, max_y)`` of each node: a leaf holds one convex piece's
            fat box, an internal node the union of its children.
        heights : (k,) int32
            0 for leaves.
        static : (k,) bool
            Whether the node is in the static tree (static bodies) or the moving one.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> for x in (0, 3):
        ...     world.create_body(position=(x, 0)).add_shape(Circle(0.5)) and None
        >>> boxes, heights, static = world.broadphase_boxes()
        >>> heights.tolist(), static.tolist()
        ([0, 0, 1], [False, False, False])
        """
        parts = [(*t.nodes(), s) for t, s in ((self._tree, False), (self._static_tree, True))]
        boxes = np.concatenate([b for b, _, _ in parts])
        heights = np.concatenate([h for _, h, _ in parts])
        static = np.concatenate([np.full(h.size, s) for _, h, s in parts])
        return boxes, heights, static

    def debug_draw(self, drawer, flags=None):
        """Draw the world through ``drawer`` (an :class:`engine.draw.debug_draw.DebugDraw`).

        ``flags`` is a :class:`engine.draw.debug_draw.DrawFlags` combination (shapes by
        default). The engine imports no renderer: adapters implement the drawer.
        """
        from ..draw import debug_draw  # lazily: drawing is not part of stepping

        debug_draw.draw_world(self, drawer, debug_draw.DrawFlags.SHAPES if flags is None else flags)

    def __repr__(self):
        return f"<World {self._n} bodies, {len(self._pairs)} pairs, gravity={self._gravity}>"
