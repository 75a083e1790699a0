"""The continuous stage's early out (``sweeps.faces_separate``): when it says a face of a
static or kinematic piece keeps a sweep clear, the time of impact finds no impact, and
the swept piece's core stays farther than the clearance from that piece all along
(checked against densely sampled poses)."""
import math

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.collision.toi import cores_overlap, piece_toi
from engine.dynamics.sweeps import faces_separate, sweep_ends
from engine.geometry.convex import convex_distance


def _polygon(k, size, phase):
    """A regular k-gon (k >= 3), or a segment (k = 2), centred near the origin."""
    if k == 2:
        return np.array([[-size, 0.0], [size, 0.0]]), np.array([[0.0, -1.0], [0.0, 1.0]])
    a = phase + 2 * math.pi * np.arange(k) / k
    verts = np.stack([size * np.cos(a), size * np.sin(a)], axis=1)
    edges = np.roll(verts, -1, axis=0) - verts
    norms = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
    return verts, norms / np.linalg.norm(norms, axis=1)[:, None]


def _at(verts, sw, t, lx, ly):
    cx = sw[0] + t * (sw[3] - sw[0])
    cy = sw[1] + t * (sw[4] - sw[1])
    a = sw[2] + t * (sw[5] - sw[2])
    c, s = math.cos(a), math.sin(a)
    local = verts - (lx, ly)
    return np.stack([cx + c * local[:, 0] - s * local[:, 1], cy + s * local[:, 0] + c * local[:, 1]], axis=1)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kp=st.integers(1, 6), kq=st.integers(2, 6), size_p=st.floats(0.05, 1.0), size_q=st.floats(0.1, 5.0),
       start=st.tuples(st.floats(-4, 4), st.floats(-4, 4)), move=st.tuples(st.floats(-6, 6), st.floats(-6, 6)),
       turn=st.floats(-3.0, 3.0), a0=st.floats(-3.2, 3.2), q_angle=st.floats(-3.2, 3.2),
       com=st.tuples(st.floats(-0.3, 0.3), st.floats(-0.3, 0.3)), clearance=st.floats(0.0, 0.3))
def test_a_separating_face_means_no_impact(kp, kq, size_p, size_q, start, move, turn, a0, q_angle, com,
                                             clearance):
    if kp == 1:
        vp, _ = np.array([[0.0, 0.0]]), None
    else:
        vp, _ = _polygon(max(kp, 2), size_p, 0.3)
    vq, nq = _polygon(kq, size_q, 0.1)
    lx, ly = com
    sw = (start[0], start[1], a0, start[0] + move[0], start[1] + move[1], a0 + turn, lx, ly)
    other = (0.5, -0.25, q_angle, 0.5, -0.25, q_angle, 0.0, 0.0)
    verts = np.vstack([vp, vq])
    norms = np.vstack([np.zeros_like(vp), nq])
    kp = vp.shape[0]
    ends = np.empty((2 * kp, 2))
    bulge = sweep_ends(verts, 0, kp, sw, ends)
    assert np.allclose(ends[:kp], _at(vp, sw, 0.0, lx, ly)) and np.allclose(ends[kp:], _at(vp, sw, 1.0, lx, ly))
    clear = faces_separate(verts, norms, kp, kq, 0.5, -0.25, q_angle, ends, kp, clearance + bulge)
    event(f"separate: {clear}")
    if not clear:
        return
    q_world = _at(vq, other, 0.0, 0.0, 0.0)
    for t in np.linspace(0.0, 1.0, 201):
        p_world = _at(vp, sw, t, lx, ly)
        both = np.vstack([p_world, q_world])
        assert not cores_overlap(both, 0, kp, kp, kq)
        assert convex_distance(both, 0, kp, kp, kq)[0] > clearance - 1e-9
    scratch = np.empty((kp + kq + 1, 2))
    assert piece_toi(verts, 0, kp, sw, verts, kp, kq, other, clearance, 0.0, scratch)[0] < 0.0


def test_a_piece_beside_a_face_moving_along_it_is_clear_and_one_crossing_it_is_not():
    vq, nq = _polygon(4, 1.0, math.pi / 4)  # a square of half-diagonal 1, faces at about 0.71
    vp = np.array([[-0.1, -0.1], [0.1, -0.1], [0.1, 0.1], [-0.1, 0.1]])
    verts, norms = np.vstack([vp, vq]), np.vstack([np.zeros_like(vp), nq])
    ends = np.empty((8, 2))
    along = (-3.0, 1.5, 0.0, 3.0, 1.5, 0.0, 0.0, 0.0)  # 0.69 above the top face, sliding past
    bulge = sweep_ends(verts, 0, 4, along, ends)
    assert bulge == 0.0 and faces_separate(verts, norms, 4, 4, 0.0, 0.0, 0.0, ends, 4, 0.5)
    through = (0.0, 3.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0)  # straight through it
    sweep_ends(verts, 0, 4, through, ends)
    assert not faces_separate(verts, norms, 4, 4, 0.0, 0.0, 0.0, ends, 4, 0.0)


def test_a_turning_stick_that_swings_through_a_face_is_not_clear():
    """Both ends of the sweep have the stick flat 0.3 above the face, but half way
    through its half turn it points straight down through it: only the bulge of the
    arcs its ends follow (here its whole half length) tells."""
    vq, nq = _polygon(4, 1.0, math.pi / 4)  # faces 0.71 from the centre; top face y = 0.71
    vp = np.array([[-1.0, 0.0], [1.0, 0.0]])  # a segment of half length 1 (its own "faces" unused)
    verts, norms = np.vstack([vp, vq]), np.vstack([np.zeros_like(vp), nq])
    ends = np.empty((4, 2))
    top = 0.5 * math.sqrt(2.0)
    sw = (0.0, top + 0.3, 0.0, 0.0, top + 0.3, math.pi, 0.0, 0.0)
    bulge = sweep_ends(verts, 0, 2, sw, ends)
    assert abs(bulge - 1.0) < 1e-12  # (1 - cos(pi / 2)) times the half length
    assert faces_separate(verts, norms, 2, 4, 0.0, 0.0, 0.0, ends, 2, 0.1)  # the ends alone
    assert not faces_separate(verts, norms, 2, 4, 0.0, 0.0, 0.0, ends, 2, 0.1 + bulge)
    scratch = np.empty((7, 2))
    assert piece_toi(verts, 0, 2, sw, verts, 2, 4, (0.0,) * 3 * 2 + (0.0, 0.0), 0.1, 0.0, scratch)[0] >= 0.0
