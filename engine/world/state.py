"""The world's state: every store in one object, and the named tuples the stages take.

``WorldState`` owns what a world is made of: the body, piece and geometry stores (each
with its own count and free list, ``_store.py``), the two broadphase trees, the tracked
pairs and the settings. ``World`` runs the step over it; the ``Body`` and shape handles
and the queries read and write it through the methods here, never through ``World``.

The stage kernels take a few named tuples instead of loose arrays:

- :class:`BodyArrays`: the live rows ``[:count]`` of every body column;
- :class:`PieceArrays`: the live rows of the piece columns, and the geometry pool
  (vertices, edge normals and seam rows in body coordinates) they point into;
- ``TreeArrays`` (``broadphase/dynamic_tree.py``) and ``PairArrays``
  (``contacts/pair_set.py``);
- one tuple of settings per stage (:class:`ProxyParams`, :class:`NarrowParams`,
  :class:`SolverParams`, :class:`ContinuousParams`).

The array tuples are kept until a store grows or its count changes (and are given again
when it comes back to the same columns and count), so a step does not slice thirty
columns anew.
"""
import math
import operator
import itertools
import random
from typing import NamedTuple

import numpy as np

from .. import constants as K
from .._store import Columns, Handles
from ..broadphase.dynamic_tree import AABBTree, PairRule
from ..constants import MOVED_BY_HAND, MOVED_BY_STEP, STATIC
from ..contacts.pair_set import PairSet
from ..joints.store import JointStore
from . import sleeping
from .columns import BODY_COLUMNS, GEOMETRY_COLUMNS, PIECE_COLUMNS, SHAPE_COLUMNS
from .events import ContactEvents, SensorEvents

__all__ = ["WorldState", "BodyArrays", "PieceArrays", "ShapeArrays", "ProxyParams", "NarrowParams",
           "SolverParams", "ContinuousParams", "MOVED_BY_STEP", "MOVED_BY_HAND"]

class BodyArrays(NamedTuple):
    """The live rows of the body columns, (n,) or (n, 2), in body order."""

    btype: np.ndarray
    inv_mass: np.ndarray
    inv_inertia: np.ndarray
    com: np.ndarray
    force: np.ndarray
    torque: np.ndarray
    lin_damp: np.ndarray
    ang_damp: np.ndarray
    gravity_scale: np.ndarray
    pos: np.ndarray
    angle: np.ndarray
    vel: np.ndarray
    angvel: np.ndarray
    moved: np.ndarray
    extent: np.ndarray
    min_extent: np.ndarray
    pos0: np.ndarray
    angle0: np.ndarray
    turn: np.ndarray  # (n, 4): cos, sin of angle; of angle0 once a step began
    bullet: np.ndarray
    asleep: np.ndarray
    lane: np.ndarray


class PieceArrays(NamedTuple):
    """The piece columns (rows in use, free ones have ``body`` -1) and the geometry pool."""

    body: np.ndarray
    shape: np.ndarray
    sensor: np.ndarray
    start: np.ndarray
    count: np.ndarray
    radius: np.ndarray
    friction: np.ndarray
    restitution: np.ndarray
    surface_speed: np.ndarray
    rolling_resistance: np.ndarray
    fat: np.ndarray
    node: np.ndarray
    verts: np.ndarray
    norms: np.ndarray
    ghost: np.ndarray


class ShapeArrays(NamedTuple):
    """The shape columns a kernel reads per shape id: sensor flag and filter bits."""

    sensor: np.ndarray
    category: np.ndarray
    mask: np.ndarray
    group: np.ndarray


class ProxyParams(NamedTuple):
    """Broadphase settings: the step, the speculative distance, the fat-box margin rule."""

    dt: float
    speculative: float
    margin: float
    fraction: float


class NarrowParams(NamedTuple):
    """Narrowphase settings (``contacts/narrowphase.update_contacts``)."""

    dt: float
    margin: float
    flip_tol: float
    reuse_tol: float
    mixing: int


class SolverParams(NamedTuple):
    """Soft-step settings (``dynamics/soft_step.step_bodies``)."""

    dt: float
    substeps: int
    gravity: np.ndarray  # (lanes, 2): each lane's gravity (one row outside a WorldBatch)
    hertz: float
    zeta: float
    pushout: float
    restitution_threshold: float
    impact_gap: float
    max_speed: float
    max_rotation: float
    joint_hertz: float
    joint_zeta: float
    joint_iterations: int
    hit_threshold: float  # m/s: the solver lists the pairs whose hits may be faster
    block_contacts: int  # contacts a solve block holds (dynamics/solve_blocks.py)


class ContinuousParams(NamedTuple):
    """Continuous-collision settings (``dynamics/continuous``)."""

    slop: float
    safety: float


# Snapshot tokens: a counter from a random 63-bit start (os.urandom each: 2.5 us a body).
_TOKENS = itertools.count(random.SystemRandom().getrandbits(62))
CONTINUOUS_PARAMS = ContinuousParams(K.LINEAR_SLOP, K.CCD_SAFETY_FACTOR)
NO_PAIRS = np.empty(0, np.int64)


def _same_views(arrays, store, names, n):
    """Whether ``arrays`` (or None) views the first ``n`` rows of the columns ``names`` of
    ``store`` now: then ``StageKernel`` passes that very tuple on untyped (bullets)."""
    return (arrays is not None and len(arrays[0]) == n
            and all(view.base is getattr(store, name) for view, name in zip(arrays, names)))


def _token():
    return next(_TOKENS) & ((1 << 63) - 1)


class WorldState:
    """Every store of one world; see the module docstring.

    Attributes
    ----------
    bodies : Columns
        Dense body rows (``BODY_COLUMNS``), ``bodies.used`` of them.
    body_keys : Handles
        Body key -> row (-1 once destroyed); ``handles[row]`` is the row's ``Body``.
    shapes : Columns
        Attached shapes (``SHAPE_COLUMNS``, with a free list): the row is the shape's id;
        ``shape_handles[id]`` is its ``ShapeHandle`` (None for a free id).
    pieces, geometry : Columns
        Piece rows (with a free list) and the vertex pool they point into.
    tree, static_tree : AABBTree
        Fat boxes of the pieces of moving (dynamic and kinematic) and static bodies.
    pairs : PairSet
        The tracked piece pairs.
    """

    # True once a shape as bouncy as ``IMPACT_MIN_RESTITUTION`` was given to the world
    # (``note_restitution``): only then does the solver run, and compile, its collision
    # phase (``dynamics/impacts.py``). True on the class, so that a state pickled before
    # the flag existed keeps the phase.
    bouncy = True

    def __init__(self, gravity, substeps, mixing):
        self.bouncy = False
        self.gravity = gravity
        self.substeps = substeps
        self.mixing = mixing
        self.bodies = Columns(BODY_COLUMNS, 16)
        self.body_keys = Handles()
        self.handles = []  # Body handle of each body row
        self.shapes = Columns(SHAPE_COLUMNS, 16)
        self.shape_handles = []
        self.pieces = Columns(PIECE_COLUMNS, 16)
        self.geometry = Columns(GEOMETRY_COLUMNS, 64)
        self.free_vertices = 0  # vertex rows of removed pieces, until the pool is compacted
        self.tree = AABBTree()
        self.static_tree = AABBTree()
        self.sensor_tree = AABBTree()  # pieces of sensor shapes, whatever their body type
        self.pairs = PairSet()
        self.joints = JointStore()
        self.joint_hertz = K.JOINT_HERTZ
        self.joint_zeta = K.JOINT_DAMPING_RATIO
        self.joint_iterations = K.JOINT_ITERATIONS
        self.broken = np.empty(0, np.int64)  # ids of the joints broken in the last step
        self.sleeping = True  # islands may sleep (``dynamics/sleep.py``)
        self.time_to_sleep = K.TIME_TO_SLEEP
        self.next_island = 0  # the label the next island to fall asleep gets
        self.awake = -1  # awake non-static bodies after the last step (-1: not known)
        self.asleep_count = 0  # sleeping bodies after the last step, or put to sleep since
        self.locked = False  # True while the world steps
        # Bumped by every change the queries' cached arrays depend on (``touch``).
        self.epoch = 0  # poses (a step, a pose set by hand), and everything below
        self.shape_epoch = 0  # shapes attached or removed, filters changed
        self.scratch = {}  # reusable kernel buffers by name (``stages.py``)
        self.touching = np.empty(0, np.int64)  # shape-pair keys touching after the last step
        self.pending_ends = []  # keys of touching pairs whose shape was removed since then
        self.ended = np.empty(0, np.int64)  # shape-pair keys that stopped touching this step
        self.contact_events = ContactEvents.empty()
        self.sensor_pieces = np.empty(0, np.int64)  # sorted piece rows of sensor shapes
        self.overlapping = np.empty(0, np.int64)  # (sensor << 32) | visitor keys overlapping now
        self.pending_sensor_ends = []  # overlap keys of shapes removed since the last step
        self.sensor_events = SensorEvents.empty()
        self.begun = np.empty(0, np.int64)  # shape-pair keys that began touching this step
        self.hit_threshold = K.HIT_EVENT_THRESHOLD  # m/s
        self.hit_pairs = NO_PAIRS  # pairs the solver found may hold a hit (``stages.solve``)
        self.handlers = []  # collision callbacks (``callbacks.py``), in registration order
        self.disabled = set()  # shape pairs a begin callback disabled until they separate
        self.one_way_off = set()  # shape pairs a one-way shape lets through until they part
        self.one_way_count = 0  # attached one-way shapes (the stage runs only when > 0)
        self.removed_handles = {}  # shape-pair key -> handles of a removed shape's pair
        self.post_step = []  # (fn, args) queued by World.after_step
        self._body_arrays = (None, None)
        self._piece_arrays = (None, None)
        self._pair_rule = (None, None)
        self._params = (None, None)
        self.placed = False  # some body was placed by hand since the last broadphase
        # A WorldBatch's merged world (``engine/batch``): each lane's gravity (lanes, 2),
        # or None for a world of its own (one lane, ``gravity``).
        self.lane_gravity = None
        # Tokens a snapshot must match (``snapshot.py``): the world it was taken from
        # (copies keep it) and its bodies, shapes and joints (redrawn on every change).
        self.world_token = _token()
        self.structure = _token()

    def __getstate__(self):
        # The cached array tuples are views; a pickle would copy them apart from the
        # columns they view. They are rebuilt on first use.
        state = self.__dict__.copy()
        state["_body_arrays"] = state["_piece_arrays"] = state["_pair_rule"] = (None, None)
        state["_params"] = (None, None)
        state["scratch"] = {}
        return state

    def note_restitution(self, values):
        """Record restitutions given to pieces (a number or an array): one at least
        ``IMPACT_MIN_RESTITUTION`` turns the solver's collision phase on for good."""
        if self.bouncy:
            return
        if isinstance(values, float):  # (add_shape: no NumPy call for one number)
            self.bouncy = values >= K.IMPACT_MIN_RESTITUTION
        else:
            values = np.asarray(values)
            self.bouncy = bool(values.size) and bool(values.max() >= K.IMPACT_MIN_RESTITUTION)

    # -- guards and lookups ----------------------------------------------------------
    def check_unlocked(self):
        """Raise when the world is being stepped (changes must wait until it returns)."""
        if self.locked:
            raise RuntimeError("the world is being stepped; change it before or after World.step")

    def row(self, key):
        """Row of the body with ``key``; raises once that body was destroyed."""
        row = self.body_keys.row(key)
        if row < 0:
            raise RuntimeError("this body was destroyed; its handle can no longer be used")
        return row

    def world_center(self, i):
        """Centre of mass of body row ``i`` in world coordinates."""
        b = self.bodies
        c, s = math.cos(b.angle[i]), math.sin(b.angle[i])
        cx, cy = b.com[i]
        return (float(b.pos[i, 0] + c * cx - s * cy), float(b.pos[i, 1] + s * cx + c * cy))

    def mark_placed(self, i):
        """Body row ``i`` was placed by hand: its pieces look for new pairs next step,
        and it wakes."""
        sleeping.wake(self, i)
        if self.bodies.btype[i] == STATIC and self.asleep_count:
            sleeping.wake_neighbours(self, i)  # what rests on it must see it move
        self.bodies.moved[i] = MOVED_BY_HAND
        self.placed = True
        self.touch()

    def touch(self, shapes=False):
        """Record a change of poses (or, with ``shapes``, of the attached shapes or their
        filters): the queries' cached arrays (``queries.py``) are rebuilt on next use."""
        self.epoch += 1
        if shapes:
            self.shape_epoch += 1
            self.restructure()

    def restructure(self):
        """Record that bodies, shapes or joints were made, removed or retyped: snapshots
        taken before no longer fit this world."""
        self.structure = _token()

    def tree_of(self, p):
        """The tree holding piece ``p``: the sensor tree for a sensor's piece, else the
        static one when its body is static, else the moving one."""
        if self.pieces.sensor[p]:
            return self.sensor_tree
        return self.static_tree if self.bodies.btype[self.pieces.body[p]] == STATIC else self.tree

    def shape_arrays(self):
        """:class:`ShapeArrays` of the shape rows in use."""
        s = self.shapes
        n = s.used
        return ShapeArrays(s.sensor[:n], s.category[:n], s.mask[:n], s.group[:n])

    def trees(self):
        """The moving, static and sensor trees' ``TreeArrays``."""
        return self.tree.arrays, self.static_tree.arrays, self.sensor_tree.arrays

    # -- arrays for the kernels ---------------------------------------------------------
    def body_arrays(self):
        """:class:`BodyArrays` of the live body rows (kept while :func:`_same_views`)."""
        b = self.bodies
        version, arrays = self._body_arrays
        if version != b.version:
            if not _same_views(arrays, b, BodyArrays._fields, b.used):
                arrays = BodyArrays(*(getattr(b, name)[:b.used] for name in BodyArrays._fields))
            self._body_arrays = (b.version, arrays)
        return arrays

    def piece_arrays(self):
        """:class:`PieceArrays` of the piece rows in use and the geometry pool."""
        p, g = self.pieces, self.geometry
        version, arrays = self._piece_arrays
        if version != (p.version, g.version):
            n, pool = p.used, (g.verts, g.norms, g.ghost)
            if not (_same_views(arrays, p, PieceArrays._fields[:12], n)
                    and all(map(operator.is_, arrays[12:], pool))):
                arrays = PieceArrays(*(getattr(p, name)[:n] for name in PieceArrays._fields[:12]), *pool)
            self._piece_arrays = ((p.version, g.version), arrays)
        return arrays

    def pair_rule(self):
        """``PairRule`` of the broadphase: bodies, types and filters of the pieces."""
        p, b, s, j = self.pieces, self.bodies, self.shapes, self.joints
        key = (p.version, b.version, s.version, j.columns.version, j.shifts)
        version, rule = self._pair_rule
        if version != key:
            n = s.used
            rule = PairRule(p.body[:p.used], b.btype[:b.used], p.shape[:p.used],
                            s.category[:n], s.mask[:n], s.group[:n], j.unjoined(),
                            b.lane[:b.used], p.fat[:p.used])
            self._pair_rule = (key, rule)
        return rule

    def step_params(self, dt):
        """``(ProxyParams, NarrowParams, SolverParams)`` for a step of ``dt``, kept while
        ``dt`` and the settings stay the same (a step does not rebuild three tuples)."""
        key = (dt, self.substeps, self.gravity, self.mixing, self.joint_hertz, self.joint_zeta,
               self.joint_iterations, self.hit_threshold)
        if self._params[0] != key:
            gravity = self.lane_gravity
            if gravity is None:
                gravity = np.array([self.gravity], np.float64)
            self._params = (key, (
                ProxyParams(dt, K.SPECULATIVE_DISTANCE, K.AABB_MARGIN, K.AABB_MARGIN_FRACTION),
                NarrowParams(dt, K.SPECULATIVE_DISTANCE, K.FACE_FLIP_TOLERANCE,
                             K.MANIFOLD_REUSE_TOLERANCE, self.mixing),
                SolverParams(dt, self.substeps, gravity, K.CONTACT_HERTZ, K.CONTACT_DAMPING_RATIO,
                             K.MAX_PUSHOUT_SPEED, K.RESTITUTION_THRESHOLD, K.LINEAR_SLOP,
                             K.MAX_LINEAR_SPEED, K.MAX_ROTATION, self.joint_hertz,
                             self.joint_zeta, self.joint_iterations, float(self.hit_threshold),
                             int(K.SOLVE_BLOCK_CONTACTS))))
        return self._params[1]

    def proxy_params(self, dt):
        """:class:`ProxyParams` for a step of ``dt``."""
        return self.step_params(dt)[0]

    def narrow_params(self, dt):
        """:class:`NarrowParams` for a step of ``dt``."""
        return self.step_params(dt)[1]

    def solver_params(self, dt):
        """:class:`SolverParams` for a step of ``dt``."""
        return self.step_params(dt)[2]

    def continuous_params(self):
        """:class:`ContinuousParams`."""
        return CONTINUOUS_PARAMS
