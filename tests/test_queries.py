"""World queries (``World.ray_cast`` and friends, ``engine/world/queries.py``) against pymunk
(per shape: ``Shape.segment_query``, ``Space.point_query``, ``bb_query``, ``shape_query``),
shapely (concave outlines), brute force and Box2D's unit cases.

Conventions checked here (``docs/queries.md``):

- a ray that starts inside a shape, or on its surface, hits it at fraction 0 with
  ``point = start`` and ``normal = (0, 0)`` in ``ray_cast_all`` (pymunk: alpha 0, inward
  normal, point = the ray's end), and ``ray_cast`` / ``ray_cast_many`` skip that shape
  (Box2D's ``b2World_CastRayClosest``), so pymunk is compared only on the other shapes,
  and the inside starts on their own;
- ``query_point`` keeps distances ``<= max_distance`` (pymunk ``<``): the random
  distances here never tie;
- pymunk's ``Space.segment_query_first`` is not the oracle (its fat-ray misses,
  Chipmunk2D #138): the minimum of the per-shape ``Shape.segment_query`` is.
"""
import math

import numpy as np
import pymunk
import pytest
import shapely
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point
from shapely.geometry import Polygon as ShapelyPolygon

from engine import Circle, Filter, PointHit, Polygon, RayHit, RayHits, Segment, World, collide
from engine.world.queries import accepted_pieces
from strategies import simple_polygons

TOL = 1e-9
KINDS = ("circle", "box", "convex", "capsule", "segment", "rounded")


# ----------------------------------------------------------------------- random scenes
def random_shape(rng, kind):
    """An engine shape of ``kind`` in its body's frame, about a metre across."""
    off = tuple(rng.uniform(-0.5, 0.5, 2))
    if kind == "circle":
        return Circle(rng.uniform(0.2, 1.0), center=off)
    if kind == "box":
        return Polygon.box(rng.uniform(0.3, 2.0), rng.uniform(0.3, 2.0), center=off,
                           angle=rng.uniform(-1, 1))
    if kind in ("capsule", "segment"):
        a = rng.uniform(-1, 1, 2)
        b = a + rng.uniform(0.3, 1.5) * np.array([math.cos(t := rng.uniform(0, 6.3)), math.sin(t)])
        return Segment(tuple(a), tuple(b), radius=rng.uniform(0.1, 0.5) if kind == "capsule" else 0.0)
    while True:
        pts = rng.uniform(-1, 1, (rng.integers(3, 12), 2))
        try:
            poly = ShapelyPolygon(pts).convex_hull
            if poly.area > 0.1:
                hull = np.array(poly.exterior.coords[:-1])
                return Polygon(hull, radius=rng.uniform(0.05, 0.4) if kind == "rounded" else 0.0)
        except ValueError:
            pass


def pymunk_shape(body, shape):
    if isinstance(shape, Circle):
        return pymunk.Circle(body, shape.radius, shape.center)
    if isinstance(shape, Segment):
        return pymunk.Segment(body, shape.a, shape.b, shape.radius)
    return pymunk.Poly(body, [tuple(v) for v in shape.vertices.tolist()], radius=shape.radius)


def build(seed, count=12, kinds=KINDS, spread=6.0):
    """The same random shapes in a World and a pymunk Space: ``(world, handles, space, pm)``
    with ``pm[i]`` the pymunk twin of ``handles[i]`` (shape id ``i``). Bodies of all three
    types, so both broadphase trees are searched."""
    rng = np.random.default_rng(seed)
    world = World()
    space = pymunk.Space()
    handles, pm = [], []
    for i in range(count):
        pos = tuple(rng.uniform(-spread, spread, 2))
        angle = float(rng.uniform(-math.pi, math.pi))
        body = world.create_body(("static", "dynamic", "kinematic")[i % 3], position=pos, angle=angle)
        shape = random_shape(rng, kinds[i % len(kinds)])
        handles.append(body.add_shape(shape))
        twin = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        twin.angle = angle
        twin.position = pos
        pm.append(pymunk_shape(twin, shape))
        space.add(twin, pm[-1])
    assert [h.id for h in handles] == list(range(count))
    return world, handles, space, pm


def rays(seed, count, spread=9.0):
    rng = np.random.default_rng(seed + 1000)
    starts = rng.uniform(-spread, spread, (count, 2))
    ends = starts + rng.uniform(-12, 12, (count, 2))
    return starts, ends


def close(a, b, tol=TOL):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=0.0, atol=tol)


def pymunk_rays(pm, start, end):
    """``(inside, hits)``: ids of the shapes holding ``start`` (pymunk distance <= 0), and
    pymunk's per-shape hits of the others, ``{id: SegmentQueryInfo}``."""
    inside, hits = [], {}
    for i, s in enumerate(pm):
        if s.point_query(tuple(start)).distance <= 0.0:
            inside.append(i)
            continue
        info = s.segment_query(tuple(start), tuple(end), 0.0)
        if info is not None:
            hits[i] = info
    return inside, hits


# --------------------------------------------------------------------- Box2D's unit cases
def test_box2d_ray_cast_shape_cases():
    world = World()
    ball = world.create_body("static", position=(1, 0)).add_shape(Circle(1.0))
    hit = world.ray_cast((-4, 0), (4, 0))
    assert hit == RayHit(ball, ball.body, (0.0, 0.0), (-1.0, 0.0), 0.5)
    world = World()
    box = world.create_body("static").add_shape(Polygon.box(2, 2))
    hit = world.ray_cast((-4, 0), (4, 0))
    assert (hit.shape, hit.fraction, hit.normal, hit.point) == (box, 3 / 8, (-1.0, 0.0), (-1.0, 0.0))
    assert world.ray_cast((-3, 0), (3, 0)).fraction == pytest.approx(1 / 3, abs=1e-12)  # AABBRayCastTest
    world = World()
    world.create_body("static").add_shape(Segment((0, 1), (0, -1)))
    hit = world.ray_cast((-4, 0), (4, 0))
    assert (hit.fraction, hit.normal) == (0.5, (-1.0, 0.0))


def test_circle_and_capsule_side_and_cap():
    world = World()
    world.create_body("static", position=(1, 0)).add_shape(Circle(1.0))
    assert world.ray_cast((-3, 0), (5, 0)).fraction == pytest.approx(0.375, abs=1e-15)
    world = World()
    world.create_body("static").add_shape(Segment((-1, 0), (1, 0), radius=0.5))
    assert world.ray_cast((0, 2), (0, -4)).fraction == pytest.approx(0.25)  # side
    assert world.ray_cast((-3, 0), (3, 0)).fraction == pytest.approx(0.25)  # cap
    assert world.ray_cast((-3, 0), (3, 0)).normal == (-1.0, 0.0)


# ------------------------------------------------------------------------ rays vs pymunk
@pytest.mark.parametrize("seed", range(12))
def test_ray_cast_is_the_minimum_of_pymunk_shape_queries(seed):
    world, handles, _, pm = build(seed)
    starts, ends = rays(seed, 150)
    compared = 0
    for start, end in zip(starts.tolist(), ends.tolist()):
        hit = world.ray_cast(start, end)
        inside, hits = pymunk_rays(pm, start, end)  # shapes holding the start are skipped
        if not hits:
            assert hit is None
            continue
        best = min(hits, key=lambda i: hits[i].alpha)
        info = hits[best]
        assert hit.shape is handles[best] and hit.body is handles[best].body
        assert abs(hit.fraction - info.alpha) <= TOL
        assert close(hit.point, info.point) and close(hit.normal, info.normal)
        compared += 1
    assert compared > 20


@pytest.mark.parametrize("seed", range(12))
def test_ray_cast_equals_pymunk_segment_query_first(seed):
    # The oracle itself, on rays that start in no shape (from inside one, pymunk
    # reports that shape at alpha 0; this engine, like Box2D, skips shapes holding the
    # start). Where pymunk's space query disagrees with its own per-shape queries, the
    # space query is the one that is wrong: Chipmunk's segment query of its spatial index
    # can miss a shape whose box the segment only grazes (Chipmunk2D #138). Each such
    # ray must then agree with the per-shape minimum (the test above) and is counted
    # (none among the 1,721 rays of these seeds).
    world, handles, space, pm = build(seed)
    starts, ends = rays(seed, 150)
    agreed = peer_missed = 0
    for start, end in zip(starts.tolist(), ends.tolist()):
        inside, hits = pymunk_rays(pm, start, end)
        if inside:
            continue
        hit = world.ray_cast(start, end)
        info = space.segment_query_first(tuple(start), tuple(end), 0.0, pymunk.ShapeFilter())
        if info is None:
            same = hit is None
        else:
            same = (hit is not None and hit.shape is handles[pm.index(info.shape)]
                    and abs(hit.fraction - info.alpha) <= TOL and close(hit.point, info.point)
                    and close(hit.normal, info.normal))
        if same:
            agreed += 1
            continue
        best = min(hits, key=lambda i: hits[i].alpha)  # pymunk's own per-shape answer
        assert hit.shape is handles[best] and abs(hit.fraction - hits[best].alpha) <= TOL
        assert info is None or info.alpha > hits[best].alpha
        peer_missed += 1
    assert agreed > 50 and peer_missed <= agreed // 20


@pytest.mark.parametrize("seed", range(6))
def test_ray_cast_all_is_the_set_of_pymunk_hits(seed):
    world, handles, _, pm = build(seed, count=16)
    starts, ends = rays(seed, 100)
    for start, end in zip(starts.tolist(), ends.tolist()):
        hits = world.ray_cast_all(start, end)
        inside, theirs = pymunk_rays(pm, start, end)
        assert {h.shape.id for h in hits} == set(inside) | set(theirs)
        keys = [(h.fraction, h.shape.id) for h in hits]
        assert keys == sorted(keys)
        for h in hits:
            if h.shape.id in inside:
                assert (h.fraction, h.point, h.normal) == (0.0, tuple(start), (0.0, 0.0))
            else:
                info = theirs[h.shape.id]
                assert abs(h.fraction - info.alpha) <= TOL
                assert close(h.point, info.point) and close(h.normal, info.normal)
        first = world.ray_cast(start, end)  # the first of the shapes not holding the start
        outside = [h for h in hits if h.fraction > 0.0]
        assert first == (outside[0] if outside else None)


@pytest.mark.parametrize("seed", range(4))
def test_ray_cast_many_equals_ray_cast_per_ray(seed):
    world, _, _, _ = build(seed, count=20)
    starts, ends = rays(seed, 300)
    many = world.ray_cast_many(starts, ends)
    assert isinstance(many, RayHits) and many.shape_id.dtype == np.int64
    for i, (start, end) in enumerate(zip(starts.tolist(), ends.tolist())):
        hit = world.ray_cast(start, end)
        if hit is None:
            assert many.shape_id[i] == -1 and many.fraction[i] == 1.0
            assert many.point[i].tolist() == end and many.normal[i].tolist() == [0.0, 0.0]
        else:
            assert many.shape_id[i] == hit.shape.id and many.fraction[i] == hit.fraction
            assert tuple(many.point[i]) == hit.point and tuple(many.normal[i]) == hit.normal
    empty = world.ray_cast_many(np.empty((0, 2)), np.empty((0, 2)))
    assert empty.fraction.shape == (0,) and empty.point.shape == (0, 2)


def test_ray_cast_many_equals_ray_cast_with_a_grid_over_the_moving_bodies_only():
    """300 rays or more are searched through a grid (``world/ray_grid.py``); with a ground
    far wider than the moving bodies it covers their box only, and the rays that leave it
    are searched in the trees as well."""
    world, _, _, _ = build(7, count=30)
    world.create_body("static", position=(0.0, -8.0)).add_shape(Polygon.box(2000.0, 1.0))
    starts, ends = rays(7, 400, spread=12.0)
    many = world.ray_cast_many(starts, ends)
    for i, (start, end) in enumerate(zip(starts.tolist(), ends.tolist())):
        hit = world.ray_cast(start, end)
        assert many.shape_id[i] == (-1 if hit is None else hit.shape.id)
        assert many.fraction[i] == (1.0 if hit is None else hit.fraction)
        assert tuple(many.point[i]) == (tuple(end) if hit is None else hit.point)


def _many_equals_single(world, starts, ends, **kw):
    many = world.ray_cast_many(starts, ends, **kw)
    for i, (start, end) in enumerate(zip(starts.tolist(), ends.tolist())):
        hit = world.ray_cast(start, end, **kw)
        assert many.shape_id[i] == (-1 if hit is None else hit.shape.id), i
        assert many.fraction[i] == (1.0 if hit is None else hit.fraction), i
        assert tuple(many.point[i]) == (tuple(end) if hit is None else hit.point), i
        assert tuple(many.normal[i]) == ((0.0, 0.0) if hit is None else hit.normal), i


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), clumps=st.integers(1, 4), axis=st.booleans())
def test_ray_cast_many_equals_ray_cast_across_empty_space(seed, clumps, axis):
    """The grid's walk jumps across squares of empty cells (``ray_grid.py``, ``skip``):
    small shapes in a few far-apart clumps leave most cells empty, and rays cross them in
    every direction, along the axes too, from inside and outside the grid. Each answer
    must be what the tree search of ``ray_cast`` gives, bit for bit."""
    rng = np.random.default_rng(seed)
    world = World()
    for c in range(clumps):
        cx, cy = rng.uniform(-40, 40, 2)
        for _ in range(int(rng.integers(10, 60))):
            body = world.create_body(("dynamic", "static", "kinematic")[int(rng.integers(3))],
                                     position=(cx + rng.normal(0, 1.5), cy + rng.normal(0, 1.5)),
                                     angle=float(rng.uniform(-3, 3)))
            body.add_shape(random_shape(rng, KINDS[int(rng.integers(len(KINDS)))]))
    k = 400
    starts = rng.uniform(-60, 60, (k, 2))
    ends = starts + rng.uniform(-90, 90, (k, 2))
    if axis:  # along x or y: the walk's dx = 0 or dy = 0 paths
        flat = rng.random(k) < 0.5
        ends[flat, 1] = starts[flat, 1]
        ends[~flat, 0] = starts[~flat, 0]
    _many_equals_single(world, starts, ends)


def test_ray_cast_many_forgets_its_grid_when_the_world_changes():
    """The grid is kept with the query snapshot for the next call with the same filter:
    after a step, a pose set by hand, a shape added or removed and a filter changed, the
    answers must be the new world's."""
    world, handles, _, _ = build(11, count=30)
    starts, ends = rays(11, 300)
    _many_equals_single(world, starts, ends)
    world.step(1.0 / 60.0)
    _many_equals_single(world, starts, ends)
    handles[1].body.position = (0.5, 0.5)  # a dynamic body, by hand
    _many_equals_single(world, starts, ends)
    big = world.create_body("static").add_shape(Circle(3.0))
    _many_equals_single(world, starts, ends)
    assert (world.ray_cast_many(starts, ends).shape_id == big.id).any()
    big.filter = Filter(category=4)
    _many_equals_single(world, starts, ends, filter=Filter(mask=~4 & (2**64 - 1)))
    _many_equals_single(world, starts, ends)
    big.body.remove_shape(big)
    _many_equals_single(world, starts, ends)
    _many_equals_single(world, starts, ends, filter=Filter(mask=~4 & (2**64 - 1)))


KIND = st.sampled_from(KINDS)


@settings(max_examples=150, deadline=None)
@given(kind=KIND, seed=st.integers(0, 2**32 - 1), x=st.floats(-50, 50), y=st.floats(-50, 50),
       angle=st.floats(-4, 4), ray=st.lists(st.floats(-3, 3), min_size=4, max_size=4))
@example(kind="capsule", seed=15043, x=0.0, y=0.0, angle=-1.0, ray=[0.0, -0.25, 1.0, 0.0])
def test_one_shape_ray_against_pymunk(kind, seed, x, y, angle, ray):
    shape = random_shape(np.random.default_rng(seed), kind)
    world = World()
    handle = world.create_body("static", position=(x, y), angle=angle).add_shape(shape)
    body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    body.angle, body.position = angle, (x, y)
    twin = pymunk_shape(body, shape)
    pymunk.Space().add(body, twin)
    start, end = (x + ray[0], y + ray[1]), (x + 3 * ray[2], y + 3 * ray[3])
    hit = world.ray_cast(start, end)
    if twin.point_query(start).distance <= 0.0:
        assert hit is None  # a convex shape holding the start is skipped, and not re-entered
        (first,) = world.ray_cast_all(start, end)
        assert (first.shape, first.fraction, first.point, first.normal) == (handle, 0.0, start, (0.0, 0.0))
        return
    info = twin.segment_query(start, end, 0.0)
    if info is None:
        assert hit is None
        return
    assert hit is not None
    if kind == "capsule" and _distance_along(twin, start, end, info.alpha - 1e-7) < 0.0:
        # pymunk is wrong here: its hit is where the ray leaves the capsule, through a
        # flat side, after entering through an end cap (seen for a ray starting 6 mm
        # from a cap, 2026-11-28). The truth is the first entry, checked exactly.
        assert _first_entry(twin, start, end, hit)
        return
    assert abs(hit.fraction - info.alpha) <= TOL
    assert close(hit.point, info.point) and close(hit.normal, info.normal)


def _distance_along(twin, start, end, t):
    """Signed distance from the pymunk shape ``twin`` (negative inside) of the ray's
    point at fraction ``t`` (pymunk's point query: exact)."""
    point = (start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
    return twin.point_query(point).distance


def _first_entry(twin, start, end, hit):
    """Whether ``hit`` is where the ray first enters the convex shape ``twin``, with its
    outward normal. The distance to a convex shape along a line is convex in the
    fraction, so a zero at which it decreases has only positive values before it."""
    t, length = hit.fraction, math.dist(start, end)
    on_boundary = abs(_distance_along(twin, start, end, t)) <= 1e-9
    entering = _distance_along(twin, start, end, t - 1e-6 / length) > 1e-7
    inside = (hit.point[0] - 1e-6 * hit.normal[0], hit.point[1] - 1e-6 * hit.normal[1])
    gradient = twin.point_query((hit.point[0] + 1e-6 * hit.normal[0], hit.point[1] + 1e-6 * hit.normal[1])).gradient
    return (on_boundary and entering and np.allclose(hit.normal, tuple(gradient), atol=1e-6)
            and twin.point_query(inside).distance < 0.0)


def test_a_ray_along_a_sharp_segment_misses_it():
    """A ray on a radius-0 segment's line only grazes it, as in pymunk and Box2D. A random
    stateful run found it hit at the segment's end with normal (0, 0), the mark of a
    start inside (the end's zero-radius disc was hit through its centre)."""
    world = World()
    world.create_body().add_shape(Segment((0.0, 0.0), (0.5, 0.0)))
    for start, end in [((1.0, 0.0), (0.0, 0.0)), ((-1.0, 0.0), (2.0, 0.0)), ((3.0, 0.0), (-3.0, 0.0))]:
        assert world.ray_cast(start, end) is None
        assert world.ray_cast_all(start, end) == []
        assert world.ray_cast_many([start], [end]).shape_id.tolist() == [-1]
    assert world.ray_cast((0.25, 1.0), (0.25, -1.0)).normal == (0.0, 1.0)  # across: hit


def test_inside_starts_and_degenerate_rays():
    world = World()
    shapes = [Circle(1.0), Polygon.box(2, 2), Segment((-1, 0), (1, 0), radius=0.5),
              Polygon.box(1, 1, radius=0.3)]
    ids = [world.create_body("static", position=(3 * i, 0)).add_shape(s).id for i, s in enumerate(shapes)]
    for i in ids:
        start, end = (3.0 * i + 0.1, 0.05), (3.0 * i + 0.2, 5.0)
        (hit,) = world.ray_cast_all(start, end)
        assert (hit.shape.id, hit.fraction, hit.point, hit.normal) == (i, 0.0, start, (0.0, 0.0))
        assert world.ray_cast(start, end) is None  # the closest hit skips the shape holding the start
        assert [h.shape.id for h in world.ray_cast_all(start, start)] == [i]  # a zero-length ray: the point
        assert world.ray_cast(start, start) is None
    # the closest hit is the next shape out: from inside the box towards the capsule
    assert world.ray_cast((3.0, 0.0), (9.0, 0.0)).shape.id == 2
    assert world.ray_cast_many([(3.0, 0.0)], [(9.0, 0.0)]).shape_id.tolist() == [2]
    assert world.ray_cast_all((1.5, 3.0), (1.5, 3.0)) == []
    # a start on the surface is inside (pymunk: distance <= 0)
    assert world.ray_cast_all((-1.0, 0.0), (-5.0, 0.0))[0].fraction == 0.0
    assert world.ray_cast((-1.0, 0.0), (-5.0, 0.0)) is None
    # two shapes holding the start: by id in ray_cast_all
    world.create_body("static").add_shape(Circle(2.0))
    assert [h.shape.id for h in world.ray_cast_all((0.5, 0.0), (0.5, 5.0))] == [0, 4]
    assert world.ray_cast((0.5, 0.0), (0.5, 5.0)) is None


# ------------------------------------------------------------------ points vs pymunk
@pytest.mark.parametrize("seed", range(8))
def test_query_point_matches_pymunk_point_query(seed):
    world, handles, space, pm = build(seed, count=16)
    rng = np.random.default_rng(seed + 7)
    index = {s: i for i, s in enumerate(pm)}
    seen_inside = seen_near = 0
    for p in rng.uniform(-8, 8, (150, 2)).tolist():
        max_distance = float(rng.choice([0.0, rng.uniform(0, 1.5), rng.uniform(0, 6)]))
        ours = world.query_point(p, max_distance)
        theirs = space.point_query(tuple(p), max_distance, pymunk.ShapeFilter())
        if max_distance == 0.0:  # pymunk keeps distance < 0 only; ours <= 0 (no ties here)
            theirs = [t for t in theirs if t.distance < 0.0]
        assert [h.shape.id for h in ours] == sorted((index[t.shape] for t in theirs),
                                                    key=lambda i: (pm[i].point_query(tuple(p)).distance, i))
        by_id = {index[t.shape]: t for t in theirs}
        for h in ours:
            t = by_id[h.shape.id]
            assert isinstance(h, PointHit) and h.body is handles[h.shape.id].body
            assert abs(h.distance - t.distance) <= TOL and close(h.point, t.point)
            seen_inside += h.distance < 0.0
            seen_near += h.distance > 0.0
    assert seen_inside > 5 and seen_near > 5


@pytest.mark.parametrize("seed", range(4))
def test_query_point_nearest_matches_pymunk(seed):
    world, _, space, pm = build(seed, count=10)
    rng = np.random.default_rng(seed + 11)
    index = {s: i for i, s in enumerate(pm)}
    for p in rng.uniform(-12, 12, (100, 2)).tolist():
        hit = world.query_point_nearest(p)
        info = space.point_query_nearest(tuple(p), math.inf, pymunk.ShapeFilter())
        assert hit.shape.id == index[info.shape]
        assert abs(hit.distance - info.distance) <= TOL and close(hit.point, info.point)
        assert world.query_point(p, math.inf)[0] == hit
        if hit.distance > 0.0:
            assert world.query_point_nearest(p, max_distance=0.999 * hit.distance) is None


# ---------------------------------------------------------------------------- boxes
def exact_box(handle):
    """Brute force: the shape's core vertices at the body pose, grown by its radius."""
    shape, body = handle.shape, handle.body
    c, s = math.cos(body.angle), math.sin(body.angle)
    v = shape._verts @ np.array([[c, s], [-s, c]]) + body.position
    r = shape.radius
    return (*(v.min(axis=0) - r), *(v.max(axis=0) + r))


@pytest.mark.parametrize("seed", range(6))
def test_query_aabb_is_exact(seed):
    world, handles, space, pm = build(seed, count=20)
    rng = np.random.default_rng(seed + 3)
    boxes = [exact_box(h) for h in handles]
    for _ in range(150):
        lo = rng.uniform(-9, 9, 2)
        hi = lo + rng.uniform(0, 4, 2)
        ours = world.query_aabb(tuple(lo), tuple(hi))
        expected = [h for h, b in zip(handles, boxes)
                    if b[0] <= hi[0] and lo[0] <= b[2] and b[1] <= hi[1] and lo[1] <= b[3]]
        assert ours == expected
        theirs = space.bb_query(pymunk.BB(lo[0], lo[1], hi[0], hi[1]), pymunk.ShapeFilter())
        assert sorted(pm.index(s) for s in theirs) == [h.id for h in ours]
    # a box 1 mm outside any shape's exact box reports nothing (Box2D's fat boxes would)
    b = boxes[0]
    assert handles[0] not in world.query_aabb((b[2] + 1e-3, b[1]), (b[2] + 1.0, b[3]))


def test_query_aabb_uses_the_concave_shape_box_not_its_pieces():
    world = World()
    ell = world.create_body("static").add_shape(Polygon([(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]))
    assert len(ell.shape.pieces) == 2
    assert world.query_aabb((2, 2), (2.5, 2.5)) == [ell]  # inside the L's box, off its pieces
    assert world.query_aabb((3.01, 2), (4, 2.5)) == []


# --------------------------------------------------------------------------- shapes
def pymunk_gap(a, b):
    """pymunk's smallest signed distance between two shapes (inf: no contact).

    As in ``test_collide_oracle.py``: ``shapes_collide`` raises "likely a bug in Pymunk"
    when there is no contact, and its ``distance`` field changes sign for swapped kinds,
    so the distance is measured from the two points along the normal."""
    try:
        cps = a.shapes_collide(b)
    except AssertionError:
        return math.inf
    n = cps.normal
    return min(((p.point_b - p.point_a).dot(n) for p in cps.points), default=math.inf)


@pytest.mark.parametrize("seed", range(6))
def test_query_shape_agrees_with_pymunk_and_collide(seed):
    world, handles, space, pm = build(seed, count=16, kinds=("circle", "box", "convex", "capsule", "rounded"))
    rng = np.random.default_rng(seed + 5)
    agreed = 0
    for k in range(60):
        probe = random_shape(rng, KINDS[k % len(KINDS)])
        pose = (float(rng.uniform(-7, 7)), float(rng.uniform(-7, 7)), float(rng.uniform(-3, 3)))
        ours = world.query_shape(probe, pose)
        keys = [h.id for h, _ in ours]
        assert keys == sorted(keys)
        for h, manifold in ours:  # exactly engine.collide's manifold
            other = collide(probe, pose, h.shape, (*h.body.position, h.body.angle))
            assert (manifold.normal, manifold.depth, manifold.points, manifold.ids) == (
                other.normal, other.depth, other.points, other.ids)
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        body.angle, body.position = pose[2], pose[:2]
        twin = pymunk_shape(body, probe)
        twin.cache_bb()  # pymunk updates a shape's world transform here, outside a space
        theirs = {pm.index(info.shape) for info in space.shape_query(twin)}
        for i, h in enumerate(handles):  # every verdict, except at a touch
            depth = next((m.depth for g, m in ours if g is h), 0.0)
            gap = pymunk_gap(twin, pm[i])
            if abs(gap) > 1e-6 and depth == 0.0 or depth > 1e-6:
                assert (i in theirs) == (depth > 0.0), (i, depth, gap)
                agreed += 1
    assert agreed > 500


# ---------------------------------------------------------------- concave outlines
def _polygon_or_skip(outline):
    try:
        return Polygon(outline)
    except ValueError:  # an outline the engine rejects (touching itself after cleaning)
        assume(False)


def _placed(outline, x, y, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(outline) @ np.array([[c, s], [-s, c]]) + (x, y)


def _outline_normals_at(ring, point, tol):
    """Outward unit normals of the CCW ``ring``'s edges passing within ``tol`` of ``point``."""
    a = ring
    b = np.roll(ring, -1, axis=0)
    e = b - a
    t = np.clip(((point - a) * e).sum(1) / (e * e).sum(1), 0.0, 1.0)
    d = np.hypot(*(a + t[:, None] * e - point).T)
    n = np.c_[e[:, 1], -e[:, 0]] / np.hypot(*e.T)[:, None]
    return n[d <= tol]


@settings(max_examples=120, deadline=None)
@given(outline=simple_polygons(max_vertices=40), seed=st.integers(0, 2**32 - 1))
def test_concave_rays_enter_the_outline_never_a_cut(outline, seed):
    rng = np.random.default_rng(seed)
    shape = _polygon_or_skip(outline)
    x, y, angle = rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-3, 3)
    world = World()
    world.create_body("static", position=(x, y), angle=angle).add_shape(shape)
    ring = _placed(shape.vertices, x, y, angle)
    poly = ShapelyPolygon(ring)
    lo, hi = ring.min(axis=0), ring.max(axis=0)
    size = float(np.abs(ring).max() + 1.0)
    tol = 1e-9 * size
    for _ in range(15):
        start = lo + (hi - lo) * rng.uniform(-0.3, 1.3, 2)
        end = lo + (hi - lo) * rng.uniform(-0.3, 1.3, 2)
        hit = world.ray_cast(tuple(start), tuple(end))
        d = end - start
        length2 = float(d @ d)
        # where the ray is inside the polygon: its first entry, or from a start inside,
        # the entry after it leaves (ray_cast skips a shape holding the start)
        parts = [g for g in shapely.get_parts(LineString([start, end]).intersection(poly)) if not g.is_empty]
        enters = sorted(float(min(((shapely.get_coordinates(g) - start) @ d) / length2)) for g in parts)
        if poly.covers(Point(start)):
            if poly.exterior.distance(Point(start)) <= tol:
                continue  # on the outline: inside or not is rounding's choice
            first = world.ray_cast_all(tuple(start), tuple(end))[0]
            assert first.fraction == 0.0 and first.normal == (0.0, 0.0)
            enters = enters[1:]
        if not enters:
            assert hit is None
            continue
        t = enters[0]
        assert hit is not None and abs(hit.fraction - t) * math.sqrt(length2) <= tol
        normals = _outline_normals_at(ring, np.array(hit.point), tol)
        assert len(normals) and np.abs(normals - hit.normal).max(axis=1).min() <= 1e-6, "a cut's normal"


def test_a_cut_on_the_line_of_outline_edges_is_not_entered():
    # found by hypothesis: the bar's bottom is outline, cut (where the stem joins), outline,
    # all on one line, so the face Cyrus-Beck names may be the wrong one of the three
    tee = [(0.01, 0), (0.02, 0), (0.02, 0.01), (-0.01, 0.01), (-0.01, 0), (0, 0), (0, -0.01), (0.01, -0.01)]
    world = World()
    world.create_body("static").add_shape(Polygon(tee))
    start, end = (0.00192268, -0.00263253), (0.00617213, 0.02933776)  # up the stem, out the top
    assert world.ray_cast(start, end) is None
    assert [h.fraction for h in world.ray_cast_all(start, end)] == [0.0]
    hit = world.ray_cast((0.015, -0.01), (0.015, 0.02))  # under the bar, right of the stem
    assert hit.normal == (0.0, -1.0) and abs(hit.fraction - 1 / 3) < 1e-12


COMB = [(0, 0), (5, 0), (5, 3), (4, 3), (4, 1), (3, 1), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
ELL = [(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]


@pytest.mark.parametrize("method", ["split", "earclip"])
@pytest.mark.parametrize("outline", [COMB, ELL], ids=["comb", "ell"])
def test_rays_through_the_vertices_where_cuts_start(outline, method):
    # exact ties: the entry vertex is the end of a cut and of outline edges in one piece
    shape = Polygon(outline, method=method)
    assert len(shape.pieces) > 1
    world = World()
    world.create_body("static").add_shape(shape)
    poly = ShapelyPolygon(outline)
    ring = np.array(shape.vertices)
    tested = 0
    for v in ring:
        for angle in np.linspace(0, 2 * np.pi, 16, endpoint=False):
            d = np.array([math.cos(angle), math.sin(angle)])
            start, end = v - 2 * d, v + 2 * d
            enters_at_v = LineString([start, v]).intersection(poly).equals(Point(v))
            if not (enters_at_v and poly.covers(Point(v + 1e-6 * d))):
                continue
            edges = np.diff(ring[[(k - 1) % len(ring) for k in range(len(ring) + 1)]], axis=0)
            if np.abs(edges[:, 0] * d[1] - edges[:, 1] * d[0]).min() < 1e-9:
                continue  # along an edge: where it first enters is rounding's choice
            hit = world.ray_cast(tuple(start), tuple(end))
            assert hit is not None and abs(hit.fraction - 0.5) <= 1e-12
            normals = _outline_normals_at(ring, v, 1e-12)
            assert np.abs(normals - hit.normal).max(axis=1).min() <= 1e-12
            tested += 1
    assert tested > 10


@settings(max_examples=120, deadline=None)
@given(outline=simple_polygons(max_vertices=40), seed=st.integers(0, 2**32 - 1))
def test_concave_point_distance_is_to_the_outline(outline, seed):
    rng = np.random.default_rng(seed)
    shape = _polygon_or_skip(outline)
    x, y, angle = rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-3, 3)
    world = World()
    world.create_body("static", position=(x, y), angle=angle).add_shape(shape)
    ring = _placed(shape.vertices, x, y, angle)
    poly = ShapelyPolygon(ring)
    lo, hi = ring.min(axis=0), ring.max(axis=0)
    tol = 1e-9 * float(np.abs(ring).max() + 1.0)
    for p in (lo + (hi - lo) * rng.uniform(-0.2, 1.2, (20, 2))).tolist():
        hit = world.query_point_nearest(p)
        d = poly.exterior.distance(Point(p))
        expected = -d if poly.covers(Point(p)) else d
        assert abs(hit.distance - expected) <= tol
        assert poly.exterior.distance(Point(hit.point)) <= tol
        assert abs(math.dist(p, hit.point) - d) <= tol
        assert bool(world.query_point(p)) == (expected <= 0.0) or abs(expected) <= tol


def test_concave_query_shape_equals_collide():
    world = World()
    gear = Polygon([(0, 0), (4, 0), (4, 1), (2.5, 1), (2.5, 3), (1.5, 3), (1.5, 1), (0, 1)])
    h = world.create_body("static", position=(1, 2), angle=0.3).add_shape(gear)
    rng = np.random.default_rng(1)
    found = 0
    for _ in range(200):
        probe, pose = Circle(0.4), (float(rng.uniform(0, 6)), float(rng.uniform(1, 6)), 0.0)
        other = collide(probe, pose, gear, (1.0, 2.0, 0.3))
        ours = world.query_shape(probe, pose)
        if other is None:
            assert ours == []
        else:
            found += 1
            (g, m), = ours
            assert g is h and (m.normal, m.depth, m.points) == (other.normal, other.depth, other.points)
    assert found > 20


# -------------------------------------------------------------- filters and sensors
def _random_filters(world, handles, rng):
    for h in handles:
        h.filter = Filter(category=int(1 << rng.integers(0, 4)), mask=int(rng.integers(0, 16)),
                          group=int(rng.choice([-2, -1, 0, 0, 1, 2])))


@pytest.mark.parametrize("seed", range(4))
def test_filters_admit_by_box2d_pair_rule(seed):
    world, handles, _, _ = build(seed, count=20)
    rng = np.random.default_rng(seed + 9)
    starts, ends = rays(seed, 40)
    _random_filters(world, handles, rng)
    for k in range(40):
        f = Filter(category=int(1 << rng.integers(0, 4)), mask=int(rng.integers(0, 16)),
                   group=int(rng.choice([-2, -1, 0, 1, 2])))
        admitted = {h.id for h in handles if f.collides_with(h.filter)}
        start, end = starts[k].tolist(), ends[k].tolist()
        every = world.ray_cast_all(start, end)
        chosen = world.ray_cast_all(start, end, filter=f)
        assert chosen == [h for h in every if h.shape.id in admitted]
        first = world.ray_cast(start, end, filter=f)  # skips the shapes holding the start
        outside = [h for h in chosen if h.fraction > 0.0]
        assert first == (outside[0] if outside else None)
        many = world.ray_cast_many([start], [end], filter=f)
        assert many.shape_id[0] == (first.shape.id if first else -1)
        assert world.query_point(start, 3.0, filter=f) == [
            h for h in world.query_point(start, 3.0) if h.shape.id in admitted]
        assert world.query_aabb((-4, -4), (4, 4), filter=f) == [
            h for h in world.query_aabb((-4, -4), (4, 4)) if h.id in admitted]
        probe = Circle(2.0)
        assert [h for h, _ in world.query_shape(probe, start, filter=f)] == [
            h for h, _ in world.query_shape(probe, start) if h.id in admitted]
        cast = world.cast_shape(Circle(0.3), start, (end[0] - start[0], end[1] - start[1]), filter=f)
        assert cast is None or cast.shape.id in admitted
    # the filter's mask lists are cached per filter; a changed shape filter is seen
    h = world.ray_cast((-20, 0), (20, 0))
    if h is not None:
        h.shape.filter = Filter(category=2)
        assert world.ray_cast((-20, 0), (20, 0), filter=Filter(mask=1)) != h


def test_sensor_shapes_are_skipped_unless_asked():
    world = World(gravity=(0, 0), sleeping=False)
    solid = world.create_body("static").add_shape(Polygon.box(2, 2, center=(6, 0)))
    sensors = [world.create_body(kind, position=(3 * i, 0)).add_shape(Circle(1.0), sensor=True)
               for i, kind in enumerate(("static", "kinematic"))] + [
        world.create_body(position=(0, 3)).add_shape(Polygon.box(1, 1), sensor=True)]
    world.step(1 / 60)
    state = world._state
    assert accepted_pieces(state, None, False).tolist() == [1, 0, 0, 0]
    assert accepted_pieces(state, None, True).tolist() == [1, 1, 1, 1]
    assert world.ray_cast((-5, 0), (10, 0)).shape is solid
    assert world.ray_cast((-5, 0), (10, 0), sensors=True).shape is sensors[0]
    assert [h.shape for h in world.ray_cast_all((-5, 0), (10, 0), sensors=True)] == sensors[:2] + [solid]
    assert world.ray_cast_many([(-5, 0)], [(10, 0)], sensors=True).shape_id.tolist() == [sensors[0].id]
    assert world.query_point((0, 3)) == [] and world.query_point((0, 3), sensors=True)[0].shape is sensors[2]
    assert world.query_aabb((-10, -10), (10, 10)) == [solid]
    assert world.query_aabb((-10, -10), (10, 10), sensors=True) == [solid] + sensors
    assert [h for h, _ in world.query_shape(Circle(0.5), (3.5, 0))] == []
    assert [h for h, _ in world.query_shape(Circle(0.5), (3.5, 0), sensors=True)] == [sensors[1]]
    assert world.cast_shape(Circle(0.1), (-5, 0), (15, 0)).shape is solid
    assert world.cast_shape(Circle(0.1), (-5, 0), (15, 0), sensors=True).shape is sensors[0]


def test_free_piece_rows_are_never_accepted():
    world, handles, _, _ = build(4, count=6)
    handles[2].body.remove_shape(handles[2])
    mask = accepted_pieces(world._state, None, True)
    assert mask[world._state.pieces.body[:world._state.pieces.used] < 0].tolist() == [0]
    assert handles[2] not in world.query_aabb((-20, -20), (20, 20))


# ------------------------------------------------------------ freshness and caching
def test_pieces_outside_their_tree_boxes_are_still_found():
    world = World()
    ball = world.create_body(position=(0, 0)).add_shape(Circle(0.5))
    assert world.ray_cast((5, -5), (5, 5)) is None
    # a step that pushed a body out of its fat box (the tree is refreshed next step)
    state = world._state
    state.bodies.pos[ball.body._row()] = (5.0, 0.0)
    state.touch()
    assert world.ray_cast((5, -5), (5, 5)).shape is ball
    assert world.query_point((5, 0))[0].shape is ball
    assert world.query_aabb((4.9, -0.1), (5.1, 0.1)) == [ball]
    assert world.query_shape(Circle(0.1), (5.2, 0))[0][0] is ball
    assert world.ray_cast_many([(5, -5)], [(5, 5)]).shape_id.tolist() == [ball.id]
    assert world.cast_shape(Circle(0.1), (5, -5), (0, 10)).shape is ball


def test_queries_follow_changes_to_the_world():
    world = World(gravity=(0, 0), sleeping=False)
    a = world.create_body(position=(0, 0)).add_shape(Circle(0.5))
    assert world.ray_cast((-5, 0), (5, 0)).shape is a
    a.body.position = (0, 3)
    assert world.ray_cast((-5, 0), (5, 0)) is None
    bodies = [world.create_body(position=(2 * i, 0)) for i in range(40)]  # the stores grow
    shapes = [b.add_shape(Polygon.box(1, 1)) for b in bodies]
    assert world.ray_cast((-5, 0), (5, 0)).shape is shapes[0]
    bodies[0].remove_shape(shapes[0])
    world.destroy_body(bodies[1])
    assert world.ray_cast((-5, 0), (5, 0)).shape is shapes[2]
    for _ in range(30):
        world.step(1 / 60)
    hits = world.ray_cast_all((-5, 0), (200, 0))
    assert [h.shape for h in hits] == shapes[2:]
    assert close([h.point for h in hits], [(h.body.position[0] - 0.5, 0.0) for h in hits], 1e-12)


def _outside_their_leaves(world):
    """Pieces whose exact box is not inside their broadphase leaf's (fat) box."""
    state = world._state
    count = 0
    for h in (h for b in world.bodies for h in b.shapes):
        x0, y0, x1, y1 = exact_box(h)
        for p in h._pieces:
            leaf = state.tree_of(p).arrays.aabb[state.pieces.node[p]]
            count += x0 < leaf[0] or y0 < leaf[1] or x1 > leaf[2] or y1 > leaf[3]
    return count


def test_concave_drop_queries_match_brute_force_every_step():
    from engine import scenes

    world, _ = scenes.concave_drop().build()
    handles = sorted((h for b in world.bodies for h in b.shapes), key=lambda h: h.id)
    outside = 0
    for _ in range(150):
        world.step(1 / 60)
        assert world.query_aabb((-100, -100), (100, 100)) == handles
        outside += _outside_their_leaves(world)
        for h in handles[::5]:
            x0, y0, x1, y1 = exact_box(h)
            assert h in world.query_aabb((x0, y0), (x1, y1))
            cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
            assert h in [g for g, _ in world.query_shape(Polygon.box(x1 - x0, y1 - y0), (cx, cy))]
    assert outside > 0  # bodies did leave their broadphase boxes, and were found anyway


# -------------------------------------------------------------- bad input, no change
def _snapshot(world):
    s = world._state
    arrays = [s.bodies.pos, s.bodies.angle, s.bodies.vel, s.pieces.body, s.pieces.fat,
              s.shapes.category, s.tree.arrays.aabb, s.static_tree.arrays.aabb, s.pairs.rows]
    return [a.copy() for a in arrays]


def test_bad_input_raises_clearly_and_changes_nothing():
    world, handles, _, _ = build(2, count=8)
    world.step(1 / 60)
    before = _snapshot(world)
    nan, inf = float("nan"), float("inf")
    cases = [
        (ValueError, "start", lambda: world.ray_cast((nan, 0), (1, 0))),
        (ValueError, "end", lambda: world.ray_cast((0, 0), (1, inf))),
        (TypeError, "start", lambda: world.ray_cast("ab", (1, 0))),
        (TypeError, "filter", lambda: world.ray_cast((0, 0), (1, 0), filter=3)),
        (TypeError, "filter", lambda: world.ray_cast((0, 0), (1, 0), filter=[1])),
        (TypeError, "sensors", lambda: world.ray_cast((0, 0), (1, 0), sensors="yes")),
        (ValueError, "start", lambda: world.ray_cast_all((0, nan), (1, 0))),
        (ValueError, "starts", lambda: world.ray_cast_many([(0, nan)], [(1, 0)])),
        (ValueError, "same shape", lambda: world.ray_cast_many([(0, 0)], [(1, 0), (2, 0)])),
        (TypeError, "ends", lambda: world.ray_cast_many([(0, 0)], [(1, 0, 2)])),
        (ValueError, "max_distance", lambda: world.query_point((0, 0), -1.0)),
        (ValueError, "max_distance", lambda: world.query_point((0, 0), nan)),
        (TypeError, "max_distance", lambda: world.query_point((0, 0), "far")),
        (TypeError, "max_distance", lambda: world.query_point((0, 0), np.array([1.0]))),
        (ValueError, "point", lambda: world.query_point_nearest((inf, 0))),
        (ValueError, "lower", lambda: world.query_aabb((1, 0), (0, 1))),
        (ValueError, "upper", lambda: world.query_aabb((0, 0), (1, nan))),
        (TypeError, "shape", lambda: world.query_shape("circle", (0, 0))),
        (ValueError, "pose", lambda: world.query_shape(Circle(1), (0, 0, nan))),
        (TypeError, "filter", lambda: world.cast_shape(Circle(1), (0, 0), (1, 0), filter="x")),
    ]
    for error, name, call in cases:
        with pytest.raises(error, match=name):
            call()
    assert all(np.array_equal(a, b) for a, b in zip(before, _snapshot(world)))


def test_queries_change_nothing():
    world, handles, _, _ = build(5, count=12)
    world.step(1 / 60)
    before = _snapshot(world)
    world.ray_cast((-9, -9), (9, 9))
    world.ray_cast_all((-9, -9), (9, 9), filter=Filter(mask=3))
    world.ray_cast_many(*rays(5, 50))
    world.query_point((0, 0), 2.0)
    world.query_point_nearest((0, 0))
    world.query_aabb((-3, -3), (3, 3))
    world.query_shape(Polygon.box(3, 3), (0, 0, 0.3))
    world.cast_shape(Circle(0.5), (-9, 0), (18, 0))
    assert all(np.array_equal(a, b) for a, b in zip(before, _snapshot(world)))


def test_a_pickled_world_answers_the_same():
    import pickle

    world, _, _, _ = build(6, count=10)
    starts, ends = rays(6, 50)
    before = world.ray_cast_many(starts, ends)  # fills the query cache, which is not pickled
    copy = pickle.loads(pickle.dumps(world))
    after = copy.ray_cast_many(starts, ends)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    ids = [h.shape.id for h in world.query_point((0, 0), 5.0)]
    assert [h.shape.id for h in copy.query_point((0, 0), 5.0)] == ids
