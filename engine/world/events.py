"""Contact events as arrays: what began and stopped touching in the last step.

``world.contact_events`` is rebuilt by every step from the pair set (kernels in
``contacts/events.py``); its arrays are NumPy record arrays, read-only, valid until the
next step, in shape-pair key order, made when first read (a step keeps the kernels'
key arrays only). No Python object is made per contact.
"""
import numpy as np

__all__ = ["ContactEvents", "SensorEvents", "shape_pairs", "sensor_pairs", "hits", "NO_HITS"]

_PAIR = np.dtype([("shape_a", np.int64), ("shape_b", np.int64)])
_VISIT = np.dtype([("sensor", np.int64), ("visitor", np.int64)])
_HIT = np.dtype([("shape_a", np.int64), ("shape_b", np.int64), ("point", np.float64, (2,)),
                 ("normal", np.float64, (2,)), ("approach_speed", np.float64)])


def _frozen(records):
    records.flags.writeable = False
    return records.view(np.recarray)


def _empty(dtype):
    return _frozen(np.empty(0, dtype))


def shape_pairs(keys):
    """Record array (``shape_a``, ``shape_b``) of shape-pair keys ``(a << 32) | b``.

    Examples
    --------
    >>> import numpy as np
    >>> pairs = shape_pairs(np.array([(1 << 32) | 4], np.int64))
    >>> pairs.shape_a.tolist(), pairs.shape_b.tolist(), pairs.flags.writeable
    ([1], [4], False)
    """
    if keys.shape[0] == 0:
        return NO_PAIRS  # shared: read-only, and most steps have no events
    out = np.empty(keys.shape[0], _PAIR)
    out["shape_a"] = keys >> 32
    out["shape_b"] = keys & 0xFFFFFFFF
    return _frozen(out)


def sensor_pairs(keys):
    """Record array (``sensor``, ``visitor``) of keys ``(sensor << 32) | visitor``."""
    if keys.shape[0] == 0:
        return NO_VISITS
    out = np.empty(keys.shape[0], _VISIT)
    out["sensor"] = keys >> 32
    out["visitor"] = keys & 0xFFFFFFFF
    return _frozen(out)


def hits(shape_a, shape_b, point, normal, speed):
    """Record array of hit events (fields ``shape_a``, ``shape_b``, ``point``, ``normal``,
    ``approach_speed``)."""
    out = np.empty(shape_a.shape[0], _HIT)
    out["shape_a"], out["shape_b"] = shape_a, shape_b
    out["point"], out["normal"], out["approach_speed"] = point, normal, speed
    return _frozen(out)


NO_PAIRS = _empty(_PAIR)
NO_VISITS = _empty(_VISIT)
NO_HITS = _empty(_HIT)


class ContactEvents:
    """The contact events of the last step (``world.contact_events``).

    Attributes
    ----------
    begin : numpy.recarray
        Shape pairs that started touching (fields ``shape_a``, ``shape_b``, shape ids,
        ``shape_a < shape_b``): a point within ``TOUCHING_DISTANCE`` (2 cm, speculative
        points included, as in Box2D).
    end : numpy.recarray
        Shape pairs that stopped touching, including pairs ended by removing a shape or
        body, changing a filter or a body type since the step before.
    hit : numpy.recarray
        Contacts that began at an approach speed above ``world.hit_event_threshold``:
        ``shape_a``, ``shape_b``, ``point`` (k, 2), ``normal`` (k, 2, from a to b) and
        ``approach_speed`` (m/s).
    """

    __slots__ = ("_begin", "_end", "_hit", "_parts")

    def __init__(self, begin, end, hit):
        self._begin, self._end, self._hit = begin, end, hit
        self._parts = None

    @classmethod
    def empty(cls):
        """No events (before the first step)."""
        return cls(NO_PAIRS, NO_PAIRS, NO_HITS)

    @classmethod
    def of_step(cls, begun, ended, hit_parts):
        """The events of a step, made into record arrays only when first read (a game
        that never reads them pays nothing for them): ``begun``, ``ended`` sorted
        shape-pair keys, ``hit_parts`` None or ``(keys, point, normal, speed)``.

        Examples
        --------
        >>> import numpy as np
        >>> events = ContactEvents.of_step(np.array([(2 << 32) | 5], np.int64), np.zeros(0, np.int64), None)
        >>> events.begin.shape_b.tolist(), len(events.end), len(events.hit)
        ([5], 0, 0)
        """
        events = cls(None, None, None)
        events._parts = (begun, ended, hit_parts)
        return events

    @property
    def begin(self):
        if self._begin is None:
            self._begin = shape_pairs(self._parts[0])
        return self._begin

    @property
    def end(self):
        if self._end is None:
            self._end = shape_pairs(self._parts[1])
        return self._end

    @property
    def hit(self):
        if self._hit is None:
            parts = self._parts[2]
            if parts is None:
                self._hit = NO_HITS
            else:
                keys, point, normal, speed = parts
                self._hit = hits(keys >> 32, keys & 0xFFFFFFFF, point, normal, speed)
        return self._hit

    def __repr__(self):
        return f"<ContactEvents begin={len(self.begin)} end={len(self.end)} hit={len(self.hit)}>"


class SensorEvents:
    """The sensor events of the last step (``world.sensor_events``).

    Attributes
    ----------
    begin : numpy.recarray
        Fields ``sensor`` and ``visitor`` (shape ids): shapes that started overlapping a
        sensor, including those that crossed it within the step (they also end).
    end : numpy.recarray
        Shapes that stopped overlapping a sensor (or were removed, or crossed it).
    """

    __slots__ = ("begin", "end")

    def __init__(self, begin, end):
        self.begin = begin
        self.end = end

    @classmethod
    def empty(cls):
        """No events (before the first step)."""
        return cls(NO_VISITS, NO_VISITS)

    def __repr__(self):
        return f"<SensorEvents begin={len(self.begin)} end={len(self.end)}>"


NO_EVENTS = ContactEvents.empty()  # shared: a step with nothing touching makes no arrays
