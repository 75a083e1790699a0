"""Ray casts against one convex piece: circle, capsule, rounded or sharp convex polygon.

The ray is ``p + t d`` for ``t`` in [0, 1] (``d`` = end - start), given in the piece's
frame; the piece is rows ``s .. s + k - 1`` of the vertex and normal pools (``k = 1`` a
circle, ``k = 2`` a capsule, ``k >= 3`` a polygon; ``manifold.py``), rounded by ``r``.
Every routine returns ``(t, nx, ny)``: the fraction at which the ray enters the piece
and the piece's outward unit normal there, or ``t = MISS`` (-1) when it misses. A ray
that starts inside the piece or on its surface hits at ``t = 0`` with the normal
``(0, 0)`` (Box2D v3.2's convention; pymunk reports an inward normal and the end point).

Algorithms: Box2D v3's ``b2RayCastCircle`` (closest approach, then the half chord; the
entry computed as ``(|s|^2 - r^2) / (t + h)`` to avoid cancellation) and
``b2RayCastPolygon`` (Cyrus-Beck clipping against the face planes). Rounded pieces are
exact, as pymunk's ``cpPolyShapeSegmentQuery`` is and Box2D's GJK-based cast is not:
clip against the face planes pushed out by ``r``; an entry within the face's extent is
the answer, one beyond it lies in a corner region, where only the vertex's disc can be
entered (the offset polygon contains the rounded one, and inside it a corner region
is bounded by the two offset faces and the arc).
"""
import math

from .._jit import njit_exact_inline as njit_inline
from ..geometry.convex import closest_on_segment, direction
from ..geometry.seam_rows import G_CONCAVE, G_CUT

__all__ = ["MISS", "ray_cast_circle", "ray_cast_capsule", "ray_cast_polygon", "ray_cast_piece"]

MISS = -1.0
# An entry point within VERTEX_TOL times the problem's scale of an outline face's line,
# and within EDGE_TOL of its length beyond its ends, is on that face (concave pieces).
VERTEX_TOL = 1e-12
EDGE_TOL = 1e-9


@njit_inline
def ray_cast_circle(cx, cy, r, px, py, dx, dy):
    """The ray ``p + t d`` against the disc of radius ``r`` at ``c``: ``(t, nx, ny)``.

    Returns ``(0, 0, 0)`` when ``p`` is inside or on the disc, ``(MISS, 0, 0)`` on a miss
    (always for ``r`` = 0 and for a zero-length ray from outside).

    Examples
    --------
    Box2D's unit case (``RayCastShapeTest``):

    >>> ray_cast_circle(1.0, 0.0, 1.0, -4.0, 0.0, 8.0, 0.0)
    (0.5, -1.0, 0.0)
    """
    sx = px - cx
    sy = py - cy
    ss = sx * sx + sy * sy
    rr = r * r
    if ss <= rr:
        return 0.0, 0.0, 0.0
    if rr == 0.0:  # a point (a sharp segment's end): a ray through it only grazes it,
        # and the exact half chord (0 on a ray collinear with the segment) would give
        # a hit with no normal (pymunk and Box2D miss a ray along a segment too)
        return MISS, 0.0, 0.0
    length, ux, uy = direction(dx, dy)
    along = -(sx * ux + sy * uy)  # distance along the ray to the closest approach
    if length == 0.0 or along <= 0.0:
        return MISS, 0.0, 0.0
    qx = sx + along * ux
    qy = sy + along * uy
    gap = rr - (qx * qx + qy * qy)
    if gap < 0.0:
        return MISS, 0.0, 0.0
    entry = (ss - rr) / (along + math.sqrt(gap))  # = along - half chord, without cancellation
    if entry > length:
        return MISS, 0.0, 0.0
    _, nx, ny = direction(sx + entry * ux, sy + entry * uy)
    return entry / length, nx, ny


@njit_inline
def _inside_or_corner(verts, s, k, r, px, py):
    """For ``p`` inside the piece's offset polygon: -1 when ``p`` is within ``r`` of the
    core (inside the rounded piece), else the core vertex nearest to it (the corner
    region it is in)."""
    best = math.inf
    vertex = s
    inside = k >= 3
    for i in range(k):
        a = s + i
        b = s + i + 1 if i + 1 < k else s
        x, y, t = closest_on_segment(px, py, verts[a, 0], verts[a, 1], verts[b, 0], verts[b, 1])
        dd = (px - x) * (px - x) + (py - y) * (py - y)
        if dd < best:
            best = dd
            vertex = a if t < 0.5 else b
        # a CCW core holds p when p is left of (or on) every edge
        ex = verts[b, 0] - verts[a, 0]
        ey = verts[b, 1] - verts[a, 1]
        if ex * (py - verts[a, 1]) - ey * (px - verts[a, 0]) < 0.0:
            inside = False
    if inside or best <= r * r:
        return -1
    return vertex


@njit_inline
def _outline_entry(verts, norms, ghost, s, k, px, py, dx, dy, lower):
    """The outline face of a concave polygon's piece through which the ray enters it at
    ``lower``, or -1 when the entry point lies on cuts only (the piece beyond the cut
    reports the ray's true, earlier entry).

    Cyrus-Beck's entering face cannot tell: a piece keeps the outline's vertices inside
    its straight edges, so a cut and an outline face can share a line, and at a vertex
    where a cut ends two faces tie. The entry point is checked against each outline face
    the ray enters instead: on its line (within ``VERTEX_TOL`` of the problem's scale)
    and within its extent (``EDGE_TOL`` of its length), a vertex belonging to both of
    its faces."""
    qx = px + lower * dx
    qy = py + lower * dy
    tol = VERTEX_TOL * (abs(px) + abs(py) + abs(dx) + abs(dy) + 1.0)
    for i in range(k):
        a = s + i
        if ghost[a, G_CUT] != 0.0 or norms[a, 0] * dx + norms[a, 1] * dy >= 0.0:
            continue
        if abs(norms[a, 0] * (qx - verts[a, 0]) + norms[a, 1] * (qy - verts[a, 1])) > tol:
            continue
        b = s + i + 1 if i + 1 < k else s
        ex = verts[b, 0] - verts[a, 0]
        ey = verts[b, 1] - verts[a, 1]
        ee = ex * ex + ey * ey
        along = ex * (qx - verts[a, 0]) + ey * (qy - verts[a, 1])
        if -EDGE_TOL * ee <= along <= (1.0 + EDGE_TOL) * ee:
            return i
    return -1


@njit_inline
def _clip_faces(verts, norms, ghost, s, k, r, px, py, dx, dy):
    """The face part of :func:`ray_cast_polygon`: ``(t, nx, ny, corner)``, with ``corner``
    -1 when ``(t, nx, ny)`` is the answer, else the vertex whose disc decides it."""
    lower = 0.0
    upper = 1.0
    index = -1
    for i in range(k):
        nx = norms[s + i, 0]
        ny = norms[s + i, 1]
        # A capsule's two faces are one line: measured from the same vertex, the slab of a
        # radius-0 segment has exactly zero width instead of a rounding error's, which
        # could be negative and miss every ray.
        v = s + i if k > 2 else s
        num = nx * (verts[v, 0] - px) + ny * (verts[v, 1] - py) + r
        den = nx * dx + ny * dy
        if den == 0.0:
            if num < 0.0:
                return MISS, 0.0, 0.0, -1
        elif den < 0.0:
            if num < lower * den:
                lower = num / den
                index = i
        elif num < upper * den:
            upper = num / den
        if upper < lower:
            return MISS, 0.0, 0.0, -1
    if index >= 0 and ghost[s, G_CONCAVE] != 0.0:
        index = _outline_entry(verts, norms, ghost, s, k, px, py, dx, dy, lower)
        if index < 0:
            return MISS, 0.0, 0.0, -1
    if index >= 0 and r == 0.0 and k >= 3:
        return lower, norms[s + index, 0], norms[s + index, 1], -1
    if index >= 0:
        a = s + index
        b = s + index + 1 if index + 1 < k else s
        ex = verts[b, 0] - verts[a, 0]
        ey = verts[b, 1] - verts[a, 1]
        along = ex * (px + lower * dx - verts[a, 0]) + ey * (py + lower * dy - verts[a, 1])
        if 0.0 <= along <= ex * ex + ey * ey:
            return lower, norms[a, 0], norms[a, 1], -1
        corner = a if along < 0.0 else b
    elif r == 0.0 and k >= 3:
        return 0.0, 0.0, 0.0, -1  # behind (or on) every face plane: inside the core
    else:
        corner = _inside_or_corner(verts, s, k, r, px, py)
        if corner < 0:
            return 0.0, 0.0, 0.0, -1
    return MISS, 0.0, 0.0, corner


@njit_inline
def ray_cast_polygon(verts, norms, ghost, s, k, r, px, py, dx, dy):
    """The ray ``p + t d`` against a convex piece of ``k >= 2`` core vertices rounded by
    ``r``: ``(t, nx, ny)``.

    Cyrus-Beck: every face plane (pushed out by ``r``) that the ray crosses inwards
    raises the entry ``lower``, every one it crosses outwards lowers the exit ``upper``;
    the ray misses when ``upper < lower``. A sharp polygon is entered at ``lower``; a
    capsule (two opposite faces, unbounded along its axis) or a rounded polygon checks
    that the entry lies within the face's extent, else casts against the corner's disc.
    No entering face means ``p`` starts inside the offset polygon.

    For a piece of a concave polygon (seam rows in ``ghost``), a cut is no surface: the
    entry point must lie on an outline face the ray enters (``_outline_entry``: a cut
    may share a line with one), whose normal is reported; a piece entered through a cut
    reports nothing, the neighbouring piece reporting the ray's true entry.

    Examples
    --------
    Box2D's unit case, the box of half-extent 1 (a piece in the engine's pools):

    >>> from engine import Polygon
    >>> box = Polygon.box(2, 2)
    >>> t, nx, ny = ray_cast_polygon(box._verts, box._norms, box._ghost, 0, 4, 0.0, -4.0, 0.0, 8.0, 0.0)
    >>> t, nx, ny + 0.0  # (+ 0.0: the normal's y is -0.0)
    (0.375, -1.0, 0.0)
    """
    return ray_cast_piece(verts, norms, ghost, s, k, r, px, py, dx, dy)


@njit_inline
def ray_cast_capsule(verts, norms, ghost, s, r, px, py, dx, dy):
    """The ray ``p + t d`` against the capsule of core segment rows ``s, s + 1`` and
    radius ``r`` (``r`` = 0: the segment itself, hit from either side): ``(t, nx, ny)``.

    The capsule is the two-vertex case of :func:`ray_cast_polygon`: the slab between
    the two offset faces clips the ray, and an entry beyond an end goes to that end's cap.
    """
    return ray_cast_polygon(verts, norms, ghost, s, 2, r, px, py, dx, dy)


@njit_inline
def ray_cast_piece(verts, norms, ghost, s, k, r, px, py, dx, dy):
    """The ray against any piece: :func:`ray_cast_circle` for ``k = 1``, else
    :func:`ray_cast_polygon` (capsules included), with one copy of the disc cast (the
    polygon's corners use it too), which keeps the inlining kernels' compile time down."""
    corner = s
    if k > 1:
        t, nx, ny, corner = _clip_faces(verts, norms, ghost, s, k, r, px, py, dx, dy)
        if corner < 0:
            return t, nx, ny
    return ray_cast_circle(verts[corner, 0], verts[corner, 1], r, px, py, dx, dy)
