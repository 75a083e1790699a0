"""Concave polygons: validation and decomposition into convex pieces.

SAT works on convex shapes only, so a concave polygon becomes convex pieces on one body, plus a flag per
piece edge telling internal cuts from boundary; the narrowphase never uses a cut's normal, so nothing
catches on the seams. All of this runs once per shape at creation, never per step.

* ``"split"`` (seed 003): take the first reflex vertex of a piece, extend one of its edges through it
  until the ray meets the boundary (an edge, or exactly a vertex), cut there, repeat breadth-first.
  Each cut removes at least one reflex vertex, so ``r`` reflex vertices give at most ``r + 1`` pieces.
  The seed takes the first edge the line crosses in index order; the *nearest* hit along the ray is
  used here (the first may lie outside the polygon), and of the two edges at the vertex the one whose
  extension lands on a reflex vertex is preferred (that cut may resolve both), else the shorter cut.
* ``"earclip"`` (seed 004): ear-clipping triangulation, then Hertel-Mehlhorn merging (drop every
  diagonal whose removal keeps both of its end angles convex): only original vertices, <= 4x optimal.

Tolerance: with ``L`` the bounding-box diagonal, points closer than ``REL_TOL * L`` are duplicates and a
vertex that close to the line through its neighbours is collinear. One length for every test keeps
them consistent (what validation calls collinear the cutter drops too); relative, it ignores units.
"""
from collections import deque

import numpy as np

__all__ = ["validate_polygon", "is_convex", "decompose", "interior_edges", "REL_TOL"]

REL_TOL = 1e-10  # of the bounding-box diagonal: ~1e6 x double rounding, far below any visible size
_TOUCH = "holes and touching boundaries are not supported (the boundary may not meet itself)"


def _eps(p):
    return REL_TOL * float(np.hypot(*np.ptp(p, axis=0))) if len(p) else 0.0


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _prev(a):  # np.roll(a, 1, axis=0) without its ~10 us of overhead (called per cut)
    return np.concatenate((a[-1:], a[:-1]))


def _next(a):  # np.roll(a, -1, axis=0)
    return np.concatenate((a[1:], a[:1]))


def _offsets(p):
    """Signed distance of each vertex to the left of the chord of its neighbours (CCW: > 0 reflex)."""
    ac, ab = _next(p) - _prev(p), p - _prev(p)
    length = np.hypot(ac[:, 0], ac[:, 1])
    return _cross(ac[:, 0], ac[:, 1], ab[:, 0], ab[:, 1]) / np.where(length > 0.0, length, np.inf)


def _side(a, b, c):
    """Scalar :func:`_offsets` for one vertex b between a and c."""
    ex, ey = c[0] - a[0], c[1] - a[1]
    norm = (ex * ex + ey * ey) ** 0.5
    return _cross(ex, ey, b[0] - a[0], b[1] - a[1]) / norm if norm > 0.0 else 0.0


def _point_segment_distance(px, py, ax, ay, bx, by):
    ex, ey = bx - ax, by - ay
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / np.maximum(ex * ex + ey * ey, 1e-300), 0.0, 1.0)
    return np.hypot(ax + t * ex - px, ay + t * ey - py), t


def _crosses(ax, ay, bx, by, cx, cy, dx, dy):
    """Segments a-b and c-d cross at one interior point (exact sign tests; arrays or floats)."""
    return ((_cross(bx - ax, by - ay, cx - ax, cy - ay) * _cross(bx - ax, by - ay, dx - ax, dy - ay) < 0)
            & (_cross(dx - cx, dy - cy, ax - cx, ay - cy) * _cross(dx - cx, dy - cy, bx - cx, by - cy) < 0))


def _box_pairs(lo, hi, block=256):
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
    neighbours that stay, so the tolerance cannot accumulate); a reversal is an error."""
    while len(p) >= 3:
        on_line = np.abs(_offsets(p)) <= eps
        back = on_line & (((p - _prev(p)) * (_next(p) - p)).sum(axis=1) <= 0.0)
        if back.any():
            raise ValueError(f"the boundary doubles back on itself at vertex {idx[np.argmax(back)]} "
                             "(a zero-width spike); " + _TOUCH)
        if not on_line.any():
            break
        s = int(np.argmin(on_line))  # runs start after a vertex that stays
        p, idx, flag = np.roll(p, -s, axis=0), np.roll(idx, -s), np.roll(on_line, -s)
        pos = np.arange(len(p))
        start = np.maximum.accumulate(np.where(flag & ~_prev(flag), pos, 0))
        keep = ~(flag & ((pos - start) % 2 == 0))
        p, idx = p[keep], idx[keep]
    first = int(np.argmin(idx))  # the caller's first vertex stays first
    return np.roll(p, -first, axis=0), np.roll(idx, -first)


def _find_intersection(p, eps):
    """First pair (kind, i, j) of non-adjacent edges that cross ("cross") or come within eps ("touch")."""
    n, b = len(p), _next(p)
    found = {}
    for i, j in _box_pairs(np.minimum(p, b) - eps, np.maximum(p, b) + eps):
        gap = np.abs(i - j)
        m = (gap != 1) & (gap != n - 1)
        i, j = np.minimum(i[m], j[m]), np.maximum(i[m], j[m])
        ends = [(p[i], p[j], b[j]), (b[i], p[j], b[j]), (p[j], p[i], b[i]), (b[j], p[i], b[i])]
        dist = np.min([_point_segment_distance(*u.T, *v.T, *w.T)[0] for u, v, w in ends], axis=0)
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
    eps = _eps(pts)
    for a, other in ((ei, ej), (ej, ei)):
        for v in (int(idx[a]), int(idx[(a + 1) % m])):
            for e in chain(other):
                d, t = _point_segment_distance(*pts[v], *seg(e))
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
    eps = _eps(pts)
    idx = np.flatnonzero(_distinct(pts, eps)) if len(pts) else np.arange(0)
    if len(idx) < 3:
        raise ValueError(f"the polygon has {len(idx)} distinct point(s) after removing consecutive "
                         "duplicates; at least 3 are required")
    p = pts[idx]
    far = p[np.argmax(np.hypot(*(p - p[0]).T))] - p[0]
    if np.all(np.abs(_cross(*far, *(p - p[0]).T)) <= eps * np.hypot(*far)):
        raise ValueError("all points are collinear, so the polygon has zero area; it needs a positive area")
    p, idx = _drop_collinear(p, idx, eps)
    hit = _find_intersection(p, eps)
    if hit is not None:
        raise ValueError(_describe(pts, idx, *hit))
    area = 0.5 * np.sum(_cross(*p.T, *_next(p).T))
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
    ccw = len(p) >= 3 and np.sum(_cross(*p.T, *_next(p).T)) > 0
    return bool(ccw and not (_offsets(p) > _eps(p)).any())


def _cast(q, c, d, eps):
    """Nearest boundary hit of the ray q[c] + t d, t > 0: ("vertex", j, t) or ("edge", j, t, point)."""
    m = len(q)
    rel = q - q[c]
    t, h = rel @ d, _cross(d[0], d[1], rel[:, 0], rel[:, 1])  # along the ray; offset from it
    # A vertex within eps of the line is hit exactly (seed 003's special case): no sliver, no Steiner
    # point next to a vertex. Edges count only with their ends strictly on both sides.
    tv = np.where((np.abs(h) <= eps) & (t > eps), t, np.inf)
    tv[[(c - 1) % m, c, (c + 1) % m]] = np.inf
    h1, t1 = _next(h), _next(t)
    edge = ((h > eps) & (h1 < -eps)) | ((h < -eps) & (h1 > eps))
    with np.errstate(divide="ignore", invalid="ignore"):
        te = np.where(edge, t + (t1 - t) * h / (h - h1), np.inf)
    te[[(c - 1) % m, c]] = np.inf
    te[te <= eps] = np.inf
    jv, je = int(np.argmin(tv)), int(np.argmin(te))
    if np.isfinite(tv[jv]) and tv[jv] <= te[je]:
        return ("vertex", jv, tv[jv])
    return ("edge", je, te[je], q[c] + te[je] * d) if np.isfinite(te[je]) else None


def _tidy(q, rx, eps):
    """Drop duplicate/collinear/spike vertices where a cut ended (first and last vertex: the only ones
    with new neighbours, then the neighbours of a removed one) and refresh their reflex flags."""
    m = len(q)
    dirty = {0, m - 1}
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
    """The two pieces (vertices, reflex flags) of q cut from vertex c to the hit."""
    m, j = len(q), hit[1]
    ia = (c + np.arange((j - c) % m + 1)) % m
    if hit[0] == "vertex":
        ib = (j + np.arange((c - j) % m + 1)) % m
        parts = [(q[ia], rx[ia]), (q[ib], rx[ib])]
    else:  # the Steiner point s on edge j -> j+1
        ib, s = (j + 1 + np.arange((c - j - 1) % m + 1)) % m, hit[3][None, :]
        parts = [(np.vstack([q[ia], s]), np.append(rx[ia], False)),
                 (np.vstack([s, q[ib]]), np.append(False, rx[ib]))]
    return [_tidy(part, flags.copy(), eps) for part, flags in parts]


def _split(p, eps):
    pieces, queue = [], deque([(p, _offsets(p) > eps)])
    budget = 2 * len(p) + 8  # each cut removes a reflex vertex: never reached on valid input
    while queue:
        q, rx = queue.popleft()
        if not rx.any():
            pieces.append(q)
            continue
        c, best, budget = int(np.argmax(rx)), None, budget - 1
        for other in ((c - 1) % len(q), (c + 1) % len(q)):  # extend the incoming or the outgoing edge
            d = q[c] - q[other]
            hit = _cast(q, c, d / np.hypot(*d), eps)
            score = None if hit is None else (not (hit[0] == "vertex" and rx[hit[1]]), hit[2])
            if score is not None and (best is None or score < best[0]):
                best = (score, hit)
        if best is None or budget < 0:
            raise RuntimeError("split decomposition failed (numerically degenerate polygon)")
        queue.extend(part for part in _cut(q, rx, c, best[1], eps) if len(part[0]) >= 3)
    return pieces


def _earclip(p, eps):
    """Triangles (CCW index triples) of a simple CCW polygon by ear clipping (seed 004).

    An ear: convex by more than eps, no other remaining vertex within eps of its triangle (seed 004
    tests reflex vertices only, but a convex vertex on the new diagonal, common on grids, would leave
    a polygon touching itself). If no vertex passes, the exact test is used for one clip.
    """
    n = len(p)
    x, y = p[:, 0], p[:, 1]
    xs, ys = x.tolist(), y.tolist()  # Python floats: scalar arithmetic on them is ~5x faster
    prv, nxt = [(i - 1) % n for i in range(n)], [(i + 1) % n for i in range(n)]
    alive = np.ones(n, dtype=bool)
    cand, tris, i, misses, left, tol = np.arange(n), [], 0, 0, n, eps

    def inside(a, b, k):  # vertices k within tol to the left of a->b
        ex, ey = xs[b] - xs[a], ys[b] - ys[a]
        return _cross(ex, ey, x[k] - xs[a], y[k] - ys[a]) >= -tol * (ex * ex + ey * ey) ** 0.5

    while left > 3:
        a, c = prv[i], nxt[i]
        ear = -_side((xs[a], ys[a]), (xs[i], ys[i]), (xs[c], ys[c])) > tol
        if ear:
            k = cand[(cand != a) & (cand != i) & (cand != c)]
            ear = not (inside(a, i, k) & inside(i, c, k) & inside(c, a, k)).any()
        if not ear:
            i, misses = c, misses + 1
            if misses > left and tol == 0.0:
                raise RuntimeError("ear clipping found no ear (numerically degenerate polygon)")
            misses, tol = (0, 0.0) if misses > left else (misses, tol)
            continue
        tris.append((a, i, c))
        nxt[a], prv[c], left, misses, tol = c, a, left - 1, 0, eps
        alive[i] = False
        cand, i = np.flatnonzero(alive), a
    tris.append((prv[i], i, nxt[i]))
    if _side(*(p[v] for v in tris[-1])) >= 0.0:
        raise RuntimeError("ear clipping left an inverted triangle (numerically degenerate polygon)")
    return tris


def _hertel_mehlhorn(p, tris, eps):
    """Merge triangles across every diagonal whose removal keeps both end angles convex. Straight merged
    angles (within eps) keep their vertex until the end, so pieces still meet at shared vertex pairs."""
    xs, ys = p[:, 0].tolist(), p[:, 1].tolist()
    owner, pieces, diagonals, parent = {}, {}, [], list(range(len(tris)))
    for t, tri in enumerate(tris):
        pieces[t] = list(tri)
        for u, v in zip(tri, tri[1:] + tri[:1]):
            if (v, u) in owner:
                diagonals.append((u, v))
            owner[(u, v)] = t

    def find(t):
        while parent[t] != t:
            parent[t] = t = parent[parent[t]]
        return t

    def side(a, b, c):
        return _side((xs[a], ys[a]), (xs[b], ys[b]), (xs[c], ys[c]))

    for u, v in diagonals:
        pa, pb = find(owner[(v, u)]), find(owner[(u, v)])
        la, lb = pieces[pa], pieces[pb]  # la holds edge v->u, lb holds u->v
        ka, kb = la.index(u), lb.index(v)
        la, lb = la[ka:] + la[:ka], lb[kb:] + lb[:kb]  # la = u ... v, lb = v ... u
        if side(lb[-2], u, la[1]) <= eps and side(la[-2], v, lb[1]) <= eps:
            pieces[pa], parent[pb] = la + lb[1:-1], pa
            del pieces[pb]
    return [p[[w for k, w in enumerate(q) if abs(side(q[k - 1], w, q[(k + 1) % len(q)])) > eps]]
            for q in pieces.values()]


def decompose(vertices, method="auto"):
    """Split a simple polygon into convex counter-clockwise pieces.

    Parameters
    ----------
    vertices : array_like, shape (n, 2)
        Any simple polygon, either winding (checked with :func:`validate_polygon`).
    method : {"auto", "split", "earclip"}
        ``"split"``: cuts along edge extensions at reflex vertices (seed 003); at most ``r + 1``
        pieces for ``r`` reflex vertices; may add vertices where cuts meet the boundary.
        ``"earclip"``: ear clipping then Hertel-Mehlhorn merging (seed 004); original vertices only.
        ``"auto"``: runs both and keeps the fewer pieces (``"earclip"`` on a tie, as it adds no
        vertex); if one fails numerically the other is used. Costs the sum (~0.15 s for 1000 vertices).

    Returns
    -------
    list of numpy.ndarray
        Convex pieces, each (k, 2) float64, k >= 3, CCW, without collinear vertices. A convex polygon
        is returned whole.

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
    if not (_offsets(p) > eps).any():
        return [p]
    results = []
    for name in ("earclip", "split") if method == "auto" else (method,):
        try:
            pieces = _split(p, eps) if name == "split" else _hertel_mehlhorn(p, _earclip(p, eps), eps)
            results.append([np.ascontiguousarray(q) for q in pieces if len(q) >= 3])
        except RuntimeError:
            if method != "auto" or (name == "split" and not results):
                raise
    return min(results, key=len)


def interior_edges(pieces, polygon):
    """Flag the piece edges that are internal cuts rather than parts of the polygon's boundary.

    An edge is boundary when it overlaps an edge of the polygon over a positive length (within the
    tolerance), so edges along part of a boundary edge (ending at a Steiner point) or continuing one
    past a reflex vertex keep their normal, which is a true surface normal.

    Parameters
    ----------
    pieces : list of array_like (k, 2)
        Pieces of ``polygon``, e.g. from :func:`decompose`.
    polygon : array_like, shape (n, 2)
        The original polygon, either winding.

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
    if not qs:
        return []
    a, b = np.concatenate(qs), np.concatenate([_next(q) for q in qs])
    # Candidates by boxes, not by shared vertices: an edge may start at a vertex, cross the interior,
    # pass a reflex vertex and end along a boundary edge that touches neither of its ends.
    sa, sb = np.concatenate([p, a]), np.concatenate([_next(p), b])
    e, f = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for i, j in _box_pairs(np.minimum(sa, sb) - eps, np.maximum(sa, sb) + eps):
        mixed = (i < n) != (j < n)  # a boundary edge against a piece edge
        e.append(np.where(i < n, i, j)[mixed])
        f.append(np.where(i < n, j, i)[mixed] - n)
    e, f = np.concatenate(e), np.concatenate(f)
    d = _next(p)[e] - p[e]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / length[:, None]
    r0, r1 = a[f] - p[e], b[f] - p[e]
    t0, t1 = (r0 * u).sum(axis=1), (r1 * u).sum(axis=1)
    along = np.maximum(np.abs(_cross(*u.T, *r0.T)), np.abs(_cross(*u.T, *r1.T))) <= eps
    overlap = np.minimum(np.maximum(t0, t1), length) - np.maximum(np.minimum(t0, t1), 0.0)
    cut = np.ones(len(a), dtype=bool)
    cut[f[along & (overlap > eps)]] = False
    return np.split(cut, np.cumsum([len(q) for q in qs])[:-1])
