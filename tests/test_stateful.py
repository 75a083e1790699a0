"""A long-lived property test (issue #19, item 9): a Hypothesis state machine drives the
public API at random and checks the world's invariants after every rule.

Rules create and destroy bodies of the three types, attach and remove shapes of every
kind (circles, boxes, rounded and convex polygons, segments, concave polygons; sensors;
filters), create and destroy joints of every kind, set poses, velocities, filters and
body types, step, query, and copy the world (``copy.deepcopy``, a pickle round trip,
or a snapshot restored) to check the copy continues bit for bit as the original. After every rule:

- no NaN or infinity in the public state arrays, the contacts or the joint forces;
- the three broadphase trees are valid (``AABBTree.validate``) and hold exactly one leaf
  per live piece, in the tree its body type and sensor flag call for, with its fat box;
- every tracked pair is admitted (live pieces on two bodies, one dynamic, filters and
  joints allowing) and, after a step, the tracked pairs whose fat boxes overlap are
  exactly the admitted piece pairs whose fat boxes overlap (brute force);
- handles of destroyed bodies, removed shapes and destroyed joints raise on use;
- live handles read their own rows: ``body.position`` is ``positions[body_index(body)]``,
  ``world.body(id)``, ``world.shape(id)`` and ``world.joint(id)`` give the handle back,
  a shape's body and a joint's bodies are the ones it was made with.

CI runs a short search; ``ENGINE_STATEFUL_EXAMPLES`` (and ``ENGINE_STATEFUL_STEPS``, the
rules per example) run it longer, e.g.
``ENGINE_STATEFUL_EXAMPLES=2000 pytest tests/test_stateful.py``.
"""
import copy
import itertools
import math
import os
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine import BodyType, Circle, Filter, Polygon, Segment, World

DT = 1 / 60
MAX_BODIES = 10
MAX_SHAPES = 3  # per body
MAX_JOINTS = 8
BODY_TYPES = ("dynamic", "kinematic", "static")

coord = st.floats(-3.0, 3.0, allow_nan=False).map(lambda v: round(v, 3))
speed = st.floats(-20.0, 20.0, allow_nan=False)
angle = st.floats(-math.pi, math.pi, allow_nan=False)
pick = st.integers(0, 1 << 16)  # an index into a list, taken modulo its length
filters = st.builds(Filter, category=st.sampled_from([1, 2, 4, 3]), mask=st.sampled_from([1, 2, 5, 7, (1 << 64) - 1]),
                    group=st.integers(-2, 2))

CONCAVE = [[(0, 0), (1, 0), (1, 1), (0.5, 0.3), (0, 1)],  # a notch
           [(0, 0), (1.2, 0), (1.2, 0.3), (0.3, 0.3), (0.3, 1), (0, 1)]]  # an L


@st.composite
def shapes(draw):
    kind = draw(st.sampled_from(["circle", "box", "polygon", "rounded", "segment", "concave"]))
    c = (draw(st.floats(-0.3, 0.3)), draw(st.floats(-0.3, 0.3)))
    if kind == "circle":
        return Circle(draw(st.floats(0.05, 0.8)), center=c)
    if kind == "box":
        return Polygon.box(draw(st.floats(0.05, 1.5)), draw(st.floats(0.05, 1.5)), center=c, angle=draw(angle))
    if kind in ("polygon", "rounded"):
        n = draw(st.integers(3, 8))
        t = np.linspace(0, 2 * np.pi, n, endpoint=False) + draw(angle)
        r = draw(st.floats(0.1, 0.7))
        radius = draw(st.floats(0.01, 0.2)) if kind == "rounded" else 0.0
        return Polygon(np.column_stack((np.cos(t), np.sin(t))) * r + c, radius=radius)
    if kind == "segment":
        d = (draw(st.floats(0.1, 1.0)), draw(st.floats(-1.0, 1.0)))
        return Segment(c, (c[0] + d[0], c[1] + d[1]), radius=draw(st.sampled_from([0.0, 0.05])))
    outline = np.array(draw(st.sampled_from(CONCAVE)), float) * draw(st.floats(0.3, 1.5)) + c
    return Polygon(outline, method=draw(st.sampled_from(["auto", "split", "earclip"])))


JOINT_KINDS = ["revolute", "prismatic", "distance", "weld", "wheel", "motor", "mouse", "angular",
               "gear", "ratchet", "filter"]


def make_joint(world, kind, a, b, collide, x):
    """A joint of ``kind`` between bodies ``a`` and ``b`` (``x`` in [0, 1] varies it)."""
    pa, pb = a.position, b.position
    mid = (0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]))
    if kind == "revolute":
        return world.create_revolute_joint(a, b, mid, limits=(-x, x) if x > 0.5 else None,
                                           motor_speed=x, max_motor_torque=10 * x,
                                           collide_connected=collide)
    if kind == "prismatic":
        return world.create_prismatic_joint(a, b, mid, (1.0, x), limits=(-x, x) if x > 0.5 else None,
                                            spring_hertz=2 * x, collide_connected=collide)
    if kind == "distance":
        return world.create_distance_joint(a, b, pa, (pb[0] + 0.25, pb[1]), length=0.5 + x,
                                           min_length=0.2 if x > 0.5 else None, spring_hertz=3 * x,
                                           collide_connected=collide)
    if kind == "weld":
        return world.create_weld_joint(a, b, mid, linear_hertz=5 * x, angular_hertz=2 * x,
                                       collide_connected=collide)
    if kind == "wheel":
        return world.create_wheel_joint(a, b, pb, (x, 1.0), motor_speed=-x, max_motor_torque=5.0,
                                        limits=(-0.2, 0.2) if x > 0.5 else None, collide_connected=collide)
    if kind == "motor":
        return world.create_motor_joint(a, b, linear_offset=(x, 0.0), angular_offset=x,
                                        max_force=50.0, collide_connected=collide)
    if kind == "mouse":
        return world.create_mouse_joint(b, pb, max_force=None if x > 0.5 else 100.0)
    if kind == "angular":
        return world.create_angular_joint(a, b, limits=(-x, x), motor_speed=x, max_motor_torque=x,
                                          collide_connected=collide)
    if kind == "gear":
        return world.create_gear_joint(a, b, ratio=0.5 + x, collide_connected=collide)
    if kind == "ratchet":
        return world.create_ratchet_joint(a, b, 0.1 + x, collide_connected=collide)
    return world.create_filter_joint(a, b)


def _overlap(f, g):
    return not (f[0] > g[2] or g[0] > f[2] or f[1] > g[3] or g[1] > f[3])


def _check_closest_hit(hit, hits):
    """``ray_cast``'s answer ``hit`` against ``ray_cast_all``'s ``hits`` (one per shape):
    the first shape the ray enters, the shapes holding the start skipped (``hits`` has
    them at fraction 0 with a zero normal), except that a concave polygon holding the
    start is hit where the ray enters it again after leaving it (docs/queries.md,
    "Inside starts"), a second entry that ``hits`` does not list."""
    entered = [h for h in hits if h.normal != (0.0, 0.0)]
    holding = {h.shape.id for h in hits if h.normal == (0.0, 0.0)}
    if hit is not None and hit.shape.id in holding:
        assert len(hit.shape.shape.pieces) > 1, "hit a convex shape holding the start"
        assert hit.fraction > 0.0 and hit.normal != (0.0, 0.0)
        if entered:  # ties in fraction go to the lower shape id
            assert (hit.fraction, hit.shape.id) < (entered[0].fraction, entered[0].shape.id)
        return
    assert (hit is None) == (not entered)
    if hit is not None:
        assert hit.fraction == entered[0].fraction and hit.shape is entered[0].shape


def _state_arrays(world):
    return [world.positions, world.angles, world.velocities, world.angular_velocities]


class WorldMachine(RuleBasedStateMachine):
    """Random use of one world; the lists mirror what should be alive in it."""

    def __init__(self):
        super().__init__()
        self.world = World()
        self.bodies = []  # live Body handles
        self.shapes = []  # (handle, body) of attached shapes
        self.joints = []  # (joint, body_a, body_b)
        self.dead_bodies, self.dead_shapes, self.dead_joints = [], [], []
        self.stepped = False  # no change since the last step: the pairs must be complete

    def _changed(self):
        self.stepped = False

    @initialize(shape=shapes(), x=coord, gravity=st.sampled_from([(0.0, -10.0), (0.0, 0.0)]))
    def ground_and_a_body(self, shape, x, gravity):
        # Every rule is enabled from the start (fewer draws thrown away). Without gravity,
        # bodies at rest keep their fat boxes, so pairs lost by the bookkeeping are not
        # found again by the boxes' refresh.
        self.world.gravity = gravity
        ground = self.world.create_body("static", position=(0.0, -3.0))
        self.shapes.append((ground.add_shape(Polygon.box(8.0, 0.5)), ground))
        body = self.world.create_body(position=(x, 0.0))
        self.shapes.append((body.add_shape(shape), body))
        self.bodies += [ground, body]

    # -- bodies ------------------------------------------------------------------------
    @precondition(lambda self: len(self.bodies) < MAX_BODIES)
    @rule(kind=st.sampled_from(BODY_TYPES), x=coord, y=coord, a=angle, vx=speed, vy=speed, w=speed)
    def create_body(self, kind, x, y, a, vx, vy, w):
        body = self.world.create_body(kind, position=(x, y), angle=a, velocity=(vx, vy),
                                      angular_velocity=w)
        self.bodies.append(body)
        self._changed()

    @precondition(lambda self: len(self.bodies) < MAX_BODIES - 3)
    @rule(kind=st.sampled_from(BODY_TYPES), shape=shapes(), n=st.integers(0, 3), x=coord, y=coord,
          a=angle, vx=speed, filter_=filters)
    def create_bodies(self, kind, shape, n, x, y, a, vx, filter_):
        """The bulk path (``World.create_bodies``) beside the loop's bodies and shapes."""
        xy = [(x + 0.7 * k, y) for k in range(n)]
        made = self.world.create_bodies(shape, xy, [a + k for k in range(n)], body_type=kind,
                                        velocities=(vx, 0.0), filter=filter_)
        assert len(made) == n
        self.bodies += made
        self.shapes += [(b.shapes[0], b) for b in made]
        self._changed()

    @precondition(lambda self: self.bodies)
    @rule(i=pick)
    def destroy_body(self, i):
        body = self.bodies.pop(i % len(self.bodies))
        self.world.destroy_body(body)
        self.dead_bodies.append(body)
        self.dead_shapes += [h for h, b in self.shapes if b is body]
        self.shapes = [(h, b) for h, b in self.shapes if b is not body]
        self.dead_joints += [j for j, a, b in self.joints if body in (a, b)]
        self.joints = [(j, a, b) for j, a, b in self.joints if body not in (a, b)]
        self._changed()

    @precondition(lambda self: self.bodies)
    @rule(i=pick, x=coord, y=coord, a=angle)
    def set_pose(self, i, x, y, a):
        body = self.bodies[i % len(self.bodies)]
        body.position = (x, y)
        body.angle = a
        self._changed()

    @precondition(lambda self: self.bodies)
    @rule(i=pick, vx=speed, vy=speed, w=speed)
    def set_velocity(self, i, vx, vy, w):
        body = self.bodies[i % len(self.bodies)]
        body.velocity = (vx, vy)
        body.angular_velocity = w
        self._changed()

    @precondition(lambda self: self.bodies)
    @rule(i=pick, kind=st.sampled_from(BODY_TYPES))
    def set_body_type(self, i, kind):
        body = self.bodies[i % len(self.bodies)]
        body.body_type = kind
        assert body.body_type is BodyType.parse(kind)
        self._changed()

    # -- shapes ------------------------------------------------------------------------
    @precondition(lambda self: self.bodies)
    @rule(i=pick, shape=shapes(), sensor=st.booleans(), filter_=filters,
          density=st.sampled_from([0.5, 1.0, 3.0]), friction=st.floats(0, 1))
    def add_shape(self, i, shape, sensor, filter_, density, friction):
        body = self.bodies[i % len(self.bodies)]
        if len(body.shapes) >= MAX_SHAPES:
            return
        handle = body.add_shape(shape, density=density, friction=friction, filter=filter_,
                                sensor=sensor)
        self.shapes.append((handle, body))
        self._changed()

    @precondition(lambda self: self.shapes)
    @rule(i=pick)
    def remove_shape(self, i):
        handle, body = self.shapes.pop(i % len(self.shapes))
        body.remove_shape(handle)
        self.dead_shapes.append(handle)
        self._changed()

    @precondition(lambda self: self.shapes)
    @rule(i=pick, filter_=filters)
    def set_filter(self, i, filter_):
        handle, _ = self.shapes[i % len(self.shapes)]
        handle.filter = filter_
        assert handle.filter.collides_with(filter_) == filter_.collides_with(filter_)
        self._changed()

    @precondition(lambda self: self.shapes)
    @rule(i=pick, sensor=st.booleans())
    def set_sensor(self, i, sensor):
        handle, _ = self.shapes[i % len(self.shapes)]
        handle.sensor = sensor
        assert handle.sensor is sensor
        self._changed()

    # -- joints ------------------------------------------------------------------------
    @precondition(lambda self: len(self.bodies) >= 2 and len(self.joints) < MAX_JOINTS)
    @rule(kind=st.sampled_from(JOINT_KINDS), i=pick, j=pick, collide=st.booleans(),
          x=st.floats(0.0, 1.0))
    def create_joint(self, kind, i, j, collide, x):
        a = self.bodies[i % len(self.bodies)]
        others = [b for b in self.bodies if b is not a]
        b = others[j % len(others)]
        joint = make_joint(self.world, kind, a, b, collide, x)
        self.joints.append((joint, None if kind == "mouse" else a, b))
        self._changed()

    @precondition(lambda self: self.joints)
    @rule(i=pick)
    def destroy_joint(self, i):
        joint, _, _ = self.joints.pop(i % len(self.joints))
        self.world.destroy_joint(joint)
        self.dead_joints.append(joint)
        self._changed()

    @precondition(lambda self: len(self.bodies) <= MAX_BODIES // 2)
    @rule(dx=coord, dy=coord)
    def copy_itself(self, dx, dy):
        """``World.add_copy`` of the world into itself: the copies join the lists as if
        made one by one, moved by ``(dx, dy)``."""
        world = self.world
        old = list(world.bodies)
        positions = world.positions.copy()
        made, joints = world.add_copy(world, (dx, dy))
        assert np.array_equal(world.positions[len(old):], positions + (dx, dy))
        twin = {id(o): m for o, m in zip(old, made)}
        self.bodies += made
        self.shapes += [(twin[id(b)].shapes[b.shapes.index(h)], twin[id(b)]) for h, b in self.shapes]
        self.joints += [(new, None if a is None else twin[id(a)], twin[id(c)])
                        for (_, a, c), new in zip(sorted(self.joints, key=lambda e: e[0].id), joints)]
        self._changed()

    # -- sleeping ----------------------------------------------------------------------
    @precondition(lambda self: self.bodies)
    @rule(i=pick, awake=st.booleans())
    def set_awake(self, i, awake):
        body = self.bodies[i % len(self.bodies)]
        body.awake = awake
        assert body.awake == (awake and body.body_type.name != "STATIC") or not awake

    @rule(on=st.booleans(), many=st.integers(0, 40))
    def toggle_sleeping_and_rest(self, on, many):
        """Sleeping on or off, then steps enough for islands to fall asleep."""
        self.world.sleeping = on
        for _ in range(many):
            self.world.step(DT)
        if not on:
            assert all(b.awake for b in self.bodies if b.body_type.name != "STATIC")
        if many:
            self.stepped = True

    @invariant()
    def sleepers_are_still_and_labelled(self):
        """A sleeping body has no velocity and an island label; its joined and touching
        dynamic partners sleep in the same island (after a step)."""
        b = self.world._state.bodies
        n = b.used
        asleep = b.asleep[:n] != 0
        assert np.all(b.vel[:n][asleep] == 0.0) and np.all(b.angvel[:n][asleep] == 0.0)
        assert np.all(b.island[:n][asleep] >= 0) and np.all(b.island[:n][~asleep] == -1)
        for joint, a, c in self.joints:
            if a is not None and c is not None and a is not c and joint.kind != 10 and (
                    a.body_type.name == c.body_type.name == "DYNAMIC"):
                ia, ic = self.world.body_index(a), self.world.body_index(c)
                assert asleep[ia] == asleep[ic], "a joint's two dynamic bodies sleep together"

    @invariant()
    def rotations_follow_angles(self):
        """Every body's kept rotation is ``math``'s cosine and sine of its angle, to the
        bit, whatever wrote the angle (a setter, the solver, the continuous stage)."""
        b = self.world._state.bodies
        n = b.used
        expected = [(math.cos(a), math.sin(a)) for a in b.angle[:n].tolist()]
        assert b.turn[:n, :2].tolist() == [list(e) for e in expected]

    # -- stepping, queries, copies -----------------------------------------------------
    @rule(n=st.integers(1, 4))
    def step(self, n):
        for _ in range(n):
            self.world.step(DT)
        broken = set(self.world.joint_events.broken.tolist())
        if broken:  # no joint has a break force here
            raise AssertionError(f"joints broke without a break force: {broken}")
        self.stepped = True

    @rule(x0=coord, y0=coord, x1=coord, y1=coord, sensors=st.booleans())
    def query(self, x0, y0, x1, y1, sensors):
        world = self.world
        live = {id(h) for h, _ in self.shapes}
        hit = world.ray_cast((x0, y0), (x1, y1), sensors=sensors)
        hits = world.ray_cast_all((x0, y0), (x1, y1), sensors=sensors)
        _check_closest_hit(hit, hits)
        if hit is not None:
            assert id(hit.shape) in live and hit.body is hit.shape.body
            assert 0.0 <= hit.fraction <= 1.0 and np.isfinite(hit.point).all()
        assert all(id(h.shape) in live for h in hits)
        assert [h.fraction for h in hits] == sorted(h.fraction for h in hits)
        inside = world.query_point((x0, y0), sensors=sensors)
        boxed = world.query_aabb((x0, y0), (x0, y0), sensors=sensors)
        assert all(id(h) in live for h in boxed)
        assert [h.id for h in boxed] == sorted(h.id for h in boxed)
        # a shape holding the point has its bounding box over it, up to rounding: a point
        # on a surface (within rounding of a piece's face) may count as inside
        near = world.query_aabb((x0 - 1e-9, y0 - 1e-9), (x0 + 1e-9, y0 + 1e-9), sensors=sensors)
        assert {p.shape.id for p in inside} <= {h.id for h in near}
        lo, hi = (min(x0, x1), min(y0, y1)), (max(x0, x1), max(y0, y1))
        assert all(id(h) in live for h in world.query_aabb(lo, hi, sensors=sensors))

    @rule(seed=st.integers(0, 2**16), sensors=st.booleans())
    def query_many(self, seed, sensors):
        """300 rays at once go through the grid kept with the query snapshot
        (``world/ray_grid.py``): after any sequence of changes, each answer is
        ``ray_cast``'s, bit for bit."""
        rng = np.random.default_rng(seed)
        starts = rng.uniform(-6.0, 6.0, (300, 2))
        ends = starts + rng.uniform(-8.0, 8.0, (300, 2))
        many = self.world.ray_cast_many(starts, ends, sensors=sensors)
        for i, (a, b) in enumerate(zip(starts.tolist(), ends.tolist())):
            hit = self.world.ray_cast(a, b, sensors=sensors)
            assert many.shape_id[i] == (-1 if hit is None else hit.shape.id)
            assert many.fraction[i] == (1.0 if hit is None else hit.fraction)

    @precondition(lambda self: self.bodies)
    @rule(how=st.sampled_from(["deepcopy", "pickle"]), n=st.integers(1, 5))
    def copy_continues_identically(self, how, n):
        world = self.world
        twin = copy.deepcopy(world) if how == "deepcopy" else pickle.loads(pickle.dumps(world))
        assert len(twin.bodies) == len(world.bodies) and len(twin.joints) == len(world.joints)
        for _ in range(n):
            world.step(DT)
            twin.step(DT)
            for mine, theirs in zip(_state_arrays(world), _state_arrays(twin)):
                assert np.array_equal(mine, theirs), f"{how}: the copy diverged"
            assert world.contact_count == twin.contact_count
        for j, k in zip(world.joints, twin.joints):
            assert j.id == k.id and j.reaction_force == k.reaction_force
        self.stepped = True

    @precondition(lambda self: self.bodies)
    @rule(n=st.integers(1, 4))
    def restore_continues_identically(self, n):
        world = self.world
        snap = world.snapshot()
        start = world.state_hash()
        first = []
        for _ in range(n):
            world.step(DT)
            first.append((world.state_hash(), *(a.copy() for a in _state_arrays(world))))
        world.restore(snap)
        assert world.state_hash() == start, "restore did not bring the state back"
        for expected in first:
            world.step(DT)
            assert world.state_hash() == expected[0], "the restored run diverged"
            for mine, theirs in zip(_state_arrays(world), expected[1:]):
                assert np.array_equal(mine, theirs), "the restored run diverged"
        self.stepped = True

    # -- invariants --------------------------------------------------------------------
    @invariant()
    def finite(self):
        world = self.world
        for arr in _state_arrays(world):
            assert np.isfinite(arr).all(), "NaN or infinity in the body state"
        for j, _, _ in self.joints:
            assert np.isfinite(j.reaction_force).all() and math.isfinite(j.reaction_torque)
        contacts = world.contacts()
        for name in contacts.dtype.names:
            if contacts.dtype[name].kind == "f":
                assert np.isfinite(contacts[name]).all(), f"NaN in contacts().{name}"

    @invariant()
    def handles_read_their_rows(self):
        world = self.world
        assert [b.id for b in world.bodies] == [b.id for b in self.bodies]
        assert all(x is y for x, y in zip(world.bodies, self.bodies))
        for body in self.bodies:
            assert body.alive and world.body(body.id) is body
            row = world.body_index(body)
            assert body.position == tuple(world.positions[row])
            assert body.angle == world.angles[row]
            assert body.velocity == tuple(world.velocities[row])
            assert body.angular_velocity == world.angular_velocities[row]
        for handle, body in self.shapes:
            assert handle.alive and handle.body is body and world.shape(handle.id) is handle
            assert any(h is handle for h in body.shapes)
        assert sum(len(b.shapes) for b in self.bodies) == len(self.shapes)
        assert sorted(j.id for j in world.joints) == sorted(j.id for j, _, _ in self.joints)
        for joint, a, b in self.joints:
            assert joint.alive and world.joint(joint.id) is joint
            assert joint.body_a is a and joint.body_b is b

    @invariant()
    def removed_handles_raise(self):
        world = self.world
        for body in self.dead_bodies[-5:]:
            assert not body.alive
            with pytest.raises(RuntimeError):
                body.position
            with pytest.raises(RuntimeError):
                body.velocity = (1.0, 0.0)
            with pytest.raises((RuntimeError, ValueError)):
                world.body(body.id)
        for handle in self.dead_shapes[-5:]:
            assert not handle.alive
            with pytest.raises(RuntimeError):
                handle.friction = 0.1
            with pytest.raises(RuntimeError):
                handle.filter
            assert not any(world.shape(h.id) is handle for h, _ in self.shapes)
        for joint in self.dead_joints[-5:]:
            assert not joint.alive
            with pytest.raises(RuntimeError):
                joint.body_b
            with pytest.raises(RuntimeError):
                joint.break_force = 1.0
            assert all(j is not joint for j in world.joints)

    @invariant()
    def trees_hold_the_live_pieces(self):
        state = self.world._state
        trees = {"moving": state.tree, "static": state.static_tree, "sensor": state.sensor_tree}
        for tree in trees.values():
            tree.validate()
        P = state.pieces
        live = [p for p in range(P.used) if P.body[p] >= 0]
        btype = {self.world.body_index(b): b.body_type for b in self.bodies}
        expect = {"moving": set(), "static": set(), "sensor": set()}
        for p in live:
            kind = ("sensor" if P.sensor[p] else
                    "static" if btype[int(P.body[p])] is BodyType.STATIC else "moving")
            expect[kind].add(p)
        for name, tree in trees.items():
            arrays = tree.arrays
            leaves = np.flatnonzero(arrays.height == 0)
            assert set(arrays.user[leaves].tolist()) == expect[name], f"{name} tree leaves"
            for p in expect[name]:
                node = int(P.node[p])
                assert arrays.height[node] == 0 and arrays.user[node] == p
                if name != "sensor":  # the sensor stage moves its leaves to swept boxes
                    assert np.array_equal(arrays.aabb[node], P.fat[p])
        # each piece's shape is a live shape of its body
        ids = {h.id: self.world.body_index(b) for h, b in self.shapes}
        assert {int(P.shape[p]) for p in live} == set(ids)
        assert all(ids[int(P.shape[p])] == P.body[p] for p in live)

    @invariant()
    def pairs_are_the_admitted_fat_box_overlaps(self):
        world, state = self.world, self.world._state
        P = state.pieces
        index = {self.world.body_index(b): b for b in self.bodies}
        handle = {h.id: h for h, _ in self.shapes}
        apart = {frozenset((world.body_index(a), world.body_index(b)))
                 for j, a, b in self.joints if a is not None and not j.collide_connected}

        def admitted(p, q):
            if P.body[p] < 0 or P.body[q] < 0 or P.sensor[p] or P.sensor[q]:
                return False
            ba, bb = int(P.body[p]), int(P.body[q])
            if ba == bb or BodyType.DYNAMIC not in (index[ba].body_type, index[bb].body_type):
                return False
            if frozenset((ba, bb)) in apart:
                return False
            return handle[int(P.shape[p])].filter.collides_with(handle[int(P.shape[q])].filter)

        a, b = state.pairs.pieces()
        keys = list(zip(a.tolist(), b.tolist()))
        assert len(set(keys)) == len(keys) and all(p < q for p, q in keys)
        for p, q in keys:
            assert admitted(p, q), f"tracked pair {(p, q)} is not admitted"
        if not self.stepped:
            return
        tracked = {k for k in keys if _overlap(P.fat[k[0]], P.fat[k[1]])}
        live = [p for p in range(P.used) if P.body[p] >= 0]
        brute = {(p, q) for p, q in itertools.combinations(live, 2)
                 if admitted(p, q) and _overlap(P.fat[p], P.fat[q])}
        assert tracked == brute, f"missing {brute - tracked}, extra {tracked - brute}"


# CI runs a fixed set of examples (derandomize: the same on every machine and run), so a
# rare bug this test can find shows up in a long exploring run (ENGINE_STATEFUL_EXAMPLES,
# ENGINE_STATEFUL_RANDOM=1), not as a red CI on an unrelated change. A finding of a
# random run (2026-11-25: NaN after a static body, joined to a small circle by a
# prismatic and a revolute joint, was posed by hand) is pinned in
# tests/test_conflicting_joints.py.
EXAMPLES = int(os.environ.get("ENGINE_STATEFUL_EXAMPLES", "50"))
WorldMachine.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=int(os.environ.get("ENGINE_STATEFUL_STEPS", "40")),
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize=os.environ.get("ENGINE_STATEFUL_RANDOM") != "1")
TestWorldMachine = WorldMachine.TestCase
