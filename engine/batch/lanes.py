"""Per-world changes to a ``WorldBatch``'s merged world: the lanes a call names, their
gravity, materials, poses and velocities, and resets. Every change validates all its
input before it writes anything, and does to each body what the ``Body`` setters do
(wake its island; a pose set by hand makes its pieces look for pairs again).
"""
import numpy as np

from .. import constants as K
from .._checks import as_array
from ..world import attach, sleeping
from ..world.columns import set_angles

__all__ = ["as_lanes", "as_lane_vectors", "set_materials", "set_state", "apply_forces",
           "initial_rows", "reset"]


def as_lanes(worlds, n):
    """Sorted unique lane indices from ``worlds`` (None: all; ints; or n booleans)."""
    if worlds is None:
        return np.arange(n, dtype=np.int64)
    arr = np.asarray(worlds)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ValueError(f"a boolean worlds mask must have shape ({n},), got {arr.shape}")
        return np.flatnonzero(arr).astype(np.int64)
    if arr.ndim > 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"worlds must be ints or a boolean mask, got {worlds!r}")
    arr = arr.astype(np.int64).ravel()
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        raise IndexError(f"world indices must be in [0, {n}), got {arr.min()}..{arr.max()}")
    return np.unique(arr)


def as_lane_vectors(value, n, name, limit):
    """A validated (n, 2) float array from (n, 2) or one (2,) vector."""
    return as_array(value, name, (n, 2), limit).copy()


def _rows(lanes, per):
    """Row indices ``lane * per + j`` of the chosen lanes, lane after lane."""
    return (lanes[:, None] * per + np.arange(per)[None, :]).ravel()


def set_materials(state, per_world, lanes, friction, restitution):
    """Friction and restitution of the chosen lanes' shapes (see WorldBatch)."""
    s = per_world[1]
    shape = (lanes.size, s)
    f = None if friction is None else _per_shape(friction, shape, "friction", K.MAX_FRICTION, 0.0)
    e = None if restitution is None else _per_shape(restitution, shape, "restitution", 1.0, 0.0)
    state.check_unlocked()
    handles = state.shape_handles
    for k, lane in enumerate(lanes):
        for j in range(s):
            h = handles[lane * s + j]
            if h is None:
                continue
            if f is not None:
                h._friction = float(f[k, j])
                state.pieces.friction[h._pieces] = f[k, j]
            if e is not None:
                h._restitution = float(e[k, j])
                state.pieces.restitution[h._pieces] = e[k, j]
    if e is not None:
        state.note_restitution(e)


def _per_shape(value, shape, name, limit, low):
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[:, None]
    return as_array(arr, name, shape, limit, low)


def set_state(state, per_world, lanes, positions, angles, velocities, angular_velocities):
    """Poses and velocities of the chosen lanes' bodies (see WorldBatch.set_state)."""
    b = per_world[0]
    k = lanes.size
    new = {}
    if positions is not None:
        new["pos"] = as_array(positions, "positions", (k, b, 2), K.MAX_COORDINATE).reshape(-1, 2)
    if angles is not None:
        new["angle"] = as_array(angles, "angles", (k, b), np.inf).ravel()
    if velocities is not None:
        new["vel"] = as_array(velocities, "velocities", (k, b, 2), K.MAX_INPUT_SPEED).reshape(-1, 2)
    if angular_velocities is not None:
        new["angvel"] = as_array(angular_velocities, "angular_velocities", (k, b),
                                K.MAX_INPUT_ANGULAR_SPEED).ravel()
    state.check_unlocked()
    rows = _rows(lanes, b)
    for name, values in new.items():  # as the Body setters do, static bodies included
        getattr(state.bodies, name)[rows] = values
    if "angle" in new:
        set_angles(state.bodies, rows, new["angle"])
    placed = "pos" in new or "angle" in new
    for i in rows:
        if placed:
            state.mark_placed(int(i))
        else:
            sleeping.wake(state, int(i))
    if placed:
        _reinsert(state, rows)


def apply_forces(state, per_world, lanes, forces, torques):
    """Forces (and torques) on the chosen lanes' bodies, as ``Body.apply_force`` and
    ``Body.apply_torque`` add them (see WorldBatch.apply_forces)."""
    b = per_world[0]
    k = lanes.size
    rows = _rows(lanes, b)
    bodies = state.bodies
    f = as_array(forces, "forces", (k, b, 2), K.MAX_FORCE).reshape(-1, 2) + bodies.force[rows]
    as_array(f, "the force applied this step", f.shape, K.MAX_FORCE)
    t = bodies.torque[rows]
    if torques is not None:
        t = as_array(torques, "torques", (k, b), K.MAX_TORQUE).ravel() + t
        as_array(t, "the torque applied this step", t.shape, K.MAX_TORQUE)
    state.check_unlocked()
    bodies.force[rows] = f
    bodies.torque[rows] = t
    bodies.sleep_time[rows] = 0.0
    for i in rows[bodies.asleep[rows] != 0]:
        sleeping.wake(state, int(i))


def _reinsert(state, rows):
    """Re-box the pieces of body ``rows`` placed by hand (as ``Body.position`` does)."""
    pieces = np.flatnonzero(np.isin(state.pieces.body[: state.pieces.used], rows))
    attach.reinsert_pieces(state, pieces)


def initial_rows(state):
    """Copies of every lane's body rows, piece boxes and joint rows (for reset)."""
    b, p, j = state.bodies, state.pieces, state.joints.columns
    return {"bodies": {n: getattr(b, n)[: b.used].copy() for n in b.names()},
            "fat": p.fat[: p.used].copy(), "joints": j.data[: j.used].copy()}


def reset(state, per_world, lanes, saved):
    """Put the chosen lanes back to ``saved`` (:func:`initial_rows` when built)."""
    b, s, p, j = per_world
    state.check_unlocked()
    bodies, pieces = state.bodies, state.pieces
    for lane in lanes:
        rows = slice(lane * b, (lane + 1) * b)
        for name, values in saved["bodies"].items():
            getattr(bodies, name)[rows] = values[rows]
        island = bodies.island[rows]  # fresh labels for the lane's sleeping islands
        for label in np.unique(island[island >= 0]):
            island[island == label] = state.next_island
            state.next_island += 1
        pieces.fat[lane * p:(lane + 1) * p] = saved["fat"][lane * p:(lane + 1) * p]
        state.joints.columns.data[lane * j:(lane + 1) * j] = saved["joints"][lane * j:(lane + 1) * j]
    _drop_lane_pairs(state, lanes, per_world)
    _move_leaves(state, _rows(lanes, p))
    bodies.moved[_rows(lanes, b)] = K.MOVED_BY_HAND
    state.placed = True
    state.awake = -1
    state.asleep_count = int(np.count_nonzero(bodies.asleep[: bodies.used]))
    state.touch()


def _move_leaves(state, rows):
    """Move the tree leaves of live piece ``rows`` to their fat boxes (moved by lane)."""
    P, B = state.pieces, state.bodies
    for q in rows[P.body[rows] >= 0]:
        f = P.fat[q]
        shift = B.lane[P.body[q]] * K.LANE_WIDTH
        state.tree_of(q).move(int(P.node[q]), (f[0] + shift, f[1], f[2] + shift, f[3]))


def _drop_lane_pairs(state, lanes, per_world):
    """Forget the chosen lanes' pairs, and what touched or overlapped there (no events)."""
    b, s, p, _ = per_world
    pa, _ = state.pairs.pieces()
    state.pairs.keep(~np.isin(pa // p, lanes))
    for name in ("touching", "overlapping"):
        keys = getattr(state, name)
        setattr(state, name, keys[~np.isin((keys >> 32) // s, lanes)])
