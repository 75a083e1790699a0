"""The columns of the world's stores: name -> (dtype, trailing shape, fill) for the
body, shape, piece and geometry ``Columns`` (``_store.py``) that ``state.WorldState``
owns. The kernels read them through ``state.BodyArrays`` and ``state.PieceArrays``.
"""
import math

import numpy as np

from .. import constants as K
from ..constants import DYNAMIC, MOVED_BY_STEP
from ..geometry.seam_rows import GHOST_SIZE

__all__ = ["BODY_COLUMNS", "SHAPE_COLUMNS", "PIECE_COLUMNS", "GEOMETRY_COLUMNS", "set_angles"]

# A body's ``moved`` column says its pose changed in the last step (MOVED_BY_STEP: the
# solver or the continuous stage moved it) or that the user set it, added a shape or
# changed its type since (MOVED_BY_HAND): then the broadphase re-boxes its pieces and
# looks for their new pairs, static bodies included. The one mechanism for poses set by
# hand (``mark_placed``).
BODY_COLUMNS = {
    "pos": (np.float64, (2,), 0.0), "angle": (np.float64, (), 0.0),
    # The rotation of ``angle`` (cos, sin), and of ``angle0`` after a step began (cos0,
    # sin0): worked out once where an angle is written (``set_angles``, the solver's
    # write-back, the continuous stage's clamp), read by every stage that places a
    # body's shapes (each once took its own sines and cosines, about ten a body a step).
    "turn": (np.float64, (4,), (1.0, 0.0, 1.0, 0.0)),
    "vel": (np.float64, (2,), 0.0), "angvel": (np.float64, (), 0.0),
    "force": (np.float64, (2,), 0.0), "torque": (np.float64, (), 0.0),
    "mass": (np.float64, (), 0.0), "inv_mass": (np.float64, (), 0.0),
    "inertia": (np.float64, (), 0.0), "inv_inertia": (np.float64, (), 0.0),
    "com": (np.float64, (2,), 0.0), "lin_damp": (np.float64, (), 0.0),
    "ang_damp": (np.float64, (), 0.0), "gravity_scale": (np.float64, (), 1.0),
    "extent": (np.float64, (), 0.0),  # farthest shape point from the centre of mass
    "min_extent": (np.float64, (), np.inf),  # thinnest part (continuous collision)
    "pos0": (np.float64, (2,), 0.0), "angle0": (np.float64, (), 0.0),  # pose at step start
    "moved": (np.uint8, (), MOVED_BY_STEP),  # MOVED_BY_STEP, MOVED_BY_HAND or 0
    "btype": (np.int8, (), DYNAMIC), "bullet": (np.bool_, (), False),
    "fixed_rotation": (np.bool_, (), False),  # never turns: zero inverse inertia
    # Sleeping (``dynamics/sleep.py``): asleep bodies are not simulated; ``island`` is
    # the label of the island a sleeping body fell asleep with (-1 while awake).
    "asleep": (np.uint8, (), 0), "sleep_time": (np.float64, (), 0.0),
    "island": (np.int64, (), -1), "sleep_threshold": (np.float64, (), K.SLEEP_THRESHOLD),
    "can_sleep": (np.bool_, (), True),
    # The lane of a WorldBatch's merged world the body belongs to (``engine/batch``):
    # its gravity row, and the x offset of its leaves in the broadphase trees.
    "lane": (np.int32, (), 0),
}
# An attached shape: its body row and its collision filter (``filter.py``); the row is
# the shape's id. A free row has body -1.
SHAPE_COLUMNS = {
    "body": (np.int32, (), -1), "category": (np.uint64, (), 1),
    "mask": (np.uint64, (), (1 << 64) - 1), "group": (np.int64, (), 0),
    "sensor": (np.uint8, (), 0),
    "one_way": (np.float64, (2,), 0.0),  # unit direction a one-way shape pushes along, or 0
}
# A piece's body type is its body's (``btype[body]``); a free piece row has body -1.
PIECE_COLUMNS = {
    "body": (np.int32, (), -1), "shape": (np.int32, (), -1),
    "sensor": (np.uint8, (), 0),  # its shape is a sensor: its leaf is in the sensor tree
    "start": (np.int64, (), 0), "count": (np.int64, (), 0),
    "radius": (np.float64, (), 0.0), "friction": (np.float64, (), 0.0),
    "restitution": (np.float64, (), 0.0), "surface_speed": (np.float64, (), 0.0),
    "rolling_resistance": (np.float64, (), 0.0), "fat": (np.float64, (4,), 0.0),
    "node": (np.int32, (), -1),
}
GEOMETRY_COLUMNS = {"verts": (np.float64, (2,), 0.0), "norms": (np.float64, (2,), 0.0),
                    "ghost": (np.float64, (GHOST_SIZE,), 0.0)}


def set_angles(bodies, rows, angles):
    """Write ``angles`` (a float, or one per row) to body ``rows`` (a row, a slice or
    an index array) of the body store ``bodies``, and their ``turn``: ``math``'s cosine
    and sine, as the kernels take them (NumPy's may differ in the last bit)."""
    bodies.angle[rows] = angles
    written = bodies.angle[rows]
    if np.ndim(written) == 0:  # one body (create_body, a setter)
        a = float(written)
        bodies.turn[rows, 0], bodies.turn[rows, 1] = math.cos(a), math.sin(a)
    else:
        bodies.turn[rows, :2] = [(math.cos(a), math.sin(a)) for a in written.tolist()]
