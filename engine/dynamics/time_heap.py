"""A binary min-heap of ``(time, key, stamp)`` entries: the earliest event first.

Two stages take events in order of time and, after each, time some of the others
again: the bouncy collisions before the substeps (``impacts.py``) and the impacts
between pairs of fast bodies (``fast_pairs.py``). Both keep a heap and drop an entry
when it is popped if its ``stamp`` is no longer the key's latest (lazy deletion: the
key was timed again since, and a newer entry holds its time). Ties in time go by key,
so the order is a function of the times and keys alone.

The heap is three arrays (times float64, keys and stamps int64) and a size, grown by
:func:`heap_push` when full.

Examples
--------
>>> import numpy as np
>>> heap = (np.empty(1), np.empty(1, np.int64), np.empty(1, np.int64))
>>> size = 0
>>> for t, k in ((0.5, 3), (0.25, 7), (0.5, 1)):
...     heap, size = heap_push(heap, size, t, k, 0)
>>> order = []
>>> while size:
...     t, k, _, size = heap_pop(heap, size)
...     order.append((float(t), int(k)))
>>> order
[(0.25, 7), (0.5, 1), (0.5, 3)]
"""
import numpy as np

from .._jit import njit, njit_inline

__all__ = ["sooner", "heap_push", "heap_pop"]


@njit_inline
def sooner(tau, k, other_tau, other_k):
    """The heap's order: by time, ties by key.

    Examples
    --------
    >>> sooner(0.5, 2, 0.5, 3), sooner(0.5, 3, 0.25, 1)
    (True, False)
    """
    return tau < other_tau or (tau == other_tau and k < other_k)


@njit
def heap_push(heap, size, tau, k, stamp):
    """Add ``(tau, k, stamp)`` to the heap ``heap`` of ``size`` entries (grown when full);
    returns the heap and its new size.

    Examples
    --------
    >>> import numpy as np
    >>> heap = (np.empty(0), np.empty(0, np.int64), np.empty(0, np.int64))
    >>> heap, size = heap_push(heap, 0, 1.5, 4, 0)
    >>> size, float(heap[0][0]), int(heap[1][0])
    (1, 1.5, 4)
    """
    times, keys, stamps = heap
    if size == times.shape[0]:
        times, keys, stamps = _grown(times, keys, stamps, 2 * size + 8)
    i = size
    while i > 0 and sooner(tau, k, times[(i - 1) // 2], keys[(i - 1) // 2]):
        up = (i - 1) // 2
        times[i], keys[i], stamps[i] = times[up], keys[up], stamps[up]
        i = up
    times[i], keys[i], stamps[i] = tau, k, stamp
    return (times, keys, stamps), size + 1


@njit_inline
def _grown(times, keys, stamps, capacity):
    """The heap's arrays copied into longer ones (element by element: see ``_jit``)."""
    more = (np.empty(capacity), np.empty(capacity, np.int64), np.empty(capacity, np.int64))
    for i in range(times.shape[0]):
        more[0][i], more[1][i], more[2][i] = times[i], keys[i], stamps[i]
    return more


@njit_inline
def heap_pop(heap, size):
    """Remove the earliest entry of a heap of ``size > 0`` entries; returns
    ``(tau, k, stamp, new size)``.

    Examples
    --------
    >>> import numpy as np
    >>> heap = (np.array([0.5, 0.75]), np.array([2, 1]), np.array([0, 0]))
    >>> tau, k, stamp, size = heap_pop(heap, 2)
    >>> float(tau), int(k), int(size)
    (0.5, 2, 1)
    """
    times, keys, stamps = heap
    top = (times[0], keys[0], stamps[0])
    size -= 1
    tau, k, stamp = times[size], keys[size], stamps[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and sooner(times[child + 1], keys[child + 1], times[child],
                                       keys[child]):
            child += 1
        if not sooner(times[child], keys[child], tau, k):
            break
        times[i], keys[i], stamps[i] = times[child], keys[child], stamps[child]
        i = child
    if size > 0:
        times[i], keys[i], stamps[i] = tau, k, stamp
    return top[0], top[1], top[2], size
