"""Solver stage: Box2D v3's soft step over all contacts (sequential impulses).

One call advances every body by one step ``dt`` in ``substeps`` substeps of ``h``::

    bodies' centres of mass and velocities into the solver state (_centers_of_mass,
        _start_state)
    order the contacts with points by colour (coloring.py); integrate free bodies
    gather solver rows (effective masses, approach speeds; solver_rows.py)
    bouncy bodies that touch or meet collide, earliest first (impacts.py)
    for each substep (_substeps; passes in contact_solver.py):
        integrate velocities (gravity, forces, damping) of bodies in contact, capped
        warm start (apply last impulses); with joints, velocities capped again
        solve, biased: soft contacts push penetration out (at most ``pushout`` m/s;
            points deeper than SPLIT_PUSHOUT_DEPTH by position alone, a split impulse)
        integrate positions of bodies in contact, their velocities capped again
        relax, unbiased: removes the velocity the bias added (friction in both passes:
            first in the biased one, last in the relax one)
    restitution: the other points that hit during the step bounce (restitution.py)
    scatter the impulses back to the contact rows (warm starting next step)
    velocities and poses back to the body columns (_write_back)

Penetration is resolved along each contact's normal by the soft constraint ("positional
resolution" without a separate position pass); the separation of a point is predicted
each substep from the bodies' motion since the manifold was computed:
``s = adjusted + dot(dpB - dpA + rot(dqB) rB - rot(dqA) rA, n)``. A point with ``s > 0``
is speculative: its impulse may only stop the bodies from closing more than ``s`` in
this substep (``bias = s / h``), which is what keeps ordinary-speed bodies from tunnelling.

Sources: Box2D v3 ``src/solver.c``, ``src/contact_solver.c`` (``b2PrepareContactsTask``,
``b2WarmStartContactsTask``, ``b2SolveContact``, ``b2ApplyRestitutionTask``); Catto,
"Solver2D" (2024). Friction is solved before the normal impulses in the biased pass
and after them in the relax pass (``contact_solver.py`` says why).
"""
import math

import numpy as np

from .._jit import borrowed, copy_items, copy_rows, njit, njit_inline
from ..broadphase.key_sort import sort_keys
from .chunk_layout import carve_chunks
from .coloring import COLORS, order_contacts
from .contact_solver import RELAX, SOLVE, WARM_START, contact_pass, push_deep
from .impacts import impacts
from .restitution import restitution
from .integrate import cap_velocities, integrate_free, integrate_positions, integrate_velocities
from ..body_state import STATE_SIZE, S_DPX, S_DPY, S_QC, S_QS, S_VX, S_VY, S_W
from .solver_rows import gather, scatter
from .solve_blocks import block_spans
from ..contacts.events import most_gravity
from ..constants import (JOINT_MAX_HERTZ_FRACTION, MAX_HERTZ_FRACTION, MOVED_BY_HAND, STATIC,
                         STATIC_HERTZ_FACTOR)
from ..joints.common import softness
from ..joints.layout import BUCKETS
from ..joints.solver import joint_pass, prepare_joints


@njit_inline
def _contact_softness(hertz, zeta, h, inv_h):
    """``(soft_dyn, soft_static)``: the softness of contacts between moving bodies, and
    of contacts with a static or kinematic body (``STATIC_HERTZ_FACTOR`` times the
    hertz), both clamped to ``MAX_HERTZ_FRACTION`` of the substep rate (Box2D
    ``b2World_Step``: ``contactSoftness``, ``staticSoftness``)."""
    hz = min(hertz, MAX_HERTZ_FRACTION * inv_h)
    soft_dyn = softness(hz, zeta, h)
    soft_static = softness(min(STATIC_HERTZ_FACTOR * hertz, MAX_HERTZ_FRACTION * inv_h), zeta, h)
    return soft_dyn, soft_static


@njit_inline
def _solver_types(btype, asleep):
    """The body types as the solver sees them: a sleeping body is static (not moved,
    and no contact or joint with it is solved; ``dynamics/sleep.py``)."""
    stype = btype.copy()
    for i in range(btype.shape[0]):
        if asleep[i]:
            stype[i] = STATIC
    return stype


@njit_inline
def _centers_of_mass(pos, turn, com):
    """float64 (n, 2): each body's centre of mass in world coordinates (the solver moves
    bodies about it; ``pos`` is the body origin, ``turn`` its rotation). Also starts
    each body's rotation at the step's start (``turn[:, 2:]``, as ``pos0``)."""
    n = pos.shape[0]
    center = np.empty((n, 2))
    for i in range(n):
        c = turn[i, 0]
        s = turn[i, 1]
        turn[i, 2] = c
        turn[i, 3] = s
        center[i, 0] = pos[i, 0]
        center[i, 1] = pos[i, 1]
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:  # most bodies are centred
            center[i, 0] += c * com[i, 0] - s * com[i, 1]
            center[i, 1] += s * com[i, 0] + c * com[i, 1]
    return center


@njit_inline
def _contact_order(rows, cba, cbb, bodies, stype, budget):
    """``(order, in_contact, per_color, spans, found)``: the active contact rows in solve
    order, block by block and colour by colour (``coloring.order_contacts``, ``budget``
    contacts a block), the bodies they touch (tagged by block), the rows per block and
    colour, each block's ``(tag, lo, hi, first, end)`` (its bodies,
    ``solve_blocks.block_spans``, and its rows ``order[first:end]``), and what the block
    search found (``solve_blocks.solve_blocks``' count)."""
    order = np.empty(rows.shape[0], np.int32)
    in_contact = np.zeros(bodies.btype.shape[0], np.uint8)
    count, per_color, block, found = order_contacts(
        rows, cba, cbb, bodies.inv_mass, bodies.inv_inertia, stype, bodies.lane, order, in_contact,
        budget)
    spans = block_spans(block, max(found, 1), cba, cbb, stype, in_contact, per_color,
                        COLORS + 1)
    return order[:count], in_contact, per_color, spans, found


@njit_inline
def _start_state(vel, angvel, stype, in_contact):
    """float64 (n, STATE_SIZE): the bodies' velocities, no displacement, no rotation, in
    the rows of the bodies the solver reads (in contact, or static); the rows of free
    moving bodies are left unwritten (``integrate_free`` keeps them in the columns)."""
    n = vel.shape[0]
    state = np.empty((n, STATE_SIZE))
    for i in range(n):
        if in_contact[i] == 0 and stype[i] != STATIC:
            continue
        state[i, S_VX] = vel[i, 0]
        state[i, S_VY] = vel[i, 1]
        state[i, S_W] = angvel[i]
        state[i, S_DPX] = 0.0
        state[i, S_DPY] = 0.0
        state[i, S_QC] = 1.0
        for k in range(S_QS, STATE_SIZE):
            state[i, k] = 0.0
    return state


@njit_inline
def _joint_pass(joints, params, state, inv_mass, inv_inertia, angle, h, which):
    """The joints' part of a substep pass: 0 warm start, 1 solve (biased), 2 relax."""
    J, jorder, jstarts, ja, jb = borrowed(joints)  # (the caller keeps them alive)
    if jstarts[BUCKETS] == 0:
        return
    inv_h = 1.0 / h
    most = JOINT_MAX_HERTZ_FRACTION * math.sqrt(params.joint_iterations) * inv_h  # constants.py
    soft = softness(min(params.joint_hertz, most), params.joint_zeta, h)
    for _ in range(1 if which == 0 else params.joint_iterations):
        joint_pass(J, jorder, jstarts, ja, jb, state, inv_mass, inv_inertia, angle, soft, inv_h,
                   np.int64(which))  # (typed, not literal: one compile for all three)


@njit
def _substeps(bodies, stype, params, h, block, state, center, center0, chunks, joints):
    """The substep loop over the bodies in contact or joined (Box2D v3
    ``b2SolverStage_*`` order): integrate velocities, warm start, solve (biased),
    integrate positions, relax; joints before contacts in each pass, over one solve block
    (``solve_blocks.py``): ``chunks`` are its contacts' and ``block`` is ``(in_contact,
    tag, lo, hi)``, its bodies those of rows ``lo .. hi - 1`` whose ``in_contact`` (set
    for the bodies in contact or joined) is ``tag``. ``joints`` is ``(rows, order, starts, body_a, body_b)`` from
    ``prepare_joints``, or None for a world without joints: then Numba prunes the joint
    calls and never compiles the joint kernels (about 17 s of a first run's compile),
    which is why this is a separately compiled function and not inlined."""
    # No atomic counts on the arrays handed to the passes, 5 to 8 calls per substep
    # (the caller keeps every one of them alive for this call).
    # (``joints`` stays as it is: Numba prunes the joint calls only while it is the
    # argument itself.)
    bodies, stype, params, block, state, center, center0, chunks = borrowed(
        (bodies, stype, params, block, state, center, center0, chunks))
    substeps, gravity, hertz, zeta = params.substeps, params.gravity, params.hertz, params.zeta
    pushout, impact_gap, max_speed, max_rotation = (params.pushout, params.impact_gap,
                                                    params.max_speed, params.max_rotation)
    inv_h = 1.0 / h
    soft_dyn, soft_static = _contact_softness(hertz, zeta, h, inv_h)
    inv_mass, inv_inertia, angle = bodies.inv_mass, bodies.inv_inertia, bodies.angle
    pseudo = np.zeros((0, 3))  # deep points' push-out (contact_solver.push_deep), if any
    in_contact, tag, lo, hi = block
    span = (tag, lo, hi)
    for sub in range(substeps):
        # Alternate the order of a manifold's two points between substeps so that the
        # Gauss-Seidel bias of solving one point first does not accumulate into spin.
        reverse = sub % 2 == 1
        integrate_velocities(h, gravity, bodies.lane, stype, in_contact, span,
                             bodies.inv_mass, bodies.inv_inertia, bodies.force,
                             bodies.torque, bodies.lin_damp, bodies.ang_damp,
                             bodies.gravity_scale, state, max_speed, max_rotation)
        if joints is not None:
            _joint_pass(joints, params, state, inv_mass, inv_inertia, angle, h, 0)
        contact_pass(chunks, state, np.int64(WARM_START), inv_h, soft_dyn, soft_static,
                     pushout, impact_gap, reverse)
        if joints is not None:
            # joints that cannot all hold kick bodies here (see cap_velocities)
            cap_velocities(h, stype, in_contact, state, max_speed, max_rotation)
            _joint_pass(joints, params, state, inv_mass, inv_inertia, angle, h, 1)
        deep = contact_pass(chunks, state, np.int64(SOLVE), inv_h, soft_dyn, soft_static,
                            pushout, impact_gap, reverse)
        if deep > 0:  # points deeper than SPLIT_PUSHOUT_DEPTH: pushed by position alone
            if pseudo.shape[0] == 0:
                pseudo = np.zeros((state.shape[0], 3))
            push_deep(chunks, state, soft_dyn, soft_static, pushout, pseudo)
        integrate_positions(h, stype, in_contact, span, state, center, bodies.angle,
                            center0, max_speed, max_rotation, pseudo, np.bool_(deep > 0))
        if joints is not None:
            _joint_pass(joints, params, state, inv_mass, inv_inertia, angle, h, 2)
        contact_pass(chunks, state, np.int64(RELAX), inv_h, soft_dyn, soft_static, pushout,
                     impact_gap, reverse)


@njit_inline
def _start(bodies, params, h, stype, in_contact, center):
    """The solver state of the bodies in contact (``_start_state``), after the free
    bodies took all the substeps at once (``integrate.integrate_free``)."""
    state = _start_state(bodies.vel, bodies.angvel, stype, in_contact)
    integrate_free(params.substeps, h, params.gravity, bodies.lane, stype, in_contact,
                   bodies.inv_mass, bodies.inv_inertia, bodies.force, bodies.torque,
                   bodies.lin_damp, bodies.ang_damp, bodies.gravity_scale, bodies.vel,
                   bodies.angvel, params.max_speed, params.max_rotation, center, bodies.angle)
    return state


@njit
def _solve_block(bodies, stype, pairs, params, h, block, rows_k, colours, motion, scratch,
                 bouncy, hitters, hits, joints):
    """One solve block through the step: its rows ``rows_k`` (``colours``: how many of
    each colour) copied into colour chunks (``chunk_layout.py``, ``solver_rows.py``),
    which SIMD lanes solve side by side, carved from ``scratch`` (the same memory for
    every block); the bouncy collisions (``impacts.py``); the substeps; the bounces
    (``restitution.py``); the impulses scattered back to the pairs, and the pairs that
    may hold a hit appended to ``hitters`` from ``hits`` on. ``block`` is ``(in_contact,
    tag, lo, hi, moved, gravity_bound)`` (``moved``: some contact or joint moves
    bodies); ``motion`` ``(state, center, center0)``. Returns ``(scratch, hits)``. A
    function of its own, as ``_substeps``, so that ``bouncy`` and ``joints`` None prune
    what they leave out."""
    in_contact, tag, lo, hi, moved, gravity_bound = block
    state, center, center0 = motion
    chunks, scratch = carve_chunks(colours, scratch)
    gather(pairs.rows, rows_k, pairs.bodies[0], pairs.bodies[1], bodies.inv_mass,
           bodies.inv_inertia, state, chunks, h)
    if moved:
        if bouncy is not None:
            impacts(chunks, state, bouncy, params.restitution_threshold, params.impact_gap,
                    params.dt, h, center, center0, bodies.angle)
        _substeps(bodies, stype, params, h, (in_contact, tag, lo, hi), state, center, center0,
                  chunks, joints)
    restitution(chunks, state, params.restitution_threshold)
    got = scatter(chunks, rows_k, pairs.rows, pairs.hist, pairs.results, gravity_bound,
                  params.hit_threshold)
    copy_items(hitters[hits:], got, got.shape[0])
    return scratch, hits + got.shape[0]


@njit_inline
def _write_back(bodies, btype, in_contact, state, center, angle0):
    """Velocities (of the bodies in contact: ``integrate_free`` wrote the free ones') and
    body origins (from the centres of mass) back to the body columns; forces cleared;
    ``moved`` set where the pose changed. ``btype``: the solver's types (sleeping bodies
    count as static: their poses are not rewritten).

    A sleeping body's ``moved`` is cleared: this step's broadphase has re-boxed it (it
    may have moved in the step it fell asleep, or been created asleep, placed by hand),
    and it stays where it is until it wakes. Left set, every sleeping body was re-boxed
    at every step (Box2D's smash, the grid asleep: 0.13 ms a step in the broadphase)."""
    com, force, torque, turn = bodies.com, bodies.force, bodies.torque, bodies.turn
    pos, angle, vel, angvel, moved = bodies.pos, bodies.angle, bodies.vel, bodies.angvel, bodies.moved
    asleep = bodies.asleep
    for i in range(btype.shape[0]):
        if in_contact[i] or btype[i] == STATIC:
            vel[i, 0] = state[i, S_VX]
            vel[i, 1] = state[i, S_VY]
            angvel[i] = state[i, S_W]
        force[i, 0] = 0.0
        force[i, 1] = 0.0
        torque[i] = 0.0
        if btype[i] == STATIC:
            if asleep[i]:
                moved[i] = 0
            continue
        x = center[i, 0]
        y = center[i, 1]
        c = turn[i, 0]
        s = turn[i, 1]
        if angle[i] != angle0[i]:  # (else its rotation holds)
            c = math.cos(angle[i])
            s = math.sin(angle[i])
            turn[i, 0] = c
            turn[i, 1] = s
        if com[i, 0] != 0.0 or com[i, 1] != 0.0:
            x -= c * com[i, 0] - s * com[i, 1]
            y -= s * com[i, 0] + c * com[i, 1]
        # Moved: the broadphase must re-box this body's pieces next step.
        moved[i] = x != pos[i, 0] or y != pos[i, 1] or angle[i] != angle0[i] or moved[i] == MOVED_BY_HAND
        pos[i, 0] = x
        pos[i, 1] = y


@njit
def step_bodies(bodies, pairs, joints, bouncy, params, scratch):
    """Advance all bodies by ``params.dt`` in ``params.substeps`` substeps, solving the
    contacts of ``pairs`` and the ``joints``. Returns ``(hitters, scratch, blocks)``: the
    sorted indices of the pairs that may hold a hit event faster than
    ``params.hit_threshold`` (``solver_rows.scatter``), the scratch memory to pass next
    time, and the solve blocks (0: one, though the contacts were many: the caller may
    skip the block search for a while, ``solve_blocks.py``).

    Parameters
    ----------
    bodies : BodyArrays
        The world's body columns: poses, velocities, ``moved`` (set to 1 where the pose
        changed, 2 on entry for a body placed by hand) updated in place, forces cleared;
        ``pos0``, ``angle0`` receive the poses the step starts from.
    pairs : PairArrays
        Contact rows from the narrowphase (impulses accumulate in place), histories
        (receive the impulses for warm starting), results (each point's impulses over
        the step and its approach speed), the pairs' bodies.
    joints : JointArrays or None
        The joint rows (impulses accumulate in place); None for a world without joints,
        which then never compiles the joint kernels.
    bouncy : float or None
        The least restitution that collides before the substeps (``impacts.py``); None
        for a world with no shape that bouncy, which then never compiles that phase.
    params : SolverParams
        ``dt``, ``substeps``, gravity, contact ``hertz`` and ``zeta`` (clamped to a
        quarter of the substep rate; doubled with static or kinematic bodies), and the
        settings of ``engine.constants`` it names (``impact_gap``: a point closer
        touches, ``impacts.py``; one farther apart has its impact speed taken when it
        first pushes).
    scratch : float64 (k,)
        Memory for the colour chunks and the velocity scratch, kept by the caller from
        step to step (too small, a larger one is made and returned).
    """
    h, rows = params.dt / params.substeps, pairs.rows
    cba, cbb = pairs.bodies[0, :rows.shape[0]], pairs.bodies[1, :rows.shape[0]]
    stype = _solver_types(bodies.btype, bodies.asleep)
    center = _centers_of_mass(bodies.pos, bodies.turn, bodies.com)
    copy_rows(bodies.pos0, bodies.pos, stype.shape[0])  # the continuous stage sweeps from
    copy_items(bodies.angle0, bodies.angle, stype.shape[0])  # these
    # Contacts with points, block by block (solve_blocks.py; one block with joints),
    # colour by colour; bodies that touch one are integrated substep by substep around
    # the contact passes, free ones in one go.
    order, in_contact, per_color, spans, found = _contact_order(
        rows, cba, cbb, bodies, stype, params.block_contacts if joints is None else 0)
    joined = 0
    if joints is not None:  # None: a world without joints (see _substeps)
        jorder, jstarts = prepare_joints(joints.data, joints.kind, joints.body_a, joints.body_b,
                                         stype, bodies.angle, bodies.turn, bodies.com, center, h,
                                         in_contact)
        joined = jorder.shape[0]
    state = _start(bodies, params, h, stype, in_contact, center)
    pairs.results[:] = 0.0  # rows the solver does not visit report nothing
    gravity_bound = 2.0 * most_gravity(bodies, params.gravity) if order.shape[0] else 0.0
    moved = order.shape[0] > 0 or joined > 0  # else every body was free
    center0 = center.copy() if moved else center  # (read by impacts and the substeps)
    hitters, hits = np.empty(order.shape[0], np.int64), 0
    for k in range(spans.shape[0]):  # (one block with joints: jorder is defined)
        block = (in_contact, spans[k, 0], spans[k, 1], spans[k, 2], moved, gravity_bound)
        rows_k = order[spans[k, 3]:spans[k, 4]]
        colours = per_color[k * (COLORS + 1):(k + 1) * (COLORS + 1)]
        motion = (state, center, center0)
        if joints is None:
            scratch, hits = _solve_block(bodies, stype, pairs, params, h, block, rows_k, colours,
                                         motion, scratch, bouncy, hitters, hits, None)
        else:
            scratch, hits = _solve_block(bodies, stype, pairs, params, h, block, rows_k, colours,
                                         motion, scratch, bouncy, hitters, hits,
                                         (joints.data, jorder, jstarts, joints.body_a,
                                          joints.body_b))
    hitters = hitters[:hits]
    if spans.shape[0] > 1:  # each block's are sorted
        sort_keys(hitters)
    _write_back(bodies, stype, in_contact, state, center, bodies.angle0)
    return hitters, scratch, found
