"""Continuous collision stage: fast bodies swept, their motion clamped to the first impact.

Speculative contacts (narrowphase) already stop bodies that move in a straight line
towards something they are paired with. What they cannot see is a body whose path
crosses a shape it was not paired with at the step's start, or a fast-turning body
whose far end swings through a thin shape. After the solver has moved every body, this
stage sweeps each *fast* body from its pose at the start of the step to its pose at the
end, finds the first time of impact (TOI) against every other shape under the sweep
(``toi.py``: conservative advancement), and moves the body back to that pose, keeping
its velocity (Box2D v3 ``b2SolveContinuous``).
"""
import math

import numpy as np

from .._jit import borrowed, njit, njit_inline
from ..broadphase.filter_rule import box_misses, pair_admitted
from ..broadphase.tree_ops import META_ROOT, grown, tree_collect
from ..constants import (DYNAMIC, KINEMATIC, LANE_WIDTH, MOVED_BY_STEP, STATIC,
                         TOI_TOLERANCE_FRACTION)
from ..collision.toi import piece_toi
from .fast_pairs import fast_pair_impacts
from .sweeps import (body_sweep, core_impact_time, faces_separate, pieces_time, relative_motion,
                     sweep_ends, swept_box)


@njit
def find_fast(bodies, safety, fast):
    """Mark the bodies that moved too far this step for speculative contacts to trust.

    A dynamic body is fast when its centre of mass travelled, plus its turn times its
    extent, more than ``safety`` times its smallest extent (Box2D's test), or when it is
    a bullet. ``bodies`` is the world's ``BodyArrays``; ``fast`` (n,) uint8 receives the
    marks; returns how many.
    """
    btype, bullet, com, extent, min_extent = (bodies.btype, bodies.bullet, bodies.com,
                                              bodies.extent, bodies.min_extent)
    pos0, angle0, pos, angle = bodies.pos0, bodies.angle0, bodies.pos, bodies.angle
    count = 0
    for i in range(btype.shape[0]):
        fast[i] = 0
        if btype[i] != DYNAMIC:
            continue
        dx = pos[i, 0] - pos0[i, 0]
        dy = pos[i, 1] - pos0[i, 1]
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:  # off-centre: the centre of mass's path
            c0 = bodies.turn[i, 2]
            s0 = bodies.turn[i, 3]
            c1 = bodies.turn[i, 0]
            s1 = bodies.turn[i, 1]
            dx += (c1 - c0) * com[i, 0] - (s1 - s0) * com[i, 1]
            dy += (s1 - s0) * com[i, 0] + (c1 - c0) * com[i, 1]
        motion = math.sqrt(dx * dx + dy * dy) + abs(angle[i] - angle0[i]) * extent[i]
        if bullet[i] or motion > safety * min_extent[i]:
            fast[i] = 1
            count += 1
    return count


@njit_inline
def _paired_moving(fast, btype, piece_body, keys):
    """The moving pieces the broadphase paired with each piece of a fast body, as lists
    ``partner[first[p]:first[p + 1]]`` (int64; ``first`` (pieces + 1,)): a counting
    sort of the pair keys by piece.

    These are a fast piece's moving candidates while its swept box lies inside its fat
    box: that box was swept along its velocity at the step's start, so those pairs are
    the moving bodies near its path. A bullet, or a body set moving or turned within
    the step (a ball at rest struck at 80 m/s, which the pair set alone let through a
    thin plank), queries the moving tree instead. Querying the tree for every fast
    piece cost 0.65 us a piece, most of rain2000's continuous stage while the rain
    falls. Box2D sweeps non-bullets against static shapes only.
    """
    n_pieces = piece_body.shape[0]
    first = np.zeros(n_pieces + 1, np.int64)
    for k in range(keys.shape[0]):
        a = keys[k] >> 32
        b = keys[k] & 0xFFFFFFFF
        if fast[piece_body[a]] != 0 and btype[piece_body[b]] != STATIC:
            first[a + 1] += 1
        if fast[piece_body[b]] != 0 and btype[piece_body[a]] != STATIC:
            first[b + 1] += 1
    for p in range(n_pieces):
        first[p + 1] += first[p]
    partner = np.empty(first[n_pieces], np.int64)
    fill = first[:n_pieces].copy()
    for k in range(keys.shape[0]):
        a = keys[k] >> 32
        b = keys[k] & 0xFFFFFFFF
        if fast[piece_body[a]] != 0 and btype[piece_body[b]] != STATIC:
            partner[fill[a]] = b
            fill[a] += 1
        if fast[piece_body[b]] != 0 and btype[piece_body[a]] != STATIC:
            partner[fill[b]] = a
            fill[b] += 1
    return first, partner


@njit_inline
def _query_stack(height, meta, s_height, s_meta):
    """int32 stack for ``tree_collect`` on either tree: the deeper root's height + 2."""
    depth = 0
    if meta[META_ROOT] >= 0:
        depth = height[meta[META_ROOT]]
    if s_meta[META_ROOT] >= 0:
        depth = max(depth, s_height[s_meta[META_ROOT]])
    return np.empty(depth + 2, np.int32)


@njit_inline
def _toi_scratch(piece_count):
    """float64 scratch for ``piece_toi`` of any two pieces (or a piece and a point)."""
    kmax = 1
    for p in range(piece_count.shape[0]):
        kmax = max(kmax, piece_count[p])
    return np.empty((2 * kmax + 1, 2))




@njit_inline
def _inside_fat_box(x0, y0, x1, y1, piece_fat, p):
    """Whether a swept box lies inside piece ``p``'s fat box."""
    f0, f1, f2, f3 = piece_fat[p, 0], piece_fat[p, 1], piece_fat[p, 2], piece_fat[p, 3]
    return x0 >= f0 and y0 >= f1 and x1 <= f2 and y1 <= f3


@njit_inline
def _moves_with(sw, moving, extent_i, extent_j, min_extent_i, safety):
    """Whether a fast body (sweep ``sw``) moves with a moving one (``moving``): their
    relative motion is slow by ``find_fast``'s test.

    Against a moving body only relative motion can tunnel. Bodies that move fast
    together (a pile in a tumbler, a box carried by a moving wall) meet through
    speculative contacts; sweeping one against a neighbour pulled it back into the
    pile, 8 cm every step.
    """
    return relative_motion(sw, moving, extent_i, extent_j) <= safety * min_extent_i


@njit_inline
def _moves_far(sw, extent, min_extent, safety):
    """Whether a kinematic body sweeping ``sw`` moves too far to be held at its end pose:
    ``find_fast``'s test (its translation plus its turn times ``extent`` above ``safety``
    times ``min_extent``), which marks only dynamic bodies.

    A fast body is swept against a slow one held at its end pose, as in Box2D: stopped at
    its first touch of that pose, it is not run into by the rest of the other's motion.
    A slow body's end pose is off by less than its own fast threshold; a kinematic
    body's, by its whole motion. A ball flying just ahead of a 300 m/s paddle (drifting
    sideways, so not moving with it) met the paddle's end pose 5 m ahead from behind
    and was stopped behind it: the paddle passed through it. So against a kinematic
    body that moves far, an impact counts only if the two meet with both moving
    (``sweeps.pieces_time``), and it is no later than that meeting.
    """
    dx = sw[3] - sw[0]
    dy = sw[4] - sw[1]
    return math.sqrt(dx * dx + dy * dy) + abs(sw[5] - sw[2]) * extent > safety * min_extent


@njit_inline
def _clamp(bodies, i, t):
    """Move body ``i`` back to fraction ``t`` of its sweep (angle and centre of mass
    interpolated, as ``toi.py`` sweeps it); marks it moved."""
    pos, angle, com = bodies.pos, bodies.angle, bodies.com
    sw = body_sweep(bodies.pos0, bodies.angle0, pos, angle, com, np.int64(i), bodies.turn,
                    np.int64(2))
    a = sw[2] + t * (sw[5] - sw[2])
    c = math.cos(a)
    s = math.sin(a)
    bodies.turn[i, 0] = c
    bodies.turn[i, 1] = s
    cx = sw[0] + t * (sw[3] - sw[0])
    cy = sw[1] + t * (sw[4] - sw[1])
    pos[i, 0] = cx - (c * com[i, 0] - s * com[i, 1])
    pos[i, 1] = cy - (s * com[i, 0] + c * com[i, 1])
    angle[i] = a
    bodies.moved[i] = MOVED_BY_STEP


@njit_inline
def _clamp_bodies(bodies, frac):
    """Clamp each body whose earliest impact ``frac`` (float64 (n,)) is before the
    step's end; returns how many."""
    clamped = 0
    for i in range(frac.shape[0]):
        t = frac[i]
        if t >= 1.0:
            continue
        _clamp(bodies, i, t)
        clamped += 1
    return clamped


@njit_inline
def _passes_one_way(one_way, shape, sw):
    """Whether a body sweeping ``sw`` moves along the direction of one-way shape
    ``shape`` (it passes through from the closed side: no impact)."""
    dx = one_way[shape, 0]
    dy = one_way[shape, 1]
    return (dx != 0.0 or dy != 0.0) and (sw[3] - sw[0]) * dx + (sw[4] - sw[1]) * dy > 0.0


@njit
def solve_continuous(fast, bodies, pieces, keys, candidates, params):
    """Clamp every fast body's motion to its first time of impact this step.

    ``fast`` uint8 (n,): the bodies to sweep (``find_fast``). ``bodies``, ``pieces``: the
    world's ``BodyArrays`` and ``PieceArrays`` (read: the poses at the step's start and
    now, the extents, ``bullet``, the geometry and fat boxes; clamped bodies get a new
    ``pos``/``angle`` and ``moved`` = MOVED_BY_STEP). ``keys``: the pair keys. ``candidates``:
    ``(tree, static_tree, rule, one_way)``, both trees' ``TreeArrays``, the ``PairRule``
    (filtered shapes never stop a body), the one-way directions (s, 2), kept by the caller.
    ``params``: ``(slop, safety)``: surfaces stop ``slop`` apart (rounded ones ``slop``
    into each other); ``safety`` is ``find_fast``'s. Returns how many were clamped.

    Each fast piece (not a sensor) is swept against the candidates under its swept box
    (its paired pieces, ``_paired_moving``, or the moving tree; the static tree): slow
    bodies held at their end pose (``_moves_far``), fast ones left to ``fast_pairs``.
    The sweeps run in :func:`_sweep_fast` with the work arrays allocated here.
    """
    tree, static_tree, rule, one_way = candidates
    frac = np.ones(bodies.btype.shape[0])
    first, partner = _paired_moving(fast, bodies.btype, pieces.body, keys)
    work = (frac, first, partner,
            _query_stack(tree.height, tree.meta, static_tree.height, static_tree.meta),
            _toi_scratch(pieces.count),
            # the candidates of one piece: its partners, or the leaves of the trees
            np.empty(2 * pieces.body.shape[0] + 64, np.int64),
            np.empty((1, 2)),
            _toi_scratch(pieces.count),  # a fast piece's vertices at both ends (sweep_ends)
            np.empty((pieces.body.shape[0], 4)))  # each fast piece's swept box
    _sweep_fast(fast, bodies, pieces, candidates, params, work)
    fast_pair_impacts(fast, frac, bodies, pieces, rule, one_way, params, work[4], work[6], work[8])
    return _clamp_bodies(bodies, frac)


@njit
def _sweep_fast(fast, bodies, pieces, candidates, params, work):
    """:func:`solve_continuous`' sweeps of each fast piece against its candidates,
    cutting ``frac`` (``work[0]``) at each body's first impact. The work arrays come
    from the caller so that they can be borrowed: arrays allocated here were counted
    atomically wherever an inlined helper took them (the candidate list at every node a
    tree query visited), 83 % of the atomic counts of a step of Box2D's tumbler. The
    loop stays inline (as helpers, Numba kept reference counts: 4 % slower on rain2000).
    """
    fast, bodies, pieces, candidates, work = borrowed((fast, bodies, pieces, candidates, work))
    btype, bullet, extent, min_extent = bodies.btype, bodies.bullet, bodies.extent, bodies.min_extent
    pos0, angle0, pos, angle, com = bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.com
    turn = bodies.turn
    piece_body, piece_start, piece_count = pieces.body, pieces.start, pieces.count
    piece_radius, piece_fat, verts, norms = pieces.radius, pieces.fat, pieces.verts, pieces.norms
    (slop, safety), (tree, static_tree, rule, one_way) = params, candidates
    aabb, parent, child1, child2, height, user, meta = tree
    s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta = static_tree
    frac, first, partner, stack, scratch, out, center, ends, swept = work
    tol = TOI_TOLERANCE_FRACTION * slop
    for p in range(piece_body.shape[0]):
        i = piece_body[p]
        if i < 0 or fast[i] == 0 or pieces.sensor[p]:  # a free row, a slow body, a sensor
            continue
        sw = body_sweep(pos0, angle0, pos, angle, com, np.int64(i), turn, np.int64(2))  # (int64: one compile)
        sp, kp, rp = piece_start[p], piece_count[p], piece_radius[p]
        x0, y0, x1, y1 = swept_box(verts, sp, kp, rp, pos0, angle0, pos, angle, turn, com, i, slop)
        swept[p, 0], swept[p, 1], swept[p, 2], swept[p, 3] = x0, y0, x1, y1  # (fast pairs)
        bulge = -1.0  # (sweep_ends when a candidate first needs it)
        shift = bodies.lane[i] * LANE_WIDTH  # tree boxes are moved by the lane (WorldBatch)
        if bullet[i] == 0 and _inside_fat_box(x0, y0, x1, y1, piece_fat, p):
            hits = 0
            for k in range(first[p], first[p + 1]):
                if hits == out.shape[0]:
                    out = grown(out)
                out[hits] = partner[k]
                hits += 1
        else:
            out, hits = tree_collect(aabb, child1, child2, height, user, meta[META_ROOT],
                                     x0 + shift, y0, x1 + shift, y1, stack, out, 0)
        out, hits = tree_collect(s_aabb, s_child1, s_child2, s_height, s_user, s_meta[META_ROOT],
                                 x0 + shift, y0, x1 + shift, y1, stack, out, hits)
        for h in range(hits):
            q = out[h]
            j = piece_body[q]
            if (j == i or (fast[j] != 0 and btype[j] != STATIC) or not pair_admitted(rule, p, q)
                    or box_misses(piece_fat, q, x0, y0, x1, y1)  # (lanes round: exact test)
                    or _passes_one_way(one_way, pieces.shape[q], sw)):
                continue
            meets = 1.0  # when they meet, both moving (``_moves_far``; 1: not asked)
            if btype[j] != STATIC:
                swj = body_sweep(pos0, angle0, pos, angle, com, np.int64(j), turn, np.int64(2))
                if _moves_with(sw, swj, extent[i], extent[j], min_extent[i], safety):
                    continue
                if btype[j] == KINEMATIC and _moves_far(swj, extent[j], min_extent[j], safety):
                    meets = pieces_time(pieces, p, q, sw, swj, slop, scratch, center)
                    if meets <= 0.0:  # they never meet: its end pose is not in the way
                        continue
            other = (pos[j, 0], pos[j, 1], angle[j], pos[j, 0], pos[j, 1], angle[j], 0.0, 0.0)
            sq, kq, rq = piece_start[q], piece_count[q], piece_radius[q]
            target = max(slop, rp + rq - slop)
            face_test = kq >= 2 and btype[j] != DYNAMIC
            if face_test and bulge < 0.0:
                bulge = sweep_ends(verts, sp, kp, sw, ends)
            if face_test and faces_separate(verts, norms, sq, kq, pos[j, 0], pos[j, 1], angle[j], ends,
                                          kp, target + tol + bulge):
                t = -1.0  # a face of q keeps the whole sweep clear of it: no impact
            else:
                t = piece_toi(verts, sp, kp, sw, verts, sq, kq, other, target, tol, scratch)[0]
                if t == 0.0:  # starts touching: sweep its core circle instead
                    t = core_impact_time(verts, norms, sp, kp, rp, sw, sq, kq, rq, other, slop,
                                          scratch, center)
            t = meets if t <= 0.0 or t > meets else t  # (meets 1: none stays none)
            if 0.0 < t < frac[i]:
                frac[i] = t
