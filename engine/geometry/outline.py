"""Polygon outlines: validation, cleaning and the convexity test.

A user's vertex list becomes a clean counter-clockwise outline here, or a ``ValueError`` that
says what is wrong: NaN or infinite coordinates, fewer than 3 distinct points, zero area, two
crossing edges (named by their indices in the caller's list), or a boundary that touches itself
(holes are not supported). Duplicates and collinear points are dropped and clockwise input is
reversed. ``engine/geometry/decompose.py`` splits the clean outline into convex pieces.

Tolerance: with ``L`` the bounding-box diagonal, points closer than ``REL_TOL * L`` are duplicates
and a vertex that close to the line through its neighbours is collinear. One length for every test
keeps them consistent (what validation calls collinear the cutter drops too); relative, it ignores
units.
"""
import numpy as np

__all__ = ["validate_polygon", "is_convex", "REL_TOL"]

REL_TOL = 1e-10  # of the bounding-box diagonal: ~1e6 x double rounding, far below any visible size
_TOUCH = "holes and touching boundaries are not supported (the boundary may not meet itself)"


def length_tolerance(p):
    """``REL_TOL`` times the bounding-box diagonal of points ``p`` (n, 2): the one length every
    duplicate, collinearity and touching test uses (module docstring)."""
    return REL_TOL * float(np.hypot(*np.ptp(p, axis=0))) if len(p) else 0.0


def cross(ax, ay, bx, by):
    """z of the cross product of (ax, ay) and (bx, by); floats or arrays."""
    return ax * by - ay * bx


def _prev(a):  # np.roll(a, 1, axis=0) without its ~10 us of overhead (called per cut)
    return np.concatenate((a[-1:], a[:-1]))


def successors(a):
    """Each row's cyclic successor: ``np.roll(a, -1, axis=0)`` without its overhead."""
    return np.concatenate((a[1:], a[:1]))


def chord_offsets(p):
    """Signed distance of each vertex to the left of the chord of its neighbours (CCW: > 0 reflex)."""
    ac, ab = successors(p) - _prev(p), p - _prev(p)
    length = np.hypot(ac[:, 0], ac[:, 1])
    return cross(ac[:, 0], ac[:, 1], ab[:, 0], ab[:, 1]) / np.where(length > 0.0, length, np.inf)


def chord_offset(a, b, c):
    """Scalar :func:`chord_offsets` for one vertex b between a and c."""
    ex, ey = c[0] - a[0], c[1] - a[1]
    norm = (ex * ex + ey * ey) ** 0.5
    return cross(ex, ey, b[0] - a[0], b[1] - a[1]) / norm if norm > 0.0 else 0.0


def point_segment_distance(px, py, ax, ay, bx, by):
    """``(distance, t)`` from point p to segment a-b, t the clamped parameter of the closest
    point (floats or arrays)."""
    ex, ey = bx - ax, by - ay
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / np.maximum(ex * ex + ey * ey, 1e-300), 0.0, 1.0)
    return np.hypot(ax + t * ex - px, ay + t * ey - py), t


def _crosses(ax, ay, bx, by, cx, cy, dx, dy):
    """Segments a-b and c-d cross at one interior point (exact sign tests; arrays or floats)."""
    return ((cross(bx - ax, by - ay, cx - ax, cy - ay) * cross(bx - ax, by - ay, dx - ax, dy - ay) < 0)
            & (cross(dx - cx, dy - cy, ax - cx, ay - cy) * cross(dx - cx, dy - cy, bx - cx, by - cy) < 0))


def box_pairs(lo, hi, block=256):
    """Yield index arrays (i, j) of overlapping boxes, each unordered pair once: a sort-and-sweep on x
    (one searchsorted), a y filter, in blocks to bound memory. ~14 ms to validate 1000 vertices; a
    pure-Python pair loop needs ~0.25 s for the crossing test alone."""
    n = len(lo)
    order = np.argsort(lo[:, 0], kind="stable")
    counts = np.maximum(np.searchsorted(lo[order, 0], hi[order, 0], side="right") - np.arange(n) - 1, 0)
    for s in range(0, n, block):
        c = counts[s:s + block]
        total = int(c.sum())
        if total:
            ps = np.repeat(np.arange(s, s + len(c)), c)
            i, j = order[ps], order[ps + 1 + np.arange(total) - np.repeat(np.cumsum(c) - c, c)]
            m = (lo[i, 1] <= hi[j, 1]) & (lo[j, 1] <= hi[i, 1])
            yield i[m], j[m]


def _as_points(vertices):
    if isinstance(vertices, (str, bytes, dict)) or np.isscalar(vertices):
        raise TypeError(f"vertices must be a sequence of (x, y) pairs, got {type(vertices).__name__}")
    try:
        arr = np.asarray(vertices)
    except (ValueError, TypeError) as exc:  # ragged nesting
        raise TypeError("vertices must be a sequence of (x, y) pairs or an (n, 2) array") from exc
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"vertex coordinates must be real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise TypeError(f"vertices must have shape (n, 2), got shape {arr.shape}")
    return arr.astype(np.float64)


def _distinct(p, eps):
    """Mask keeping the first point of every run of consecutive near-duplicates (cyclically)."""
    keep = np.ones(len(p), dtype=bool)
    keep[1:] = np.hypot(*np.diff(p, axis=0).T) > eps
    k = len(p) - 1
    while k > 0 and np.hypot(*(p[k] - p[0])) <= eps:  # a run wrapping past the end belongs to p[0]
        keep[k], k = False, k - 1
    return keep


def _drop_collinear(p, idx, eps):
    """Remove collinear vertices, every other one of a run per round (each removal is judged against
    neighbours that stay, so the tolerance cannot accumulate); a reversal is an error.

    Straight ones go first; a reversal is judged only when none is left. A vertex a little over
    ``eps`` from its neighbour is within ``eps`` of most lines through that neighbour, so a real
    corner next to such a straight vertex looked like a spike until the straight vertex went."""
    while len(p) >= 3:
        on_line = np.abs(chord_offsets(p)) <= eps
        back = on_line & (((p - _prev(p)) * (successors(p) - p)).sum(axis=1) <= 0.0)
        straight = on_line & ~back
        if back.any() and not straight.any():
            raise ValueError(f"the boundary doubles back on itself at vertex {idx[np.argmax(back)]} "
                             "(a zero-width spike); " + _TOUCH)
        if not straight.any():
            break
        s = int(np.argmin(straight))  # runs start after a vertex that stays
        p, idx, flag = np.roll(p, -s, axis=0), np.roll(idx, -s), np.roll(straight, -s)
        pos = np.arange(len(p))
        start = np.maximum.accumulate(np.where(flag & ~_prev(flag), pos, 0))
        keep = ~(flag & ((pos - start) % 2 == 0))
        p, idx = p[keep], idx[keep]
    first = int(np.argmin(idx))  # the caller's first vertex stays first
    return np.roll(p, -first, axis=0), np.roll(idx, -first)


def _find_intersection(p, eps):
    """First pair (kind, i, j) of non-adjacent edges that cross ("cross") or come within eps ("touch")."""
    n, b = len(p), successors(p)
    found = {}
    for i, j in box_pairs(np.minimum(p, b) - eps, np.maximum(p, b) + eps):
        gap = np.abs(i - j)
        m = (gap != 1) & (gap != n - 1)
        i, j = np.minimum(i[m], j[m]), np.maximum(i[m], j[m])
        ends = [(p[i], p[j], b[j]), (b[i], p[j], b[j]), (p[j], p[i], b[i]), (b[j], p[i], b[i])]
        dist = np.min([point_segment_distance(*u.T, *v.T, *w.T)[0] for u, v, w in ends], axis=0)
        for kind, mask in (("cross", _crosses(*p[i].T, *b[i].T, *p[j].T, *b[j].T)), ("touch", dist <= eps)):
            if mask.any():
                k = np.lexsort((j[mask], i[mask]))[0]
                found[kind] = min(found.get(kind, (n, n)), (int(i[mask][k]), int(j[mask][k])))
    kind = "cross" if "cross" in found else "touch" if "touch" in found else None
    return None if kind is None else (kind, *found[kind])


def _describe(pts, idx, kind, ei, ej):
    """Error message for cleaned edges ei, ej, naming vertices and edges by the caller's indices."""
    n, m = len(pts), len(idx)

    def chain(k):  # the input edges that cleaned edge k covers (removed collinear points lie on it)
        u, v = int(idx[k]), int(idx[(k + 1) % m])
        return [(u + s) % n for s in range((v - u) % n or n)]

    def seg(e):
        return (*pts[e], *pts[(e + 1) % n])

    def name(e):
        return f"{e} (v{e}->v{(e + 1) % n})"

    if kind == "cross":
        for e, f in sorted((min(e, f), max(e, f)) for e in chain(ei) for f in chain(ej)):
            if _crosses(*seg(e), *seg(f)):
                return f"the polygon is self-intersecting: edges {name(e)} and {name(f)} cross; " \
                       "only simple polygons are allowed"
    eps = length_tolerance(pts)
    for a, other in ((ei, ej), (ej, ei)):
        for v in (int(idx[a]), int(idx[(a + 1) % m])):
            for e in chain(other):
                d, t = point_segment_distance(*pts[v], *seg(e))
                w = e if t < 0.5 else (e + 1) % n
                if d <= eps and np.hypot(*(pts[v] - pts[w])) <= eps:
                    return f"vertices {min(v, w)} and {max(v, w)} coincide; " + _TOUCH
                if d <= eps:
                    return f"vertex {v} touches edge {name(e)}; " + _TOUCH
    return f"edges {name(int(idx[ei]))} and {name(int(idx[ej]))} {kind}; " + _TOUCH  # not reached


def validate_polygon(vertices):
    """Check a simple polygon and return it cleaned and counter-clockwise.

    Consecutive duplicates and collinear vertices (within ``REL_TOL`` times the bounding-box diagonal)
    are removed; clockwise input is reversed.

    Parameters
    ----------
    vertices : sequence of (x, y) pairs, or array_like of shape (n, 2)

    Returns
    -------
    numpy.ndarray
        (m, 2) float64, counter-clockwise, m >= 3, no duplicate or collinear vertex.

    Raises
    ------
    TypeError
        Not an (n, 2) collection of real numbers.
    ValueError
        NaN or infinite coordinates, fewer than 3 distinct points, zero area, crossing edges, or a
        boundary touching itself (repeated vertex, zero-width spike, vertex on another edge).

    Examples
    --------
    >>> validate_polygon([(0, 0), (0, 1), (1, 1), (1, 0.5), (1, 0)])  # clockwise, a collinear point
    array([[1., 0.],
           [1., 1.],
           [0., 1.],
           [0., 0.]])
    """
    pts = _as_points(vertices)
    if not np.isfinite(pts).all():
        k = int(np.argmin(np.isfinite(pts).all(axis=1)))
        raise ValueError(f"vertex {k} is {tuple(pts[k].tolist())}: coordinates must be finite "
                         "(no NaN or infinity)")
    eps = length_tolerance(pts)
    idx = np.flatnonzero(_distinct(pts, eps)) if len(pts) else np.arange(0)
    if len(idx) < 3:
        raise ValueError(f"the polygon has {len(idx)} distinct point(s) after removing consecutive "
                         "duplicates; at least 3 are required")
    p = pts[idx]
    far = p[np.argmax(np.hypot(*(p - p[0]).T))] - p[0]
    if np.all(np.abs(cross(*far, *(p - p[0]).T)) <= eps * np.hypot(*far)):
        raise ValueError("all points are collinear, so the polygon has zero area; it needs a positive area")
    p, idx = _drop_collinear(p, idx, eps)
    hit = _find_intersection(p, eps)
    if hit is not None:
        raise ValueError(_describe(pts, idx, *hit))
    area = 0.5 * np.sum(cross(*p.T, *successors(p).T))
    if abs(area) <= REL_TOL * (eps / REL_TOL) ** 2:
        raise ValueError(f"the polygon has zero area ({area:g}); it needs a positive area")
    return np.ascontiguousarray(p[::-1] if area < 0 else p)


def is_convex(vertices):
    """True when a cleaned counter-clockwise polygon has no reflex vertex.

    A vertex is reflex only when more than ``REL_TOL`` times the bounding-box diagonal inside the chord
    of its neighbours, so the rounding of computed pieces is not mistaken for concavity.

    Parameters
    ----------
    vertices : array_like, shape (n, 2), counter-clockwise (a clockwise polygon is not convex)

    Returns
    -------
    bool

    Examples
    --------
    >>> is_convex([(0, 0), (2, 0), (2, 2), (0, 2)]), is_convex([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2)])
    (True, False)
    """
    p = np.asarray(vertices, dtype=np.float64)
    ccw = len(p) >= 3 and np.sum(cross(*p.T, *successors(p).T)) > 0
    return bool(ccw and not (chord_offsets(p) > length_tolerance(p)).any())
