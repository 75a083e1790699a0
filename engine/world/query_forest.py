"""The queries' snapshot of the world: the three broadphase trees (moving, static,
sensor) with exact boxes, and the piece table. Built by :func:`query_snapshot` on the
first query after the world changed (``queries.py`` keeps it); read by the kernels of
``query_kernels.py`` and ``overlap_kernels.py``.

- ``forest = (nodes, roots)``: the trees' nodes packed in depth-first order, each
  ``(x0, y0, x1, y1, link)`` with the box *exact* at the current poses (a leaf: its
  piece's box; a parent: the union of its children) and ``link`` the right child's index
  (the left child is the next node) or ``-1 - piece`` for a leaf; ``roots`` int64
  ``(moving root, static root, sensor root, depth)``, -1 for an empty tree.
- ``geo = (ptab, verts, norms, ghost)``: per piece row its pose and geometry (``PT_*``
  columns), and the geometry pool.

Why a snapshot and not the trees themselves: the broadphase's boxes are fat (margins,
swept by the velocity) and refreshed at the start of a step, so after one a body pushed
during it may lie outside its leaf (measured on concave_drop); exact boxes make every
query exact without a fallback list, and reject more. Packed nodes (one row per node
instead of five arrays) and exact boxes made ``ray_cast_many`` on rain2000 three times
faster than the same ordered search in the trees' own arrays (measured: 0.98 against
2.3 us a ray on a loaded machine). Building it costs 0.11 ms for rain2000's 3000 pieces
with its data in the cache (half of it the bodies' sines and cosines), 0.3 ms right after
a step, once per step, on the first query after it.
"""
import math

import numpy as np

from .._jit import copy_rows, njit_exact as njit, njit_exact_inline as njit_inline
from ..broadphase.tree_ops import META_NODES, META_ROOT, grown
from ..geometry.convex import piece_box

# Columns of the piece table ``ptab`` (float64, pieces x PT_SIZE).
PT_X = 0  # the body's pose
PT_Y = 1
PT_ANGLE = 2
PT_C = 3  # cos and sin of the angle
PT_S = 4
PT_RADIUS = 5
PT_START = 6  # first row in the geometry pool
PT_COUNT = 7
PT_SHAPE = 8  # shape id
PT_SIZE = 9
N_LINK = 4  # column of a node: right child, or -1 - piece for a leaf
TREES = 3  # the moving, static and sensor trees; ``roots[TREES]`` is the forest's depth


@njit
def query_snapshot(pos, angle, piece_body, piece_shape, piece_start, piece_count, piece_radius,
                   verts, trees):
    """``(nodes, roots, ptab)`` of the module docstring for the world's current poses;
    ``trees``: the moving, static and sensor trees' ``(aabb, child1, child2, height, user,
    meta)`` (``state.trees()``)."""
    n = piece_body.shape[0]
    ptab = np.zeros((n, PT_SIZE))
    for q in range(n):
        b = piece_body[q]
        if b >= 0:
            a = angle[b]
            ptab[q, PT_X] = pos[b, 0]
            ptab[q, PT_Y] = pos[b, 1]
            ptab[q, PT_ANGLE] = a
            ptab[q, PT_C] = math.cos(a)
            ptab[q, PT_S] = math.sin(a)
            ptab[q, PT_RADIUS] = piece_radius[q]
            ptab[q, PT_START] = piece_start[q]
            ptab[q, PT_COUNT] = piece_count[q]
            ptab[q, PT_SHAPE] = piece_shape[q]
    size = 0
    for w in range(TREES):
        size += trees[w][5][META_NODES]
    nodes = np.empty((size, 5))
    roots = np.full(TREES + 1, -1, np.int64)
    roots[TREES] = 0
    m = 0
    for w in range(TREES):
        _, child1, child2, height, user, meta = trees[w]
        if meta[META_ROOT] < 0:
            continue
        first = m
        roots[w] = m
        # depth first, the left child next: a node, the slot of the parent waiting for
        # its right child's index, the depth
        stack = np.empty((height[meta[META_ROOT]] + 2, 3), np.int64)
        stack[0, 0] = meta[META_ROOT]
        stack[0, 1] = -1
        stack[0, 2] = 0
        top = 1
        while top > 0:
            top -= 1
            node = stack[top, 0]
            if stack[top, 1] >= 0:
                nodes[stack[top, 1], N_LINK] = m
            roots[TREES] = max(roots[TREES], stack[top, 2])
            if height[node] > 0:
                depth = stack[top, 2] + 1
                stack[top, 0] = child2[node]
                stack[top, 1] = m
                stack[top, 2] = depth
                stack[top + 1, 0] = child1[node]
                stack[top + 1, 1] = -1
                stack[top + 1, 2] = depth
                top += 2
            else:
                q = user[node]
                x0, y0, x1, y1 = piece_box(verts, piece_start[q], piece_count[q], piece_radius[q],
                                           ptab[q, PT_X], ptab[q, PT_Y], ptab[q, PT_C], ptab[q, PT_S],
                                           0.0)
                nodes[m, 0] = x0
                nodes[m, 1] = y0
                nodes[m, 2] = x1
                nodes[m, 3] = y1
                nodes[m, N_LINK] = -1.0 - q
            m += 1
        for i in range(m - 1, first - 1, -1):  # parents after their children: refit
            if nodes[i, N_LINK] >= 0.0:
                r = int(nodes[i, N_LINK])
                nodes[i, 0] = min(nodes[i + 1, 0], nodes[r, 0])
                nodes[i, 1] = min(nodes[i + 1, 1], nodes[r, 1])
                nodes[i, 2] = max(nodes[i + 1, 2], nodes[r, 2])
                nodes[i, 3] = max(nodes[i + 1, 3], nodes[r, 3])
    return nodes[:m].copy(), roots, ptab


@njit_inline
def forest_stack(forest):
    """Node and entry-fraction stacks deep enough for the forest: the roots of the trees
    after the first (:func:`push_roots`), then at most one pending sibling per level
    (near child on top)."""
    depth = forest[1][TREES] + TREES + 1
    return np.empty(depth, np.int64), np.empty(depth)


@njit_inline
def push_roots(roots, stack):
    """Push the roots of the forest's non-empty trees on ``stack``, the first tree's on
    top, so that a depth-first search searches the trees one after the other, in order;
    returns the stack's size."""
    top = 0
    for w in range(TREES - 1, -1, -1):
        if roots[w] >= 0:
            stack[top] = roots[w]
            top += 1
    return top


@njit_inline
def grown_hits(ids, hits, n):
    """``ids`` and ``hits`` float64 (k, 3), full at ``n`` rows, copied into arrays twice as
    long: ``(ids, hits)``. For the rare full buffer only: called per hit, the arrays
    passed in would be reference-counted per hit."""
    more = np.empty((2 * n, 3))
    copy_rows(more, hits, n)
    return grown(ids), more


@njit_inline
def put_hit(ids, hits, n, i, a, b, c):
    """Write ``i`` to ``ids[n]`` and ``(a, b, c)`` to row ``n`` of ``hits`` (a full buffer
    is first replaced by :func:`grown_hits`)."""
    ids[n] = i
    hits[n, 0] = a
    hits[n, 1] = b
    hits[n, 2] = c


@njit_inline
def forest_collect(forest, x0, y0, x1, y1, stack, out, n):
    """Append the pieces whose exact boxes overlap ``[x0, y0, x1, y1]`` (touching counts)
    to ``out[n:]``: ``(out, n)``, ``out`` grown (a new array) when full."""
    nodes, roots = forest
    top = push_roots(roots, stack)
    while top > 0:
        top -= 1
        i = stack[top]
        if nodes[i, 0] > x1 or nodes[i, 2] < x0 or nodes[i, 1] > y1 or nodes[i, 3] < y0:
            continue
        link = nodes[i, N_LINK]
        if link < 0.0:
            if n == out.shape[0]:
                out = grown(out)
            out[n] = int(-1.0 - link)
            n += 1
            continue
        stack[top] = int(link)
        stack[top + 1] = i + 1
        top += 2
    return out, n
