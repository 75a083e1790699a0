"""Numba's inliner, as the engine sets it up (``engine/_inline_copy.py``): each inlined
callee's IR is copied once per call site, not once per block, and inlined code still
computes what it computes as a plain call."""
import numba
import pytest
from numba.core import inline_closurecall, ir

import engine._inline_copy as _inline_copy  # noqa: the module under test

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled")


# Nine ifs in a row: about twenty blocks and a handful of variables. Copied block by
# block, the scope (every variable) would be copied twenty times. Written out by a loop
# so the test file does not repeat itself.
_SOURCE = "def _branchy(x):\n    total = 0.0\n" + "".join(
    f"    if x > {k}.0:\n        total += {k}.0\n" for k in range(1, 10)) + "    return total\n"
_namespace = {}
exec(compile(_SOURCE, "<branchy>", "exec"), _namespace)
_branchy = _namespace["_branchy"]


def _compile_with_inlined_helper():
    helper = numba.njit(inline="always")(_branchy)

    @numba.njit
    def caller(x):
        return helper(x) + helper(x + 1.0)

    return caller


def test_the_installed_numba_gets_the_fix():
    if not _inline_copy.applies():  # a Numba whose inliner changed: nothing to fix, or not this way
        pytest.skip(f"numba {numba.__version__}: inline_ir is not the one this fix was made for")
    assert _inline_copy.apply()
    assert inline_closurecall.InlineWorker.inline_ir._engine_shared_memo
    assert inline_closurecall.copy is _inline_copy.copy  # restored after every call


def test_a_callee_scope_is_copied_once_per_call_site_not_once_per_block(monkeypatch):
    if not _inline_copy.apply():
        pytest.skip("the fix does not apply to this Numba")
    copies = []
    original = ir.Scope.__deepcopy__ if hasattr(ir.Scope, "__deepcopy__") else None
    assert original is None  # Scope is copied by copy's default reconstruction

    def counting(self, memo):
        copies.append(self)
        clone = ir.Scope.__new__(ir.Scope)
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            setattr(clone, key, _inline_copy.copy.deepcopy(value, memo))
        return clone

    monkeypatch.setattr(ir.Scope, "__deepcopy__", counting, raising=False)
    caller = _compile_with_inlined_helper()
    assert caller(4.5) == _branchy(4.5) + _branchy(5.5)
    # Two call sites, two copies each (the callee and its untouched original): four.
    # Copied block by block it is one per block per copy: over eighty.
    assert 0 < len(copies) <= 8, len(copies)


def test_inlined_results_equal_plain_python():
    caller = _compile_with_inlined_helper()
    for x in (-1.0, 0.5, 2.5, 6.0, 9.5, 20.0):
        assert caller(x) == _branchy(x) + _branchy(x + 1.0)


def test_it_can_be_turned_off(monkeypatch):
    import subprocess
    import sys
    code = ("import engine, numba.core.inline_closurecall as m; "
            "print(getattr(m.InlineWorker.inline_ir, '_engine_shared_memo', False))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "ENGINE_NUMBA_INLINE_COPY": "0"})
    assert out.stdout.strip() == "False"
