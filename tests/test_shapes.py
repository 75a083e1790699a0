"""Shapes: area, centroid and moment of inertia; vertex cleaning; immutability.

Mass properties are compared with pymunk's ``area_for_*`` / ``moment_for_*`` within 1e-9
relative where pymunk is exact, and with the truth where it is not:

- pymunk's moments are about the shape's local origin (its ``offset``); ours are about the
  centroid, so ``m * |centroid|^2`` is subtracted from pymunk's (parallel axis theorem);
- ``moment_for_poly`` ignores its ``radius`` argument (Chipmunk: "TODO account for
  radius"), so rounded polygons are checked against a fine polygonal approximation from
  shapely's ``buffer``; its error falls as 1/N^2 in the arc segment count, so Richardson
  extrapolation of N and 4N converges fast enough to test within 1e-9 relative;
- ``moment_for_segment`` treats a capsule as a (length + 2r) x 2r box; capsules are checked
  against the closed form (a rectangle plus two half discs). The areas
  (``area_for_poly(verts, r)``, ``area_for_segment``) are exact and are used.
"""
import math

import numpy as np
import pymunk
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Circle, Polygon, Segment

REL = 1e-9


def rel_close(a, b, rel=REL, abs_=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + abs_


def polygon_moments(v):
    """Area, centroid and polar moment about the centroid (unit density) of a CCW polygon.

    The textbook shoelace sums, written independently of ``engine.shapes``.
    """
    v = np.asarray(v, dtype=float)
    x0, y0 = v[:, 0], v[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    cross = x0 * y1 - x1 * y0
    area = cross.sum() / 2.0
    cx = ((x0 + x1) * cross).sum() / (6.0 * area)
    cy = ((y0 + y1) * cross).sum() / (6.0 * area)
    ixx = ((y0 * y0 + y0 * y1 + y1 * y1) * cross).sum() / 12.0
    iyy = ((x0 * x0 + x0 * x1 + x1 * x1) * cross).sum() / 12.0
    return area, (cx, cy), ixx + iyy - area * (cx * cx + cy * cy)


def random_convex(rng, n=None, scale=None):
    n = n or int(rng.integers(3, 12))
    scale = scale or math.exp(rng.uniform(math.log(0.1), math.log(10)))
    while True:  # angles closer than 1e-3 are merged; keep a polygon (3 or more)
        ang = np.sort(rng.uniform(0, 2 * math.pi, n))
        ang = ang[np.r_[True, np.diff(ang) > 1e-3]]
        if len(ang) >= 3:
            break
    aspect = rng.uniform(0.2, 1.0)
    off = rng.uniform(-2, 2, 2) * scale
    pts = np.column_stack((scale * np.cos(ang), aspect * scale * np.sin(ang))) + off
    return pts


# --------------------------------------------------------------------------- circles, boxes, polygons

@pytest.mark.parametrize("radius,center,density", [
    (1.0, (0.0, 0.0), 1.0),
    (0.5, (3.0, -2.0), 2.5),
    (7.25, (-100.0, 40.0), 0.01),
    (0.1, (0.05, 1e3), 1000.0),
])
def test_circle_off_centre(radius, center, density):
    c = Circle(radius, center=center)
    m, cen, inertia = c.mass_properties(density)
    assert rel_close(c.area, pymunk.area_for_circle(0.0, radius))
    assert rel_close(m, density * math.pi * radius ** 2)
    assert cen == pytest.approx(center, abs=1e-12) and c.center == cen
    # pymunk: about the body origin, i.e. including m * |offset|^2.
    about_origin = pymunk.moment_for_circle(m, 0.0, radius, center)
    assert rel_close(inertia, about_origin - m * (center[0] ** 2 + center[1] ** 2), abs_=1e-9 * about_origin)
    assert rel_close(inertia, 0.5 * m * radius ** 2)


@pytest.mark.parametrize("w,h,center,angle", [
    (2.0, 2.0, (0.0, 0.0), 0.0),
    (3.0, 0.5, (1.0, -2.0), 0.3),
    (0.1, 10.0, (-5.0, 5.0), -2.0),
    (4.0, 1.0, (100.0, 0.0), math.pi / 2),
])
def test_box(w, h, center, angle):
    box = Polygon.box(w, h, center=center, angle=angle)
    m, cen, inertia = box.mass_properties(3.0)
    assert rel_close(box.area, w * h)
    assert rel_close(m, 3.0 * w * h)
    assert cen == pytest.approx(center, abs=1e-12 * (1 + abs(center[0]) + abs(center[1])))
    # Rotation and translation do not change the moment about the centroid.
    assert rel_close(inertia, pymunk.moment_for_box(m, (w, h)))
    assert rel_close(inertia, m * (w * w + h * h) / 12.0)


def test_box_vertices_with_angle_and_center():
    box = Polygon.box(4.0, 2.0, center=(1.0, 2.0), angle=math.pi / 6)
    c, s = math.cos(math.pi / 6), math.sin(math.pi / 6)
    want = [(1.0 + c * x - s * y, 2.0 + s * x + c * y) for x, y in [(-2, -1), (2, -1), (2, 1), (-2, 1)]]
    assert np.allclose(box.vertices, want, rtol=0.0, atol=1e-15)
    # the local frame is not moved: the centre is a centroid offset, not a pose
    assert box.centroid == pytest.approx((1.0, 2.0), abs=1e-15)
    rounded = Polygon.box(4.0, 2.0, angle=0.2, radius=0.25)
    assert rounded.radius == 0.25 and rounded.area == pytest.approx(8.0 + 12.0 * 0.25 + math.pi * 0.0625, rel=1e-14)


def test_random_convex_polygons_match_pymunk():
    rng = np.random.default_rng(99)
    for _ in range(300):
        pts = random_convex(rng)
        p = Polygon(pts)
        density = math.exp(rng.uniform(-3, 3))
        m, cen, inertia = p.mass_properties(density)
        verts = [tuple(v) for v in p.vertices.tolist()]
        area = pymunk.area_for_poly(verts)
        assert rel_close(p.area, area)
        assert rel_close(m, density * area)
        pm_poly = pymunk.Poly(None, verts)
        g = pm_poly.center_of_gravity
        size = float(np.ptp(pts, axis=0).max())
        assert math.dist(cen, (g.x, g.y)) <= 1e-9 * size
        about_origin = pymunk.moment_for_poly(m, verts)
        # the subtraction m|c|^2 may cancel: compare with a tolerance relative to both terms
        assert abs(inertia - (about_origin - m * (g.x ** 2 + g.y ** 2))) <= REL * about_origin
        # and with the independent shoelace sums (about the centroid directly)
        a2, c2, i2 = polygon_moments(p.vertices)
        assert rel_close(inertia, density * i2)
        assert math.dist(cen, c2) <= 1e-9 * size


def test_concave_polygon_mass_is_the_whole_outline():
    # An L of three unit squares: area 3, centroid (5/6, 5/6), and the moment of three
    # unit squares (1/6 each about their own centres) moved to the centroid.
    ell = Polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)])
    assert not ell.is_convex and len(ell.pieces) >= 2
    m, cen, inertia = ell.mass_properties(2.0)
    assert m == pytest.approx(6.0, rel=1e-14)
    assert cen == pytest.approx((5 / 6, 5 / 6), abs=1e-14)
    centres = [(0.5, 0.5), (1.5, 0.5), (0.5, 1.5)]
    want = sum(2.0 * (1 / 6 + (x - 5 / 6) ** 2 + (y - 5 / 6) ** 2) for x, y in centres)
    assert inertia == pytest.approx(want, rel=1e-13)
    # The pieces' areas add up to the outline's.
    assert sum(polygon_moments(p)[0] for p in ell.pieces) == pytest.approx(3.0, rel=1e-14)


# --------------------------------------------------------------------------- capsules

def capsule_truth(length, r):
    """Area and moment (unit density, about the centre) of a capsule: a length x 2r
    rectangle plus two half discs, each half disc's centroid 4r/(3 pi) beyond its flat
    side (parallel axis theorem through that centroid)."""
    rect_m = length * 2 * r
    rect_i = rect_m * (length ** 2 + (2 * r) ** 2) / 12.0
    disc_m = math.pi * r * r
    d = 4 * r / (3 * math.pi)
    # each half: (disc_m/2) r^2/2 about the disc centre, minus (disc_m/2) d^2 to its own
    # centroid, plus (disc_m/2) (length/2 + d)^2 to the capsule's centre
    caps_i = disc_m * (r * r / 2 - d * d + (length / 2 + d) ** 2)
    return rect_m + disc_m, rect_i + caps_i


@pytest.mark.parametrize("a,b,r", [
    ((0.0, 0.0), (2.0, 0.0), 0.5),
    ((-1.0, 3.0), (4.0, -2.0), 0.1),
    ((10.0, 10.0), (10.0, 10.5), 3.0),  # radius much larger than the length
    ((0.0, 0.0), (1e-3, 0.0), 1.0),
])
def test_capsule_closed_form(a, b, r):
    seg = Segment(a, b, r)
    length = math.dist(a, b)
    area, moment = capsule_truth(length, r)
    m, cen, inertia = seg.mass_properties(2.0)
    assert rel_close(seg.area, area)
    assert rel_close(seg.area, pymunk.area_for_segment(a, b, r))  # exact in pymunk
    assert cen == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), abs=1e-12)
    assert rel_close(inertia, 2.0 * moment)
    # pymunk's moment_for_segment is the box approximation, not the capsule: it differs.
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    box = pymunk.moment_for_segment(m, a, b, r) - m * (mid[0] ** 2 + mid[1] ** 2)
    assert box == pytest.approx(m * ((length + 2 * r) ** 2 + (2 * r) ** 2) / 12.0, rel=1e-9)
    assert not rel_close(inertia, box, rel=1e-3)


def test_capsule_converges_to_shapely_buffer():
    """The same closed form, checked against geometry: a buffered LineString."""
    seg = Segment((0.5, -1.0), (3.0, 0.25), 0.75)
    _check_against_buffer(seg, shapely.LineString([seg.a, seg.b]), 0.75)


def test_zero_radius_segment_has_no_area():
    seg = Segment((0.0, 0.0), (2.0, 0.0))
    assert seg.area == 0.0
    m, cen, inertia = seg.mass_properties(1.0)
    assert m == 0.0 and inertia == 0.0 and cen == (1.0, 0.0)


# --------------------------------------------------------------------------- rounded polygons

def _buffer_moments(geom, r, quad_segs):
    g = geom.buffer(r, quad_segs=quad_segs)
    v = np.asarray(g.exterior.coords)[:-1]
    if not g.exterior.is_ccw:
        v = v[::-1]
    return polygon_moments(v)


def _check_against_buffer(shape, geom, r):
    """Our exact rounded mass properties against shapely's polygonal buffers.

    A buffer inscribes each arc with chords; the missing area (and its first and second
    moments) is a series in 1/N^2 (N = quad_segs): 1/256 and 1/1024 differ by 16x, and
    Richardson extrapolation (16 X(4N) - X(N)) / 15 removes the leading term. Stated
    tolerance: the extrapolate agrees with ours to 1e-9 relative (the plain N = 1024 buffer
    only to ~1e-7), and the raw errors shrink ~16x per 4x N (the convergence is real, not
    a coincidence of one N).
    """
    m, (cx, cy), inertia = shape.mass_properties(1.0)
    rows = [_buffer_moments(geom, r, n) for n in (64, 256, 1024)]
    errs = [abs(a - m) / m for a, _, _ in rows]
    ierrs = [abs(i - inertia) / inertia for _, _, i in rows]
    assert errs[0] / errs[1] > 12 and errs[1] / errs[2] > 12, errs
    assert ierrs[0] / ierrs[1] > 12 and ierrs[1] / ierrs[2] > 12, ierrs
    (a1, c1, i1), (a2, c2, i2) = rows[1], rows[2]
    rich = lambda x1, x2: (16.0 * x2 - x1) / 15.0  # noqa: E731
    size = math.sqrt(m)
    assert rel_close(rich(a1, a2), m, rel=1e-9)
    assert rel_close(rich(i1, i2), inertia, rel=1e-9)
    assert abs(rich(c1[0], c2[0]) - cx) <= 1e-9 * (size + abs(cx))
    assert abs(rich(c1[1], c2[1]) - cy) <= 1e-9 * (size + abs(cy))


def test_rounded_polygons_against_buffer_and_pymunk_area():
    rng = np.random.default_rng(5)
    for _ in range(12):
        pts = random_convex(rng, n=int(rng.integers(3, 9)), scale=rng.uniform(0.5, 5.0))
        r = rng.uniform(0.05, 1.5)
        p = Polygon(pts, radius=r)
        verts = [tuple(v) for v in p.vertices.tolist()]
        # pymunk's area_for_poly is exact with a radius (area + perimeter r + pi r^2) ...
        assert rel_close(p.area, pymunk.area_for_poly(verts, r))
        # ... its moment_for_poly ignores the radius (it equals the sharp polygon's).
        assert pymunk.moment_for_poly(1.0, verts, radius=r) == pymunk.moment_for_poly(1.0, verts)
        _check_against_buffer(p, shapely.Polygon(verts), r)


def test_rounded_triangle_exact_pieces():
    # A right triangle with legs 3 and 4 rounded by 1: area 6 + perimeter 12 + pi.
    p = Polygon([(0, 0), (3, 0), (0, 4)], radius=1.0)
    assert p.area == pytest.approx(6.0 + 12.0 + math.pi, rel=1e-14)


# --------------------------------------------------------------------------- cleaning

def test_clockwise_input_is_reversed():
    ccw = [(0, 0), (3, 0), (3, 1), (1, 2)]
    cw = ccw[::-1]
    a, b = Polygon(ccw), Polygon(cw)
    va, vb = a.vertices.tolist(), b.vertices.tolist()
    # the same cyclic sequence, counter-clockwise
    k = vb.index(va[0])
    assert vb[k:] + vb[:k] == va
    assert b.area > 0 and b.mass_properties(1.0) == a.mass_properties(1.0)
    assert polygon_moments(b.vertices)[0] > 0


def test_collinear_and_duplicate_points_are_removed():
    p = Polygon([(0, 0), (1, 0), (2, 0), (2, 0), (2, 1), (2, 2), (0, 2), (0, 1), (0, 0)])
    assert sorted(map(tuple, p.vertices.tolist())) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    assert p.area == 4.0 and p.is_convex
    assert p.mass_properties(1.0)[2] == pytest.approx(4.0 * 8.0 / 12.0, rel=1e-14)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_inserted_collinear_points_change_nothing(seed):
    rng = np.random.default_rng(seed)
    pts = random_convex(rng, n=int(rng.integers(3, 8)), scale=1.0)
    base = Polygon(pts)
    v = base.vertices
    dense = []
    for i in range(len(v)):  # add the midpoint of every edge and repeat every vertex
        dense += [tuple(v[i]), tuple(v[i]), tuple((v[i] + v[(i + 1) % len(v)]) / 2)]
    p = Polygon(dense)
    assert len(p.vertices) == len(v)
    assert p.area == pytest.approx(base.area, rel=1e-12)
    assert p.mass_properties(1.0)[2] == pytest.approx(base.mass_properties(1.0)[2], rel=1e-12)


# --------------------------------------------------------------------------- immutability

def test_public_arrays_are_read_only_and_shapes_immutable():
    src = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
    p = Polygon(src)
    src[0, 0] = 100.0  # the caller's array is copied, not kept
    assert p.vertices[0].tolist() != [100.0, 0.0] and p.area == 2.0
    with pytest.raises(ValueError, match="read-only"):
        p.vertices[0, 0] = 5.0
    for piece in p.pieces:
        with pytest.raises(ValueError, match="read-only"):
            piece[0, 0] = 5.0
    for shape, attr, value in [(p, "radius", 1.0), (Circle(1.0), "center", (1.0, 1.0)),
                               (Segment((0, 0), (1, 0)), "a", (5.0, 5.0)), (p, "area", 3.0)]:
        with pytest.raises(AttributeError):
            setattr(shape, attr, value)
    with pytest.raises(AttributeError):
        p.colour = "red"  # __slots__: no new attributes either
    assert p.area == 2.0 and p.radius == 0.0
