"""The part of ``World`` that saves and restores its state (a base class of ``World``):
snapshots for rollback, a state hash for divergence checks, and versioned pickles.

``snapshot.py`` holds what is copied and why; ``docs/snapshots.md`` shows the uses.
"""
from . import snapshot as _snapshot

__all__ = ["WorldSnapshots", "PICKLE_FORMAT"]

# The layout of a pickled world. Bump it whenever the stores' columns or the state's
# attributes change meaning; a pickle of another format is refused on loading.
# 2: the solver's per-point results gained the gap hit events extrapolate over (R_GAP).
# 3: shapes keep their thinnest part and their reach about the centroid (_thin, _reach).
# 4: bodies keep their rotation with their angle (the ``turn`` column).
PICKLE_FORMAT = 4


class WorldSnapshots:
    """Snapshots, the state hash and pickling of :class:`~engine.World`."""

    def snapshot(self, out=None):
        """Save the state that changes from step to step, for :meth:`restore`.

        Poses, velocities, forces, sleep timers and islands, the broadphase trees, the
        tracked pairs with their manifolds and warm-start impulses, and the joints'
        impulses. Restoring it makes the world continue bit for bit as it did from here.
        Settings (masses, materials, gravity, joint motors) are not part of it.

        Parameters
        ----------
        out : Snapshot, optional
            An earlier snapshot of this world to overwrite: its arrays are reused when
            they fit, so a ring of snapshots (rollback) allocates nothing once warm.

        Returns
        -------
        Snapshot
            With ``nbytes``; restorable any number of times, and picklable.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> ball = world.create_body(position=(0, 10), velocity=(2, 0))
        >>> _ = ball.add_shape(Circle(0.5))
        >>> snap = world.snapshot()
        >>> world.step(1 / 60)
        >>> world.restore(snap)
        >>> ball.position, ball.velocity
        ((0.0, 10.0), (2.0, 0.0))
        """
        self._state.check_unlocked()
        return _snapshot.take(self._state, out)

    def restore(self, snapshot):
        """Put the world back to the moment ``snapshot`` was taken.

        Parameters
        ----------
        snapshot : Snapshot
            Taken from this world, or from the world this one is a copy of, while its
            bodies, shapes and joints were the ones it has now.

        Raises
        ------
        ValueError
            If the snapshot was taken from another world, or before bodies, shapes or
            joints were made, removed or changed in type or filter; nothing is changed.
        RuntimeError
            If called while the world steps (from a callback).

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> _ = world.create_body().add_shape(Circle(0.5))
        >>> snap = world.snapshot()
        >>> _ = world.create_body().add_shape(Circle(0.5))
        >>> world.restore(snap)
        Traceback (most recent call last):
        ...
        ValueError: this world's bodies, shapes or joints were made, removed or changed (type, filter) since the snapshot was taken; it no longer fits
        """
        self._state.check_unlocked()
        _snapshot.restore(self._state, snapshot)

    def state_hash(self):
        """A 64-bit hash of the state a step changes, to spot diverging runs.

        It covers the bodies' poses, velocities and sleep, the tracked pairs with their
        manifolds and impulses, and the joints' impulses (Box2D's determinism hash
        covers the poses alone).

        Returns
        -------
        int
            Between 0 and 2**64 - 1; equal states give equal hashes.

        Examples
        --------
        >>> from engine import World, Circle
        >>> a, b = World(), World()
        >>> for w in (a, b):
        ...     _ = w.create_body(position=(0, 3)).add_shape(Circle(0.5))
        ...     w.step(1 / 60)
        >>> a.state_hash() == b.state_hash()
        True
        """
        return _snapshot.state_hash(self._state)

    def __getstate__(self):
        state = self._state
        return {"format": PICKLE_FORMAT, "state": state, "fingerprint": _snapshot.fingerprint(state)}

    def __setstate__(self, saved):
        if not isinstance(saved, dict) or "format" not in saved:
            raise ValueError("this pickle holds an engine World from before pickles carried a "
                             f"format number; this engine reads format {PICKLE_FORMAT}")
        if saved["format"] != PICKLE_FORMAT:
            raise ValueError(f"this pickle holds an engine World of format {saved['format']!r}; "
                             f"this engine reads format {PICKLE_FORMAT} (pickle it again with "
                             "the engine version that wrote it, or rebuild the world)")
        state = saved.get("state")
        if getattr(state, "bodies", None) is None or saved.get("fingerprint") != _snapshot.fingerprint(state):
            raise ValueError("this pickled World is corrupted: its arrays do not match the "
                             "fingerprint stored with them")
        self._state = state
