"""A dense store's row removal (``Columns.delete``, one kernel moving every column's
bytes) against NumPy's ``np.delete``: columns of every dtype and trailing shape the
engine uses, random removals, growth in between, and copies that must not share the
store's byte views."""
import copy
import pickle

import numpy as np
from hypothesis import given, settings, strategies as st

from engine._store import Columns

SPEC = {
    "pos": (np.float64, (2,), 0.0),
    "angle": (np.float64, (), 0.5),
    "kind": (np.int8, (), -1),
    "flags": (np.uint8, (), 3),
    "awake": (np.bool_, (), True),
    "key": (np.int64, (), -7),
    "small": (np.float32, (3,), 2.5),
    "mat": (np.float64, (2, 2), -1.0),
}


def _fill(store, rows, rng):
    for name in SPEC:
        col = getattr(store, name)
        values = rng.normal(size=(rows,) + col.shape[1:]) * 100
        col[:rows] = values.astype(col.dtype) if col.dtype != np.bool_ else values > 0


def _expected(store, i):
    """Every column after removing row ``i`` of the rows in use, by NumPy."""
    out = {}
    for name, (dtype, shape, fill) in SPEC.items():
        col = getattr(store, name)
        kept = np.delete(col[:store.used], i, axis=0)
        out[name] = np.concatenate([kept, np.full((col.shape[0] - kept.shape[0],) + shape, fill, dtype)])
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ops=st.lists(st.integers(0, 2), min_size=1, max_size=25))
def test_delete_equals_numpy(seed, ops):
    rng = np.random.default_rng(seed)
    store = Columns(SPEC, 4)
    store.append(int(rng.integers(1, 10)))
    _fill(store, store.used, rng)
    for op in ops:
        if op == 0 and store.used:  # remove a random row
            i = int(rng.integers(0, store.used))
            want = _expected(store, i)
            store.delete(i)
            for name in SPEC:
                np.testing.assert_array_equal(getattr(store, name), want[name], err_msg=name)
        elif op == 1:  # grow past the capacity now and then (the byte views are made anew)
            first = store.append(int(rng.integers(1, 9)))
            for name in SPEC:
                col = getattr(store, name)
                col[first:store.used] = np.asarray(rng.normal(size=(store.used - first,) + col.shape[1:]) * 10).astype(col.dtype)
        else:  # a copy (deepcopy, pickle) is a store of its own
            twin = copy.deepcopy(store) if rng.random() < 0.5 else pickle.loads(pickle.dumps(store))
            before = {name: getattr(store, name).copy() for name in SPEC}
            if twin.used:
                want = _expected(twin, 0)
                twin.delete(0)
                for name in SPEC:  # the twin's own columns shifted ...
                    np.testing.assert_array_equal(getattr(twin, name), want[name], err_msg=name)
            for name in SPEC:  # ... and the store's untouched
                np.testing.assert_array_equal(getattr(store, name), before[name], err_msg=name)
