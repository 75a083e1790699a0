"""Hypothesis strategies for polygons, shared by the test modules.

Every polygon strategy returns an (n, 2) float64 array. The simple-polygon generators build their
output simple by construction (or repair it), so few examples are thrown away:

* ``star_polygons``: vertices at increasing angles around a centre, random radii (star-shaped).
* ``monotone_polygons``: an x-monotone polygon, a lower and an upper chain along a random-walk spine.
* ``two_opt_polygons``: a random walk closed into a polygon and untangled by 2-opt moves.
* ``rectilinear_polygons``: the outline of a random polyomino (exact collinear/through-vertex cases).
* ``simple_polygons``: any of the four.
* ``random_convex_polygon``: the convex hull of random points (counter-clockwise).

Windings are mixed (``clockwise=None``) unless asked for; sizes are 4 to 200 vertices (2-opt: 40;
polyominoes: 40 cells).
"""
import numpy as np
import shapely
from hypothesis import assume
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

__all__ = ["star_polygons", "monotone_polygons", "two_opt_polygons", "rectilinear_polygons",
           "simple_polygons", "random_convex_polygon"]

def _floats(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


@st.composite
def _placement(draw, pts, clockwise):
    """Random rotation (half the time none, keeping exact collinearities), scale and offset
    (polygons are not all near the origin), then the winding."""
    if draw(st.booleans()):
        angle = draw(_floats(0.0, 2.0 * np.pi))
        c, s = np.cos(angle), np.sin(angle)
        pts = pts @ np.array([[c, s], [-s, c]])
    scale = draw(st.sampled_from([1e-2, 1.0, 10.0, 1e3]))
    offset = np.array([draw(_floats(-10.0, 10.0)), draw(_floats(-10.0, 10.0))]) * scale
    pts = pts * scale + offset
    signed = np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1])
    want_cw = draw(st.booleans()) if clockwise is None else clockwise
    return np.ascontiguousarray(pts[::-1] if (signed > 0) == want_cw else pts, dtype=np.float64)


@st.composite
def star_polygons(draw, min_vertices=4, max_vertices=200, convex=None, clockwise=None):
    """Star-shaped polygons: sorted angles (gaps under pi, so simple), radii in [0.15, 1].

    ``convex=True`` puts every vertex on the unit circle; ``None`` draws either kind.
    """
    n = draw(st.integers(min_vertices, max_vertices))
    gaps = np.array(draw(st.lists(_floats(0.5, 1.0), min_size=n, max_size=n)))
    angles = np.cumsum(gaps) / gaps.sum() * 2.0 * np.pi + draw(_floats(0.0, 2.0 * np.pi))
    if convex is None:
        convex = draw(st.integers(0, 4)) == 0
    radii = np.ones(n) if convex else np.array(draw(st.lists(_floats(0.15, 1.0), min_size=n, max_size=n)))
    pts = np.c_[radii * np.cos(angles), radii * np.sin(angles)]
    return draw(_placement(pts, clockwise))


@st.composite
def monotone_polygons(draw, min_vertices=4, max_vertices=200, clockwise=None):
    """x-monotone polygons: interior x positions go to the lower or the upper chain at random.

    Both chains follow a random-walk spine at random thicknesses; if the chains cross, the upper one
    is raised and the lower one lowered until the polygon is simple.
    """
    n = draw(st.integers(min_vertices, max_vertices))
    gaps = np.array(draw(st.lists(_floats(0.5, 1.0), min_size=n - 1, max_size=n - 1)))
    x = np.concatenate([[0.0], np.cumsum(gaps) / gaps.sum()])
    steps = np.array(draw(st.lists(_floats(-1.0, 1.0), min_size=n, max_size=n)))
    spine = np.cumsum(steps) * draw(_floats(0.2, 2.0)) / np.sqrt(n)
    thick = np.array(draw(st.lists(_floats(0.02, 0.3), min_size=n, max_size=n)))
    upper = np.array([False] + draw(st.lists(st.booleans(), min_size=n - 2, max_size=n - 2)) + [False])
    lower = ~upper
    lower[[0, -1]] = False
    order = np.concatenate([[0], np.flatnonzero(lower), [n - 1], np.flatnonzero(upper)[::-1]])
    for lift in np.concatenate([[0.0], 2.0 ** np.arange(-4, 12)]):
        y = spine + np.where(upper, thick + lift, 0.0) - np.where(lower, thick + lift, 0.0)
        pts = np.c_[x[order], y[order]]
        if Polygon(pts).is_valid:
            break
    return draw(_placement(pts, clockwise))


def _first_crossing(pts):
    """(i, j) of the first pair of non-adjacent edges that properly cross, or None."""
    n = len(pts)
    a, b = pts, np.roll(pts, -1, axis=0)

    def orient(p, q, r):
        (px, py), (qx, qy), (rx, ry) = p.T, q.T, r.T
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    i, j = np.triu_indices(n, 2)
    keep = (j - i) != n - 1
    i, j = i[keep], j[keep]
    o1, o2 = orient(a[i], b[i], a[j]), orient(a[i], b[i], b[j])
    o3, o4 = orient(a[j], b[j], a[i]), orient(a[j], b[j], b[i])
    hit = np.flatnonzero((o1 * o2 < 0) & (o3 * o4 < 0))
    return (int(i[hit[0]]), int(j[hit[0]])) if len(hit) else None


@st.composite
def two_opt_polygons(draw, min_vertices=4, max_vertices=40, clockwise=None):
    """A closed random walk made simple by 2-opt: reversing the path between two crossing edges.

    Each move shortens the perimeter, so the untangling ends; the result is usually very concave.
    """
    n = draw(st.integers(min_vertices, max_vertices))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pts = np.cumsum(rng.normal(size=(n, 2)), axis=0)
    for _ in range(20 * n * n):
        hit = _first_crossing(pts)
        if hit is None:
            break
        i, j = hit
        pts[i + 1:j + 1] = pts[i + 1:j + 1][::-1].copy()
    assume(_first_crossing(pts) is None and Polygon(pts).is_valid and Polygon(pts).area > 1e-6)
    pts = (pts - pts.min(axis=0)) / np.ptp(pts, axis=0).max()
    return draw(_placement(pts, clockwise))


@st.composite
def rectilinear_polygons(draw, max_cells=40, clockwise=None):
    """Outline of a random polyomino (edge-connected unit cells, holes filled).

    Full of exact degeneracies: collinear edges, edge extensions passing exactly through vertices,
    equal coordinates; the outline may also keep collinear vertices.
    """
    cells = [(0, 0)]
    for _ in range(draw(st.integers(1, max_cells - 1))):
        x, y = cells[draw(st.integers(0, len(cells) - 1))]
        dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
        if (x + dx, y + dy) not in cells:
            cells.append((x + dx, y + dy))
    union = shapely.union_all([box(x, y, x + 1, y + 1) for x, y in cells])
    pts = np.array(union.exterior.coords[:-1], dtype=np.float64)
    return draw(_placement(pts, clockwise))


def simple_polygons(min_vertices=4, max_vertices=200, clockwise=None):
    """Any simple polygon from the four generators, convex or concave, either winding."""
    return st.one_of(star_polygons(min_vertices, max_vertices, clockwise=clockwise),
                     monotone_polygons(min_vertices, max_vertices, clockwise=clockwise),
                     two_opt_polygons(min_vertices, min(40, max_vertices), clockwise=clockwise),
                     rectilinear_polygons(clockwise=clockwise))


def _hull(pts):
    """Andrew's monotone chain; counter-clockwise, collinear points dropped."""
    pts = sorted(map(tuple, pts))

    def half(points):
        out = []
        for p in points:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]), dtype=np.float64)


@st.composite
def random_convex_polygon(draw, min_points=3, max_points=30, size=1.0, clockwise=False):
    """Convex hull of random points in a square of side ``2 * size``, counter-clockwise by default.

    At least 3 hull vertices and an area above 1% of the square (no slivers). Hypothesis' edge-case
    floats (1.4e-145, -1.3e-10) can leave two hull vertices about the outline tolerance apart; such a
    hull is a valid polygon, kept on purpose: ``engine.Polygon`` cleans it, and a refusal of it is an
    engine bug (``test_decompose.py``, ``test_a_corner_next_to_a_near_duplicate_is_not_a_spike``).
    """
    n = draw(st.integers(min_points, max_points))
    coords = draw(st.lists(st.tuples(_floats(-1.0, 1.0), _floats(-1.0, 1.0)), min_size=n, max_size=n))
    hull = _hull(np.array(coords))
    assume(len(hull) >= 3)
    area = 0.5 * np.sum(hull[:, 0] * np.roll(hull[:, 1], -1) - np.roll(hull[:, 0], -1) * hull[:, 1])
    assume(area > 0.04)
    hull = hull * size
    return hull[::-1].copy() if clockwise else hull
