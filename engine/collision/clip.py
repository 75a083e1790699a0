"""Two-point manifolds by reference/incident-edge clipping (helpers of ``polygon_sat.py``).

Box2D v3's ``b2ClipPolygons`` (``src/manifold.c``), with the seam checks a piece of a
concave polygon needs (``seams.py``): the manifold record layout (and
``record_to_world``), the clipping (``clip_polygons``), and the seam-aware choice of
reference face for pairs with such a piece (``seam_face_contact``).
"""
import math

import numpy as np

from .._jit import njit_exact as njit, njit_inline
from .seams import off_outline_edge, snap_face, straight_run

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


@njit_inline
def record_to_world(out, x, y, c, s):
    """Rotate/translate the normal and points of the record ``out`` from a frame to the world
    (``(x, y)`` that frame's origin, ``(c, s)`` its rotation)."""
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
def _face_frame(v, s1, i10, i12):
    """The reference face from vertex ``i10`` to ``i12`` of poly1: ``(ax, ay, tx, ty,
    length)``, its start point ``a``, unit tangent ``t`` and length."""
    ax = v[s1 + i10, 0]
    ay = v[s1 + i10, 1]
    tx = v[s1 + i12, 0] - ax
    ty = v[s1 + i12, 1] - ay
    length = math.sqrt(tx * tx + ty * ty)
    tx /= length
    ty /= length
    return ax, ay, tx, ty, length


@njit_inline
def _incident_edge(n, s2, k2, nx, ny):
    """The edge of poly2 most anti-parallel to the reference normal ``n``."""
    i21 = 0
    best = math.inf
    for j in range(k2):
        dn = nx * n[s2 + j, 0] + ny * n[s2 + j, 1]
        if dn < best:
            best = dn
            i21 = j
    return i21


@njit_inline
def _clip_to_face(v, s2, i21, i22, ax, ay, tx, ty, upper1):
    """The incident edge ``i21 -> i22`` of poly2 clipped to the reference face's extent
    ``[0, upper1]`` along its tangent ``t`` from ``a``: ``(lower2, upper2, lox, loy, upx,
    upy)``, the unclipped ends' positions along ``t`` and the clipped end points.

    The incident edge runs against the reference one: ``v22`` is at its lower end.
    """
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
    return lower2, upper2, lox, loy, upx, upy


@njit_inline
def _write_point(out, count, px, py, nx, ny, r1, r2, s, fid):
    """Append a clipped point to the record ``out`` (``count`` points so far): the
    incident core vertex ``p`` moved along ``n`` to midway between the surfaces,
    accounting for both radii. Returns the new count."""
    h = 0.5 * (r1 - r2 - s)
    base = M_P1X if count == 0 else M_P2X
    out[base] = px + h * nx
    out[base + 1] = py + h * ny
    out[base + 2] = s - (r1 + r2)
    out[base + 3] = fid
    return count + 1


@njit_inline
def _write_clipped(out, nx, ny, sign, sep, r1, r2, lox, loy, s_lo, keep_lo, upx, upy, s_up,
                   keep_up, flip, i11, i12, i21, i22):
    """Fill the record ``out`` with the kept clipped points (``s_lo``, ``s_up``: their core
    separations along the reference normal ``n``).

    A point's feature id is ``256 * (A's vertex) + (B's vertex)`` whichever piece is the
    reference, and with B's face as the reference the points come in the opposite
    order (Box2D's ``B2_MAKE_ID`` in ``b2ClipPolygons``): a resting pair whose reference
    face flips between A and B, as a slightly turned box on another does when the two
    faces' separations cross, keeps its ids and its point order, so its warm start.
    (With the flip in the id, pyramid40 lost the warm start of about a hundred loaded
    points a step while it settled, and spread 7 cm instead of 4.)
    """
    out[M_NX] = sign * nx
    out[M_NY] = sign * ny
    out[M_SEP] = sep - (r1 + r2)
    # (x, y, core separation, feature id) of each clipped point: the lower one lies at
    # the reference face's vertex i11 and the incident edge's i22, the upper at i12, i21
    lo = (lox, loy, s_lo, _feature_id(i11, i22, flip))
    up = (upx, upy, s_up, _feature_id(i12, i21, flip))
    if flip:  # B's face is the reference: its points in the opposite order
        lo, keep_lo, up, keep_up = up, keep_up, lo, keep_lo
    count = 0
    if keep_lo:
        count = _write_point(out, count, lo[0], lo[1], nx, ny, r1, r2, lo[2], lo[3])
    if keep_up:
        count = _write_point(out, count, up[0], up[1], nx, ny, r1, r2, up[2], up[3])
    out[M_COUNT] = float(count)


@njit_inline
def _feature_id(ref, inc, flip):
    """``256 * (A's vertex) + (B's vertex)`` of a clipped point from the reference face's
    vertex ``ref`` and the incident edge's vertex ``inc`` (``flip``: B is the reference)."""
    return float(inc * 256 + ref) if flip else float(ref * 256 + inc)


@njit_inline
def clip_polygons(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin, strict, whole, runs, g,
                  g2, c2, sn2, check, out):
    """Two-point manifold: reference face ``i11`` of poly1, incident edge of poly2.

    Box2D v3's ``b2ClipPolygons`` (``src/manifold.c``). Both pieces are rows of ``v``
    and ``n``, float64 (m, 2), in one frame: poly1 rows ``s1 .. s1+k1-1`` with rounding
    radius ``r1``, poly2 rows ``s2 ..`` with ``r2``; ``sep`` is the SAT separation of
    the cores along face ``i11``. ``out`` is a float64 (MANIFOLD_SIZE,) record.

    ``flip`` says poly1 is piece B: the normal is then turned to point from A to B.
    ``strict``: an incident edge wholly beyond the reference face's ends gives no
    contact (a concave polygon's neighbouring piece owns it). ``whole``: the reference
    face extends over collinear neighbours (plain SAT; a seam-aware reference must not
    reach over a collinear cut); ``runs``: the incident edge does. ``check``: poly2 is a
    piece of a concave polygon (seam rows from ``g2`` in ``g``, local frame rotated by
    ``(c2, sn2)`` into this one) whose kept points must lie on its outline with the
    normal in the outline's cone there.

    Returns -1, or the incident edge when ``check`` rejects a kept point (``out`` is
    then not filled). The calls to the seam kernels (not inlined) stay here rather than
    in the helpers, which take the arrays: such a call from an inlined helper can leave
    reference-count updates on every pair's path.
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
        i10, i12 = straight_run(n, s1, k1, np.int64(i11))  # typed: one compile, not one per literal
    ax, ay, tx, ty, upper1 = _face_frame(v, s1, i10, i12)
    i21 = _incident_edge(n, s2, k2, nx, ny)
    i22 = i21 + 1 if i21 + 1 < k2 else 0
    if runs:
        # A concave polygon's piece keeps outline vertices inside its edges: the incident
        # edge is the whole straight run they split (vertex i21 to vertex i22). Other
        # shapes have no collinear vertices.
        i21, i22 = straight_run(n, s2, k2, np.int64(i21))
    lower2, upper2, lox, loy, upx, upy = _clip_to_face(v, s2, i21, i22, ax, ay, tx, ty, upper1)
    s_lo = (lox - ax) * nx + (loy - ay) * ny
    s_up = (upx - ax) * nx + (upy - ay) * ny
    if strict and (upper2 < 0.0 or lower2 > upper1):
        out[M_COUNT] = 0.0
        return -1
    keep_lo = s_lo - rsum <= margin
    keep_up = s_up - rsum <= margin
    if check:
        # poly2's outward normal, -n, in its local frame
        e = off_outline_edge(v, g, s2, k2, g2, i21 + (k2 - k2), i22, ax, ay, tx, ty, upper1,
                             lower2, upper2, keep_lo, keep_up, -(c2 * nx + sn2 * ny),
                             -(-sn2 * nx + c2 * ny))
        if e >= 0:
            return e
    _write_clipped(out, nx, ny, sign, sep, r1, r2, lox, loy, s_lo, keep_lo, upx, upy, s_up,
                   keep_up, flip, i11, i12, i21, i22)
    return -1


@njit_inline
def _bound_depth(out, floor, apart):
    """Bound the points of a seam-aware manifold in ``out`` by the pieces' own separation
    ``floor`` (plain SAT's, less the radii: minus the depth that separates the two
    convex pieces, which no translation separating the two shapes can be smaller than).

    A face that is not plain SAT's minimum (an outline face chosen over a cut, or the
    incident piece's face it was snapped to) has a one-sided separation that can
    measure how far the other piece reaches behind the reference piece, not any
    overlap: concave_drop's letters and gears got points 1 m deep (up to 4.9 m
    against the terrain) where the shapes overlapped by centimetres. The normal stays
    seam-free; a deeper point keeps its place with the pieces' depth. When the pieces
    are ``apart`` no point can be inside: such a point lies behind the reference piece,
    and is dropped.
    """
    count = int(out[M_COUNT])
    kept = 0
    for p in range(count):
        base = M_P1X + 4 * p
        s = out[base + 2]
        if s < floor:
            if apart:
                continue  # behind the reference piece: the neighbouring piece has it
            s = floor
        dst = M_P1X + 4 * kept
        out[dst] = out[base]
        out[dst + 1] = out[base + 1]
        out[dst + 2] = s
        out[dst + 3] = out[base + 3]
        kept += 1
    out[M_COUNT] = float(kept)
    out[M_SEP] = max(out[M_SEP], floor)


@njit
def seam_face_contact(v, n, g, ga, sa, ka, ra, gb, sb, kb, rb, rc, rs, margin, seamy_a, seamy_b,
                      apart, plain, stage, edge_a, edge_b, sep, flip, out):
    """The face contact of the polygon SAT (``polygon_sat.py``) for a pair with a piece of a
    concave polygon: the reference ``edge_a``/``edge_b`` (per ``flip``) clipped and
    checked, snapped or replaced by ``plain`` SAT as the seam rules say. Compiled once,
    not inlined: convex pairs never come here."""
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
        i21 = clip_polygons(v, n, s1, k1, r1, s2, k2, r2, i11, sep, flip, margin,
                    apart > rsum and stage < 2, stage == 2, True, g, g2, c2, sn2,
                    check and stage == 0, out)
        if i21 < 0:
            if out[M_COUNT] > 0.0 and stage < 2:
                # apart: rsum - apart < 0, so no point may be inside
                _bound_depth(out, min(apart - rsum, 0.0), apart > rsum)
            if out[M_COUNT] > 0.0 or stage == 2 or apart > rsum:
                return
            edge_a, edge_b, sep, flip = plain
            stage = 2
            continue
        # The incident piece's contact is not on its outline, or the outline has another
        # normal there: its outline face at the offending edge (that edge or a neighbour)
        # of largest separation becomes the reference.
        best, best_i = snap_face(v, n, g, g2, s2, k2, i21, s1, k1)
        out[M_COUNT] = 0.0
        if best_i >= 0 and best - rsum <= margin:
            edge_a, edge_b, sep, flip = best_i, best_i, best, 1 - flip
            stage = 1
        elif apart > rsum:
            return
        else:
            edge_a, edge_b, sep, flip = plain
            stage = 2
