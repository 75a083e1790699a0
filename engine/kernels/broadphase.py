"""Broadphase stage: candidate pairs from the dynamic AABB trees.

Box2D v3 ``src/broad_phase.c`` (``b2FindPairsTask``, ``b2UpdateBroadPhasePairs``): only
proxies whose fat box moved query the trees. Box2D de-duplicates the pairs with a hash set
and creates contacts in move order; here the keys are sorted instead, which gives the same
determinism and hands the narrowphase its pairs in key order. The tree layout is documented
in ``aabb_tree``.
"""
import numpy as np

from ._jit import njit
from .aabb_tree import META_ROOT, node_overlaps


@njit
def _collect_pairs(aabb, child1, child2, height, user, root, leaf, ua, box, user_body, user_dynamic,
                   keys, n, stack):
    """Append the keys of user ``ua``'s pairs with the leaves of one tree overlapping
    ``box`` (skipping the node ``leaf`` itself); ``keys`` doubles when full."""
    if root < 0:
        return keys, n
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if not node_overlaps(aabb, node, box[0], box[1], box[2], box[3]):
            continue
        if height[node] > 0:
            stack[top] = child2[node]
            stack[top + 1] = child1[node]
            top += 2
            continue
        ub = user[node]
        if node == leaf or user_body[ua] == user_body[ub]:
            continue
        if not user_dynamic[ua] and not user_dynamic[ub]:
            continue
        if n == keys.shape[0]:
            # an element loop, not a slice copy: it compiles several times faster
            grown = np.empty(2 * n, np.int64)
            for i in range(n):
                grown[i] = keys[i]
            keys = grown
        keys[n] = (min(ua, ub) << 32) | max(ua, ub)
        n += 1
    return keys, n


@njit
def _sift_down(a, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and a[child] < a[child + 1]:
            child += 1
        if a[root] >= a[child]:
            return
        a[root], a[child] = a[child], a[root]
        root = child


@njit
def _heapsort(a):
    # np.sort costs ~3 s of compilation here; keys are distinct-or-equal ints, so an
    # unstable in-place heapsort gives the same result (O(n log n), no allocation)
    n = a.shape[0]
    for start in range(n // 2 - 1, -1, -1):
        _sift_down(a, start, n)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, np.int64(0), end)


@njit
def tree_find_pairs(aabb, parent, child1, child2, height, user, meta,
                    s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta,
                    moved, user_body, user_dynamic):
    """Candidate pairs for the moved leaves of tree T (first seven arrays) against T
    itself and a second tree S (next seven; an empty tree is fine).

    ``moved`` int32 (m,): leaf nodes of T whose (fat) box changed; entries that are not
    live leaves are skipped. ``user_body`` int32 and ``user_dynamic`` bool/uint8, both
    indexed by user id: pairs on one body, and pairs with no dynamic user (static and
    kinematic never collide), are dropped. Returns int64 (k,) keys
    ``(min_user << 32) | max_user``, sorted and unique: two moved leaves that overlap
    give one key, and the order does not depend on the traversal.
    """
    keys = np.empty(max(16, 4 * moved.shape[0]), np.int64)
    n = np.int64(0)  # typed, so _collect_pairs is compiled once, not also for literal 0
    depth = 0
    if meta[META_ROOT] >= 0:
        depth = height[meta[META_ROOT]]
    if s_meta[META_ROOT] >= 0:
        depth = max(depth, s_height[s_meta[META_ROOT]])
    stack = np.empty(depth + 2, np.int32)
    box = np.empty(4, np.float64)
    for i in range(moved.shape[0]):
        leaf = np.int64(moved[i])
        if leaf < 0 or leaf >= height.shape[0] or height[leaf] != 0:
            continue
        ua = user[leaf]
        for k in range(4):
            box[k] = aabb[leaf, k]
        keys, n = _collect_pairs(aabb, child1, child2, height, user, meta[META_ROOT], leaf, ua, box,
                                 user_body, user_dynamic, keys, n, stack)
        keys, n = _collect_pairs(s_aabb, s_child1, s_child2, s_height, s_user, s_meta[META_ROOT], np.int64(-1),
                                 ua, box, user_body, user_dynamic, keys, n, stack)
    _heapsort(keys[:n])
    m = 0
    for i in range(n):
        if m == 0 or keys[i] != keys[m - 1]:
            keys[m] = keys[i]
            m += 1
    out = np.empty(m, np.int64)
    for i in range(m):
        out[i] = keys[i]
    return out
