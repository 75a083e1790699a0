"""Snapshots, the state hash and versioned pickles (issue #18, items 1 and 2).

The property throughout: a world put back to a snapshot (or loaded from a pickle, here or
in a fresh process) continues bit for bit as the run the snapshot was taken from, the
state hash equal at every step; and every refused restore or load changes nothing.
"""
import copy
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from engine import Circle, Polygon, Snapshot, World, scenes

DT = 1 / 60


def _bridge_world():
    """A joint scene: a chain bridge with boxes dropped onto it."""
    world = World()
    scenes.bridge(world)
    for k in range(6):
        box = world.create_body(position=(-3.0 + k, 14.0 + 0.7 * k), angle=0.3 * k)
        box.add_shape(Polygon.box(0.5, 0.5), density=2.0)
    return world


SCENES = {
    "rain2000": lambda: scenes.rain(2000, 1000).build()[0],
    "tumbler": lambda: scenes.tumbler().build()[0],
    "bridge": _bridge_world,
}


def _hashes(world, steps):
    out = []
    for _ in range(steps):
        world.step(DT)
        out.append(world.state_hash())
    return out


@pytest.mark.parametrize("name", sorted(SCENES))
def test_restore_continues_bit_identically(name):
    world = SCENES[name]()
    for _ in range(100):
        world.step(DT)
    snap = world.snapshot()
    first = _hashes(world, 100)
    positions = world.positions.copy()
    world.restore(snap)
    assert _hashes(world, 100) == first
    np.testing.assert_array_equal(world.positions, positions)


def test_restore_many_times_and_reuse_buffers():
    world = SCENES["tumbler"]()
    for _ in range(30):
        world.step(DT)
    snap = world.snapshot()
    runs = []
    for _ in range(3):  # a rollback restores one frame again and again
        world.restore(snap)
        runs.append(_hashes(world, 20))
    assert runs[0] == runs[1] == runs[2]
    world.restore(snap)
    again = world.snapshot(out=snap)  # written into the same arrays
    assert again is snap
    assert _hashes(world, 20) == runs[0]
    world.restore(snap)
    assert _hashes(world, 20) == runs[0]


def test_snapshot_nbytes_and_type():
    world = SCENES["bridge"]()
    snap = world.snapshot()
    assert isinstance(snap, Snapshot)
    assert snap.nbytes > 0
    assert "Snapshot" in repr(snap)


def test_views_taken_before_see_the_restored_state():
    world = SCENES["tumbler"]()
    view = world.positions
    before = view.copy()
    snap = world.snapshot()
    for _ in range(10):
        world.step(DT)
    assert not np.array_equal(view, before)
    world.restore(snap)
    np.testing.assert_array_equal(view, before)


def test_restore_onto_a_copy_and_a_copy_continues():
    world = SCENES["tumbler"]()
    for _ in range(40):
        world.step(DT)
    snap = world.snapshot()
    twin = copy.deepcopy(world)
    expected = _hashes(world, 30)
    assert _hashes(twin, 30) == expected
    twin.restore(snap)  # a snapshot fits copies of its world
    assert _hashes(twin, 30) == expected


def _state_of(world):
    return world.state_hash(), world.positions.copy(), world.velocities.copy()


def _assert_same(a, b):
    assert a[0] == b[0]
    np.testing.assert_array_equal(a[1], b[1])
    np.testing.assert_array_equal(a[2], b[2])


@pytest.mark.parametrize("change", ["create", "destroy", "add_shape", "remove_shape", "retype",
                                    "joint", "filter"])
def test_restore_after_a_structural_change_raises_and_changes_nothing(change):
    world = World()
    bodies = [world.create_body(position=(k, 2.0 * k)) for k in range(3)]
    handles = [b.add_shape(Circle(0.4)) for b in bodies]
    snap = world.snapshot()
    for _ in range(5):
        world.step(DT)
    if change == "create":
        world.create_body()
    elif change == "destroy":
        world.destroy_body(bodies[2])
    elif change == "add_shape":
        bodies[0].add_shape(Circle(0.1))
    elif change == "remove_shape":
        bodies[1].remove_shape(handles[1])
    elif change == "retype":
        bodies[0].body_type = "kinematic"
    elif change == "joint":
        world.create_distance_joint(bodies[0], bodies[1], (0, 0), (1, 2))
    elif change == "filter":
        from engine import Filter
        handles[0].filter = Filter(category=2)
    before = _state_of(world)
    with pytest.raises(ValueError, match="since the snapshot was taken"):
        world.restore(snap)
    _assert_same(_state_of(world), before)


def test_restore_from_another_world_raises():
    a, b = World(), World()
    for w in (a, b):
        w.create_body().add_shape(Circle(0.5))
    snap = a.snapshot()
    before = _state_of(b)
    with pytest.raises(ValueError, match="another world"):
        b.restore(snap)
    _assert_same(_state_of(b), before)
    with pytest.raises(TypeError, match="Snapshot"):
        b.restore("not a snapshot")
    with pytest.raises(TypeError, match="Snapshot"):
        b.snapshot(out=3)


def test_restore_from_a_callback_is_refused():
    world = World()
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(10, 1))
    ball = world.create_body(position=(0, 1.2))
    ball.add_shape(Circle(0.5))
    snap = world.snapshot()
    seen = []

    def begin(arbiter):
        with pytest.raises(RuntimeError, match="being stepped"):
            world.restore(snap)
        seen.append(1)
        return True

    world.on_collision(begin=begin)
    for _ in range(60):
        world.step(DT)
    assert seen


def test_state_hash_follows_the_state():
    world = SCENES["tumbler"]()
    h0 = world.state_hash()
    assert 0 <= h0 < 2**64
    assert world.state_hash() == h0
    world.step(DT)
    assert world.state_hash() != h0


def test_pickle_round_trip_continues_bit_identically():
    world = SCENES["bridge"]()
    for _ in range(50):
        world.step(DT)
    twin = pickle.loads(pickle.dumps(world))
    assert _hashes(twin, 60) == _hashes(world, 60)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_pickle_in_a_fresh_process_continues_bit_identically(tmp_path, name):
    world = SCENES[name]()
    for _ in range(100):
        world.step(DT)
    path = tmp_path / "world.pickle"
    path.write_bytes(pickle.dumps(world))
    expected = _hashes(world, 100)
    script = textwrap.dedent(f"""
        import pickle
        world = pickle.loads(open({str(path)!r}, "rb").read())
        out = []
        for _ in range(100):
            world.step(1 / 60)
            out.append(world.state_hash())
        print(out)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert eval(done.stdout) == expected


def test_pickle_of_another_format_is_refused():
    world = World()
    world.create_body().add_shape(Circle(0.5))
    state = world.__getstate__()
    fresh = World.__new__(World)
    with pytest.raises(ValueError, match="format 99"):
        fresh.__setstate__({**state, "format": 99})
    with pytest.raises(ValueError, match="format number"):
        fresh.__setstate__({"_state": state["state"]})  # a pickle from before formats


def test_corrupted_pickle_is_refused():
    world = SCENES["tumbler"]()
    for _ in range(10):
        world.step(DT)
    blob = bytearray(pickle.dumps(world))
    # Flip one byte inside the positions' data (found by their bytes in the blob).
    needle = world._state.bodies.pos[:4].tobytes()
    at = bytes(blob).find(needle)
    assert at > 0
    blob[at + 3] ^= 0x40
    with pytest.raises(ValueError, match="corrupted"):
        pickle.loads(bytes(blob))
    with pytest.raises(Exception):  # a truncated blob: pickle's own error
        pickle.loads(bytes(blob[: len(blob) // 2]))


def test_rollback_replays_hash_as_the_world_that_never_rolled_back():
    """``python -m demos rollback``'s peers: each step restores the snapshot of 8 steps
    ago and replays; the restored state must hash as the on-time world's did then. This
    caught the narrowphase caching the last pair's normal for pairs with no points (a
    value that depended on which pair came before, so replays differed)."""
    from demos import rollback

    match = rollback.Match(160)
    for now in range(160):
        match.hashes.append(match.truth.state_hash())
        start, restored = match.a.frame(now)
        if now >= rollback.ROLLBACK:
            assert restored == match.hashes[start], f"step {start} restored differently"
        match.b.frame(now)
        rollback.push(match.truth, [match.inputs[p][now] for p in (0, 1)])
        match.truth.step(1 / 60)
    assert match.a.world.state_hash() == match.b.world.state_hash() == match.truth.state_hash()


def test_a_snapshot_right_after_pairs_were_dropped_restores():
    """Found by the stateful test: a type change drops a body's pairs between steps; the
    solver's results kept their old length, so a snapshot then held more result rows
    than pairs and restoring it raised."""
    world = World()
    world.create_body("static", position=(0.0, -3.0)).add_shape(Polygon.box(8.0, 0.5))
    body = world.create_body()
    body.add_shape(Circle(0.5))
    world.create_bodies(Circle(0.5), [(0.0, 0.0), (0.7, 0.0)])
    world.step(1 / 60)
    body.body_type = "kinematic"
    snap, start = world.snapshot(), world.state_hash()
    world.step(1 / 60)
    after = world.state_hash()
    world.restore(snap)
    assert world.state_hash() == start
    world.step(1 / 60)
    assert world.state_hash() == after


def test_the_contact_report_and_events_are_restored():
    """The contact rows and the solver's results are kept packed (``row_pack.py``): a
    world put back reports the contacts, impulses and events of the step it was at."""
    world = SCENES["rain2000"]()
    for _ in range(100):
        world.step(DT)
    before = world.contacts().copy()
    begin, hit = world.contact_events.begin.copy(), world.contact_events.hit.copy()
    count = world.contact_count
    snap = world.snapshot()
    for _ in range(3):
        world.step(DT)
    world.restore(snap)
    np.testing.assert_array_equal(world.contacts(), before)
    np.testing.assert_array_equal(world.contact_events.begin, begin)
    np.testing.assert_array_equal(world.contact_events.hit, hit)
    assert world.contact_count == count and len(before) > 1000


def test_a_tampered_snapshot_is_refused_without_reading_out_of_bounds():
    world = SCENES["rain2000"]()
    for _ in range(60):
        world.step(DT)
    snap = world.snapshot()
    keys, hist, rows, results, bodies, dropped, counts = snap._pairs
    bad_counts = counts.copy()
    bad_counts[0] = 9
    for bad in ((keys, hist, rows[:-5], results, bodies, dropped, counts),
                (keys, hist[:-3], rows, results, bodies, dropped, counts),
                (keys, hist, rows, results[:-1], bodies, dropped, counts),
                (keys, hist, np.concatenate([rows, rows[:9]]), results, bodies, dropped, counts),
                (keys, hist, rows, results, bodies, dropped, counts[:-1]),
                (keys, hist, rows, results, bodies, dropped, bad_counts)):
        snap._pairs = bad
        with pytest.raises(ValueError, match="corrupted"):
            world.restore(snap)


def test_a_pickled_snapshot_restores_and_one_of_another_format_is_refused():
    world = SCENES["bridge"]()
    for _ in range(30):
        world.step(DT)
    snap = pickle.loads(pickle.dumps(world.snapshot()))
    first = _hashes(world, 20)
    world.restore(snap)
    assert _hashes(world, 20) == first
    state = snap.__getstate__()
    for bad in ({**state, "format": 1}, (None, {k: v for k, v in state.items() if k != "format"})):
        with pytest.raises(ValueError, match="format"):
            Snapshot.__new__(Snapshot).__setstate__(bad)
