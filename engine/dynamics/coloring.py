"""Solve order of the contacts: active rows grouped by a greedy graph colouring.

Sequential impulses update two bodies' velocities per contact. Solved in pair-key order,
consecutive contacts mostly share a body (a box's neighbours sit next to it in the key
order), so each contact waits for the previous one's stores: the solver is bound by that
latency chain. Within one *colour* no two contacts share a body whose velocity they
write, so the processor overlaps them. Box2D v3 colours its constraint graph for the same
reason (there: SIMD lanes and threads; here: out-of-order execution).

Measured on pyramid40 (2380 contacts), ns per contact and pass: relax 51 -> 38, biased
solve 24 -> 21. The order changes the Gauss-Seidel sweep, not what converges.

Bodies whose inverse mass and inverse inertia are both zero (static, kinematic) are never
written by a contact, so they do not constrain the colouring.

The greedy colouring visits the rows in a scrambled order, not in row order. Rows are in
pair-key order, which is creation order: in a pile built left to right, a box's contact
with its left neighbour came first and took the lower colour, so every substep pushed
the left side before the right. Solved that way the 40-box pyramid drifted 9 mm to the
right and spread 4.4 cm at Box2D's 4 substeps and 30 Hz; visited in a scrambled order
its drift is under 1 mm. (Box2D v3 colours contacts as they begin touching, in the
order its broadphase finds them: by tree position, with no left-to-right bias.) The
scramble is a fixed bijection of each window of ``SCRAMBLE_WINDOW`` rows of each lane's
run of rows (one run outside a ``WorldBatch``), so a batch's world gets the colours it
gets alone.
"""
import numpy as np

from .._jit import njit, njit_inline
from ..constants import DYNAMIC
from ..contacts.layout import C_COUNT
from .solve_blocks import solve_blocks

# Colours tried per contact; a contact that finds all taken goes to an overflow group
# solved last, in pair order (correct, only slower).
COLORS = 62
# Rows the colouring visits in a scrambled order at a time: a window's rows and bodies
# stay in the cache (a scramble of all the rows of many_pyramids, 58,000, cost 1.17
# times its step), and a box's contacts with its neighbours, which are near each other
# in row order, fall in one window.
SCRAMBLE_WINDOW = 1024


@njit
def order_contacts(rows, cba, cbb, inv_mass, inv_inertia, stype, lane, order, touched, budget):
    """Write the indices of the rows with points to ``order``, grouped by solve block
    and colour.

    Parameters
    ----------
    rows : float64 (m, CONTACT_SIZE)
        Contact rows; a row is active when ``rows[i, C_COUNT] > 0``.
    cba, cbb : int32 (m,)
        Bodies of each row.
    inv_mass, inv_inertia : float64 (n,)
    stype : int8 (n,)
        The solver's body types: a row with no dynamic body (one asleep counts as
        static) is left out.
    lane : int32 (n,)
        Each body's lane in a ``WorldBatch`` (zeros otherwise): the rows of a lane are a
        run, scrambled apart from the others.
    order : int32 (m,)
        Output: ``order[:count]`` are the active rows, block by block, each block's
        colour by colour, each colour in row order (deterministic).
    touched : uint8 (n,)
        Output: 1 for every body in an active row, else left as it was (pass zeros).
    budget : int
        Contacts a solve block holds (``solve_blocks.solve_blocks``; 0: one block). The
        colours do not depend on the blocks: a row's colour depends only on the rows of
        its own bodies visited before it.

    Returns
    -------
    (count, per_color, block, blocks)
        ``count`` the number of active rows; ``per_color`` int64 (blocks * (COLORS + 1),)
        the number of rows of each block and colour, in solve order, each block's last
        entry its overflow group's (rows that found every colour taken: not
        independent); ``block`` each row's block (empty for one block) and ``blocks``
        (0: one block, the islands having been found in vain; see ``solve_blocks``).
    """
    n = inv_mass.shape[0]
    used = np.zeros(n, np.int64)  # bit c set: the body already has a contact of colour c
    color = np.empty(rows.shape[0], np.int32)  # then: the row's place in per_color
    one = np.zeros(COLORS + 1, np.int64)  # rows per colour
    count = 0
    m = rows.shape[0]
    for i in range(m):  # in row order: which rows are active (the rows' memory in order)
        a = cba[i]
        b = cbb[i]
        # No dynamic body (sleeping ones count as static), or no point: left out. The
        # bodies first: a sleeping pile's rows need not be read at all.
        if (stype[a] != DYNAMIC and stype[b] != DYNAMIC) or rows[i, C_COUNT] == 0.0:
            color[i] = -1
            continue
        color[i] = 0
        touched[a] = 1
        touched[b] = 1
        count += 1
    start = 0
    while start < m:  # each lane's run of rows, window by window in a scrambled order
        run_end = start + 1
        while run_end < m and lane[cba[run_end]] == lane[cba[start]]:
            run_end += 1
        while start < run_end:
            end = min(start + SCRAMBLE_WINDOW, run_end)
            bits = 0
            while (1 << bits) < end - start:
                bits += 1
            for r in range(1 << bits):
                i = start + scrambled(r, bits)
                if i < end and color[i] >= 0:
                    color[i] = _first_free(cba[i], cbb[i], inv_mass, inv_inertia, used)
                    one[color[i]] += 1
            start = end
    block, blocks = solve_blocks(color, cba, cbb, stype, touched, count, budget)
    per_color = one
    if blocks > 1:  # each row's place: its block's colours come after the blocks before
        per_color = np.zeros(blocks * (COLORS + 1), np.int64)
        for i in range(rows.shape[0]):
            if color[i] >= 0:
                color[i] += block[i] * (COLORS + 1)
                per_color[color[i]] += 1
    _sort_rows(color, per_color, order)
    return count, per_color, block, blocks


@njit_inline
def _first_free(a, b, inv_mass, inv_inertia, used):
    """The lowest colour neither body ``a`` nor ``b`` has yet among the bodies a contact
    writes (``COLORS``, the overflow group, if none), marked taken for both."""
    write_a = inv_mass[a] != 0.0 or inv_inertia[a] != 0.0
    write_b = inv_mass[b] != 0.0 or inv_inertia[b] != 0.0
    mask = (used[a] if write_a else 0) | (used[b] if write_b else 0)
    c = 0
    while c < COLORS and (mask >> c) & 1:
        c += 1
    if c < COLORS:
        if write_a:
            used[a] |= 1 << c
        if write_b:
            used[b] |= 1 << c
    return c


@njit_inline
def scrambled(r, bits):
    """A fixed bijection of ``0 .. 2**bits - 1`` (``bits`` < 64) that scatters neighbours:
    two rounds of xor-shift and multiply by an odd constant, each invertible modulo
    ``2**bits``.

    Examples
    --------
    >>> sorted(int(scrambled(r, 3)) for r in range(8))
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> [int(scrambled(r, 3)) for r in range(8)] != list(range(8))
    True
    """
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64((bits + 1) // 2)
    x = np.uint64(r)
    for _ in range(2):
        x ^= x >> shift
        x = (x * np.uint64(0x9E3779B97F4A7C15)) & mask
    return np.int64(x)


@njit_inline
def _sort_rows(color, per_color, order):
    """A counting sort: the rows with a place ``color[i] >= 0`` into ``order``, place by
    place (``per_color[c]`` rows each), each place's in row order."""
    start = np.empty(per_color.shape[0], np.int64)
    total = 0
    for c in range(per_color.shape[0]):
        start[c] = total
        total += per_color[c]
    for i in range(color.shape[0]):
        c = color[i]
        if c >= 0:
            order[start[c]] = i
            start[c] += 1
