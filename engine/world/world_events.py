"""The part of ``World`` that reports contacts: event arrays, the touching pairs, and
collision callbacks (a base class of ``World`` reading and writing ``self._state``)."""
import numpy as np

from .._checks import as_non_negative
from ..contacts.layout import C_TOUCHING
from . import callbacks
from .contact import contact_table

__all__ = ["WorldEvents"]


class WorldEvents:
    """Events, contacts and callbacks of :class:`~engine.World` (see ``docs/events.md``)."""

    @property
    def contact_events(self):
        """The last step's :class:`~engine.world.events.ContactEvents` (``begin``, ``end``,
        ``hit``): read-only record arrays of shape ids, valid until the next step.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> ground = world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
        >>> ball = world.create_body(position=(0, 1)).add_shape(Circle(0.5))
        >>> begins = 0
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        ...     begins += len(world.contact_events.begin)
        >>> begins, world.contact_events.end.shape_a.tolist()
        (1, [])
        """
        return self._state.contact_events

    @property
    def hit_event_threshold(self):
        """Approach speed in m/s above which a contact's push is a hit event (1 by default,
        as in Box2D).

        Examples
        --------
        >>> from engine import World
        >>> World().hit_event_threshold
        1.0
        """
        return self._state.hit_threshold

    @hit_event_threshold.setter
    def hit_event_threshold(self, value):
        self._state.hit_threshold = as_non_negative(value, "hit_event_threshold")

    def contacts(self):
        """The pairs of shapes touching now, one row per pair (Box2D's contact data,
        pymunk's arbiters), as a read-only record array.

        Fields: ``shape_a``, ``shape_b`` (ids, ``shape_a < shape_b``), ``normal`` (k, 2,
        from a to b), ``point_count``, ``points`` (k, 2, 2), ``depths`` (k, 2, positive
        when overlapping), ``normal_impulses`` and ``tangent_impulses`` (k, 2, N s,
        summed over the last step's substeps). A concave shape touching another through
        several of its pieces reports its deepest piece contact.

        Examples
        --------
        >>> from engine import World, Polygon
        >>> world = World(gravity=(0, -10))
        >>> floor = world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
        >>> box = world.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1), density=2.0)
        >>> for _ in range(30):
        ...     world.step(1 / 60)
        >>> c = world.contacts()
        >>> c.point_count.tolist(), round(float(c.normal_impulses.sum()), 4)  # m g dt
        ([2], 0.3333)
        """
        return contact_table(self._state)

    def on_collision(self, type_a=None, type_b=None, *, begin=None, pre_solve=None,
                     post_solve=None, separate=None):
        """Call functions when shapes of two collision types touch (pymunk's semantics).

        See :mod:`engine.world.callbacks` for when each callback runs; each is called as
        ``fn(contact)`` with a :class:`~engine.world.contact.Contact` whose shapes are in
        ``(type_a, type_b)`` order.

        Parameters
        ----------
        type_a, type_b : int or None
            ``handle.collision_type`` of the two shapes; None matches any type.
        begin, pre_solve, post_solve, separate : callable or None
            The callbacks.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5))) and None
        >>> ball = world.create_body(position=(0, 2)).add_shape(Circle(0.25), collision_type=7)
        >>> landed = []
        >>> world.on_collision(7, None, begin=lambda c: landed.append(c.shapes[0] is ball))
        >>> for _ in range(60):
        ...     world.step(1 / 60)
        >>> landed
        [True]
        """
        for name, value in (("type_a", type_a), ("type_b", type_b)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
                raise TypeError(f"{name} must be an int or None, got {value!r}")
        fns = dict(begin=begin, pre_solve=pre_solve, post_solve=post_solve, separate=separate)
        for name, fn in fns.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"{name} must be callable or None, got {fn!r}")
        if all(fn is None for fn in fns.values()):
            raise ValueError("on_collision needs at least one of begin, pre_solve, post_solve, separate")
        self._state.check_unlocked()
        self._state.handlers.append(callbacks.Handler(
            None if type_a is None else int(type_a), None if type_b is None else int(type_b), **fns))

    def after_step(self, fn, *args):
        """Run ``fn(*args)`` once, when the current (or next) step ends: the way to change
        the world from a collision callback, where it is locked.

        Parameters
        ----------
        fn : callable
            Called with ``args`` after the step, the world unlocked.
        *args
            Its arguments.
        """
        if not callable(fn):
            raise TypeError(f"fn must be callable, got {fn!r}")
        self._state.post_step.append((fn, args))

    @property
    def sensor_events(self):
        """The last step's :class:`~engine.world.events.SensorEvents` (``begin``, ``end``):
        record arrays of (``sensor``, ``visitor``) shape ids, valid until the next step.

        Examples
        --------
        >>> from engine import World, Polygon, Circle
        >>> world = World()
        >>> coin = world.create_body("static").add_shape(Circle(0.3), sensor=True)
        >>> ball = world.create_body(position=(0, 3)).add_shape(Circle(0.2))
        >>> seen = []
        >>> for _ in range(90):
        ...     world.step(1 / 60)
        ...     seen += world.sensor_events.begin.visitor.tolist()
        >>> seen == [ball.id]
        True
        """
        return self._state.sensor_events

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
        return int(np.count_nonzero(self._state.pairs.rows[:, C_TOUCHING] > 0.0))
