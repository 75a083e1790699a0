"""A uniform grid over the snapshot's leaves, for ``ray_cast_many``
(``query_kernels.ray_cast_batch``, ``_grid_rays``).

A tree search starts every ray at the root: on rain2000 about 27 child boxes tested a
ray to find the 1.25 pieces it casts, most of them on the way down to where the ray
starts. A grid with cells about a moving piece's size goes straight to the ray's first
cell and walks the cells it crosses, nearest first (Amanatides and Woo), until the next
cell begins beyond the best hit: on rain2000 1.7 cells, 4 boxes and 1.6 casts a ray.
Built from the snapshot's exact leaf boxes, O(pieces): about 0.15 ms for rain2000, so
only for 256 rays or more, and kept with the snapshot for the next call with the same
filter (``queries.py``): the first ``ray_cast_many`` after a step pays for it.

The grid covers every tree's box when that takes at most 8 cells a moving leaf (rain2000:
the container), else the moving tree's box only; every leaf of the forest (moving,
static, sensor) is filed under each cell its box overlaps, a box reaching beyond the
grid under the cells it overlaps. A ray that runs outside the grid before its best hit
is searched in the trees as well (``_grid_rays`` marks it).

Only the pieces the query's ``mask`` admits are filed, and each entry carries its box
and piece: the walk reads one contiguous run of entries a cell and never the nodes, the
piece table or the mask (on rain2000 this and the skip field below took the walk from
about 250 to 190 ns a ray).

Empty space is crossed in jumps: ``skip[c]`` is 0 for a cell holding entries, else the
Chebyshev distance (in cells) to the nearest cell that does or to the grid's border,
whichever is nearer (a two-pass chamfer transform, exact for that metric). The
``2 skip - 1`` cells square around an empty cell are all empty and inside the grid, so
a ray may go straight to where it leaves that square: rays that miss cross the empty
upper half of a landed pile in a few jumps instead of dozens of cells.

``grid = (box, first, ibox, ipiece, skip)``: ``box`` float64 (1, 8) ``(x0, y0, x1, y1,
h, ox, oy, nx)`` (the grid's box with a margin, laid out as a node row so that a slab
test reads it; the cell size; the corner of cell 0; the cells in a row), ``first``
int32 (cells + 1) where each cell's entries start, cells row by row, ``ibox`` float64
(entries, 4) each entry's exact leaf box, ``ipiece`` int32 (entries,) its piece row,
``skip`` int8 (cells,), at most ``SKIP_CAP``. An empty grid (``first`` of size 1)
means: search the trees instead (no moving tree, pieces too large for the cells, or nothing the mask admits).
"""
import math

import numpy as np

from .._jit import njit_exact as njit, njit_exact_inline as njit_inline
from .query_forest import N_LINK, TREES

# The largest jump, in cells (``skip`` is int8: the grid's arrays are small, so that more
# of them stays in the cache while the rays walk).
SKIP_CAP = 127

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
def _register(nodes, mask, ibox, ipiece, first, x0, y0, x1, y1, inv, pad, nx, ny):
    """Count (``ipiece`` empty) or file (``first``: each cell's next slot) every leaf of
    the forest whose piece ``mask`` admits under the cells its box overlaps; a box beyond
    the grid is left out."""
    for i in range(nodes.shape[0]):
        if nodes[i, N_LINK] >= 0.0 or nodes[i, 0] - pad > x1 or nodes[i, 2] + pad < x0 \
                or nodes[i, 1] - pad > y1 or nodes[i, 3] + pad < y0:
            continue
        q = int(-1.0 - nodes[i, N_LINK])
        if mask[q] == 0:
            continue
        a, b = _span(nodes[i, 0], nodes[i, 2], x0, inv, pad, nx)
        c, d = _span(nodes[i, 1], nodes[i, 3], y0, inv, pad, ny)
        for cy in range(c, d + 1):
            for cx in range(a, b + 1):
                if ipiece.shape[0] == 0:
                    first[cy * nx + cx + 1] += 1
                else:
                    e = first[cy * nx + cx]
                    ibox[e, 0] = nodes[i, 0]
                    ibox[e, 1] = nodes[i, 1]
                    ibox[e, 2] = nodes[i, 2]
                    ibox[e, 3] = nodes[i, 3]
                    ipiece[e] = q
                    first[cy * nx + cx] += 1


@njit_inline
def _skip_field(first, nx, ny):
    """``skip`` of the module docstring: two chamfer passes over the cells (each takes the
    smaller of its own value and a neighbour's plus one, over the 4 neighbours visited
    before it), seeded with 0 in a cell holding entries and the distance to the border
    plus one elsewhere."""
    d = np.empty(nx * ny, np.int8)
    for cy in range(ny):
        for cx in range(nx):
            c = cy * nx + cx
            border = min(min(cx, nx - 1 - cx), min(cy, ny - 1 - cy)) + 1
            d[c] = 0 if first[c + 1] > first[c] else min(border, SKIP_CAP)
    for cy in range(ny):  # forwards: left, and the three cells below
        for cx in range(nx):
            c = cy * nx + cx
            v = d[c]
            if cx > 0:
                v = min(v, d[c - 1] + 1)
            if cy > 0:
                v = min(v, d[c - nx] + 1)
                if cx > 0:
                    v = min(v, d[c - nx - 1] + 1)
                if cx < nx - 1:
                    v = min(v, d[c - nx + 1] + 1)
            d[c] = v
    for cy in range(ny - 1, -1, -1):  # backwards: right, and the three cells above
        for cx in range(nx - 1, -1, -1):
            c = cy * nx + cx
            v = d[c]
            if cx < nx - 1:
                v = min(v, d[c + 1] + 1)
            if cy < ny - 1:
                v = min(v, d[c + nx] + 1)
                if cx < nx - 1:
                    v = min(v, d[c + nx + 1] + 1)
                if cx > 0:
                    v = min(v, d[c + nx - 1] + 1)
            d[c] = v
    return d


def empty_grid():
    """A grid that sends every ray to the trees (fewer than 256 rays)."""
    return (np.zeros((1, 8)), np.zeros(1, np.int32), np.empty((0, 4)), np.empty(0, np.int32),
            np.empty(0, np.int8))


@njit
def ray_grid(forest, mask):
    """The grid of the module docstring over the moving tree's box (``roots[0]``), about
    one cell per moving leaf, of the pieces ``mask`` admits; empty when the leaves would
    fill more than 8 cells each on average."""
    nodes, roots = forest
    box = np.zeros((1, 8))
    r = roots[0]
    none = (box, np.zeros(1, np.int32), np.empty((0, 4)), np.empty(0, np.int32), np.empty(0, np.int8))
    if r < 0:
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
    first = np.zeros(nx * ny + 1, np.int32)
    _register(nodes, mask, none[2], none[3], first, x0, y0, x1, y1, inv, pad, nx, ny)
    for c in range(nx * ny):
        first[c + 1] += first[c]
    if first[nx * ny] > 8 * leaves + 64 or first[nx * ny] == 0:
        return none
    fill = first[:-1].copy()
    ibox = np.empty((first[nx * ny], 4))
    ipiece = np.empty(first[nx * ny], np.int32)
    _register(nodes, mask, ibox, ipiece, fill, x0, y0, x1, y1, inv, pad, nx, ny)
    box[0, 0] = x0 - pad
    box[0, 1] = y0 - pad
    box[0, 2] = x1 + pad
    box[0, 3] = y1 + pad
    box[0, 4] = h
    box[0, 5] = x0
    box[0, 6] = y0
    box[0, 7] = nx
    return box, first, ibox, ipiece, _skip_field(first, nx, ny)
