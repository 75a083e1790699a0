"""Continuous collision stage: time of impact for fast bodies, motion clamped to it.

Speculative contacts (narrowphase) already stop bodies that move in a straight line
towards something they are paired with. What they cannot see is a body whose path
crosses a shape it was not paired with at the step's start, or a fast-turning body
whose far end swings through a thin shape. After the solver has moved every body, this
stage sweeps each *fast* body from its pose at the start of the step to its pose at the
end, finds the first time of impact (TOI) against every other shape under the sweep, and
moves the body back to that pose, keeping its velocity (Box2D v3 ``b2SolveContinuous``).

Time of impact is found by *conservative advancement* (Mirtich 1996; Catto, GDC 2013):
at time ``t`` take the exact distance ``d`` between the two pieces' cores and the
direction ``n`` between the closest points. Along that fixed axis the gap can close at
most as fast as ``(dA - dB) . n + |turnA| reachA + |turnB| reachB`` per unit of ``t``
(translation over the step, turn angle, farthest core point from the rotation centre),
and the distance is never smaller than the gap along any axis. So advancing ``t`` by
``(d - target) / speed`` can never step past the first contact. Pure translation along
a face converges in one iteration; a glancing pass ends at once because nothing closes
along ``n``.

A *sweep* is a tuple ``(c0x, c0y, a0, c1x, c1y, a1, lx, ly)``: the rotation centre moves
linearly from ``c0`` to ``c1`` while the angle goes linearly from ``a0`` to ``a1``; a
vertex ``v`` (in the vertex pool's frame) is at ``c(t) + R(a(t)) (v - l)``.
"""
import math

import numpy as np

from ._jit import njit, njit_inline
from .aabb_tree import META_ROOT, tree_query
from .geometry import convex_distance, piece_box
from .layout import DYNAMIC, STATIC

MAX_ITERATIONS = 50  # conservative advancement steps before giving up (stopping early)
MISS = -1.0


@njit_inline
def _place(verts, start, count, sweep, t, out, at):
    """Write the piece's core vertices at time ``t`` of ``sweep`` to ``out[at:at + count]``."""
    cx = sweep[0] + t * (sweep[3] - sweep[0])
    cy = sweep[1] + t * (sweep[4] - sweep[1])
    a = sweep[2] + t * (sweep[5] - sweep[2])
    c = math.cos(a)
    s = math.sin(a)
    for k in range(count):
        x = verts[start + k, 0] - sweep[6]
        y = verts[start + k, 1] - sweep[7]
        out[at + k, 0] = cx + c * x - s * y
        out[at + k, 1] = cy + s * x + c * y


@njit_inline
def _reach(verts, start, count, lx, ly):
    """Farthest core vertex of a piece from the rotation centre ``l``."""
    r = 0.0
    for k in range(start, start + count):
        dx = verts[k, 0] - lx
        dy = verts[k, 1] - ly
        r = max(r, math.sqrt(dx * dx + dy * dy))
    return r


@njit_inline
def _inside(v, s, k, px, py):
    """Point strictly inside or on the counter-clockwise convex polygon rows s..s+k-1 (k >= 3)."""
    for i in range(k):
        j = i + 1 if i + 1 < k else 0
        ax = v[s + i, 0]
        ay = v[s + i, 1]
        ex = v[s + j, 0] - ax
        ey = v[s + j, 1] - ay
        if ex * (py - ay) - ey * (px - ax) < 0.0:
            return False
    return True


@njit_inline
def _cross(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit
def cores_overlap(v, s1, k1, s2, k2):
    """True when two convex cores (rows of ``v``, counter-clockwise) share a point.

    Two convex sets overlap exactly when one contains a vertex of the other or their
    boundaries cross; ``convex_distance`` measures boundaries only, so this decides
    whether its answer is a distance or an overlap.
    """
    if k1 >= 3:
        for j in range(s2, s2 + k2):
            if _inside(v, s1, k1, v[j, 0], v[j, 1]):
                return True
    if k2 >= 3:
        for i in range(s1, s1 + k1):
            if _inside(v, s2, k2, v[i, 0], v[i, 1]):
                return True
    if k1 < 2 or k2 < 2:
        return False
    e1 = k1 if k1 > 2 else 1  # a segment core has one edge, not two
    e2 = k2 if k2 > 2 else 1
    for i in range(e1):
        ax = v[s1 + i, 0]
        ay = v[s1 + i, 1]
        bx = v[s1 + (i + 1) % k1, 0]
        by = v[s1 + (i + 1) % k1, 1]
        for j in range(e2):
            cx = v[s2 + j, 0]
            cy = v[s2 + j, 1]
            dx = v[s2 + (j + 1) % k2, 0]
            dy = v[s2 + (j + 1) % k2, 1]
            d1 = _cross(ax, ay, bx, by, cx, cy)
            d2 = _cross(ax, ay, bx, by, dx, dy)
            d3 = _cross(cx, cy, dx, dy, ax, ay)
            d4 = _cross(cx, cy, dx, dy, bx, by)
            if ((d1 > 0.0) != (d2 > 0.0) and (d3 > 0.0) != (d4 > 0.0)
                    and d1 != 0.0 and d2 != 0.0 and d3 != 0.0 and d4 != 0.0):
                return True
    return False


@njit
def piece_toi(verts_a, sa, ka, sweep_a, verts_b, sb, kb, sweep_b, target, tol, scratch):
    """First time in [0, 1] at which two swept convex cores come within ``target``.

    Parameters
    ----------
    verts_a, verts_b : float64 (n, 2)
        Core vertices; piece A is rows ``sa .. sa + ka - 1`` of ``verts_a`` (k = 1 for a
        circle, 2 for a capsule, >= 3 for a polygon, counter-clockwise).
    sweep_a, sweep_b : tuple of 8 floats (see the module docstring).
    target : float
        Core distance that counts as contact (the sum of the rounding radii to find
        touching surfaces; the world uses a little less, so the clamped body touches).
    tol : float
        Accept any distance up to ``target + tol``.
    scratch : float64 (>= ka + kb, 2)

    Returns
    -------
    (t, d, px, py, nx, ny): the fraction (``MISS`` = -1.0 when the cores never come
    within ``target`` during the sweep), the core distance then, the closest point on
    B's core and the unit direction from A's closest point to it (kept from the last
    iteration where the cores were apart, so a face reached exactly still has its
    normal). ``t`` is 0, with ``d`` and ``n`` zero, when the cores start overlapping. Never later
    than the true first contact; if ``MAX_ITERATIONS`` runs out (slow grazing rotation)
    the time reached so far is returned, which is early, never late.
    """
    ta_x = sweep_a[3] - sweep_a[0]
    ta_y = sweep_a[4] - sweep_a[1]
    tb_x = sweep_b[3] - sweep_b[0]
    tb_y = sweep_b[4] - sweep_b[1]
    turn = (abs(sweep_a[5] - sweep_a[2]) * _reach(verts_a, sa, ka, sweep_a[6], sweep_a[7])
            + abs(sweep_b[5] - sweep_b[2]) * _reach(verts_b, sb, kb, sweep_b[6], sweep_b[7]))
    t = 0.0
    d = 0.0
    p2x = p2y = nx = ny = 0.0
    for it in range(MAX_ITERATIONS):
        _place(verts_a, sa, ka, sweep_a, t, scratch, 0)
        _place(verts_b, sb, kb, sweep_b, t, scratch, ka)
        if it == 0 and cores_overlap(scratch, 0, ka, ka, kb):
            return 0.0, 0.0, scratch[ka, 0], scratch[ka, 1], 0.0, 0.0
        d, p1x, p1y, p2x, p2y = convex_distance(scratch, 0, ka, ka, kb)
        if d > 0.0:
            nx = (p2x - p1x) / d
            ny = (p2y - p1y) / d
        if d <= target + tol:
            return t, d, p2x, p2y, nx, ny
        speed = (ta_x - tb_x) * nx + (ta_y - tb_y) * ny + turn
        if speed <= 0.0:
            return MISS, d, p2x, p2y, nx, ny  # nothing closes the gap along n
        t += (d - target) / speed
        if t >= 1.0:
            return MISS, d, p2x, p2y, nx, ny
    return t, d, p2x, p2y, nx, ny


@njit
def _candidates(aabb, parent, child1, child2, height, user, meta,
                s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta, x0, y0, x1, y1, out):
    """Pieces under the box [x0, y0, x1, y1] in both trees: ``(out, count)``, ``out`` grown
    (a new array) when the pieces do not fit."""
    while True:
        n1 = tree_query(aabb, parent, child1, child2, height, user, meta, x0, y0, x1, y1, out)
        n2 = 0
        if n1 <= out.shape[0]:
            n2 = tree_query(s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta,
                            x0, y0, x1, y1, out[n1:])
        if n1 + n2 <= out.shape[0]:
            return out, n1 + n2
        out = np.empty(2 * (n1 + n2), np.int64)


@njit
def _grown(out):
    # an element loop, not a slice copy: it compiles several times faster
    grown = np.empty(2 * out.shape[0], np.int64)
    for k in range(out.shape[0]):
        grown[k] = out[k]
    return grown


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
def find_fast(safety, btype, bullet, com, extent, min_extent, pos0, angle0, pos, angle, fast):
    """Mark the bodies that moved too far this step for speculative contacts to trust.

    A dynamic body is fast when its centre of mass travelled, plus its turn times its
    extent, more than ``safety`` times its smallest extent (Box2D's test), or when it is
    a bullet. ``fast`` (n,) uint8 receives the marks; returns how many.
    """
    count = 0
    for i in range(btype.shape[0]):
        fast[i] = 0
        if btype[i] != DYNAMIC:
            continue
        dx = pos[i, 0] - pos0[i, 0]
        dy = pos[i, 1] - pos0[i, 1]
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:  # off-centre: the centre of mass's path
            c0 = math.cos(angle0[i])
            s0 = math.sin(angle0[i])
            c1 = math.cos(angle[i])
            s1 = math.sin(angle[i])
            dx += (c1 - c0) * com[i, 0] - (s1 - s0) * com[i, 1]
            dy += (s1 - s0) * com[i, 0] + (c1 - c0) * com[i, 1]
        motion = math.sqrt(dx * dx + dy * dy) + abs(angle[i] - angle0[i]) * extent[i]
        if bullet[i] or motion > safety * min_extent[i]:
            fast[i] = 1
            count += 1
    return count


@njit
def _body_sweep(pos0, angle0, pos, angle, com, i):
    c0 = math.cos(angle0[i])
    s0 = math.sin(angle0[i])
    c1 = math.cos(angle[i])
    s1 = math.sin(angle[i])
    lx = com[i, 0]
    ly = com[i, 1]
    return (pos0[i, 0] + c0 * lx - s0 * ly, pos0[i, 1] + s0 * lx + c0 * ly, angle0[i],
            pos[i, 0] + c1 * lx - s1 * ly, pos[i, 1] + s1 * lx + c1 * ly, angle[i], lx, ly)


@njit
def solve_continuous(fast, slop, safety, piece_alive, piece_body, piece_start, piece_count,
                     piece_radius, piece_fat, verts, norms, btype, bullet, com, extent,
                     min_extent, pos0, angle0, pos, angle, moved, keys,
                     aabb, parent, child1, child2, height, user, meta,
                     s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta):
    """Clamp every fast body's motion to its first time of impact this step.

    Parameters
    ----------
    fast : uint8 (n,)
        From ``find_fast``; the bodies to sweep.
    slop : float
        Linear slop: a body is stopped with its surfaces ``slop`` apart (rounded
        shapes: ``slop`` into each other), so the next step's contact touches.
    safety : float
        ``find_fast``'s fraction: a moving obstacle is swept against only when the
        pair's *relative* motion is fast by the same test.
    piece_*, verts, norms : the world's piece columns (``piece_fat``: the fat boxes the
        broadphase left) and geometry pool.
    btype, bullet, com, extent, min_extent, pos0, angle0, pos, angle, moved : body
        columns (extents as ``find_fast`` uses them); ``pos0``/``angle0`` is
        the pose when the step began, ``pos``/``angle`` where the solver left the body.
        Clamped bodies get a new ``pos``/``angle`` and ``moved`` = 1.
    keys : int64 (m,)
        The tracked pair keys ``(piece_a << 32) | piece_b`` (the moving obstacles of
        bodies that are not bullets come from these).
    The seven arrays of the moving-body tree, then the static tree's.

    Returns
    -------
    int: how many bodies were clamped.

    Notes
    -----
    Candidates are the pieces whose fat boxes overlap the fast piece's swept box (the
    union of its boxes at both ends, grown for the arc a turning corner bulges out
    of its chord): static ones from the static tree; moving ones from the pieces the
    broadphase already paired with it when its swept box lies inside its fat box (that
    box was swept along its velocity at the step's start, so those pairs are the moving
    bodies near its path), and from the moving tree otherwise (a bullet, or a body
    set moving or turned within the step: a ball at rest struck at 80 m/s, which the
    pair set alone let through a thin plank). Querying the moving tree for every fast
    piece cost 0.65 us a piece, most of rain2000's continuous stage while the rain
    falls. Box2D sweeps non-bullets against static shapes only. Other bodies are held at their end-of-step pose; a moving one is
    skipped unless the pair's relative motion is fast by ``find_fast``'s test, and
    other fast dynamic bodies are skipped: two fast bodies meet through their
    speculative contact. When a piece already touches something at the start (a fast box sliding
    on the ground) its TOI is 0; then, as Box2D does, a small circle (a quarter of
    the piece's inner radius) at the piece's centre is swept instead, which still
    catches the piece diving through that surface. If even that circle starts within
    the target (a piece thinner than the slop), its centre may close half its distance
    to the other piece and no more: the next contact then pushes it back out on the
    side it came from.
    """
    n = btype.shape[0]
    frac = np.ones(n)
    out = np.empty(64, np.int64)
    kmax = 1
    for p in range(piece_count.shape[0]):
        kmax = max(kmax, piece_count[p])
    scratch = np.empty((2 * kmax + 1, 2))
    center = np.empty((1, 2))
    depth = 0
    if meta[META_ROOT] >= 0:
        depth = height[meta[META_ROOT]]
    if s_meta[META_ROOT] >= 0:
        depth = max(depth, s_height[s_meta[META_ROOT]])
    stack = np.empty(depth + 2, np.int32)
    # the paired moving pieces of every fast piece, as lists partner[first[p]:first[p + 1]]
    n_pieces = piece_alive.shape[0]
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
    for p in range(n_pieces):
        if piece_alive[p] == 0:
            continue
        i = piece_body[p]
        if fast[i] == 0:
            continue
        sw = _body_sweep(pos0, angle0, pos, angle, com, i)
        sp = piece_start[p]
        kp = piece_count[p]
        rp = piece_radius[p]
        x0, y0, x1, y1 = piece_box(verts, sp, kp, rp, pos0[i, 0], pos0[i, 1],
                                   math.cos(angle0[i]), math.sin(angle0[i]), slop)
        u0, v0, u1, v1 = piece_box(verts, sp, kp, rp, pos[i, 0], pos[i, 1],
                                   math.cos(angle[i]), math.sin(angle[i]), slop)
        half = 0.5 * min(abs(angle[i] - angle0[i]), math.pi)
        bulge = (1.0 - math.cos(half)) * _reach(verts, sp, kp, com[i, 0], com[i, 1])
        x0 = min(x0, u0) - bulge
        y0 = min(y0, v0) - bulge
        x1 = max(x1, u1) + bulge
        y1 = max(y1, v1) + bulge
        # core circle for the start-touching fallback
        cx = 0.0
        cy = 0.0
        for k in range(sp, sp + kp):
            cx += verts[k, 0]
            cy += verts[k, 1]
        center[0, 0] = cx / kp
        center[0, 1] = cy / kp
        core_r = 0.25 * _inner_radius(verts, norms, sp, kp, rp, center[0, 0], center[0, 1])
        # Candidates (see the notes), but not this body's own pieces, nor other fast
        # dynamic bodies'. Within its fat box a body takes its paired pieces and the
        # static tree; a bullet, or a body that left its fat box, searches both trees.
        paired = (bullet[i] == 0 and x0 >= piece_fat[p, 0] and y0 >= piece_fat[p, 1]
                  and x1 <= piece_fat[p, 2] and y1 <= piece_fat[p, 3])
        hits = 0
        if paired:
            for k in range(first[p], first[p + 1]):
                q = partner[k]
                j = piece_body[q]
                if j == i or (fast[j] != 0 and btype[j] != STATIC):
                    continue
                if hits == out.shape[0]:
                    out = _grown(out)
                out[hits] = q
                hits += 1
        for tree in range(1 if paired else 0, 2):
            if tree == 0:
                t_aabb, t_child1, t_child2, t_height, t_user = aabb, child1, child2, height, user
                root = meta[META_ROOT]
            else:
                t_aabb, t_child1, t_child2, t_height, t_user = (s_aabb, s_child1, s_child2,
                                                                s_height, s_user)
                root = s_meta[META_ROOT]
            if root < 0:
                continue
            stack[0] = root
            top = 1
            while top > 0:
                top -= 1
                node = stack[top]
                if (t_aabb[node, 0] > x1 or t_aabb[node, 2] < x0
                        or t_aabb[node, 1] > y1 or t_aabb[node, 3] < y0):
                    continue
                if t_height[node] > 0:
                    stack[top] = t_child2[node]
                    stack[top + 1] = t_child1[node]
                    top += 2
                    continue
                q = t_user[node]
                j = piece_body[q]
                if j == i or (fast[j] != 0 and btype[j] != STATIC):
                    continue
                if hits == out.shape[0]:
                    out = _grown(out)
                out[hits] = q
                hits += 1
        for h in range(hits):
            q = out[h]
            j = piece_body[q]
            if btype[j] != STATIC:
                # Against a moving body only relative motion can tunnel. Bodies that
                # move fast together (a pile in a tumbler, a box carried by a moving
                # wall) meet through speculative contacts; sweeping one against a
                # neighbour pulled it back into the pile, 8 cm every step.
                moving = _body_sweep(pos0, angle0, pos, angle, com, j)
                rx = (sw[3] - sw[0]) - (moving[3] - moving[0])
                ry = (sw[4] - sw[1]) - (moving[4] - moving[1])
                rel = (math.sqrt(rx * rx + ry * ry) + abs(sw[5] - sw[2]) * extent[i]
                       + abs(moving[5] - moving[2]) * extent[j])
                if rel <= safety * min_extent[i]:
                    continue
            # The other body is held at its end pose (as in Box2D): a body stopped at
            # its first touch of that pose is not run into by the rest of the other
            # body's motion.
            other = (pos[j, 0], pos[j, 1], angle[j], pos[j, 0], pos[j, 1], angle[j], 0.0, 0.0)
            rq = piece_radius[q]
            target = max(slop, rp + rq - slop)
            t = piece_toi(verts, sp, kp, sw, verts, piece_start[q], piece_count[q], other,
                          target, 0.25 * slop, scratch)[0]
            if t == 0.0:
                target = max(slop, core_r + rq - slop)
                t, d = piece_toi(center, 0, 1, sw, verts, piece_start[q], piece_count[q],
                                 other, target, 0.25 * slop, scratch)[:2]
                if t == 0.0 and d > 0.0:
                    # a piece thinner than the slop starts with its centre within the
                    # target: let the centre close half its distance, never cross
                    t = piece_toi(center, 0, 1, sw, verts, piece_start[q], piece_count[q],
                                  other, 0.5 * d, 0.0, scratch)[0]
            if 0.0 < t < frac[i]:
                frac[i] = t
    clamped = 0
    for i in range(n):
        t = frac[i]
        if t >= 1.0:
            continue
        sw = _body_sweep(pos0, angle0, pos, angle, com, i)
        a = sw[2] + t * (sw[5] - sw[2])
        c = math.cos(a)
        s = math.sin(a)
        cx = sw[0] + t * (sw[3] - sw[0])
        cy = sw[1] + t * (sw[4] - sw[1])
        pos[i, 0] = cx - (c * com[i, 0] - s * com[i, 1])
        pos[i, 1] = cy - (s * com[i, 0] + c * com[i, 1])
        angle[i] = a
        moved[i] = 1
        clamped += 1
    return clamped


@njit
def shapes_toi(verts_a, starts_a, ra, sweep_a, verts_b, starts_b, rb, sweep_b, tol):
    """First touch of two swept shapes (one or several convex pieces each).

    Returns ``(t, px, py, nx, ny)``: the fraction (``MISS`` when they never touch), the
    contact point on B's surface and B's outward surface normal there (pointing at
    A). Shapes that start overlapping give ``t = 0`` and a zero normal.
    """
    npa = starts_a.shape[0] - 1
    npb = starts_b.shape[0] - 1
    kmax = 1
    for p in range(npa):
        kmax = max(kmax, starts_a[p + 1] - starts_a[p])
    for p in range(npb):
        kmax = max(kmax, starts_b[p + 1] - starts_b[p])
    scratch = np.empty((2 * kmax, 2))
    best = MISS
    px = py = nx = ny = 0.0
    for i in range(npa):
        for j in range(npb):
            t, d, qx, qy, ux, uy = piece_toi(
                verts_a, starts_a[i], starts_a[i + 1] - starts_a[i], sweep_a,
                verts_b, starts_b[j], starts_b[j + 1] - starts_b[j], sweep_b, ra + rb, tol, scratch)
            if t < 0.0 or (best >= 0.0 and t >= best):
                continue
            best = t
            nx = -ux
            ny = -uy
            px = qx + rb * nx
            py = qy + rb * ny
    return best, px, py, nx, ny


@njit
def cast_pieces(verts_s, starts_s, rs, sweep, tol, x0, y0, x1, y1,
                piece_body, piece_start, piece_count, piece_radius, verts, pos, angle,
                aabb, parent, child1, child2, height, user, meta,
                s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta):
    """First world piece a swept shape touches (the kernel of ``World.cast_shape``).

    ``(x0, y0, x1, y1)`` bounds the whole sweep; the world's pieces are held at their
    current poses. Returns ``(piece, t, px, py, nx, ny)`` as ``shapes_toi`` does, with
    ``piece`` = -1 when nothing is hit.
    """
    out = np.empty(64, np.int64)
    best_piece = -1
    best = MISS
    px = py = nx = ny = 0.0
    single = np.empty(2, np.int64)
    out, hits = _candidates(aabb, parent, child1, child2, height, user, meta, s_aabb, s_parent,
                            s_child1, s_child2, s_height, s_user, s_meta, x0, y0, x1, y1, out)
    for h in range(hits):
        q = out[h]
        j = piece_body[q]
        other = (pos[j, 0], pos[j, 1], angle[j], pos[j, 0], pos[j, 1], angle[j], 0.0, 0.0)
        single[0] = piece_start[q]
        single[1] = piece_start[q] + piece_count[q]
        t, qx, qy, mx, my = shapes_toi(verts_s, starts_s, rs, sweep, verts, single,
                                       piece_radius[q], other, tol)
        # ties go to the lower piece index, so the answer does not depend on tree order
        if t >= 0.0 and (best < 0.0 or t < best or (t == best and q < best_piece)):
            best = t
            best_piece = q
            px, py, nx, ny = qx, qy, mx, my
    return best_piece, best, px, py, nx, ny
