"""Dynamic AABB tree and pair finder: invariants after random edits, and queries and pairs
checked exactly against brute force."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.broadphase.dynamic_tree import AABBTree, PairRule
from engine.broadphase import tree_build as B
from engine.broadphase import tree_ops as K
from engine.broadphase.filter_rule import should_collide, unions_of
from engine.broadphase.find_pairs import tree_find_pairs

EVERY = np.full(4, ~np.uint64(0))  # filter unions that let every leaf search both trees
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def boxes(spread):
    """Boxes centred in [-spread, spread] with sides 0.01 .. 10, on a 0.01 grid: integer
    draws keep hundreds of operations within Hypothesis' data budget, and the grid makes
    coincident and touching boxes common."""
    coord = st.integers(-100 * spread, 100 * spread)
    side = st.integers(1, 1000)
    return st.tuples(coord, coord, side, side).map(
        lambda t: ((t[0] - 0.5 * t[2]) / 100, (t[1] - 0.5 * t[3]) / 100, (t[0] + 0.5 * t[2]) / 100,
                   (t[1] + 0.5 * t[3]) / 100))


def random_boxes(rng, n, spread):
    c = rng.uniform(-spread, spread, (n, 2))
    half = 0.5 * rng.uniform(0.01, 10.0, (n, 2))
    return np.hstack([c - half, c + half])


def overlap(a, b):
    return not (a[0] > b[2] or a[1] > b[3] or a[2] < b[0] or a[3] < b[1])


def check_tree(tree, model):
    """``model`` maps leaf node -> (user, box); the tree must agree with it exactly."""
    tree.validate()
    aabb, _, _, _, height, user, _ = tree.arrays
    assert tree.leaf_count == len(model)
    for node, (u, box) in model.items():
        assert height[node] == 0 and user[node] == u and tuple(aabb[node]) == box


def check_query(tree, model, q):
    expected = sorted(u for u, box in model.values() if overlap(box, q))
    assert tree.query(q).tolist() == expected


ops = st.lists(st.tuples(st.sampled_from("iimmr"), boxes(100), st.integers(0, 2**16)), min_size=100, max_size=400)


# Long sequences are the point (rotations only happen in deep trees), so the large minimal
# example is deliberate; drawing ~150 operations costs ~0.1 s per example, hence fewer examples.
@settings(FAST, max_examples=20, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(ops, st.sampled_from([2, 16]))
def test_random_edits_keep_invariants_and_exact_queries(op_list, capacity):
    tree = AABBTree(capacity)
    model = {}
    next_user = 0
    for step, (kind, box, pick) in enumerate(op_list):
        nodes = sorted(model)
        if kind == "i" or not nodes:
            node = tree.insert(box, next_user)
            assert node not in model
            model[node] = (next_user, box)
            next_user += 1
        elif kind == "m":
            node = nodes[pick % len(nodes)]
            tree.move(node, box)
            model[node] = (model[node][0], box)
        else:
            node = nodes[pick % len(nodes)]
            tree.remove(node)
            del model[node]
        if step % 25 == 24:
            check_tree(tree, model)
            check_query(tree, model, box)
            check_query(tree, model, (box[0] - 20, box[1] - 20, box[2] + 20, box[3] + 20))
    check_tree(tree, model)
    check_query(tree, model, (-200.0, -200.0, 200.0, 200.0))
    for _, box in list(model.values())[:10]:
        check_query(tree, model, box)


def build(rng, n, spread, first_user, users_perm=None):
    tree = AABBTree()
    model = {}
    for i, box in enumerate(random_boxes(rng, n, spread)):
        u = first_user + i if users_perm is None else int(users_perm[first_user + i])
        model[tree.insert(box, u)] = (u, tuple(box))
    return tree, model


def brute_pairs(moved, model_t, model_s, body, dynamic):
    keys = set()
    for a in set(moved):
        ua, box = model_t[a]
        others = [(b, v) for b, v in model_t.items() if b != a] + list(model_s.items())
        for _, (ub, other_box) in others:
            if overlap(box, other_box) and body[ua] != body[ub] and (dynamic[ua] or dynamic[ub]):
                keys.add((min(ua, ub) << 32) | max(ua, ub))
    return np.array(sorted(keys), np.int64)


def _rule(body, body_type):
    """A PairRule admitting every pair on different bodies with a dynamic one (one shape,
    unfiltered, one lane); every user's own box is the whole plane, so the trees' boxes
    alone decide which pairs overlap."""
    everywhere = np.tile([-np.inf, -np.inf, np.inf, np.inf], (body.shape[0], 1))
    return PairRule(body, body_type, np.zeros(body.shape[0], np.int32), np.ones(1, np.uint64),
                    np.full(1, ~np.uint64(0)), np.zeros(1, np.int64), np.empty(0, np.int64),
                    np.zeros(body_type.shape[0], np.int32), everywhere)


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(2, 200), st.integers(0, 40), st.sampled_from([3.0, 15.0, 50.0]),
       st.floats(0.1, 1.0), st.sampled_from([1, 3, 10, 10**6]))
def test_pairs_match_brute_force(seed, n_dyn, n_static, spread, moved_fraction, n_bodies):
    rng = np.random.default_rng(seed)
    n_users = n_dyn + n_static
    perm = rng.permutation(n_users)  # user ids need not follow tree membership
    dyn_tree, model_t = build(rng, n_dyn, spread, 0, perm)
    static_tree, model_s = build(rng, n_static, spread, n_dyn, perm)
    for node in rng.permutation(sorted(model_t))[: n_dyn // 3]:  # edited trees, not fresh ones
        box = tuple(random_boxes(rng, 1, spread)[0])
        dyn_tree.move(int(node), box)
        model_t[int(node)] = (model_t[int(node)][0], box)
    body = rng.integers(0, n_bodies, n_users).astype(np.int32)
    n_types = min(n_bodies, n_users)  # bodies beyond the users' own never matter
    body %= n_types
    body_type = np.where(rng.random(n_types) < 0.6, 2, rng.integers(0, 2, n_types)).astype(np.int8)
    dynamic = body_type[body] == 2
    nodes = np.array(sorted(model_t), np.int32)
    moved = nodes[rng.random(nodes.shape[0]) < moved_fraction]
    moved = np.concatenate([moved, moved[:2]])  # a proxy listed twice must not duplicate keys
    expected = brute_pairs(moved.tolist(), model_t, model_s, body, dynamic)
    event(f"pairs: {'none' if expected.size == 0 else 'few' if expected.size < 10 else 'many'}")
    # both ways of finding them: per-leaf queries, or one descent when many leaves moved
    event(f"path: {'descent' if 4 * moved.size > n_dyn and moved.size > 32 else 'queries'}")

    keys = tree_find_pairs(dyn_tree.arrays, static_tree.arrays, moved, _rule(body, body_type), EVERY)
    assert keys.dtype == np.int64
    assert np.array_equal(keys, expected)
    assert np.all(np.diff(keys) > 0)
    assert np.array_equal(dyn_tree.find_pairs(moved, body, body_type, other=static_tree), expected)
    # within one tree only: the static tree is simply not consulted
    assert np.array_equal(dyn_tree.find_pairs(moved, body, body_type),
                          brute_pairs(moved.tolist(), model_t, {}, body, dynamic))


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(2, 120), st.integers(0, 30), st.floats(0.1, 1.0))
def test_filtered_pairs_match_brute_force_when_leaves_skip_trees_their_filters_cannot_pass(
        seed, n_dyn, n_static, moved_fraction):
    """Each user its own shape with a filter from a few bits and groups; the search gets
    each tree's filter unions (``filter_rule.unions_of``), and a leaf whose filter no
    shape of a tree passes does not search it. The pairs must be exactly those brute
    force finds with Box2D's rule (``should_collide``). Many draws leave a tree out
    entirely: a kind whose mask leaves out its own category, as in a joint grid."""
    rng = np.random.default_rng(seed)
    n_users = n_dyn + n_static
    dyn_tree, model_t = build(rng, n_dyn, 10.0, 0)
    static_tree, model_s = build(rng, n_static, 10.0, n_dyn)
    body = np.arange(n_users, dtype=np.int32)
    body_type = np.array([2] * n_dyn + [0] * n_static, np.int8)
    kinds = rng.integers(0, 3, n_users)  # a few filter kinds, so that some exclude a tree
    category = np.array([1, 2, 4], np.uint64)[kinds]
    mask = rng.choice(np.array([1, 2, 4, 3, 5, 6, 7], np.uint64), 3)[kinds]
    group = rng.choice(np.array([0, 0, 0, 1, -1]), n_users).astype(np.int64)
    everywhere = np.tile([-np.inf, -np.inf, np.inf, np.inf], (n_users, 1))
    rule = PairRule(body, body_type, np.arange(n_users, dtype=np.int32), category, mask, group,
                    np.empty(0, np.int64), np.zeros(n_users, np.int32), everywhere)
    moving, _ = unions_of(set(zip(category.tolist(), mask.tolist(), (body_type == 0).tolist())))
    nodes = np.array(sorted(model_t), np.int32)
    moved = nodes[rng.random(nodes.shape[0]) < moved_fraction]
    expected = {k for k in brute_pairs(moved.tolist(), model_t, model_s, body, body_type == 2).tolist()
                if should_collide(category[k >> 32], mask[k >> 32], group[k >> 32],
                                  category[k & 0xFFFFFFFF], mask[k & 0xFFFFFFFF],
                                  group[k & 0xFFFFFFFF])}
    keys = tree_find_pairs(dyn_tree.arrays, static_tree.arrays, moved, rule, moving)
    assert keys.tolist() == sorted(expected)
    event(f"path: {'descent' if 4 * moved.size > n_dyn and moved.size > 32 else 'queries'}")


@pytest.mark.parametrize("n_static", [0, 30])
def test_descent_resumes_when_its_key_array_fills(n_static):
    """A dense crowd (every box overlaps nearly every other) found by the descent: its
    keys outgrow the first key array many times over (4 per moved leaf), and each time
    the search stops, the array grows and the search resumes at the same node pair;
    every pair is found once, as brute force finds them. With a limit, the search stops
    at it and says so."""
    rng = np.random.default_rng(11)
    n_dyn = 150
    dyn_tree, model_t = build(rng, n_dyn, 0.5, 0)
    static_tree, model_s = build(rng, n_static, 0.5, n_dyn)
    body = np.arange(n_dyn + n_static, dtype=np.int32)
    body_type = np.array([2] * n_dyn + [0] * n_static, np.int8)
    moved = np.array(sorted(model_t), np.int32)  # all moved: the descent
    expected = brute_pairs(moved.tolist(), model_t, model_s, body, body_type[body] == 2)
    assert expected.size > 10 * 4 * n_dyn  # the first key array filled ten times over
    rule = _rule(body, body_type)
    assert np.array_equal(tree_find_pairs(dyn_tree.arrays, static_tree.arrays, moved, rule, EVERY), expected)
    limited = tree_find_pairs(dyn_tree.arrays, static_tree.arrays, moved, rule, EVERY, expected.size // 2)
    assert limited.tolist() == [-1]


def test_pairs_skip_non_leaves():
    rng = np.random.default_rng(7)
    tree, model = build(rng, 40, 5.0, 0)
    body = np.arange(40, dtype=np.int32)
    body_type = np.where(rng.random(40) < 0.5, 2, 0).astype(np.int8)
    nodes = np.array(sorted(model), np.int32)
    expected = tree_find_pairs(tree.arrays, AABBTree().arrays, nodes, _rule(body, body_type), EVERY)
    assert expected.size > 0
    internal = np.flatnonzero(tree.arrays.height > 0).astype(np.int32)
    free = np.flatnonzero(tree.arrays.height < 0).astype(np.int32)
    junk = np.concatenate([internal, free, np.array([-1, 10**6], np.int32)])
    assert tree_find_pairs(tree.arrays, AABBTree().arrays, junk, _rule(body, body_type), EVERY).size == 0


def test_pairs_filter_same_body_and_non_dynamic():
    tree, ground = AABBTree(), AABBTree()
    a = tree.insert((0, 0, 1, 1), 0)  # dynamic, body 0
    tree.insert((0, 0, 1, 1), 1)  # same body 0
    k = tree.insert((0.5, 0.5, 2, 2), 2)  # kinematic, body 1
    ground.insert((-1, -1, 3, 3), 3)  # static, body 2
    body = np.array([0, 0, 1, 2], np.int32)
    body_type = np.array([2, 1, 0], np.int8)  # per body: dynamic, kinematic, static
    pairs = {(int(x >> 32), int(x & 0xFFFFFFFF)) for x in tree.find_pairs([a, k], body, body_type, other=ground)}
    assert pairs == {(0, 2), (1, 2), (0, 3)}


@pytest.mark.parametrize("shape", [(32, 32), (1, 1000)])
def test_sorted_grid_insertion_stays_shallow(shape):
    tree = AABBTree()
    nx, ny = shape
    for j in range(ny):
        for i in range(nx):
            tree.insert((i, j, i + 0.9, j + 0.9), j * nx + i)
    n = nx * ny
    tree.validate()
    assert tree.height < 3 * math.log2(n) + 4
    before = tree.area_ratio()
    tree.rebuild()
    tree.validate()
    assert tree.height <= math.ceil(math.log2(n)) + 1
    assert tree.area_ratio() <= before * 1.01
    i, j = 10 % nx, 10 // nx
    assert tree.query((i + 0.5, j + 0.5, i + 0.6, j + 0.6)).tolist() == [10]


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.sampled_from([0.0, 5.0, 100.0]))
def test_rebuild_keeps_leaf_ids_and_answers(seed, n, spread):
    rng = np.random.default_rng(seed)
    tree, model = build(rng, n, spread, 0)
    for node in list(model)[::3]:
        box = tuple(random_boxes(rng, 1, spread)[0])
        tree.move(node, box)
        model[node] = (model[node][0], box)
    queries = random_boxes(rng, 10, spread + 5)
    before = [tree.query(q).tolist() for q in queries]
    nodes_used = tree.arrays[6][K.META_NODES]
    tree.rebuild()
    check_tree(tree, model)
    assert tree.arrays[6][K.META_NODES] == nodes_used
    assert [tree.query(q).tolist() for q in queries] == before
    assert tree.height <= 2 * math.ceil(math.log2(n)) + 2 or spread == 0.0


def test_touching_counts_on_every_side():
    tree = AABBTree()
    for u, box in enumerate([(0, 0, 1, 1), (5, 5, 6, 6)]):
        tree.insert(box, u)
    for q in [(1, 0.5, 2, 0.6), (-1, 0.5, 0, 0.6), (0.5, 1, 0.6, 2), (0.5, -1, 0.6, 0), (1, 1, 1, 1)]:
        assert tree.query(q).tolist() == [0], q
    assert tree.query((1.0000001, 0, 2, 1)).size == 0


def test_coincident_boxes():
    tree = AABBTree()
    model = {tree.insert((1, 1, 2, 2), u): (u, (1.0, 1.0, 2.0, 2.0)) for u in range(100)}
    check_tree(tree, model)
    tree.rebuild()  # every centroid equal: the partition must fall back to halving
    check_tree(tree, model)
    assert tree.height == 7
    assert tree.query((2, 2, 3, 3)).tolist() == list(range(100))  # touching counts; buffer grows past 64


def test_growth_move_and_remove_keep_node_ids():
    tree = AABBTree(capacity=2)
    nodes = [tree.insert((i, 0, i + 1, 1), i) for i in range(50)]
    assert tree.capacity >= 99
    assert [int(tree.arrays[5][n]) for n in nodes] == list(range(50))
    tree.move(nodes[7], (100, 100, 101, 101))
    assert tree.query((100.5, 100.5, 100.5, 100.5)).tolist() == [7]
    for n in nodes[:49]:
        tree.remove(n)
    tree.validate()
    tree.move(nodes[49], (-5, -5, -4, -4))  # moving the root leaf of a one-leaf tree
    assert tree.height == 0 and tree.query((-4.5, -4.5, -4.5, -4.5)).tolist() == [49]
    tree.remove(nodes[49])
    tree.validate()
    assert tree.leaf_count == 0 and tree.query((-1e9, -1e9, 1e9, 1e9)).size == 0


def test_same_edits_give_bit_identical_trees():
    def run():
        rng = np.random.default_rng(3)
        tree, model = build(rng, 120, 20.0, 0)
        for node in list(model)[::2]:
            tree.move(node, random_boxes(rng, 1, 20.0)[0])
        return tree
    a, b = run(), run()
    for x, y in zip(a.arrays, b.arrays):
        assert np.array_equal(x, y)


def corrupt_cases(tree):
    aabb, parent, child1, child2, height, user, meta = tree.arrays
    root = int(meta[K.META_ROOT])
    internal = int(child1[root]) if height[child1[root]] > 0 else int(child2[root])
    leaf = int(np.flatnonzero(height == 0)[0])
    free = int(meta[K.META_FREE])
    yield "shrunk box", lambda: aabb.__setitem__((root, 2), aabb[root, 2] - 0.5), B.ERR_AABB
    yield "inverted leaf box", lambda: aabb.__setitem__((leaf, 0), aabb[leaf, 2] + 1.0), B.ERR_AABB
    yield "height", lambda: height.__setitem__(internal, height[internal] + 1), B.ERR_HEIGHT
    yield "parent link", lambda: parent.__setitem__(child1[internal], root), B.ERR_LINK
    yield "leaf child", lambda: child1.__setitem__(leaf, root), B.ERR_LINK
    yield "cycle", lambda: child2.__setitem__(internal, root), B.ERR_LINK
    yield "leaf count", lambda: meta.__setitem__(K.META_LEAVES, meta[K.META_LEAVES] + 1), B.ERR_COUNT
    yield "free meets live", lambda: meta.__setitem__(K.META_FREE, leaf), B.ERR_FREE
    yield "free list cut", lambda: parent.__setitem__(free, -1), B.ERR_FREE
    yield "root out of range", lambda: meta.__setitem__(K.META_ROOT, height.shape[0]), B.ERR_META


def test_validate_detects_corruption():
    names = [name for name, _, _ in corrupt_cases(build(np.random.default_rng(1), 30, 10.0, 0)[0])]
    for i, name in enumerate(names):
        tree = build(np.random.default_rng(1), 30, 10.0, 0)[0]
        tree.validate()
        _, corrupt, expected = list(corrupt_cases(tree))[i]
        corrupt()
        code, _ = B.tree_validate(*tree.arrays)
        assert code == expected, name
        with pytest.raises(AssertionError):
            tree.validate()


def test_boundary_validation():
    tree = AABBTree()
    node = tree.insert((0, 0, 1, 1), 0)
    with pytest.raises(ValueError):
        tree.insert((0, 0, math.nan, 1), 1)
    with pytest.raises(ValueError):
        tree.insert((1, 0, 0, 1), 1)
    with pytest.raises(TypeError):
        tree.insert((0, 0, 1), 1)
    with pytest.raises(ValueError):
        tree.insert((0, 0, 1, 1), -1)
    with pytest.raises(ValueError):
        tree.move(node + 1, (0, 0, 1, 1))  # a free node
    tree.insert((2, 2, 3, 3), 1)
    root = int(tree.arrays[6][K.META_ROOT])
    with pytest.raises(ValueError):
        tree.remove(root)  # internal node
    with pytest.raises(ValueError):
        tree.find_pairs([node], [0], [2])  # user 1 has no body entry
    with pytest.raises(ValueError):
        tree.find_pairs([node], [0, 1], [2])  # body 1 has no type
    tree.validate()


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.sampled_from([0.0, 5.0, 100.0]),
       st.sampled_from([0.05, 1.0, 50.0]))
def test_refresh_after_boxes_changed_in_place_answers_exactly(seed, n, spread, step):
    """``tree_refresh`` (what the broadphase runs when many leaves moved): leaf boxes
    written in place, then the tree refit, or rebuilt once the refit left its area ratio
    more than REBUILD_GROWTH times its last rebuild's. Either way every invariant holds
    and every query is exact; small moves keep the structure (refit), far ones rebuild."""
    rng = np.random.default_rng(seed)
    tree, model = build(rng, n, spread, 0)
    quality = np.zeros(1)
    B.tree_refresh(*tree.arrays, quality)  # the first call rebuilds: no ratio kept yet
    # (the ratio leaves the root out: a tree of two leaves has 0, and is never rebuilt)
    assert n < 3 or quality[0] > 0.0
    aabb = tree.arrays[0]
    for _ in range(3):
        for node in list(model)[::2]:
            shift = rng.uniform(-step, step, 2)
            box = tuple(np.array(model[node][1]) + np.concatenate([shift, shift]))
            aabb[node] = box
            model[node] = (model[node][0], box)
        kept = quality[0]
        B.tree_refresh(*tree.arrays, quality)
        check_tree(tree, model)
        for q in random_boxes(rng, 10, spread + 5):
            check_query(tree, model, q)
        ratio = B.tree_area_ratio(*tree.arrays)
        # refit: the ratio is kept and the tree may be at most REBUILD_GROWTH times worse;
        # rebuilt: the new ratio is recorded
        assert ratio <= B.REBUILD_GROWTH * kept * (1 + 1e-12) or quality[0] == ratio


def test_refresh_keeps_the_structure_of_a_translated_tree():
    """A pile that falls as one keeps its neighbours: the refit tree is the rebuilt tree
    moved, so ``tree_refresh`` keeps it (no rebuild), and its ratio stays the recorded one."""
    rng = np.random.default_rng(7)
    tree, model = build(rng, 300, 100.0, 0)
    quality = np.zeros(1)
    B.tree_refresh(*tree.arrays, quality)
    structure = [a.copy() for a in tree.arrays[1:4]]
    aabb = tree.arrays[0]
    for node in model:
        aabb[node] += (0.75, -2.5, 0.75, -2.5)
    B.tree_refresh(*tree.arrays, quality)
    assert all(np.array_equal(a, b) for a, b in zip(structure, tree.arrays[1:4]))
    assert B.tree_area_ratio(*tree.arrays) == pytest.approx(quality[0], rel=1e-9)
    tree.validate()
