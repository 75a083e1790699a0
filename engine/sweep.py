"""Parameter sweeps: one world per parameter set, stepped and measured, in batches on a
``dask.distributed`` cluster or in this process (docs/sweep.md).

Dask is an optional dependency (``pip install "engine[dask]"``): it is imported when a
sweep runs on a cluster, never by ``import engine``. The work of one parameter set
(build, step, measure) is the same function in both modes, so a cluster returns exactly
the serial results on the same machine (the kernels are deterministic; docs/internals.md).
"""
import math
import numbers
import os
import reprlib
import sys
import time
from collections.abc import Mapping

import numpy as np

from . import constants as K
from ._checks import as_between, as_positive
from .world.world import World

__all__ = ["sweep"]

INSTALL_HINT = 'engine.sweep on a cluster needs dask.distributed: pip install "engine[dask]"'
TASKS_PER_THREAD = 4  # default batches: about this many tasks per worker thread
PARAM_COLUMN = "param"  # the table's column of parameter sets that are not dicts
VALUE_COLUMN = "value"  # the table's column of a measure that returns a scalar

_short = reprlib.Repr()
_short.maxstring = _short.maxother = 60


def sweep(build, params, steps, measure, client=None, *, dt=1 / 60, batch_size=None, progress=True):
    """Build, step and measure one world per parameter set; a table in ``params`` order.

    Each parameter set ``p`` runs ``world = build(p)``, ``world.step(dt)`` ``steps`` times,
    then ``measure(world)``. The sets run in batches (one task builds and steps the worlds
    of a batch one after another) on a ``dask.distributed`` cluster, or in this process.

    Parameters
    ----------
    build : callable
        ``build(p)`` returns a new :class:`World` for the parameter set ``p``.
    params : sequence, dict of arrays or structured array
        The parameter sets, at least one. A sequence gives its items to ``build`` as they
        are (dicts, tuples, numbers, anything). A dict of equal-length arrays, a NumPy
        structured array or a pandas DataFrame is a table: ``build`` gets each row as a dict.
    steps : int
        Steps of each world before ``measure``, >= 0 (0: ``measure`` may step it itself).
    measure : callable
        ``measure(world)`` returns a dict of scalars (the same keys for every set) or one
        scalar (column ``"value"``).
    client : distributed.Client, str or None
        Where to run: None starts a ``LocalCluster`` (one single-threaded worker process
        per core) and closes it afterwards; a scheduler address (``"tcp://host:8786"``)
        connects to that cluster; a ``Client`` is used as it is; ``"serial"`` runs in
        this process without dask.
    dt : float
        The time step in seconds, > 0 and at most 1.
    batch_size : int or None
        Parameter sets per task, >= 1; None: about four tasks per worker thread.
    progress : bool
        Show a progress bar on stderr.

    Returns
    -------
    numpy.ndarray
        A structured array, one row per parameter set in ``params`` order: the parameter
        columns (one per dict key, else one column ``"param"``), then the measured ones.

    Raises
    ------
    TypeError, ValueError
        On bad arguments, a ``build`` that returns no ``World`` or a ``measure`` whose
        keys change; the message names the parameter set. An exception raised by
        ``build`` or ``measure`` propagates with a note naming the parameter set.
    ImportError
        With ``client`` other than ``"serial"`` when dask.distributed is not installed.

    Examples
    --------
    >>> from engine import scenes
    >>> def drop(e):
    ...     return scenes.restitution_drop(e, height=1.0).build()[0]
    >>> def speed(world):
    ...     return {"vy": float(world.velocities[1, 1])}
    >>> table = sweep(drop, [0.0, 0.5], 20, speed, client="serial", progress=False)
    >>> table.dtype.names, table["param"].tolist()
    (('param', 'vy'), [0.0, 0.5])
    """
    items, columns = _param_sets(params)
    steps, dt, batch_size = _check_run(build, measure, steps, dt, batch_size, progress)
    rows = _Rows(items)
    if isinstance(client, str) and client == "serial":
        with _Progress(len(items), progress) as bar:
            for index, p in enumerate(items):
                rows.add(*_run_one(build, measure, steps, dt, index, p))
                bar.advance(1)
    else:
        _run_on_dask(client, (build, measure, steps, dt), items, batch_size, progress, rows)
    return rows.table(columns)


def _check_run(build, measure, steps, dt, batch_size, progress):
    for name, f in (("build", build), ("measure", measure)):
        if not callable(f):
            raise TypeError(f"{name} must be callable, got {type(f).__name__} {_short.repr(f)}")
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 0:
        raise ValueError(f"steps must be an int >= 0, got {type(steps).__name__} {steps!r}")
    dt = as_between(as_positive(dt, "dt"), "dt", 0.0, K.MAX_DT, "s")
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral)
                                   or batch_size < 1):
        raise ValueError(f"batch_size must be None or an int >= 1, got {batch_size!r}")
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    return int(steps), dt, batch_size


# -- parameter sets ---------------------------------------------------------------------------
def _param_sets(params):
    """``(items, columns)``: the parameter sets as a list and the table's parameter columns
    (``{name: values}``; dict items give one column per key, other items one ``"param"``)."""
    if hasattr(params, "to_records") and hasattr(params, "columns"):  # a pandas DataFrame
        params = params.to_records(index=False)
    if isinstance(params, np.ndarray) and params.dtype.names is not None:
        if params.ndim != 1:
            raise ValueError(f"a structured array of params must be 1-D, got shape {params.shape}")
        params = {name: params[name] for name in params.dtype.names}
    if isinstance(params, Mapping):
        items = _rows_of_columns(params)
    elif isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TypeError("params must be a sequence of parameter sets, a dict of equal-length arrays "
                        f"or a structured array, got {type(params).__name__} {_short.repr(params)}")
    else:
        items = list(params)
    if not items:
        raise ValueError("params is empty: give at least one parameter set")
    if not all(isinstance(p, Mapping) for p in items):
        return items, {PARAM_COLUMN: items}
    keys = list(items[0])
    for index, p in enumerate(items):
        if list(p) != keys:
            raise ValueError(f"dict parameter sets must have the same keys: params[0] has {keys}, "
                             f"params[{index}] has {list(p)}")
        if not all(isinstance(k, str) for k in keys):
            raise TypeError(f"parameter names must be strings, got {keys}")
    return items, {k: [p[k] for p in items] for k in keys}


def _rows_of_columns(columns):
    lengths = {name: len(values) for name, values in columns.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"a dict of params needs columns of equal length, got lengths {lengths}")
    lists = {name: np.asarray(values).tolist() if isinstance(values, np.ndarray) else list(values)
             for name, values in columns.items()}
    count = next(iter(lengths.values()), 0)
    return [{name: values[i] for name, values in lists.items()} for i in range(count)]


# -- one parameter set (in a worker, or here) -----------------------------------------------
def _run_one(build, measure, steps, dt, index, p):
    """``(index, row)``: the world of ``params[index] = p`` built, stepped and measured."""
    where = f"params[{index}] = {_short.repr(p)}"
    try:
        world = build(p)
    except Exception as exc:
        _add_note(exc, f"engine.sweep: raised by build for {where}")
        raise
    if not isinstance(world, World):
        raise TypeError(f"build must return an engine.World; for {where} it returned "
                        f"{type(world).__name__} {_short.repr(world)}")
    try:
        for _ in range(steps):
            world.step(dt)
    except Exception as exc:
        _add_note(exc, f"engine.sweep: raised by world.step for {where}")
        raise
    try:
        value = measure(world)
    except Exception as exc:
        _add_note(exc, f"engine.sweep: raised by measure for {where}")
        raise
    return index, _as_row(value, where)


def _run_batch(build, measure, steps, dt, batch):
    """``[(index, row)]`` of a batch of ``(index, parameter set)`` pairs, one after another."""
    return [_run_one(build, measure, steps, dt, index, p) for index, p in batch]


def _add_note(exc, note):
    """Name the parameter set on ``exc`` (a PEP 678 note: printed with the traceback from
    Python 3.11; kept in ``__notes__`` on 3.10), keeping its type for ``except`` clauses."""
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:  # pragma: no cover - Python 3.10
        exc.__notes__ = [*getattr(exc, "__notes__", []), note]


def _scalar(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (numbers.Number, np.generic, str)) and not isinstance(value, np.void):
        return value
    return None


def _as_row(value, where):
    if not isinstance(value, Mapping):
        scalar = _scalar(value)
        if scalar is None:
            raise TypeError(f"measure must return a dict of scalars or a scalar; for {where} it returned "
                            f"{type(value).__name__} {_short.repr(value)}")
        return {VALUE_COLUMN: scalar}
    row = {}
    for key, item in value.items():
        scalar = _scalar(item)
        if not isinstance(key, str) or scalar is None:
            raise TypeError(f"measure must return a dict of scalars with string keys; for {where} "
                            f"it returned {_short.repr(key)}: {type(item).__name__} {_short.repr(item)}")
        row[key] = scalar
    return row


# -- results ----------------------------------------------------------------------------------
class _Rows:
    """The measured rows by parameter index; checks that every row has the first one's keys."""

    def __init__(self, items):
        self.items = items
        self.rows = [None] * len(items)
        self.first = None

    def add(self, index, row):
        if self.first is None:
            self.first = index
        elif set(row) != set(self.rows[self.first]):
            a, b = self.first, index
            raise ValueError(
                f"measure must return the same keys for every parameter set: for params[{a}] = "
                f"{_short.repr(self.items[a])} it returned {list(self.rows[a])}, for params[{b}] = "
                f"{_short.repr(self.items[b])} {list(row)}")
        self.rows[index] = row

    def table(self, param_columns):
        """The structured array: parameter columns, then measured columns, in params order."""
        measured = list(self.rows[self.first])
        clash = [name for name in measured if name in param_columns]
        if clash:
            raise ValueError(f"measure returned {clash}, which also name parameter columns: rename one")
        columns = dict(param_columns)
        columns.update({name: [row[name] for row in self.rows] for name in measured})
        arrays = {name: _column(values) for name, values in columns.items()}
        table = np.empty(len(self.rows), dtype=[(name, a.dtype) for name, a in arrays.items()])
        for name, a in arrays.items():
            table[name] = a
        return table


def _column(values):
    """One column: NumPy's dtype for numbers or for strings (ints and floats mixed give
    floats), else objects."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError):  # ragged sequences
        array = None
    if array is not None and array.dtype.kind in "US" and not all(isinstance(v, (str, bytes)) for v in values):
        array = None  # numbers among strings: kept as they are, not turned into text
    if array is None or array.ndim != 1 or array.dtype.kind not in "biufcUS":
        array = np.empty(len(values), dtype=object)
        array[:] = [None] * len(values)
        for i, v in enumerate(values):
            array[i] = v
    return array


# -- on a dask cluster ------------------------------------------------------------------------
def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise ImportError(f"{INSTALL_HINT} (or pass client='serial' to run in this process)") from exc
    return distributed


def _connect(client, distributed):
    """``(client, owned)``: the client to use and what to close afterwards (ours only)."""
    if client is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        cluster = distributed.LocalCluster(n_workers=max(1, workers or 1), threads_per_worker=1,
                                           processes=True, dashboard_address="127.0.0.1:0")
        client = distributed.Client(cluster)
        return client, [client, cluster]
    if isinstance(client, str):
        client = distributed.Client(client)
        return client, [client]
    if isinstance(client, distributed.Client):
        return client, []
    raise TypeError("client must be None (a LocalCluster on this machine), a scheduler address such as "
                    "'tcp://10.0.0.5:8786', 'serial' (this process, no dask) or a distributed.Client, "
                    f"got {type(client).__name__} {_short.repr(client)}")


def _batches(count, batch_size, threads):
    """Index lists of the batches, strided (batch k holds k, k + b, k + 2b, ... for b batches)
    so that cheap and costly parameter sets (often neighbours) mix within every batch."""
    if batch_size is None:
        batch_size = max(1, math.ceil(count / (TASKS_PER_THREAD * max(1, threads))))
    batches = math.ceil(count / batch_size)
    return [list(range(k, count, batches)) for k in range(batches)]


def _run_on_dask(client, work, items, batch_size, progress, rows):
    """Submit the batches of ``work`` (build, measure, steps, dt) and gather them into ``rows``."""
    distributed = _import_distributed()
    client, owned = _connect(client, distributed)
    futures = []
    try:
        threads = sum(client.nthreads().values())
        futures = [client.submit(_run_batch, *work, [(i, items[i]) for i in batch], pure=False)
                   for batch in _batches(len(items), batch_size, threads)]
        with _Progress(len(items), progress) as bar:
            for future in distributed.as_completed(futures):
                done = future.result()
                for index, row in done:
                    rows.add(index, row)
                bar.advance(len(done))
    finally:
        if futures and not owned:
            client.cancel(futures)  # release them; after an error, stop the rest on the caller's cluster
        for thing in owned:
            thing.close()


# -- progress ---------------------------------------------------------------------------------
class _Progress:
    """A one-line text bar on stderr (``sweep  120/200 [#####.....] 60 %  3.1 s``), or nothing."""

    WIDTH = 30

    def __init__(self, total, enabled):
        self.total, self.enabled, self.done = total, enabled, 0
        self.start = time.perf_counter()

    def __enter__(self):
        self._draw()
        return self

    def advance(self, count):
        self.done += count
        self._draw()

    def __exit__(self, *exc):
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()

    def _draw(self):
        if not self.enabled:
            return
        filled = self.WIDTH * self.done // self.total
        sys.stderr.write(f"\rsweep {self.done:>{len(str(self.total))}}/{self.total} "
                         f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {100 * self.done // self.total:3d} % "
                         f"{time.perf_counter() - self.start:6.1f} s")
        sys.stderr.flush()
