"""Calls per second of ``engine.collide`` / ``engine.overlaps`` against pymunk's ``shapes_collide``.

Run ``python benchmarks/collide.py [--repeats N] [--calls N]``. Each case is an overlapping pair
(box-box, polygon-circle, 8-gon-8-gon) at fixed poses, called in a tight Python loop, so both
sides pay their per-call Python overhead (argument checking, result objects): this is the
standalone-collision API a user calls, not the world's batched narrowphase. The engine and
pymunk rounds are interleaved within each repeat (so a busy machine slows both alike), after a
warm-up that also compiles the Numba kernels; the table gives the median over the repeats and
the ratio ``ours time / pymunk time`` (below 1: ours is faster).
"""
import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pymunk  # noqa: E402

from engine import Circle, Polygon, overlaps
from engine import collide  # noqa: E402


def _regular(n, r):
    return [(r * math.cos(2 * math.pi * i / n + 0.1), r * math.sin(2 * math.pi * i / n + 0.1)) for i in range(n)]


def _pm_shape(shape, pose):
    body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    body.position = pose[:2]
    body.angle = pose[2]
    if isinstance(shape, Circle):
        s = pymunk.Circle(body, shape.radius, shape.center)
    else:
        s = pymunk.Poly(body, [tuple(v) for v in shape.vertices.tolist()], radius=shape.radius)
    s.cache_bb()  # pose the shape outside a space
    return body, s


CASES = [
    ("box-box", Polygon.box(2.0, 1.0), (0.0, 0.0, 0.1), Polygon.box(1.5, 1.5), (1.4, 0.6, 0.5)),
    ("polygon-circle", Polygon(_regular(5, 1.0)), (0.0, 0.0, 0.2), Circle(0.6), (1.1, 0.4, 0.0)),
    ("8-gon-8-gon", Polygon(_regular(8, 1.0)), (0.0, 0.0, 0.0), Polygon(_regular(8, 1.2)), (1.7, 0.5, 0.3)),
]


def _time(fn, calls):
    t0 = time.perf_counter()
    fn(calls)
    return (time.perf_counter() - t0) / calls


def _runners(sa, pa, sb, pb):
    body_a, pm_a = _pm_shape(sa, pa)
    body_b, pm_b = _pm_shape(sb, pb)

    def ours(n):
        for _ in range(n):
            collide(sa, pa, sb, pb)

    def ours_overlaps(n):
        for _ in range(n):
            overlaps(sa, pa, sb, pb)

    def theirs(n):
        for _ in range(n):
            pm_a.shapes_collide(pm_b)

    return ours, ours_overlaps, theirs, (body_a, body_b)  # keep the bodies alive


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="timed rounds per case (median reported)")
    ap.add_argument("--calls", type=int, default=20000, help="calls per round")
    args = ap.parse_args(argv)

    rows = []
    for name, sa, pa, sb, pb in CASES:
        m = collide(sa, pa, sb, pb)
        assert m is not None, f"benchmark pair {name} must overlap"
        ours, ours_ov, theirs, _bodies = _runners(sa, pa, sb, pb)  # _bodies: keep alive
        for fn in (ours, ours_ov, theirs):  # warm-up (JIT compilation, caches)
            fn(2000)
        t_ours, t_ov, t_pm = [], [], []
        for _ in range(args.repeats):  # interleaved
            t_ours.append(_time(ours, args.calls))
            t_ov.append(_time(ours_ov, args.calls))
            t_pm.append(_time(theirs, args.calls))
        rows.append((name, statistics.median(t_ours), statistics.median(t_ov), statistics.median(t_pm)))

    print(f"collision calls per second (median of {args.repeats} x {args.calls} calls; "
          f"ratio = ours time / pymunk time)")
    head = f"{'pair':<16}{'collide/s':>12}{'overlaps/s':>12}{'pymunk/s':>12}{'collide ratio':>15}{'overlaps ratio':>16}"
    print(head)
    print("-" * len(head))
    for name, a, b, c in rows:
        print(f"{name:<16}{1 / a:>12,.0f}{1 / b:>12,.0f}{1 / c:>12,.0f}{a / c:>15.2f}{b / c:>16.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
