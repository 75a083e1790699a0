"""The stages of ``World.step``, each one named call over the world's state.

Each function hands the kernels the state's named tuples (``state.py``) and keeps the
Python side's bookkeeping (scratch buffers, merging new pairs); ``docs/pipeline.md``
lists what each stage reads and writes. They do not call each other: they meet in
``World.step``.
"""
import operator

import numpy as np

from .. import constants as K
from .._dispatch import StageKernel
from .._keys import union_keys, unique_keys
from ..broadphase.find_pairs import tree_find_pairs
from ..contacts.events import hit_events, sorted_difference, touch_changes
from ..broadphase.proxies import placed_proxies, refresh_proxies
from ..dynamics.continuous import find_fast, solve_continuous
from ..dynamics.sleep import update_sleep, wake_touched
from ..dynamics.soft_step import step_bodies
from . import callbacks, compile_ahead, filter_kinds
from .joint_rows import break_overloaded
from .one_way import one_way_platforms
from .events import NO_EVENTS, ContactEvents, SensorEvents, sensor_pairs
from .sensor_kernels import CROSSED, OVERLAPS, sensor_visits
from .sleeping import sleep_columns, sleep_links

__all__ = ["broadphase", "narrowphase", "wake", "touching", "before_solve", "solve",
           "continuous", "sleep", "sensors", "events", "after_solve", "finish", "resting"]


NOTHING = np.empty(0, np.int64)
# The kernels every step calls, called past Numba's argument typing while the state hands
# them the same tuples as last time (``engine/_dispatch.py``).
_refresh_proxies = StageKernel(refresh_proxies)
_step_bodies = StageKernel(step_bodies)
_LEAST_BOUNCE = np.float64(K.IMPACT_MIN_RESTITUTION)  # typed: a Python float is no literal, but alike
_find_fast = StageKernel(find_fast)
_hit_events = StageKernel(hit_events)  # (measured alone: 8 -> 4 us a call)
_solve_continuous = StageKernel(solve_continuous)
_tree_find_pairs = StageKernel(tree_find_pairs)
NO_SENSOR_EVENTS = SensorEvents.empty()  # shared, as NO_EVENTS: read-only arrays


def _scratch(state, name, size, dtype):
    """A reusable buffer of at least ``size`` entries kept on the state."""
    buf = state.scratch.get(name)
    if buf is None or buf.size < size:
        buf = state.scratch[name] = np.empty(max(16, 2 * size), dtype)
    return buf


def _sized(state, name, size, dtype):
    """A reusable buffer of exactly ``size`` entries kept on the state: the same array
    while the size stays (so that a ``StageKernel`` call can skip its typing)."""
    buf = state.scratch.get(name)
    if buf is None or buf.size != size:
        buf = state.scratch[name] = np.empty(size, dtype)
    return buf


def broadphase(state, dt):
    """Refresh the moving proxies and merge the new candidate pairs into the pair set.

    Pieces whose fat box changed, and the pieces of bodies placed by hand (static ones
    included), look for new pairs in both trees.
    """
    # While some body sleeps, the narrowphase keeps its pairs' rows: they move with the pairs.
    carry = state.asleep_count > 0 and bool(state.bodies.asleep[:state.bodies.used].any())
    state.pairs.compact_dropped(carry)
    bodies, pieces = state.body_arrays(), state.piece_arrays()
    n_pieces = state.pieces.used
    moved = _scratch(state, "moved", 2 * n_pieces, np.int32)
    tree, static_tree = state.tree.arrays, state.static_tree.arrays
    quality = state.scratch.get("tree_quality")  # the tree's area ratio when last rebuilt
    if quality is None:
        quality = state.scratch["tree_quality"] = np.zeros(1)
    count = _refresh_proxies(bodies, pieces, tree, state.proxy_params(dt), moved, quality)
    n_static = 0
    if state.placed:  # pieces placed by hand look for pairs too (static ones included)
        placed_static = _scratch(state, "placed_static", n_pieces, np.int32)
        n_placed, n_static = placed_proxies(bodies, pieces, moved[count:], placed_static)
        count += n_placed
        state.placed = False
    if count == 0 and n_static == 0:
        return  # nothing left its fat box: no new pair (most steps of a resting world)
    rule = state.pair_rule()
    moving, fixed = filter_kinds.search_unions(state)
    # Both searches before either merge, each bounded: too many pairs raise before any
    # pair is added or any body moves (the query method finds a pair of two moved
    # leaves twice, hence the factor 2).
    limit = 2 * max(K.MAX_PAIRS - len(state.pairs), 0) + 2
    found = [_tree_find_pairs(static_tree, tree, placed_static[:n_static], rule, fixed, limit)
             if n_static else NOTHING,
             _tree_find_pairs(tree, static_tree, moved[:count], rule, moving, limit) if count else NOTHING]
    if any(len(k) and k[0] < 0 for k in found) or _tracked_after(state, found) > K.MAX_PAIRS:
        _too_many_pairs(state)
    for keys in found:
        if len(keys):
            state.pairs.add(keys, carry)


def _tracked_after(state, found):
    """How many pairs the pair set would hold with the ``found`` keys merged in."""
    total = len(state.pairs) + sum(map(len, found))
    if total > K.MAX_PAIRS:  # some found keys may be tracked already: count exactly
        total = len(np.union1d(state.pairs.keys, np.concatenate(found)))
    return total


def _too_many_pairs(state):
    """Refuse the step: every body looks for its pairs again at the next one (the fat
    boxes were refreshed and hand placements consumed by this one), then raise."""
    state.bodies.moved[: state.bodies.used] = K.MOVED_BY_HAND
    state.placed = True
    raise RuntimeError(
        f"this step would track more than {K.MAX_PAIRS:,} pairs of overlapping boxes "
        f"(engine.constants.MAX_PAIRS; {len(state.pairs):,} tracked now): too many bodies overlap "
        "in one place, as when thousands are created at one point. No body moved; remove or "
        "spread some bodies and step again")


def narrowphase(state, dt):
    """A manifold for every tracked pair (refreshed from its cache while it barely moved)."""
    state.pairs.update(state.body_arrays(), state.piece_arrays(), state.narrow_params(dt))


def wake(state):
    """Wake the sleeping islands an awake body now touches or is joined to."""
    if state.asleep_count:
        if wake_touched(sleep_columns(state), sleep_links(state)):
            state.awake = -1


def resting(state):
    """Finish the step at once if the whole world sleeps and nothing was changed since
    the last step (no body moves, no pair changes, no event): set the step's events to
    none, run the functions queued with ``World.after_step`` and return True. Otherwise
    return False (the caller steps). One call for all of it: a sleeping world's step is
    this and ``World.step``'s checks (0.41-0.43 us on this machine, Box2D v3's 0.6)."""
    if (state.awake != 0 or not state.sleeping or state.placed or state.pending_ends
            or state.pending_sensor_ends or state.handlers):
        return False
    if (state.contact_events is not NO_EVENTS or state.begun is not NOTHING
            or state.ended is not NOTHING):  # (else set already)
        state.begun = state.ended = NOTHING
        state.contact_events = NO_EVENTS
    state.sensor_events = NO_SENSOR_EVENTS
    if state.broken.size:  # no joint breaks in a step that solves nothing
        state.broken = np.empty(0, np.int64)
    if state.post_step:
        callbacks.run_after_step(state)
    return True


def sleep(state, dt):
    """Advance the sleep timers and put the islands that rested long enough to sleep."""
    if state.sleeping and state.bodies.used:
        state.next_island, state.awake, state.asleep_count = update_sleep(
            sleep_columns(state), sleep_links(state), dt, state.time_to_sleep,
            state.next_island)


def before_solve(state):
    """What changes the contacts between the narrowphase and the solver: one-way
    platforms let pairs through, then (with collision handlers) ``begin`` and
    ``pre_solve`` run. Returns the shape-pair keys the callbacks left out of this step's
    solver (None without handlers)."""
    if state.one_way_count:
        one_way_platforms(state)
    if not state.handlers:
        return None
    # The callbacks' contacts place points from the step's start pose, which the solver
    # would only keep later.
    b = state.body_arrays()
    np.copyto(b.pos0, b.pos)
    np.copyto(b.angle0, b.angle)
    return callbacks.dispatch_before_solve(state)


def after_solve(state, skipped):
    """``post_solve`` and ``separate`` for the collision handlers, if any (``skipped``:
    what :func:`before_solve` returned)."""
    if state.handlers:
        callbacks.dispatch_after_solve(state, skipped)


def finish(state):
    """After the world unlocks: the joints loaded past their break force or torque in
    the step are removed and listed in ``world.joint_events.broken``, then the functions
    queued with ``World.after_step`` run, in order (a resting world's step does both in
    :func:`resting`)."""
    if state.joints.breakable:
        break_overloaded(state)
    elif state.broken.size:
        state.broken = np.empty(0, np.int64)
    callbacks.run_after_step(state)


def solve(state, dt):
    """The soft step: contacts solved in substeps, bodies integrated (the poses the step
    started from kept in ``pos0``, ``angle0`` for the continuous stage)."""
    state.hit_pairs = NOTHING
    if state.bodies.used:
        if compile_ahead.pending():  # a first run: the solver is compiling in a helper
            compile_ahead.wait()
        state.pairs.reserve()
        joints = state.joints.arrays() if len(state.joints) else None
        bouncy = _LEAST_BOUNCE if state.bouncy else None  # (None: not even compiled)
        # Skip the solve-block search for a while after it found that blocks would not
        # pay (one large island): the results are the same either way.
        wait = state.scratch.get("block_wait", 0)
        params = state.solver_params(dt) if wait == 0 else _one_block(state, dt)
        state.hit_pairs, state.scratch["solver"], blocks = _step_bodies(
            state.body_arrays(), state.pairs.arrays(), joints, bouncy, params,
            _scratch(state, "solver", 0, np.float64))
        state.scratch["block_wait"] = K.SOLVE_BLOCK_RETRY if blocks == 0 else max(wait - 1, 0)


def _one_block(state, dt):
    """The solver parameters with solve blocks off (the same tuple while they last)."""
    params = state.solver_params(dt)
    kept = state.scratch.get("one_block")
    if kept is None or kept[0] is not params:
        kept = state.scratch["one_block"] = (params, params._replace(block_contacts=0))
    return kept[1]


def continuous(state):
    """Fast bodies swept from their start pose and clamped to their first impact."""
    n = state.bodies.used
    fast = _sized(state, "fast", n, np.uint8)
    bodies = state.body_arrays()
    if _find_fast(bodies, state.continuous_params().safety, fast):
        _solve_continuous(fast, bodies, state.piece_arrays(), state.pairs.keys,
                          _sweep_candidates(state), state.continuous_params())


def _sweep_candidates(state):
    """``(tree, static_tree, rule, one_way)`` for ``solve_continuous``: the same tuple
    while its parts stay the same, so that its call skips Numba's typing of 25 arrays
    (``engine/_dispatch.py``)."""
    shapes = state.shapes
    parts = (state.tree.arrays, state.static_tree.arrays, state.pair_rule(), shapes.one_way)
    kept = state.scratch.get("sweep_candidates")
    if (kept is None or kept[1] != shapes.used
            or not all(map(operator.is_, parts, kept[0]))):
        kept = state.scratch["sweep_candidates"] = (
            parts, shapes.used, parts[:3] + (shapes.one_way[:shapes.used],))
    return kept[2]


def sensors(state):
    """Sensor events: the shapes overlapping each sensor now against the last step's, and
    those that crossed a sensor within the step (they begin and end at once)."""
    before, ended = state.overlapping, state.pending_sensor_ends
    if state.sensor_pieces.size == 0 and before.size == 0 and not ended:
        return
    keys, kinds = sensor_visits(state.sensor_pieces, state.body_arrays(), state.piece_arrays(),
                                state.shape_arrays(), state.trees())
    now = unique_keys(keys[kinds == OVERLAPS])
    crossed = sorted_difference(unique_keys(keys[kinds == CROSSED]), union_keys(now, before))
    begin = union_keys(sorted_difference(now, before), crossed)
    end = union_keys(sorted_difference(before, now), crossed)
    if ended:
        end = union_keys(end, np.array(ended, np.int64))
        state.pending_sensor_ends = []
    state.overlapping = now
    state.sensor_events = SensorEvents(sensor_pairs(begin), sensor_pairs(end))


def touching(state):
    """Which shape pairs touch after the narrowphase, and which of them began or ended
    touching since the last step (``state.begun``, ``state.ended``)."""
    pairs = state.pairs
    if len(pairs) == 0 and state.touching.size == 0 and not state.pending_ends:
        state.begun = state.ended = NOTHING  # an empty world, or nothing near anything
        return
    now, state.begun, end = touch_changes(pairs.keys, pairs.flags, state.pieces.shape,
                                          state.touching)
    if state.pending_ends:  # pairs of shapes removed since the last step
        end = union_keys(end, np.array(state.pending_ends, np.int64))
        state.pending_ends = []
    state.ended = end
    state.touching = now


def events(state, dt):
    """The step's contact events as arrays (``world.contact_events``)."""
    hit_parts = _hits(state, dt)
    if state.begun.size == 0 and state.ended.size == 0 and hit_parts is None:
        state.contact_events = NO_EVENTS
        return
    # record arrays made when read: about 10 us a step saved where nobody reads them
    state.contact_events = ContactEvents.of_step(state.begun, state.ended, hit_parts)


def _hits(state, dt):
    """The arrays of ``world.contact_events.hit`` from the solver's results
    (``contacts/events.py``): ``(keys, point, normal, speed)``, or None for no hit."""
    if state.hit_pairs.size == 0:
        return None  # no point pushed fast enough (the solver's bound)
    params = state.solver_params(dt)
    found = _hit_events(state.pairs.arrays(), state.hit_pairs, state.piece_arrays(),
                       state.body_arrays(), params.gravity, state.hit_threshold)
    return found if found[0].size else None
