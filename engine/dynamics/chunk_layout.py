"""Colour chunks: the solver's layout of the contacts, in which LLVM solves eight at once.

Within one colour (``coloring.py``) no two contacts write the same body, so they can
be solved side by side. A *chunk* holds up to ``CHUNK`` contacts of one colour with
each field a row of ``CHUNK`` floats (field ``f`` of the chunk's contact ``j`` is
``cw[chunk start + f * CHUNK + j]``). A pass gathers the velocities of a chunk's
bodies into a scratch of the same shape (``v``), solves every contact in a loop with
no branch, which LLVM compiles to eight-wide AVX-512 code, and stores the velocities
of the bodies that contacts move back (``contact_solver.py``). This is Box2D v3's "wide
float" solver in a form Numba's LLVM vectorizes; four things were needed, each
measured (session 15's ``benchmarks/solver_layouts.py``, retired once the engine moved
to this layout; it is in the history at 8cda7fd):

1. no reference counting in the loop (the passes borrow their arrays);
2. unsigned indices and offsets (``np.uint64``): Numba's wrap-around test for negative
   indices otherwise hides the access pattern from LLVM;
3. offsets known when compiling: the row length, and which point of a manifold comes
   first (the two orders are two copies of the loop). With a run-time one LLVM checks
   at run time that the rows written do not overlap the rows read, and sent every
   colour to its scalar copy;
4. a row length that is not a power of two: rows 4 KiB apart alias in the processor's
   store buffer (512 floats a row: 58 ns a contact; 520: 13.5 ns).

The contacts of the overflow group (those that found every colour taken) are not
independent: their chunks are *sequential*, solved one contact at a time in order.

Chunk by chunk and lane by lane is the colour order (``order_contacts``): the passes
that run one contact at a time (``push_deep``, ``restitution``, ``solver_rows.scatter``)
go through the chunks in that order. ``solver_rows.gather`` fills the chunks from the
contact rows each step; the memory is the caller's, kept from step to step.

``CHUNK`` is 72 lanes (nine vectors of eight): a colour of 400 contacts is six chunks,
and a chunk's 50 rows span 28 KiB, where with 520 lanes (session 15's choice) they
spanned 203 KiB. Measured whole steps: 72 ran pyramid40 as fast as 520 or faster and
136 within noise of 72; 24 was slower on smash and pyramid40 (2026-11-28).
"""
import numpy as np

from .._jit import njit, njit_inline
from ..body_state import S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from .coloring import COLORS

CHUNK = 72  # contacts a chunk holds, the length of each of its rows (see above)

CONTACT_ROWS = 12  # a chunk's rows: first the contact's ...
POINT_ROWS = 19  # ... then its two points', POINT_ROWS each
FIELDS = CONTACT_ROWS + 2 * POINT_ROWS


def _rows(first, count):
    """The offsets of rows ``first .. first + count - 1``, unsigned (point 2 above)."""
    return tuple(np.uint64((first + r) * CHUNK) for r in range(count))


# The contact's rows.
(O_MA, O_MB,  # inverse masses of bodies A and B
 O_IA, O_IB,  # inverse inertias
 O_NX, O_NY,  # normal from A to B; the tangent is (ny, -nx)
 O_FRICTION, O_RESTITUTION,
 O_SURFACE,  # relative surface speed the friction drives towards (conveyors), m/s
 O_COUNT,  # points: 1 or 2
 O_ROLLING,  # rolling resistance arm (coefficient x radius), m; 0: none
 O_ROLLI,  # accumulated rolling impulse this step, N m s
 ) = _rows(0, CONTACT_ROWS)
O_P0, O_P1 = _rows(CONTACT_ROWS, POINT_ROWS + 1)[::POINT_ROWS]  # where each point's rows start
# A point's rows, from its start.
(O_RNA, O_RNB,  # rA x n, rB x n: the anchors (from each centre of mass) crossed with n
 O_RTA, O_RTB,  # rA x t, rB x t
 # The core points q on A and B (contacts/layout.P_QAX) predict the separation. Along
 # the fixed normal, a point turned by its body's rotation (c, s) since the step began
 # projects to c (n . q) + s (q x n): these two numbers per point replace q.
 O_QAN, O_QAC,  # n . qA, qA x n
 O_QBN, O_QBC,  # n . qB, qB x n
 O_ADJ,  # separation minus the core points' gap along n when the manifold was made
 O_SEP,  # separation when the manifold was made
 O_NI, O_TI,  # accumulated normal and tangent impulses
 O_NMASS, O_TMASS,  # effective masses along n and t
 O_RELV,  # impact speed restitution answers (negative: approaching)
 O_MAXNI,  # largest normal impulse this step (0: never touched)
 # Impulses delivered over the step: start at minus the warm-start impulse, and each
 # substep's warm start adds the accumulated impulse it applies, so with the final
 # accumulated impulse added at the end they sum what every substep delivered.
 O_TOTNI, O_TOTTI,
 # For hit events: the gap over which O_RELV extrapolates to the speed at the instant
 # the point's gap closed (``contacts/events.contact_speed``): the separation when the
 # speed was taken, plus (after the substep's positions moved) or minus (before) half
 # the distance the speed covers in a substep, where semi-implicit Euler leads or lags.
 O_GAP,
 ) = _rows(0, POINT_ROWS)
O_CHUNK = np.uint64(FIELDS * CHUNK)

# The velocity scratch ``v``, VELOCITY_ROWS rows of CHUNK: A's and B's velocities (vx,
# vy, w), B's displacement since the step began minus A's, each body's rotation since
# then (cos, sin).
VELOCITY_ROWS = 12
V_VAX, V_VAY, V_WA, V_VBX, V_VBY, V_WB, V_DX, V_DY, V_QCA, V_QSA, V_QCB, V_QSB = _rows(
    0, VELOCITY_ROWS)


@njit
def plan_chunks(colour_counts):
    """The chunks of contacts in solve order, from the contacts per block and colour
    (``order_contacts``: ``COLORS + 1`` entries per solve block): each colour's contacts
    in runs of at most ``CHUNK``.

    Returns ``(first, size, sequential)``: int64 arrays, the index of each chunk's first
    contact in solve order and its number of contacts, and uint64, 1 for the overflow
    groups' chunks (solved one contact at a time; the last entry of each block's).

    Examples
    --------
    >>> import numpy as np
    >>> from engine.dynamics.coloring import COLORS
    >>> counts = np.zeros(COLORS + 1, np.int64)
    >>> counts[0], counts[1], counts[COLORS] = CHUNK + 3, 4, 2
    >>> first, size, sequential = plan_chunks(counts)
    >>> first.tolist() == [0, CHUNK, CHUNK + 3, CHUNK + 7], size.tolist() == [CHUNK, 3, 4, 2]
    (True, True)
    >>> sequential.tolist()
    [0, 0, 0, 1]
    """
    total = 0
    for c in range(colour_counts.shape[0]):
        total += (colour_counts[c] + CHUNK - 1) // CHUNK
    plan = np.empty((3, total), np.int64)  # one allocation: small worlds feel each
    first, size = plan[0], plan[1]
    sequential = plan[2].view(np.uint64)
    t = 0
    row = 0
    for c in range(colour_counts.shape[0]):
        left = colour_counts[c]
        while left > 0:
            first[t] = row
            size[t] = min(left, CHUNK)
            sequential[t] = c % (COLORS + 1) == COLORS
            row += size[t]
            left -= size[t]
            t += 1
    return first, size, sequential


@njit_inline
def carve_chunks(per_color, scratch):
    """The chunks for contacts ``per_color`` (see ``plan_chunks``), their lanes' bodies
    and the velocity scratch, carved out of ``scratch`` (float64), or out of a larger
    array made here when it is too small. Returns ``(chunks, scratch)``: ``chunks`` is
    ``(cw, ca, cb, first, size, sequential, v)``, ``ca``/``cb`` uint64 views."""
    first, size, sequential = plan_chunks(per_color)
    lanes = first.shape[0] * CHUNK
    span = lanes * FIELDS
    need = span + 2 * lanes + VELOCITY_ROWS * CHUNK
    if scratch.shape[0] < need:
        scratch = np.empty(2 * need)
    chunks = (scratch[:span], scratch[span:span + lanes].view(np.uint64),
              scratch[span + lanes:span + 2 * lanes].view(np.uint64), first, size, sequential,
              scratch[span + 2 * lanes:need])
    return chunks, scratch


@njit_inline
def offset(t, j):
    """The offset in ``cw`` of chunk ``t``'s contact ``j`` (add a row's offset)."""
    return np.uint64(t) * O_CHUNK + np.uint64(j)


@njit_inline
def gather_velocities(state, ca, cb, v, at, j):
    """Lane ``j``'s bodies' velocities, displacement and rotation since the step began,
    from ``state`` into the scratch ``v``; ``at`` is
    the chunk's first entry in ``ca``/``cb`` (uint64, as the body indices there)."""
    k = np.uint64(j)
    a = ca[at + k]
    b = cb[at + k]
    v[V_VAX + k] = state[a, S_VX]
    v[V_VAY + k] = state[a, S_VY]
    v[V_WA + k] = state[a, S_W]
    v[V_VBX + k] = state[b, S_VX]
    v[V_VBY + k] = state[b, S_VY]
    v[V_WB + k] = state[b, S_W]
    v[V_DX + k] = state[b, S_DPX] - state[a, S_DPX]
    v[V_DY + k] = state[b, S_DPY] - state[a, S_DPY]
    v[V_QCA + k] = state[a, S_QC]
    v[V_QSA + k] = state[a, S_QS]
    v[V_QCB + k] = state[b, S_QC]
    v[V_QSB + k] = state[b, S_QS]


@njit_inline
def store_velocities(state, ca, cb, cw, start, v, at, j, add):
    """Lane ``j``'s velocities from ``v`` back to ``state`` (``add``: added to them),
    for the bodies contacts can move (not static or kinematic ones: their velocity is
    not the contacts' to change, and one of them may sit in many lanes of a chunk).
    ``start``: the chunk's first entry in ``cw``."""
    k = np.uint64(j)
    c = start + k
    if cw[c + O_MA] != 0.0 or cw[c + O_IA] != 0.0:
        _put_body(state, ca[at + k], v[V_VAX + k], v[V_VAY + k], v[V_WA + k], add)
    if cw[c + O_MB] != 0.0 or cw[c + O_IB] != 0.0:
        _put_body(state, cb[at + k], v[V_VBX + k], v[V_VBY + k], v[V_WB + k], add)


@njit_inline
def _put_body(state, i, vx, vy, w, add):
    if add:
        state[i, S_VX] += vx
        state[i, S_VY] += vy
        state[i, S_W] += w
    else:
        state[i, S_VX] = vx
        state[i, S_VY] = vy
        state[i, S_W] = w
