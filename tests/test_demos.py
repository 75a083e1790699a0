"""Every demo renders headless into an image with bodies in it; debug drawing walks a world."""
import doctest
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import engine.draw.debug_draw
from engine import Polygon, World, scenes
from engine.draw.debug_draw import COLORS, DebugDraw, DrawFlags, draw_world
from engine.draw.pixels import fill_color

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # demos/ is a folder of the repository, not an installed package

from demos import _viewer  # noqa: E402
from demos.__main__ import demo_names  # noqa: E402
from demos.__main__ import main as demos_main  # noqa: E402

NAMES = demo_names()


def body_pixel_fraction(image):
    """Share of the frame below the status line drawn in a body colour (fill or outline)."""
    rgb = np.asarray(image.convert("RGB"), dtype=np.int32)[_viewer.HUD:]
    colors = [COLORS[k] for k in (0, 1, 2)]
    colors += [fill_color(c) for c in colors]
    near = np.zeros(rgb.shape[:2], dtype=bool)
    for c in colors:
        near |= np.abs(rgb - np.array(c)).sum(axis=2) < 24
    return near.mean()


def test_every_demo_is_listed(capsys):
    assert set(NAMES) >= {"pyramid", "rain", "collide", "restitution", "ramp", "bullets", "tumbler", "domino",
                          "cradle"}
    assert demos_main([]) == 0
    listing = capsys.readouterr().out
    for name in NAMES:
        assert name in listing
        assert importlib.import_module(f"demos.{name}").DESCRIPTION in listing


def test_unknown_demo_is_an_error(capsys):
    assert demos_main(["no_such_demo"]) == 2
    assert "pyramid" in capsys.readouterr().err


@pytest.mark.parametrize("name", NAMES)
def test_demo_renders_headless(name, tmp_path, monkeypatch, capsys):
    # No window whatever the machine: SDL draws nowhere, and --headless on top.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.chdir(tmp_path)  # the default output folder out/ is created here
    path = importlib.import_module(f"demos.{name}").main(["--headless", "--frames", "3"])
    path = tmp_path / path
    assert path.parent == tmp_path / "out" and path.stem == name
    assert str(path.relative_to(tmp_path)) in capsys.readouterr().out
    assert path.stat().st_size > 0
    with Image.open(path) as image:
        frames = getattr(image, "n_frames", 1)
        assert frames == (1 if path.suffix == ".png" else 3)
        image.seek(frames - 1)
        assert body_pixel_fraction(image) > 0.01


def test_one_frame_is_a_png(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    out = tmp_path / "deep" / "pyramid.png"
    path = importlib.import_module("demos.pyramid").main(["--headless", "--frames", "1", "--out", str(out)])
    assert Path(path) == out
    with Image.open(out) as image:
        assert image.format == "PNG" and body_pixel_fraction(image) > 0.05


def test_camera_fits_bodies_below_the_status_line():
    world, _ = scenes.pyramid(5).build()
    bounds = _viewer.world_bounds(world)
    size = _viewer.frame_size(bounds)
    cam = _viewer.fit(bounds, size)
    for corner in [(bounds[0], bounds[1]), (bounds[2], bounds[3])]:
        x, y = cam.to_pixels(corner)
        assert 0 < x < size[0] and _viewer.HUD < y < size[1]
    assert np.allclose(cam.to_world(cam.to_pixels((1.5, 2.5))), (1.5, 2.5))


def test_container_walls_do_not_shrink_the_view():
    world, _ = scenes.rain(circles=20, polygons=10, width=10.0).build()
    x0, y0, x1, y1 = _viewer.world_bounds(world)
    assert y1 < 10.0  # the walls are 60 m tall; the bodies start below 3 m


def test_debug_draw_doctests():
    assert doctest.testmod(engine.draw.debug_draw).failed == 0


class Counter(DebugDraw):
    def __init__(self):
        self.counts = {}

    def _count(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def draw_polygon(self, vertices, color):
        self._count("polygon")

    def draw_point(self, p, size, color):
        self._count("point")

    def draw_arrow(self, p, q, color):
        self._count("arrow")

    def draw_aabb(self, box, color):
        self._count("aabb")


def test_draw_world_all_flags():
    # A box sunk 0.1 m into the ground, not stepped: the contact does not depend on the solver.
    world = World()
    world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    world.create_body(position=(0, 0.4)).add_shape(Polygon.box(1, 1))
    counter = Counter()
    draw_world(world, counter, DrawFlags.ALL)
    # aabb: 2 tight boxes, and the 2 leaves of the broadphase trees (one piece in each tree)
    assert counter.counts == {"polygon": 2, "aabb": 2 + 2, "arrow": 2, "point": 2 + 2}  # 2 centres, 2 points
    counter = Counter()
    draw_world(world, counter)
    assert counter.counts == {"polygon": 2}


def pretend_display(monkeypatch, pygame, *batches):
    """SDL's dummy driver behind a pretend display, and these batches of events, one per frame."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(_viewer, "has_display", lambda: True)
    events = iter(batches)
    monkeypatch.setattr(pygame.event, "get", lambda: next(events))
    monkeypatch.setattr(pygame.event, "wait", lambda: next(events)[0])


def test_live_window_keys_and_click(monkeypatch):
    pygame = importlib.import_module("pygame")  # a test dependency (pyproject extra "test")
    key = lambda k: pygame.event.Event(pygame.KEYDOWN, key=k)  # noqa: E731
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(550, 300))
    pretend_display(monkeypatch, pygame, [click], [], [key(pygame.K_SPACE)], [key(pygame.K_s)],
                    [key(pygame.K_r)], [key(pygame.K_ESCAPE)])
    world, _ = scenes.pyramid(3).build()
    before = world.positions.copy()
    assert _viewer.run(world, "live", frames=3) is None  # a bare World: r cannot reset it
    assert len(world.bodies) == 7 + 1  # the click dropped a box
    assert not np.array_equal(world.positions[:7], before)  # stepped while running


def test_live_still_picture(monkeypatch):
    pygame = importlib.import_module("pygame")  # a test dependency (pyproject extra "test")
    pretend_display(monkeypatch, pygame, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)])
    demo = importlib.import_module("demos.collide")
    assert _viewer.show(demo.picture, demo.bounds(), "still") is None


def test_live_window_drags_a_body_to_the_cursor_and_toggles_overlays(monkeypatch):
    pygame = importlib.import_module("pygame")
    world, bodies = scenes.pyramid(3).build()
    top = bodies[-1]
    cam = _viewer.fit(_viewer.world_bounds(world), (1100, 720))  # the live window's camera
    grab_px = cam.to_pixels(top.position)
    target = (3.0, 5.0)
    ev = pygame.event.Event
    batches = [[ev(pygame.MOUSEBUTTONDOWN, button=1, pos=grab_px)],
               [ev(pygame.MOUSEMOTION, pos=cam.to_pixels(target)), ev(pygame.KEYDOWN, key=pygame.K_t),
                ev(pygame.KEYDOWN, key=pygame.K_c)]]
    batches += [[]] * 60 + [[ev(pygame.MOUSEBUTTONUP, button=1, pos=cam.to_pixels(target))]]
    batches += [[ev(pygame.KEYDOWN, key=pygame.K_ESCAPE)]]
    pretend_display(monkeypatch, pygame, *batches)
    monkeypatch.setattr(pygame.time, "Clock", lambda: type("NoWait", (), {"tick": lambda self, fps=0: 0})())
    _viewer.run(world, "drag")
    assert len(world.bodies) == 7  # grabbing a body drops no box
    assert np.hypot(top.position[0] - target[0], top.position[1] - target[1]) < 0.1
    assert np.allclose(bodies[1].position, (-1.0, 0.5), atol=0.05)  # the rest of the pyramid stands


def test_body_at_finds_only_dynamic_bodies_under_the_point():
    world, bodies = scenes.pyramid(2).build()
    assert _viewer.body_at(world, (0.0, 1.5)) is bodies[-1]
    assert _viewer.body_at(world, (0.0, -0.5)) is None  # the static ground
    assert _viewer.body_at(world, (5.0, 5.0)) is None


@pytest.mark.parametrize("base", [1, 5, 12])
def test_status_line_counts_the_contacts_of_a_pyramid(base):
    world, _ = scenes.pyramid(base).build()
    assert world.contact_count == 0  # no step yet: no contacts known
    for _ in range(3):
        world.step(1 / 60)
    beside = sum(base - r - 1 for r in range(base))  # neighbours in a row
    below = 2 * sum(base - r for r in range(1, base))  # every box above the first row sits on two
    assert world.contact_count == beside + below + base  # and the first row on the ground
    assert f"contacts {beside + below + base} " in _viewer.status("p", world, 0.5)


def test_overlay_options_set_the_flags():
    assert _viewer.options([], "x")["flags"] == DrawFlags.SHAPES
    flags = _viewer.options(["--tree", "--contacts"], "x")["flags"]
    assert flags == DrawFlags.SHAPES | DrawFlags.TREE | DrawFlags.CONTACTS | DrawFlags.CENTERS


def test_live_reset_rebuilds_the_scene_and_keeps_the_given_view(monkeypatch):
    pygame = importlib.import_module("pygame")
    key = lambda k: pygame.event.Event(pygame.KEYDOWN, key=k)  # noqa: E731
    pretend_display(monkeypatch, pygame, [], [], [key(pygame.K_r)], [], [key(pygame.K_ESCAPE)])
    monkeypatch.setattr(pygame.time, "Clock", lambda: type("NoWait", (), {"tick": lambda self, fps=0: 0})())
    fits = []
    monkeypatch.setattr(_viewer, "fit", lambda bounds, size: fits.append(bounds) or _viewer.Camera())
    builds = []

    def make():
        builds.append(1)
        return scenes.tumbler(4).build()
    assert _viewer.run(make, "reset", bounds=(-8, -8, 8, 8)) is None
    assert len(builds) == 2  # the first world, and the one r made
    assert fits == [(-8, -8, 8, 8)] * 2  # the camera keeps the demo's view after a reset


def test_platformer_autopilot_collects_every_coin_through_sensor_events():
    # The headless run, without drawing: the autopilot jumps up through the one-way
    # platforms, onto the belt and off the lift (so each of them carries the player), and
    # each coin it touches is counted once (a sensor's begin event) and removed.
    from demos import platformer
    world = platformer.build()
    game = platformer.Game()

    def coins_left():
        return sum(1 for b in world.bodies for s in b.shapes if s.user_data == "coin")

    total = coins_left()
    for _ in range(500):  # the demo's 250 frames of 2 steps
        game(world, None)
        world.step(1 / 60)
        assert coins_left() == total - game.coins
    assert total == 6 and game.coins == total and game.leg == len(platformer.ROUTE)
