"""Snapshots of a world's changing state, its hash, and the checks of a pickled world.

A step changes the body rows (poses, velocities, forces, sleep timers), the pieces' fat
boxes, the three broadphase trees, the tracked pairs with their manifolds and impulses,
the joint rows (accumulated impulses) and a few small arrays and sets on the
``WorldState`` (what touched after the last step, the events, the island counter). A
:class:`Snapshot` copies exactly those; :func:`restore` writes them back. The geometry
pool, the shape rows and the handles are not copied: they change only when bodies,
shapes or joints are made, removed or retyped, and then ``WorldState.restructure``
draws a new structure token, so a snapshot taken before no longer fits (``restore``
raises rather than writing rows into a different world).

Body, piece and joint rows are written back in place, so NumPy views taken earlier
(``world.positions``) keep seeing the world. Trees and pairs get fresh copies of the
saved arrays, so one snapshot can be restored any number of times (a rollback restores
the same frame again and again).

``fingerprint`` hashes every array a pickled world carries, so a blob corrupted inside
an array is refused on loading instead of simulating garbage (``world_snapshot.py``).
"""
import copy
import hashlib

import numpy as np


__all__ = ["Snapshot", "take", "restore", "state_hash", "fingerprint"]

# WorldState attributes a step replaces or mutates, besides the stores and trees.
_SMALL = ("broken", "next_island", "awake", "asleep_count", "touching", "pending_ends",
          "ended", "begun", "contact_events", "overlapping", "pending_sensor_ends",
          "sensor_events", "sensor_pieces", "disabled", "one_way_off", "removed_handles",
          "placed")
_TREES = ("tree", "static_tree", "sensor_tree")
# The columns a step writes: body motion, forces, sleep; piece fat boxes and tree
# leaves; joint rows (impulses). Settings (mass, friction, gravity) are not saved. The
# start poses ``pos0``, ``angle0`` are: the next step rewrites them before it reads
# them, but ``world.contacts()`` places the last step's points from them.
_BODY = ("pos", "angle", "turn", "vel", "angvel", "force", "torque", "pos0", "angle0", "moved",
         "asleep", "sleep_time", "island")
_PIECE = ("fat", "node")
_JOINT = ("data",)
# The layout of a pickled Snapshot; bump it when what a snapshot holds changes meaning.
# 2: contact rows, results and histories packed to the points in use (``row_pack.py``).
# 3: the bodies' rotations (``turn``) kept with their angles.
SNAPSHOT_FORMAT = 3
# The body columns the state hash covers: what a divergence check compares.
_HASHED_BODY = ("pos", "angle", "vel", "angvel", "asleep", "sleep_time")


class Snapshot:
    """The state of a world that changes from step to step (``World.snapshot()``).

    Restore it with ``World.restore(snapshot)`` on the world it was taken from, or on a
    copy of that world (``copy.deepcopy``, a pickle), while their bodies, shapes and
    joints are the ones it was taken with. It can be restored many times and pickled.

    Attributes
    ----------
    nbytes : int
        Bytes held by the snapshot's arrays.
    """

    __slots__ = ("_world", "_structure", "_bodies", "_pieces", "_joints", "_trees",
                 "_pairs", "_small")

    @property
    def nbytes(self):
        """Bytes held by the snapshot's arrays."""
        arrays = [*self._bodies.values(), *self._pieces.values(), *self._joints.values()]
        arrays += [a for tree in self._trees for a in tree]
        arrays += [a for a in self._pairs if a is not None]
        arrays += [v for v in self._small.values() if isinstance(v, np.ndarray)]
        return int(sum(a.nbytes for a in arrays))

    def __getstate__(self):
        return {"format": SNAPSHOT_FORMAT, **{name: getattr(self, name) for name in self.__slots__}}

    def __setstate__(self, saved):
        found = saved.get("format") if isinstance(saved, dict) else None
        if found != SNAPSHOT_FORMAT:
            raise ValueError(f"this pickle holds an engine Snapshot of format {found!r}; this "
                             f"engine reads format {SNAPSHOT_FORMAT} (take the snapshot again)")
        for name in self.__slots__:
            setattr(self, name, saved[name])

    def __repr__(self):
        n = len(next(iter(self._bodies.values()), ()))
        return f"<Snapshot of {n} bodies, {len(self._pairs[0])} pairs, {self.nbytes:,} bytes>"


def take(state, out=None):
    """A :class:`Snapshot` of ``state`` (a ``WorldState``) between steps, written into
    the arrays of the snapshot ``out`` when they fit (a ring of snapshots allocates
    nothing once warm)."""
    if out is not None and not isinstance(out, Snapshot):
        raise TypeError(f"out must be a Snapshot from World.snapshot(), got {type(out).__name__}")
    old = out if out is not None and out._world == state.world_token else None
    snap = out if out is not None else Snapshot()
    snap._world, snap._structure = state.world_token, state.structure
    snap._bodies = state.bodies.snapshot(_BODY, old and old._bodies)
    snap._pieces = state.pieces.snapshot(_PIECE, old and old._pieces)
    snap._joints = state.joints.columns.snapshot(_JOINT, old and old._joints)
    snap._trees = tuple(getattr(state, name).snapshot(old and old._trees[k])
                        for k, name in enumerate(_TREES))
    snap._pairs = state.pairs.snapshot(old and old._pairs)
    snap._small = {name: _copied(getattr(state, name)) for name in _SMALL}
    return snap


def restore(state, snap):
    """Write ``snap`` back into ``state``; raises ``ValueError`` (changing nothing) when it
    was taken from another world or before bodies, shapes or joints changed."""
    if not isinstance(snap, Snapshot):
        raise TypeError(f"restore takes a Snapshot from World.snapshot(), got {type(snap).__name__}")
    if snap._world != state.world_token:
        raise ValueError("this snapshot was taken from another world (a snapshot restores onto "
                         "the world it was taken from, or a copy of it)")
    if snap._structure != state.structure:
        raise ValueError("this world's bodies, shapes or joints were made, removed or changed "
                         "(type, filter) since the snapshot was taken; it no longer fits")
    state.bodies.restore(snap._bodies)
    state.pieces.restore(snap._pieces)
    state.joints.columns.restore(snap._joints)
    for name, saved in zip(_TREES, snap._trees):
        getattr(state, name).restore(saved)
    state.pairs.restore(snap._pairs)
    for name, value in snap._small.items():
        setattr(state, name, _copied(value))
    state.epoch += 1  # the queries' cached arrays are rebuilt on next use
    state.shape_epoch += 1


def _copied(value):
    """A copy of a small piece of state that later steps could mutate in place."""
    if isinstance(value, (np.ndarray, list, set, dict)):
        return copy.copy(value)
    return value


def state_hash(state):
    """A 64-bit hash of the bodies' motion and sleep, the pairs (keys, histories and
    solved rows) and the joints' accumulated impulses."""
    h = hashlib.blake2b(digest_size=8)
    b, n = state.bodies, state.bodies.used
    for name in _HASHED_BODY:
        h.update(np.ascontiguousarray(getattr(b, name)[:n]).data)
    # the pairs as a snapshot keeps them: the columns of the points in use (the rest keep
    # whatever an earlier pair left there, which no stage reads)
    hist, rows, _, counts = state.pairs.packed()
    for a in (state.pairs.keys, counts, hist, rows):
        h.update(np.ascontiguousarray(a).data)
    j = state.joints.columns
    h.update(np.ascontiguousarray(j.data[: j.used]).data)
    return int.from_bytes(h.digest(), "little")


def fingerprint(state):
    """A hash of every array a pickled ``state`` carries (the stores, trees, pairs and
    the small arrays), for spotting a corrupted pickle."""
    h = hashlib.blake2b(digest_size=16)
    _feed(h, state.__getstate__(), 3)
    return h.hexdigest()


def _feed(h, value, depth):
    if isinstance(value, np.ndarray):
        h.update(f"{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).data)
    elif isinstance(value, dict):
        for key in sorted(k for k in value if isinstance(k, str)):
            h.update(key.encode())
            _feed(h, value[key], depth)
    elif isinstance(value, (bool, int, float, str)):
        h.update(repr(value).encode())
    elif isinstance(value, tuple):
        for item in value:
            _feed(h, item, depth)
    elif depth and type(value).__module__.startswith("engine.") and hasattr(value, "__dict__"):
        state = value.__getstate__() if hasattr(type(value), "__getstate__") else vars(value)
        _feed(h, state if isinstance(state, dict) else vars(value), depth - 1)
