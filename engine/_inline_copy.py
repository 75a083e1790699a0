"""Numba's inliner copies a callee's IR once per block; this makes it copy it once.

Most of the engine's per-pair and per-contact helpers are inlined into their kernels at
Numba's IR level (``inline="always"``, see ``_jit.py``). Before splicing a callee in,
``numba.core.inline_closurecall.InlineWorker.inline_ir`` deep-copies the callee's IR
block by block, each block with a fresh ``copy.deepcopy`` memo. Every variable in a
block refers to the function's one ``Scope``, which holds every variable of the
function, so each block drags a full copy of the whole scope along: the work grows as
blocks x variables. For the narrowphase's ``collide_pieces`` (the polygon routines
inlined, about a thousand variables) that was 9.5 s of its 20.6 s compile, and the
copying was a third of a cold start (numba issues #8989 and #9204 describe the same
costs; numba 0.68 still copies per block).

The fix is to give the per-block copies of one ``inline_ir`` call a shared memo, which
is what ``copy.deepcopy(the_ir.blocks)`` would do: the copied blocks then share one copy
of the scope and of each variable, exactly as the original blocks share them, so the
inliner sees the same structure it always sees in a freshly built IR. A cold start
(import, build pyramid20, first step; whole process, three runs each, taking turns)
took 51.9 s before and 43.7 s after (2026-11-27, numba 0.68.1).

It is applied only where it is known to mean exactly that: ``inline_ir`` must contain the
per-block copy line, and ``copy.deepcopy`` must be called nowhere else in its module.
Any other Numba leaves the inliner as it is (correct, only slower). The shared memo
lives only for the duration of one ``inline_ir`` call (nested calls get their own) and
Numba compiles under one global lock, so there is nothing to share between threads.
Set ``ENGINE_NUMBA_INLINE_COPY=0`` to leave Numba untouched.
"""
import copy
import inspect
import os

from numba.core import inline_closurecall

__all__ = ["apply", "applies"]

# The line this module changes: a fresh memo for every block.
_PER_BLOCK_COPY = "new_block = copy.deepcopy(the_ir.blocks[block_label])"


class _SharedMemoCopy:
    """Stands in for the ``copy`` module inside ``inline_ir``: ``deepcopy`` without a memo
    uses the memo of the current ``inline_ir`` call; everything else is ``copy``'s."""

    def __init__(self):
        self.memo = None

    def deepcopy(self, x, memo=None):
        return copy.deepcopy(x, self.memo if memo is None else memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def applies(module=inline_closurecall):
    """Whether ``module`` (Numba's inliner) has the per-block copy this fixes and no other
    deep copy.

    Examples
    --------
    >>> import types
    >>> applies(types.ModuleType("empty"))
    False
    """
    worker = getattr(module, "InlineWorker", None)
    if worker is None or not hasattr(worker, "inline_ir"):
        return False
    try:
        method = inspect.getsource(worker.inline_ir)
        whole = inspect.getsource(module)
    except (OSError, TypeError):
        return False
    return (method.count(_PER_BLOCK_COPY) == 1 and whole.count("copy.deepcopy(") == 1
            and module.copy is copy)


def apply():
    """Share one memo among the block copies of each ``inline_ir`` call, if it applies.

    Returns True when the inliner was changed (or already had been).

    Examples
    --------
    >>> apply() in (True, False)
    True
    """
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "_engine_shared_memo", False):
        return True
    if os.environ.get("ENGINE_NUMBA_INLINE_COPY", "1") == "0" or not applies():
        return False
    original = worker.inline_ir
    shim = _SharedMemoCopy()

    def inline_ir(self, *args, **kwargs):
        saved = shim.memo
        shim.memo = {}
        inline_closurecall.copy = shim
        try:
            return original(self, *args, **kwargs)
        finally:
            shim.memo = saved
            if saved is None:
                inline_closurecall.copy = copy

    inline_ir.__doc__ = original.__doc__
    inline_ir.__wrapped__ = original
    inline_ir._engine_shared_memo = True
    worker.inline_ir = inline_ir
    return True
