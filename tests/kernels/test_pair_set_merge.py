"""``PairSet`` merging new pairs in and compacting dropped ones out, against a dictionary
of key -> history row: each pair's history travels with its key, a new pair's history
starts at zero, and the history buffer is reused, grown, copied or pickled without mixing
rows up (``contacts/pair_set.py`` moves histories in place since session 20)."""
import pickle

import numpy as np
from hypothesis import given, settings, strategies as st

from engine.contacts.layout import HIST_SIZE
from engine.contacts.pair_set import PairSet

key_sets = st.sets(st.integers(0, 40).map(lambda a: (a << 32) | (a + 1)) | st.integers(0, 200),
                   max_size=60)
operations = st.lists(st.tuples(st.sampled_from(["add", "keep", "pickle"]), key_sets,
                                st.integers(0, 2**32 - 1)), max_size=12)


def _check(pairs, model):
    assert pairs.keys.tolist() == sorted(model)
    assert pairs.hist.shape == (len(model), HIST_SIZE)
    for row, key in zip(pairs.hist, pairs.keys.tolist()):
        assert row.tolist() == model[key].tolist(), key


@settings(max_examples=120, deadline=None)
@given(operations)
def test_histories_follow_their_keys(ops):
    pairs = PairSet()
    model = {}
    for what, keys, seed in ops:
        rng = np.random.default_rng(seed)
        if what == "add":
            new = np.array(sorted(keys), np.int64)
            pairs.add(new)
            for k in new.tolist():
                model.setdefault(k, np.zeros(HIST_SIZE))
        elif what == "keep" and len(pairs):
            keep = rng.random(len(pairs)) < 0.6
            pairs.keep(keep)
            model = {k: model[k] for k, kept in zip(sorted(model), keep) if kept}
        elif what == "pickle":
            pairs = pickle.loads(pickle.dumps(pairs))
        _check(pairs, model)
        # this step's histories, as the narrowphase would write them
        values = rng.standard_normal((len(pairs), HIST_SIZE))
        pairs.hist[:] = values
        model = {k: values[i].copy() for i, k in enumerate(sorted(model))}
    _check(pairs, model)
