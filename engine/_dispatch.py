"""Calling a stage kernel without paying Numba's dispatch on every step.

A call through a Numba dispatcher first works out the Numba type of every argument, to
pick (or compile) the matching machine code. For the stage kernels, whose arguments are
named tuples of twenty-odd arrays, that costs more than the work of a small world's
step: measured on a 4-body world, 9 us against 3 us for ``refresh_proxies`` and 14 us
against 2.4 us for ``update_contacts`` (the rest is unboxing the arrays), a dozen
microseconds a step in all.

:class:`StageKernel` skips the typing when it may. A call whose arguments are the very
objects of the last call (``is``, element by element) has the same types: tuples are
immutable, and an array's dtype, dimensions and layout never change. An argument that
is a new object (the pairs' arrays after pairs were added, a buffer resized) is compared
by its fingerprint, the compact description of its Numba type that Numba's own
dispatcher computes in C (about 0.1 us an array): the same class and fingerprint mean
the same type. Either way the call goes straight to the compiled entry point the last
checked call used. Any other call goes through the dispatcher, which checks and, if need
be, compiles, exactly as before. Each kernel keeps the fingerprints of its last
arguments beside them, so only the new argument is fingerprinted. The world state keeps the argument tuples it hands the
stages (``WorldState.body_arrays`` and the like) until a store changes, which makes the
identity test the common one. (A fingerprint does not record whether an array is
aligned; the engine makes no misaligned arrays, and x86 loads them anyway.)
"""
import operator

try:  # the C function Numba's dispatcher types arguments with (a private module)
    from numba._dispatcher import compute_fingerprint
except ImportError:  # pragma: no cover - another Numba: every new argument is checked
    def compute_fingerprint(value):
        raise TypeError("no fingerprints")

__all__ = ["StageKernel"]


class StageKernel:
    """``kernel`` called through its compiled entry point while the arguments have the
    types of the last checked call (see the module docstring).

    Examples
    --------
    >>> import numba, numpy as np
    >>> total = StageKernel(numba.njit(lambda a: a.sum()))
    >>> a = np.arange(4.0)
    >>> float(total(a)), float(total(a))  # checked by Numba, then straight through
    (6.0, 6.0)
    >>> float(total(np.arange(5.0)))  # a new array of the same type: straight through
    10.0
    >>> float(total(np.ones(3, np.int64)))  # another type: Numba checks it again
    3.0
    """

    __slots__ = ("kernel", "memo", "prints", "single")

    def __init__(self, kernel):
        self.kernel = kernel
        # (the last arguments, the entry point their types take): one attribute, set in
        # one assignment, so the two always belong together. The arguments are held, so
        # that no other object can take their ids meanwhile.
        self.memo = ((), None)
        # (arguments, their fingerprints or None where not worked out): see _same_types.
        self.prints = ((), ())
        # The entry point of the kernel's first overload, looked up once: iterating
        # ``overloads`` (an OrderedDict keyed by Numba types) hashes those types again,
        # which for twenty-odd array types costs about 100 us.
        self.single = None

    def __call__(self, *args):
        last, entry = self.memo
        same = len(args) == len(last) and all(map(operator.is_, args, last))
        if not same and len(args) == len(last):
            same = self._same_types(args, last)
            if same and entry is not None:
                self.memo = (args, entry)
        if same and entry is not None:
            return entry(*args)
        result = self.kernel(*args)
        self.memo = (args, self._entry_for(args, same))
        return result

    def _same_types(self, args, last):
        """Whether ``args`` have the Numba types of ``last``, by the fingerprints Numba's
        dispatcher types arguments by.

        Only the arguments that are not the very objects of ``last`` are looked at; each
        must be of the same Python class (a named tuple's fingerprint names its class but
        is not tied to it) with the same fingerprint: the dtype, dimensions, layout and
        writability of every array in it, the kind of every scalar. Anything Numba cannot
        fingerprint counts as different, and goes through the dispatcher. The
        fingerprints of ``last`` are kept from the call that checked them (``prints``,
        tied to that very tuple of arguments), so a world whose body tuple is new at
        every step (a body made or destroyed each step) fingerprints it once a step, not
        twice a kernel.
        """
        held, prints = self.prints
        if held is not last:
            prints = (None,) * len(last)
        found = []
        try:
            for new, old, old_print in zip(args, last, prints):
                if new is not old:
                    if type(new) is not type(old):
                        return False
                    new_print = _fingerprint(new)
                    if new_print != (_fingerprint(old) if old_print is None else old_print):
                        return False
                    old_print = new_print
                found.append(old_print)
        except Exception:  # noqa: BLE001 - no fingerprint for this kind of object
            return False
        self.prints = (args, tuple(found))
        return True

    def _entry_for(self, args, again):
        """The compiled entry point the dispatcher just used for ``args``, or None (plain
        Python under ``NUMBA_DISABLE_JIT``, or not worked out): then the next call goes
        through the dispatcher again. With one overload (the common case) it is that
        one. With several (``step_bodies`` with and without joints), the one of the
        arguments' types, worked out in Python (about 100 us) only when arguments of the
        same types came ``again``: a world whose argument types change every step would
        pay that on every step."""
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


# The last few objects fingerprinted, by id, each held so that its id cannot be reused
# meanwhile: the world state hands the same tuple of body columns to four stage kernels
# in a step, and after bodies are added or removed each would fingerprint its 28 arrays
# again (2-4 us). Few, so that few old arrays are kept alive.
_RECENT = {}
_RECENT_SIZE = 8


def _fingerprint(value):
    """``compute_fingerprint(value)``, remembered for the last few objects."""
    seen = _RECENT.get(id(value))
    if seen is not None and seen[0] is value:
        return seen[1]
    found = compute_fingerprint(value)
    if len(_RECENT) >= _RECENT_SIZE:
        del _RECENT[next(iter(_RECENT))]  # the oldest (dicts keep insertion order)
    _RECENT[id(value)] = (value, found)
    return found
