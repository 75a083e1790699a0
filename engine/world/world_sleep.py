"""The part of ``World`` that switches sleeping and reports it (a base class of
``World``; ``dynamics/sleep.py`` puts islands to sleep, ``sleeping.py`` wakes them)."""
from .._api import state_setting
from .._checks import as_bool, as_positive
from . import sleeping

__all__ = ["WorldSleep"]


class WorldSleep:
    """Sleep settings of :class:`~engine.World` (``docs/sleeping.md``)."""

    @property
    def sleeping(self):
        """Whether resting islands fall asleep (True by default). Switching it off wakes
        every body.

        Examples
        --------
        >>> from engine import World
        >>> World().sleeping, World(sleeping=False).sleeping
        (True, False)
        """
        return self._state.sleeping

    @sleeping.setter
    def sleeping(self, value):
        value = as_bool(value, "sleeping")
        self._state.check_unlocked()
        if not value:
            sleeping.wake_all(self._state)
        self._state.sleeping = value

    time_to_sleep = state_setting("time_to_sleep", "time_to_sleep", as_positive,
                                  "Seconds an island must rest before it sleeps (0.5 by default, "
                                  "as in Box2D).")

    @property
    def awake_body_count(self):
        """The number of awake dynamic and kinematic bodies.

        Examples
        --------
        A box resting on the ground (static bodies are not counted) falls asleep after
        half a second at rest:

        >>> from engine import scenes
        >>> world, (ground, box) = scenes.vertical_stack(1).build()
        >>> world.awake_body_count
        1
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> world.awake_body_count, box.awake
        (0, False)
        """
        b = self._state.bodies
        n = b.used
        return int(((b.btype[:n] != 0) & (b.asleep[:n] == 0)).sum())
