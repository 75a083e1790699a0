"""Seam data and rules for pieces of concave polygons (helpers of ``manifold.py`` and
``polygon_sat.py``).

A concave polygon is split into convex pieces; an edge two pieces share (a *cut*) is not
a surface, and a contact normal must never come from one. Each piece vertex has a seam
row (``G_*`` columns below, built once per shape by ``shapes.py``): whether the edge
leaving it is a cut, and the outline's outward normal cone at that point, the part
Box2D's ghost vertices play for chain segments (``b2CollideChainSegmentAndPolygon``).

These helpers are compiled once as functions of their own, not inlined into every pair
routine: they run only for pieces of concave polygons, and inlining them doubled the
kernels' cold compile time.
"""
import math

from .._jit import njit_exact as njit, njit_inline

from ..geometry.seam_rows import (ADMIT_TOL, CONE_TOL, G_AX, G_AY, G_BX, G_BY, G_CONCAVE,  # noqa: F401
                                   G_CUT, GHOST_SIZE)


@njit_inline
def _face_reach(v, n, s1, k1, i, s2, k2):
    """Piece 2 seen from face ``i`` of piece 1: ``(sep, lo, hi, length, at)``, its
    smallest signed distance along the face normal, the span of its vertices along the
    face's direction (from the face's first vertex), the face's length, and where along
    it lies the vertex that is nearest (the first of them)."""
    nx = n[s1 + i, 0]
    ny = n[s1 + i, 1]
    ox = v[s1 + i, 0]
    oy = v[s1 + i, 1]
    i2 = s1 + i + 1 if i + 1 < k1 else s1
    length = -ny * (v[i2, 0] - ox) + nx * (v[i2, 1] - oy)
    sep = math.inf
    lo = math.inf
    hi = -math.inf
    at = 0.0
    for j in range(s2, s2 + k2):
        d = nx * (v[j, 0] - ox) + ny * (v[j, 1] - oy)
        t = -ny * (v[j, 0] - ox) + nx * (v[j, 1] - oy)
        if d < sep:
            sep = d
            at = t
        lo = min(lo, t)
        hi = max(hi, t)
    return sep, lo, hi, length, at


@njit
def outline_separation(v, n, g, g1, s1, k1, s2, k2):
    """SAT's largest face separation (``polygon_sat.py``) over the outline faces of piece
    1 (seam rows from ``g1``) that piece 2 does not lie wholly beyond an end of: ``(sep,
    face, outline)``, sep ``-inf`` if none, ``outline`` whether piece 1 has an outline
    face at all. A cut is never a reference face (seed 004's pruning of interior axes);
    it still separates, in plain SAT: two pieces apart only along a cut are apart.

    Not inlined, as the other seam helpers: they run only for pieces of concave
    polygons, and one compiled copy keeps the cold start short.

    Of parallel faces that tie (a straight run the piece's outline vertices split, a cut
    among them), the one the nearest vertex of piece 2 lies over wins: with the first,
    the clipping found the vertex beyond that face's end and gave no contact for shapes
    7.8 mm apart (``test_concave_phantom``, a hypothesis example).
    """
    ext = -math.inf
    ext_i = 0
    ext_over = False
    outline = False
    for i in range(k1):
        if g[g1 + i, G_CUT] != 0.0:
            continue
        outline = True
        s, lo, hi, length, at = _face_reach(v, n, s1, k1, i, s2, k2)
        if hi >= 0.0 and lo <= length:
            over = 0.0 <= at <= length
            parallel = n[s1 + i, 0] * n[s1 + ext_i, 0] + n[s1 + i, 1] * n[s1 + ext_i, 1] >= 1.0 - 1e-12
            tie = parallel and abs(s - ext) <= 1e-9 * max(1.0, abs(s))
            if (s > ext and not tie) or (tie and over and not ext_over):
                ext = s
                ext_i = i
                ext_over = over
    return ext, ext_i, outline


@njit_inline
def outline_admits(g, gi, nx, ny):
    """Whether unit ``n`` (local frame) is an outward normal of the outline at vertex row ``gi``."""
    ax = g[gi, G_AX]
    ay = g[gi, G_AY]
    bx = g[gi, G_BX]
    by = g[gi, G_BY]
    if ((ax * nx + ay * ny > 0.0 and abs(ax * ny - ay * nx) <= ADMIT_TOL)
            or (bx * nx + by * ny > 0.0 and abs(bx * ny - by * nx) <= ADMIT_TOL)):
        return True
    turn = ax * by - ay * bx
    if turn < -CONE_TOL:
        # A reflex corner has no normal of its own, but another shape's face pressing
        # into it is a true contact there (pymunk's depth for the piece); the piece's SAT
        # already keeps the normal within the piece's corner.
        return True
    # strictly inside a convex corner's cone (a straight point holds only a == b)
    return turn > 0.0 and ax * ny - ay * nx >= 0.0 and nx * by - ny * bx >= 0.0


@njit
def support_admits(v, n, g, s, k, gs, c, sn, nx, ny):
    """Whether the outline admits ``n`` (frame) at every vertex of piece ``s`` furthest
    along it, and the piece owns that direction there.

    ``(c, sn)`` rotates the piece's local frame into the frame of ``v`` and ``n`` (the
    piece's edge normals). Two tied vertices (an edge facing ``n``) must both admit it:
    an exterior edge does, a cut does not. A vertex at the end of a cut belongs to the
    pieces on both sides (or to a fan of pieces), and each of them would report the same
    vertex contact: going round the vertex, the last piece whose own cone holds the
    direction owns it. So the piece whose leaving edge is on the outline owns every
    direction its cone holds, and a piece whose leaving edge is a cut only those the
    pieces beyond that cut do not hold.
    """
    top = -math.inf
    for i in range(k):
        top = max(top, nx * v[s + i, 0] + ny * v[s + i, 1])
    tol = 1e-9 * (1.0 + abs(top))
    lx = c * nx + sn * ny
    ly = -sn * nx + c * ny
    for i in range(k):
        if nx * v[s + i, 0] + ny * v[s + i, 1] < top - tol:
            continue
        if not outline_admits(g, gs + i, lx, ly):
            return False
        if g[gs + i, G_CUT] != 0.0:  # the edge leaving this vertex is a cut
            # the pieces beyond the cut (one, or a fan of them) hold the normals from
            # the cut's (reversed) to the outline's leaving normal b: the last of them
            # that holds the direction owns it
            ox = n[s + i, 0]
            oy = n[s + i, 1]
            bx = c * g[gs + i, G_BX] - sn * g[gs + i, G_BY]
            by = sn * g[gs + i, G_BX] + c * g[gs + i, G_BY]
            after_start = oy * nx - ox * ny >= 0.0  # cross(-o, d)
            before_end = nx * by - ny * bx >= 0.0  # cross(d, b)
            if oy * bx - ox * by >= 0.0:  # the arc from -o to b is at most a half turn
                held = after_start and before_end
            else:
                held = after_start or before_end
            if held:
                return False
    return True


@njit
def snap_face(v, n, g, g2, s2, k2, i21, s1, k1):
    """Of piece 2's outline faces at edge ``i21`` (it or a neighbour), the one of largest
    separation from piece 1 that piece 1 does not lie wholly beyond an end of:
    ``(separation, face)``, face -1 if none.

    Not inlined, as the other seam helpers: they run only for pieces of concave polygons,
    and one compiled copy keeps the cold start short.
    """
    best = -math.inf
    best_i = -1
    for e in (i21 - 1 if i21 > 0 else k2 - 1, i21, i21 + 1 if i21 + 1 < k2 else 0):
        if g[g2 + e, G_CUT] != 0.0:
            continue
        f, lo, hi, length, _ = _face_reach(v, n, s2, k2, e, s1, k1)
        if hi >= 0.0 and lo <= length and f > best:
            best = f
            best_i = e
    return best, best_i


@njit
def straight_run(n, s, k, i):
    """First and last vertex of the run of parallel edges through edge ``i`` of piece ``s``.

    Not inlined: only pieces of concave polygons have such runs."""
    first = i
    for _ in range(k - 1):
        e = first - 1 if first > 0 else k - 1
        if n[s + e, 0] * n[s + i, 0] + n[s + e, 1] * n[s + i, 1] < 1.0 - 1e-12:
            break
        first = e
    last = i + 1 if i + 1 < k else 0
    for _ in range(k - 1):
        if n[s + last, 0] * n[s + i, 0] + n[s + last, 1] * n[s + i, 1] < 1.0 - 1e-12:
            break
        last = last + 1 if last + 1 < k else 0
    return first + (k - k), last


@njit
def off_outline_edge(v, g, s, k, gs, i1, i2, ax, ay, tx, ty, upper1, lower2, upper2, keep_lo,
                     keep_up, lx, ly):
    """The edge of the incident run (vertex ``i1`` to ``i2`` of piece ``s``, running
    against the reference tangent ``t`` from ``a``) at a kept point that is not on the
    outline with normal ``l`` (local frame), or -1 if there is none. A point clipped to
    the reference's side lies inside an edge: on the outline unless that edge is a cut.
    An unclipped point is a vertex: the outline's cone there must hold ``l``."""
    for p in range(2):
        if not (keep_lo if p == 0 else keep_up):
            continue
        clipped = lower2 < 0.0 if p == 0 else upper2 > upper1
        if clipped:
            at = 0.0 if p == 0 else upper1
            e = i1
            for _ in range(k):  # the run's edge holding the point
                e2 = e + 1 if e + 1 < k else 0
                if e2 == i2 or (v[s + e2, 0] - ax) * tx + (v[s + e2, 1] - ay) * ty <= at:
                    break
                e = e2
            if g[gs + e, G_CUT] != 0.0:
                return e
        elif p == 0:
            e = i2 - 1 if i2 > 0 else k - 1  # the run's edge ending at vertex i2
            if g[gs + e, G_CUT] != 0.0 and not outline_admits(g, gs + i2, lx, ly):
                return e
        elif g[gs + i1, G_CUT] != 0.0 and not outline_admits(g, gs + i1, lx, ly):
            return i1
    return -1
