"""engine.sweep: one world per parameter set, serially and on a dask LocalCluster (docs/sweep.md).

One two-worker LocalCluster serves the module (started once, workers warmed). The cluster's
results must equal the serial ones bit for bit: the same function builds, steps and
measures each world in both modes, and the kernels are deterministic on one machine.
"""
import subprocess
import sys

import distributed  # a test dependency (the test extra), so nothing here is skipped
import numpy as np
import pytest

from engine import World, scenes, sweep
from engine.sweep import _batches


G = 10.0
RADIUS = 0.25
RESTITUTIONS = np.linspace(0.0, 1.0, 12).tolist()
STEPS = 150  # 2.5 s: the ball has landed and, for the bouncier ones, is in flight again


def drop(e):
    """A ball dropped from 5 m onto the ground, both of restitution ``e``."""
    return scenes.restitution_drop(e, radius=RADIUS).build()[0]


def bounce(world):
    """The ball's height and vertical speed, and the top of the flight it is in (its bounce)."""
    y, vy = float(world.positions[1, 1]), float(world.velocities[1, 1])
    return {"y": y, "vy": vy, "apex": y - RADIUS + vy * vy / (2 * G)}


def drop_dict(p):
    return scenes.restitution_drop(p["e"], height=p["h"], radius=RADIUS).build()[0]


def fragile(e):
    if e == RESTITUTIONS[5]:
        raise ValueError("no ball for this one")
    return drop(e)


def fickle(world):
    """A measure whose keys depend on the world: a bug sweep must report."""
    return {"y": 1.0} if world.positions[1, 1] > 1.0 else {"height": 1.0}


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as cluster, distributed.Client(cluster) as c:
        c.run(lambda: drop(0.5).step(1 / 60) or 0)  # import the engine and load its kernels once per worker
        yield c


@pytest.fixture(scope="module")
def serial():
    return sweep(drop, RESTITUTIONS, STEPS, bounce, client="serial", progress=False)


def test_serial_table_is_in_params_order_with_param_and_measured_columns(serial):
    assert serial.dtype.names == ("param", "y", "vy", "apex")
    assert serial["param"].tolist() == RESTITUTIONS
    one = bounce(_stepped(drop(RESTITUTIONS[7]), STEPS))
    assert serial[7]["apex"] == one["apex"] and serial[7]["vy"] == one["vy"]
    assert serial["apex"][0] < 0.01 and serial["apex"][-1] > 4.5  # dead and elastic balls


def _stepped(world, steps):
    for _ in range(steps):
        world.step(1 / 60)
    return world


def test_cluster_equals_serial_bit_for_bit(client, serial):
    table = sweep(drop, RESTITUTIONS, STEPS, bounce, client=client, progress=False)
    assert table.dtype == serial.dtype
    assert table.tobytes() == serial.tobytes()


@pytest.mark.parametrize("batch_size", [1, 5, 12, 100])
def test_batches_keep_params_order(client, serial, batch_size):
    table = sweep(drop, RESTITUTIONS, STEPS, bounce, client=client, batch_size=batch_size, progress=False)
    assert table.tobytes() == serial.tobytes()


def test_client_by_scheduler_address(client, serial):
    address = client.scheduler.address
    table = sweep(drop, RESTITUTIONS, STEPS, bounce, client=address, progress=False)
    assert table.tobytes() == serial.tobytes()
    assert client.status == "running"  # the caller's cluster is left as it was


def test_default_client_starts_and_closes_a_local_cluster():
    table = sweep(drop, RESTITUTIONS[:3], 10, bounce, progress=False)
    assert table.tobytes() == sweep(drop, RESTITUTIONS[:3], 10, bounce, client="serial",
                                    progress=False).tobytes()


def test_batches_partition_the_indices_strided():
    assert _batches(2, 1, 4) == [[0], [1]]
    assert _batches(5, None, 1) == [[0, 3], [1, 4], [2]]  # about 4 tasks per thread: 2 per batch
    assert _batches(10, 4, 1) == [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]
    for count, size, threads in [(200, None, 2), (7, 3, 2), (1, None, 8)]:
        got = _batches(count, size, threads)
        assert sorted(i for b in got for i in b) == list(range(count))


def test_dict_table_and_structured_params_give_the_same_table():
    e, h = [0.2, 0.9, 0.5], [1.0, 2.0, 3.0]
    by_dicts = sweep(drop_dict, [{"e": a, "h": b} for a, b in zip(e, h)], 30, bounce,
                     client="serial", progress=False)
    by_columns = sweep(drop_dict, {"e": np.array(e), "h": h}, 30, bounce, client="serial", progress=False)
    records = np.array(list(zip(e, h)), dtype=[("e", float), ("h", float)])
    by_records = sweep(drop_dict, records, 30, bounce, client="serial", progress=False)
    by_frame = sweep(drop_dict, _Frame(records), 30, bounce, client="serial", progress=False)
    assert by_dicts.dtype.names == ("e", "h", "y", "vy", "apex")
    assert by_dicts.tobytes() == by_columns.tobytes() == by_records.tobytes() == by_frame.tobytes()


class _Frame:
    """What sweep uses of a pandas DataFrame (pandas is not a test dependency)."""

    def __init__(self, records):
        self.records, self.columns = records, list(records.dtype.names)

    def to_records(self, index=True):
        assert index is False
        return self.records.view(np.recarray)

    def __iter__(self):  # a DataFrame iterates over its column names: sweep must not
        return iter(self.columns)


def test_tuple_params_and_a_scalar_measure():
    table = sweep(lambda p: drop(p[0]), [(0.1, "a"), (0.8, "b")], 5, lambda w: w.positions[1, 1],
                  client="serial", progress=False)
    assert table.dtype.names == ("param", "value")
    assert table["param"].dtype == object and table["param"][1] == (0.8, "b")
    assert table["value"].dtype == np.float64


def test_columns_of_strings_and_of_mixed_scalars():
    table = sweep(lambda p: World(), ["a", "bc"], 0, lambda w: {"n": 1, "s": "x", "mixed": 2.5},
                  client="serial", progress=False)
    assert table["param"].tolist() == ["a", "bc"] and table["s"].tolist() == ["x", "x"]
    assert table["n"].dtype == np.int64 and table["mixed"].dtype == np.float64
    mixed = sweep(_bodies, [1, 2], 0, lambda w: {"v": "x" if len(w.bodies) == 1 else 3.0}, client="serial",
                  progress=False)
    assert mixed["v"].dtype == object and mixed["v"].tolist() == ["x", 3.0]  # not "3.0"


def _bodies(count):
    world = World()
    for _ in range(count):
        world.create_body()
    return world


def test_progress_bar_on_stderr(capsys):
    sweep(drop, [0.5, 0.6], 1, bounce, client="serial")
    err = capsys.readouterr().err
    assert "sweep 2/2 [" in err and "100 %" in err
    sweep(drop, [0.5, 0.6], 1, bounce, client="serial", progress=False)
    assert capsys.readouterr().err == ""


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, words", [
    ({"steps": -1}, ValueError, "steps must be an int >= 0"),
    ({"steps": 2.5}, ValueError, "steps must be an int >= 0"),
    ({"steps": True}, ValueError, "steps must be an int >= 0"),
    ({"dt": 0.0}, ValueError, "dt must be > 0"),
    ({"dt": float("nan")}, ValueError, "dt must be finite"),
    ({"dt": 2.0}, ValueError, "dt"),
    ({"build": 3}, TypeError, "build must be callable"),
    ({"measure": None}, TypeError, "measure must be callable"),
    ({"params": []}, ValueError, "params is empty"),
    ({"params": 0.5}, TypeError, "params must be a sequence"),
    ({"params": "abc"}, TypeError, "params must be a sequence"),
    ({"params": {"e": [0.1, 0.2], "h": [1.0]}}, ValueError, "columns of equal length"),
    ({"params": [{"e": 0.1}, {"f": 0.2}]}, ValueError, "same keys"),
    ({"batch_size": 0}, ValueError, "batch_size must be None or an int >= 1"),
    ({"progress": "yes"}, TypeError, "progress must be True or False"),
    ({"client": 42}, TypeError, "client must be None"),
])
def test_bad_arguments_are_named(kwargs, error, words):
    args = {"build": drop, "params": [0.5], "steps": 1, "measure": bounce, "client": "serial",
            "progress": False, **kwargs}
    with pytest.raises(error, match=words):
        sweep(**args)


def test_build_must_return_a_world():
    with pytest.raises(TypeError, match=r"build must return an engine.World; for params\[1\] = 'b'"):
        sweep(lambda p: World() if p == "a" else None, ["a", "b"], 0, lambda w: 1.0, client="serial",
              progress=False)


def test_measure_must_return_scalars():
    with pytest.raises(TypeError, match=r"dict of scalars.*params\[0\] = 0.5.*'xy'"):
        sweep(drop, [0.5], 1, lambda w: {"xy": w.positions[1]}, client="serial", progress=False)
    with pytest.raises(ValueError, match="also name parameter columns"):
        sweep(drop_dict, [{"e": 0.5, "h": 1.0}], 1, lambda w: {"e": 1.0}, client="serial", progress=False)


@pytest.mark.parametrize("where", ["serial", "cluster"])
def test_measure_keys_must_not_change(client, where):
    with pytest.raises(ValueError, match=r"same keys for every parameter set: for params\[\d\] = .* "
                                         r"it returned \['(y|height)'\], for params\[\d\] = .* \['(y|height)'\]"):
        sweep(drop_dict, [{"e": 0.5, "h": 2.0}, {"e": 0.5, "h": 0.5}], 0, fickle,
              client="serial" if where == "serial" else client, progress=False)


@pytest.mark.parametrize("where", ["serial", "cluster"])
def test_exception_in_build_names_the_parameter_set(client, where):
    with pytest.raises(ValueError, match="no ball for this one") as info:
        sweep(fragile, RESTITUTIONS, 1, bounce, client="serial" if where == "serial" else client,
              batch_size=3, progress=False)
    assert info.value.__notes__ == [f"engine.sweep: raised by build for params[5] = {RESTITUTIONS[5]!r}"]


def test_exception_in_measure_names_the_parameter_set():
    with pytest.raises(KeyError) as info:
        sweep(drop, [0.5, 0.7], 1, lambda w: {}["nothing"], client="serial", progress=False)
    assert info.value.__notes__ == ["engine.sweep: raised by measure for params[0] = 0.5"]


def test_without_dask_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    with pytest.raises(ImportError, match=r'pip install "engine\[dask\]"'):
        sweep(drop, [0.5], 1, bounce, progress=False)
    assert sweep(drop, [0.5], 1, bounce, client="serial", progress=False).size == 1


def test_import_engine_does_not_import_dask():
    code = "import sys, engine; print(sorted({'dask', 'distributed'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
