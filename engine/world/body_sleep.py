"""The sleep side of ``Body`` (a base class of it): ``awake``, ``sleep_threshold``,
``can_sleep`` (``docs/sleeping.md``)."""
from .. import constants as K
from .._checks import as_between, as_bool
from . import sleeping

__all__ = ["BodySleep"]


class BodySleep:
    """Sleep state and settings of a :class:`~engine.Body`."""

    @property
    def awake(self):
        """False while the body sleeps (and for static bodies, which never move). Setting
        True wakes its island; setting False puts it and the awake bodies it touches or
        is joined to to sleep at once.

        Examples
        --------
        >>> from engine import World, Circle
        >>> world = World()
        >>> ball = world.create_body()
        >>> _ = ball.add_shape(Circle(0.5))
        >>> ball.awake
        True
        >>> ball.awake = False
        >>> world.step(1 / 60)
        >>> ball.position, ball.awake
        ((0.0, 0.0), False)
        """
        i = self._row()
        b = self._state.bodies
        return bool(b.btype[i] != 0 and not b.asleep[i])

    @awake.setter
    def awake(self, value):
        value = as_bool(value, "awake")
        self._state.check_unlocked()
        i = self._row()
        if value:
            sleeping.wake(self._state, i)
        else:
            sleeping.sleep_island(self._state, i)

    @property
    def sleep_threshold(self):
        """Speed in m/s (its turn rate times its extent included) below which the body
        counts as resting (0.05 by default, as in Box2D)."""
        return float(self._state.bodies.sleep_threshold[self._row()])

    @sleep_threshold.setter
    def sleep_threshold(self, value):
        value = as_between(value, "sleep_threshold", 0.0, K.MAX_INPUT_SPEED, "m/s")
        self._state.check_unlocked()
        i = self._row()
        self._state.bodies.sleep_threshold[i] = value

    @property
    def can_sleep(self):
        """False keeps the body, and so its island, awake (True by default)."""
        return bool(self._state.bodies.can_sleep[self._row()])

    @can_sleep.setter
    def can_sleep(self, value):
        value = as_bool(value, "can_sleep")
        self._state.check_unlocked()
        i = self._row()
        self._state.bodies.can_sleep[i] = value
        if not value:
            sleeping.wake(self._state, i)
