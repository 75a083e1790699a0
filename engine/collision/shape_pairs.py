"""Whole shapes against whole shapes: the kernel behind ``engine.collide``.

A shape is one convex piece or, for a concave polygon, several; every pair of pieces
whose boxes overlap goes through ``manifold.collide_pieces``. Both shapes' pieces are
first copied into one vertex pool, the way the world stores them, so the pair kernel is
the same compiled code in both places.
"""
import math

import numpy as np

from .._jit import njit_exact as njit, njit_exact_inline as njit_inline
from ..geometry.convex import piece_box
from .manifold import collide_pieces
from ..geometry.seam_rows import GHOST_SIZE

__all__ = ["collide_shapes", "unpack_into", "PACK_SIZE"]


# Columns of a shape's packed geometry (``Shape._pack``): one array per shape, so a call
# from Python unboxes two arrays per shape instead of four (measured: 0.55 us of a 3.3 us
# ``collide`` call went to unboxing nine arrays and two pose tuples).
PACK_VX = 0  # core vertex
PACK_NX = 2  # normal of the edge leaving it
PACK_GHOST = 4  # its seam row (GHOST_SIZE columns)
PACK_SIZE = PACK_GHOST + GHOST_SIZE


@njit_inline
def unpack_into(pack, verts, norms, ghost, at):
    """Copy a shape's packed rows (``Shape._pack``) into rows ``at, at + 1, ...`` of a
    vertex pool: core vertices, edge normals, seam rows."""
    for r in range(pack.shape[0]):
        i = at + r
        verts[i, 0] = pack[r, PACK_VX]
        verts[i, 1] = pack[r, PACK_VX + 1]
        norms[i, 0] = pack[r, PACK_NX]
        norms[i, 1] = pack[r, PACK_NX + 1]
        for c in range(GHOST_SIZE):
            ghost[i, c] = pack[r, PACK_GHOST + c]


@njit
def collide_shapes(pack_a, starts_a, ra, xa, ya, ang_a, pack_b, starts_b, rb, xb, yb, ang_b,
                   margin, out):
    """All piece-pair manifolds between two shapes (one piece each, or several).

    Parameters
    ----------
    pack_a : float64 (n, PACK_SIZE)
        The pieces' core vertices, edge normals and seam rows (see
        ``manifold.collide_pieces``), piece ``p`` in rows ``starts_a[p]:starts_a[p + 1]``.
    starts_a : int64 (pieces + 1,)
    ra : float
        The shape's rounding radius (shared by its pieces).
    xa, ya, ang_a : float
        The shape's pose.
    out : float64 (pieces_a * pieces_b, MANIFOLD_SIZE)

    Returns
    -------
    int: how many rows of ``out`` were filled, one per touching piece pair. Pieces of
    multi-piece (concave) shapes are first culled by their bounding boxes.
    """
    pa = (xa, ya, math.cos(ang_a), math.sin(ang_a))
    pb = (xb, yb, math.cos(ang_b), math.sin(ang_b))
    npa = starts_a.shape[0] - 1
    npb = starts_b.shape[0] - 1
    # one pool for both shapes, as the world has (collide_pieces reads pieces by offset)
    na = pack_a.shape[0]
    nb = pack_b.shape[0]
    work = np.empty((4, na + nb, 2))  # one allocation; each work[i] is C-contiguous
    verts = work[0]
    norms = work[1]
    scratch_v = work[2]
    scratch_n = work[3]
    ghost = np.empty((na + nb, GHOST_SIZE))
    unpack_into(pack_a, verts, norms, ghost, 0)
    unpack_into(pack_b, verts, norms, ghost, na)
    many = npa > 1 or npb > 1
    filled = 0
    for i in range(npa):
        sa = starts_a[i]
        ka = starts_a[i + 1] - sa
        a0 = a1 = a2 = a3 = 0.0
        if many:
            a0, a1, a2, a3 = piece_box(verts, sa, ka, ra, pa[0], pa[1], pa[2], pa[3], margin)
        for j in range(npb):
            sb = na + starts_b[j]
            kb = starts_b[j + 1] - starts_b[j]
            if many:
                b0, b1, b2, b3 = piece_box(verts, sb, kb, rb, pb[0], pb[1], pb[2], pb[3], 0.0)
                if a0 > b2 or b0 > a2 or a1 > b3 or b1 > a3:
                    continue
            n = collide_pieces(verts, norms, ghost, sa, ka, ra, pa, sb, kb, rb, pb,
                               margin, 0.0, scratch_v, scratch_n, out[filled])
            if n > 0:
                filled += 1
    return filled
