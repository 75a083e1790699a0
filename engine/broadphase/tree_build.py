"""Whole-tree kernels of the dynamic AABB tree: top-down rebuild, quality, validation.

The node pool's layout (seven arrays, ``META_*``) is documented in ``tree_ops.py``, which
holds the per-leaf kernels (insert, remove, move, query). Here:

- ``tree_rebuild``: Box2D v3 ``b2DynamicTree_Rebuild`` (full build, ``B2_TREE_HEURISTIC
  0``: split at the middle of the centroid bounds, ``b2PartitionMid``), used when many
  leaves moved at once;
- ``tree_refit``: every internal box refit to its children's, the structure kept (when
  the leaves moved but kept their neighbours: cheaper than a rebuild), and
  ``tree_refresh``, which refits or rebuilds after many leaves moved;
- ``tree_area_ratio``: Box2D ``b2DynamicTree_GetAreaRatio``, the quality measure;
- ``tree_validate``: every invariant of the pool, for tests (never raises);
- ``many_moved``: when a step moved enough leaves that the pair search's descent pays,
  and ``refit_pays``: when enough moved that a refit beats reinserting each leaf.
"""
import numpy as np

from .._jit import njit, njit_inline
from ..constants import MANY_MOVED_DIVISOR, MANY_MOVED_MIN, REBUILD_GROWTH, REFIT_DIVISOR
from .tree_ops import FREE_HEIGHT, META_FREE, META_LEAVES, META_NODES, META_ROOT, node_perimeter, refit_node

# tree_validate error codes; 0 means the tree is consistent.
VALID = 0
ERR_META = 1  # root or free-list head out of range
ERR_LINK = 2  # a child's parent pointer, or a leaf with children, disagrees
ERR_HEIGHT = 3  # a stored height is not 1 + max(child heights)
ERR_AABB = 4  # an internal box is not exactly the union of its children, or min > max
ERR_CYCLE = 5  # a node is reached twice from the root
ERR_COUNT = 6  # live node or leaf counts differ from meta
ERR_FREE = 7  # the free list meets a live node, repeats, or misses pool slots


@njit
def tree_validate(aabb, parent, child1, child2, height, user, meta):
    """Check every invariant of the tree; return ``(code, node)``: ``VALID`` (0) or an
    ``ERR_*`` code and the first offending node (-1 when none applies). Never raises,
    and terminates on cycles and wild indices, so tests can feed it corrupt trees."""
    cap = height.shape[0]
    root = meta[META_ROOT]
    if root < -1 or root >= cap or meta[META_FREE] < -1 or meta[META_FREE] >= cap:
        return ERR_META, -1
    state = np.zeros(cap, np.uint8)  # 1 = reached from the root, 2 = on the free list
    nodes = 0
    leaves = 0
    if root >= 0:
        if parent[root] != -1:
            return ERR_LINK, root
        stack = np.empty(cap, np.int32)
        stack[0] = root
        state[root] = 1
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            nodes += 1
            if not (aabb[node, 0] <= aabb[node, 2] and aabb[node, 1] <= aabb[node, 3]):
                return ERR_AABB, node
            c1 = child1[node]
            c2 = child2[node]
            if height[node] == 0:
                if c1 != -1 or c2 != -1:
                    return ERR_LINK, node
                leaves += 1
                continue
            if height[node] < 0:
                return ERR_HEIGHT, node
            if c1 < 0 or c1 >= cap or c2 < 0 or c2 >= cap or c1 == c2 or parent[c1] != node or parent[c2] != node:
                return ERR_LINK, node
            if state[c1] != 0 or state[c2] != 0:
                return ERR_CYCLE, node
            if height[c1] < 0 or height[c2] < 0 or height[node] != 1 + max(height[c1], height[c2]):
                return ERR_HEIGHT, node
            if (aabb[node, 0] != min(aabb[c1, 0], aabb[c2, 0]) or aabb[node, 1] != min(aabb[c1, 1], aabb[c2, 1])
                    or aabb[node, 2] != max(aabb[c1, 2], aabb[c2, 2])
                    or aabb[node, 3] != max(aabb[c1, 3], aabb[c2, 3])):
                return ERR_AABB, node
            state[c1] = state[c2] = 1
            stack[top] = c1
            stack[top + 1] = c2
            top += 2
    if nodes != meta[META_NODES] or leaves != meta[META_LEAVES]:
        return ERR_COUNT, -1
    node = meta[META_FREE]
    free = 0
    while node >= 0:
        if node >= cap or state[node] != 0 or height[node] != FREE_HEIGHT:
            return ERR_FREE, node
        state[node] = 2
        free += 1
        node = parent[node]
    if node != -1 or free + nodes != cap:
        return ERR_FREE, node
    return VALID, -1


@njit
def _partition_mid(leaves, cx, cy, s, e):
    """Box2D ``b2PartitionMid`` (its "median split"): Hoare partition of leaves[s:e]
    about the middle of the centroid bounds on their longer axis; halves by count
    when every centroid falls on one side (coincident centroids)."""
    count = e - s
    if count <= 2:
        return s + count // 2
    lox = hix = cx[s]
    loy = hiy = cy[s]
    for i in range(s + 1, e):
        lox = min(lox, cx[i])
        hix = max(hix, cx[i])
        loy = min(loy, cy[i])
        hiy = max(hiy, cy[i])
    c = cx if hix - lox > hiy - loy else cy
    pivot = 0.5 * (lox + hix) if hix - lox > hiy - loy else 0.5 * (loy + hiy)
    i1, i2 = s, e
    while i1 < i2:
        while i1 < i2 and c[i1] < pivot:
            i1 += 1
        while i1 < i2 and c[i2 - 1] >= pivot:
            i2 -= 1
        if i1 < i2:
            j = i2 - 1
            leaves[i1], leaves[j] = leaves[j], leaves[i1]
            cx[i1], cx[j] = cx[j], cx[i1]
            cy[i1], cy[j] = cy[j], cy[i1]
            i1 += 1
            i2 -= 1
    return i1 if s < i1 < e else s + count // 2


@njit
def tree_rebuild(aabb, parent, child1, child2, height, user, meta):
    """Top-down rebuild of the whole tree (Box2D ``b2DynamicTree_Rebuild`` with a full
    build and ``B2_TREE_HEURISTIC 0``), to restore quality after many moves. Leaves
    keep their node indices (callers store them); the n - 1 internal nodes are reused,
    so the pool neither grows nor touches the free list."""
    n = meta[META_LEAVES]
    if n < 2:
        return
    leaves = np.empty(n, np.int64)
    internal = np.empty(n - 1, np.int64)
    nl = ni = 0
    stack = np.empty(n, np.int32)  # height + 1 <= n entries
    stack[0] = meta[META_ROOT]
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if height[node] == 0:
            leaves[nl] = node
            nl += 1
        else:
            internal[ni] = node
            ni += 1
            stack[top] = child2[node]
            stack[top + 1] = child1[node]
            top += 2
    cx = np.empty(n)
    cy = np.empty(n)
    for k in range(n):  # (a loop, not array arithmetic: that costs a warm process's
        leaf = leaves[k]  # first step ~7 ms importing Numba's ufunc machinery)
        cx[k] = 0.5 * (aabb[leaf, 0] + aabb[leaf, 2])
        cy[k] = 0.5 * (aabb[leaf, 1] + aabb[leaf, 3])
    # Breadth-first: a node waiting to be split parks its leaf range [lo, hi) in its
    # child slots, so no work stack is needed; internal[k] always exists before step k.
    root = internal[0]
    parent[root] = -1
    meta[META_ROOT] = root
    child1[root] = 0
    child2[root] = n
    used = 1
    for k in range(n - 1):
        node = internal[k]
        lo, hi = child1[node], child2[node]
        mid = _partition_mid(leaves, cx, cy, lo, hi)
        for half in range(2):
            a = lo if half == 0 else mid
            b = mid if half == 0 else hi
            if b - a == 1:
                ch = leaves[a]
            else:
                ch = internal[used]
                used += 1
                child1[ch] = a
                child2[ch] = b
            parent[ch] = node
            if half == 0:
                child1[node] = ch
            else:
                child2[node] = ch
    # children are always created after their parent: refit in reverse creation order
    for k in range(n - 2, -1, -1):
        refit_node(aabb, child1, child2, height, internal[k])


@njit
def tree_refit(aabb, parent, child1, child2, height, user, meta):
    """Refit every internal node's box to the union of its children's, keeping the
    structure, after leaf boxes changed in place; returns the refit tree's area ratio
    (:func:`tree_area_ratio`: how much worse than a fresh build it has become tells the
    caller when to rebuild instead). O(nodes), against O(n log n) for a rebuild."""
    root = meta[META_ROOT]
    if root < 0 or height[root] == 0:
        return 0.0
    # internal nodes, each before its children; int64 as every other caller's nodes (a
    # node of another integer type would compile refit_node a second time)
    order = np.empty(meta[META_NODES], np.int64)
    stack = np.empty(meta[META_NODES] + 1, np.int32)
    stack[0] = root
    top = 1
    count = 0
    while top > 0:
        top -= 1
        node = stack[top]
        if height[node] > 0:
            order[count] = node
            count += 1
            stack[top] = child1[node]
            stack[top + 1] = child2[node]
            top += 2
    total = 0.0
    for k in range(count - 1, -1, -1):  # children before their parents
        node = order[k]
        refit_node(aabb, child1, child2, height, node)
        if node != root:
            total += node_perimeter(aabb, node)
    return total / node_perimeter(aabb, root)


@njit
def tree_refresh(aabb, parent, child1, child2, height, user, meta, quality):
    """After many leaf boxes changed in place: refit the tree (:func:`tree_refit`), or
    rebuild it top-down when the refit left its area ratio more than ``REBUILD_GROWTH``
    times the ratio it had when last rebuilt, ``quality[0]`` (float64 (1,), kept by the
    caller; 0: never rebuilt), which a rebuild updates. Which pairs are found does not
    depend on the tree's shape, only how fast."""
    if tree_refit(aabb, parent, child1, child2, height, user, meta) > REBUILD_GROWTH * quality[0]:
        tree_rebuild(aabb, parent, child1, child2, height, user, meta)
        quality[0] = tree_area_ratio(aabb, parent, child1, child2, height, user, meta)


@njit
def tree_area_ratio(aabb, parent, child1, child2, height, user, meta):
    """Tree quality (Box2D ``b2DynamicTree_GetAreaRatio``): the summed perimeter of the
    internal nodes below the root over the root's perimeter; lower is better, 0 for
    trees with fewer than two leaves."""
    root = meta[META_ROOT]
    if root < 0 or height[root] == 0:
        return 0.0
    total = 0.0
    for i in range(height.shape[0]):
        if height[i] > 0 and i != root:
            total += node_perimeter(aabb, i)
    return total / node_perimeter(aabb, root)


@njit_inline
def many_moved(moved, leaves):
    """Whether ``moved`` of a tree's ``leaves`` are many (a falling pile): then rebuilding
    the tree once beats reinserting each leaf (``proxies.refresh_proxies``), and one
    descent of the tree against itself beats a query per leaf
    (``find_pairs.tree_find_pairs``). See ``MANY_MOVED_DIVISOR`` in ``constants.py``."""
    return MANY_MOVED_DIVISOR * moved > leaves and moved > MANY_MOVED_MIN


@njit_inline
def refit_pays(moved, leaves):
    """Whether ``moved`` of a tree's ``leaves`` moved leaves are enough that changing
    their boxes in place and refitting the tree (:func:`tree_refresh`) beats reinserting
    each one. See ``REFIT_DIVISOR`` in ``constants.py``."""
    return REFIT_DIVISOR * moved > leaves and moved > MANY_MOVED_MIN
