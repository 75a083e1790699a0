"""A uniform grid over the snapshot's leaves, for ``ray_cast_many``
(``query_kernels.ray_cast_batch``, ``_grid_rays``).

A tree search starts every ray at the root: on rain2000 about 27 child boxes tested a
ray to find the 1.25 pieces it casts, most of them on the way down to where the ray
starts. A grid with cells about a moving piece's size goes straight to the ray's first
cell and walks the cells it crosses, nearest first (Amanatides and Woo), until the next
cell begins beyond the best hit: on rain2000 1.7 cells, 4 boxes and 1.6 casts a ray.
Built on each call from the snapshot's exact leaf boxes, O(pieces): about 0.1 ms for
rain2000, so only for 256 rays or more.

The grid covers every tree's box when that takes at most 8 cells a moving leaf (rain2000:
the container), else the moving tree's box only; every leaf of the forest (moving,
static, sensor) is filed under each cell its box overlaps, a box reaching beyond the
grid under the cells it overlaps. A ray that runs outside the grid before its best hit
is searched in the trees as well (``_grid_rays`` marks it).

``grid = (box, first, items)``: ``box`` float64 (1, 8) ``(x0, y0, x1, y1, h, ox, oy,
nx)`` (the grid's box with a margin, laid out as a node row so that the rays' slab test
reads it; the cell size; the corner of cell 0; the cells in a row), ``first`` int64
(cells + 1) where each cell's entries start in ``items``, cells row by row, and
``items`` the leaf *node* indices, whose boxes the search tests before casting their
piece. An empty grid (``first`` of size 1) means: search the trees instead (no moving
tree, or pieces too large for the cells).
"""
import math

import numpy as np

from .._jit import njit_exact_inline as njit_inline
from .query_forest import N_LINK, TREES

# Each box is registered with this margin (times the grid's scale) around it, so that a
# ray whose cell walk rounds past a cell's corner still meets every box near its path.
MARGIN = 1e-9


@njit_inline
def _span(lo, hi, origin, inv, pad, cells):
    """The cells ``[a, b]`` along one axis that ``[lo - pad, hi + pad]`` overlaps."""
    a = min(max(int(math.floor((lo - pad - origin) * inv)), 0), cells - 1)
    b = min(max(int(math.floor((hi + pad - origin) * inv)), 0), cells - 1)
    return a, b


@njit_inline
def _register(nodes, items, first, x0, y0, x1, y1, inv, pad, nx, ny):
    """Count (``items`` empty) or file (``first``: each cell's next slot) every leaf of the
    forest under the cells its box overlaps; a box beyond the grid is left out."""
    for i in range(nodes.shape[0]):
        if nodes[i, N_LINK] >= 0.0 or nodes[i, 0] - pad > x1 or nodes[i, 2] + pad < x0 \
                or nodes[i, 1] - pad > y1 or nodes[i, 3] + pad < y0:
            continue
        a, b = _span(nodes[i, 0], nodes[i, 2], x0, inv, pad, nx)
        c, d = _span(nodes[i, 1], nodes[i, 3], y0, inv, pad, ny)
        for cy in range(c, d + 1):
            for cx in range(a, b + 1):
                if items.shape[0] == 0:
                    first[cy * nx + cx + 1] += 1
                else:
                    items[first[cy * nx + cx]] = i
                    first[cy * nx + cx] += 1


@njit_inline
def ray_grid(forest, wanted):
    """The grid of the module docstring over the moving tree's box (``roots[0]``), about
    one cell per moving leaf; empty when not ``wanted``, or when the leaves would fill
    more than 8 cells each on average."""
    nodes, roots = forest
    box = np.zeros((1, 8))
    r = roots[0]
    none = (box, np.zeros(1, np.int64), np.empty(0, np.int64))
    if r < 0 or not wanted:
        return none
    end = nodes.shape[0]  # the moving tree's nodes: from its root to the next tree's
    for w in range(1, TREES):
        if roots[w] > r:
            end = min(end, roots[w])
    leaves = (end - r + 1) // 2
    h = math.sqrt(max(nodes[r, 2] - nodes[r, 0], 1e-300) * max(nodes[r, 3] - nodes[r, 1], 1e-300)
                  / leaves)
    # over every tree's box if that takes few enough cells (rays then need no tree search
    # within it: rain2000's container), else over the moving tree's
    for whole in (True, False):
        x0, y0, x1, y1 = nodes[r, 0], nodes[r, 1], nodes[r, 2], nodes[r, 3]
        for w in range(1, TREES):
            if whole and roots[w] >= 0:
                x0, y0 = min(x0, nodes[roots[w], 0]), min(y0, nodes[roots[w], 1])
                x1, y1 = max(x1, nodes[roots[w], 2]), max(y1, nodes[roots[w], 3])
        wx = max(x1 - x0, 1e-300)
        wy = max(y1 - y0, 1e-300)
        nx = min(max(int(math.ceil(wx / h)), 1), 4 * leaves + 16)
        ny = min(max(int(math.ceil(wy / h)), 1), 4 * leaves + 16)
        if nx * ny <= 8 * leaves + 64:
            break
    h = max(wx / nx, wy / ny)  # both axes covered with square cells
    if not h > 0.0 or nx * ny > 8 * leaves + 64:
        return none
    inv = 1.0 / h
    pad = MARGIN * (abs(x0) + abs(y0) + wx + wy)
    x1 = x0 + nx * h  # the cells' extent: one axis reaches beyond the tree's box
    y1 = y0 + ny * h
    first = np.zeros(nx * ny + 1, np.int64)
    _register(nodes, none[2], first, x0, y0, x1, y1, inv, pad, nx, ny)
    for c in range(nx * ny):
        first[c + 1] += first[c]
    if first[nx * ny] > 8 * leaves + 64 or first[nx * ny] == 0:
        return none
    fill = first[:-1].copy()
    items = np.empty(first[nx * ny], np.int64)
    _register(nodes, items, fill, x0, y0, x1, y1, inv, pad, nx, ny)
    box[0, 0] = x0 - pad
    box[0, 1] = y0 - pad
    box[0, 2] = x1 + pad
    box[0, 3] = y1 + pad
    box[0, 4] = h
    box[0, 5] = x0
    box[0, 6] = y0
    box[0, 7] = nx
    return box, first, items
