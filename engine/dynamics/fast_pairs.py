"""Continuous collision between two fast bodies: both swept, the pair clamped at its
first impact, in time order.

``continuous.py`` sweeps each fast body against static and slow bodies held at their
end pose. Two fast bodies cannot be treated that way: holding either one still is
wrong by its whole motion (head-on balls at 300 m/s each, or a ball crossing the path
of a fast plank, passed through each other). Box2D v3 skips bullet-vs-bullet and
Rapier's CCD misses fast dynamic pairs (rapier #984). Here:

1. Candidates: the pieces of fast bodies, sorted by the low x of their swept boxes
   (``sweeps.swept_box``), are swept and pruned against each other; a pair is kept
   when the boxes overlap and the filters admit it. Only fast bodies pay, and the
   swept boxes, not the broadphase's fat boxes, decide, so a body deflected within
   the step is still found.
2. Each pair's time of impact under *both* motions (``piece_toi`` of two sweeps), with
   each body's motion cut at the time it already stops (``frac``: its impact with a
   static or slow body, or an earlier pair): until the first of the two stops both
   move; after it, the other moves against it held where it stopped. A stretch in
   which the two move slowly *relative to each other* is skipped: bodies flying
   together meet through speculative contacts (as in ``continuous._moves_with``).
   It is judged on the cut motions: two balls carried together by a paddle but
   clamped at different times by it are not moving together.
3. Events are applied in order of time, ties by pair key: the earliest pair clamps the
   bodies it stops; the other pairs of a body whose motion it cut are timed again with
   the cut motions (a chain: A stops at B, and C, heading for where B would have been,
   now stops at where B is). A body the event does not cut (it had stopped already, and
   the other ran into it) keeps its pairs' times, and so does a pair that had no impact
   when its other body stops no later than the cut: its new motion is a first part of
   the old one (in Box2D's smash with sleeping on, 814 impacts a step: the fast pairs'
   time 0.69 of timing every pair of both bodies again, same results). A body pair
   clamps once, so the loop ends after at most one round per candidate body pair.

The clamped bodies keep their velocities; the next step's narrowphase finds them
touching and the solver resolves the collision.
"""
import numpy as np

from .._jit import borrowed, copy_items, njit, njit_inline
from ..broadphase.filter_rule import pair_admitted
from ..broadphase.key_sort import sort_keys
from ..constants import LANE_WIDTH
from .sweeps import body_sweep, pieces_time, relative_motion, sub_sweep
from .time_heap import heap_pop, heap_push

_MISS = -1.0  # no impact in the step
_DONE = -2.0  # the pair's bodies already clamped against each other


@njit_inline
def _fast_pieces(fast, bodies, pieces, swept):
    """The non-sensor pieces of fast bodies (int64 (m,)) and their swept boxes (float64
    (m, 6): the box, then its low and high x moved by the body's lane, which keeps a
    ``WorldBatch``'s lanes apart), sorted by the moved low x (stable: ties keep piece
    order). ``swept`` float64 (pieces, 4) holds each such piece's swept box
    (``sweeps.swept_box``), as the sweeps of ``continuous.py`` worked it out."""
    piece_body, sensor = pieces.body, pieces.sensor
    count = 0
    for p in range(piece_body.shape[0]):
        if piece_body[p] >= 0 and fast[piece_body[p]] != 0 and not sensor[p]:
            count += 1
    idx = np.empty(count, np.int64)
    box = np.empty((count, 6))
    m = 0
    for p in range(piece_body.shape[0]):
        i = piece_body[p]
        if i < 0 or fast[i] == 0 or sensor[p]:
            continue
        idx[m] = p
        box[m, 0], box[m, 1], box[m, 2], box[m, 3] = swept[p, 0], swept[p, 1], swept[p, 2], swept[p, 3]
        shift = bodies.lane[i] * LANE_WIDTH  # a WorldBatch's lanes apart (0 otherwise)
        box[m, 4] = box[m, 0] + shift
        box[m, 5] = box[m, 2] + shift
        m += 1
    order = np.argsort(box[:, 4], kind="mergesort")
    return idx[order], box[order]


@njit_inline
def _one_way_passes(one_way, shape, sw, other):
    """Whether the body sweeping ``sw`` moves along one-way shape ``shape`` (of the body
    sweeping ``other``) relative to it: it passes through from the closed side."""
    dx = one_way[shape, 0]
    dy = one_way[shape, 1]
    rx = (sw[3] - sw[0]) - (other[3] - other[0])
    ry = (sw[4] - sw[1]) - (other[4] - other[1])
    return (dx != 0.0 or dy != 0.0) and rx * dx + ry * dy > 0.0


@njit_inline
def _admitted(p, q, bodies, pieces, rule, one_way):
    """Whether pieces ``p`` and ``q`` of two fast bodies are a candidate pair."""
    i = pieces.body[p]
    j = pieces.body[q]
    if i == j or not pair_admitted(rule, p, q):
        return False
    sp, sq = pieces.shape[p], pieces.shape[q]
    if one_way[sp, 0] == 0.0 and one_way[sp, 1] == 0.0 and one_way[sq, 0] == 0.0 and one_way[sq, 1] == 0.0:
        return True  # (the sweeps below take four sines and cosines each)
    # int64 rows, as the continuous stage passes them: an int32 row was a second compile
    swi = body_sweep(bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.com, np.int64(i),
                     bodies.turn, np.int64(2))
    swj = body_sweep(bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.com, np.int64(j),
                     bodies.turn, np.int64(2))
    return not (_one_way_passes(one_way, sq, swi, swj) or _one_way_passes(one_way, sp, swj, swi))


@njit_inline
def _candidate_keys(idx, box, bodies, pieces, rule, one_way):
    """Sorted pair keys ``(p << 32) | q`` (p < q) of the fast pieces whose swept boxes
    overlap and that ``_admitted`` keeps: one pass of sweep and prune along x."""
    keys = np.empty(16, np.int64)
    m = 0
    for a in range(idx.shape[0]):
        for b in range(a + 1, idx.shape[0]):
            if box[b, 4] > box[a, 5]:  # moved boxes: never past a pair of one lane
                break
            # one branch, not four: most boxes near in x are apart in y (a column of
            # Box2D's smash), and a mispredicted branch per test cost more than the tests
            if ((box[b, 0] > box[a, 2]) | (box[b, 2] < box[a, 0]) | (box[b, 1] > box[a, 3])
                    | (box[b, 3] < box[a, 1])):
                continue
            p = min(idx[a], idx[b])
            q = max(idx[a], idx[b])
            if not _admitted(p, q, bodies, pieces, rule, one_way):
                continue
            if m == keys.shape[0]:
                grown = np.empty(2 * m, np.int64)
                copy_items(grown, keys, m)
                keys = grown
            keys[m] = (p << 32) | q
            m += 1
    keys = keys[:m]
    sort_keys(keys)  # (np.sort: slower, and seconds more to compile)
    return keys


@njit_inline
def _pair_time(key, frac, bodies, pieces, params, scratch, center):
    """Time of impact of a candidate pair under its bodies' motions cut at ``frac``
    (float64 (n,)): both move until the earlier cut ``f``; then the one still moving
    goes on to its own cut against the other held at its pose at ``f``. A stretch in
    which the two move slowly relative to each other (``find_fast``'s test) is left to
    their speculative contact. ``_MISS`` when they do not meet before both stop."""
    slop, safety = params
    p = key >> 32
    q = key & 0xFFFFFFFF
    i = pieces.body[p]
    j = pieces.body[q]
    ei, ej = bodies.extent[i], bodies.extent[j]
    slow = safety * min(bodies.min_extent[i], bodies.min_extent[j])
    # int64 rows, as the continuous stage passes them: an int32 row was a second compile
    swi = body_sweep(bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.com, np.int64(i),
                     bodies.turn, np.int64(2))
    swj = body_sweep(bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.com, np.int64(j),
                     bodies.turn, np.int64(2))
    f = min(frac[i], frac[j])
    g = max(frac[i], frac[j])
    # Two stretches, 0 .. f and f .. g, in a loop: one inlined copy of pieces_time (each
    # costs seconds of a first run's compile).
    for stretch in range(2):
        if stretch == 0:
            if f <= 0.0:
                continue
            start, span = 0.0, f
            a = swi if f == 1.0 else sub_sweep(swi, 0.0, f)
            b = swj if f == 1.0 else sub_sweep(swj, 0.0, f)
        else:
            if g <= f:
                return _MISS
            start, span = f, g - f
            if frac[i] < frac[j]:
                a, b = sub_sweep(swi, f, f), sub_sweep(swj, f, g)
            else:
                a, b = sub_sweep(swi, f, g), sub_sweep(swj, f, f)
        if relative_motion(a, b, ei, ej) > slow:
            s = pieces_time(pieces, p, q, a, b, slop, scratch, center)
            if s > 0.0:
                return start + s * span
    return _MISS


@njit_inline
def _pairs_of_bodies(keys, body, n):
    """The candidate pairs of each body, as lists ``pair[first[i]:first[i + 1]]`` of
    indices into ``keys`` (int64; ``first`` (n + 1,)): a counting sort by body."""
    first = np.zeros(n + 1, np.int64)
    for e in range(keys.shape[0]):
        first[body[keys[e] >> 32] + 1] += 1
        first[body[keys[e] & 0xFFFFFFFF] + 1] += 1
    for i in range(n):
        first[i + 1] += first[i]
    pair = np.empty(first[n], np.int64)
    fill = first[:n].copy()
    for e in range(keys.shape[0]):
        for i in (body[keys[e] >> 32], body[keys[e] & 0xFFFFFFFF]):
            pair[fill[i]] = e
            fill[i] += 1
    return first, pair


@njit
def fast_pair_impacts(fast, frac, bodies, pieces, rule, one_way, params, scratch, center, swept):
    """Cut ``frac`` (float64 (n,), each body's first impact so far as a fraction of its
    sweep; 1 for none) at the impacts between pairs of fast bodies.

    ``fast`` uint8 (n,) marks the fast bodies (``continuous.find_fast``); ``bodies``,
    ``pieces``: ``BodyArrays``, ``PieceArrays``; ``rule``: the ``PairRule``; ``one_way``
    float64 (s, 2): the shapes' one-way directions; ``params``: ``(slop, safety)`` as for
    ``solve_continuous``; ``scratch``, ``center``: its TOI scratch arrays. Returns how
    many pair impacts were applied; ``swept`` float64 (pieces, 4): the swept box of every
    non-sensor piece of a fast body (``sweeps.swept_box`` with ``params``' slop, as the
    continuous stage's sweeps leave it). See the module docstring for the algorithm.

    The pairs with a pending impact wait in a heap by time (``time_heap.py``), and an
    applied impact times again only the pairs of its two bodies (Box2D's smash, 4,700
    fast boxes and 27,000 candidate pairs: scanning every pair at each of 300 impacts
    took 20-50 ms of a step).
    """
    # no atomic counts on the arguments in the loops below (the caller keeps them alive)
    fast, frac, bodies, pieces, rule, one_way, scratch, center, swept = borrowed(
        (fast, frac, bodies, pieces, rule, one_way, scratch, center, swept))
    idx, box = _fast_pieces(fast, bodies, pieces, swept)
    keys = _candidate_keys(idx, box, bodies, pieces, rule, one_way)
    body = pieces.body
    times = np.empty(keys.shape[0])
    # The pairs that may have an impact, earliest first; an entry whose stamp is not its
    # pair's latest was timed again since, and is dropped when popped.
    heap = (np.empty(keys.shape[0]), np.empty(keys.shape[0], np.int64),
            np.empty(keys.shape[0], np.int64))
    size = np.int64(0)
    stamp = np.zeros(keys.shape[0], np.int64)
    todo = np.arange(keys.shape[0])  # the pairs to time (again): at first all
    waiting = keys.shape[0]
    first, pair = _pairs_of_bodies(keys, body, frac.shape[0])
    applied = 0
    while True:
        # One call site of the inlined ``_pair_time``: each copy costs seconds of a
        # first run's compile (with two, this kernel compiled in 10.6 s).
        for q in range(waiting):
            k = todo[q]
            times[k] = _pair_time(keys[k], frac, bodies, pieces, params, scratch, center)
            stamp[k] += 1
            if times[k] >= 0.0:
                heap, size = heap_push(heap, size, times[k], k, stamp[k])
        e = -1
        while size > 0 and e < 0:
            t, k, kept, size = heap_pop(heap, size)
            if kept == stamp[k] and times[k] >= 0.0:  # (not timed again, nor done)
                e = k
        if e < 0:
            return applied
        i = body[keys[e] >> 32]
        j = body[keys[e] & 0xFFFFFFFF]
        cut_i = t < frac[i]
        cut_j = t < frac[j]
        frac[i] = min(frac[i], t)
        frac[j] = min(frac[j], t)
        applied += 1
        waiting = 0  # the other pairs of the bodies it cut, timed again at the loop's top
        for m, cut in ((i, cut_i), (j, cut_j)):
            for r in range(first[m], first[m + 1]):
                k = pair[r]
                if times[k] == _DONE:
                    continue
                a = body[keys[k] >> 32]
                b = body[keys[k] & 0xFFFFFFFF]
                if (a == i and b == j) or (a == j and b == i):
                    times[k] = _DONE
                    continue
                # A body already stopped at or before t (its pair held it, the other
                # moved on into it) keeps its motion: its pairs' times stand.
                if not cut:
                    continue
                # A pair that had no impact, whose other body stops no later than t:
                # the new motion is a first part of the old one, so still none.
                if times[k] == _MISS and frac[b if a == m else a] <= frac[m]:
                    continue
                todo[waiting] = k
                waiting += 1
