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

One routine per pair of kinds, in the canonical order circle < capsule < polygon:
``collide_circle_circle``, ``collide_circle_capsule``, ``collide_circle_polygon``,
``collide_capsule_capsule``, ``collide_capsule_polygon``, ``collide_polygon_polygon``
(a capsule is a rounded polygon of two core vertices: ``collide_circle_capsule`` is
``collide_circle_polygon``, and both capsule pairs are ``collide_polygon_polygon``);
``collide_pieces`` dispatches to them by the pieces' vertex counts.

Algorithms: SAT over the face normals of both pieces (a circle has none; its axis is the
direction to the closest core point, the seeds' "closest vertex" axis generalised to
edges; ``_polygon_point`` here), Box2D v3's reference/incident-edge clipping
(``src/manifold.c``, ``b2ClipPolygons``; ``clip.py``) for the two-point manifold, and an
exact core distance for rounded pieces whose cores are apart, where face-normal SAT
alone would only give a bound (``polygon_sat.py``).
"""
import math

from .._jit import borrowed, njit_exact as njit, njit_inline
# The record layout is re-exported: callers read manifolds through this module.
from .clip import (M_COUNT, M_ID1, M_ID2, M_NX, M_NY, M_P1X, M_P1Y, M_P2X, M_P2Y,  # noqa: F401
                   M_S1, M_S2, M_SEP, MANIFOLD_SIZE, record_to_world)
from ..geometry.convex import closest_on_segment, direction
from ..geometry.seam_rows import G_CUT
from .polygon_sat import coincident_axis, collide_polygon_polygon
from .seams import outline_admits

# Piece kinds by core vertex count, in the canonical pair order.
CIRCLE = 0  # one vertex: the centre
CAPSULE = 1  # two: a segment with a radius
POLYGON = 2  # three or more, possibly rounded


@njit
def _kind(count):
    return CIRCLE if count == 1 else (CAPSULE if count == 2 else POLYGON)


@njit_inline
def collide_circle_circle(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                          flip_tol, scratch_v, scratch_n, out):
    """Circle against circle (arguments and result as :func:`collide_pieces`): the axis is
    the line between the centres, in the world frame (concentric circles: see
    :func:`coincident_axis`). One point, midway between the surfaces."""
    xa, ya, ca, sna = pose_a
    xb, yb, cb, snb = pose_b
    cax = xa + ca * verts[sa, 0] - sna * verts[sa, 1]
    cay = ya + sna * verts[sa, 0] + ca * verts[sa, 1]
    cbx = xb + cb * verts[sb, 0] - snb * verts[sb, 1]
    cby = yb + snb * verts[sb, 0] + cb * verts[sb, 1]
    dx = cbx - cax
    dy = cby - cay
    d, nx, ny = direction(dx, dy)
    sep = d - ra - rb
    out[M_COUNT] = 0.0
    if sep > margin:
        return
    feature = 0.0
    if d == 0.0:  # concentric: any axis is a minimum
        nx, ny = coincident_axis(sa, sb)
        feature = 1.0  # not the id of the pair apart: its impulse is not carried to a real axis
    h = ra + 0.5 * sep
    out[M_NX] = nx
    out[M_NY] = ny
    out[M_SEP] = sep
    out[M_COUNT] = 1.0
    out[M_P1X] = cax + h * nx
    out[M_P1Y] = cay + h * ny
    out[M_S1] = sep
    out[M_ID1] = feature


@njit_inline
def _face_scan(vp, np_, g, sp, kp, qx, qy):
    """Point ``q`` against the faces of a core: ``(best, best_i, ext, ext_i, cut)``, the
    largest signed face distance and its face, the same over outline faces only (not
    cuts; ``-inf`` if none), and whether the piece has a cut."""
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
    return best, best_i, ext, ext_i, cut


@njit_inline
def _closest_core_point(vp, sp, kp, qx, qy):
    """The core point closest to ``q``, on an edge or at a vertex: ``(cx, cy, feature,
    edge, interior)``, with the nearest vertex of that edge as the feature id and whether
    the point is inside the edge."""
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
    return cx, cy, feature, edge, interior


@njit_inline
def _outside_axis(vp, np_, g, sp, kp, qx, qy, rsum, margin, seamy, best_i):
    """Point ``q`` outside the core: the axis joins it to the closest core point, which
    lies on an edge or at a vertex (the seeds' closest-vertex axis). Returns ``(hit, nx,
    ny, d, feature)``, ``d`` the core distance along ``n``; no hit beyond ``margin`` or
    where a seam rule gives the contact to another piece (``_polygon_point``)."""
    cx, cy, feature, edge, interior = _closest_core_point(vp, sp, kp, qx, qy)
    # Not sqrt(dd): for a centre within ~1e-154 of the core, dd is subnormal.
    d, ux, uy = direction(qx - cx, qy - cy)
    if d - rsum > margin:
        return False, 0.0, 0.0, 0.0, 0
    if seamy and (g[sp + edge, G_CUT] != 0.0 if interior
                  else d > 0.0 and not outline_admits(g, sp + feature, ux, uy)):
        return False, 0.0, 0.0, 0.0, 0
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
    return True, nx, ny, d, feature


@njit_inline
def _polygon_point(vp, np_, g, sp, kp, rp, qx, qy, rq, margin):
    """A rounded polygon/capsule core (rows ``sp .. sp+kp-1`` of ``vp``, float64 (m, 2),
    normals in ``np_``, seam rows of ``g`` at the same offsets) against a rounded point
    ``q``, both in the polygon's frame: the shared routine of ``collide_circle_capsule``
    and ``collide_circle_polygon``.

    Returns ``(hit, nx, ny, sep, px, py, feature)`` with the normal from the polygon
    towards the point. For a piece of a concave polygon, a point whose closest feature
    is a cut, or a vertex at which the outline has no such normal, is no contact of this
    piece: the piece beyond the cut, or the one whose outline face the point is over,
    reports the true one.
    """
    best, best_i, ext, ext_i, cut = _face_scan(vp, np_, g, sp, kp, qx, qy)
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
        hit, nx, ny, d, feature = _outside_axis(vp, np_, g, sp, kp, qx, qy, rsum, margin, seamy,
                                                best_i)
        if not hit:
            return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0
    sep = d - rsum
    # Midway between the polygon surface (rp along n from its core) and the point's.
    h = 0.5 * (rp - rq - d)
    return True, nx, ny, sep, qx + h * nx, qy + h * ny, feature


@njit_inline
def collide_circle_polygon(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                           flip_tol, scratch_v, scratch_n, out):
    """Circle against (rounded) polygon or capsule (arguments and result as
    :func:`collide_pieces`; the algorithm is :func:`_polygon_point`): the face of
    largest separation if the centre is inside the core, else the axis from the closest
    core point, on an edge or at a vertex, to the centre. A capsule is a rounded polygon
    of two core vertices (whose core has no inside), so this routine is also
    ``collide_circle_capsule``.

    Worked in B's frame, where the normal points from B to the circle: negated to point
    from A (the circle) to B.
    """
    xa, ya, ca, sna = pose_a
    xb, yb, cb, snb = pose_b
    out[M_COUNT] = 0.0
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
        record_to_world(out, xb, yb, cb, snb)


# A capsule is a rounded polygon of two core vertices: the pairs with one share the
# polygon routines, under their own names too.
collide_circle_capsule = collide_circle_polygon
collide_capsule_capsule = collide_polygon_polygon
collide_capsule_polygon = collide_polygon_polygon


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
    # No atomic counts on the arrays (the caller keeps them alive; once per pair a step).
    verts, norms, ghost, scratch_v, scratch_n, out = borrowed(
        (verts, norms, ghost, scratch_v, scratch_n, out))
    # Kinds out of canonical order: solve B against A and turn the normal around.
    swapped = _kind(ka) > _kind(kb)
    if swapped:
        sa, ka, ra, pose_a, sb, kb, rb, pose_b = sb, kb, rb, pose_b, sa, ka, ra, pose_a
    kind_a = _kind(ka)
    kind_b = _kind(kb)
    # The pair routines, kinds in canonical order:
    #   circle  - circle    collide_circle_circle
    #   circle  - capsule   collide_circle_capsule   = collide_circle_polygon
    #   circle  - polygon   collide_circle_polygon
    #   capsule - capsule   collide_capsule_capsule  = collide_polygon_polygon
    #   capsule - polygon   collide_capsule_polygon  = collide_polygon_polygon
    #   polygon - polygon   collide_polygon_polygon
    # One call per routine: each call inlines the routine's whole code (njit_inline), and
    # a call per pair of kinds, six, made this kernel's cold compile 3.3 times as long.
    if kind_a == CIRCLE and kind_b == CIRCLE:
        collide_circle_circle(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                              flip_tol, scratch_v, scratch_n, out)
    elif kind_a == CIRCLE:  # capsule or polygon
        collide_circle_polygon(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                               flip_tol, scratch_v, scratch_n, out)
    else:  # capsule or polygon, each
        collide_polygon_polygon(verts, norms, ghost, sa, ka, ra, pose_a, sb, kb, rb, pose_b, margin,
                                flip_tol, scratch_v, scratch_n, out)
    count = int(out[M_COUNT])
    if swapped and count > 0:
        out[M_NX] = -out[M_NX]
        out[M_NY] = -out[M_NY]
    return count
