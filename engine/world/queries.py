"""World queries: rays, points, boxes and shapes against the world's shapes, and shape casts.

The Python face of ``query_kernels.py`` and ``overlap_kernels.py``: it validates the
arguments (a failed call changes nothing), turns a filter into a mask over the piece
rows (:func:`accepted_pieces`), keeps the arrays the kernels take between calls, and
turns the shape ids the kernels answer with into handles. Each query is one kernel call.

Cached arrays (``state.scratch["queries"]``): the snapshot of the broadphase trees with
exact boxes and the piece table (``query_forest.query_snapshot``; rebuilt on the first
query after a step or a pose set by hand: ``state.epoch``), the pieces of each shape and
the masks of the filters used (rebuilt when shapes or filters change:
``state.shape_epoch``).
"""
import math

import numpy as np

from .._checks import as_non_negative, as_points, as_pose, as_vec2
from .._keys import unique_keys
from ..collision.collide import manifold_from_rows
from ..collision.sweep import ShapeCastHit, require_shape, shape_sweep
from ..geometry.convex import piece_box
from .filter import Filter
from .overlap_kernels import cast_pieces, query_box, query_overlaps, query_points
from .query_forest import PT_SHAPE, query_snapshot
from .query_kernels import ray_cast_batch, ray_cast_every, ray_cast_first
from .ray_grid import empty_grid, ray_grid
from .query_results import PointHit, RayHit, RayHits

_new = tuple.__new__

__all__ = ["LaneFilter", "accepted_pieces", "ray_cast", "ray_cast_all", "ray_cast_many", "query_point",
           "query_point_nearest", "query_aabb", "query_shape", "cast_shape"]


def accepted_pieces(state, filter, sensors):
    """uint8 over the piece rows: 1 where a query with ``filter`` and ``sensors`` may report
    the piece's shape.

    ``filter`` None admits every shape; a :class:`~engine.Filter` admits a shape when
    ``filter.collides_with(shape's filter)`` (Box2D's pair rule, groups included: a query
    filter with a shape's negative group skips that shape's group). Sensor shapes are
    accepted only with ``sensors``. Free piece rows (``pieces.body`` -1) never are.

    Parameters
    ----------
    state : engine.world.state.WorldState
        The world's state (``world._state``).
    filter : Filter or None
        The query's filter.
    sensors : bool
        Whether sensor shapes may be reported.

    Examples
    --------
    >>> from engine import World, Circle, Filter
    >>> world = World()
    >>> a = world.create_body().add_shape(Circle(1.0), filter=Filter(category=2))
    >>> b = world.create_body().add_shape(Circle(1.0))
    >>> accepted_pieces(world._state, Filter(mask=2), False).tolist()
    [1, 0]
    """
    pieces, shapes = state.pieces, state.shapes
    n, m = pieces.used, shapes.used
    ok = np.ones(m, dtype=bool)
    if filter is not None:
        group = shapes.group[:m]
        same = (group == filter.group) & (group != 0)
        crossed = (((shapes.category[:m] & np.uint64(filter.mask)) != 0)
                   & ((shapes.mask[:m] & np.uint64(filter.category)) != 0))
        ok = np.where(same, filter.group > 0, crossed)
    # -- sensors: a sensor shape (``add_shape(..., sensor=True)``) is reported only when
    # ``sensors`` is True (Box2D's queries report sensors unless filtered; pymunk's do).
    if not sensors:
        ok &= shapes.sensor[:m] == 0
    live = pieces.body[:n] >= 0
    accepted = np.zeros(n, dtype=np.uint8)
    accepted[live] = ok[pieces.shape[:n][live]]
    return accepted


class _View:
    """The kernels' arguments, kept until the world changes (module docstring)."""

    __slots__ = ("epoch", "bodies_version", "shape_epoch", "forest", "geo", "shape_pieces", "multi",
                 "masks", "grids")

    def __init__(self):
        self.epoch = self.bodies_version = self.shape_epoch = -1


def _view(state):
    view = state.scratch.get("queries")
    if view is None:
        view = state.scratch["queries"] = _View()
    if view.epoch != state.epoch or view.bodies_version != state.bodies.version:
        b, p, g = state.bodies, state.pieces, state.geometry
        nb, n = b.used, p.used
        trees = tuple((t.aabb, t.child1, t.child2, t.height, t.user, t.meta) for t in state.trees())
        nodes, roots, ptab = query_snapshot(b.pos[:nb], b.angle[:nb], p.body[:n], p.shape[:n],
                                            p.start[:n], p.count[:n], p.radius[:n], g.verts, trees)
        view.forest = (nodes, roots)
        view.geo = (ptab, g.verts, g.norms, g.ghost)
        view.grids = {}
        view.epoch, view.bodies_version = state.epoch, state.bodies.version
    if view.shape_epoch != state.shape_epoch:
        p, m = state.pieces, state.shapes.used
        live = np.flatnonzero(p.shape[:p.used] >= 0)
        rows = live[np.lexsort((p.start[live], p.shape[live]))]  # by shape, in its piece order
        counts = np.bincount(p.shape[rows], minlength=m)
        first = np.zeros(m + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        view.shape_pieces = (first, rows.astype(np.int64))
        view.multi = np.flatnonzero(counts > 1).astype(np.int64)
        view.masks = {}
        view.grids = {}
        view.shape_epoch = state.shape_epoch
    return view


class LaneFilter:
    """A query filter that also keeps to one lane of a ``WorldBatch``'s merged world
    (``engine/batch``): ``filter`` is a :class:`~engine.Filter` or None."""

    __slots__ = ("filter", "lane")

    def __init__(self, filter, lane):
        self.filter, self.lane = filter, int(lane)


def _lane_mask(state, mask, lane):
    """``mask`` limited to the pieces of bodies in ``lane``."""
    n = state.pieces.used
    body = state.pieces.body[:n]
    return mask & (state.bodies.lane[np.maximum(body, 0)] == lane).astype(np.uint8)


def _mask(state, view, filter, sensors):
    if isinstance(filter, LaneFilter):
        key = (filter.filter, sensors, filter.lane)
        mask = view.masks.get(key)
        if mask is None:
            mask = view.masks[key] = _lane_mask(state, _mask(state, view, filter.filter, sensors),
                                                filter.lane)
        return mask
    if filter is not None and not isinstance(filter, Filter):
        raise TypeError(f"filter must be an engine.Filter or None, got {type(filter).__name__}")
    if sensors is not False and sensors is not True and not isinstance(sensors, np.bool_):
        raise TypeError(f"sensors must be True or False, got {sensors!r}")
    key = (filter, sensors)
    mask = view.masks.get(key)
    if mask is None:
        if len(view.masks) >= 16:
            view.masks.clear()
            view.grids.clear()
        mask = view.masks[key] = accepted_pieces(state, filter, bool(sensors))
    return mask


def _limit(value):
    """``max_distance``: a finite float >= 0, or +inf."""
    if isinstance(value, float) and value == math.inf:  # np.float64 is a float too
        return math.inf
    return as_non_negative(value, "max_distance")


def ray_cast(state, start, end, filter=None, sensors=False):
    """``World.ray_cast``: the closest :class:`RayHit` or None."""
    px, py = as_vec2(start, "start")
    ex, ey = as_vec2(end, "end")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    sid, t, x, y, nx, ny = ray_cast_first(px, py, ex, ey, mask, view.forest, view.geo)
    if sid < 0:
        return None
    handle = state.shape_handles[sid]
    # tuple.__new__: RayHit(...) would run the named tuple's Python-level __new__ (0.3 us)
    return _new(RayHit, (handle, handle._body, (x + 0.0, y + 0.0), (nx + 0.0, ny + 0.0), t))


def ray_cast_all(state, start, end, filter=None, sensors=False):
    """``World.ray_cast_all``: every shape's first hit, by fraction, ties by shape id."""
    px, py = as_vec2(start, "start")
    ex, ey = as_vec2(end, "end")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    pieces, hits = ray_cast_every(px, py, ex, ey, mask, view.forest, view.geo)
    if pieces.size == 0:
        return []
    sids = view.geo[0][pieces, PT_SHAPE].astype(np.int64)
    order = np.lexsort((pieces, hits[:, 0], sids))  # per shape, its first hit first
    first = order[np.r_[True, sids[order][1:] != sids[order][:-1]]]
    first = first[np.lexsort((sids[first], hits[first, 0]))]
    dx, dy = ex - px, ey - py
    out = []
    for sid, (t, nx, ny) in zip(sids[first].tolist(), hits[first].tolist()):
        handle = state.shape_handles[sid]
        out.append(RayHit(handle, handle._body, (px + t * dx + 0.0, py + t * dy + 0.0),
                          (nx + 0.0, ny + 0.0), t))
    return out


def ray_cast_many(state, starts, ends, filter=None, sensors=False):
    """``World.ray_cast_many``: :class:`RayHits` of every ray, one kernel call."""
    s = as_points(starts, "starts", min_count=0, copy=False)  # read only, during the call
    e = as_points(ends, "ends", min_count=0, copy=False)
    if s.shape != e.shape:
        raise ValueError(f"starts and ends must have the same shape, got {s.shape} and {e.shape}")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    k = s.shape[0]
    hits = RayHits(np.empty(k), np.empty((k, 2)), np.empty((k, 2)), np.empty(k, dtype=np.int64))
    ray_cast_batch(s, e, mask, view.forest, view.geo, _grid(view, mask) if k >= 256 else _EMPTY_GRID,
                   *hits)
    return hits


_EMPTY_GRID = empty_grid()


def _grid(view, mask):
    """The ray grid of the snapshot's pieces that ``mask`` admits (``ray_grid.py``), built
    on the first ``ray_cast_many`` of 256 rays or more after the snapshot or the masks
    changed. Keyed by the mask's identity: ``view.masks`` keeps every mask alive until
    both dictionaries are cleared together."""
    grid = view.grids.get(id(mask))
    if grid is None:
        grid = view.grids[id(mask)] = ray_grid(view.forest, mask)
    return grid


def _point_hits(state, point, max_distance, filter, sensors, nearest):
    px, py = as_vec2(point, "point")
    limit = _limit(max_distance)
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    sids, hits = query_points(px, py, limit, nearest, mask, view.forest, view.geo, view.shape_pieces)
    out = []
    for k in np.lexsort((sids, hits[:, 0])).tolist():
        handle = state.shape_handles[int(sids[k])]
        d, x, y = hits[k].tolist()
        out.append(PointHit(handle, handle._body, (x + 0.0, y + 0.0), d))
    return out


def query_point(state, point, max_distance=0.0, filter=None, sensors=False):
    """``World.query_point``: :class:`PointHit` of every shape within ``max_distance``."""
    return _point_hits(state, point, max_distance, filter, sensors, False)


def query_point_nearest(state, point, max_distance=math.inf, filter=None, sensors=False):
    """``World.query_point_nearest``: the nearest :class:`PointHit` or None."""
    hits = _point_hits(state, point, max_distance, filter, sensors, True)
    return hits[0] if hits else None


def query_aabb(state, lower, upper, filter=None, sensors=False):
    """``World.query_aabb``: the handles of the shapes whose exact box overlaps, by id."""
    x0, y0 = as_vec2(lower, "lower")
    x1, y1 = as_vec2(upper, "upper")
    if x0 > x1 or y0 > y1:
        raise ValueError(f"lower must be <= upper on both axes, got lower={lower!r}, upper={upper!r}")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    sids = query_box(x0, y0, x1, y1, mask, view.forest, view.geo, view.shape_pieces, view.multi)
    return [state.shape_handles[sid] for sid in np.sort(sids).tolist()]


def query_shape(state, shape, pose, filter=None, sensors=False):
    """``World.query_shape``: ``(handle, Manifold)`` of every shape ``shape`` overlaps."""
    require_shape(shape, "shape")
    x, y, a = as_pose(pose, "pose")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    owners, rows = query_overlaps(shape._pack, shape._starts, shape._radius, x, y, a, mask,
                                  view.forest, view.geo, view.shape_pieces)
    out = []
    for sid in unique_keys(owners).tolist():
        manifold = manifold_from_rows(rows[owners == sid].tolist())
        if manifold is not None:
            out.append((state.shape_handles[sid], manifold))
    return out


def cast_shape(state, shape, pose, translation, filter=None, sensors=False):
    """``World.cast_shape``: the first world shape hit by ``shape`` swept along ``translation``."""
    require_shape(shape, "shape")
    pose = as_pose(pose, "pose")
    tr = as_vec2(translation, "translation")
    view = _view(state)
    mask = _mask(state, view, filter, sensors)
    x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    box = np.array(piece_box(shape._verts, 0, len(shape._verts), shape._radius, x, y, c, s, 0.0))
    lo = np.minimum(box[:2], box[:2] + tr)
    hi = np.maximum(box[2:], box[2:] + tr)
    scale = max(float(np.abs(box).max()) + math.hypot(*tr), 1.0)
    cast = (shape._verts, shape._starts, shape._radius, shape_sweep(shape, pose, tr, 0.0), 1e-9 * scale)
    piece, t, px, py, nx, ny = cast_pieces(cast, (lo[0], lo[1], hi[0], hi[1]), mask, view.forest,
                                           view.geo)
    if piece < 0:
        return None
    handle = state.shape_handles[state.pieces.shape[piece]]
    return ShapeCastHit(handle.body, handle, float(t), (px + 0.0, py + 0.0), (nx + 0.0, ny + 0.0))
