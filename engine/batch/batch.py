"""``WorldBatch``: n copies of a world stepped together, in the kernel calls of one step.

A batch is one merged world whose stores hold the n worlds lane after lane
(``replicate.py``). ``batch.step(dt)`` is that world's step: the same dozen kernel calls
whether it holds 1 world or 10,000, each looping over every lane's rows. The worlds never
touch (bodies of two lanes never pair), each keeps its own gravity, and each steps bit
for bit as the same world stepped alone (``docs/batch.md``).
"""
import numpy as np

from .. import constants as K
from .._api import column_view
from ..world.world import World
from . import lanes, replicate
from .lane_world import LaneWorld

__all__ = ["WorldBatch"]


class WorldBatch:
    """n independent copies of a world, stepped together.

    Build one with :meth:`replicate`. Body ``j`` of world ``i`` is row ``[i, j]`` of the
    ``(n, bodies, ...)`` views, in the template's body order.

    Parameters
    ----------
    merged : World
        The merged world holding every lane (built by :meth:`replicate`).
    n : int
        Number of worlds.
    per_world : tuple of int
        Rows of one world: bodies, shapes, pieces, joints.
    template : dict or None
        Every lane's rows when the batch was built, for :meth:`reset`.

    Examples
    --------
    >>> from engine import World, Circle, WorldBatch
    >>> world = World()
    >>> ball = world.create_body(position=(0, 10))
    >>> _ = ball.add_shape(Circle(0.5))
    >>> batch = WorldBatch.replicate(world, 3)
    >>> batch.gravity = [(0, -10), (0, -5), (0, 0)]
    >>> for _ in range(60):
    ...     batch.step(1 / 60)
    >>> batch.positions[:, 0, 1].round(2).tolist()
    [4.99, 7.49, 10.0]
    """

    def __init__(self, merged, n, per_world, template):
        self._world = merged
        self._state = merged._state
        self._n = n
        self._per_world = per_world  # rows of one world: (bodies, shapes, pieces, joints)
        self._template = template  # the lanes' state at replicate time, for reset
        self._structure = merged._state.structure  # the lanes are copies of one template

    @classmethod
    def replicate(cls, world, n):
        """A batch of ``n`` copies of ``world``'s current state.

        Parameters
        ----------
        world : World
            The template: its bodies, shapes, joints, settings and state (stepped or not)
            are copied; it is not changed and stays independent of the batch.
        n : int
            Number of worlds, >= 1.

        Returns
        -------
        WorldBatch
        """
        if not isinstance(world, World):
            raise TypeError(f"replicate takes an engine.World, got {type(world).__name__}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be an int >= 1 (the number of worlds), got {n!r}")
        return cls.from_worlds([world] * int(n))

    @classmethod
    def from_worlds(cls, worlds):
        """A batch of copies of ``worlds``, each in its current state.

        Parameters
        ----------
        worlds : sequence of World
            Copies of one world (as many bodies, shapes and joints, made in the same
            order) that may differ in state, materials, shape sizes and gravity; their
            other settings (substeps, sleeping, ...) must agree. They are not changed.

        Returns
        -------
        WorldBatch

        Raises
        ------
        ValueError
            If the worlds differ in structure or settings (naming the first that does);
            nothing is built.

        Examples
        --------
        >>> from engine import World, Circle, WorldBatch
        >>> worlds = [World(gravity=(0, g)) for g in (-10, -1)]
        >>> for w in worlds:
        ...     _ = w.create_body(position=(0, 5)).add_shape(Circle(0.5))
        >>> WorldBatch.from_worlds(worlds).gravity.tolist()
        [[0.0, -10.0], [0.0, -1.0]]
        """
        worlds = list(worlds)
        if not worlds or not all(isinstance(w, World) for w in worlds):
            raise TypeError("from_worlds takes a non-empty sequence of engine.World")
        replicate.check_sources(worlds)
        t = worlds[0]._state
        n = len(worlds)
        if (t.bodies.used + t.pieces.used) * n >= K.MAX_BATCH_ROWS:
            raise ValueError(f"{n} copies of {t.bodies.used} bodies and {t.pieces.used} pieces "
                             f"exceed MAX_BATCH_ROWS ({K.MAX_BATCH_ROWS:,}) rows")
        merged = World(gravity=t.gravity, substeps=t.substeps)
        replicate.merge(merged, worlds)
        per_world = (t.bodies.used, t.shapes.used, t.pieces.used, t.joints.columns.used)
        batch = cls(merged, n, per_world, None)
        batch._template = lanes.initial_rows(batch._state)
        return batch

    # -- sizes and views ----------------------------------------------------------------
    def __len__(self):
        return self._n

    @property
    def bodies_per_world(self):
        """Bodies in each world."""
        return self._per_world[0]

    def _view(self, column):
        """The body store's ``column``, world by world (``column_view`` makes it read-only)."""
        column = getattr(self._state.bodies, column)
        n, b = self._n, self._per_world[0]
        return column[: n * b].reshape((n, b) + column.shape[1:])

    positions = column_view("pos", "Read-only (n, bodies, 2) view of the body origins (set them "
                            "with :meth:`set_state`).")
    angles = column_view("angle", "Read-only (n, bodies) view of the body angles in radians.")
    velocities = column_view("vel", "Read-only (n, bodies, 2) view of the linear velocities of "
                             "the centres of mass.")
    angular_velocities = column_view("angvel", "Read-only (n, bodies) view of the angular "
                                     "velocities.")

    # -- per-world settings -------------------------------------------------------------
    @property
    def gravity(self):
        """Each world's gravity, a (n, 2) copy; assign (n, 2) or one (2,) for all.

        Examples
        --------
        >>> from engine import World, WorldBatch
        >>> batch = WorldBatch.replicate(World(gravity=(0, -9.8)), 2)
        >>> batch.gravity.tolist()
        [[0.0, -9.8], [0.0, -9.8]]
        """
        return self._state.lane_gravity.copy()

    @gravity.setter
    def gravity(self, value):
        g = lanes.as_lane_vectors(value, self._n, "gravity", K.MAX_GRAVITY)
        self._state.check_unlocked()
        np.copyto(self._state.lane_gravity, g)  # as World.gravity: sleeping bodies stay asleep

    def set_materials(self, friction=None, restitution=None, worlds=None):
        """Set the shapes' friction and restitution, per world or per world and shape.

        Parameters
        ----------
        friction, restitution : array_like, optional
            ``(k,)`` (one value for every shape of each chosen world) or ``(k, shapes)``,
            where ``k`` is the number of chosen worlds; friction >= 0, restitution 0..1.
        worlds : array_like of int or bool, optional
            The worlds to set (all by default).
        """
        lanes.set_materials(self._state, self._per_world, self._lanes(worlds),
                            friction, restitution)

    def set_state(self, positions=None, angles=None, velocities=None, angular_velocities=None,
                  worlds=None):
        """Set bodies' poses and velocities from arrays, as the ``Body`` setters would.

        Parameters
        ----------
        positions, velocities : array_like, optional
            ``(k, bodies, 2)`` for the ``k`` chosen worlds.
        angles, angular_velocities : array_like, optional
            ``(k, bodies)``.
        worlds : array_like of int or bool, optional
            The worlds to set (all by default).
        """
        lanes.set_state(self._state, self._per_world, self._lanes(worlds), positions, angles,
                        velocities, angular_velocities)

    def apply_forces(self, forces, torques=None, worlds=None):
        """Add forces at the bodies' centres of mass (and torques) for the next step, as
        ``Body.apply_force`` and ``Body.apply_torque`` do (they wake the body).

        Parameters
        ----------
        forces : array_like
            ``(k, bodies, 2)`` in N for the ``k`` chosen worlds.
        torques : array_like, optional
            ``(k, bodies)`` in N m.
        worlds : array_like of int or bool, optional
            The worlds to push (all by default).
        """
        lanes.apply_forces(self._state, self._per_world, self._lanes(worlds), forces, torques)

    def reset(self, worlds=None):
        """Put worlds back to the state the batch was built with (a Gymnasium
        ``reset``): bodies, boxes and joints as then, no pairs, no events pending.

        Parameters
        ----------
        worlds : array_like of int or bool, optional
            The worlds to reset (all by default).
        """
        lanes.reset(self._state, self._per_world, self._lanes(worlds), self._template)

    def _lanes(self, worlds):
        self._check_structure()
        return lanes.as_lanes(worlds, self._n)

    def _check_structure(self):
        if self._state.structure != self._structure:
            raise RuntimeError("bodies, shapes or joints were made, removed or retyped through "
                               "a handle of this batch; its worlds are no longer copies of one "
                               "template (build a new batch)")

    # -- stepping and single worlds ---------------------------------------------------------
    def step(self, dt):
        """Advance every world by ``dt`` seconds: one step of the merged world.

        Parameters
        ----------
        dt : float
            The time step in seconds, > 0 and at most ``MAX_DT`` (1 s).
        """
        self._check_structure()
        self._world.step(dt)

    def snapshot(self, out=None):
        """A :class:`~engine.Snapshot` of every world (``World.snapshot``).

        Parameters
        ----------
        out : Snapshot, optional
            An earlier snapshot of this batch whose arrays are reused.
        """
        return self._world.snapshot(out)

    def restore(self, snapshot):
        """Put every world back to ``snapshot`` (``World.restore``).

        Parameters
        ----------
        snapshot : Snapshot
            Taken from this batch.
        """
        self._world.restore(snapshot)

    def state_hash(self):
        """A 64-bit hash of every world's state (``World.state_hash``)."""
        return self._world.state_hash()

    def world(self, i):
        """A handle to world ``i``: its views, queries and debug drawing.

        Parameters
        ----------
        i : int
            0 <= i < n.

        Returns
        -------
        LaneWorld
        """
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self._n:
            raise IndexError(f"world index must be an int in [0, {self._n}), got {i!r}")
        return LaneWorld(self._world, int(i), self._per_world)

    def __repr__(self):
        return f"<WorldBatch of {self._n} worlds, {self._per_world[0]} bodies each>"

