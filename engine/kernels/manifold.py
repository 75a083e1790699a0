"""Contact manifolds between convex pieces: SAT, reference/incident clipping, MTV.

A *piece* is the rounded convex hull of ``k`` core vertices given in its local frame:
``k = 1`` is a circle (the vertex is its centre), ``k = 2`` a capsule (a segment with a
radius), ``k >= 3`` a (possibly rounded) convex polygon. Every shape the engine knows
is one piece or, for a concave polygon, several. Pieces carry their outward edge
normals (edge ``i`` runs from vertex ``i`` to ``i + 1``; a capsule has two opposite
normals). A pose is ``(x, y, cos, sin)``.

The result is written into a float64 record ``out`` of ``MANIFOLD_SIZE`` values
(layout below): a normal pointing from piece A to piece B, the pair's separation
(negative when overlapping: ``depth = -separation``, ``mtv = depth * normal``), and up
to two contact points placed midway between the two surfaces, each with its own
separation and a feature id that stays the same while the same features touch (the
solver uses it to carry impulses over from the last step: warm starting).

Algorithms: SAT over the face normals of both pieces (a circle has none; its axis is the
direction to the closest core point, the seeds' "closest vertex" axis generalised to
edges), Box2D v3's reference/incident-edge clipping (``src/manifold.c``,
``b2ClipPolygons``) for the two-point manifold, and an exact core distance for rounded
pieces whose cores are apart (where face-normal SAT alone would only give a bound).
"""
import math

from ._jit import njit, njit_inline
from .geometry import closest_on_segment, convex_distance, direction

# Layout of one manifold record.
M_NX = 0  # unit normal from A to B, world frame
M_NY = 1
M_COUNT = 2  # number of points, 0 (no contact within the margin), 1 or 2
M_SEP = 3  # separation of the pair along the normal (< 0: overlap, the MTV length)
M_P1X = 4  # point 1, world frame, midway between the surfaces
M_P1Y = 5
M_S1 = 6  # point 1 separation
M_ID1 = 7  # point 1 feature id
M_P2X = 8
M_P2Y = 9
M_S2 = 10
M_ID2 = 11
MANIFOLD_SIZE = 12

# Per-vertex seam data, rows of the ``ghost`` pool parallel to the vertices (built by
# ``shapes.py`` from ``decompose.interior_edges`` and ``decompose.outline_cones``).
G_CUT = 0  # 1.0 when the edge leaving this vertex is an interior cut of a concave polygon
G_AX = 1  # the outline's outward normal cone at this vertex runs from a (the normal of
G_AY = 2  # the outline edge arriving here) counter-clockwise to b (the one leaving); a
G_BX = 3  # point inside an outline edge has a == b, a reflex corner a clockwise pair, a
#           point inside the polygon (a split cut ending on a cut) zeros
G_BY = 4
G_CONCAVE = 5  # 1.0 on every row of a piece that has a cut: one load tells a convex piece
GHOST_SIZE = 6
CONE_TOL = 1e-6  # sine: a normal this close to a cone's bounding normal is that normal


@njit
def _kind(count):
    # 0 circle, 1 capsule, 2 polygon: the canonical pair order.
    return 0 if count == 1 else (1 if count == 2 else 2)


@njit_inline
def _max_separation(v, n, s1, k1, s2, k2):
    """Largest over faces of piece 1 of the smallest signed distance of piece 2's vertices.

    Both pieces are rows of the same vertex/normal arrays (``s1``/``k1``, ``s2``/``k2``).
    """
    best = -math.inf
    best_i = 0
    for i in range(k1):
        nx = n[s1 + i, 0]
        ny = n[s1 + i, 1]
        ox = v[s1 + i, 0]
        oy = v[s1 + i, 1]
        s = math.inf
        for j in range(s2, s2 + k2):
            d = nx * (v[j, 0] - ox) + ny * (v[j, 1] - oy)
            if d < s:
                s = d
        if s > best:
            best = s
            best_i = i
    return best, best_i


@njit
def _outline_separation(v, n, g, g1, s1, k1, s2, k2):
    """:func:`_max_separation` over the outline faces of piece 1 (seam rows from ``g1``)
    that piece 2 does not lie wholly beyond an end of: ``(sep, face, outline)``, sep
    ``-inf`` if none, ``outline`` whether piece 1 has an outline face at all. A cut is
    never a reference face (seed 004's pruning of interior axes); it still separates,
    in :func:`_max_separation`: two pieces apart only along a cut are apart.

    Not inlined, as the other seam helpers: they run only for pieces of concave
    polygons, and one compiled copy keeps the cold start short.
    """
    ext = -math.inf
    ext_i = 0
    outline = False
    for i in range(k1):
        if g[g1 + i, G_CUT] != 0.0:
            continue
        outline = True
        nx = n[s1 + i, 0]
        ny = n[s1 + i, 1]
        ox = v[s1 + i, 0]
        oy = v[s1 + i, 1]
        i2 = s1 + i + 1 if i + 1 < k1 else s1
        length = -ny * (v[i2, 0] - ox) + nx * (v[i2, 1] - oy)
        s = math.inf
        lo = math.inf
        hi = -math.inf
        for j in range(s2, s2 + k2):
            s = min(s, nx * (v[j, 0] - ox) + ny * (v[j, 1] - oy))
            t = -ny * (v[j, 0] - ox) + nx * (v[j, 1] - oy)
            lo = min(lo, t)
            hi = max(hi, t)
        if hi >= 0.0 and lo <= length and s > ext:
            ext = s
            ext_i = i
    return ext, ext_i, outline


@njit_inline
def _admits(g, gi, nx, ny):
    """Whether unit ``n`` (local frame) is an outward normal of the outline at vertex row ``gi``."""
    ax = g[gi, G_AX]
    ay = g[gi, G_AY]
    bx = g[gi, G_BX]
    by = g[gi, G_BY]
    if ((ax * nx + ay * ny > 0.0 and abs(ax * ny - ay * nx) <= CONE_TOL)
            or (bx * nx + by * ny > 0.0 and abs(bx * ny - by * nx) <= CONE_TOL)):
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
def _support_admits(v, g, s, k, gs, c, sn, nx, ny):
    """Whether the outline admits ``n`` (frame) at every vertex of piece ``s`` furthest along it.

    ``(c, sn)`` rotates the piece's local frame into the frame of ``v``. Two tied vertices
    (an edge facing ``n``) must both admit it: an exterior edge does, a cut does not.
    """
    top = -math.inf
    for i in range(k):
        top = max(top, nx * v[s + i, 0] + ny * v[s + i, 1])
    tol = 1e-9 * (1.0 + abs(top))
    lx = c * nx + sn * ny
    ly = -sn * nx + c * ny
    for i in range(k):
        if nx * v[s + i, 0] + ny * v[s + i, 1] >= top - tol and not _admits(g, gs + i, lx, ly):
            return False
    return True


@njit_inline
def _polygon_point(vp, np_, g, sp, kp, rp, qx, qy, rq, margin):
    """A rounded polygon/capsule core (rows ``sp .. sp+kp-1`` of ``vp``, seam rows of ``g``
    at the same offsets) against a rounded point ``q``, both in the polygon's frame.

    Returns ``(hit, nx, ny, sep, px, py, feature)`` with the normal from the polygon
    towards the point. For a piece of a concave polygon, a point whose closest feature
    is a cut, or a vertex at which the outline has no such normal, is no contact of this
    piece: the piece beyond the cut, or the one whose outline face the point is over,
    reports the true one.
    """
    best = -math.inf
    best_i = 0
    ext = -math.inf
    ext_i = 0
    cut = False
    for i in range(kp):
        s = np_[sp + i, 0] * (qx - vp[sp + i, 0]) + np_[sp + i, 1] * (qy - vp[sp + i, 1])
        if s > best:
            best = s
            best_i = i
        if g[sp + i, G_CUT] != 0.0:
            cut = True
        elif s > ext:
            ext = s
            ext_i = i
    rsum = rp + rq
    if best - rsum > margin:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0
    # A piece with no outline face at all (cut on every side) keeps plain SAT.
    seamy = cut and ext > -math.inf
    if best <= 0.0 and kp >= 3 and seamy:
        best = ext
        best_i = ext_i
        inside = True
    else:
        inside = best <= 0.0 and kp >= 3
    if inside:
        # The centre is inside the core: the face of least penetration is the axis. (A
        # capsule's core has no inside: its two faces only say the centre is on its line,
        # possibly beyond an end, so it always takes the closest-point branch.)
        nx = np_[sp + best_i, 0]
        ny = np_[sp + best_i, 1]
        d = best
        feature = best_i
    else:
        # Outside the core: the axis joins the centre to the closest core point, which
        # lies on an edge or at a vertex (the seeds' closest-vertex axis).
        dd = math.inf
        cx = cy = 0.0
        feature = 0
        edge = 0
        interior = False
        for i in range(kp):
            i2 = i + 1 if i + 1 < kp else 0
            x, y, t = closest_on_segment(qx, qy, vp[sp + i, 0], vp[sp + i, 1], vp[sp + i2, 0], vp[sp + i2, 1])
            e = (qx - x) * (qx - x) + (qy - y) * (qy - y)
            if e < dd:
                dd = e
                cx = x
                cy = y
                feature = i if t < 1.0 else i2
                edge = i
                interior = 0.0 < t < 1.0
        # Not sqrt(dd): for a centre within ~1e-154 of the core, dd is subnormal.
        d, ux, uy = direction(qx - cx, qy - cy)
        if d - rsum > margin:
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0
        if seamy and (g[sp + edge, G_CUT] != 0.0 if interior
                      else d > 0.0 and not _admits(g, sp + feature, ux, uy)):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0
        if interior:
            # The centre faces an edge's interior: that edge's normal is the axis and the
            # distance along it is exact, where the joining vector would be rounding noise
            # for a centre (nearly) on the edge.
            nx = np_[sp + edge, 0]
            ny = np_[sp + edge, 1]
            d = nx * (qx - vp[sp + edge, 0]) + ny * (qy - vp[sp + edge, 1])
            if kp == 2 and d < 0.0:  # a capsule's core has two sides: face the centre
                nx = -nx
                ny = -ny
                d = -d
            d = max(d, 0.0)
        elif d > 0.0:
            nx = ux
            ny = uy
        else:
            nx = np_[sp + best_i, 0]
            ny = np_[sp + best_i, 1]
    sep = d - rsum
    # Midway between the polygon surface (rp along n from its core) and the point's.
    h = 0.5 * (rp - rq - d)
    return True, nx, ny, sep, qx + h * nx, qy + h * ny, feature


@njit_inline
def _polygons(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, flip_tol, out):
    """Two rounded polygons/capsules, rows of the same arrays in one frame; fills ``out``.

    Keeping both pieces in one array lets the reference/incident choice swap row
    offsets, not arrays: one call site per helper, so inlining them at Numba's IR level
    (which avoids per-call reference counting) does not multiply the compiled code.
    Seam rows of A and B start at ``ga`` and ``gb`` in ``g``; ``(rc, rs)`` rotates B's
    local frame into this one (A's is this one).

    Seams (pieces of a concave polygon): a reference face is never a cut, and a normal
    from the other piece's face, or between two vertices, must be one the outline has
    at the concave piece's contact points (its normal cone there, the role Box2D's ghost
    vertices play for chain segments). Otherwise the piece's own outline face next to
    the offending feature becomes the reference, and when no such face overlaps the
    other piece the pair reports nothing: a neighbouring piece has the true contact.
    """
    sep_a, edge_a = _max_separation(v, n, sa, ka, sb, kb)
    sep_b, edge_b = _max_separation(v, n, sb, kb, sa, ka)
    rsum = ra + rb
    out[M_COUNT] = 0.0
    if sep_a - rsum > margin or sep_b - rsum > margin:
        return
    xsep_a = xsep_b = -math.inf
    xedge_a = xedge_b = 0
    seamy_a = seamy_b = False
    if g[ga, G_CONCAVE] != 0.0:
        xsep_a, xedge_a, seamy_a = _outline_separation(v, n, g, ga, sa, ka, sb, kb)
    if g[gb, G_CONCAVE] != 0.0:
        xsep_b, xedge_b, seamy_b = _outline_separation(v, n, g, gb, sb, kb, sa, ka)
    # (A piece cut on every side, with no outline face, keeps plain SAT.)
    seamy = seamy_a or seamy_b
    apart = max(sep_a, sep_b)
    plain_flip = 1 if sep_b > sep_a + flip_tol else 0
    # (+ zero: plain int64s, not literals, so the seam helpers compile once)
    zero = ka - ka
    plain = (edge_a + zero, edge_b + zero, sep_b if plain_flip else sep_a, plain_flip + zero)
    if seamy_a:
        sep_a = xsep_a
        edge_a = xedge_a
    if seamy_b:
        sep_b = xsep_b
        edge_b = xedge_b
    # Reference face: the axis of largest separation (Box2D keeps A unless B is larger
    # by flip_tol, so resting contacts do not flip faces, and ids, every step).
    flip = 1 if sep_b > sep_a + flip_tol else 0
    sep = sep_b if flip else sep_a
    stage = 0
    if not seamy:
        apart = sep
    elif sep == -math.inf:
        # no outline face the other piece is over: a neighbouring piece has the contact
        if apart > rsum:
            return
        edge_a, edge_b, sep, flip = plain
        stage = 2

    # Two capsule cores (segments) have no area: their face normals cannot see a gap
    # along their common line, so collinear segments would pass SAT however far apart.
    # Their projections on the segment's direction tell.
    along = False
    if sep <= 0.0 and ka == 2 and kb == 2:
        tx = v[sa + 1, 0] - v[sa, 0]
        ty = v[sa + 1, 1] - v[sa, 1]
        a0 = v[sa, 0] * tx + v[sa, 1] * ty
        a1 = v[sa + 1, 0] * tx + v[sa + 1, 1] * ty
        b0 = v[sb, 0] * tx + v[sb, 1] * ty
        b1 = v[sb + 1, 0] * tx + v[sb + 1, 1] * ty
        along = min(b0, b1) > max(a0, a1) or min(a0, a1) > max(b0, b1)

    if (apart > flip_tol or along) and stage == 0:
        # Cores apart: face SAT only bounds the distance. Find the exact closest
        # features; if no face realises them, this is a vertex contact. (Within the
        # world's tolerance of touching, Box2D's shortcut: clip, as if overlapping;
        # ``collide`` passes a zero tolerance and always gets the exact answer.)
        d, pax, pay, pbx, pby = convex_distance(v, sa, ka, sb, kb)
        if d - rsum > margin:
            return
        # d == 0: the cores touch after all (sep > 0, or the gap along the line, was
        # rounding); the face path below has a defined normal. (No division by zero:
        # it raises under NUMBA_DISABLE_JIT.)
        inv = 1.0 / d if d > 0.0 else 0.0
        ux = (pbx - pax) * inv
        uy = (pby - pay) * inv
        # A face of either piece realises the distance unless the closest features are
        # two vertices; then the direction joining them leaves both best faces' normals.
        # Test both faces, not only the reference one: with hysteresis, or when the two
        # separations tie to rounding, the reference may be the face that does not
        # realise it. The sine of the angle is resolved to rounding, where
        # d - sep ~ d * angle^2 / 2 would hide angles below ~1e-6; the rounding of u
        # itself grows as the points get closer, hence the 1/d term, and with the size
        # of the coordinates the closest point was computed from (a point on a 1 km
        # ground edge is rounded to ~1e-13 m): scale by the two faces' vertices.
        ea = sa + (edge_a + 1 if edge_a + 1 < ka else 0)
        eb = sb + (edge_b + 1 if edge_b + 1 < kb else 0)
        big = max(abs(v[sa + edge_a, 0]), abs(v[sa + edge_a, 1]), abs(v[ea, 0]), abs(v[ea, 1]),
                  abs(v[sb + edge_b, 0]), abs(v[sb + edge_b, 1]), abs(v[eb, 0]), abs(v[eb, 1]))
        tol = 1e-10 + 1e-14 * inv * (1.0 + big)
        ax = n[sa + edge_a, 0]
        ay = n[sa + edge_a, 1]
        bx = -n[sb + edge_b, 0]
        by = -n[sb + edge_b, 1]
        face_a = abs(ux * ay - uy * ax) <= tol and ux * ax + uy * ay > 0.0
        face_b = abs(ux * by - uy * bx) <= tol and ux * bx + uy * by > 0.0
        vertex = d > 0.0 and (along or not (face_a or face_b))
        if vertex and seamy:
            # between two vertices: the outline must have this normal at both
            vertex = ((not seamy_a or _support_admits(v, g, sa, ka, ga, 1.0, 0.0, ux, uy))
                      and (not seamy_b or _support_admits(v, g, sb, kb, gb, rc, rs, -ux, -uy)))
        if vertex:
            h = ra + 0.5 * (d - rsum)
            out[M_NX] = ux
            out[M_NY] = uy
            out[M_SEP] = d - rsum
            out[M_COUNT] = 1.0
            out[M_P1X] = pax + h * ux
            out[M_P1Y] = pay + h * uy
            out[M_S1] = d - rsum
            out[M_ID1] = float(flip * 65536 + 255 * 256 + 255)
            return

    if not seamy:
        if flip:
            s1, k1, r1, s2, k2, r2, i11 = sb, kb, rb, sa, ka, ra, edge_b
        else:
            s1, k1, r1, s2, k2, r2, i11 = sa, ka, ra, sb, kb, rb, edge_a
        _clip(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin, False, False, False,
              g, 0, 1.0, 0.0, False, out)
        return
    _seam_faces(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, seamy_a, seamy_b, apart,
                plain, stage, edge_a, edge_b, sep, flip, out)


@njit
def _seam_faces(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, seamy_a, seamy_b, apart,
                plain, stage, edge_a, edge_b, sep, flip, out):
    """The face contact of :func:`_polygons` for a pair with a piece of a concave polygon:
    the reference ``edge_a``/``edge_b`` (per ``flip``) clipped and checked, snapped or
    replaced by ``plain`` SAT as the seam rules say. Compiled once, not inlined: convex
    pairs never come here."""
    rsum = ra + rb
    check = seamy_a if flip else seamy_b  # the incident piece's contacts need checking
    # stage 0: outline reference, checked; 1: snapped to the incident piece's outline
    # face; 2: plain SAT, when the seam rules leave overlapping pieces without a contact
    # (deep inside a concave polygon, or a face whose extent misses the other piece)
    for _ in range(3):
        if flip:
            s1, k1, r1, s2, k2, r2, i11 = sb, kb, rb, sa, ka, ra, edge_b
            g2, c2, sn2 = ga, 1.0, 0.0
        else:
            s1, k1, r1, s2, k2, r2, i11 = sa, ka, ra, sb, kb, rb, edge_a
            g2, c2, sn2 = gb, rc, rs
        i21 = _clip(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin,
                    apart > rsum and stage < 2, stage == 2, True, g, g2, c2, sn2,
                    check and stage == 0, out)
        if i21 < 0:
            if out[M_COUNT] > 0.0 or stage == 2 or apart > rsum:
                return
            edge_a, edge_b, sep, flip = plain
            stage = 2
            continue
        # The incident piece's contact is not on its outline, or the outline has another
        # normal there: its outline face at the offending edge (that edge or a neighbour)
        # of largest separation becomes the reference.
        best, best_i = _snap_face(v, n, g, g2, s2, k2, i21, s1, k1)
        out[M_COUNT] = 0.0
        if best_i >= 0 and best - rsum <= margin:
            edge_a, edge_b, sep, flip = best_i, best_i, best, 1 - flip
            stage = 1
        elif apart > rsum:
            return
        else:
            edge_a, edge_b, sep, flip = plain
            stage = 2


@njit
def _snap_face(v, n, g, g2, s2, k2, i21, s1, k1):
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
        nx = n[s2 + e, 0]
        ny = n[s2 + e, 1]
        ox = v[s2 + e, 0]
        oy = v[s2 + e, 1]
        e2 = s2 + e + 1 if e + 1 < k2 else s2
        length = -ny * (v[e2, 0] - ox) + nx * (v[e2, 1] - oy)
        f = math.inf
        lo = math.inf
        hi = -math.inf
        for j in range(s1, s1 + k1):
            f = min(f, nx * (v[j, 0] - ox) + ny * (v[j, 1] - oy))
            t = -ny * (v[j, 0] - ox) + nx * (v[j, 1] - oy)
            lo = min(lo, t)
            hi = max(hi, t)
        if hi >= 0.0 and lo <= length and f > best:
            best = f
            best_i = e
    return best, best_i


@njit_inline
def _clip(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin, strict, whole, runs, g, g2,
          c2, sn2, check, out):
    """Two-point manifold: reference face ``i11`` of poly1, incident edge of poly2.

    ``flip`` says poly1 is piece B: the normal is then turned to point from A to B.
    ``strict``: an incident edge wholly beyond the reference face's ends gives no
    contact (a concave polygon's neighbouring piece owns it). ``whole``: the reference
    face extends over collinear neighbours (plain SAT; a seam-aware reference must not
    reach over a collinear cut); ``runs``: the incident edge does. ``check``: poly2 is a
    piece of a concave polygon (seam rows from ``g2`` in ``g``, local frame rotated by
    ``(c2, sn2)`` into this one) whose kept points must lie on its outline with the
    normal in the outline's cone there.

    Returns -1, or the incident edge when ``check`` rejects a kept point (``out`` is
    then filled but not to be used).
    """
    rsum = r1 + r2
    sign = -1.0 if flip else 1.0
    nx = n[s1 + i11, 0]
    ny = n[s1 + i11, 1]
    i10 = i11
    i12 = i11 + 1 if i11 + 1 < k1 else 0
    if whole:
        # Plain SAT: the reference face is its whole straight run (a concave polygon's
        # piece keeps outline vertices inside its edges; see the incident edge below).
        i10, i12 = _straight_run(n, s1, k1, i11)

    ax = v[s1 + i10, 0]
    ay = v[s1 + i10, 1]
    tx = v[s1 + i12, 0] - ax
    ty = v[s1 + i12, 1] - ay
    length = math.sqrt(tx * tx + ty * ty)
    tx /= length
    ty /= length
    upper1 = length

    # Incident edge: the edge of poly2 most anti-parallel to the reference normal.
    i21 = 0
    best = math.inf
    for j in range(k2):
        dn = nx * n[s2 + j, 0] + ny * n[s2 + j, 1]
        if dn < best:
            best = dn
            i21 = j
    i22 = i21 + 1 if i21 + 1 < k2 else 0
    if runs:
        # A concave polygon's piece keeps outline vertices inside its edges: the incident
        # edge is the whole straight run they split (vertex i21 to vertex i22). Other
        # shapes have no collinear vertices.
        i21, i22 = _straight_run(n, s2, k2, i21)

    # Clip the incident edge to the reference face's extent along its tangent.
    # The incident edge runs against the reference one: v22 is at its lower end.
    upper2 = (v[s2 + i21, 0] - ax) * tx + (v[s2 + i21, 1] - ay) * ty
    lower2 = (v[s2 + i22, 0] - ax) * tx + (v[s2 + i22, 1] - ay) * ty
    span = upper2 - lower2
    lox = v[s2 + i22, 0]
    loy = v[s2 + i22, 1]
    if lower2 < 0.0 and span > 1e-12:
        f = -lower2 / span
        lox = v[s2 + i22, 0] + f * (v[s2 + i21, 0] - v[s2 + i22, 0])
        loy = v[s2 + i22, 1] + f * (v[s2 + i21, 1] - v[s2 + i22, 1])
    upx = v[s2 + i21, 0]
    upy = v[s2 + i21, 1]
    if upper2 > upper1 and span > 1e-12:
        f = (upper1 - lower2) / span
        upx = v[s2 + i22, 0] + f * (v[s2 + i21, 0] - v[s2 + i22, 0])
        upy = v[s2 + i22, 1] + f * (v[s2 + i21, 1] - v[s2 + i22, 1])
    s_lo = (lox - ax) * nx + (loy - ay) * ny
    s_up = (upx - ax) * nx + (upy - ay) * ny
    if strict and (upper2 < 0.0 or lower2 > upper1):
        out[M_COUNT] = 0.0
        return -1
    keep_lo = s_lo - rsum <= margin
    keep_up = s_up - rsum <= margin
    if check:
        # poly2's outward normal, -n, in its local frame
        e = _off_outline(v, g, s2, k2, g2, i21 + (k2 - k2), i22, ax, ay, tx, ty, upper1, lower2,
                         upper2, keep_lo, keep_up, -(c2 * nx + sn2 * ny), -(-sn2 * nx + c2 * ny))
        if e >= 0:
            return e

    out[M_NX] = sign * nx
    out[M_NY] = sign * ny
    out[M_SEP] = sep - rsum
    count = 0
    # Each kept point sits midway between the surfaces: the incident core vertex moved
    # along n by half the gap, accounting for both radii.
    if keep_lo:
        h = 0.5 * (r1 - r2 - s_lo)
        out[M_P1X] = lox + h * nx
        out[M_P1Y] = loy + h * ny
        out[M_S1] = s_lo - rsum
        out[M_ID1] = float(flip * 65536 + i11 * 256 + i22)
        count = 1
    if keep_up:
        h = 0.5 * (r1 - r2 - s_up)
        base = M_P1X if count == 0 else M_P2X
        out[base] = upx + h * nx
        out[base + 1] = upy + h * ny
        out[base + 2] = s_up - rsum
        out[base + 3] = float(flip * 65536 + i12 * 256 + i21)
        count += 1
    out[M_COUNT] = float(count)
    return -1


@njit
def _straight_run(n, s, k, i):
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
def _off_outline(v, g, s, k, gs, i1, i2, ax, ay, tx, ty, upper1, lower2, upper2, keep_lo,
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
        elif p == 0 and not _admits(g, gs + i2, lx, ly):
            return i2 - 1 if i2 > 0 else k - 1
        elif p == 1 and not _admits(g, gs + i1, lx, ly):
            return i1
    return -1


@njit_inline
def _to_world(out, x, y, c, s):
    """Rotate/translate the normal and points of ``out`` from a frame to the world."""
    nx = out[M_NX]
    ny = out[M_NY]
    out[M_NX] = c * nx - s * ny
    out[M_NY] = s * nx + c * ny
    for base in (M_P1X, M_P2X):
        px = out[base]
        py = out[base + 1]
        out[base] = x + c * px - s * py
        out[base + 1] = y + s * px + c * py


@njit_inline
def _circle_circle(cax, cay, ra, cbx, cby, rb, margin, out):
    dx = cbx - cax
    dy = cby - cay
    d, nx, ny = direction(dx, dy)
    sep = d - ra - rb
    out[M_COUNT] = 0.0
    if sep > margin:
        return
    if d == 0.0:
        nx = 0.0  # concentric: any axis is a minimum; pick +y
        ny = 1.0
    h = ra + 0.5 * sep
    out[M_NX] = nx
    out[M_NY] = ny
    out[M_SEP] = sep
    out[M_COUNT] = 1.0
    out[M_P1X] = cax + h * nx
    out[M_P1Y] = cay + h * ny
    out[M_S1] = sep
    out[M_ID1] = 0.0


@njit
def collide_pieces(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin, flip_tol,
                   scratch_v, scratch_n, out):
    """Manifold between two pieces, written to ``out`` in the world frame.

    Parameters
    ----------
    verts, norms : float64 (m, 2)
        Vertex and normal pool holding both pieces' core vertices and edge normals in
        their local frames: piece A in rows ``sa .. sa + ka - 1``, B in ``sb ..``.
        Pieces are addressed by offset rather than sliced: array views cost Numba
        reference counting per pair.
    ghost : float64 (m, GHOST_SIZE)
        Seam rows parallel to ``verts`` (``G_*`` columns): which edges are interior
        cuts of a concave polygon and the outline's normal cone at each vertex.
    ra : float
        Rounding radius of A (the circle radius when ka == 1).
    pose_a : tuple (x, y, cos, sin)
        Local-to-world transform of A. Same for B.
    margin : float
        Keep contact points whose separation is at most this (0 for overlaps only,
        the speculative distance in the world).
    flip_tol : float
        Linear tolerance: hysteresis for choosing B's face over A's as the reference,
        and the separation below which cores count as touching faces (0 in
        ``collide``, where the exact answer is wanted; a tenth of the slop in the
        world, where stable faces and ids matter more).
    scratch_v, scratch_n : float64 (K, 2)
        Work space, K >= ka + kb: both pieces in A's frame.
    out : float64 (MANIFOLD_SIZE,)

    Returns
    -------
    int: the number of contact points (0 means no contact within ``margin``).
    """
    # Kinds out of canonical order: solve B against A and turn the normal around.
    swapped = _kind(ka) > _kind(kb)
    if swapped:
        sa, ka, ra, pose_a, sb, kb, rb, pose_b = sb, kb, rb, pose_b, sa, ka, ra, pose_a
    count = _ordered_pieces(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                            flip_tol, scratch_v, scratch_n, out)
    if swapped and count > 0:
        out[M_NX] = -out[M_NX]
        out[M_NY] = -out[M_NY]
    return count


@njit_inline
def _ordered_pieces(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin, flip_tol,
                    scratch_v, scratch_n, out):
    """:func:`collide_pieces` for pieces whose kinds are in canonical order."""
    xa, ya, ca, sna = pose_a
    xb, yb, cb, snb = pose_b
    out[M_COUNT] = 0.0
    if kb == 1:
        # circle-circle, directly in the world frame
        cax = xa + ca * verts[sa, 0] - sna * verts[sa, 1]
        cay = ya + sna * verts[sa, 0] + ca * verts[sa, 1]
        cbx = xb + cb * verts[sb, 0] - snb * verts[sb, 1]
        cby = yb + snb * verts[sb, 0] + cb * verts[sb, 1]
        _circle_circle(cax, cay, ra, cbx, cby, rb, margin, out)
    elif ka == 1:
        # circle against capsule/polygon: in the polygon's frame, normal from it to the
        # circle, so negated to point from A (the circle) to B.
        wx = xa + ca * verts[sa, 0] - sna * verts[sa, 1] - xb
        wy = ya + sna * verts[sa, 0] + ca * verts[sa, 1] - yb
        qx = cb * wx + snb * wy
        qy = -snb * wx + cb * wy
        hit, nx, ny, sep, px, py, feature = _polygon_point(verts, norms, ghost, sb, kb, rb, qx, qy, ra, margin)
        if hit:
            out[M_NX] = -nx
            out[M_NY] = -ny
            out[M_SEP] = sep
            out[M_COUNT] = 1.0
            out[M_P1X] = px
            out[M_P1Y] = py
            out[M_S1] = sep
            out[M_ID1] = float(feature)
            _to_world(out, xb, yb, cb, snb)
    else:
        # Both pieces in A's frame (A as it is, B transformed) in one scratch array:
        # the arithmetic stays near the origin, so a pair far from the world origin
        # gives the same manifold, shifted.
        for j in range(ka):
            scratch_v[j, 0] = verts[sa + j, 0]
            scratch_v[j, 1] = verts[sa + j, 1]
            scratch_n[j, 0] = norms[sa + j, 0]
            scratch_n[j, 1] = norms[sa + j, 1]
        dx = xb - xa
        dy = yb - ya
        tx = ca * dx + sna * dy
        ty = -sna * dx + ca * dy
        c = ca * cb + sna * snb
        s = ca * snb - sna * cb
        for j in range(kb):
            x = verts[sb + j, 0]
            y = verts[sb + j, 1]
            scratch_v[ka + j, 0] = tx + c * x - s * y
            scratch_v[ka + j, 1] = ty + s * x + c * y
            x = norms[sb + j, 0]
            y = norms[sb + j, 1]
            scratch_n[ka + j, 0] = c * x - s * y
            scratch_n[ka + j, 1] = s * x + c * y
        # ka - ka, not 0: a literal would type the seam helpers' offset arguments
        # differently from the int64 ones and compile each of them twice
        _polygons(scratch_v, scratch_n, ghost, sa, ka - ka, ka, ra, sb, ka, kb, rb, c, s, margin,
                  flip_tol, out)
        if out[M_COUNT] > 0.0:
            _to_world(out, xa, ya, ca, sna)
    return int(out[M_COUNT])
