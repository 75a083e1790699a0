"""Calling a stage kernel without paying Numba's dispatch on every step.

A call through a Numba dispatcher first works out the Numba type of every argument, to
pick (or compile) the matching machine code. For the stage kernels, whose arguments are
named tuples of twenty-odd arrays, that costs more than the work of a small world's
step: measured on a 4-body world, 9 us against 3 us for ``refresh_proxies`` and 14 us
against 2.4 us for ``update_contacts`` (the rest is unboxing the arrays), a dozen
microseconds a step in all.

:class:`StageKernel` skips the typing when it may: a call whose arguments are the very
objects of the last call that went through the dispatcher (``is``, element by element)
has the same types (tuples are immutable; an array's dtype, dimensions and layout never
change, and the engine never makes its own arrays read-only), so it goes straight to
the compiled entry point that call used. Any other call goes through the dispatcher,
which checks and, if need be, compiles, exactly as before. The world state keeps the
argument tuples it hands the stages (``WorldState.body_arrays`` and the like) until a
store changes, which is what makes the fast path the common one.
"""
import operator

__all__ = ["StageKernel"]


class StageKernel:
    """``kernel`` called through its compiled entry point while the arguments are the
    objects of the last checked call (see the module docstring).

    Examples
    --------
    >>> import numba, numpy as np
    >>> total = StageKernel(numba.njit(lambda a: a.sum()))
    >>> a = np.arange(4.0)
    >>> float(total(a)), float(total(a))  # checked by Numba, then straight through
    (6.0, 6.0)
    >>> float(total(np.ones(3, np.int64)))  # new arguments: Numba checks them again
    3.0
    """

    __slots__ = ("kernel", "memo", "single")

    def __init__(self, kernel):
        self.kernel = kernel
        # (the last checked arguments, the entry point they took): one attribute, set in
        # one assignment, so the two always belong together. The arguments are held, so
        # that no other object can take their ids meanwhile.
        self.memo = ((), None)
        # The entry point of the kernel's first overload, looked up once: iterating
        # ``overloads`` (an OrderedDict keyed by Numba types) hashes those types again,
        # which for twenty-odd array types costs about 100 us.
        self.single = None

    def __call__(self, *args):
        last, entry = self.memo
        same = len(args) == len(last) and all(map(operator.is_, args, last))
        if same and entry is not None:
            return entry(*args)
        result = self.kernel(*args)
        self.memo = (args, self._entry_for(args, same))
        return result

    def _entry_for(self, args, again):
        """The compiled entry point the dispatcher just used for ``args``, or None (plain
        Python under ``NUMBA_DISABLE_JIT``, or not worked out): then the next call goes
        through the dispatcher again. With one overload (the common case) it is that
        one. With several (``step_bodies`` with and without joints), the one of the
        arguments' types, worked out in Python (about 100 us) only when the same
        arguments came ``again``: a world whose stores change every step would pay
        that on every step."""
        overloads = getattr(self.kernel, "overloads", None)
        if not overloads:
            return None
        if len(overloads) == 1:
            if self.single is None:
                self.single = next(iter(overloads.values())).entry_point
            return self.single
        if not again:
            return None
        try:
            key = tuple(self.kernel.typeof_pyval(a) for a in args)
        except Exception:  # noqa: BLE001 - typing failed: keep the checked path
            return None
        found = overloads.get(key)
        return None if found is None else found.entry_point
