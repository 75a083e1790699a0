"""Broadphase stage: candidate pairs from the dynamic AABB trees.

Box2D v3 ``src/broad_phase.c`` (``b2FindPairsTask``, ``b2UpdateBroadPhasePairs``): only
proxies whose fat box moved look for pairs. Box2D de-duplicates the pairs with a hash set
and creates contacts in move order; here the keys are sorted instead, which gives the same
determinism and hands the narrowphase its pairs in key order. The tree layout is documented
in ``tree_ops``.

Two ways to find them, the same pairs either way:

- few proxies moved: each moved leaf queries both trees (about 40 node visits each);
- many moved (``tree_build.many_moved``: more than a quarter of the tree's leaves, a
  falling pile, after which the tree has also been rebuilt): one simultaneous descent of the tree against itself and
  against the other tree, which tests each pair of overlapping subtrees once instead of
  once per leaf under them. Pairs with no moved leaf are skipped. On rain2000's first
  second (2600 of 3000 leaves moved) this is 0.5 ms against 2.7 ms of queries.
"""
import numpy as np

from .._jit import borrowed, njit, njit_inline
from .filter_rule import boxes_overlap, pair_admitted
from .key_sort import sort_unique
from .tree_build import many_moved
from .tree_ops import META_LEAVES, META_ROOT, grown, tree_collect


@njit_inline
def _pair_key(ua, ub):
    """The pair key of proxies ``ua`` and ``ub``: the lower id in the high 32 bits."""
    return (min(ua, ub) << 32) | max(ua, ub)


@njit_inline
def _may_pair(rule, u, cats, masks):
    """Whether user ``u`` may pair with some leaf of a tree whose shapes' categories and
    masks have the unions ``cats`` and ``masks``: a necessary condition of
    ``should_collide`` (always true for a shape of a positive group, which collides with
    its group whatever the masks). Debris whose mask leaves out its own category (the
    balls of Box2D's joint grid) then never searches the tree of its kind."""
    s = rule.shape[u]
    if rule.group[s] > 0:
        return True
    return (rule.category[s] & masks) != 0 and (cats & rule.mask[s]) != 0


@njit
def _query_pairs(aabb, child1, child2, height, user, root, s_aabb, s_child1, s_child2,
                 s_height, s_user, s_root, moved, rule, keys, stack, limit, unions, filtered):
    """Keys of the pairs of each moved leaf of T with the leaves of T and S (unsorted);
    stops at ``limit`` keys. A leaf searches only the trees whose filters it may pass
    (``unions``: see :func:`tree_find_pairs`; ``filtered``: some may not)."""
    rule = borrowed(rule)  # (see _descend_pairs)
    n = 0
    found = np.empty(64, np.int64)
    for i in range(moved.shape[0]):
        leaf = moved[i]
        if leaf < 0 or leaf >= height.shape[0] or height[leaf] != 0:
            continue
        ua = user[leaf]
        x0 = aabb[leaf, 0]
        y0 = aabb[leaf, 1]
        x1 = aabb[leaf, 2]
        y1 = aabb[leaf, 3]
        hits = 0
        if not filtered or _may_pair(rule, ua, unions[0], unions[1]):
            found, hits = tree_collect(aabb, child1, child2, height, user, root, x0, y0, x1,
                                       y1, stack, found, 0)
        if not filtered or _may_pair(rule, ua, unions[2], unions[3]):
            found, hits = tree_collect(s_aabb, s_child1, s_child2, s_height, s_user, s_root,
                                       x0, y0, x1, y1, stack, found, hits)
        for h in range(hits):
            ub = found[h]
            if ub == ua or not pair_admitted(rule, ua, ub) or not boxes_overlap(rule, ua, ub):
                continue  # the leaf itself, the same body, no dynamic body, or filtered
            if n == limit:
                return keys, n
            if n == keys.shape[0]:  # (reassigned only when it grows: see _descend_pairs)
                keys = grown(keys)
            keys[n] = _pair_key(ua, ub)
            n += 1
    return keys, n


@njit
def _descend_pairs(a_aabb, a_child1, a_child2, a_height, a_user,
                   b_aabb, b_child1, b_child2, b_height, b_user, same,
                   marked, rule, keys, n, stack_a, stack_b, top, limit):
    """Write the keys of overlapping leaf pairs of tree A against tree B (``same``: A
    against itself, each pair once) with a marked leaf of A among them (unsorted) into
    ``keys`` from entry ``n``, up to ``limit`` keys in all. Returns ``(n, top)``.

    A stack of node pairs (``stack_a``, ``stack_b``, ``top`` entries, seeded by the
    caller with the two roots): a pair of overlapping subtrees is split on its larger
    box; with ``same``, an entry (x, x) stands for "the pairs within subtree x", which
    splits into its two children's own pairs and the pair of children. When ``keys`` is
    full the pair is pushed back and the search returns with ``top > 0``: the caller
    grows ``keys`` and calls again to resume (:func:`_descend`). ``keys`` is never
    reassigned here: an array variable assigned in a loop is counted atomically at each
    iteration (Numba's phi copies), 99 % of the atomic counts of a late step of Box2D's
    smash, where this search visits some 10^5 node pairs.
    """
    # Borrowed here, not only by the caller: the filter test at each leaf pair unpacks
    # the rule's nine arrays, each counted otherwise. With that and the ``continue``
    # after a key is written, rain2000 landing (3000 leaves, 47,000 node pairs visited,
    # 6400 leaf pairs) takes 280 us here, 550 before.
    rule = borrowed(rule)
    while top > 0:
        top -= 1
        a = stack_a[top]
        b = stack_b[top]
        if same and a == b:
            if a_height[a] > 0:
                c1 = a_child1[a]
                c2 = a_child2[a]
                stack_a[top] = c1
                stack_b[top] = c1
                stack_a[top + 1] = c2
                stack_b[top + 1] = c2
                stack_a[top + 2] = c1
                stack_b[top + 2] = c2
                top += 3
            continue
        if (a_aabb[a, 0] > b_aabb[b, 2] or a_aabb[a, 2] < b_aabb[b, 0]
                or a_aabb[a, 1] > b_aabb[b, 3] or a_aabb[a, 3] < b_aabb[b, 1]):
            continue  # disjoint
        ha = a_height[a]
        hb = b_height[b]
        if ha == 0 and hb == 0:
            if not (marked[a] or (same and marked[b])):
                continue
            ua = a_user[a]
            ub = b_user[b]
            if not pair_admitted(rule, ua, ub) or not boxes_overlap(rule, ua, ub):
                continue
            if n == limit:
                return n, 0
            if n == keys.shape[0]:  # full: resume at this pair once the caller grew keys
                top += 1
                return n, top
            keys[n] = _pair_key(ua, ub)
            n += 1
            continue  # (Numba: without it this loop runs 1.7 times slower, measured)
        if hb == 0 or (ha > 0 and (a_aabb[a, 2] - a_aabb[a, 0] + a_aabb[a, 3] - a_aabb[a, 1]
                                     >= b_aabb[b, 2] - b_aabb[b, 0] + b_aabb[b, 3] - b_aabb[b, 1])):
            stack_a[top] = a_child1[a]
            stack_b[top] = b
            stack_a[top + 1] = a_child2[a]
            stack_b[top + 1] = b
            top += 2
        else:
            stack_a[top] = a
            stack_b[top] = b_child1[b]
            stack_a[top + 1] = a
            stack_b[top + 1] = b_child2[b]
            top += 2
    return n, top


@njit_inline
def _descend(tree_a, tree_b, same, marked, rule, keys, n, stack_a, stack_b, limit):
    """All of :func:`_descend_pairs`' keys of ``tree_a`` against ``tree_b`` (``(aabb,
    child1, child2, height, user, root)`` each), growing ``keys`` between its calls;
    returns ``(keys, n)``."""
    a_aabb, a_child1, a_child2, a_height, a_user, a_root = tree_a
    b_aabb, b_child1, b_child2, b_height, b_user, b_root = tree_b
    if a_root < 0 or b_root < 0:
        return keys, n
    stack_a[0] = a_root
    stack_b[0] = b_root
    top = np.int64(1)  # typed: a literal 1 would compile the search a second time
    while top > 0:
        if n == keys.shape[0]:
            keys = grown(keys)
        n, top = _descend_pairs(a_aabb, a_child1, a_child2, a_height, a_user,
                                b_aabb, b_child1, b_child2, b_height, b_user, same,
                                marked, rule, keys, n, stack_a, stack_b, top, limit)
    return keys, n


@njit
def tree_find_pairs(tree, other, moved, rule, unions, limit=1 << 62):
    """Candidate pairs for the moved leaves of tree T (``tree``, a ``TreeArrays``) against
    T itself and a second tree S (``other``; an empty tree is fine).

    ``unions`` uint64 (4,): the unions of the categories and of the masks of the shapes
    in T, then in S (or wider: all bits set, as ``filter_rule.unions_of`` gives when
    no shape can be left out, searches everything); a moved leaf whose filter no shape
    of a tree can pass does not search that tree (:func:`_may_pair`).

    ``moved`` int32 (m,): leaf nodes of T whose (fat) box changed; entries that are not
    live leaves are skipped. ``rule`` (a ``PairRule``, see :func:`pair_admitted`) says
    which pairs may exist: pairs on one body, pairs with no dynamic body (static and
    kinematic never collide) and pairs the shapes' filters reject are dropped. Returns int64 (k,) keys
    ``(min_user << 32) | max_user``, sorted and unique: two moved leaves that overlap
    give one key, and the order does not depend on the traversal.

    At most ``limit`` keys are collected (before duplicates are removed); a search that
    reaches it returns ``[-1]`` instead (keys are >= 0), having allocated no more than
    that: 10,000 boxes at one point would otherwise ask for 50 million.
    """
    tree, other, moved, rule, unions = borrowed((tree, other, moved, rule, unions))  # no atomic counts
    aabb, parent, child1, child2, height, user, meta = tree
    s_aabb, s_parent, s_child1, s_child2, s_height, s_user, s_meta = other
    keys = np.empty(max(16, 4 * moved.shape[0]), np.int64)
    root = meta[META_ROOT]
    s_root = s_meta[META_ROOT]
    depth = 0
    if root >= 0:
        depth = height[root]
    s_depth = 0
    if s_root >= 0:
        s_depth = s_height[s_root]
    filtered = (unions[0] & unions[1] & unions[2] & unions[3]) != ~np.uint64(0)
    if many_moved(moved.shape[0], meta[META_LEAVES]):
        # a leaf is marked for each tree whose filters it may pass (written out, not
        # with array operations: those make loading this kernel import Numba's ufuncs)
        marked = np.zeros(height.shape[0], np.uint8)  # for the search of T
        s_marked = np.zeros(height.shape[0], np.uint8)  # of S
        seen = s_seen = False
        for i in range(moved.shape[0]):
            leaf = moved[i]
            if 0 <= leaf < height.shape[0] and height[leaf] == 0:
                own = not filtered or _may_pair(rule, user[leaf], unions[0], unions[1])
                other = not filtered or _may_pair(rule, user[leaf], unions[2], unions[3])
                marked[leaf] = own
                s_marked[leaf] = other
                seen |= own
                s_seen |= other
        # each step of the descent replaces one entry with at most three
        size = 2 * (2 * depth + s_depth) + 4
        stack_a = np.empty(size, np.int32)
        stack_b = np.empty(size, np.int32)
        # The flag and the start count go in as typed values, not constants: Numba
        # compiles a callee once per literal argument (True, False, 0), twice here.
        tree_t = (aabb, child1, child2, height, user, root)
        n = np.int64(0)
        if seen:  # some moved leaf may pair with a leaf of T
            keys, n = _descend(tree_t, tree_t, np.bool_(True), marked, rule, keys, n, stack_a,
                               stack_b, limit)
        if s_seen:
            keys, n = _descend(tree_t, (s_aabb, s_child1, s_child2, s_height, s_user, s_root),
                               np.bool_(False), s_marked, rule, keys, n, stack_a, stack_b, limit)
    else:
        stack = np.empty(max(depth, s_depth) + 2, np.int32)
        keys, n = _query_pairs(aabb, child1, child2, height, user, root, s_aabb, s_child1,
                               s_child2, s_height, s_user, s_root, moved, rule, keys, stack, limit,
                               unions, filtered)
    if n >= limit:
        return np.full(1, -1, np.int64)
    m = sort_unique(keys[:n])
    out = np.empty(m, np.int64)
    for i in range(m):
        out[i] = keys[i]
    return out
