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
from .._api import column_view, fill_doc
from .._checks import as_between, as_float, as_non_negative, as_positive, as_vec2, as_within
from ..contacts.narrowphase import MIX_BOX2D, MIX_PYMUNK
from . import compile_ahead, stages
from .world_events import WorldEvents
from .world_queries import WorldQueries
from .world_joints import WorldJoints
from .joint_settings import JointSettings
from .world_sleep import WorldSleep
from .world_snapshot import WorldSnapshots
from .bulk import WorldBulk, unlink_body
from .copies import WorldCopies
from .world_angular_joints import AngularJoints
from .attach import write_mass
from .body import Body
from .body_type import BodyType
from .columns import set_angles
from .shape_handle import ShapeHandle
from .state import WorldState

__all__ = ["World", "ShapeHandle"]

_MIXING = {"box2d": MIX_BOX2D, "pymunk": MIX_PYMUNK}

# The parameter of destroy_body and body_index, described once (``fill_doc``).
_BODY = """\
body : Body
    A live body of this world."""


class World(WorldBulk, WorldCopies, WorldEvents, WorldQueries, WorldJoints, AngularJoints, JointSettings,
            WorldSleep, WorldSnapshots):
    """A physics world: bodies, their shapes, gravity, and the step.

    Parameters
    ----------
    gravity : (float, float)
        Acceleration in m/s^2, default ``(0, -10)``; each component within
        +-``MAX_GRAVITY`` (1e6).
    substeps : int
        Solver substeps per step, default 6 (``engine.constants.SUBSTEPS``; Box2D's
        default is 4). More is stiffer and slower.
    mixing : {"box2d", "pymunk"}
        How two shapes' materials combine: Box2D's ``sqrt(f1*f2)`` friction and
        ``max(e1, e2)`` restitution, or pymunk's products ``f1*f2`` and ``e1*e2``.
    sleeping : bool
        Whether resting islands of bodies fall asleep and cost nothing until woken (on
        by default, as in Box2D; ``docs/sleeping.md``).

    Attributes
    ----------
    substeps : int
        Solver substeps per step; read at every step, so it may be changed between steps.

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

    def __init__(self, gravity=(0.0, -10.0), substeps=K.SUBSTEPS, mixing="box2d", sleeping=True):
        gravity = as_vec2(gravity, "gravity", K.MAX_GRAVITY, "m/s^2")
        if not isinstance(sleeping, (bool, np.bool_)):
            raise TypeError(f"sleeping must be a bool, got {sleeping!r}")
        self._state = WorldState(gravity, _as_substeps(substeps), _mixing_code(mixing))
        self._state.sleeping = bool(sleeping)
        compile_ahead.start()  # a first run: the solver compiles in a second process

    # -- settings ---------------------------------------------------------------------
    @property
    def gravity(self):
        """Gravity ``(gx, gy)`` in m/s^2."""
        return self._state.gravity

    @gravity.setter
    def gravity(self, value):
        self._state.gravity = as_vec2(value, "gravity", K.MAX_GRAVITY, "m/s^2")

    @property
    def substeps(self):
        """Solver substeps per step."""
        return self._state.substeps

    @substeps.setter
    def substeps(self, value):
        value = _as_substeps(value)
        self._state.check_unlocked()
        self._state.substeps = value

    @property
    def mixing(self):
        """Material mixing rule, ``"box2d"`` or ``"pymunk"``."""
        return "box2d" if self._state.mixing == MIX_BOX2D else "pymunk"

    @mixing.setter
    def mixing(self, value):
        self._state.mixing = _mixing_code(value)

    # -- bodies -----------------------------------------------------------------------
    def create_body(self, body_type=BodyType.DYNAMIC, position=(0.0, 0.0), angle=0.0,
                    velocity=(0.0, 0.0), angular_velocity=0.0, linear_damping=0.0,
                    angular_damping=0.0):
        """Add a body and return its :class:`~engine.Body` handle.

        A dynamic body without shapes has mass 1 kg and no rotational inertia (it does
        not rotate) until shapes are added.

        Parameters
        ----------
        body_type : BodyType or {"dynamic", "kinematic", "static"}
            How the body moves (see :class:`~engine.BodyType`); dynamic by default.
        position : (float, float)
            Origin of the body frame in the world, in meters (within +-1e9,
            ``MAX_COORDINATE``).
        angle : float
            Rotation in radians, counter-clockwise.
        velocity : (float, float)
            Velocity of the centre of mass in m/s, within +-1e6 (``MAX_INPUT_SPEED``;
            ignored for a static body).
        angular_velocity : float
            In rad/s, counter-clockwise, within +-1e6 (``MAX_INPUT_ANGULAR_SPEED``;
            ignored for a static body).
        linear_damping, angular_damping : float
            Velocity damping rates in 1/s, >= 0 (0: none).

        Examples
        --------
        >>> world = World()
        >>> body = world.create_body("kinematic", position=(1, 2), angular_velocity=0.5)
        >>> body.body_type, body.position, body.angular_velocity
        (<BodyType.KINEMATIC: 1>, (1.0, 2.0), 0.5)
        """
        kind = BodyType.parse(body_type)
        x, y = as_vec2(position, "position", K.MAX_COORDINATE, "m")
        a = as_float(angle, "angle")
        vx, vy = as_vec2(velocity, "velocity", K.MAX_INPUT_SPEED, "m/s")
        w = as_within(angular_velocity, "angular_velocity", K.MAX_INPUT_ANGULAR_SPEED, "rad/s")
        ld = as_non_negative(linear_damping, "linear_damping")
        ad = as_non_negative(angular_damping, "angular_damping")
        state = self._state
        state.check_unlocked()
        b = state.bodies
        i = b.append()
        b.pos[i] = (x, y)
        set_angles(b, i, a)
        b.btype[i] = int(kind)
        b.lin_damp[i] = ld
        b.ang_damp[i] = ad
        if kind != BodyType.STATIC:
            b.vel[i] = (vx, vy)
            b.angvel[i] = w
        body = Body(self, state, state.body_keys.new(i))
        state.handles.append(body)
        state.restructure()
        # no shapes yet: the new row's fills (centre of mass 0, no extent) hold, and the
        # mass is the rule's for a body without shapes
        write_mass(b, i, kind == BodyType.DYNAMIC, 0.0, 0.0)
        return body

    @fill_doc(body=_BODY)
    def destroy_body(self, body):
        """Remove ``body`` and its shapes; its handle raises from now on.

        The bodies after it in body order move up one row in the array views.

        Parameters
        ----------
        {body}
        """
        state = self._state
        state.check_unlocked()
        i = self._body_row(body)
        unlink_body(state, i, body)
        state.bodies.delete(i)
        del state.handles[i]
        state.body_keys.kill(body._key)
        if i < state.bodies.used:  # rows came after it (not the newest body): they move up
            state.body_keys.shift_after(i)
            for column in (state.pieces.body[: state.pieces.used], state.shapes.body[: state.shapes.used]):
                column[column > i] -= 1
            if len(state.joints):
                state.joints.shift_bodies(i)
        state.restructure()

    def body(self, id):
        """The :class:`~engine.Body` with ``id`` (``body.id``).

        Parameters
        ----------
        id : int
            A live body's id.

        Examples
        --------
        >>> world = World()
        >>> ball = world.create_body()
        >>> world.body(ball.id) is ball
        True
        """
        state = self._state
        row = state.body_keys.row(_as_id(id, 1 << 62, "body"))
        if row < 0:
            raise ValueError(f"no body has id {id} (destroyed, or never made)")
        return state.handles[row]

    def shape(self, id):
        """The :class:`~engine.ShapeHandle` with ``id`` (``handle.id``).

        Parameters
        ----------
        id : int
            The id of a shape attached to a body of this world (``handle.id``); the id
            of a removed shape raises ``ValueError``.

        Examples
        --------
        >>> from engine import Circle
        >>> world = World()
        >>> handle = world.create_body().add_shape(Circle(0.5))
        >>> world.shape(handle.id) is handle
        True
        """
        handles = self._state.shape_handles
        handle = handles[_as_id(id, len(handles), "shape")]
        if handle is None:
            raise ValueError(f"no shape has id {id} (it was removed)")
        return handle

    @property
    def bodies(self):
        """The live bodies, in body order (the row order of the array views)."""
        return list(self._state.handles)

    @fill_doc(body=_BODY)
    def body_index(self, body):
        """Row of ``body`` in the array views (``positions[world.body_index(b)]``).

        Parameters
        ----------
        {body}
        """
        return self._body_row(body)

    def _body_row(self, body):
        if not isinstance(body, Body) or body._state is not self._state:
            raise TypeError(f"expected a Body of this world, got {body!r}")
        return body._row()

    # -- zero-copy views ----------------------------------------------------------------
    def _view(self, column):
        """The live rows of the body store's ``column`` (``column_view`` makes them
        read-only)."""
        bodies = self._state.bodies
        return getattr(bodies, column)[: bodies.used]

    positions = column_view("pos", "Read-only (n, 2) view of body origins, in body order (no copy).")
    angles = column_view("angle", "Read-only (n,) view of body angles in radians.")
    velocities = column_view("vel", "Read-only (n, 2) view of centre-of-mass velocities.")
    angular_velocities = column_view("angvel", "Read-only (n,) view of angular velocities.")

    # -- the step ---------------------------------------------------------------------------
    def step(self, dt):
        """Advance the world by ``dt`` seconds (fixed steps of 1/60 s are typical).

        Parameters
        ----------
        dt : float
            The time step in seconds, > 0 and at most ``MAX_DT`` (1 s).

        Raises
        ------
        ValueError
            If ``dt`` is not a number in that range (nothing is changed).
        RuntimeError
            If the step would track more than ``MAX_PAIRS`` pairs of overlapping boxes
            (thousands of bodies created at one point): raised before any body moves;
            remove or spread bodies and step again.
        """
        if not (type(dt) is float and 0.0 < dt <= K.MAX_DT):  # (the common case checked inline)
            dt = as_between(as_positive(dt, "dt"), "dt", 0.0, K.MAX_DT, "s")
        state = self._state
        if state.locked:
            state.check_unlocked()  # raises
        if state.awake == 0 and stages.resting(state):  # everything sleeps: a step costs nothing
            return
        state.locked = True
        state.touch()
        try:
            stages.broadphase(state, dt)
            stages.narrowphase(state, dt)
            stages.wake(state)
            stages.touching(state)
            skipped = stages.before_solve(state)  # one-way platforms, begin and pre_solve
            stages.solve(state, dt)
            stages.continuous(state)
            stages.sleep(state, dt)
            stages.sensors(state)
            stages.events(state, dt)
            stages.after_solve(state, skipped)  # post_solve and separate
        finally:
            state.locked = False
        stages.finish(state)  # joints past their break load, World.after_step's functions

    def debug_draw(self, drawer, flags=None):
        """Draw the world through ``drawer`` (an :class:`engine.draw.debug_draw.DebugDraw`).

        The engine imports no renderer: adapters implement the drawer.

        Parameters
        ----------
        drawer : engine.draw.debug_draw.DebugDraw
            Receives the drawing primitives, e.g. ``engine.draw.pygame_draw.PygameDraw``
            or ``engine.draw.matplotlib_draw.MatplotlibDraw``.
        flags : engine.draw.debug_draw.DrawFlags, optional
            What to draw, combined with ``|``; ``DrawFlags.SHAPES`` by default.
        """
        from ..draw import debug_draw  # lazily: drawing is not part of stepping

        debug_draw.draw_world(self, drawer, debug_draw.DrawFlags.SHAPES if flags is None else flags)

    def __repr__(self):
        state = self._state
        return f"<World {state.bodies.used} bodies, {len(state.pairs)} pairs, gravity={state.gravity}>"


def _as_id(value, count, what):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"a {what} id must be an int, got {value!r}")
    if not 0 <= int(value) < count:
        raise ValueError(f"no {what} has id {value!r}")
    return int(value)


def _as_substeps(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"substeps must be an int from 1 to 64, got {value!r}")
    if not 1 <= int(value) <= 64:
        raise ValueError(f"substeps must be an int from 1 to 64, got {value!r}")
    return int(value)


def _mixing_code(value):
    if value not in _MIXING:
        raise ValueError(f"mixing must be 'box2d' or 'pymunk', got {value!r}")
    return _MIXING[value]
