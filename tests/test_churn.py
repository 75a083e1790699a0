"""Creating and destroying bodies forever: the stores stay as large as the most bodies
alive at once, and every handle of a destroyed object keeps raising."""
import numpy as np
import pytest

from engine import Circle, Polygon, World

DT = 1 / 60


def _gear(n=32):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return Polygon(np.column_stack((np.cos(t), np.sin(t))) * 0.5)


def test_stores_do_not_grow_with_history():
    world = World()
    world.create_body("static").add_shape(Polygon.box(40, 1, center=(0, -0.5)))
    state = world._state
    alive, handles, shapes = [], [], []
    sizes = []
    for cycle in range(3000):
        body = world.create_body(position=(cycle % 20 - 10.0, 1.0))
        shapes.append(body.add_shape(_gear() if cycle % 2 else Circle(0.3)))
        alive.append(body)
        handles.append(body)
        if len(alive) > 2:
            world.destroy_body(alive.pop(0))
        if cycle % 10 == 0:
            world.step(DT)
        sizes.append((state.geometry.used, state.pieces.used, state.shapes.used,
                      state.body_keys.size, state.bodies.used))
    late = np.array(sizes[-1000:])
    assert late.max(axis=0).tolist() <= [200, 8, 8, 8, 8]  # bounded by what is alive
    for body in handles[:-3]:
        assert not body.alive
        with pytest.raises(RuntimeError):
            body.position
    for h in shapes[:-3]:
        with pytest.raises(RuntimeError):
            h.friction = 0.1
    # what is alive still works
    for _ in range(30):
        world.step(DT)
    assert all(b.position[1] < 1.0 for b in alive)


def test_compaction_keeps_every_live_piece_on_its_own_vertices():
    world = World(gravity=(0, 0))
    bodies = [world.create_body(position=(3.0 * k, 0)) for k in range(12)]
    handles = [b.add_shape(_gear(8 + k)) for k, b in enumerate(bodies)]
    kept = [1, 6, 10]
    for k, b in enumerate(bodies):
        if k not in kept:
            world.destroy_body(b)  # frees most of the pool: it gets compacted
    state = world._state
    assert state.free_vertices < 64 and state.geometry.used < 90
    world.step(DT)
    for h in [handles[k] for k in kept]:
        p = h._pieces[0]
        start, count = state.pieces.start[p], state.pieces.count[p]
        assert np.allclose(state.geometry.verts[start:start + count], h.shape._verts)
