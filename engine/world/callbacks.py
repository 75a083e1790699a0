"""Collision callbacks with pymunk's semantics, dispatched from the event arrays.

``world.on_collision(type_a, type_b, begin=, pre_solve=, post_solve=, separate=)``
registers a handler for pairs of shapes whose ``collision_type`` are ``type_a`` and
``type_b`` (``None`` matches any type). Each callback is called as ``fn(contact)`` with
a :class:`~engine.world.contact.Contact` whose shapes come in the handler's type order:

- ``begin``: the step two shapes start touching, before that step's solver;
  ``contact.enabled = False`` ignores the pair until they separate;
- ``pre_solve``: every step they touch, before the solver; ``enabled = False`` ignores
  the pair for this step, and the material can be changed for this step;
- ``post_solve``: after the solver, for the touching pairs it solved, with impulses;
- ``separate``: the step they stop touching (also when one is removed), after the step.

Every matching handler is called, in the order they were registered. A world without
handlers runs none of this: the step costs the same as before. The world is locked
while callbacks run; ``world.after_step(fn, *args)`` queues a change for when the step
ends.
"""
import numpy as np

from ..contacts.layout import C_COUNT
from .contact import Contact, touching_rows

__all__ = ["Handler", "dispatch_before_solve", "dispatch_after_solve", "run_after_step",
           "disable_rows"]


class Handler:
    """One ``on_collision`` registration."""

    __slots__ = ("type_a", "type_b", "begin", "pre_solve", "post_solve", "separate")

    def __init__(self, type_a, type_b, begin, pre_solve, post_solve, separate):
        self.type_a, self.type_b = type_a, type_b
        self.begin, self.pre_solve = begin, pre_solve
        self.post_solve, self.separate = post_solve, separate

    def order(self, ha, hb):
        """``(first, second, swapped)`` when the pair matches this handler, else None."""
        ta, tb = ha._collision_type, hb._collision_type  # (kept by a removed shape's handle)
        if self._fits(ta, tb):
            return ha, hb, False
        if self._fits(tb, ta):
            return hb, ha, True
        return None

    def _fits(self, ta, tb):
        return (self.type_a is None or self.type_a == ta) and (self.type_b is None or self.type_b == tb)


def _matches(state, key, kind):
    """The handlers with a ``kind`` callback that match shape pair ``key``, with the
    shapes in their order."""
    handles = state.shape_handles
    ha, hb = handles[int(key >> 32)], handles[int(key & 0xFFFFFFFF)]
    if ha is None or hb is None:
        ha, hb = state.removed_handles.get(int(key), (ha, hb))
    for handler in state.handlers:
        if getattr(handler, kind) is None:
            continue
        ordered = handler.order(ha, hb)
        if ordered is not None:
            yield handler, ordered


def _call(state, kind, key, row, row_swapped):
    """Call every matching ``kind`` callback on shape pair ``key``; returns the contacts."""
    contacts = []
    for handler, (first, second, swapped) in _matches(state, key, kind):
        contact = Contact(state, row, (first, second), swapped != bool(row_swapped))
        getattr(handler, kind)(contact)
        contacts.append(contact)
    return contacts


def dispatch_before_solve(state):
    """``begin`` for the pairs that started touching, then ``pre_solve`` for every
    touching pair; empties the rows of the pairs to leave out of this step's solver and
    returns their shape-pair keys."""
    index, keys, swapped = touching_rows(state)
    begun = set(state.begun.tolist())
    skip = []
    for row, key, flip in zip(index.tolist(), keys.tolist(), swapped.tolist()):
        if key in begun and any(not c.enabled for c in _call(state, "begin", key, row, flip)):
            state.disabled.add(key)
        if key in state.disabled:
            skip.append(key)
            continue
        if any(not c.enabled for c in _call(state, "pre_solve", key, row, flip)):
            skip.append(key)
    skip = np.array(sorted(skip), np.int64)
    disable_rows(state, skip)
    return skip


def dispatch_after_solve(state, skipped):
    """``post_solve`` for the touching pairs the solver solved, ``separate`` for the
    pairs that stopped touching (re-enabling pairs disabled in ``begin``)."""
    if any(h.post_solve is not None for h in state.handlers):
        index, keys, swapped = touching_rows(state)
        solved = ~np.isin(keys, skipped)
        for row, key, flip in zip(index[solved].tolist(), keys[solved].tolist(),
                                  swapped[solved].tolist()):
            _call(state, "post_solve", key, row, flip)
    for key in state.ended.tolist():
        state.disabled.discard(key)
        _call(state, "separate", key, None, False)
    state.removed_handles.clear()


def run_after_step(state):
    """Run the functions queued with ``World.after_step``, each once, in order."""
    while state.post_step:
        fn, args = state.post_step.pop(0)
        fn(*args)


def disable_rows(state, keys):
    """Empty the contact rows of the piece pairs of shape pairs ``keys`` for this step."""
    if keys.size == 0:
        return
    rows = state.pairs.rows
    a, b = state.pairs.pieces()
    sa = state.pieces.shape[a].astype(np.int64)
    sb = state.pieces.shape[b].astype(np.int64)
    row_keys = (np.minimum(sa, sb) << 32) | np.maximum(sa, sb)
    rows[np.isin(row_keys, keys), C_COUNT] = 0.0
