"""Concave polygons: decomposition into convex pieces.

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

Outlines are validated and cleaned by ``engine/geometry/outline.py`` (re-exported here); its
tolerance ``REL_TOL`` governs the cutter too.
"""
from collections import deque

import numpy as np

__all__ = ["validate_polygon", "is_convex", "decompose", "interior_edges", "outline_cones",
           "insert_outline_vertices", "REL_TOL"]

from .._api import fill_doc
from .outline import (REL_TOL, box_pairs, chord_offset, chord_offsets, cross, is_convex, length_tolerance,
                      point_segment_distance, successors, validate_polygon)


def _cast(q, c, d, eps):
    """Nearest boundary hit of the ray q[c] + t d, t > 0: ("vertex", j, t) or ("edge", j, t, point)."""
    m = len(q)
    rel = q - q[c]
    t, h = rel @ d, cross(d[0], d[1], rel[:, 0], rel[:, 1])  # along the ray; offset from it
    # A vertex within eps of the line is hit exactly (seed 003's special case): no sliver, no Steiner
    # point next to a vertex. Edges count only with their ends strictly on both sides.
    tv = np.where((np.abs(h) <= eps) & (t > eps), t, np.inf)
    tv[[(c - 1) % m, c, (c + 1) % m]] = np.inf
    h1, t1 = successors(h), successors(t)
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
        side = chord_offset(a, b, c)
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
    pieces, queue = [], deque([(p, chord_offsets(p) > eps)])
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
        return cross(ex, ey, x[k] - xs[a], y[k] - ys[a]) >= -tol * (ex * ex + ey * ey) ** 0.5

    while left > 3:
        a, c = prv[i], nxt[i]
        ear = -chord_offset((xs[a], ys[a]), (xs[i], ys[i]), (xs[c], ys[c])) > tol
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
    if chord_offset(*(p[v] for v in tris[-1])) >= 0.0:
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
        return chord_offset((xs[a], ys[a]), (xs[b], ys[b]), (xs[c], ys[c]))

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
    eps = length_tolerance(p)
    if not (chord_offsets(p) > eps).any():
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


# The parameters of the functions that read pieces against their outline (``fill_doc``).
PIECES_OF_POLYGON = """\
Parameters
----------
pieces : list of array_like (k, 2)
    Pieces of ``polygon``, e.g. from :func:`decompose`.
polygon : array_like, shape (n, 2)
    The original polygon, either winding."""


@fill_doc(parameters=PIECES_OF_POLYGON)
def interior_edges(pieces, polygon):
    """Flag the piece edges that are internal cuts rather than parts of the polygon's boundary.

    An edge is boundary when it overlaps an edge of the polygon over a positive length (within the
    tolerance), so edges along part of a boundary edge (ending at a Steiner point) or continuing one
    past a reflex vertex keep their normal, which is a true surface normal.

    {parameters}

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
    eps, n = length_tolerance(p), len(p)
    qs = [np.asarray(piece, dtype=np.float64) for piece in pieces]
    if not qs:
        return []
    a, b = np.concatenate(qs), np.concatenate([successors(q) for q in qs])
    # Candidates by boxes, not by shared vertices: an edge may start at a vertex, cross the interior,
    # pass a reflex vertex and end along a boundary edge that touches neither of its ends.
    sa, sb = np.concatenate([p, a]), np.concatenate([successors(p), b])
    e, f = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for i, j in box_pairs(np.minimum(sa, sb) - eps, np.maximum(sa, sb) + eps):
        mixed = (i < n) != (j < n)  # a boundary edge against a piece edge
        e.append(np.where(i < n, i, j)[mixed])
        f.append(np.where(i < n, j, i)[mixed] - n)
    e, f = np.concatenate(e), np.concatenate(f)
    d = successors(p)[e] - p[e]
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / length[:, None]
    r0, r1 = a[f] - p[e], b[f] - p[e]
    t0, t1 = (r0 * u).sum(axis=1), (r1 * u).sum(axis=1)
    along = np.maximum(np.abs(cross(*u.T, *r0.T)), np.abs(cross(*u.T, *r1.T))) <= eps
    overlap = np.minimum(np.maximum(t0, t1), length) - np.maximum(np.minimum(t0, t1), 0.0)
    cut = np.ones(len(a), dtype=bool)
    cut[f[along & (overlap > eps)]] = False
    return np.split(cut, np.cumsum([len(q) for q in qs])[:-1])


@fill_doc(parameters=PIECES_OF_POLYGON)
def outline_cones(pieces, polygon):
    """The polygon's outward normal cone at every piece vertex, as the two normals that bound it.

    A piece vertex lies at an outline vertex, whose cone runs from the normal of
    the edge arriving there to the normal of the edge leaving it (a reflex vertex gives a clockwise
    pair: its cone holds only those two normals), or inside an outline edge (a Steiner point, or a
    vertex where the outline runs straight), whose cone is that edge's normal alone. A split cut may
    end on an earlier cut, inside the polygon: that vertex gets zeros (no normal). The narrowphase
    accepts a contact normal at a piece vertex only inside this cone, so a normal that only exists
    because the polygon was cut (a seam) is never used.

    {parameters}

    Returns
    -------
    list of numpy.ndarray
        One (k, 4) float64 array per piece: ``(ax, ay, bx, by)`` per vertex.

    Examples
    --------
    >>> L = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    >>> cones = outline_cones(decompose(L, method="earclip"), L)
    >>> cones[0][3].tolist()  # the reflex vertex (1, 1): +y arriving, +x leaving
    [0.0, 1.0, 1.0, -0.0]
    """
    p = validate_polygon(polygon)
    eps = length_tolerance(p)
    e = successors(p) - p
    normal = np.column_stack((e[:, 1], -e[:, 0])) / np.hypot(e[:, 0], e[:, 1])[:, None]
    index = {(x, y): j for j, (x, y) in enumerate(p.tolist())}
    cones = []
    for piece in pieces:
        q = np.asarray(piece, dtype=np.float64)
        cone = np.empty((len(q), 4))
        for i, (x, y) in enumerate(q.tolist()):
            j = index.get((x, y))
            if j is None:  # not an exact copy of a vertex: the nearest vertex, else edge, within eps
                d = np.hypot(p[:, 0] - x, p[:, 1] - y)
                j = int(np.argmin(d)) if d.min() <= eps else None
            if j is not None:
                cone[i, :2], cone[i, 2:] = normal[j - 1], normal[j]
                continue
            dist, _ = point_segment_distance(x, y, p[:, 0], p[:, 1], p[:, 0] + e[:, 0], p[:, 1] + e[:, 1])
            j = int(np.argmin(dist))
            # Off the outline (a split cut that ended on an earlier cut): no normal at all.
            cone[i, :2] = cone[i, 2:] = normal[j] if dist[j] <= eps else 0.0
        cones.append(cone)
    return cones


def insert_outline_vertices(pieces, polygon):
    """Add to each piece the outline vertices that lie inside its edges.

    A cut that continues a boundary edge (the split method extends an edge through a reflex
    vertex) makes one straight piece edge that is partly boundary, partly cut. With the
    outline's vertex put back in, every piece edge is wholly one or the other, which is what
    :func:`interior_edges` and the narrowphase's seam rules need. Such a vertex is collinear
    with its neighbours; the pieces stay convex.

    Parameters
    ----------
    pieces : list of array_like (k, 2)
    polygon : array_like, shape (n, 2)

    Returns
    -------
    list of numpy.ndarray
        The pieces, each with any such vertices inserted in order along its edges.

    Examples
    --------
    >>> L = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    >>> [len(q) for q in insert_outline_vertices(decompose(L, method="split"), L)]
    [4, 5]
    """
    p = validate_polygon(polygon)
    eps = length_tolerance(p)
    out = []
    for piece in pieces:
        q = np.asarray(piece, dtype=np.float64)
        a, d = q, successors(q) - q
        length = np.hypot(d[:, 0], d[:, 1])
        rel = p[None, :, :] - a[:, None, :]  # (edges, outline vertices, 2)
        along = (rel * d[:, None, :]).sum(axis=2) / length[:, None]
        off = cross(d[:, None, 0], d[:, None, 1], rel[..., 0], rel[..., 1]) / length[:, None]
        inside = (np.abs(off) <= eps) & (along > eps) & (along < length[:, None] - eps)
        if not inside.any():
            out.append(q)
            continue
        rows = []
        for i in range(len(q)):
            rows.append(q[i])
            js = np.flatnonzero(inside[i])
            rows.extend(p[js[np.argsort(along[i, js])]])
        out.append(np.ascontiguousarray(rows))
    return out
