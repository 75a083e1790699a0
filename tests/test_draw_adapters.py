"""The renderer adapters: lazily imported, and they paint bodies where the bodies are."""
import subprocess
import sys

import numpy as np
import pytest

from engine import BodyType, Circle, Polygon, World, scenes
from engine.draw.debug_draw import COLORS, DebugDraw, DrawFlags, draw_world, shape_aabb
from engine.draw.pixels import BACKGROUND, Camera, fill_color


def test_importing_the_engine_and_adapters_loads_no_renderer():
    code = ("import sys, engine, engine.draw.debug_draw, engine.draw.pixels, engine.draw.pygame_draw, "
            "engine.draw.matplotlib_draw, engine.scenes; "
            "print(sorted(m for m in ('pygame', 'matplotlib', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_camera_fit_maps_the_box_corners_to_the_frame_edges():
    cam = Camera.fit((-4, 1, 6, 3), (400, 300), margin=0.0, top=20)
    assert cam.scale == 40.0  # width-limited: 400 px / 10 m
    x0, y0 = cam.to_pixels((-4, 1))
    x1, y1 = cam.to_pixels((6, 3))
    assert (x0, x1) == (0.0, 400.0)
    assert y0 - y1 == 80.0 and y1 > 20 and y0 < 300  # y down, below the reserved band
    assert np.allclose(cam.to_world(cam.to_pixels((2.5, -7))), (2.5, -7))
    with pytest.raises(ValueError):
        Camera(scale=0.0)


@pytest.fixture
def pygame(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    return pytest.importorskip("pygame")


def test_pygame_draws_a_body_where_it_is_and_nothing_elsewhere(pygame):
    from engine.draw.pygame_draw import PygameDraw

    world = World()
    world.create_body(position=(2, 0)).add_shape(Polygon.box(1, 1))  # pixels 130..150 x 90..110
    surface = pygame.Surface((200, 200))
    surface.fill(BACKGROUND)
    world.debug_draw(PygameDraw(surface, Camera(20, (0, 0), (100, 100))))
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)  # rows are y
    color = COLORS[BodyType.DYNAMIC]
    assert tuple(rgb[100, 140]) == fill_color(color)
    assert color in (tuple(rgb[100, 130]), tuple(rgb[100, 131]))  # the outline
    painted = np.any(rgb != np.array(BACKGROUND), axis=2)
    ys, xs = np.nonzero(painted)
    assert xs.min() >= 129 and xs.max() <= 151 and ys.min() >= 89 and ys.max() <= 111
    assert painted.sum() > 0.9 * 20 * 20


def test_pygame_draws_every_overlay_and_text(pygame):
    from engine.draw.pygame_draw import PygameDraw, draw_world_pygame

    world, _ = scenes.pyramid(3).build()
    for _ in range(3):
        world.step(1 / 60)
    surface = pygame.Surface((320, 160))
    plain = draw_world_pygame(world, surface, (-3, -1, 3, 3.5))
    base = pygame.surfarray.array3d(surface).copy()
    drawer = draw_world_pygame(world, surface, (-3, -1, 3, 3.5), flags=DrawFlags.ALL)
    drawer.draw_text((-2.5, 3.3), "label", COLORS["text"])
    assert isinstance(plain, PygameDraw) and plain.camera.scale == drawer.camera.scale
    overlays = pygame.surfarray.array3d(surface)
    assert (np.any(overlays != base, axis=2)).sum() > 100
    tree = np.all(overlays == np.array(COLORS["tree"]), axis=2)
    assert tree.any()  # internal nodes of the broadphase tree


def test_tree_flag_draws_every_live_node_and_leaves_hold_the_shapes():
    world, bodies = scenes.pyramid(4).build()
    for _ in range(10):
        world.step(1 / 60)

    class Boxes(DebugDraw):
        def __init__(self):
            self.boxes = []

        def draw_aabb(self, box, color):
            self.boxes.append((box, color))

    rec = Boxes()
    draw_world(world, rec, DrawFlags.TREE)
    leaves = [b for b, c in rec.boxes if c == COLORS["tree_leaf"]]
    inner = [b for b, c in rec.boxes if c == COLORS["tree"]]
    assert len(leaves) == 11  # ten boxes and the ground, one piece each
    assert len(inner) == 10 - 1  # the moving tree's internal nodes; the static tree is one leaf
    for body in bodies:
        tight = shape_aabb(body.shapes[0].shape, (*body.position, body.angle))
        assert any(b[0] <= tight[0] and b[1] <= tight[1] and b[2] >= tight[2] and b[3] >= tight[3]
                   for b in leaves)
    union = np.array(leaves)
    root = max(inner, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    moving = np.array([b for b in leaves if b[2] - b[0] < 5])
    assert np.allclose(root, [*moving[:, :2].min(axis=0), *moving[:, 2:].max(axis=0)])
    assert union.shape == (11, 4)


@pytest.fixture
def plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    yield plt
    plt.close("all")


def test_matplotlib_adds_artists_and_fits_the_world(plt, tmp_path):
    from engine.draw.matplotlib_draw import MatplotlibDraw, plot_world

    world = World()
    world.create_body("static").add_shape(Polygon.box(8, 1, center=(0, -0.5)))
    world.create_body(position=(1, 3), angle=0.4).add_shape(Polygon.box(1, 2))
    world.create_body(position=(-2, 0.4)).add_shape(Circle(0.5))
    ax = plot_world(world, margin=0.0)
    assert len(ax.patches) == 3
    boxes = np.array([shape_aabb(h.shape, (*b.position, b.angle)) for b in world.bodies for h in b.shapes])
    lo, hi = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
    assert np.allclose(ax.dataLim.get_points(), [lo, hi])
    assert ax.get_aspect() == 1.0
    ax.figure.savefig(tmp_path / "world.png")
    assert (tmp_path / "world.png").stat().st_size > 1000

    fig, ax2 = plt.subplots()
    drawer = MatplotlibDraw(ax2)
    world.debug_draw(drawer, DrawFlags.ALL)  # the circle sinks 0.1 m into the ground
    drawer.draw_text((0, 4), "hello", COLORS["text"])
    assert len(ax2.texts) == 2  # the label, and the arrow annotation of the contact normal
    assert len(ax2.patches) == 3 + 3 + 3 + 1  # shapes, tight boxes, tree leaves, the moving tree's root
