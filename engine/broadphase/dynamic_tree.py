"""A dynamic AABB tree with a Python face: the broadphase index of the world and its queries.

The work happens on flat arrays in ``engine.broadphase.tree_ops`` (per leaf: insert,
remove, move, query) and ``tree_build`` (whole tree: rebuild, area ratio, validation).
This class owns those arrays, grows the node pool (a kernel cannot reallocate its inputs),
and checks arguments at the boundary so the kernels never see a bad index or box.
"""
import math
from typing import NamedTuple

import numpy as np

from .._memory import copy_into

from . import tree_build as _b
from . import tree_ops as _k
from .find_pairs import tree_find_pairs

__all__ = ["AABBTree"]

_ERRORS = {
    _b.ERR_META: "root or free-list head out of range",
    _b.ERR_LINK: "parent/child links disagree",
    _b.ERR_HEIGHT: "stored height is not 1 + max(child heights)",
    _b.ERR_AABB: "box is not the exact union of its children (or min > max)",
    _b.ERR_CYCLE: "node reached twice from the root",
    _b.ERR_COUNT: "live node or leaf count differs from meta",
    _b.ERR_FREE: "free list meets a live node, repeats, or misses pool slots",
}

class TreeArrays(NamedTuple):
    """One tree's node pool as the kernels take it (layout in ``tree_ops.py``)."""

    aabb: np.ndarray
    parent: np.ndarray
    child1: np.ndarray
    child2: np.ndarray
    height: np.ndarray
    user: np.ndarray
    meta: np.ndarray


class PairRule(NamedTuple):
    """Which leaf pairs may exist (``find_pairs.pair_admitted``): per user (piece) its
    body and shape, per body its type code, per shape its filter bits, and the sorted
    keys ``(min << 32) | max`` of body pairs that must never collide (joined with
    ``collide_connected=False``); per body its lane and per user its box (the exact
    tests of a ``WorldBatch``'s merged world)."""

    body: np.ndarray
    body_type: np.ndarray
    shape: np.ndarray
    category: np.ndarray
    mask: np.ndarray
    group: np.ndarray
    unjoined: np.ndarray
    lane: np.ndarray
    fat: np.ndarray


# Pair keys pack two user ids into one int64 as (a << 32) | b.
_MAX_USER = 2**31 - 1


def _box(aabb):
    try:
        minx, miny, maxx, maxy = (float(v) for v in aabb)
    except (TypeError, ValueError):
        raise TypeError(f"aabb must be 4 numbers (minx, miny, maxx, maxy), got {aabb!r}") from None
    if not all(math.isfinite(v) for v in (minx, miny, maxx, maxy)):
        raise ValueError(f"aabb must be finite, got {aabb!r}")
    if minx > maxx or miny > maxy:
        raise ValueError(f"aabb needs min <= max on both axes, got {aabb!r}")
    return minx, miny, maxx, maxy


class AABBTree:
    """Dynamic bounding-volume tree over axis-aligned boxes, one leaf per user id.

    Insertion follows Box2D v3 (perimeter cost, branch and bound, rotations), so the tree
    stays shallow without rebuilds. Leaves keep their node index for life: store the id
    ``insert`` returns and pass it to ``move`` and ``remove``.

    Parameters
    ----------
    capacity : int, optional
        Initial node-pool size; it doubles when full (n leaves use 2n - 1 nodes).

    Examples
    --------
    >>> tree = AABBTree()
    >>> ids = [tree.insert((i, 0, i + 1, 1), user=10 + i) for i in range(3)]
    >>> tree.move(ids[0], (10, 10, 11, 11))
    >>> tree.remove(ids[2])
    >>> tree.query((-1, -1, 5, 5)).tolist(), tree.leaf_count
    ([11], 2)
    """

    def __init__(self, capacity=16):
        cap = max(int(capacity), 2)
        self._aabb = np.zeros((cap, 4), np.float64)
        self._parent = np.empty(cap, np.int32)
        self._child1 = np.empty(cap, np.int32)
        self._child2 = np.empty(cap, np.int32)
        self._height = np.empty(cap, np.int32)
        self._user = np.empty(cap, np.int64)
        self._meta = np.array([-1, -1, 0, 0], np.int64)
        self._arrays = None
        _k.tree_link_free(*self.arrays, 0)
        self._out = np.empty(64, np.int64)

    @property
    def arrays(self):
        """:class:`TreeArrays` ``(aabb, parent, child1, child2, height, user, meta)`` for
        the kernels.

        The pool is reallocated when it grows, so take this again after ``insert``.

        Examples
        --------
        >>> from engine.broadphase.tree_ops import tree_query
        >>> tree = AABBTree()
        >>> _ = tree.insert((0, 0, 1, 1), user=3)
        >>> out = np.empty(4, np.int64)
        >>> n = tree_query(*tree.arrays, 0.0, 0.0, 2.0, 2.0, out)
        >>> out[:n].tolist()
        [3]
        """
        if self._arrays is None:
            self._arrays = TreeArrays(self._aabb, self._parent, self._child1, self._child2,
                                      self._height, self._user, self._meta)
        return self._arrays

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_arrays"] = None  # views of the pool: rebuilt on first use after a copy
        return state

    def _pool(self):
        return (self._aabb, self._parent, self._child1, self._child2, self._height,
                self._user, self._meta)

    def snapshot(self, out=None):
        """Copies of the node pool (:meth:`restore` puts them back), written into the
        arrays of an earlier snapshot ``out`` when they fit."""
        return tuple(copy_into(a, old) for a, old in zip(self._pool(), out or (None,) * 7))

    def restore(self, saved):
        """Put back a node pool saved by :meth:`snapshot` (copied, so the same snapshot
        can be restored many times; in place when the pool has the saved size)."""
        if saved[0].shape[0] == self.capacity:
            for a, s in zip(self._pool(), saved):
                np.copyto(a, s)
            return
        (self._aabb, self._parent, self._child1, self._child2, self._height, self._user,
         self._meta) = (a.copy() for a in saved)
        self._arrays = None

    @property
    def capacity(self):
        """Size of the node pool (grows by doubling)."""
        return self._height.shape[0]

    @property
    def leaf_count(self):
        """Number of leaves (live user boxes).

        Examples
        --------
        >>> AABBTree().leaf_count
        0
        """
        return int(self._meta[_k.META_LEAVES])

    @property
    def height(self):
        """Height of the root: 0 for an empty tree or a single leaf.

        Examples
        --------
        >>> tree = AABBTree()
        >>> _ = [tree.insert((i, 0, i + 1, 1), user=i) for i in range(4)]
        >>> tree.height
        2
        """
        root = self._meta[_k.META_ROOT]
        return 0 if root < 0 else int(self._height[root])

    def nodes(self):
        """Copies of the live nodes' boxes (k, 4) and heights (k,): leaves have height 0.

        For drawing and inspecting the tree; the order is the node pool's.

        Examples
        --------
        >>> tree = AABBTree()
        >>> _ = tree.insert((0, 0, 1, 1), user=0)
        >>> _ = tree.insert((2, 0, 3, 1), user=1)
        >>> boxes, heights = tree.nodes()
        >>> sorted(heights.tolist()), boxes[heights == 1].tolist()
        ([0, 0, 1], [[0.0, 0.0, 3.0, 1.0]])
        """
        live = self._height >= 0
        return self._aabb[live].copy(), self._height[live].copy()

    def reserve(self, free_nodes):
        """Double the node pool once unless ``free_nodes`` nodes are free (an insert needs 2)."""
        cap = self.capacity
        if cap - self._meta[_k.META_NODES] >= free_nodes:
            return
        new_cap = 2 * cap
        for name in ("_aabb", "_parent", "_child1", "_child2", "_height", "_user"):
            old = getattr(self, name)
            grown = np.zeros((new_cap,) + old.shape[1:], old.dtype)  # no stale memory: runs repeat bit for bit
            grown[:cap] = old
            setattr(self, name, grown)
        self._arrays = None
        _k.tree_link_free(*self.arrays, cap)

    def _leaf(self, node):
        node = int(node)
        if not (0 <= node < self.capacity and self._height[node] == 0):
            raise ValueError(f"node {node} is not a live leaf of this tree")
        return node

    def insert(self, aabb, user):
        """Add a box for ``user`` and return its leaf node id.

        Parameters
        ----------
        aabb : sequence of 4 floats
            ``(minx, miny, maxx, maxy)``, finite, min <= max.
        user : int
            Caller's id for the box (0 .. 2**31 - 1), returned by queries and pairs.

        Returns
        -------
        int
            The leaf node; it stays valid until ``remove``.

        Examples
        --------
        >>> tree = AABBTree()
        >>> tree.insert((0, 0, 1, 1), user=5)
        0
        >>> tree.leaf_count
        1
        """
        box = _box(aabb)
        user = int(user)
        if not 0 <= user <= _MAX_USER:
            raise ValueError(f"user must be in 0 .. {_MAX_USER}, got {user}")
        self.reserve(2)
        return int(_k.tree_insert(*self.arrays, *box, user))

    def remove(self, node):
        """Remove the leaf ``node``; its id may be reused by a later insert.

        Examples
        --------
        >>> tree = AABBTree()
        >>> node = tree.insert((0, 0, 1, 1), user=5)
        >>> tree.remove(node)
        >>> tree.leaf_count
        0
        """
        _k.tree_remove(*self.arrays, self._leaf(node))

    def move(self, node, aabb):
        """Replace the box of leaf ``node`` (reinsertion); ``node`` stays the same id.

        Examples
        --------
        >>> tree = AABBTree()
        >>> node = tree.insert((0, 0, 1, 1), user=5)
        >>> tree.move(node, (3, 3, 4, 4))
        >>> tree.query((3.5, 3.5, 3.5, 3.5)).tolist()
        [5]
        """
        node = self._leaf(node)
        _k.tree_move(*self.arrays, node, *_box(aabb))

    def query(self, aabb):
        """User ids of the boxes overlapping ``aabb`` (touching counts), sorted.

        Examples
        --------
        >>> tree = AABBTree()
        >>> _ = tree.insert((0, 0, 1, 1), user=2)
        >>> _ = tree.insert((1, 0, 2, 1), user=1)
        >>> tree.query((1, 0, 1, 0)).tolist()
        [1, 2]
        """
        box = _box(aabb)
        count = _k.tree_query(*self.arrays, *box, self._out)
        if count > self._out.shape[0]:
            self._out = np.empty(2 * count, np.int64)
            count = _k.tree_query(*self.arrays, *box, self._out)
        return np.sort(self._out[:count])

    def find_pairs(self, moved, user_body, body_type, other=None):
        """Pair keys ``(min_user << 32) | max_user`` for the leaves in ``moved``.

        Each moved leaf's box is tested against this tree and ``other`` (e.g. the static
        tree). Pairs on the same body, and pairs with no dynamic user, are dropped.

        Parameters
        ----------
        moved : array of int
            Leaf node ids of this tree whose boxes changed.
        user_body : array of int
            Body index per user id.
        body_type : array of int
            Type code of each body (``engine.constants.STATIC``, ``KINEMATIC`` or
            ``DYNAMIC``).
        other : AABBTree, optional

        Returns
        -------
        numpy.ndarray of int64, sorted and unique.

        Examples
        --------
        >>> dyn, ground = AABBTree(), AABBTree()
        >>> a = dyn.insert((0, 0, 1, 1), user=0)
        >>> _ = dyn.insert((0.5, 0, 1.5, 1), user=1)
        >>> _ = ground.insert((-5, -1, 5, 0), user=2)
        >>> keys = dyn.find_pairs([a], [0, 1, 2], [2, 2, 0], other=ground)
        >>> [(int(k >> 32), int(k & 0xFFFFFFFF)) for k in keys]
        [(0, 1), (0, 2)]
        """
        other = _empty_tree() if other is None else other
        moved = np.ascontiguousarray(moved, np.int32)
        user_body = np.ascontiguousarray(user_body, np.int32)
        body_type = np.ascontiguousarray(body_type, np.int8)
        if user_body.ndim != 1 or body_type.ndim != 1:
            raise ValueError("user_body and body_type must be 1-D")
        for tree in (self, other):
            if tree.leaf_count and int(tree._user.max()) >= user_body.shape[0]:
                raise ValueError("a user id in the trees has no entry in user_body")
        if user_body.size and (user_body.min() < 0 or user_body.max() >= body_type.shape[0]):
            raise ValueError("a body index in user_body has no entry in body_type")
        boxes = np.zeros((user_body.shape[0], 4))  # each user's own box: its leaf's
        for tree in (self, other):
            leaves = np.flatnonzero(tree._height == 0)  # free nodes have height -1
            boxes[tree._user[leaves]] = tree._aabb[leaves]
        everything = PairRule(user_body, body_type, np.zeros(user_body.shape[0], np.int32),
                              np.ones(1, np.uint64), np.full(1, ~np.uint64(0)), np.zeros(1, np.int64),
                              np.empty(0, np.int64), np.zeros(body_type.shape[0], np.int32), boxes)
        return tree_find_pairs(self.arrays, other.arrays, moved, everything,
                               np.full(4, ~np.uint64(0)))  # (every leaf searches both trees)

    def rebuild(self):
        """Rebuild top-down (mid split on the longer centroid axis); leaf ids are kept.

        Examples
        --------
        >>> tree = AABBTree()
        >>> nodes = [tree.insert((i, 0, i + 1, 1), user=i) for i in range(8)]
        >>> tree.rebuild()
        >>> tree.height, tree.query((2.5, 0, 2.5, 0)).tolist()
        (3, [2])
        """
        _b.tree_rebuild(*self.arrays)

    def area_ratio(self):
        """Quality metric: summed perimeter of internal nodes below the root / root
        perimeter (Box2D ``b2DynamicTree_GetAreaRatio``); lower is better.

        Examples
        --------
        >>> AABBTree().area_ratio()
        0.0
        """
        return float(_b.tree_area_ratio(*self.arrays))

    def validate(self):
        """Raise ``AssertionError`` naming the first broken invariant, if any.

        Examples
        --------
        >>> tree = AABBTree()
        >>> _ = tree.insert((0, 0, 1, 1), user=0)
        >>> tree.validate()
        """
        code, node = _b.tree_validate(*self.arrays)
        if code != _b.VALID:
            raise AssertionError(f"AABB tree invalid at node {node}: {_ERRORS.get(int(code), code)}")


_EMPTY = []


def _empty_tree():
    if not _EMPTY:
        _EMPTY.append(AABBTree(2))
    return _EMPTY[0]
