"""Continuous collision between two fast bodies (issue #19, item 7;
``engine/dynamics/fast_pairs.py``), and between a fast body and a kinematic body that
moves fast (``engine/dynamics/continuous.py``, ``_moves_far``).

The oracle is the continuous stage's own model of motion: between two steps each body
moves linearly from its pose to the next, turning linearly. Two bodies have passed
through each other when, somewhere along those motions, one's centre gets inside the
other: a ball's centre closer than its radius to the other ball's centre, or inside
the plank.
"""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine.constants as K
from engine import Circle, Polygon, World

DT = 1.0 / 60.0
R = 0.1
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _poses(bodies):
    return np.array([(b.position[0], b.position[1], b.angle) for b in bodies])


def _closest_centres(a0, a1, b0, b1):
    """Least distance between two centres moving linearly from *0 to *1 (arrays (n, 3))."""
    r0 = b0[:, :2] - a0[:, :2]
    dv = (b1[:, :2] - a1[:, :2]) - r0
    vv = np.einsum("ij,ij->i", dv, dv)
    t = np.clip(-np.einsum("ij,ij->i", r0, dv) / np.where(vv > 0, vv, 1.0), 0.0, 1.0)
    return np.hypot(*(r0 + t[:, None] * dv).T)


def _run_pairs(world, a, b, steps):
    """Step; return the least centre distance of pairs (a[k], b[k]) over all the motion."""
    pa, pb = _poses(a), _poses(b)
    least = np.full(len(a), np.inf)
    for _ in range(steps):
        world.step(DT)
        qa, qb = _poses(a), _poses(b)
        least = np.minimum(least, _closest_centres(pa, qa, pb, qb))
        pa, pb = qa, qb
    return least


def _head_on(speed, heading, offset, phase, count=50):
    """``count`` pairs of balls flying at each other, each at ``speed``, meeting after
    2 to 3 steps (``phase`` spreads the arrival over a step), their lanes ``offset``
    apart sideways."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    c, s = math.cos(heading), math.sin(heading)
    a, b = [], []
    for k in range(count):
        ox, oy = -3.0 * k * s, 3.0 * k * c  # lanes 3 m apart, across the heading
        d = speed * DT * (2.0 + (phase + k / count) % 1.0)
        first = world.create_body(position=(ox - d * c, oy - d * s), velocity=(speed * c, speed * s))
        first.add_shape(Circle(R), restitution=0.0)
        second = world.create_body(position=(ox + d * c - offset * s, oy + d * s + offset * c),
                                   velocity=(-speed * c, -speed * s))
        second.add_shape(Circle(R), restitution=0.0)
        a.append(first)
        b.append(second)
    return world, a, b


def test_fifty_head_on_pairs_at_300_never_pass():
    # (This one held before too: each pair's speculative contact stops it.)
    world, a, b = _head_on(300.0, 0.0, 0.0, 0.0)
    least = _run_pairs(world, a, b, 20)
    assert least.min() > R, least.min()
    assert all(p.position[0] < q.position[0] for p, q in zip(a, b))


@FAST
@given(st.floats(100.0, 400.0), st.floats(6.0, 9.0), st.floats(0.0, 1.0), st.floats(-math.pi, math.pi))
@example(speed=300.0, gap=6.6875, phase=0.125, heading=2.5)  # a random run: closest 0.094
def test_a_ball_struck_within_the_step_never_passes_an_oncoming_one(speed, gap, phase, heading):
    """50 balls at rest, each struck by a kinematic paddle moving at ``speed``, fly at
    50 balls coming the other way at ``speed``. The struck ball's speculative contact
    was made while it rested, so only the sweep of the two together can stop them
    (before: 6, 9 and 27 of 50 pairs passed at gaps of 3, 6 and 8 m).

    In the pinned example an oncoming ball, turned round by its speculative contact
    with the paddle, rode just ahead of it with a sideways drift; swept against the
    paddle held at its end pose (5 m ahead), it was stopped behind the paddle, and the
    struck ball overtook it through it (``test_ccd.py``, a ball riding ahead of a
    paddle)."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    c, s = math.cos(heading), math.sin(heading)
    a, b = [], []
    for k in range(50):
        ox, oy = -3.0 * k * s, 3.0 * k * c  # lanes 3 m apart, across the heading
        paddle = world.create_body("kinematic", position=(ox - 0.5 * c, oy - 0.5 * s), angle=heading,
                                   velocity=(speed * c, speed * s))
        paddle.add_shape(Polygon.box(0.2, 1.0))
        struck = world.create_body(position=(ox - 0.3 * c, oy - 0.3 * s))
        struck.add_shape(Circle(R))
        d = gap + speed * DT * ((phase + k / 50) % 1.0)
        oncoming = world.create_body(position=(ox + d * c, oy + d * s), velocity=(-speed * c, -speed * s))
        oncoming.add_shape(Circle(R))
        a.append(struck)
        b.append(oncoming)
    least = _run_pairs(world, a, b, 4)
    assert least.min() > R, least.min()


@FAST
@given(st.floats(30.0, 300.0), st.floats(-math.pi, math.pi), st.floats(-0.15, 0.15), st.floats(0.0, 1.0))
def test_head_on_pairs_never_pass_at_any_speed_heading_or_offset(speed, heading, offset, phase):
    world, a, b = _head_on(speed, heading, offset, phase)
    least = _run_pairs(world, a, b, 12)
    assert least.min() > R, least.min()


def test_head_on_equal_balls_stop_dead_without_exploding():
    """Restitution 0, equal masses: momentum 0 before, so both end (nearly) at rest."""
    world, a, b = _head_on(300.0, 0.3, 0.0, 0.5)
    _run_pairs(world, a, b, 30)
    va = np.array([p.velocity for p in a])
    vb = np.array([q.velocity for q in b])
    assert np.abs(va + vb).max() < 1e-6 * 300.0  # momentum kept
    assert np.hypot(*(va - vb).T).max() < 0.5  # closing speed gone (from 600 m/s)
    assert np.hypot(*va.T).max() < 0.5  # and no energy made


def _plank_clearance(ball, plank, half_w, half_h, samples=48):
    """Least distance from the ball's centre to the plank's rectangle along one step's
    linear motions (``ball``, ``plank``: (2, 3) start and end poses); 0 when inside."""
    s = np.linspace(0.0, 1.0, samples + 1)[:, None]
    b = ball[0] + s * (ball[1] - ball[0])
    p = plank[0] + s * (plank[1] - plank[0])
    c, sn = np.cos(p[:, 2]), np.sin(p[:, 2])
    dx, dy = b[:, 0] - p[:, 0], b[:, 1] - p[:, 1]
    lx = np.maximum(np.abs(c * dx + sn * dy) - half_w, 0.0)
    ly = np.maximum(np.abs(-sn * dx + c * dy) - half_h, 0.0)
    return float(np.hypot(lx, ly).min())


def _plank_crossing(kind, ball_speed, plank_speed, phase, tilt, thickness):
    """A ball crosses the path of a 1 m plank (body type ``kind``) that moves across it
    at ``plank_speed``; returns the least clearance of the ball's centre to the plank."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    meet = 3 * DT
    ball = world.create_body(position=(-ball_speed * meet, 0.0), velocity=(ball_speed, 0.0))
    ball.add_shape(Circle(R))
    plank = world.create_body(kind, position=(0.0, -plank_speed * (meet + phase * DT)), angle=tilt,
                              velocity=(0.0, plank_speed))
    plank.add_shape(Polygon.box(thickness, 1.0))
    prev = _poses([ball, plank])
    least = math.inf
    for _ in range(10):
        world.step(DT)
        now = _poses([ball, plank])
        least = min(least, _plank_clearance(np.array([prev[0], now[0]]), np.array([prev[1], now[1]]),
                                            thickness / 2, 0.5))
        prev = now
    return least


PLANKS = (st.floats(50.0, 300.0), st.floats(50.0, 150.0), st.floats(-0.5, 0.5), st.floats(-0.6, 0.6),
          st.floats(0.02, 0.08))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*PLANKS)
def test_a_fast_ball_never_passes_a_fast_thin_plank(ball_speed, plank_speed, phase, tilt, thickness):
    """The ball's centre never gets inside the plank (before: it did in 180 of 300
    random cases of this kind, the ball flying straight through)."""
    assert _plank_crossing("dynamic", ball_speed, plank_speed, phase, tilt, thickness) > 0.0


# -- a fast body and a kinematic body that moves fast (``continuous._moves_far``) ---------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*PLANKS)
def test_a_fast_ball_never_passes_a_fast_kinematic_plank(ball_speed, plank_speed, phase, tilt,
                                                         thickness):
    """As above, the plank kinematic. Held at its end pose, the plank was out of the
    ball's path when it crossed it: 33 of 200 random crossings went through."""
    assert _plank_crossing("kinematic", ball_speed, plank_speed, phase, tilt, thickness) > 0.0


def test_a_ball_riding_ahead_of_a_fast_paddle_is_not_stopped_behind_it():
    """A ball 7 cm ahead of a kinematic paddle, both at 300 m/s, the ball drifting
    sideways at 12 m/s: 0.2 m a step relative to the paddle, so it is swept against it.
    Held at its end pose, 5 m ahead, the paddle's back face lay in the ball's path: the
    ball was stopped behind the paddle, which had passed through it (the pinned example
    of the struck balls above). They never meet: it flies on."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    paddle = world.create_body("kinematic", velocity=(300.0, 0.0))
    paddle.add_shape(Polygon.box(0.2, 1.0))
    ball = world.create_body(position=(0.27, 0.0), velocity=(300.0, 12.0))
    ball.add_shape(Circle(R))
    for k in range(1, 4):
        world.step(DT)
        assert ball.position[0] - paddle.position[0] == pytest.approx(0.27, abs=1e-9)
        assert ball.position[1] == pytest.approx(0.2 * k, abs=1e-9)


@pytest.mark.parametrize("phase", [k / 10 for k in range(11)])
def test_a_ball_meeting_a_fast_paddle_head_on_stays_in_front_of_it(phase):
    """A ball at 300 m/s meets a kinematic paddle at 300 m/s head-on and is carried
    off in front of it (before: in 11 of 21 phases it ended behind the paddle, stopped
    at its end pose's back face once the paddle pushed it)."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    paddle = world.create_body("kinematic", velocity=(300.0, 0.0))
    paddle.add_shape(Polygon.box(0.2, 1.0))
    ball = world.create_body(position=(10.0 * (1.0 + phase) + 0.3, 0.0), velocity=(-300.0, 0.0))
    ball.add_shape(Circle(R), restitution=0.0)
    for _ in range(5):
        world.step(DT)
        assert ball.position[0] - paddle.position[0] > 0.1 + R - 2 * K.LINEAR_SLOP


def test_a_chain_of_fast_balls_keeps_its_order():
    """A flies right at B and C, which fly left one behind the other in the same lane:
    A stops at B, and C must stop at where B stopped, not where B would have been."""
    world = World(gravity=(0.0, 0.0), sleeping=False)
    balls = []
    for x, vx in ((-4.0, 300.0), (4.0, -300.0), (4.3, -300.0), (-4.4, 300.0)):
        body = world.create_body(position=(x, 0.0), velocity=(vx, 0.0))
        body.add_shape(Circle(R), restitution=0.0)
        balls.append(body)
    order = [3, 0, 1, 2]
    for _ in range(30):
        world.step(DT)
        xs = [balls[k].position[0] for k in order]
        assert all(x1 - x0 > R for x0, x1 in zip(xs, xs[1:])), xs


_DONE = -2.0


def _swept_boxes(fast, bodies, pieces, slop):
    """Every non-sensor piece of a fast body's swept box, (pieces, 4), as the continuous
    stage's sweeps leave them for ``fast_pair_impacts`` (NaN elsewhere: never read)."""
    from engine.dynamics.sweeps import swept_box
    swept = np.full((pieces.body.shape[0], 4), np.nan)
    for p, i in enumerate(pieces.body):
        if i >= 0 and fast[i] and not pieces.sensor[p]:
            swept[p] = swept_box(pieces.verts, pieces.start[p], pieces.count[p], pieces.radius[p],
                                 bodies.pos0, bodies.angle0, bodies.pos, bodies.angle, bodies.turn,
                                 bodies.com, np.int64(i), slop)
    return swept


def _scan_every_pair(fast, frac, bodies, pieces, rule, one_way, params, scratch, center, swept):
    """The fast-pair impacts found the plain way: after each impact, every candidate pair
    is scanned, those of the two bodies it stopped timed again, and the next earliest
    taken from all of them (``fast_pairs`` keeps lists instead; the answer must not
    change)."""
    from engine.dynamics import fast_pairs as fp
    idx, box = fp._fast_pieces(fast, bodies, pieces, swept)
    keys = fp._candidate_keys(idx, box, bodies, pieces, rule, one_way)
    body = pieces.body
    times = [fp._pair_time(k, frac, bodies, pieces, params, scratch, center) for k in keys]
    applied = 0
    while True:
        pending = [e for e, t in enumerate(times) if t >= 0.0]
        if not pending:
            return applied, len(keys)
        e = min(pending, key=lambda e: (times[e], e))
        t, i, j = times[e], body[keys[e] >> 32], body[keys[e] & 0xFFFFFFFF]
        frac[i] = min(frac[i], t)
        frac[j] = min(frac[j], t)
        applied += 1
        for k, key in enumerate(keys):
            a, b = body[key >> 32], body[key & 0xFFFFFFFF]
            if times[k] == _DONE:
                continue
            if {a, b} == {i, j}:
                times[k] = _DONE
            elif a in (i, j) or b in (i, j):
                times[k] = fp._pair_time(key, frac, bodies, pieces, params, scratch, center)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1))
def test_fast_pair_impacts_equal_a_scan_of_every_pair(seed):
    """A crowd of fast balls and boxes flying every way, some already stopped within the
    step: the impacts ``fast_pair_impacts`` applies (its pending list and per-body lists,
    the pairs it does not time again) cut every body's motion exactly where the plain
    scan of every pair after every impact does."""
    from engine.dynamics.continuous import find_fast
    from engine.dynamics.fast_pairs import fast_pair_impacts
    rng = np.random.default_rng(seed)
    world = World(gravity=(0.0, 0.0), sleeping=False)
    for k in range(70):
        body = world.create_body(position=tuple(rng.uniform(-2.0, 2.0, 2)), angle=rng.uniform(0, 6))
        body.add_shape(Circle(0.08) if k % 2 else Polygon.box(0.16, 0.1))
    world.step(DT)
    state = world._state
    bodies = state.body_arrays()
    # the step's motion: from the poses now, at 20 to 60 m/s every way, turning
    n = bodies.pos.shape[0]
    speed = rng.uniform(20.0, 60.0, n)
    heading = rng.uniform(-math.pi, math.pi, n)
    bodies.pos0[:] = bodies.pos
    bodies.angle0[:] = bodies.angle
    bodies.pos[:, 0] += speed * np.cos(heading) * DT
    bodies.pos[:, 1] += speed * np.sin(heading) * DT
    bodies.angle[:] += rng.uniform(-0.5, 0.5, n)
    fast = np.zeros(n, np.uint8)
    assert find_fast(bodies, state.continuous_params().safety, fast) > 40
    pieces = state.piece_arrays()
    args = (bodies, pieces, state.pair_rule(), state.shapes.one_way[:state.shapes.used],
            state.continuous_params(), np.empty((9, 2)), np.empty((1, 2)),
            _swept_boxes(fast, bodies, pieces, state.continuous_params()[0]))
    # some bodies already stopped within the step, as the sweeps against slow and
    # static bodies leave them: pairs whose two bodies stop at different times
    frac = np.where(rng.uniform(0.0, 1.0, n) < 0.3, rng.uniform(0.0, 1.0, n), 1.0)
    expected = frac.copy()
    applied = fast_pair_impacts(fast, frac, *args)
    plain, candidates = _scan_every_pair(fast, expected, *args)
    assert candidates > 0 and applied == plain
    assert np.array_equal(frac, expected)
