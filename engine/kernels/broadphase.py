"""Broadphase stage: candidate pairs from the dynamic AABB trees.

Box2D v3 ``src/broad_phase.c`` (``b2FindPairsTask``, ``b2UpdateBroadPhasePairs``): only
proxies whose fat box moved query the trees, and the pairs are de-duplicated and sorted so
the step is deterministic. The trees themselves live in ``aabb_tree`` (array layout there).
"""
import numpy as np

from ._jit import njit
from .aabb_tree import META_ROOT, node_overlaps, stack_push


@njit
def _collect_pairs(aabb, child1, child2, height, user, root, leaf, ua, box, user_body, user_dynamic,
                   keys, n, stack):
    """Append the keys of ``ua``'s pairs with the leaves of one tree that overlap ``box``
    (skipping ``leaf`` itself), growing ``keys`` by doubling."""
    if root < 0:
        return keys, n, stack
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if not node_overlaps(aabb, node, box[0], box[1], box[2], box[3]):
            continue
        if height[node] > 0:
            stack, top = stack_push(stack, top, child2[node])
            stack, top = stack_push(stack, top, child1[node])
            continue
        ub = user[node]
        if node == leaf or user_body[ua] == user_body[ub]:
            continue
        if not user_dynamic[ua] and not user_dynamic[ub]:
            continue
        if n == keys.shape[0]:
            grown = np.empty(2 * n, np.int64)
            grown[:n] = keys
            keys = grown
        keys[n] = (min(ua, ub) << 32) | max(ua, ub)
        n += 1
    return keys, n, stack


@njit
def tree_find_pairs(aabb, parent, child1, child2, height, user, meta,
                    s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta,
                    moved, user_body, user_dynamic):
    """Candidate pairs for the moved leaves of tree T (first seven arrays) against T
    itself and a second tree S (next seven; an empty tree is fine).

    ``moved`` int32 (m,): leaf nodes of T whose (fat) box changed; entries that are not
    live leaves are skipped. ``user_body`` int32 and ``user_dynamic`` bool/uint8, both
    indexed by user id: pairs on one body, and pairs with no dynamic user (static and
    kinematic never collide), are dropped. Returns int64 keys
    ``(min_user << 32) | max_user``, sorted and unique, so two moved leaves that overlap
    give one key and the result does not depend on traversal order (Box2D
    ``b2UpdateBroadPhasePairs`` de-duplicates the same way for determinism).
    """
    keys = np.empty(max(16, 4 * moved.shape[0]), np.int64)
    n = 0
    stack = np.empty(64, np.int32)
    box = np.empty(4, np.float64)
    for i in range(moved.shape[0]):
        leaf = moved[i]
        if leaf < 0 or leaf >= height.shape[0] or height[leaf] != 0:
            continue
        ua = user[leaf]
        box[:] = aabb[leaf]
        keys, n, stack = _collect_pairs(aabb, child1, child2, height, user, meta[META_ROOT], leaf, ua, box,
                                        user_body, user_dynamic, keys, n, stack)
        keys, n, stack = _collect_pairs(s_aabb, s_child1, s_child2, s_height, s_user, s_meta[META_ROOT], -1, ua,
                                        box, user_body, user_dynamic, keys, n, stack)
    keys = np.sort(keys[:n])
    m = 0
    for i in range(n):
        if i == 0 or keys[i] != keys[m - 1]:
            keys[m] = keys[i]
            m += 1
    return keys[:m].copy()
