"""The sweeps the continuous stage tests: a body's motion over one step, the box a piece
covers along it, the fallbacks for pieces that start touching, and the time of impact of
two pieces that both move.

Shared by ``continuous.py`` (a fast body against static and slow bodies) and
``fast_pairs.py`` (two fast bodies against each other). A sweep is ``toi.py``'s tuple
``(c0x, c0y, a0, c1x, c1y, a1, lx, ly)``: the centre of mass moves linearly, the angle
turns linearly about it.
"""
import math

import numpy as np

from .._jit import njit, njit_inline
from ..constants import CCD_CORE_FRACTION, CCD_THIN_ADVANCE, TOI_TOLERANCE_FRACTION
from ..collision.toi import core_reach, piece_toi
from ..geometry.convex import piece_box, turns_freely


@njit_inline
def _inner_radius(verts, norms, start, count, radius, cx, cy):
    """Distance from (cx, cy) to the piece's nearest face, plus its rounding radius."""
    if count < 3:
        return radius
    r = math.inf
    for k in range(start, start + count):
        r = min(r, (verts[k, 0] - cx) * norms[k, 0] + (verts[k, 1] - cy) * norms[k, 1])
    return max(r, 0.0) + radius


@njit
def body_sweep(pos0, angle0, pos, angle, com, i, turn, k0):
    """Body ``i``'s sweep from its pose at the step's start to its pose now; ``turn``
    holds the rotations (cos, sin) of ``angle`` in columns 0, 1 and of ``angle0`` in
    columns ``k0``, ``k0 + 1`` (the body columns' ``turn``: 2 for the step's start, 0
    for a sweep held at its end pose)."""
    lx = com[i, 0]
    ly = com[i, 1]
    if lx == 0.0 and ly == 0.0:  # the centre of mass at the origin (most bodies)
        return (pos0[i, 0], pos0[i, 1], angle0[i], pos[i, 0], pos[i, 1], angle[i], 0.0, 0.0)
    c0 = turn[i, k0]
    s0 = turn[i, k0 + 1]
    c1 = turn[i, 0]
    s1 = turn[i, 1]
    return (pos0[i, 0] + c0 * lx - s0 * ly, pos0[i, 1] + s0 * lx + c0 * ly, angle0[i],
            pos[i, 0] + c1 * lx - s1 * ly, pos[i, 1] + s1 * lx + c1 * ly, angle[i], lx, ly)


@njit_inline
def sub_sweep(sw, f0, f1):
    """The part of sweep ``sw`` from fraction ``f0`` to ``f1``, as a sweep of its own."""
    return (sw[0] + f0 * (sw[3] - sw[0]), sw[1] + f0 * (sw[4] - sw[1]), sw[2] + f0 * (sw[5] - sw[2]),
            sw[0] + f1 * (sw[3] - sw[0]), sw[1] + f1 * (sw[4] - sw[1]), sw[2] + f1 * (sw[5] - sw[2]),
            sw[6], sw[7])


@njit_inline
def arc_bulge(verts, sp, kp, a0, a1, lx, ly):
    """How far the arcs a piece's core vertices follow, turning from angle ``a0`` to
    ``a1`` about the centre of mass ``(lx, ly)`` (body frame), can bulge out of their
    chords: ``(1 - cos(turn / 2))`` times the farthest vertex's distance from it."""
    half = 0.5 * min(abs(a1 - a0), math.pi)
    return (1.0 - math.cos(half)) * core_reach(verts, sp, kp, lx, ly)


@njit_inline
def swept_box(verts, sp, kp, rp, pos0, angle0, pos, angle, turn, com, i, slop):
    """The box a piece (rows ``sp``, ``kp`` of ``verts``, radius ``rp``) of body ``i``
    sweeps this step: the union of its boxes, grown by ``slop``, at the step's start
    and end, grown by how far the arc a turning corner follows bulges out of its
    chord. ``turn``: the body columns' rotations (now, and at the step's start)."""
    c0, s0, c1, s1 = 1.0, 0.0, 1.0, 0.0
    if not turns_freely(verts, sp, kp):
        c0, s0, c1, s1 = turn[i, 2], turn[i, 3], turn[i, 0], turn[i, 1]
    x0, y0, x1, y1 = piece_box(verts, sp, kp, rp, pos0[i, 0], pos0[i, 1], c0, s0, slop)
    u0, v0, u1, v1 = piece_box(verts, sp, kp, rp, pos[i, 0], pos[i, 1], c1, s1, slop)
    bulge = arc_bulge(verts, sp, kp, angle0[i], angle[i], com[i, 0], com[i, 1])
    return min(x0, u0) - bulge, min(y0, v0) - bulge, max(x1, u1) + bulge, max(y1, v1) + bulge


@njit
def sweep_ends(verts, sp, kp, sw, out):
    """A piece's core vertices (rows ``sp .. sp + kp - 1`` of ``verts``) at the start and
    the end of sweep ``sw``, into rows ``0 .. kp - 1`` and ``kp .. 2 kp - 1`` of ``out``
    (float64 (>= 2 kp, 2)); returns the arcs' bulge (:func:`arc_bulge`)."""
    still = turns_freely(verts, sp, kp) and sw[6] == 0.0 and sw[7] == 0.0  # a centred circle
    for end in range(2):
        cx, cy, a = sw[3 * end], sw[3 * end + 1], sw[3 * end + 2]
        c = 1.0 if still else math.cos(a)
        s = 0.0 if still else math.sin(a)
        for k in range(kp):
            x = verts[sp + k, 0] - sw[6]
            y = verts[sp + k, 1] - sw[7]
            out[end * kp + k, 0] = cx + c * x - s * y
            out[end * kp + k, 1] = cy + s * x + c * y
    return arc_bulge(verts, sp, kp, sw[2], sw[5], sw[6], sw[7])


@njit
def faces_separate(verts, norms, sq, kq, x, y, angle, ends, kp, clearance):
    """Whether a face of piece ``q`` (rows ``sq``, ``kq`` >= 2, at pose ``(x, y,
    angle)``) has every vertex of ``ends`` (:func:`sweep_ends`, ``kp`` per end) more
    than ``clearance`` in front of it at both ends of the sweep.

    Then the swept piece stays that far from ``q``'s core all along (a separating axis:
    each vertex's distance to the face varies linearly along the chord, and its arc
    leaves the chord by at most the bulge the caller adds to ``clearance``), and no time
    of impact is needed. Box2D v3 makes such a test for chain segments only.
    """
    c = math.cos(angle)
    s = math.sin(angle)
    for f in range(sq, sq + kq):
        nx = c * norms[f, 0] - s * norms[f, 1]
        ny = s * norms[f, 0] + c * norms[f, 1]
        ox = x + c * verts[f, 0] - s * verts[f, 1]
        oy = y + s * verts[f, 0] + c * verts[f, 1]
        least = math.inf
        for k in range(2 * kp):
            least = min(least, nx * (ends[k, 0] - ox) + ny * (ends[k, 1] - oy))
        if least > clearance:
            return True
    return False


@njit_inline
def relative_motion(sw, other, extent_i, extent_j):
    """How far two sweeping bodies move relative to each other: their relative
    translation plus each one's turn times its extent (``find_fast``'s measure)."""
    rx = (sw[3] - sw[0]) - (other[3] - other[0])
    ry = (sw[4] - sw[1]) - (other[4] - other[1])
    return (math.sqrt(rx * rx + ry * ry) + abs(sw[5] - sw[2]) * extent_i
            + abs(other[5] - other[2]) * extent_j)


@njit_inline
def _core_circle(verts, norms, sp, kp, rp):
    """``(cx, cy, r)``: the circle swept instead of a piece that starts touching
    (``core_impact_time``), centred on the mean of its core vertices, with
    ``CCD_CORE_FRACTION`` of its inner radius."""
    cx = 0.0
    cy = 0.0
    for k in range(sp, sp + kp):
        cx += verts[k, 0]
        cy += verts[k, 1]
    cx = cx / kp
    cy = cy / kp
    return cx, cy, CCD_CORE_FRACTION * _inner_radius(verts, norms, sp, kp, rp, cx, cy)


@njit_inline
def core_impact_time(verts, norms, sp, kp, rp, sw, sq, kq, rq, other, slop, scratch, center):
    """Time of impact of a piece that starts touching the other (its own TOI is 0: a
    fast box sliding on the ground). As Box2D does, its core circle (``_core_circle``,
    centred in ``center`` float64 (1, 2)) is swept instead, which still catches the
    piece diving through that surface. If even that circle starts within the target (a
    piece thinner than the slop), its centre may close half its distance to the other
    piece and no more: the next contact then pushes it back out on the side it came
    from."""
    center[0, 0], center[0, 1], core_r = _core_circle(verts, norms, sp, kp, rp)
    target = max(slop, core_r + rq - slop)
    tol = TOI_TOLERANCE_FRACTION * slop
    start, count = np.int64(0), np.int64(1)  # typed, not literals: one compile of piece_toi
    t, d = piece_toi(center, start, count, sw, verts, sq, kq, other, target, tol, scratch)[:2]
    if t == 0.0 and d > 0.0:
        t = piece_toi(center, start, count, sw, verts, sq, kq, other, CCD_THIN_ADVANCE * d, 0.0,
                      scratch)[0]
    return t


@njit_inline
def pieces_time(pieces, p, q, swp, swq, slop, scratch, center):
    """First impact in (0, 1] of pieces ``p`` and ``q`` sweeping ``swp`` and ``swq``; 0
    or less when none. Pieces that start touching sweep their core circles instead,
    each against the other piece (``core_impact_time``), the earlier counting."""
    verts, norms = pieces.verts, pieces.norms
    sp, kp, rp = pieces.start[p], pieces.count[p], pieces.radius[p]
    sq, kq, rq = pieces.start[q], pieces.count[q], pieces.radius[q]
    target = max(slop, rp + rq - slop)
    t = piece_toi(verts, sp, kp, swp, verts, sq, kq, swq, target,
                  TOI_TOLERANCE_FRACTION * slop, scratch)[0]
    if t == 0.0:
        t = core_impact_time(verts, norms, sp, kp, rp, swp, sq, kq, rq, swq, slop, scratch, center)
        u = core_impact_time(verts, norms, sq, kq, rq, swq, sp, kp, rp, swp, slop, scratch, center)
        if u > 0.0 and (t <= 0.0 or u < t):
            t = u
    return t
