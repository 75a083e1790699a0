"""Shapes: immutable geometry in local coordinates, with exact mass properties.

Three kinds, in the canonical pair order used by the collision kernels:

- :class:`Circle` — a disc, optionally off-centre.
- :class:`Segment` — a segment; with ``radius > 0`` a capsule.
- :class:`Polygon` — any simple polygon, convex or concave, optionally rounded (convex
  only). A concave polygon is split into convex pieces that collide as one shape.

Every shape is stored the way the kernels read it: its convex *pieces* as rows of one
(n, 2) float64 vertex array with per-edge outward normals, ``starts`` delimiting the
pieces, and one rounding radius. A circle is a single-vertex piece, a capsule a
two-vertex piece; see ``engine/collision/manifold.py``.
"""
import math

import numpy as np

from . import decompose as _decompose
from .seam_rows import GHOST_SIZE
from .. import constants as K
from .._api import read_only
from .._checks import as_float, as_points, as_vec2
from .limits import as_density, as_length, as_rounding
from .mass import surface_reach, thinnest
from .memo import Memo

__all__ = ["Shape", "Circle", "Segment", "Polygon"]

# Geometry of recently built shapes by their validated arguments (``memo.py``). Keys
# carry the signs of zero coordinates: -0.0 == 0.0, but the results may differ in the
# sign of a zero.
_MEMO = Memo()


def _signs(*values):
    return tuple(math.copysign(1.0, v) for v in values)


def _edge_normals(v):
    """Outward unit normals of a CCW vertex loop (a 2-vertex loop gives two opposite ones)."""
    e = np.roll(v, -1, axis=0) - v
    length = np.hypot(e[:, 0], e[:, 1])
    return np.ascontiguousarray(np.column_stack((e[:, 1], -e[:, 0])) / length[:, None])


def _polygon_moments(v):
    """Area, first moment and polar second moment about the origin of a simple CCW polygon."""
    a = v
    b = np.roll(v, -1, axis=0)
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    area = 0.5 * cross.sum()
    first = ((a + b) * cross[:, None]).sum(axis=0) / 6.0
    second = (cross * ((a * a).sum(1) + (a * b).sum(1) + (b * b).sum(1))).sum() / 12.0
    return area, first, second


def _rounded_moments(v, normals, r):
    """Exact area, first and polar second moment (about the origin) of a rounded hull.

    The rounded hull of a convex core ``v`` (k >= 1 vertices, CCW) with radius ``r`` is
    the core, plus one r-thick rectangle on each edge, plus one circular sector at each
    vertex spanning the angle between its two edge normals (the sectors add up to a
    full disc). Each part has closed-form moments; nothing is approximated.
    """
    k = v.shape[0]
    area, first, second = (_polygon_moments(v) if k >= 3 else (0.0, np.zeros(2), 0.0))
    if r == 0.0:
        return area, first, second
    for i in range(k if k >= 2 else 0):
        j = (i + 1) % k
        rect = np.array([v[i], v[i] + r * normals[i], v[j] + r * normals[i], v[j]])  # CCW
        ra, rf, rs = _polygon_moments(rect)
        area, first, second = area + ra, first + rf, second + rs
    for i in range(k):
        if k == 1:
            t1, span = 0.0, 2.0 * math.pi
        else:
            n_in = normals[i - 1]
            n_out = normals[i]
            t1 = math.atan2(n_in[1], n_in[0])
            span = (math.atan2(n_out[1], n_out[0]) - t1) % (2.0 * math.pi)
            if k == 2:
                span = math.pi  # the two caps of a capsule
        t2 = t1 + span
        p = v[i]
        sa = 0.5 * r * r * span
        # integral of rho*(cos t, sin t) over the sector, in polar coordinates
        arm = (r ** 3 / 3.0) * np.array([math.sin(t2) - math.sin(t1), math.cos(t1) - math.cos(t2)])
        area += sa
        first = first + sa * p + arm
        second += sa * float(p @ p) + 2.0 * float(p @ arm) + 0.25 * r ** 4 * span
    return area, first, second


def _geometry(pieces, radius, outline=None, interior=None, cones=None):
    """A shape's slots from its convex ``pieces`` (lists of CCW vertices) and rounding
    ``radius``: vertex, normal and seam rows, the packed rows, and exact mass moments."""
    verts = np.ascontiguousarray(np.vstack(pieces), dtype=np.float64)
    normals = [_edge_normals(p) if len(p) > 1 else np.zeros((1, 2)) for p in pieces]
    norms = np.vstack(normals)
    starts = np.zeros(len(pieces) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(p) for p in pieces])
    # Per vertex, for the narrowphase's seam rules (collision/seams.py, G_* columns):
    # is the edge leaving it an interior cut, the outline's normal cone there, and
    # does its piece have a cut. A convex shape's cone is its own corner's.
    ghost = np.zeros((len(verts), GHOST_SIZE))
    if interior is not None:
        ghost[:, 0] = interior
        for p in range(len(pieces)):  # G_CONCAVE: the piece has a cut
            ghost[starts[p]:starts[p + 1], 5] = float(np.any(interior[starts[p]:starts[p + 1]]))
    ghost[:, 1:5] = (np.vstack(cones) if cones is not None else
                    np.hstack((np.vstack([np.roll(n, 1, axis=0) for n in normals]), norms)))
    # Moments about a point of the shape, not the local origin: about the origin, a
    # shape far from it has a second moment ~ area * distance^2 and the moment about
    # the centroid would be lost to cancellation (a 0.1 m disc 1 km out kept 8 digits).
    ref = verts.mean(axis=0)
    if outline is None:
        area, first, second = _rounded_moments(verts - ref, norms, radius)
    else:  # a concave polygon: the outline's moments, not the sum of overlapping hulls
        area, first, second = _polygon_moments(outline - ref)
    # Kept writeable: Numba dispatches read-only arrays on a slower path. They are
    # private; the public accessors hand out read-only views.
    norms = np.ascontiguousarray(norms)
    # The same columns side by side, for ``collide`` (collision/shape_pairs.py: one array
    # to unbox per shape instead of three).
    pack = np.ascontiguousarray(np.hstack((verts, norms, ghost)))
    if area > 0:
        # A disc's centroid is its centre exactly: the numeric first moment leaves
        # ~1e-17 behind, and a nonzero centre of mass costs a body trig every step.
        off = first / area if len(verts) > 1 else np.zeros(2)
        centroid = (float(ref[0] + off[0]), float(ref[1] + off[1]))
        second = float(second - area * float(off @ off))  # about the centroid
    else:  # a segment: the middle of its core
        c = verts.mean(axis=0)
        centroid, second = (float(c[0]), float(c[1])), 0.0
    # Worked out once here rather than each time a body takes the shape: see
    # ``mass.min_extent`` and ``mass.combine``.
    thin = thinnest(verts, norms, starts, radius)
    reach = surface_reach(verts, radius, *centroid)
    return verts, norms, starts, radius, ghost, pack, float(area), centroid, second, thin, reach


def _polygon(pts, r, method):
    """A polygon's cleaned outline, convexity, interior-edge flags and geometry."""
    outline = _decompose.validate_polygon(pts)
    outline.flags.writeable = False
    if _decompose.is_convex(outline):
        convex, interior = True, np.zeros(len(outline), dtype=np.bool_)
        geometry = _geometry([outline], r)
    else:
        if r > 0.0:
            raise ValueError("a rounded polygon (radius > 0) must be convex; "
                             "round a concave outline by building it from convex rounded parts")
        convex = False
        pieces = _decompose.insert_outline_vertices(_decompose.decompose(outline, method=method), outline)
        interior = np.concatenate(_decompose.interior_edges(pieces, outline))
        geometry = _geometry(pieces, r, outline=outline, interior=interior,
                             cones=_decompose.outline_cones(pieces, outline))
    interior.flags.writeable = False
    if not geometry[6] >= K.MIN_LENGTH ** 2:
        raise ValueError(f"a polygon must enclose at least {K.MIN_LENGTH ** 2:g} m^2, got {geometry[6]:g}")
    return outline, convex, interior, geometry


class Shape:
    """Base of all shapes: geometry for the kernels and mass properties.

    Shapes are immutable values in the local frame of the body that carries them; the
    same shape object can be attached to many bodies.
    """

    __slots__ = ("_verts", "_norms", "_starts", "_radius", "_area", "_centroid", "_second", "_ghost",
                 "_pack", "_thin", "_reach")

    radius = read_only("_radius", "Rounding radius in meters (the circle's radius for a "
                                  ":class:`Circle`).")
    area = read_only("_area", "Area in square meters (0 for a segment without radius).")
    centroid = read_only("_centroid", "Centre of area ``(x, y)`` in the shape's local frame.")

    def _assign(self, geometry):
        """Take the slots computed by :func:`_geometry` (shared, never written)."""
        (self._verts, self._norms, self._starts, self._radius, self._ghost, self._pack,
         self._area, self._centroid, self._second, self._thin, self._reach) = geometry

    def mass_properties(self, density):
        """Mass, centre of mass and moment of inertia for a uniform ``density``.

        Parameters
        ----------
        density : float
            Mass per square meter, > 0.

        Returns
        -------
        (mass, centroid, moment): the moment of inertia is about the centroid.

        Examples
        --------
        >>> m, c, i = Polygon.box(2.0, 2.0).mass_properties(1.0)
        >>> round(m, 12), c, round(i, 12)
        (4.0, (0.0, 0.0), 2.666666666667)
        """
        density = as_density(density)
        mass = density * self._area
        moment = density * self._second
        return mass, self._centroid, max(moment, 0.0)

    @property
    def pieces(self):
        """The convex pieces' core vertices, a list of (k, 2) arrays (one for convex shapes).

        A concave polygon's piece may keep an outline vertex inside one of its straight
        edges (where a cut continues an outline edge), so that each piece edge lies
        wholly on the outline or wholly inside the polygon.

        Examples
        --------
        >>> [len(p) for p in Polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)], method="split").pieces]
        [4, 5]
        """
        s = self._starts
        pieces = [self._verts[s[i]:s[i + 1]] for i in range(len(s) - 1)]
        for p in pieces:
            p.flags.writeable = False
        return pieces


class Circle(Shape):
    """A disc of ``radius`` centred at ``center`` in the body's frame.

    Parameters
    ----------
    radius : float
        Radius in meters, from ``MIN_LENGTH`` (1e-6) to ``MAX_COORDINATE`` (1e9).
    center : (float, float)
        Centre in the body's frame, coordinates within +-``MAX_COORDINATE``.

    Examples
    --------
    >>> c = Circle(0.5, center=(1.0, 0.0))
    >>> round(c.area, 6), c.centroid
    (0.785398, (1.0, 0.0))
    """

    __slots__ = ()

    def __init__(self, radius, center=(0.0, 0.0)):
        r = as_length(radius, "radius")
        cx, cy = as_vec2(center, "center", K.MAX_COORDINATE, "m")
        self._assign(_MEMO.get(("circle", r, cx, cy, _signs(r, cx, cy)),
                               lambda: _geometry([np.array([[cx, cy]])], r)))

    center = read_only("_centroid", "Centre ``(x, y)`` in the body's frame.")

    def __repr__(self):
        return f"Circle(radius={self._radius!r}, center={self.center!r})"


class Segment(Shape):
    """The segment from ``a`` to ``b``; a capsule when ``radius > 0``.

    Parameters
    ----------
    a, b : (float, float)
        The end points in the body's frame, at least ``MIN_LENGTH`` (1e-6 m) apart,
        coordinates within +-``MAX_COORDINATE`` (1e9 m).
    radius : float
        Rounding radius in meters: the capsule's half thickness; 0, or from
        ``MIN_LENGTH`` to ``MAX_COORDINATE``.

    Examples
    --------
    >>> s = Segment((0, 0), (2, 0), radius=0.5)
    >>> round(s.area, 6)  # a 2 x 1 rectangle plus a disc of radius 0.5
    2.785398
    """

    __slots__ = ()

    def __init__(self, a, b, radius=0.0):
        a = as_vec2(a, "a", K.MAX_COORDINATE, "m")
        b = as_vec2(b, "b", K.MAX_COORDINATE, "m")
        r = as_rounding(radius)
        if a == b:
            raise ValueError(f"a segment needs two distinct end points, got a == b == {a}")
        if not math.hypot(b[0] - a[0], b[1] - a[1]) >= K.MIN_LENGTH:
            raise ValueError(f"a segment's end points must be at least {K.MIN_LENGTH:g} m apart, "
                             f"got a = {a}, b = {b}")
        self._assign(_MEMO.get(("segment", a, b, r, _signs(r, *a, *b)),
                               lambda: _geometry([np.array([a, b], dtype=np.float64)], r)))

    @property
    def a(self):
        """First end point in the body's frame."""
        return tuple(float(x) for x in self._verts[0])

    @property
    def b(self):
        """Second end point in the body's frame."""
        return tuple(float(x) for x in self._verts[1])

    def __repr__(self):
        return f"Segment(a={self.a!r}, b={self.b!r}, radius={self._radius!r})"


class Polygon(Shape):
    """A simple polygon, convex or concave, either winding; rounded when ``radius > 0``.

    The vertices are cleaned (duplicates and collinear points removed, clockwise input
    reversed). A concave polygon is decomposed into convex :attr:`pieces` that collide
    as one shape; its area, centroid and inertia are exactly the whole polygon's.

    Parameters
    ----------
    vertices : sequence of (x, y)
        At least 3 distinct, non-collinear points forming a simple polygon (no
        self-intersection, no holes), coordinates within +-``MAX_COORDINATE`` (1e9 m),
        enclosing at least ``MIN_LENGTH ** 2`` (1e-12 m^2).
    radius : float, optional
        Rounding radius (convex polygons only): 0, or from ``MIN_LENGTH`` to
        ``MAX_COORDINATE``.
    method : {"auto", "split", "earclip"}, optional
        How a concave outline is cut into convex pieces: ``"split"`` cuts along edge
        extensions at reflex vertices, ``"earclip"`` clips ears and merges them, ``"auto"``
        (default) runs both and keeps the fewer pieces (see
        :func:`engine.geometry.decompose.decompose`). A convex polygon is never cut.

    Examples
    --------
    >>> p = Polygon([(0, 0), (0, 1), (1, 0)])  # clockwise: reversed
    >>> p.is_convex, p.area, len(p.vertices)
    (True, 0.5, 3)
    >>> len(Polygon([(0, 0), (2, 0), (2, 2), (1, 1), (0, 2)]).pieces)
    2
    """

    __slots__ = ("_outline", "_convex", "_interior")

    def __init__(self, vertices, radius=0.0, method="auto"):
        pts = as_points(vertices, "vertices", limit=K.MAX_COORDINATE)
        r = as_rounding(radius)
        if method not in ("auto", "split", "earclip"):
            raise ValueError(f"unknown method {method!r}; use 'auto', 'split' or 'earclip'")
        key = ("polygon", pts.shape, pts.tobytes(), r, _signs(r), method)
        (self._outline, self._convex, self._interior, geometry) = _MEMO.get(
            key, lambda: _polygon(pts, r, method))
        self._assign(geometry)

    @classmethod
    def box(cls, width, height, center=(0.0, 0.0), angle=0.0, radius=0.0):
        """A ``width`` x ``height`` rectangle centred at ``center``, rotated by ``angle``.

        Parameters
        ----------
        width, height : float
            Side lengths in meters (of the core, before rounding), from ``MIN_LENGTH``
            (1e-6) to ``MAX_COORDINATE`` (1e9).
        center : (float, float)
            Centre in the body's frame.
        angle : float
            Rotation in radians, counter-clockwise.
        radius : float
            Rounding radius >= 0: the corners become quarter circles, the box grows by it.

        Examples
        --------
        >>> Polygon.box(2.0, 1.0).vertices.tolist()
        [[-1.0, -0.5], [1.0, -0.5], [1.0, 0.5], [-1.0, 0.5]]
        >>> Polygon.box(2.0, 1.0, center=(1, 0), angle=math.pi / 2).vertices.round(9).tolist()
        [[1.5, -1.0], [1.5, 1.0], [0.5, 1.0], [0.5, -1.0]]
        """
        hw = 0.5 * as_length(width, "width")
        hh = 0.5 * as_length(height, "height")
        cx, cy = as_vec2(center, "center", K.MAX_COORDINATE, "m")
        a = as_float(angle, "angle")
        c, s = math.cos(a), math.sin(a)
        corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        return cls([(cx + c * x - s * y, cy + s * x + c * y) for x, y in corners], radius=radius)

    vertices = read_only("_outline", "The cleaned outline, counter-clockwise, as a read-only "
                                     "(n, 2) array.")
    is_convex = read_only("_convex", "True when the polygon is convex (a single piece).")

    def __repr__(self):
        return f"Polygon({self._outline.tolist()!r}, radius={self._radius!r})"
