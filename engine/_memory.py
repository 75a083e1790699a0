"""Raw memory operations for kernels, as Numba intrinsics: a prefetch hint and an
overlapping move. Each compiles to one LLVM intrinsic call (``llvm.prefetch``,
``llvm.memmove``) with no bounds checks: the caller's indices must be right. And two
NumPy helpers that reuse an earlier array's memory (``copy_into``, ``reuse``).
"""
import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic

__all__ = ["copy_into", "move_items", "prefetch", "reuse"]


@intrinsic
def prefetch(typingctx, a, k):
    """Ask the processor to start loading the cache line holding element ``k`` of the
    C-contiguous array ``a`` (``k`` counts elements in memory order) into its caches,
    without waiting for it (LLVM's ``prefetch``, for reading). For loops that read in an
    order the hardware prefetcher cannot guess: prefetch what an iteration a few ahead
    will read. A hint only: nothing is read, and an index out of bounds does no harm.

    Examples
    --------
    >>> import numpy as np
    >>> @numba.njit
    ... def total(a, order):
    ...     s = 0.0
    ...     for j in range(order.shape[0]):
    ...         prefetch(a, order[min(j + 4, order.shape[0] - 1)] * a.shape[1])
    ...         s += a[order[j], 0]
    ...     return s
    >>> total(np.ones((6, 3)), np.array([5, 0, 3]))
    3.0
    """
    if not (isinstance(a, types.Array) and a.layout == "C" and isinstance(k, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils
        aryty, kty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        i64 = ir.IntType(64)
        index = args[1]
        if index.type.width < 64:
            index = builder.sext(index, i64) if kty.signed else builder.zext(index, i64)
        size = context.get_abi_sizeof(context.get_data_type(aryty.dtype))
        address = builder.add(builder.ptrtoint(ary.data, i64),
                              builder.mul(index, ir.Constant(i64, size)))
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(fn, [builder.inttoptr(address, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(a, k), codegen


if numba.config.DISABLE_JIT:  # kernels run as Python: a hint with nothing to do
    def prefetch(a, k):  # noqa: F811
        """Nothing (``NUMBA_DISABLE_JIT=1``): see the compiled version."""


@intrinsic
def move_items(typingctx, a, dst, src, count):
    """``a[dst:dst + count] = a[src:src + count]`` for a 1-D C-contiguous array, the two
    ranges possibly overlapping (LLVM's ``memmove``; Numba's slice assignment would
    compile its string machinery: ``_jit.py``, "Compile time"). No bounds are checked.

    Examples
    --------
    >>> import numpy as np
    >>> @numba.njit
    ... def shift(a):
    ...     move_items(a, 0, 1, a.shape[0] - 1)
    >>> a = np.arange(5.0); shift(a); a.tolist()
    [1.0, 2.0, 3.0, 4.0, 4.0]
    """
    if not (isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C"
            and all(isinstance(t, types.Integer) for t in (dst, src, count))):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        i64 = ir.IntType(64)
        size = ir.Constant(i64, context.get_abi_sizeof(context.get_data_type(aryty.dtype)))
        base = builder.ptrtoint(ary.data, i64)
        dst, src, count = (context.cast(builder, v, t, types.int64)
                           for v, t in zip(args[1:], signature.args[1:]))
        i8p = ir.IntType(8).as_pointer()
        to = builder.inttoptr(builder.add(base, builder.mul(dst, size)), i8p)
        start = builder.inttoptr(builder.add(base, builder.mul(src, size)), i8p)
        cgutils.raw_memmove(builder, to, start, builder.mul(count, size), 1)
        return context.get_dummy_value()

    return types.void(a, dst, src, count), codegen


if numba.config.DISABLE_JIT:  # kernels run as Python
    def move_items(a, dst, src, count):  # noqa: F811
        """``a[dst:dst + count] = a[src:src + count]`` (NumPy copies overlapping ranges
        correctly)."""
        a[dst:dst + count] = a[src:src + count].copy()


def copy_into(src, old=None):
    """A copy of ``src``, written into the memory of ``old`` (an earlier copy, or a view
    of a larger buffer) when it fits, so repeated copies allocate nothing.

    Examples
    --------
    >>> a = copy_into(np.arange(4.0))
    >>> b = copy_into(np.arange(3.0) + 5, a)
    >>> b.tolist(), np.shares_memory(a, b)
    ([5.0, 6.0, 7.0], True)
    """
    if old is not None and old.shape == src.shape and old.dtype == src.dtype:
        old[...] = src  # the common case of a ring of snapshots: the same sizes again
        return old
    out = reuse(src.shape, src.dtype, old)
    out[...] = src
    return out


def reuse(shape, dtype, old=None):
    """An uninitialised array of ``shape`` and ``dtype``: a view of the memory of ``old``
    (an earlier array, or a view of a larger buffer) when it fits, else a new buffer a
    quarter larger than needed, so arrays that grow a little reuse it next time.

    Examples
    --------
    >>> a = reuse((4, 2), np.float64)
    >>> b = reuse((5, 2), np.float64, a)
    >>> b.shape, np.shares_memory(a, b)
    ((5, 2), True)
    """
    buf = old if old is None or not isinstance(old.base, np.ndarray) else old.base
    if (buf is None or buf.dtype != dtype or buf.shape[1:] != tuple(shape[1:])
            or buf.shape[0] < shape[0] or not buf.flags.c_contiguous):
        buf = np.empty((shape[0] + shape[0] // 4,) + tuple(shape[1:]), dtype)
    return buf[: shape[0]]
