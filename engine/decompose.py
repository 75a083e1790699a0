"""Concave polygons: validation and decomposition into convex pieces.

SAT works on convex shapes only, so a concave polygon is stored as convex pieces attached to one body,
plus a flag per piece edge saying whether the edge is an internal cut; the narrowphase never uses a
cut's normal, so nothing catches on the seams. This runs once per shape at creation, never per step.

Two methods, both from the seeds:

* ``"split"`` (seed 003): take the first reflex vertex of a piece, extend one of its two edges through
  it until the ray first meets the boundary (an edge, or exactly a vertex), cut there, and repeat
  breadth-first until every piece is convex. Each cut removes at least one reflex vertex, so a polygon
  with ``r`` reflex vertices gives at most ``r + 1`` pieces. The seed took the first edge the line
  crosses in index order; here the *nearest* hit along the ray is used (the first one can lie outside
  the polygon), and of the two possible extensions the one leaving fewer reflex vertices is kept.
* ``"earclip"`` (seed 004): ear-clipping triangulation, then Hertel-Mehlhorn merging (drop every
  diagonal whose removal keeps both its end angles convex). No Steiner points; at most 4x optimal.

Tolerance: points closer than ``REL_TOL * L`` are duplicates and a vertex within ``REL_TOL * L`` of the
line through its neighbours is collinear, where ``L`` is the diagonal of the polygon's bounding box.
Using one length for every test keeps them consistent (what validation calls collinear the splitter
also removes), and being relative makes the result independent of the units.
"""
from collections import deque

import numpy as np

__all__ = ["validate_polygon", "is_convex", "decompose", "interior_edges", "REL_TOL"]

REL_TOL = 1e-10  # relative to the bounding-box diagonal; ~1e6 x double rounding on typical shapes
_TOUCH = "holes and touching boundaries are not supported (the boundary may not meet itself)"


def _eps(p):
    return REL_TOL * float(np.hypot(*(p.max(axis=0) - p.min(axis=0)))) if len(p) else 0.0


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _prev(a):  # np.roll(a, 1, axis=0) without its ~10 us of overhead
    return np.concatenate((a[-1:], a[:-1]))


def _next(a):  # np.roll(a, -1, axis=0)
    return np.concatenate((a[1:], a[:1]))


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
    """Remove vertices within eps of the line through their neighbours; a reversal there is an error.

    Removes every other vertex of each run of collinear ones per round: a removal is only valid
    while both neighbours stay, and re-testing after each round stops the tolerance accumulating.
    """
    while len(p) >= 3:
        a, c = _prev(p), _next(p)
        ac, ab = c - a, p - a
        on_line = np.abs(_cross(ac[:, 0], ac[:, 1], ab[:, 0], ab[:, 1])) <= eps * np.hypot(*ac.T)
        back = on_line & ((ab * (c - p)).sum(axis=1) <= 0.0)
        if back.any():
            raise ValueError(f"the boundary doubles back on itself at vertex {idx[np.argmax(back)]} "
                             "(a zero-width spike); " + _TOUCH)
        if not on_line.any():
            break
        s = int(np.argmin(on_line))  # start the runs after a vertex that stays
        p, idx, flag = np.roll(p, -s, axis=0), np.roll(idx, -s), np.roll(on_line, -s)
        pos = np.arange(len(p))
        start = np.maximum.accumulate(np.where(flag & ~_prev(flag), pos, 0))
        keep = ~(flag & ((pos - start) % 2 == 0))
        p, idx = p[keep], idx[keep]
    first = int(np.argmin(idx))  # keep the caller's first vertex first
    return np.roll(p, -first, axis=0), np.roll(idx, -first)


def _point_segment_distance(px, py, ax, ay, bx, by):
    ex, ey = bx - ax, by - ay
    ee = np.maximum(ex * ex + ey * ey, 1e-300)
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / ee, 0.0, 1.0)
    return np.hypot(ax + t * ex - px, ay + t * ey - py), t


def _box_pairs(lo, hi, block=256):
    """Yield index arrays (i, j) of overlapping boxes, each unordered pair once.

    Sort-and-sweep on x: with boxes sorted by left side, the partners of a box are the following
    ones whose left side comes before its right side (one searchsorted), then a y filter. Pairs are
    generated in blocks so memory stays bounded; typical polygons cost O(n log n + pairs) in NumPy.
    """
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


def _crosses(ax, ay, bx, by, cx, cy, dx, dy):
    """Segments a-b and c-d cross at a single interior point (exact sign tests; arrays or floats)."""
    return ((_cross(bx - ax, by - ay, cx - ax, cy - ay) * _cross(bx - ax, by - ay, dx - ax, dy - ay) < 0)
            & (_cross(dx - cx, dy - cy, ax - cx, ay - cy) * _cross(dx - cx, dy - cy, bx - cx, by - cy) < 0))


def _find_intersection(p, eps):
    """First pair (kind, i, j) of non-adjacent edges that cross ("cross") or come within eps ("touch")."""
    n, b = len(p), _next(p)
    found = {}
    for i, j in _box_pairs(np.minimum(p, b) - eps, np.maximum(p, b) + eps):
        gap = np.abs(i - j)
        m = (gap != 1) & (gap != n - 1)
        i, j = np.minimum(i[m], j[m]), np.maximum(i[m], j[m])
        seg = (*p[i].T, *b[i].T, *p[j].T, *b[j].T)
        (ax, ay, bx, by, cx, cy, dx, dy) = seg
        dist = np.min([_point_segment_distance(cx, cy, ax, ay, bx, by)[0],
                       _point_segment_distance(dx, dy, ax, ay, bx, by)[0],
                       _point_segment_distance(ax, ay, cx, cy, dx, dy)[0],
                       _point_segment_distance(bx, by, cx, cy, dx, dy)[0]], axis=0)
        for kind, mask in (("cross", _crosses(*seg)), ("touch", dist <= eps)):
            if mask.any():
                k = np.lexsort((j[mask], i[mask]))[0]
                found[kind] = min(found.get(kind, (n, n)), (int(i[mask][k]), int(j[mask][k])))
    kind = "cross" if "cross" in found else "touch" if "touch" in found else None
    return None if kind is None else (kind, *found[kind])


def _describe(pts, idx, kind, ei, ej):
    """The error message for cleaned edges ei, ej, naming vertices and edges by the caller's indices."""
    n, m = len(pts), len(idx)

    def chain(k):  # the input edges that cleaned edge k covers (removed collinear points lie on it)
        u, v = int(idx[k]), int(idx[(k + 1) % m])
        return [(u + s) % n for s in range((v - u) % n or n)]

    def seg(e):
        return (*pts[e], *pts[(e + 1) % n])

    def name(e):
        return f"edge {e} (v{e}->v{(e + 1) % n})"

    if kind == "cross":
        for e, f in sorted((min(e, f), max(e, f)) for e in chain(ei) for f in chain(ej)):
            if _crosses(*seg(e), *seg(f)):
                return (f"the polygon is self-intersecting: edges {e} (v{e}->v{(e + 1) % n}) and {f} "
                        f"(v{f}->v{(f + 1) % n}) cross; only simple polygons are allowed")
    eps = _eps(pts)
    for a, other in ((ei, ej), (ej, ei)):
        for v in (int(idx[a]), int(idx[(a + 1) % m])):
            for e in chain(other):
                d, t = _point_segment_distance(*pts[v], *seg(e))
                w = e if t < 0.5 else (e + 1) % n
                if d <= eps and np.hypot(*(pts[v] - pts[w])) <= eps:
                    return f"vertices {min(v, w)} and {max(v, w)} coincide; " + _TOUCH
                if d <= eps:
                    return f"vertex {v} touches {name(e)}; " + _TOUCH
    return f"{name(int(idx[ei]))} and {name(int(idx[ej]))} {kind}; " + (  # not reached in practice
        "only simple polygons are allowed" if kind == "cross" else _TOUCH)


def validate_polygon(vertices):
    """Check a simple polygon and return it cleaned, counter-clockwise.

    Consecutive duplicates and collinear vertices (within ``REL_TOL`` times the bounding-box diagonal)
    are removed; clockwise input is reversed.

    Parameters
    ----------
    vertices : sequence of (x, y) pairs or array_like of shape (n, 2)

    Returns
    -------
    numpy.ndarray
        (m, 2) float64, counter-clockwise, m >= 3, no duplicate or collinear vertices.

    Raises
    ------
    TypeError
        Not an (n, 2) collection of real numbers.
    ValueError
        NaN or infinite coordinates, fewer than 3 distinct points, zero area, crossing edges, or a
        boundary that touches itself (repeated vertex, zero-width spike, vertex on another edge).

    Examples
    --------
    >>> validate_polygon([(0, 0), (0, 1), (1, 1), (1, 0.5), (1, 0)])  # clockwise, one collinear point
    array([[1., 0.],
           [1., 1.],
           [0., 1.],
           [0., 0.]])
    """
    pts = _as_points(vertices)
    bad = np.flatnonzero(~np.isfinite(pts).all(axis=1))
    if len(bad):
        k = int(bad[0])
        raise ValueError(f"vertex {k} is ({pts[k, 0]}, {pts[k, 1]}): coordinates must be finite "
                         "(no NaN or infinity)")
    eps = _eps(pts)
    idx = np.flatnonzero(_distinct(pts, eps)) if len(pts) else np.arange(0)
    if len(idx) < 3:
        raise ValueError(f"the polygon has {len(idx)} distinct point(s) after removing consecutive "
                         "duplicates; at least 3 are required")
    p = pts[idx]
    far = p[np.argmax(np.hypot(*(p - p[0]).T))] - p[0]
    if np.all(np.abs(_cross(far[0], far[1], *(p - p[0]).T)) <= eps * np.hypot(*far)):
        raise ValueError("all points are collinear, so the polygon has zero area; "
                         "a polygon needs a positive area")
    p, idx = _drop_collinear(p, idx, eps)
    if len(p) < 3:
        raise ValueError("the polygon has zero area after removing collinear points; "
                         "a polygon needs a positive area")
    hit = _find_intersection(p, eps)
    if hit is not None:
        raise ValueError(_describe(pts, idx, *hit))
    area = 0.5 * np.sum(_cross(p[:, 0], p[:, 1], *_next(p).T))
    if abs(area) <= eps * eps / REL_TOL:  # REL_TOL * L**2
        raise ValueError(f"the polygon has zero area ({area:g}); a polygon needs a positive area")
    return np.ascontiguousarray(p[::-1] if area < 0 else p)


def _reflex(p, eps):
    """Reflex vertices of a CCW polygon: more than eps to the left of the chord of its neighbours."""
    a, c = _prev(p), _next(p)
    ac, ab = c - a, p - a
    return _cross(ac[:, 0], ac[:, 1], ab[:, 0], ab[:, 1]) > eps * np.hypot(ac[:, 0], ac[:, 1])


def is_convex(vertices):
    """True when a cleaned counter-clockwise polygon has no reflex vertex.

    A vertex counts as reflex only when it lies more than ``REL_TOL`` times the bounding-box diagonal
    inside the chord of its neighbours, so rounding in computed pieces is not mistaken for concavity.

    Parameters
    ----------
    vertices : array_like, shape (n, 2), counter-clockwise (clockwise polygons are not convex)

    Returns
    -------
    bool

    Examples
    --------
    >>> is_convex([(0, 0), (2, 0), (2, 2), (0, 2)]), is_convex([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)])
    (True, False)
    """
    p = np.asarray(vertices, dtype=np.float64)
    area = np.sum(_cross(p[:, 0], p[:, 1], *_next(p).T))
    return bool(len(p) >= 3 and area > 0 and not _reflex(p, _eps(p)).any())


def _cast(q, c, d, eps):
    """Nearest boundary hit of the ray q[c] + t d (t > 0): ("vertex", j, t) or ("edge", j, t, point)."""
    m = len(q)
    rel = q - q[c]
    t, h = rel @ d, _cross(d[0], d[1], rel[:, 0], rel[:, 1])  # along the ray; signed offset from it
    # A vertex within eps of the line is hit exactly: this is seed 003's "extension passes through a
    # vertex" case, and snapping avoids sliver pieces and near-duplicate Steiner points.
    tv = np.where((np.abs(h) <= eps) & (t > eps), t, np.inf)
    tv[[(c - 1) % m, c, (c + 1) % m]] = np.inf
    h1, t1 = _next(h), _next(t)
    edge = ((h > eps) & (h1 < -eps)) | ((h < -eps) & (h1 > eps))  # endpoints strictly on both sides
    with np.errstate(divide="ignore", invalid="ignore"):
        te = np.where(edge, t + (t1 - t) * h / (h - h1), np.inf)
    te[[(c - 1) % m, c]] = np.inf
    te[te <= eps] = np.inf
    jv, je = int(np.argmin(tv)), int(np.argmin(te))
    if np.isfinite(tv[jv]) and tv[jv] <= te[je]:
        return ("vertex", jv, tv[jv])
    return ("edge", je, te[je], q[c] + te[je] * d) if np.isfinite(te[je]) else None


def _side(a, b, c):
    """Signed distance of b to the left of the line a->c (> 0: reflex in a CCW polygon)."""
    ex, ey = c[0] - a[0], c[1] - a[1]
    norm = (ex * ex + ey * ey) ** 0.5
    return _cross(ex, ey, b[0] - a[0], b[1] - a[1]) / norm if norm > 0.0 else 0.0


def _tidy(q, rx, dirty, eps):
    """Drop duplicate, collinear and spike vertices at the positions a cut touched; refresh their flags.

    Only the cut's end points change their neighbours, so only they (and, after a removal, the
    neighbours of the removed vertex) are checked: O(1) per cut instead of a pass over the piece.
    """
    m = len(q)
    dirty = {k % m for k in dirty}
    while dirty and m >= 3:
        k = dirty.pop()
        a, b, c = q[k - 1].tolist(), q[k].tolist(), q[(k + 1) % m].tolist()
        side = _side(a, b, c)
        if abs(side) <= eps or np.hypot(b[0] - a[0], b[1] - a[1]) <= eps:
            q, rx, m = np.delete(q, k, axis=0), np.delete(rx, k), m - 1
            dirty = {d - (d > k) for d in dirty} | {(k - 1) % m, k % m}
        else:
            rx[k] = side > eps
    return q, rx


def _cut(q, rx, c, hit, eps):
    """Cut q from vertex c to the hit: two pieces (vertices, reflex flags)."""
    m, j = len(q), hit[1]
    ia = (c + np.arange((j - c) % m + 1)) % m
    if hit[0] == "vertex":
        ib = (j + np.arange((c - j) % m + 1)) % m
        parts = [(q[ia], rx[ia]), (q[ib], rx[ib])]
    else:
        ib = (j + 1 + np.arange((c - j - 1) % m + 1)) % m
        s = hit[3][None, :]
        parts = [(np.vstack([q[ia], s]), np.append(rx[ia], False)),
                 (np.vstack([s, q[ib]]), np.append(False, rx[ib]))]
    return [_tidy(part, flags.copy(), (0, -1), eps) for part, flags in parts]


def _split(p, eps):
    """Seed 003: breadth-first cuts along edge extensions through reflex vertices."""
    pieces, queue = [], deque([(p, _reflex(p, eps))])
    budget = 2 * len(p) + 8  # each cut removes a reflex vertex, so this is never reached on valid input
    while queue:
        q, rx = queue.popleft()
        if not rx.any():
            pieces.append(q)
            continue
        budget -= 1
        c, best = int(np.argmax(rx)), None
        for other in ((c - 1) % len(q), (c + 1) % len(q)):  # extend the incoming or the outgoing edge
            d = q[c] - q[other]
            hit = _cast(q, c, d / np.hypot(*d), eps)
            if hit is not None:
                parts = _cut(q, rx, c, hit, eps)
                score = (sum(int(f.sum()) for _, f in parts), hit[2])  # fewest reflex left, then shortest
                if best is None or score < best[0]:
                    best = (score, parts)
        if best is None or budget < 0:
            raise RuntimeError("split decomposition failed (numerically degenerate polygon)")
        queue.extend(part for part in best[1] if len(part[0]) >= 3)
    return pieces


def _earclip(p, eps):
    """Triangles (index triples, CCW) of a simple CCW polygon by ear clipping (seed 004).

    An ear is a vertex convex by more than eps whose triangle has no other remaining vertex within
    eps (seed 004 tests only reflex vertices, enough in general position; but a convex vertex on the
    new diagonal, common on grids, leaves a polygon touching itself, and rounding may put it just
    outside). Only if no vertex passes is the exact test used, once. Vectorised over the vertices.
    """
    n = len(p)
    x, y = p[:, 0], p[:, 1]
    xs, ys = x.tolist(), y.tolist()  # Python floats: scalar arithmetic on them is ~5x faster
    prv, nxt = [(i - 1) % n for i in range(n)], [(i + 1) % n for i in range(n)]
    alive = np.ones(n, dtype=bool)
    cand, tris, i, misses, left, tol = np.arange(n), [], 0, 0, n, eps

    def inside(a, b, bx, by):  # within tol to the left of a->b (scaled by its length)
        return _cross(xs[b] - xs[a], ys[b] - ys[a], bx - xs[a], by - ys[a]) >= -tol * np.hypot(
            xs[b] - xs[a], ys[b] - ys[a])

    while left > 3:
        a, c = prv[i], nxt[i]
        ear = -_side((xs[a], ys[a]), (xs[i], ys[i]), (xs[c], ys[c])) > tol
        if ear:
            k = cand[(cand != a) & (cand != i) & (cand != c)]
            ear = not (inside(a, i, x[k], y[k]) & inside(i, c, x[k], y[k]) & inside(c, a, x[k], y[k])).any()
        if not ear:
            i, misses = c, misses + 1
            if misses > left and tol == 0.0:
                raise RuntimeError("ear clipping found no ear (numerically degenerate polygon)")
            if misses > left:
                misses, tol = 0, 0.0
            continue
        tris.append((a, i, c))
        nxt[a], prv[c], left, misses, tol = c, a, left - 1, 0, eps
        alive[i] = False
        cand = np.flatnonzero(alive)
        i = a
    tris.append((prv[i], i, nxt[i]))
    if _side(*(p[v] for v in tris[-1])) >= 0.0:
        raise RuntimeError("ear clipping left an inverted triangle (numerically degenerate polygon)")
    return tris


def _hertel_mehlhorn(p, tris, eps):
    """Merge triangles across every diagonal whose removal keeps both end angles convex.

    A merged angle may be straight (within eps): the vertex is kept while merging, so pieces still
    meet at shared vertex pairs, and dropped at the end.
    """
    xs, ys = p[:, 0].tolist(), p[:, 1].tolist()
    owner, pieces, diagonals = {}, {}, []
    for t, tri in enumerate(tris):
        pieces[t] = list(tri)
        for k in range(3):
            u, v = tri[k], tri[(k + 1) % 3]
            if (v, u) in owner:
                diagonals.append((u, v))
            owner[(u, v)] = t
    parent = list(range(len(tris)))

    def find(t):
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    def side(a, b, c):
        return _side((xs[a], ys[a]), (xs[b], ys[b]), (xs[c], ys[c]))

    # Longest diagonals first: they tend to cut through the middle of the future pieces.
    diagonals.sort(key=lambda e: -((xs[e[0]] - xs[e[1]]) ** 2 + (ys[e[0]] - ys[e[1]]) ** 2))
    for u, v in diagonals:
        pa, pb = find(owner[(v, u)]), find(owner[(u, v)])
        la, lb = pieces[pa], pieces[pb]  # la holds edge v->u, lb holds u->v
        ka, kb = la.index(u), lb.index(v)
        la, lb = la[ka:] + la[:ka], lb[kb:] + lb[:kb]  # la = u ... v, lb = v ... u
        if side(lb[-2], u, la[1]) <= eps and side(la[-2], v, lb[1]) <= eps:
            pieces[pa] = la + lb[1:-1]
            parent[pb] = pa
            del pieces[pb]
    out = []
    for piece in pieces.values():
        k = len(piece)
        out.append(p[[piece[i] for i in range(k)
                      if abs(side(piece[i - 1], piece[i], piece[(i + 1) % k])) > eps]])
    return out


def decompose(vertices, method="auto"):
    """Split a simple polygon into convex counter-clockwise pieces.

    Parameters
    ----------
    vertices : array_like, shape (n, 2)
        Any simple polygon, either winding (validated with :func:`validate_polygon`).
    method : {"auto", "split", "earclip"}
        ``"split"``: reflex-vertex edge extension (seed 003), may add Steiner points on the boundary.
        ``"earclip"``: ear clipping + Hertel-Mehlhorn merging, only original vertices.
        ``"auto"``: run both and keep the one with fewer pieces (``"earclip"`` on a tie, as it adds no
        vertices); if one fails numerically the other is used. Both are near-linear per cut.

    Returns
    -------
    list of numpy.ndarray
        Convex pieces, each (k, 2) float64, k >= 3, CCW, without collinear vertices. A convex input is
        returned as a single piece.

    Examples
    --------
    >>> pieces = decompose([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)], method="split")
    >>> len(pieces), [len(piece) for piece in pieces]
    (2, [4, 4])
    """
    if method not in ("auto", "split", "earclip"):
        raise ValueError(f"unknown method {method!r}; use 'auto', 'split' or 'earclip'")
    p = validate_polygon(vertices)
    eps = _eps(p)
    if not _reflex(p, eps).any():
        return [p]
    results = []
    for name in (("earclip", "split") if method == "auto" else (method,)):
        try:
            if name == "split":
                pieces = _split(p, eps)
            else:
                pieces = _hertel_mehlhorn(p, _earclip(p, eps), eps)
            results.append([np.ascontiguousarray(q) for q in pieces if len(q) >= 3])
        except RuntimeError:
            if method != "auto" or (name == "split" and not results):
                raise
    return min(results, key=len)


def interior_edges(pieces, polygon):
    """Flag the piece edges that are internal cuts rather than parts of the polygon's boundary.

    An edge counts as boundary when it overlaps some edge of the polygon over a positive length
    (within the tolerance), so edges that run along part of a boundary edge (ending at a Steiner
    point) or continue a boundary edge past a reflex vertex keep their normal.

    Parameters
    ----------
    pieces : list of array_like (k, 2)
        Pieces of ``polygon``, e.g. from :func:`decompose`.
    polygon : array_like, shape (n, 2)
        The original polygon (either winding).

    Returns
    -------
    list of numpy.ndarray of bool
        One (k,) array per piece; entry i is True when edge piece[i] -> piece[(i + 1) % k] is a cut.

    Examples
    --------
    >>> L = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    >>> pieces = decompose(L, method="earclip")
    >>> [piece.tolist() for piece in pieces]
    [[[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]], [[0.0, 2.0], [0.0, 0.0], [1.0, 1.0], [1.0, 2.0]]]
    >>> [flags.tolist() for flags in interior_edges(pieces, L)]
    [[False, False, False, True], [False, True, False, False]]
    """
    p = validate_polygon(polygon)
    eps, n = _eps(p), len(p)
    qs = [np.asarray(piece, dtype=np.float64) for piece in pieces]
    a, b = np.concatenate(qs), np.concatenate([_next(q) for q in qs])
    # Candidates by bounding boxes, not by shared vertices: an edge may start at a vertex, cross the
    # interior, pass a reflex vertex and end along a boundary edge that touches neither of its ends.
    sa, sb = np.concatenate([p, a]), np.concatenate([_next(p), b])
    e, f = [], []
    for i, j in _box_pairs(np.minimum(sa, sb) - eps, np.maximum(sa, sb) + eps):
        mixed = (i < n) != (j < n)  # one boundary edge against one piece edge
        e.append(np.where(i < n, i, j)[mixed])
        f.append(np.where(i < n, j, i)[mixed] - n)
    e, f = np.concatenate(e), np.concatenate(f)
    d = _next(p)[e] - p[e]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / length[:, None]
    r0, r1 = a[f] - p[e], b[f] - p[e]
    t0, t1 = (r0 * u).sum(axis=1), (r1 * u).sum(axis=1)
    along = np.maximum(np.abs(_cross(u[:, 0], u[:, 1], r0[:, 0], r0[:, 1])),
                       np.abs(_cross(u[:, 0], u[:, 1], r1[:, 0], r1[:, 1]))) <= eps
    overlap = np.minimum(np.maximum(t0, t1), length) - np.maximum(np.minimum(t0, t1), 0.0)
    cut = np.ones(len(a), dtype=bool)
    cut[f[along & (overlap > eps)]] = False
    return np.split(cut, np.cumsum([len(q) for q in qs])[:-1])
