"""The colour-chunk contact passes against the same contacts solved one at a time.

``contact_pass`` solves a chunk's contacts side by side in SIMD lanes: right only if no
two contacts of a chunk share a moving body, or, for the overflow group of the colouring
(contacts that found every colour taken, which do share bodies), if its chunks are
solved one contact at a time. The oracle is sequential Gauss-Seidel: each contact's
lane arithmetic (the pass's own per-contact helpers, compiled on their own) run for one
contact at a time in solve order, each reading the velocities the previous one left.
Within a colour, order does not matter, so the two must agree up to rounding (LLVM fuses
other multiply-adds in the vector loop than in the scalar one).

The scene forces an overflow group: a hub disc touched by 90 boxes, more than the
colouring's 62 colours can hold, beside a small pyramid whose contacts fill ordinary
colours. Solving the overflow chunks side by side loses the hub's updates (each lane
stores the hub's velocity over the others') and fails this test.
"""
import math

import numpy as np
import pytest

from engine import Circle, Polygon, World, scenes
from engine.body_state import S_VX, S_VY, S_W
from engine.dynamics.chunk_layout import (CHUNK, FIELDS, O_CHUNK, O_NI, O_P0, O_P1, O_TI,
                                          VELOCITY_ROWS, gather_velocities, plan_chunks,
                                          store_velocities)
from engine.dynamics.coloring import COLORS, order_contacts
from engine.dynamics.contact_solver import (RELAX, SOLVE, WARM_START, _friction_lane,
                                            _normal_lane, _warm_lane, contact_pass)
from engine.dynamics.soft_step import _solver_types, _start_state
from engine.dynamics.solver_rows import gather

SPOKES = 90


def _hub_world():
    """A hub disc with SPOKES small boxes around three quarters of it, each 5 mm into
    it, in zero gravity, beside a 6-base pyramid (ordinary colours)."""
    world, _ = scenes.pyramid(6).build()
    world.sleeping = False
    world.gravity = (0.0, 0.0)
    hub = world.create_body(position=(30.0, 10.0))
    hub.add_shape(Circle(1.0))
    for k in range(SPOKES):
        angle = 1.5 * math.pi * k / SPOKES
        r = 1.0 + 0.025 - 0.005
        spoke = world.create_body(position=(30.0 + r * math.cos(angle), 10.0 + r * math.sin(angle)),
                                  angle=angle)
        spoke.add_shape(Polygon.box(0.05, 0.05))
    world.step(1 / 60)
    return world


def _chunks_of(world):
    """The world's contacts in colour chunks, as the solver builds them each step, and the
    bodies' solver state with random velocities."""
    st = world._state
    pairs = st.pairs
    pairs.reserve()
    bodies, rows = st.body_arrays(), pairs.rows
    m = rows.shape[0]
    cba = np.ascontiguousarray(pairs.bodies[0, :m])
    cbb = np.ascontiguousarray(pairs.bodies[1, :m])
    stype = _solver_types(bodies.btype, bodies.asleep)
    order = np.empty(m, np.int32)
    count, per_color, _, _ = order_contacts(rows, cba, cbb, bodies.inv_mass, bodies.inv_inertia,
                                            stype, bodies.lane, order,
                                            np.zeros(stype.shape[0], np.uint8), 0)
    first, size, sequential = plan_chunks(per_color)
    n = first.shape[0]
    chunks = (np.zeros(n * FIELDS * CHUNK), np.zeros(n * CHUNK, np.uint64),
              np.zeros(n * CHUNK, np.uint64), first, size, sequential,
              np.zeros(VELOCITY_ROWS * CHUNK))
    h = 1 / 60 / 4
    state = _start_state(bodies.vel, bodies.angvel, stype, np.ones(stype.shape[0], np.uint8))  # every row
    gather(rows, order[:count], cba, cbb, bodies.inv_mass, bodies.inv_inertia, state, chunks, h)
    rng = np.random.default_rng(7)
    # Accumulated impulses as a warm start would bring them (the hub's contacts are one
    # step old and have none yet): any values do for the oracle.
    cw = chunks[0]
    for t in range(n):
        for point in (O_P0, O_P1):
            at = int(np.uint64(t) * O_CHUNK + point)
            cw[at + int(O_NI):at + int(O_NI) + CHUNK] = rng.uniform(0.0, 0.05, CHUNK)
            cw[at + int(O_TI):at + int(O_TI) + CHUNK] = rng.uniform(-0.01, 0.01, CHUNK)
    moving = bodies.inv_mass > 0.0
    state[moving, S_VX] = rng.normal(0.0, 1.0, moving.sum())
    state[moving, S_VY] = rng.normal(0.0, 1.0, moving.sum())
    state[moving, S_W] = rng.normal(0.0, 2.0, moving.sum())
    return chunks, state, per_color, h


def _one_at_a_time(chunks, state, which, inv_h, soft_dyn, soft_static, pushout, impact_gap,
                   reverse):
    """``contact_pass`` as plain Gauss-Seidel: one contact at a time, in solve order."""
    cw, ca, cb, first, size, _, v = chunks
    v = np.zeros_like(v)
    use_bias = which == SOLVE
    pass_ = (inv_h, soft_dyn, pushout, impact_gap, use_bias, (-0.5 if use_bias else 0.5) / inv_h)
    order = (O_P1, O_P0, 1.0, 0.0) if reverse else (O_P0, O_P1, 0.0, 1.0)
    for t in range(first.shape[0]):
        at = np.uint64(t * CHUNK)
        start = np.uint64(t) * O_CHUNK
        for j in range(size[t]):
            k = np.uint64(j)
            if which == WARM_START:
                v[:] = 0.0
                _warm_lane(cw, start + k, v, k)
                store_velocities(state, ca, cb, cw, start, v, at, j, True)
                continue
            gather_velocities(state, ca, cb, v, at, j)
            if which == SOLVE:  # friction first in the biased pass, last in the relax pass
                _friction_lane(cw, start + k, v, k, order)
            _normal_lane(cw, start + k, v, k, pass_, soft_dyn, soft_static, order)
            if which == RELAX:
                _friction_lane(cw, start + k, v, k, order)
            store_velocities(state, ca, cb, cw, start, v, at, j, False)


@pytest.fixture(scope="module")
def hub():
    return _chunks_of(_hub_world())


def test_the_scene_has_an_overflow_group(hub):
    _, _, per_color, _ = hub
    assert per_color[COLORS] >= SPOKES - COLORS  # the hub's contacts beyond 62 colours


@pytest.mark.parametrize("which", [WARM_START, SOLVE, RELAX])
@pytest.mark.parametrize("reverse", [False, True])
def test_chunk_pass_equals_one_contact_at_a_time(hub, which, reverse):
    chunks, state, _, h = hub
    soft_dyn, soft_static = (30.0, 0.8, 0.2), (60.0, 0.9, 0.1)
    args = (np.int64(which), 1.0 / h, soft_dyn, soft_static, 3.0, 0.005, reverse)
    lanes_cw, lanes_state = chunks[0].copy(), state.copy()
    contact_pass((lanes_cw,) + chunks[1:], lanes_state, *args)
    ref_cw, ref_state = chunks[0].copy(), state.copy()
    _one_at_a_time((ref_cw,) + chunks[1:], ref_state, *args)
    # the passes changed something, and both the same way
    assert np.abs(lanes_state[:, :3] - state[:, :3]).max() > 1e-3
    np.testing.assert_allclose(lanes_state[:, :3], ref_state[:, :3], rtol=1e-9, atol=1e-9)
    n = chunks[3].shape[0]
    for point in (O_P0, O_P1):
        for field in (O_NI, O_TI):
            rows = [np.uint64(t) * O_CHUNK + point + field for t in range(n)]
            lanes = np.concatenate([lanes_cw[int(r):int(r) + CHUNK] for r in rows])
            ref = np.concatenate([ref_cw[int(r):int(r) + CHUNK] for r in rows])
            np.testing.assert_allclose(lanes, ref, rtol=1e-9, atol=1e-12)
