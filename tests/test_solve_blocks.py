"""Solve blocks (``dynamics/solve_blocks.py``): islands solved block by block, each
block's substeps before the next, step exactly as all contacts solved together."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import Circle, Polygon, World, constants as K
from engine.scenes import pyramid
from engine.dynamics.coloring import COLORS, order_contacts
from engine.dynamics.soft_step import _solver_types
from engine.dynamics.solve_blocks import block_spans

DT = 1 / 60


def _piles(seed, piles, per_pile, kinematic, bouncy, deep):
    """``piles`` separate piles of boxes and balls on one ground (each its own island),
    optionally a kinematic paddle sweeping through two of them (linking them), bouncy
    shapes (the impact phase) and bodies made inside each other (deep push-out)."""
    rng = np.random.default_rng(seed)
    world = World(sleeping=bool(seed % 2))
    world.create_body("static").add_shape(Polygon.box(8.0 * piles + 10, 1, center=(0, -0.5)))
    for p in range(piles):
        x0 = 8.0 * (p - piles / 2)
        for k in range(per_pile):
            body = world.create_body(position=(x0 + rng.uniform(-0.8, 0.8), 0.4 + 0.55 * k),
                                     angle=rng.uniform(-0.3, 0.3))
            shape = Circle(0.25) if rng.random() < 0.4 else Polygon.box(0.5, 0.4)
            body.add_shape(shape, restitution=0.8 if bouncy and k % 3 == 0 else 0.0)
        if deep:
            for _ in range(2):  # two boxes made at one place: pushed apart by position
                world.create_body(position=(x0, 4.0 + 0.55 * per_pile)).add_shape(Polygon.box(0.5, 0.5))
    if kinematic:
        paddle = world.create_body("kinematic", position=(-8.0 * piles / 2 - 1, 0.6),
                                   velocity=(3.0, 0.0), angular_velocity=0.5)
        paddle.add_shape(Polygon.box(0.3, 1.2))
    return world


def _run(world, budget, steps, monkeypatch):
    monkeypatch.setattr(K, "SOLVE_BLOCK_CONTACTS", budget)
    world._state._params = (None, None)  # the step parameters read the budget again
    out = []
    for _ in range(steps):
        world.step(DT)
        out.append(world.positions.copy())
    return np.array(out), world.state_hash()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 16), piles=st.integers(2, 5), per_pile=st.integers(2, 8),
       kinematic=st.booleans(), bouncy=st.booleans(), deep=st.booleans(),
       budget=st.sampled_from([1, 3, 10, 40]))
def test_islands_solved_block_by_block_step_bit_for_bit_as_one_block(
        seed, piles, per_pile, kinematic, bouncy, deep, budget):
    with pytest.MonkeyPatch.context() as mp:
        whole = _run(_piles(seed, piles, per_pile, kinematic, bouncy, deep), 0, 90, mp)
        blocks = _run(_piles(seed, piles, per_pile, kinematic, bouncy, deep), budget, 90, mp)
    assert np.array_equal(whole[0], blocks[0])
    assert whole[1] == blocks[1]


def _order(world, budget):
    """``order_contacts``' blocks and ``block_spans``' tags for the world's contacts now."""
    st_ = world._state
    pairs, bodies = st_.pairs, st_.body_arrays()
    m = pairs.rows.shape[0]
    cba = np.ascontiguousarray(pairs.bodies[0, :m])
    cbb = np.ascontiguousarray(pairs.bodies[1, :m])
    stype = _solver_types(bodies.btype, bodies.asleep)
    order, touched = np.empty(m, np.int32), np.zeros(stype.shape[0], np.uint8)
    count, per_color, block, blocks = order_contacts(
        pairs.rows, cba, cbb, bodies.inv_mass, bodies.inv_inertia, stype, bodies.lane, order, touched,
        budget)
    spans = block_spans(block, max(blocks, 1), cba, cbb, stype, touched, per_color, COLORS + 1)
    return order[:count], per_color, block, blocks, spans, touched, cba, cbb, stype


def test_blocks_hold_whole_islands_and_their_bodies():
    world = _piles(3, piles=6, per_pile=6, kinematic=False, bouncy=False, deep=False)
    world.sleeping = False
    for _ in range(40):
        world.step(DT)
    order, per_color, block, blocks, spans, touched, cba, cbb, stype = _order(world, 20)
    assert blocks > 1 and per_color.sum() == order.shape[0]
    assert per_color.shape[0] == blocks * (COLORS + 1)
    # each solved row has a block; blocks appear in order, and both moving bodies of a
    # row are tagged with its block
    assert np.all(block[order] >= 0) and np.all(np.diff(block[order]) >= 0)
    for i in order:
        for j in (cba[i], cbb[i]):
            if stype[j] != 0:  # not static
                assert touched[j] == block[i] + 1
                tag, lo, hi, first, end = spans[block[i]]
                assert tag == block[i] + 1 and lo <= j < hi
                assert i in set(order[first:end])
    islands = _islands(order, block, cba, cbb, stype)
    assert len(islands) > blocks and all(len(v) == 1 for v in islands.values())


def _islands(order, block, cba, cbb, stype):
    """The islands of the solved rows, found by a union-find of their moving bodies
    here: {root: the set of blocks its rows are in}."""
    parent = list(range(stype.shape[0]))

    def root(j):
        while parent[j] != j:
            j = parent[j]
        return j

    for i in order:
        if stype[cba[i]] != 0 and stype[cbb[i]] != 0:
            parent[root(cba[i])] = root(cbb[i])
    islands = {}
    for i in order:
        j = cba[i] if stype[cba[i]] != 0 else cbb[i]
        islands.setdefault(root(j), set()).add(int(block[i]) if block.size else 0)
    return islands


def test_one_island_or_few_contacts_is_one_block():
    world = pyramid(8).build(sleeping=False)[0]
    for _ in range(30):
        world.step(DT)
    assert _order(world, 1)[3] == 0  # one island, however small the budget: searched, one block
    many = _piles(5, piles=4, per_pile=8, kinematic=False, bouncy=False, deep=False)
    many.sleeping = False
    for _ in range(30):
        many.step(DT)
    assert _order(many, 0)[3] == 1 and _order(many, 10 ** 6)[3] == 1
    order, _, block, blocks, _, _, cba, cbb, stype = _order(many, 1)
    assert blocks == len(_islands(order, block, cba, cbb, stype)) > 4  # one island a block


def test_at_most_254_blocks_however_many_islands():
    world = World(gravity=(0, -10), sleeping=False)
    world.create_body("static").add_shape(Polygon.box(2000, 1, center=(0, -0.5)))
    xy = np.column_stack([np.arange(600) * 3.0 - 900, np.full(600, 0.24)])
    world.create_bodies(Circle(0.25), xy)  # 600 islands of one ball each
    for _ in range(3):
        world.step(DT)
    _, _, block, blocks, spans, touched, _, _, _ = _order(world, 1)
    assert 100 < blocks <= 254 and touched.max() == blocks  # (the budget grew to 5 rows)
