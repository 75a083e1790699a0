"""Manifolds between two rounded polygons by the separating axis test (helpers of ``manifold.py``).

A capsule is a rounded polygon of two core vertices (a segment) here, so one routine,
``collide_polygon_polygon``, serves the capsule-capsule, capsule-polygon and
polygon-polygon pairs. SAT over the face normals of both cores picks the reference face;
Box2D v3's reference/incident-edge clipping (``src/manifold.c``, ``b2ClipPolygons``;
``clip.py``) gives the two points; an exact core distance
(``geometry.convex.convex_distance``) settles rounded pieces whose cores are apart,
where face SAT alone would only bound the distance.

Seams (pieces of a concave polygon, ``seams.py``): a reference face is never a cut, and a
normal from the other piece's face, or between two vertices, must be one the outline has
at the concave piece's contact points (its normal cone there, the role Box2D's ghost
vertices play for chain segments). Otherwise the piece's own outline face next to the
offending feature becomes the reference; when no such face is under the other piece,
the pair reports nothing if the shapes are apart (a neighbouring piece has the true
contact) and plain SAT if they overlap (``clip.seam_face_contact``).

The helpers are inlined (``njit_inline``); the calls to the seam kernels, which are not,
are made from ``_sat_manifold`` itself. Moved into the smaller inlined helpers that take
the arrays, they left reference-count updates on every pair's path (measured: 18-20 ns
more per capsule pair whose cores are apart, about 15 %; see ``_jit.py``).
"""
import math

from .._jit import njit_exact as njit, njit_inline
from .clip import (M_COUNT, M_ID1, M_NX, M_NY, M_P1X, M_P1Y, M_S1, M_SEP, clip_polygons,
                   record_to_world, seam_face_contact)
from ..geometry.convex import convex_distance
from ..geometry.seam_rows import G_CONCAVE
from .seams import outline_separation, support_admits


@njit_inline
def pair_index(sa, sb):
    """A number from 0 to 1,000,002 that varies with the unordered pair of vertex rows
    ``sa``, ``sb`` (its triangular index, modulo a prime), for
    :func:`coincident_axis`.

    Examples
    --------
    >>> pair_index(0, 1), pair_index(1, 0), pair_index(3, 7)
    (0, 0, 24)
    """
    lo = min(sa, sb)
    hi = max(sa, sb)
    return (hi * (hi - 1) // 2 + lo) % 1000003


# The golden angle, in radians: successive multiples of it spread evenly over the circle.
GOLDEN_ANGLE = 2.399963229728653


@njit_inline
def coincident_axis(sa, sb):
    """The normal of two pieces with one centre (concentric circles, or polygons whose
    faces all tie), whose every axis is as good as another: a direction varied by the
    pair of vertex rows ``sa``, ``sb`` (:func:`pair_index` golden angles from +y), so
    that many bodies created at one point spread out in every direction instead of
    along one line or four. Deterministic, and opposite for the pair taken the other way
    round; the pair of rows (0, 1), as ``collide`` has it, gives +y. Returns ``(nx, ny)``.

    Examples
    --------
    >>> coincident_axis(0, 1)
    (0.0, 1.0)
    """
    t = pair_index(sa, sb) * GOLDEN_ANGLE
    sign = 1.0 if sa < sb else -1.0
    return sign * math.sin(t), sign * math.cos(t)


# Faces whose separations differ by at most TIE times their size are tied (``_max_separation``).
TIE = 1e-12


@njit_inline
def _max_separation(v, n, s1, k1, s2, k2):
    """Largest over faces of piece 1 of the smallest signed distance of piece 2's vertices:
    ``(separation, face, tied)``, ``tied`` when another face comes within ``TIE``
    (relative) of it. Ties go to the first face, as ever; ``tied`` lets the caller find
    two equal polygons at one pose, which tie on every face (``_coincident_contact``).

    Both pieces are rows of the same vertex/normal arrays (``s1``/``k1``, ``s2``/``k2``).
    """
    best = -math.inf
    best_i = 0
    tied = False
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
            tied = s <= best + TIE * abs(best)  # (False for the first face: -inf + inf)
            best = s
            best_i = i
        elif s >= best - TIE * abs(best):
            tied = True
    return best, best_i, tied


@njit_inline
def _reference_axis(sep_a, edge_a, xsep_a, xedge_a, seamy_a, sep_b, edge_b, xsep_b, xedge_b,
                    seamy_b, rsum, flip_tol, zero):
    """The reference face from both pieces' plain SAT separations (``sep_a``, ``edge_a``;
    ``sep_b``, ``edge_b``) and outline-face ones (``xsep_a``, ``xedge_a``; ``seamy_a``:
    A is a piece of a concave polygon with an outline face; the same for B):
    ``(edge_a, edge_b, sep, flip, apart, plain, stage)``.

    ``flip`` says B's face is the reference; ``apart`` is the separation that says
    whether the shapes are apart; ``plain`` is the plain-SAT choice ``(edge_a, edge_b,
    sep, flip)``; ``stage`` is 0 (the choice stands), 2 (fell back to ``plain``: no
    outline face is under the other piece, yet the shapes overlap) or -1 (no contact: a
    neighbouring piece has it).
    """
    # (A piece cut on every side, with no outline face, keeps plain SAT.)
    seamy = seamy_a or seamy_b
    apart = max(sep_a, sep_b)
    plain_flip = 1 if sep_b > sep_a + flip_tol else 0
    # (+ zero: plain int64s, not literals, so the seam helpers compile once)
    plain = (edge_a + zero, edge_b + zero, sep_b if plain_flip else sep_a, plain_flip + zero)
    if seamy_a:
        sep_a = xsep_a
        edge_a = xedge_a
    if seamy_b:
        sep_b = xsep_b
        edge_b = xedge_b
    # Reference face: the axis of largest separation (Box2D keeps A unless B is larger
    # by flip_tol, so resting contacts do not flip faces, and ids, every step). Not for
    # a piece of a concave polygon apart from the other: an outline face kept by the
    # hysteresis may end before the other piece's corner, and its seam rules then found
    # no contact for a corner a hair from the outline's (the exact answer, as
    # ``collide`` gives it, is the face that separates them).
    if seamy and apart > 0.0:
        flip_tol = 0.0
    flip = 1 if sep_b > sep_a + flip_tol else 0
    sep = sep_b if flip else sep_a
    stage = 0
    if not seamy:
        apart = sep
    elif sep == -math.inf:
        # no outline face the other piece is over: a neighbouring piece has the contact,
        # or, apart, a vertex of each outline nearest the other (the caller's exact test)
        edge_a, edge_b, sep, flip = plain
        stage = -1 if apart > rsum else 2
    return edge_a, edge_b, sep, flip, apart, plain, stage


@njit_inline
def _capsules_apart_along(v, sa, sb):
    """Whether two capsule cores (segments at rows ``sa``, ``sb``) are apart along A's line.

    Two segments have no area: their face normals cannot see a gap along their common
    line, so collinear segments would pass SAT however far apart. Their projections on
    the segment's direction tell.
    """
    tx = v[sa + 1, 0] - v[sa, 0]
    ty = v[sa + 1, 1] - v[sa, 1]
    a0 = v[sa, 0] * tx + v[sa, 1] * ty
    a1 = v[sa + 1, 0] * tx + v[sa + 1, 1] * ty
    b0 = v[sb, 0] * tx + v[sb, 1] * ty
    b1 = v[sb + 1, 0] * tx + v[sb + 1, 1] * ty
    return min(b0, b1) > max(a0, a1) or min(a0, a1) > max(b0, b1)


@njit_inline
def _face_realises(v, n, sa, ka, edge_a, sb, kb, edge_b, ux, uy, inv):
    """Whether face ``edge_a`` of A or ``edge_b`` of B has the unit axis ``u`` between the
    cores' closest points (``inv``: one over their distance) as its normal. If neither
    has, the closest features are two vertices and the contact is a vertex contact.

    Both faces, not only the reference one: with hysteresis, or when the two separations
    tie to rounding, the reference may be the face that does not realise the distance.
    The sine of the angle is resolved to rounding, where d - sep ~ d * angle^2 / 2 would
    hide angles below ~1e-6; the rounding of u itself grows as the points get closer,
    hence the 1/d term, and with the size of the coordinates the closest point was
    computed from (a point on a 1 km ground edge is rounded to ~1e-13 m): scale by the
    two faces' vertices.
    """
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
    return face_a or face_b


@njit_inline
def _write_vertex_contact(out, pax, pay, ux, uy, d, ra, rsum):
    """Fill ``out`` with the one point of a vertex-vertex contact: the closest core points
    ``pa`` (of A) and ``pa + d u`` (of B), the normal ``u``."""
    h = ra + 0.5 * (d - rsum)
    out[M_NX] = ux
    out[M_NY] = uy
    out[M_SEP] = d - rsum
    out[M_COUNT] = 1.0
    out[M_P1X] = pax + h * ux
    out[M_P1Y] = pay + h * uy
    out[M_S1] = d - rsum
    out[M_ID1] = float(255 * 256 + 255)  # one id, whichever piece is the reference


@njit
def _coincident_contact(v, sa, ka, sb, kb, sep, ga, gb, out):
    """For two pieces with one centre (their core vertices' means equal to rounding), which
    their faces' ties revealed: one contact at that centre along :func:`coincident_axis`
    of the pair's pool rows ``ga``, ``gb``, with the pair's separation ``sep`` (SAT's,
    the true penetration: the overlap along that axis is larger, and a contact is never
    deeper than the shapes overlap); returns whether it wrote one.

    Every axis pushes such a pair apart equally well, and a face's normal would send a
    crowd created at one point apart along two lines only, where chains of pairs add
    up their push (300 boxes reached 106 m/s; with this, as slowly as circles). The
    feature id -1 matches no clipped point, so no impulse is carried over to or from a
    face contact (as for concentric circles). Only in the world's step (``flip_tol`` >
    0): ``collide`` (``flip_tol`` 0, the exact answer) keeps the minimum translation,
    one of the tied faces.

    Compiled on its own, not inlined, like the seam kernels: an inlined helper that takes
    arrays and returns early can leave Numba's reference counts on every pair's path
    (``_jit.py``); called, it costs them only on a tie. (rain2000's step measured the
    same as before this helper, interleaved in one process.)
    """
    ax = ay = bx = by = 0.0
    big = 0.0
    for j in range(sa, sa + ka):
        ax += v[j, 0]
        ay += v[j, 1]
        big = max(big, abs(v[j, 0]), abs(v[j, 1]))
    for j in range(sb, sb + kb):
        bx += v[j, 0]
        by += v[j, 1]
        big = max(big, abs(v[j, 0]), abs(v[j, 1]))
    ax /= ka
    ay /= ka
    bx /= kb
    by /= kb
    tol = 1e-12 * big
    if abs(ax - bx) > tol or abs(ay - by) > tol:
        return False
    nx, ny = coincident_axis(ga, gb)
    out[M_NX] = nx
    out[M_NY] = ny
    out[M_SEP] = sep
    out[M_COUNT] = 1.0
    out[M_P1X] = 0.5 * (ax + bx)
    out[M_P1Y] = 0.5 * (ay + by)
    out[M_S1] = sep
    out[M_ID1] = -1.0
    return True


@njit_inline
def _sat_manifold(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, flip_tol, out):
    """Two rounded polygons/capsules in one frame (A's); fills ``out``.

    ``v``, ``n``: float64 (m, 2) core vertices and outward edge normals, A in rows
    ``sa .. sa + ka - 1`` (rounding radius ``ra``), B in ``sb .. sb + kb - 1`` (``rb``);
    ``g``: float64 (m', GHOST_SIZE) seam rows, A's from row ``ga``, B's from ``gb``;
    ``(rc, rs)``: cosine and sine rotating B's local frame into this one; ``margin``,
    ``flip_tol``: as in ``manifold.collide_pieces``; ``out``: float64 (MANIFOLD_SIZE,).
    Keeping both pieces in one array lets the reference/incident choice swap row
    offsets, not arrays: one call site per helper, so inlining them does not multiply
    the compiled code. The seam rules are in the module docstring.
    """
    sep_a, edge_a, tied_a = _max_separation(v, n, sa, ka, sb, kb)
    sep_b, edge_b, tied_b = _max_separation(v, n, sb, kb, sa, ka)
    rsum = ra + rb
    out[M_COUNT] = 0.0
    if sep_a - rsum > margin or sep_b - rsum > margin:
        return
    if (tied_a or tied_b) and flip_tol > 0.0 and \
            _coincident_contact(v, sa, ka, sb, kb, max(sep_a, sep_b) - rsum, ga, gb, out):
        return  # (the world's step only: see _coincident_contact)
    xsep_a = xsep_b = -math.inf
    xedge_a = xedge_b = 0
    seamy_a = seamy_b = False
    if g[ga, G_CONCAVE] != 0.0:
        xsep_a, xedge_a, seamy_a = outline_separation(v, n, g, ga, sa, ka, sb, kb)
    if g[gb, G_CONCAVE] != 0.0:
        xsep_b, xedge_b, seamy_b = outline_separation(v, n, g, gb, sb, kb, sa, ka)
    edge_a, edge_b, sep, flip, apart, plain, stage = _reference_axis(
        sep_a, edge_a, xsep_a, xedge_a, seamy_a, sep_b, edge_b, xsep_b, xedge_b, seamy_b, rsum,
        flip_tol, ka - ka)
    # Two capsule cores can be apart along their common line, which face SAT cannot see.
    # (Also for cores a hair apart sideways, sep in (0, flip_tol]: those would be clipped
    # below, and clipping two end-to-end segments gave two points a full diameter deep.)
    along = False
    if sep <= flip_tol and ka == 2 and kb == 2:
        along = _capsules_apart_along(v, sa, sb)

    if (apart > flip_tol or along or (apart > 0.0 and (seamy_a or seamy_b))) and stage <= 0:
        # Cores apart: face SAT only bounds the distance. Find the exact closest
        # features; if no face realises them, this is a vertex contact. (Within the
        # world's tolerance of touching, Box2D's shortcut: clip, as if overlapping;
        # ``collide`` passes a zero tolerance and always gets the exact answer. Not for
        # concave polygons' pieces: their seam rules need the exact gap: _reference_axis.)
        d, pax, pay, pbx, pby = convex_distance(v, sa, ka, sb, kb)
        if d - rsum > margin:
            return
        # d == 0: the cores touch after all (sep > 0, or the gap along the line, was
        # rounding); the face path below has a defined normal. (No division by zero:
        # it raises under NUMBA_DISABLE_JIT.)
        inv = 1.0 / d if d > 0.0 else 0.0
        ux = (pbx - pax) * inv
        uy = (pby - pay) * inv
        vertex = d > 0.0 and (along or not _face_realises(v, n, sa, ka, edge_a, sb, kb, edge_b,
                                                              ux, uy, inv))
        if vertex and (seamy_a or seamy_b):
            # between two vertices: the outline must have this normal at both
            vertex = ((not seamy_a or support_admits(v, n, g, sa, ka, ga, 1.0, 0.0, ux, uy))
                      and (not seamy_b or support_admits(v, n, g, sb, kb, gb, rc, rs, -ux, -uy)))
        if vertex:
            _write_vertex_contact(out, pax, pay, ux, uy, d, ra, rsum)
            return
        # A face realises the distance. For the seam rules below, whether the shapes
        # are apart is now known exactly: SAT's bound can say "overlapping" for a piece
        # that only nears the other one past a face's end, and its plain-SAT fallback
        # then clipped an edge lying wholly beyond that face into a contact 2 cm deep.
        apart = d
    if stage < 0:
        return  # no outline face, and no outline vertex pair: a neighbour's contact

    if not (seamy_a or seamy_b):
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
def collide_polygon_polygon(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                            flip_tol, scratch_v, scratch_n, out):
    """Rounded polygon or capsule A against rounded polygon or capsule B (arguments and
    result as ``manifold.collide_pieces``): SAT over both cores' face normals, Box2D's
    reference/incident clipping, the exact core distance when the cores are apart, and
    the seam rules for pieces of concave polygons.

    A capsule is a rounded polygon of two core vertices, so this one routine is also
    ``manifold.collide_capsule_capsule`` and ``manifold.collide_capsule_polygon`` (the
    gap along two collinear capsule cores, which their face normals cannot see, is
    tested here).

    Both pieces in A's frame (A as it is, B transformed) in one scratch array: the
    arithmetic stays near the origin, so a pair far from the world origin gives the same
    manifold, shifted.
    """
    xa, ya, ca, sna = pose_a
    xb, yb, cb, snb = pose_b
    out[M_COUNT] = 0.0
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
    _sat_manifold(scratch_v, scratch_n, ghost, sa, ka - ka, ka, ra, sb, ka, kb, rb, c, s, margin,
                  flip_tol, out)
    if out[M_COUNT] > 0.0:
        record_to_world(out, xa, ya, ca, sna)
