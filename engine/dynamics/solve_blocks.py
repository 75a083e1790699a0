"""Solve blocks: the contacts' islands packed into blocks whose substeps run one block
at a time, so that a large world's contacts are solved from the cache.

Each substep passes over every contact three times (warm start, biased solve, relax),
and each pass reads the contact's colour-chunk fields (400 bytes) and its bodies'
state. A world whose contacts fill more than the processor's cache streams all of
them from memory at every pass: 21 passes a step. Measured on this machine, a
`WorldBatch` of 1024 piles of 20 bodies (30,000 contacts) solved at 18.3 us a world
where 16 or 64 piles solved at 9.5-10.2, and Box2D's ``many_pyramids`` (63,000
contacts) at 570 ns a contact and step where pyramid40 (2,380) took 283.

Contacts of two islands share no body they write: an island is a set of bodies linked
by contacts with points between moving bodies (dynamic or kinematic; here a kinematic
body links too, since the substeps move it), and a static or sleeping body is never
written. So a block of whole islands can go through the whole solve before the next
block starts (``soft_step._solve_block``: its colour chunks gathered into the same
scratch memory as every other block's, its collisions, substeps and bounces, its
impulses scattered back), and every body sees the very operations, in the same order,
that it sees when all contacts are solved together: the colouring is greedy in row order and depends only
on a row's own bodies (``coloring.order_contacts``), each block keeps its rows' colour
and row order, and the passes treat each contact of a colour on its own. Results are bit
for bit those of one block (``tests/test_solve_blocks.py``).

Islands are found by union-find over the active rows and packed, in order of their
first row, into blocks of about ``budget`` contacts (``constants.SOLVE_BLOCK_CONTACTS``);
an island larger than that is a block of its own. A world whose active contacts all fit
one block skips the union-find, and one of a single island is one block. Joints are
solved in the same substep passes over all joints at once, so a world with joints is
one block.
"""
import numpy as np

from .._jit import njit_inline
from ..constants import STATIC
from .sleep import find_root as _root  # (path halving; the sleep stage's islands use it too)

__all__ = ["block_spans", "solve_blocks"]


@njit_inline
def solve_blocks(color, cba, cbb, stype, touched, active, budget):
    """``(block, count)``: the block of each contact row (int32 (m,), -1 for rows that
    are not solved) and the number of blocks. One block has an empty ``block`` and
    ``count`` 1 when the ``active`` rows fit it (at most ``budget`` of them, or
    ``budget`` <= 0), and 0 when the islands were found and blocks would not pay: they
    are one island, or all but fewer than ``budget`` rows are one island's (blocks
    would not keep that island in the cache, and the rest fits it anyway). The caller
    may then skip the search for a while (``stages.solve``): results are the same.

    ``color``: each row's colour, negative for rows not solved (``order_contacts``);
    ``cba``, ``cbb``: the rows' bodies; ``stype``: the solver's body types (sleeping
    bodies are static); ``touched``: 1 for the bodies of active rows. Islands join the
    block being filled in the order of their first rows, while it has room for all of
    an island's rows. Two consecutive blocks then hold more than ``budget`` rows, so
    there are at most ``2 active / budget + 1`` blocks, and at most 254 (``block_spans``
    tags bodies in a uint8): the budget grows for a world with more contacts than that.
    """
    if budget <= 0 or active <= budget:
        return np.empty(0, np.int32), 1
    budget = max(budget, 2 * active // 253 + 1)
    m = color.shape[0]
    n = stype.shape[0]
    parent = np.empty(n, np.int32)
    for i in range(n):
        parent[i] = i
    unions = 0
    for i in range(m):
        a = cba[i]
        b = cbb[i]
        if color[i] >= 0 and stype[a] != STATIC and stype[b] != STATIC:
            ra = _root(parent, a)
            rb = _root(parent, b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
                unions += 1
    moving = 0
    for i in range(n):
        if touched[i] and stype[i] != STATIC:
            moving += 1
    if moving - unions <= 1:  # one island (Box2D's pyramids, a tumbler)
        return np.empty(0, np.int32), 0
    contacts = np.zeros(n, np.int64)  # active rows per island (at its root)
    largest = 0
    for i in range(m):
        if color[i] >= 0:
            r = _root(parent, cba[i] if stype[cba[i]] != STATIC else cbb[i])
            contacts[r] += 1
            largest = max(largest, contacts[r])
    if active - largest < budget:  # one island and a few others (rain2000's pile): the
        return np.empty(0, np.int32), 0  # others would fit the cache, the island not
    block_of = np.full(n, -1, np.int32)  # at each root: its island's block
    block = np.full(m, -1, np.int32)
    current = 0
    filled = 0
    for i in range(m):
        if color[i] < 0:
            continue
        r = _root(parent, cba[i] if stype[cba[i]] != STATIC else cbb[i])
        if block_of[r] < 0:  # the island's first row: it joins the block being filled
            if filled > 0 and filled + contacts[r] > budget:
                current += 1
                filled = 0
            block_of[r] = current
            filled += contacts[r]
        block[i] = block_of[r]
    return block, current + 1


@njit_inline
def block_spans(block, count, cba, cbb, stype, touched, per_color, colors):
    """int64 (count, 5): ``(tag, lo, hi, first, end)`` of each block: its moving bodies
    are those of rows ``lo .. hi - 1`` whose ``touched`` is ``tag`` (for the
    integrators), its contacts ``first .. end - 1`` in solve order (``per_color``: the
    rows of each block's ``colors`` colours). ``block`` and ``count`` as
    :func:`solve_blocks` returns them; ``touched`` (uint8, 1 for the bodies of active
    rows) gets each moving body's block + 1. One block is ``(1, 0, n, 0, rows)`` and
    leaves ``touched`` as it is."""
    n = stype.shape[0]
    spans = np.empty((count, 5), np.int64)
    end = 0
    for k in range(count):
        spans[k, 0], spans[k, 1], spans[k, 2] = k + 1, n, 0
        spans[k, 3] = end
        for c in range(colors):
            end += per_color[k * colors + c]
        spans[k, 4] = end
    if count == 1:
        spans[0, 1], spans[0, 2] = 0, n
        return spans
    for i in range(block.shape[0]):
        k = block[i]
        if k < 0:
            continue
        for j in (cba[i], cbb[i]):
            if stype[j] != STATIC:
                touched[j] = k + 1
                spans[k, 1] = min(spans[k, 1], j)
                spans[k, 2] = max(spans[k, 2], j + 1)
    return spans
