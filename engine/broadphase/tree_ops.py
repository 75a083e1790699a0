"""Dynamic AABB tree (bounding volume hierarchy) in flat arrays: the broadphase index.

This module holds the node pool's layout and the per-leaf kernels: insert, remove, move,
query. Box2D v3 ``src/dynamic_tree.c``: perimeter (2D surface-area heuristic) insertion by
branch and bound (``b2FindBestSibling``) and rotations on the way up (``b2RotateNodes``).
The whole-tree kernels (top-down rebuild, area ratio, validation) are in ``tree_build.py``.
Storage is a node pool of capacity ``cap``; every public kernel takes these seven arrays
first, so callers write ``k(*tree.arrays, ...)``:

- ``aabb``    float64 (cap, 4): [minx, miny, maxx, maxy]; internal nodes hold exactly
  the union of their children (min/max is exact, so tests compare with ``==``).
- ``parent``  int32 (cap,): parent node, -1 at the root. A free node keeps the next
  free node here instead (the free list needs no array of its own).
- ``child1``, ``child2`` int32 (cap,): -1 for leaves and free nodes.
- ``height``  int32 (cap,): 0 for leaves, 1 + max(children) for internal nodes, and
  ``FREE_HEIGHT`` (-1) for free nodes, so "is this a live leaf" is one comparison.
- ``user``    int64 (cap,): the leaf's user id (a shape primitive index), -1 elsewhere.
- ``meta``    int64 (META_SIZE,): see the ``META_*`` indices below.

Kernels never grow the pool: the owner guarantees ``cap - meta[META_NODES] >= 2`` before
an insert (a leaf and its new parent). Move and remove never need a free node.
Overlap tests treat boxes as closed: touching boxes overlap (Box2D ``b2AABB_Overlaps``).
Only ``tree_validate`` accepts corrupt trees; the others size their stacks by the heights.
"""
import numpy as np

from .._jit import njit, njit_inline

META_ROOT = 0  # root node, -1 when the tree is empty
META_FREE = 1  # head of the free list, -1 when the pool is full
META_NODES = 2  # live nodes (leaves + internal)
META_LEAVES = 3  # live leaves
META_SIZE = 4

FREE_HEIGHT = -1


@njit
def tree_link_free(aabb, parent, child1, child2, height, user, meta, start):
    """Push nodes ``start .. cap-1`` (new storage) onto the free list, lowest first out.
    To initialise: meta = [-1, -1, 0, 0], then start = 0."""
    cap = height.shape[0]
    for i in range(start, cap):
        parent[i] = i + 1 if i + 1 < cap else meta[META_FREE]
        child1[i] = -1
        child2[i] = -1
        height[i] = FREE_HEIGHT
        user[i] = -1
    if start < cap:
        meta[META_FREE] = start


@njit
def _alloc(parent, child1, child2, height, user, meta):
    # child and user slots of free nodes are already -1 (tree_link_free, _release)
    node = meta[META_FREE]
    meta[META_FREE] = parent[node]
    parent[node] = -1
    height[node] = 0
    meta[META_NODES] += 1
    return node


@njit
def _release(parent, child1, child2, height, user, meta, node):
    parent[node] = meta[META_FREE]
    child1[node] = -1
    child2[node] = -1
    height[node] = FREE_HEIGHT
    user[node] = -1
    meta[META_FREE] = node
    meta[META_NODES] -= 1


@njit
def node_perimeter(aabb, i):
    """Perimeter of node ``i``'s box: the 2D surface-area heuristic's cost."""
    return 2.0 * ((aabb[i, 2] - aabb[i, 0]) + (aabb[i, 3] - aabb[i, 1]))


@njit
def _union_perimeter(aabb, i, j):
    w = max(aabb[i, 2], aabb[j, 2]) - min(aabb[i, 0], aabb[j, 0])
    h = max(aabb[i, 3], aabb[j, 3]) - min(aabb[i, 1], aabb[j, 1])
    return 2.0 * (w + h)


@njit
def refit_node(aabb, child1, child2, height, node):
    """Set an internal node's box to the union of its children's, and its height."""
    c1 = child1[node]
    c2 = child2[node]
    aabb[node, 0] = min(aabb[c1, 0], aabb[c2, 0])
    aabb[node, 1] = min(aabb[c1, 1], aabb[c2, 1])
    aabb[node, 2] = max(aabb[c1, 2], aabb[c2, 2])
    aabb[node, 3] = max(aabb[c1, 3], aabb[c2, 3])
    height[node] = 1 + max(height[c1], height[c2])


@njit
def _replace_child(child1, child2, node, old, new):
    if child1[node] == old:
        child1[node] = new
    else:
        child2[node] = new


@njit
def _child_bound(aabb, height, child, leaf, area_d, inherited, best, best_cost):
    """One child's share of ``_find_best_sibling``: a leaf child is a final candidate;
    an internal child gets the lower bound on any sibling inside it."""
    direct = _union_perimeter(aabb, child, leaf)
    if height[child] == 0:
        if direct + inherited < best_cost:
            return direct, 0.0, np.inf, child, direct + inherited
        return direct, 0.0, np.inf, best, best_cost
    area = node_perimeter(aabb, child)
    return direct, area, inherited + direct + min(area_d - area, 0.0), best, best_cost


@njit
def _center_dist2(aabb, i, x, y):
    return (0.5 * (aabb[i, 0] + aabb[i, 2]) - x) ** 2 + (0.5 * (aabb[i, 1] + aabb[i, 3]) - y) ** 2


@njit
def _find_best_sibling(aabb, child1, child2, height, root, leaf):
    """Box2D ``b2FindBestSibling``: the node whose pairing with ``leaf`` adds the least
    total internal perimeter. One greedy descent; a child is entered only while its
    lower bound (inherited growth + its own growth + the best shrink it could still
    offer) can beat the best cost seen so far."""
    area_d = node_perimeter(aabb, leaf)
    area_base = node_perimeter(aabb, root)
    direct = _union_perimeter(aabb, root, leaf)
    inherited = 0.0
    best = root
    best_cost = direct
    index = root
    while height[index] > 0:
        if direct + inherited < best_cost:
            best = index
            best_cost = direct + inherited
        # every node below pays for the growth of this one
        inherited += direct - area_base
        c1 = np.int64(child1[index])
        c2 = np.int64(child2[index])
        d1, a1, lower1, best, best_cost = _child_bound(aabb, height, c1, leaf, area_d, inherited, best, best_cost)
        d2, a2, lower2, best, best_cost = _child_bound(aabb, height, c2, leaf, area_d, inherited, best, best_cost)
        leaf1 = height[c1] == 0
        if (leaf1 and height[c2] == 0) or (best_cost <= lower1 and best_cost <= lower2):
            break
        if lower1 == lower2 and not leaf1:
            # both children contain the leaf: the bound cannot choose, the nearer can
            x = 0.5 * (aabb[leaf, 0] + aabb[leaf, 2])
            y = 0.5 * (aabb[leaf, 1] + aabb[leaf, 3])
            lower1 = _center_dist2(aabb, c1, x, y)
            lower2 = _center_dist2(aabb, c2, x, y)
        if lower1 < lower2 and not leaf1:
            index, area_base, direct = c1, a1, d1
        else:
            index, area_base, direct = c2, a2, d2
    return best


@njit
def _rotate(aabb, parent, child1, child2, height, a):
    """Box2D ``b2RotateNodes``: swap a child x of ``a`` with a grandchild y under the
    other child p when that shrinks p. Only p's box changes (a keeps the same leaves),
    so the saving is perimeter(p) - perimeter(x | sibling of y). Order of the four
    candidates (BF, BG, CD, CE) and strict improvement keep it deterministic."""
    if height[a] < 2:
        return
    best_gain = 0.0
    bx = by = bp = np.int64(-1)
    for side in range(2):
        x = np.int64(child1[a] if side == 0 else child2[a])
        p = np.int64(child2[a] if side == 0 else child1[a])
        if height[p] == 0:
            continue
        base = node_perimeter(aabb, p)
        for k in range(2):
            y = np.int64(child1[p] if k == 0 else child2[p])
            z = np.int64(child2[p] if k == 0 else child1[p])
            gain = base - _union_perimeter(aabb, x, z)
            if gain > best_gain:
                best_gain = gain
                bx = x
                by = y
                bp = p
    if bx < 0:
        return
    _replace_child(child1, child2, a, bx, by)
    _replace_child(child1, child2, bp, by, bx)
    parent[bx] = bp
    parent[by] = a
    refit_node(aabb, child1, child2, height, bp)
    height[a] = 1 + max(height[child1[a]], height[child2[a]])


@njit
def _insert_leaf(aabb, parent, child1, child2, height, user, meta, leaf):
    """Link an allocated leaf (its box already written) into the tree."""
    root = meta[META_ROOT]
    if root < 0:
        meta[META_ROOT] = leaf
        parent[leaf] = -1
        return
    sibling = _find_best_sibling(aabb, child1, child2, height, root, leaf)
    old_parent = np.int64(parent[sibling])
    node = _alloc(parent, child1, child2, height, user, meta)
    parent[node] = old_parent
    child1[node] = sibling
    child2[node] = leaf
    parent[sibling] = node
    parent[leaf] = node
    if old_parent < 0:
        meta[META_ROOT] = node
    else:
        _replace_child(child1, child2, old_parent, sibling, node)
    index = node
    while index >= 0:
        refit_node(aabb, child1, child2, height, index)
        _rotate(aabb, parent, child1, child2, height, index)
        index = np.int64(parent[index])


@njit
def _remove_leaf(aabb, parent, child1, child2, height, user, meta, leaf):
    """Unlink a leaf, freeing its parent and refitting the ancestors; the leaf node
    itself stays allocated so a move can reinsert it under the same index."""
    if leaf == meta[META_ROOT]:
        meta[META_ROOT] = -1
        return
    p = np.int64(parent[leaf])
    grand = np.int64(parent[p])
    sibling = np.int64(child2[p] if child1[p] == leaf else child1[p])
    parent[sibling] = grand
    if grand < 0:
        meta[META_ROOT] = sibling
    else:
        _replace_child(child1, child2, grand, p, sibling)
    _release(parent, child1, child2, height, user, meta, p)
    parent[leaf] = -1
    index = grand
    while index >= 0:
        refit_node(aabb, child1, child2, height, index)
        index = np.int64(parent[index])


@njit
def tree_insert(aabb, parent, child1, child2, height, user, meta, minx, miny, maxx, maxy, user_id):
    """Insert a leaf with box [minx, miny, maxx, maxy] for ``user_id``; return its node.
    Needs two free nodes (the owner grows the pool beforehand)."""
    leaf = _alloc(parent, child1, child2, height, user, meta)
    aabb[leaf, 0], aabb[leaf, 1], aabb[leaf, 2], aabb[leaf, 3] = minx, miny, maxx, maxy
    user[leaf] = user_id
    meta[META_LEAVES] += 1
    _insert_leaf(aabb, parent, child1, child2, height, user, meta, leaf)
    return leaf


@njit
def tree_remove(aabb, parent, child1, child2, height, user, meta, leaf):
    """Remove a live leaf and return its node (and its parent) to the free list."""
    leaf = np.int64(leaf)  # one type for the helpers, whatever int type the caller uses
    _remove_leaf(aabb, parent, child1, child2, height, user, meta, leaf)
    _release(parent, child1, child2, height, user, meta, leaf)
    meta[META_LEAVES] -= 1


@njit
def tree_remove_many(aabb, parent, child1, child2, height, user, meta, leaves):
    """``tree_remove`` of each of ``leaves`` (int64, live leaves of this tree), in order:
    the tree ends as those calls leave it, for the cost of one call."""
    for k in range(leaves.shape[0]):
        leaf = leaves[k]
        _remove_leaf(aabb, parent, child1, child2, height, user, meta, leaf)
        _release(parent, child1, child2, height, user, meta, leaf)
        meta[META_LEAVES] -= 1


@njit
def tree_move(aabb, parent, child1, child2, height, user, meta, leaf, minx, miny, maxx, maxy):
    """Give a live leaf a new box by reinsertion; the leaf keeps its node index, so a
    shape's stored proxy id stays valid. Needs no free node (removal frees one).
    Rotates like an insert: Box2D skips that on moves only because it rebuilds the
    dynamic tree every step."""
    leaf = np.int64(leaf)  # one type for the helpers, whatever int type the caller uses
    _remove_leaf(aabb, parent, child1, child2, height, user, meta, leaf)
    aabb[leaf, 0], aabb[leaf, 1], aabb[leaf, 2], aabb[leaf, 3] = minx, miny, maxx, maxy
    _insert_leaf(aabb, parent, child1, child2, height, user, meta, leaf)


@njit
def grown(out):
    """``out`` int64 copied into an array twice its size (an element loop, not a slice
    copy: it compiles several times faster)."""
    bigger = np.empty(2 * out.shape[0], np.int64)
    for k in range(out.shape[0]):
        bigger[k] = out[k]
    return bigger


@njit_inline
def tree_collect(aabb, child1, child2, height, user, root, minx, miny, maxx, maxy, stack,
                 out, count):
    """Append the users of the leaves under ``root`` overlapping [minx, miny, maxx, maxy]
    to ``out[count:]``, depth-first; returns ``(out, count)``, ``out`` replaced by a larger
    copy when full (its first entries stay as written).

    ``stack`` int32 holds at least ``height[root] + 2`` entries (depth-first keeps at most
    one pending sibling per level). Inlined, with the caller's stack, because the stage
    kernels query once per moved or fast piece: as a call that allocated its stack and
    returned the grown array, a query cost more than its 40 node visits.
    """
    if root < 0:
        return out, count
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if aabb[node, 0] > maxx or aabb[node, 2] < minx or aabb[node, 1] > maxy or aabb[node, 3] < miny:
            continue
        if height[node] > 0:
            stack[top] = child2[node]
            stack[top + 1] = child1[node]
            top += 2
            continue
        if count == out.shape[0]:
            out = grown(out)
        out[count] = user[node]
        count += 1
    return out, count


@njit
def tree_query(aabb, parent, child1, child2, height, user, meta, minx, miny, maxx, maxy, out):
    """Write the users of leaves overlapping [minx, miny, maxx, maxy] to ``out`` int64 (k,),
    depth-first. Returns the total count; past k nothing more is written, so the caller
    grows ``out`` and asks again."""
    root = meta[META_ROOT]
    if root < 0:
        return 0
    stack = np.empty(height[root] + 2, np.int32)
    count = tree_collect(aabb, child1, child2, height, user, root, minx, miny, maxx, maxy,
                         stack, out, 0)[1]
    return count
