"""Narrowphase stage: one manifold per tracked piece pair, with warm-start matching.

Reads the pair list (sorted keys), the pieces' geometry and fat AABBs and the bodies'
poses; writes the contact rows (layout in ``layout.py``) and a keep flag per pair.
A pair whose fat AABBs no longer overlap is dropped; the broadphase will find it
again if they come back together.

A pair whose bodies have barely moved relative to each other since its manifold was
computed gets that manifold carried to the new poses instead of a new one: the
manifold cache (``manifold_cache.py``, which says when and why that is sound).
"""
import math

import numpy as np

from .._jit import njit_exact
from .layout import C_COUNT, C_FRICTION, C_NX, C_NY, C_POINTS, C_RESTITUTION, C_TOUCHING, CONTACT_SIZE, H_COUNT, H_ID, H_NI, H_POINTS, H_STRIDE, H_TI, MAX_POINTS, P_ADJ, P_ID, P_NI, P_QAX, P_QAY, P_QBX, P_QBY, P_RAX, P_RAY, P_RBX, P_RBY, P_SEP, P_STRIDE, P_TI
from .manifold_cache import can_reuse, refresh_from_cache, relative_pose, store_in_cache
from ..collision.manifold import M_COUNT, M_ID1, M_NX, M_NY, M_P1X, M_P1Y, M_S1, MANIFOLD_SIZE, collide_pieces

MIX_BOX2D = 0  # friction sqrt(a*b), restitution max(a, b)
MIX_PYMUNK = 1  # friction a*b, restitution a*b (Chipmunk's rule)


@njit_exact
def update_contacts(pairs, keep, bodies, pieces, params):
    """Recompute the manifold of every tracked pair.

    ``pairs`` is the pair set's ``PairArrays`` (keys, hist, rows, bodies: below as
    ``keys``, ``hist``, ``rows``, ``pair_body``); ``bodies`` and ``pieces`` the world's
    ``BodyArrays`` and ``PieceArrays`` (``world/state.py``); ``params`` a ``NarrowParams``
    (``dt``, ``margin``, ``flip_tol``, ``reuse_tol``, ``mixing``).

    Parameters
    ----------
    keys : int64 (m,)
        Pair keys ``(piece_a << 32) | piece_b``, ``piece_a < piece_b``.
    hist : float64 (m, HIST_SIZE)
        Each pair's history: last step's feature ids and impulses are read for warm
        starting and replaced by this step's points with the impulses they inherit.
    rows : float64 (m, CONTACT_SIZE)
        Contact rows, all written (a dropped pair gets a row with no points).
    keep : uint8 (m,)
        Set to 0 for pairs whose fat AABBs stopped overlapping, else 1.
    pair_body : int32 (2, >= m)
        Receives the bodies of each pair's two pieces (rows contiguous for the solver).
    piece_* : per-piece columns (body, first vertex row, vertex count, radius,
        friction, restitution, fat AABB (n, 4)); ``verts``/``norms`` (v, 2) the
        geometry pool in body-local coordinates; ``ghost`` (v, GHOST_SIZE) its seam
        rows (interior cuts and outline normal cones, see ``manifold.collide_pieces``).
    pos, angle, com : body origin (n, 2), angle (n,), local centre of mass (n, 2).
    vel, angvel, extent : body velocity (n, 2), angular velocity (n,) and the largest
        distance from the centre of mass to its shapes' surface (n,).
    dt : float
        The coming step.
    margin : float
        Speculative distance: points up to this separation are kept, plus as far as
        the two bodies can approach each other in ``dt``: a contact that can close
        within the step exists before it does (Firth 2011, "speculative contacts"),
        so ordinary speeds never need a sweep.
    flip_tol : float
        Reference-face hysteresis (see ``manifold.collide_pieces``).
    reuse_tol : float
        How far, in meters, the points of one body may have moved relative to the
        other since the pair's manifold was computed for it to be refreshed rather than
        recomputed (``manifold_cache.can_reuse``). 0 recomputes every manifold.
    mixing : int
        MIX_BOX2D or MIX_PYMUNK.
    """
    keys, hist, rows, pair_body = pairs.keys, pairs.hist, pairs.rows, pairs.bodies
    piece_body, piece_start, piece_count = pieces.body, pieces.start, pieces.count
    piece_radius, piece_friction, piece_restitution = pieces.radius, pieces.friction, pieces.restitution
    piece_fat, verts, norms, ghost = pieces.fat, pieces.verts, pieces.norms, pieces.ghost
    pos, angle, com, vel, angvel, extent = (bodies.pos, bodies.angle, bodies.com, bodies.vel,
                                            bodies.angvel, bodies.extent)
    dt, margin, flip_tol, reuse_tol, mixing = params
    m = keys.shape[0]
    kmax = 1
    for i in range(piece_count.shape[0]):
        kmax = max(kmax, piece_count[i])
    scratch_v = np.empty((2 * kmax, 2))
    scratch_n = np.empty((2 * kmax, 2))
    man = np.empty(MANIFOLD_SIZE)
    # one cos/sin per body rather than two per pair
    nb = angle.shape[0]
    rot = np.empty((nb, 2))
    for k in range(nb):
        rot[k, 0] = math.cos(angle[k])
        rot[k, 1] = math.sin(angle[k])
    old_id = np.empty(MAX_POINTS)
    old_ni = np.empty(MAX_POINTS)
    old_ti = np.empty(MAX_POINTS)
    for i in range(m):
        a = keys[i] >> 32
        b = keys[i] & 0xFFFFFFFF
        if (piece_fat[a, 0] > piece_fat[b, 2] or piece_fat[b, 0] > piece_fat[a, 2]
                or piece_fat[a, 1] > piece_fat[b, 3] or piece_fat[b, 1] > piece_fat[a, 3]):
            keep[i] = 0
            rows[i, C_COUNT] = 0.0
            rows[i, C_TOUCHING] = 0.0
            continue
        keep[i] = 1
        ba = piece_body[a]
        bb = piece_body[b]
        pair_body[0, i] = ba
        pair_body[1, i] = bb
        ca = rot[ba, 0]
        sa = rot[ba, 1]
        cb = rot[bb, 0]
        sb = rot[bb, 1]
        dvx = vel[bb, 0] - vel[ba, 0]
        dvy = vel[bb, 1] - vel[ba, 1]
        reach = dt * (math.sqrt(dvx * dvx + dvy * dvy) + abs(angvel[ba]) * extent[ba]
                      + abs(angvel[bb]) * extent[bb])
        # world centres of mass
        cax = pos[ba, 0] + ca * com[ba, 0] - sa * com[ba, 1]
        cay = pos[ba, 1] + sa * com[ba, 0] + ca * com[ba, 1]
        cbx = pos[bb, 0] + cb * com[bb, 0] - sb * com[bb, 1]
        cby = pos[bb, 1] + sb * com[bb, 0] + cb * com[bb, 1]
        frame_a = (pos[ba, 0], pos[ba, 1], ca, sa)
        frame_b = (pos[bb, 0], pos[bb, 1], cb, sb)
        pose = relative_pose((cax, cay), (cbx, cby), frame_a, frame_b, angle[ba], angle[bb],
                             extent[ba], extent[bb])
        if can_reuse(hist, i, pose, reach, reuse_tol):
            n = refresh_from_cache(hist, i, frame_a, frame_b, man)
        else:
            n = collide_pieces(verts, norms, ghost, piece_start[a], piece_count[a],
                               piece_radius[a], frame_a, piece_start[b], piece_count[b],
                               piece_radius[b], frame_b, margin + reach, flip_tol, scratch_v,
                               scratch_n, man)
            store_in_cache(hist, i, pose, reach, reuse_tol, frame_a, frame_b, man, n)
        old_count = int(hist[i, H_COUNT])
        for p in range(old_count):
            base = H_POINTS + p * H_STRIDE
            old_id[p] = hist[i, base + H_ID]
            old_ni[p] = hist[i, base + H_NI]
            old_ti[p] = hist[i, base + H_TI]
        if mixing == MIX_BOX2D:
            rows[i, C_FRICTION] = math.sqrt(piece_friction[a] * piece_friction[b])
            rows[i, C_RESTITUTION] = max(piece_restitution[a], piece_restitution[b])
        else:
            rows[i, C_FRICTION] = piece_friction[a] * piece_friction[b]
            rows[i, C_RESTITUTION] = piece_restitution[a] * piece_restitution[b]
        rows[i, C_COUNT] = float(n)
        rows[i, C_TOUCHING] = 1.0 if n > 0 else 0.0
        hist[i, H_COUNT] = float(n)
        if n == 0:
            continue
        nx = man[M_NX]
        ny = man[M_NY]
        rows[i, C_NX] = nx
        rows[i, C_NY] = ny
        for p in range(n):
            src = M_P1X + 4 * p
            px = man[src]
            py = man[src + 1]
            sep = man[src + 2]
            fid = man[src + 3]
            base = C_POINTS + p * P_STRIDE
            rax = px - cax
            ray = py - cay
            rbx = px - cbx
            rby = py - cby
            rows[i, base + P_RAX] = rax
            rows[i, base + P_RAY] = ray
            rows[i, base + P_RBX] = rbx
            rows[i, base + P_RBY] = rby
            rows[i, base + P_SEP] = sep
            # core points: the surfaces are sep apart around p, each core its radius
            # behind its surface
            ha = 0.5 * sep + piece_radius[a]
            hb = 0.5 * sep + piece_radius[b]
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
            ni = 0.0
            ti = 0.0
            for q in range(old_count):
                if old_id[q] == fid:
                    ni = old_ni[q]
                    ti = old_ti[q]
                    break
            rows[i, base + P_NI] = ni
            rows[i, base + P_TI] = ti
            h = H_POINTS + p * H_STRIDE
            hist[i, h + H_ID] = fid
            hist[i, h + H_NI] = ni
            hist[i, h + H_TI] = ti
    return 0


# Keep the imported manifold constants referenced for readers: points are copied
# from the manifold record starting at M_P1X in strides of 4 (x, y, separation, id).
assert M_P1Y == M_P1X + 1 and M_S1 == M_P1X + 2 and M_ID1 == M_P1X + 3 and M_COUNT == 2
assert CONTACT_SIZE == C_POINTS + MAX_POINTS * P_STRIDE
