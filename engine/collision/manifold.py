"""Contact manifolds between convex pieces: SAT, reference/incident clipping, MTV.

A *piece* is the rounded convex hull of ``k`` core vertices given in its local frame:
``k = 1`` is a circle (the vertex is its centre), ``k = 2`` a capsule (a segment with a
radius), ``k >= 3`` a (possibly rounded) convex polygon. Every shape the engine knows
is one piece or, for a concave polygon, several. Pieces carry their outward edge
normals (edge ``i`` runs from vertex ``i`` to ``i + 1``; a capsule has two opposite
normals). A pose is ``(x, y, cos, sin)``.

The result is written into a float64 record ``out`` of ``MANIFOLD_SIZE`` values
(layout in ``clip.py``, re-exported here): a normal pointing from piece A to piece B,
the pair's separation (negative when overlapping: ``depth = -separation``, ``mtv =
depth * normal``), and up to two contact points placed midway between the two surfaces, each with its own
separation and a feature id that stays the same while the same features touch (the
solver uses it to carry impulses over from the last step: warm starting).

Algorithms: SAT over the face normals of both pieces (a circle has none; its axis is the
direction to the closest core point, the seeds' "closest vertex" axis generalised to
edges), Box2D v3's reference/incident-edge clipping (``src/manifold.c``,
``b2ClipPolygons``) for the two-point manifold, and an exact core distance for rounded
pieces whose cores are apart (where face-normal SAT alone would only give a bound).
"""
import math

from .._jit import njit_exact as njit, njit_inline
# The record layout is re-exported: callers read manifolds through this module.
from .clip import (M_COUNT, M_ID1, M_ID2, M_NX, M_NY, M_P1X, M_P1Y, M_P2X, M_P2Y, M_S1, M_S2,  # noqa: F401
                   M_SEP, MANIFOLD_SIZE, clip_polygons, seam_face_contact)
from ..geometry.convex import closest_on_segment, convex_distance, direction
from ..geometry.seam_rows import G_CONCAVE, G_CUT
from .seams import outline_admits, outline_separation, support_admits

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
                      else d > 0.0 and not outline_admits(g, sp + feature, ux, uy)):
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
    offsets, not arrays: one call site per helper (per compiled function), so inlining
    them at Numba's IR level (which avoids per-call reference counting) does not
    multiply the compiled code.
    Seam rows of A and B start at ``ga`` and ``gb`` in ``g``; ``(rc, rs)`` rotates B's
    local frame into this one (A's is this one).

    Seams (pieces of a concave polygon): a reference face is never a cut, and a normal
    from the other piece's face, or between two vertices, must be one the outline has
    at the concave piece's contact points (its normal cone there, the role Box2D's ghost
    vertices play for chain segments). Otherwise the piece's own outline face next to
    the offending feature becomes the reference; when no such face is under the other
    piece, the pair reports nothing if the shapes are apart (a neighbouring piece has
    the true contact) and plain SAT if they overlap (``clip.seam_face_contact``).
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
        xsep_a, xedge_a, seamy_a = outline_separation(v, n, g, ga, sa, ka, sb, kb)
    if g[gb, G_CONCAVE] != 0.0:
        xsep_b, xedge_b, seamy_b = outline_separation(v, n, g, gb, sb, kb, sa, ka)
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
    # Their projections on the segment's direction tell. (Also for cores a hair apart
    # sideways, sep in (0, flip_tol]: those would be clipped below, and clipping two
    # end-to-end segments gave two points a full diameter deep.)
    along = False
    if sep <= flip_tol and ka == 2 and kb == 2:
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
            vertex = ((not seamy_a or support_admits(v, g, sa, ka, ga, 1.0, 0.0, ux, uy))
                      and (not seamy_b or support_admits(v, g, sb, kb, gb, rc, rs, -ux, -uy)))
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
        # A face realises the distance. For the seam rules below, whether the shapes
        # are apart is now known exactly: SAT's bound can say "overlapping" for a piece
        # that only nears the other one past a face's end, and its plain-SAT fallback
        # then clipped an edge lying wholly beyond that face into a contact 2 cm deep.
        apart = d

    if not seamy:
        if flip:
            s1, k1, r1, s2, k2, r2, i11 = sb, kb, rb, sa, ka, ra, edge_b
        else:
            s1, k1, r1, s2, k2, r2, i11 = sa, ka, ra, sb, kb, rb, edge_a
        clip_polygons(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin, False, False, False,
                      g, 0, 1.0, 0.0, False, out)
        return
    seam_face_contact(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, seamy_a, seamy_b,
                      apart, plain, stage, edge_a, edge_b, sep, flip, out)


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
    ghost : float64 (m, seams.GHOST_SIZE)
        Seam rows parallel to ``verts`` (``G_*`` columns of ``seams.py``): which edges
        are interior cuts of a concave polygon and the outline's normal cone at each vertex.
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
        hit, nx, ny, sep, px, py, feature = _polygon_point(verts, norms, ghost, sb, kb, rb, qx, qy,
                                                           ra, margin)
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
