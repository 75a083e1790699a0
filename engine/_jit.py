"""The one place that chooses Numba's options for every kernel.

``njit`` is ``numba.njit`` with ``cache=True`` (compiled code is kept on disk, so the
second start of a program skips compilation) and ``error_model="numpy"`` (a division by
zero gives inf/nan like NumPy instead of raising, which removes a branch per division).
Of ``fastmath`` only ``contract`` is on: it lets LLVM fuse a multiply and an add into
one FMA instruction (one rounding instead of two). The solver's passes are chains of
dependent multiply-adds, so this shortens them (measured: 20 % per contact pass).
Reassociation and the other fast-math licences stay off: the tests compare against
closed forms to 1e-12, and a run must be bit-identical to the next on the same
machine.

``njit_exact`` leaves ``contract`` off too. The collision kernels (``manifold``,
``clip``, ``seams``, ``narrowphase``, ``shape_pairs``) use it: with contraction on,
their freshly compiled code and the code Numba loads back from its cache fused
different multiply-adds, so the first run of a program after a change (cold) and the
runs after it (warm) differed in the last bits of some manifolds, and the trajectories
drifted apart after a few dozen steps of rain2000. The solver and integrator kernels
showed no such difference and keep ``contract`` (worth 20 % per solver pass); the
collision kernels lose at most 7 % (box pairs), and most manifolds are refreshed from
the pair's cache anyway (``narrowphase``). ``tests/test_determinism.py`` runs a scene
cold and warm in subprocesses and compares the states bit for bit.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (slow; for debugging
and coverage).

Compile time
------------
A program's first run compiles every kernel it calls (about 45 s of compiling for a
first step, 25 s of waiting on two cores: ``world/compile_ahead.py``), so
four habits of Numba that cost compile time and nothing else are avoided in the
kernels (each measured on a cold start, 2026-11-27 and 2026-11-28):

- *An array assigned into an array* (``a[:] = b``, ``rows[k] = other[i]``): Numba's
  implementation formats its shape-mismatch message at run time, which compiles its
  string machinery (about 1.5 s, once per process, by whichever kernel does it first).
  Copy element by element.
- *Generic sorting and searching* (``np.sort``, ``np.argsort``, ``np.searchsorted``,
  ``np.unique``): 1 to 3 s each, for comparisons that cover complex numbers. Use
  ``broadphase/key_sort.sort_keys`` or a written-out loop.
- *A constant argument to a separately compiled kernel*: Numba compiles the callee once
  per literal value (``f(x, True)`` and ``f(x, False)`` are two compiles). Pass a typed
  value (``np.bool_(True)``, ``np.int64(0)``). Likewise any argument whose type varies
  between calls: an index int32 here and int64 there, an array slice that is contiguous
  only sometimes (layout ``C`` or ``A``), a mask bool or uint8.
- *An inlined helper called from two places*: each call site is a copy that Numba's
  front end types anew, with every helper it inlines in turn, even where LLVM later
  drops one as dead code. ``contact_solver.contact_pass`` called its lanes from two
  branches and compiled in 21.5 s; with one call site, 8.6 s
  (``fast_pairs.fast_pair_impacts``: 10.6 -> 6.0 s).

``tests/test_determinism.py`` checks the last two rules on a cold run of every stage.

And ``_inline_copy.py`` fixes the copying in Numba's inliner.
Stale caches
------------
Numba keys each cached kernel on the source file that defines it and nothing else, so a
kernel that calls or inlines code from another file (the narrowphase inlines the
manifold routines, for example) would keep running its stale compiled code after that
other file changed: after a ``git pull`` or an upgrade in place, wrong physics,
silently. To rule that out, importing this module fingerprints every kernel module of
the package (every module that imports ``_jit``, wherever it lives) and clears their
cached code when any of them changed (``_fingerprint.py``). Caches that Numba keeps
elsewhere (``NUMBA_CACHE_DIR``, or a user-wide directory for read-only installs) are not
covered: clear those by hand after changing kernels.
"""
import math
import os
import pathlib
import sys
import time

import numba
import numba.core.event
from numba.core import types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from ._cache_load import apply as load_without_bitcode, apply_lazy_refresh
from ._inline_copy import apply as share_inline_copies
from ._fingerprint import clear_stale_cache, kernel_fingerprint, kernel_modules
from ._prebuilt import attach as attach_prebuilt, configure as configure_prebuilt, stale as prebuilt_stale

share_inline_copies()  # Numba's inliner copies each callee once, not once per block
load_without_bitcode()  # cached kernels load without parsing their linking bitcode
apply_lazy_refresh()  # ... and without installing Numba's compiler registries



def _shipped(decorator):
    """``decorator`` whose kernels fall back to the shipped archive (``_prebuilt.py``)."""
    def decorate(function):
        return attach_prebuilt(decorator(function))
    return decorate


njit = _shipped(numba.njit(cache=True, error_model="numpy", nogil=True, fastmath={"contract"}))

# For small helpers called per pair or per contact: inlined into the caller at Numba's
# IR level. A call to a separately compiled function that takes arrays costs
# reference-count updates (atomic instructions) on every call: measured here,
# 227 ns for a box-box manifold through four nested calls; inlined, collide_pieces takes
# about 120 ns for a box pair (2026-11-24, a busy shared machine; docs/internals.md).
njit_inline = _shipped(numba.njit(cache=True, error_model="numpy", nogil=True, inline="always",
                                  fastmath={"contract"}))

# Without FMA contraction: identical results from fresh and cached compiles (see above).
njit_exact = _shipped(numba.njit(cache=True, error_model="numpy", nogil=True))

# The per-pair helpers of the ``njit_exact`` kernels (the narrowphase's): inlined like
# ``njit_inline``, and like ``njit_exact`` without ``contract``, so that a helper's
# multiply-adds are never fused whichever kernel it is compiled into.
# An inlined helper's array arguments are copies that Numba reference-counts; LLVM's
# pruning pass removes those counts only in simple shapes. In the narrowphase it
# failed (and the stage got 20-40 % slower) for a helper that returns early, breaks
# out of a loop, or sits in one branch of an if/else whose other branch inlines a
# helper taking the same arrays. Look for NRT_incref in the kernel's LLVM IR
# (``inspect_llvm()``, fresh compile) when splitting a per-pair loop.
njit_exact_inline = _shipped(numba.njit(cache=True, error_model="numpy", nogil=True, inline="always"))


def _borrow_value(context, builder, typ, value):
    """The native ``value`` of type ``typ`` with every array in it a borrowed view."""
    if isinstance(typ, types.Array):
        src = context.make_array(typ)(context, builder, value)
        view = context.make_array(typ)(context, builder)
        # ``parent`` kept: an argument handed back to Python unchanged boxes as itself
        populate_array(view, data=src.data, shape=src.shape, strides=src.strides,
                       itemsize=src.itemsize, meminfo=None, parent=src.parent)
        return view._getvalue()
    if isinstance(typ, types.BaseTuple):
        for i, member in enumerate(typ):
            item = _borrow_value(context, builder, member, builder.extract_value(value, i))
            value = builder.insert_value(value, item, i)
    return value


def _borrowable(typ):
    if isinstance(typ, types.BaseTuple):
        return all(_borrowable(member) for member in typ)
    return isinstance(typ, (types.Array, types.Number, types.Boolean, types.NoneType))


@intrinsic
def borrowed(typingctx, value):
    """``value`` (an array, or a tuple of arrays and numbers, nested or named) with every
    array in it borrowed: the same data, shape and strides, without a reference count.

    Each time an inlined helper takes an array argument, Numba copies the reference and
    counts it: an atomic increment and decrement of a shared counter, which also stall
    the loads around them. LLVM's pruning pass removes the pair only where no loop and
    no early return lies between them, so a helper with a loop, inlined once per ray or
    per contact, pays two atomic instructions per array per call, and a separately
    compiled helper pays them on every call (measured: 8 % of ``ray_cast_many``; 5 % of a
    rain2000 step, in five stage kernels). A borrowed array has no owner (a null
    meminfo), so counting it costs a test and a branch.

    Rule: borrow only a kernel's own arguments (the caller keeps them alive for the
    call), never an array the kernel allocates (Numba frees it after its last named
    use), and never return a borrowed array, a view of one, or a tuple holding one.

    Examples
    --------
    >>> import numpy as np
    >>> @numba.njit
    ... def total(a, pair):
    ...     b, (c, k) = borrowed((a, pair))
    ...     return b.sum() + c.sum() * k
    >>> total(np.arange(4.0), (np.ones(2), 10))
    26.0
    """
    if not _borrowable(value):
        return None

    def codegen(context, builder, signature, args):
        return _borrow_value(context, builder, value, args[0])

    return value(value), codegen


if numba.config.DISABLE_JIT:  # kernels run as Python (debugging): borrowing is a no-op
    def borrowed(value):  # noqa: F811
        """``value`` itself: with ``NUMBA_DISABLE_JIT=1`` nothing is reference counted."""
        return value


@njit_exact_inline
def copy_rows(dst, src, n):
    """``dst[:n] = src[:n]`` for 2-D arrays, element by element (see "Compile time":
    Numba's array-into-array assignment compiles its string machinery).

    Examples
    --------
    >>> import numpy as np
    >>> @numba.njit
    ... def grow(a):
    ...     b = np.zeros((2 * a.shape[0], a.shape[1]))
    ...     copy_rows(b, a, a.shape[0])
    ...     return b
    >>> float(grow(np.ones((2, 3))).sum())
    6.0
    """
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit_exact_inline
def copy_items(dst, src, n):
    """``dst[:n] = src[:n]`` for 1-D arrays, element by element (see :func:`copy_rows`).

    Examples
    --------
    >>> import numpy as np
    >>> @numba.njit
    ... def head(a):
    ...     b = np.zeros(2, a.dtype)
    ...     copy_items(b, a, 2)
    ...     return b
    >>> head(np.arange(5)).tolist()
    [0, 1]
    """
    for i in range(n):
        dst[i] = src[i]


__all__ = ["borrowed", "copy_items", "copy_rows", "njit", "njit_exact", "njit_exact_inline", "njit_inline",
           "kernel_fingerprint", "kernel_modules"]

# The shipped kernels (``_prebuilt.py``) are used only if built from these very sources.
configure_prebuilt(pathlib.Path(__file__).resolve().parent, clear_stale_cache())


class CompileNotice(numba.core.event.Listener):
    """Says so on stderr, in one line, when the engine starts compiling kernels.

    On a program's first run (an empty Numba cache) the first step compiles every kernel it
    uses, which takes tens of seconds and would otherwise look like a hang; later runs load
    the compiled code from the cache and print nothing. The line is printed when an engine
    kernel starts compiling after at least ``quiet_for`` seconds without compiling: once
    for a program's first steps, and again for one that makes its first ray query
    minutes later (the query kernels compile on first use). Set the environment
    variable ``ENGINE_COMPILE_NOTICE=0`` to silence it.

    Examples
    --------
    >>> import io
    >>> notice = CompileNotice(stream=io.StringIO())
    >>> notice.announce("engine.contacts.narrowphase", now=100.0)
    >>> notice.announce("engine.dynamics.soft_step", now=101.0)  # the same burst
    >>> notice.stream.getvalue().count("\\n")
    1
    """

    def __init__(self, stream=None, quiet_for=60.0):
        self.stream = stream
        self.quiet_for = quiet_for
        self.last = -math.inf

    def announce(self, module, now):
        """Print the line if ``module`` is the engine's and no compile ran lately."""
        if module.split(".")[0] != __package__:
            return
        if now - self.last > self.quiet_for:
            hint = (" (the shipped kernels are older than the sources: python tools/build_kernels.py"
                    " rebuilds them)" if prebuilt_stale() else "")
            print("engine: compiling its Numba kernels for this machine (up to a minute, once: "
                  f"later runs load them from the cache){hint} ...", file=self.stream or sys.stderr,
                  flush=True)
        self.last = now

    def on_start(self, event):
        self.announce(getattr(event.data["dispatcher"].py_func, "__module__", "") or "", time.monotonic())

    def on_end(self, event):
        self.last = time.monotonic()


if os.environ.get("ENGINE_COMPILE_NOTICE", "1") != "0":
    numba.core.event.register("numba:compile", CompileNotice())
