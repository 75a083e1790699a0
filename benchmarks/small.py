"""Small worlds and building scenes, against pymunk and Box2D v3 (issue #17, items 2 and 3).

Run from the repository root::

    python -m benchmarks.small              # 9 rounds
    python -m benchmarks.small --rounds 15

Every measurement runs the engines in turns within one round (ours first in odd rounds,
last in even ones) and reports the median over the rounds and, for ours against each
peer, the ratio of the medians with the range of the per-round ratios:

- **step4**: one step of a 4-body world (a ground box and three stacked 1 m boxes,
  sleeping off), microseconds per step over 2000 steps;
- **create+destroy**: make a dynamic body with one 0.1 m circle (the shape made anew
  each time, as a game would) and destroy it, in a world of 100 resting bodies;
  microseconds per pair;
- **bullets**: a game that spawns a ball each step at 30 m/s and removes it 2 s later
  (about 120 alive), beside the 4-body stack: microseconds per step (spawn, step,
  removal), over 600 steps after 120 of warm-up;
- **build loop / bulk**: 5000 circles, by a loop of ``create_body`` + ``add_shape``
  and by one ``World.create_bodies`` (ours only: the bulk path's speed-up);
- **many_pyramids**: building Box2D's 22,000-box scene in each engine, seconds.

Box2D v3 (``pyb2d3``) runs when it is installed.
"""
import argparse
import statistics
import time

import numpy as np

from engine import Circle, Polygon, World, scenes

from .box2d_scene import build_b2world, has_box2d
from .pymunk_scene import build_space

DT = 1.0 / 60.0


def _ours_stack():
    world = World(sleeping=False)
    ground = world.create_body("static")
    ground.add_shape(Polygon.box(20, 1, center=(0, -0.5)))
    for k in range(3):
        world.create_body(position=(0, 0.5 + k)).add_shape(Polygon.box(1, 1))
    return world


def _pymunk_stack():
    import pymunk
    space = pymunk.Space()
    space.gravity = (0, -10)
    space.add(pymunk.Poly.create_box(space.static_body, (20, 1)))
    for k in range(3):
        body = pymunk.Body(1, pymunk.moment_for_box(1, (1, 1)))
        body.position = (0, 0.5 + k)
        space.add(body, pymunk.Poly.create_box(body, (1, 1)))
    return space


def _box2d_stack():
    import pyb2d3 as b2
    world = b2.World(gravity=(0, -10))
    world.sleeping_enabled = False
    ground = world.create_static_body(position=(0, -0.5))
    ground.create_polygon_shape(b2.shape_def(), b2.box(10, 0.5))
    for k in range(3):
        body = world.create_dynamic_body(position=(0, 0.5 + k))
        body.create_polygon_shape(b2.shape_def(density=1.0), b2.box(0.5, 0.5))
    return world


def _per(fn, n):
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n * 1e6


def step4(box2d):
    """Microseconds per step of the 4-body stack, per engine."""
    ours, space = _ours_stack(), _pymunk_stack()
    fns = {"ours": lambda: ours.step(DT), "pymunk": lambda: space.step(DT)}
    if box2d:
        b2world = _box2d_stack()
        fns["box2d"] = lambda: b2world.step(DT, 4)
    return {name: (lambda f=f: _per(f, 2000)) for name, f in fns.items()}


def create_destroy(box2d):
    """Microseconds per create + destroy of a body with one new circle, per engine."""
    import pymunk
    world = scenes.pyramid(13).build(sleeping=False)[0]  # 91 boxes and a ground
    space = build_space(scenes.pyramid(13))[0]

    def ours():
        body = world.create_body(position=(30, 5))
        body.add_shape(Circle(0.1))
        world.destroy_body(body)

    def theirs():
        body = pymunk.Body(1, 1)
        body.position = (30, 5)
        shape = pymunk.Circle(body, 0.1)
        space.add(body, shape)
        space.remove(body, shape)

    fns = {"ours": ours, "pymunk": theirs}
    if box2d:
        import pyb2d3 as b2
        b2world = build_b2world(scenes.pyramid(13), sleeping=False)[0]

        def box2d_cd():
            body = b2world.create_dynamic_body(position=(30, 5))
            body.create_circle_shape(b2.shape_def(), b2.circle(radius=0.1))
            body.destroy()
        fns["box2d"] = box2d_cd
    return {name: (lambda f=f: _per(f, 2000)) for name, f in fns.items()}


def _game(spawn, step, remove, steps=600, warmup=120, life=120):
    alive = []
    t = 0.0
    for k in range(warmup + steps):
        t0 = time.perf_counter()
        alive.append(spawn(k))
        step()
        if len(alive) > life:
            remove(alive.pop(0))
        if k >= warmup:
            t += time.perf_counter() - t0
    return t / steps * 1e6


def bullets(box2d):
    """Microseconds per step of the bullet-spawning game, per engine."""
    import pymunk

    def ours():
        world = _ours_stack()

        def spawn(k):
            body = world.create_body(position=(-8, 3 + (k % 5)), velocity=(30, 0))
            body.add_shape(Circle(0.05))
            return body
        return _game(spawn, lambda: world.step(DT), world.destroy_body)

    def theirs():
        space = _pymunk_stack()

        def spawn(k):
            body = pymunk.Body(1, pymunk.moment_for_circle(1, 0, 0.05))
            body.position, body.velocity = (-8, 3 + (k % 5)), (30, 0)
            shape = pymunk.Circle(body, 0.05)
            space.add(body, shape)
            return body, shape
        return _game(spawn, lambda: space.step(DT), lambda bs: space.remove(*bs))

    fns = {"ours": ours, "pymunk": theirs}
    if box2d:
        import pyb2d3 as b2

        def box2d_game():
            world = _box2d_stack()

            def spawn(k):
                body = world.create_dynamic_body(position=(-8, 3 + (k % 5)), linear_velocity=(30, 0))
                body.create_circle_shape(b2.shape_def(), b2.circle(radius=0.05))
                return body
            return _game(spawn, lambda: world.step(DT, 4), lambda b: b.destroy())
        fns["box2d"] = box2d_game
    return fns


def build_5000():
    """Seconds to build 5000 circles by a loop and by ``create_bodies`` (ours only)."""
    pos = np.random.default_rng(0).uniform(-100, 100, (5000, 2))

    def loop():
        world = World()
        for p in pos:
            world.create_body(position=p).add_shape(Circle(0.1))

    def bulk():
        World().create_bodies(Circle(0.1), pos)
    return {"loop": lambda: _per(loop, 1) * 1e-6, "bulk": lambda: _per(bulk, 1) * 1e-6}


def many_pyramids(box2d):
    """Seconds to build Box2D's many_pyramids in each engine (from the same scene data)."""
    scene = scenes.many_pyramids()
    fns = {"ours": lambda: _per(scene.build, 1) * 1e-6,
           "pymunk": lambda: _per(lambda: build_space(scene), 1) * 1e-6}
    if box2d:
        fns["box2d"] = lambda: _per(lambda: build_b2world(scene, sleeping=False), 1) * 1e-6
    return fns


def rounds(fns, n):
    """Per engine, the value of every round, the engines taking turns."""
    names = list(fns)
    out = {name: [] for name in names}
    for r in range(n):
        for name in (names if r % 2 == 0 else names[::-1]):
            out[name].append(fns[name]())
    return out


def report(title, unit, values, base="ours"):
    med = {name: statistics.median(v) for name, v in values.items()}
    parts = [f"{name} {med[name]:.4g} {unit}" for name in values]
    for name in values:
        if name != base:
            r = sorted(a / b for a, b in zip(values[base], values[name]))
            parts.append(f"{base}/{name} {med[base] / med[name]:.2f} [{r[0]:.2f}-{r[-1]:.2f}]")
    print(f"{title:16} " + ", ".join(parts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    box2d = has_box2d()
    report("step4", "us", rounds(step4(box2d), args.rounds))
    report("create+destroy", "us", rounds(create_destroy(box2d), args.rounds))
    report("bullets", "us/step", rounds(bullets(box2d), max(3, args.rounds // 3)))
    report("build 5000", "s", rounds(build_5000(), args.rounds), base="loop")
    report("many_pyramids", "s", rounds(many_pyramids(box2d), max(3, args.rounds // 3)))


if __name__ == "__main__":
    main()
