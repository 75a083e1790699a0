"""Narrowphase stage: one manifold per tracked piece pair, with warm-start matching.

Reads the pair list (sorted keys), the pieces' geometry and fat AABBs and the bodies'
poses; writes the contact rows (layout in ``layout.py``) and a keep flag per pair.
A pair whose fat AABBs no longer overlap is dropped; the broadphase will find it
again if they come back together.

A pair of two bodies that cannot move (asleep, or asleep and static) is skipped: its
row stays as the last step its bodies were awake wrote it (the pair set carries such rows
through merges, ``pair_set.py``), so a sleeping pile costs no narrowphase work.

A pair whose bodies have barely moved relative to each other since its manifold was
computed gets that manifold carried to the new poses instead of a new one: the
manifold cache (``manifold_cache.py``, which says when and why that is sound).
"""
import math

import numpy as np

from .._jit import borrowed, njit_exact, njit_exact_inline
from .layout import C_COUNT, C_FRICTION, C_NX, C_NY, C_POINTS, C_RESTITUTION, C_ROLLING, C_SURFACE, C_TOUCHING, CONTACT_SIZE, H_COUNT, H_ID, H_NI, H_POINTS, H_STRIDE, H_TI, MAX_POINTS, P_ADJ, P_ID, P_NI, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX, P_RBY, P_SEP, P_STRIDE, P_TI
from .manifold_cache import MANIFOLD_POINT_STRIDE, can_reuse, refresh_from_cache, relative_pose, store_in_cache
from .pair_keys import PIECE_BITS, PIECE_MASK
from ..constants import STATIC, TOUCHING_DISTANCE
from ..collision.manifold import M_COUNT, M_ID1, M_NX, M_NY, M_P1X, M_P1Y, M_S1, MANIFOLD_SIZE, collide_pieces

MIX_BOX2D = 0  # friction sqrt(a*b), restitution max(a, b)
MIX_PYMUNK = 1  # friction a*b, restitution a*b (Chipmunk's rule)


@njit_exact
def update_contacts(pairs, keep, bodies, pieces, params):
    """Write every tracked pair's contact row from its manifold, new or from the cache.

    Parameters
    ----------
    pairs : PairArrays (``pair_set.py``): keys, hist, rows, bodies
        ``keys`` (m,) int64 ``(piece_a << 32) | piece_b``, ``piece_a < piece_b``; ``hist`` (m, HIST_SIZE): last step's feature ids and impulses are read for warm
        starting and replaced by this step's; the manifold cache lives there too.
        ``rows`` (m, CONTACT_SIZE): all written (a dropped pair's has no points);
        ``bodies`` int32 (2, >= m): receives the bodies of each pair's two pieces.
    keep : uint8 (m,)
        0 for pairs whose fat AABBs stopped overlapping (returns how many), else 2 where
        a point is within ``TOUCHING_DISTANCE`` (contact events), else 1.
    bodies, pieces : BodyArrays, PieceArrays (``world/state.py``)
        Body poses, centres of mass, velocities and extents; piece geometry (the vertex
        pool and its seam rows, see ``manifold.collide_pieces``), materials, fat boxes.
    params : NarrowParams
        ``dt`` the coming step; ``margin`` the speculative distance: points up to it are
        kept, plus as far as the two bodies can approach each other in ``dt``, so a
        contact that can close within the step exists before it does (Firth 2011,
        "speculative contacts"); ``flip_tol`` the reference-face hysteresis
        (``manifold.collide_pieces``); ``reuse_tol`` the manifold cache's tolerance, m
        (``manifold_cache.can_reuse``; 0: no reuse); ``mixing`` MIX_BOX2D or MIX_PYMUNK.
    """
    pairs, keep, bodies, pieces = borrowed((pairs, keep, bodies, pieces))  # no atomic counts per pair
    keys, hist, rows, pair_body = pairs.keys, pairs.hist, pairs.rows, pairs.bodies
    piece_body, piece_count = pieces.body, pieces.count
    piece_radius, piece_friction, piece_restitution = pieces.radius, pieces.friction, pieces.restitution
    piece_fat, verts, norms, ghost = pieces.fat, pieces.verts, pieces.norms, pieces.ghost
    pos, angle, com, vel, angvel, extent, btype, asleep = (bodies.pos, bodies.angle, bodies.com, bodies.vel,
                                                           bodies.angvel, bodies.extent, bodies.btype, bodies.asleep)
    dt, margin, flip_tol, reuse_tol, mixing = params
    kmax = _most_vertices(piece_count)
    scratch_v = np.empty((2 * kmax, 2))  # collide_pieces' work space: both pieces' vertices
    scratch_n = np.empty((2 * kmax, 2))
    man = np.empty(MANIFOLD_SIZE)
    rot = bodies.turn  # each body's cos and sin, kept with its angle
    last = np.empty((MAX_POINTS, H_STRIDE))  # a pair's points of last step (_write_row)
    dropped = 0
    for i in range(keys.shape[0]):
        a = keys[i] >> PIECE_BITS
        b = keys[i] & PIECE_MASK
        ba = piece_body[a]
        bb = piece_body[b]
        pair_body[0, i] = ba
        pair_body[1, i] = bb
        if _frozen(btype, asleep, ba) and _frozen(btype, asleep, bb):
            keep[i] = _kept_asleep(rows, i)  # nothing moved: the row stays as last written
            continue
        if not _fat_boxes_overlap(piece_fat, a, b):
            keep[i] = 0
            dropped += 1
            rows[i, C_COUNT] = 0.0
            rows[i, C_TOUCHING] = 0.0
            continue
        keep[i] = 1
        frame_a = (pos[ba, 0], pos[ba, 1], rot[ba, 0], rot[ba, 1])
        frame_b = (pos[bb, 0], pos[bb, 1], rot[bb, 0], rot[bb, 1])
        reach = _approach_reach(vel, angvel, extent, ba, bb, dt)
        com_a = _world_com(frame_a, com, ba)
        com_b = _world_com(frame_b, com, bb)
        pose = relative_pose(com_a, com_b, frame_a, frame_b, angle[ba], angle[bb], extent[ba],
                             extent[bb])
        if can_reuse(hist, i, pose, reach, reuse_tol):
            n = refresh_from_cache(hist, i, frame_a, frame_b, man)
        else:
            n = _fresh_manifold(verts, norms, ghost, pieces, a, b, frame_a, frame_b,
                                _bounds_apart(com_a, com_b, extent[ba], extent[bb], margin + reach),
                                margin + reach, flip_tol, scratch_v, scratch_n, man)
            store_in_cache(hist, i, pose, reach, reuse_tol, frame_a, frame_b, man, n)
        rows[i, C_FRICTION], rows[i, C_RESTITUTION] = _mixed_materials(
            piece_friction, piece_restitution, a, b, mixing)
        rows[i, C_SURFACE] = pieces.surface_speed[a] + pieces.surface_speed[b]
        rows[i, C_ROLLING] = (max(pieces.rolling_resistance[a], pieces.rolling_resistance[b])
                              * max(piece_radius[a], piece_radius[b]))
        _write_row(rows, hist, i, man, n, com_a, com_b, piece_radius[a], piece_radius[b], last)
        keep[i] = _kept(rows, i)
    return dropped


@njit_exact_inline
def _fresh_manifold(verts, norms, ghost, pieces, a, b, frame_a, frame_b, apart, margin, flip_tol,
                    scratch_v, scratch_n, man):
    """The manifold of pieces ``a`` and ``b`` computed afresh into ``man``: no point when
    their bodies are ``apart`` (:func:`_bounds_apart`), else ``collide_pieces``'. Returns
    the number of points; with none, the normal is cleared."""
    n = 0
    if not apart:
        n = collide_pieces(verts, norms, ghost, pieces.start[a], pieces.count[a], pieces.radius[a],
                           frame_a, pieces.start[b], pieces.count[b], pieces.radius[b], frame_b,
                           margin, flip_tol, scratch_v, scratch_n, man)
    if n == 0:  # no point: the routines leave the normal as the last pair had it,
        man[M_NX] = man[M_NY] = 0.0  # which must not reach the cache or the row
    return n


@njit_exact_inline
def _bounds_apart(com_a, com_b, extent_a, extent_b, margin):
    """Whether the bodies' bounding circles (about their centres of mass, radius their
    extent: every piece lies inside) are more than ``margin`` apart: then so is every
    pair of their pieces, and the pair has no point. About half of a pile's pairs
    (their fat boxes overlap, their shapes do not come near) end here without the
    pair routines, which for such a pair could also report a speculative point whose
    separation, measured along a face normal, is less than the true gap."""
    gap = margin + extent_a + extent_b
    dx = com_b[0] - com_a[0]
    dy = com_b[1] - com_a[1]
    return dx * dx + dy * dy > gap * gap


@njit_exact_inline
def _kept(rows, i):
    """``keep`` of a pair the narrowphase kept: 2 when some point of its row is within
    ``TOUCHING_DISTANCE`` (it touches, for the contact events), else 1. Read while the
    row is in cache, so the events need not read every row again. A touching row's
    ``C_TOUCHING`` becomes 2.0, which is what a sleeping pair's step reads instead."""
    count = rows[i, C_COUNT]
    near0 = count > 0.0 and rows[i, C_POINTS + P_SEP] <= TOUCHING_DISTANCE
    near1 = count > 1.0 and rows[i, C_POINTS + P_STRIDE + P_SEP] <= TOUCHING_DISTANCE
    if near0 or near1:
        rows[i, C_TOUCHING] = 2.0
        return np.uint8(2)
    return np.uint8(1)


@njit_exact_inline
def _kept_asleep(rows, i):
    """``keep`` of a pair whose row stays as last written (``_kept``): its head says
    whether it touches (one cache line of the row read, not the three its points span)."""
    return np.uint8(2) if rows[i, C_TOUCHING] == 2.0 else np.uint8(1)


@njit_exact_inline
def _frozen(btype, asleep, k):
    """Body ``k`` cannot move this step: it sleeps, or it is static."""
    return asleep[k] != 0 or btype[k] == STATIC


@njit_exact_inline
def _most_vertices(count):
    """The largest vertex count of any piece (at least 1): sizes the clipping scratch."""
    kmax = 1
    for i in range(count.shape[0]):
        kmax = max(kmax, count[i])
    return kmax


@njit_exact_inline
def _fat_boxes_overlap(fat, a, b):
    """Whether the fat boxes (min x, min y, max x, max y) of pieces a and b overlap."""
    return not (fat[a, 0] > fat[b, 2] or fat[b, 0] > fat[a, 2]
                or fat[a, 1] > fat[b, 3] or fat[b, 1] > fat[a, 3])


@njit_exact_inline
def _approach_reach(vel, angvel, extent, ba, bb, dt):
    """How far bodies ba and bb can approach each other within ``dt``: their relative
    speed plus each one's turn rate times its extent."""
    dvx = vel[bb, 0] - vel[ba, 0]
    dvy = vel[bb, 1] - vel[ba, 1]
    return dt * (math.sqrt(dvx * dvx + dvy * dvy) + abs(angvel[ba]) * extent[ba]
                 + abs(angvel[bb]) * extent[bb])


@njit_exact_inline
def _world_com(frame, com, k):
    """Body k's centre of mass in the world, from its frame (x, y, cos, sin)."""
    x, y, c, s = frame
    return x + c * com[k, 0] - s * com[k, 1], y + s * com[k, 0] + c * com[k, 1]


@njit_exact_inline
def _mixed_materials(friction, restitution, a, b, mixing):
    """Friction and restitution of the contact between pieces a and b."""
    if mixing == MIX_BOX2D:
        mixed = math.sqrt(friction[a] * friction[b]), max(restitution[a], restitution[b])
    else:
        mixed = friction[a] * friction[b], restitution[a] * restitution[b]
    return mixed


@njit_exact_inline
def _write_row(rows, hist, i, man, n, com_a, com_b, radius_a, radius_b, last):
    """Pair i's contact row from the manifold ``man`` (``n`` points): normal, and per
    point anchors, core points, separation, feature id and the impulses it inherits
    from last step's points; the pair's history keeps this step's points instead.
    ``com_a``, ``com_b`` are the world centres of mass, ``radius_a``, ``radius_b`` the
    pieces' rounding radii, ``last`` scratch for last step's points."""
    last_count = _last_points(hist, i, last)
    rows[i, C_COUNT] = float(n)
    rows[i, C_TOUCHING] = 1.0 if n > 0 else 0.0
    hist[i, H_COUNT] = float(n)
    nx = man[M_NX]
    ny = man[M_NY]
    if n > 0:
        rows[i, C_NX] = nx
        rows[i, C_NY] = ny
    for p in range(n):
        src = M_P1X + MANIFOLD_POINT_STRIDE * p
        px = man[src]
        py = man[src + 1]
        sep = man[src + 2]
        fid = man[src + 3]
        base = C_POINTS + p * P_STRIDE
        rax = px - com_a[0]
        ray = py - com_a[1]
        rbx = px - com_b[0]
        rby = py - com_b[1]
        rows[i, base + P_RAX] = rax
        rows[i, base + P_RAY] = ray
        rows[i, base + P_RBX] = rbx
        rows[i, base + P_RBY] = rby
        rows[i, base + P_SEP] = sep
        # core points: the surfaces are sep apart around p, each core its radius
        # behind its surface
        ha = 0.5 * sep + radius_a
        hb = 0.5 * sep + radius_b
        qax = rax - ha * nx
        qay = ray - ha * ny
        qbx = rbx + hb * nx
        qby = rby + hb * ny
        rows[i, base + P_QAX] = qax
        rows[i, base + P_QAY] = qay
        rows[i, base + P_QBX] = qbx
        rows[i, base + P_QBY] = qby
        rows[i, base + P_ADJ] = sep - ((qbx - qax) * nx + (qby - qay) * ny)
        rows[i, base + P_ID] = fid
        ni, ti = _inherited_impulses(last, last_count, fid)
        rows[i, base + P_NI] = ni
        rows[i, base + P_TI] = ti
        h = H_POINTS + p * H_STRIDE
        hist[i, h + H_ID] = fid
        hist[i, h + H_NI] = ni
        hist[i, h + H_TI] = ti


@njit_exact_inline
def _last_points(hist, i, last):
    """Copy pair i's points of last step (feature id and impulses, H_* columns) from its
    history into ``last`` (MAX_POINTS, H_STRIDE), before this step's replace them."""
    count = int(hist[i, H_COUNT])
    for p in range(count):
        h = H_POINTS + p * H_STRIDE
        last[p, H_ID] = hist[i, h + H_ID]
        last[p, H_NI] = hist[i, h + H_NI]
        last[p, H_TI] = hist[i, h + H_TI]
    return count


@njit_exact_inline
def _inherited_impulses(last, count, fid):
    """Warm starting: the normal and tangent impulses of the point among last step's
    ``count`` points with feature id ``fid``, or zeros when none has it."""
    # (a flag, not `break`: with a break in this loop Numba's reference-count pruning
    # missed the inlined arrays, an atomic increment and decrement per pair; see _jit.py)
    ni = 0.0
    ti = 0.0
    found = False
    for q in range(count):
        if not found and last[q, H_ID] == fid:
            ni = last[q, H_NI]
            ti = last[q, H_TI]
            found = True
    return ni, ti


# Keep the imported manifold constants referenced for readers: points are copied
# from the manifold record starting at M_P1X in strides of 4 (x, y, separation, id).
assert M_P1Y == M_P1X + 1 and M_S1 == M_P1X + 2 and M_ID1 == M_P1X + 3 and M_COUNT == 2
assert MANIFOLD_POINT_STRIDE == 4
assert CONTACT_SIZE == C_POINTS + MAX_POINTS * P_STRIDE
