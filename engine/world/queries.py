"""World queries: which of the world's shapes a swept shape hits first (``World.cast_shape``).

Candidates come from both broadphase trees and are tested exactly per piece
(``query_kernels.py``); the answer names handles, never rows.
"""
import math

import numpy as np

from .._checks import as_pose, as_vec2
from ..collision.sweep import ShapeCastHit, require_shape, shape_sweep
from ..geometry.convex import piece_box
from .query_kernels import cast_pieces

__all__ = ["cast_shape"]


def cast_shape(state, shape, pose, translation):
    """``World.cast_shape``: the first world shape hit by ``shape`` swept along ``translation``."""
    require_shape(shape, "shape")
    pose = as_pose(pose, "pose")
    tr = as_vec2(translation, "translation")
    x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    box = np.array(piece_box(shape._verts, 0, len(shape._verts), shape._radius, x, y, c, s, 0.0))
    lo = np.minimum(box[:2], box[:2] + tr)
    hi = np.maximum(box[2:], box[2:] + tr)
    scale = max(float(np.abs(box).max()) + math.hypot(*tr), 1.0)
    cast = (shape._verts, shape._starts, shape._radius, shape_sweep(shape, pose, tr, 0.0), 1e-9 * scale)
    piece, t, px, py, nx, ny = cast_pieces(cast, (lo[0], lo[1], hi[0], hi[1]), state.body_arrays(),
                                           state.piece_arrays(),
                                           (state.tree.arrays, state.static_tree.arrays))
    if piece < 0:
        return None
    handle = shape_of_piece(state, piece)
    return ShapeCastHit(handle.body, handle, float(t), (px + 0.0, py + 0.0), (nx + 0.0, ny + 0.0))


def shape_of_piece(state, piece):
    """The shape handle that owns piece row ``piece``."""
    body = state.handles[state.pieces.body[piece]]
    return next(h for h in body._shapes if piece in h._pieces)
