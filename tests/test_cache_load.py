"""Cached kernels load without their linking bitcode parsed and without Numba's compiler
registries installed (``engine/_cache_load.py``), and still run, and still link into
kernels compiled after them."""
import os
import subprocess
import sys
import textwrap

import numba
import pytest

from engine import _cache_load

pytestmark = [
    pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled"),
    # The change reads ELF symbol tables; on other systems Numba loads as it always does.
    pytest.mark.skipif(sys.platform != "linux", reason="ELF object files: Linux only"),
]

_KERNELS = textwrap.dedent('''
    import numba
    import numpy as np

    @numba.njit(cache=True)
    def helper(a):
        return a.sum() * 2.0

    @numba.njit(cache=True)
    def kernel(a, k):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * k
        return s + helper(a)
''')

_RUN = textwrap.dedent('''
    import sys
    import numpy as np
    import numba
    from llvmlite import binding as ll
    from numba.core import codegen
    import engine  # applies the change
    from engine._cache_load import defined_symbols
    sys.path.insert(0, sys.argv[1])
    loaded = []
    lazy = codegen.CPUCodeLibrary._unserialize.__func__
    def spy(cls, gen, state):
        name, kind, data = state
        if kind == "object":
            module = ll.parse_bitcode(data[1])
            from_bitcode = {g.name for gs in (module.functions, module.global_variables)
                            for g in gs if not g.is_declaration}
            assert defined_symbols(data[0]) == from_bitcode, name
        library = lazy(cls, gen, state)
        loaded.append(library)
        return library
    codegen.CPUCodeLibrary._unserialize = classmethod(spy)
    from numba.core.registry import cpu_target
    import kernels
    a = np.arange(5.0)
    assert kernels.kernel(a, 3.0) == 30.0 + 20.0
    registries = len(cpu_target.typing_context._registries)  # none installed by a load
    @numba.njit  # compiled now: links the cached helper in
    def caller(a):
        return kernels.helper(a) + 1.0
    assert caller(a) == 21.0
    after = len(cpu_target.typing_context._registries)
    print(len(loaded), sum(hasattr(l, "_engine_bitcode") for l in loaded), registries, after)
''')


def test_cached_kernels_load_run_and_link(tmp_path):
    assert _cache_load.apply()  # numba 0.68 on Linux: the change applies
    (tmp_path / "kernels.py").write_text(_KERNELS)
    (tmp_path / "run.py").write_text(_RUN)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    outs = []
    for _ in range(2):  # compiled and cached, then loaded from the cache
        done = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout.split())
    assert outs[0][:2] == ["0", "0"]  # nothing in the cache yet
    loaded, lazy, registries, after = map(int, outs[1])
    # kernel and helper loaded; the helper's bitcode was parsed when caller linked it
    assert loaded >= 2 and lazy >= 1
    # the loads installed no typing registry; the compile after them refreshed them all
    assert _cache_load.apply_lazy_refresh() and registries == 0 and after > 0
