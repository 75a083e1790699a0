"""The demos' one door to a renderer: a pygame-ce window, or pillow images when headless.

:func:`run` shows a simulation (a scene, a scene builder or a world); :func:`show` shows
a still picture. Both draw through ``engine.debug_draw``, so this file only maps its
primitives to pixels: the engine itself never imports a renderer, and the demos never
import one either. Live keys: space pause, s single step, r reset, esc quit; a click
drops a box.
"""
import argparse
import functools
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

import engine
from engine.debug_draw import COLORS, DebugDraw, DrawFlags, draw_world, shape_aabb

DT = 1.0 / 60.0
# Two steps per GIF frame: 30 fps at 33 ms a frame. Browsers slow GIF delays under
# 20 ms down to 100 ms, so one step per frame could not play at real time.
STEPS_PER_FRAME = 2
BACKGROUND = (24, 26, 32)
HUD = 26  # pixels kept free at the top for the status line, so it never covers bodies
MARGIN = 0.05  # of the larger world extent, on every side


def options(argv, name, frames=150):
    """Parse the options every demo shares; returns keyword arguments for run/show."""
    parser = argparse.ArgumentParser(prog=f"python -m demos {name}")
    parser.add_argument("--headless", action="store_true", help="render to a file, open no window")
    parser.add_argument("--frames", type=int, default=frames, help=f"frames to record (default {frames})")
    parser.add_argument("--out", help=f"output file (default out/{name}.gif, or .png for one frame)")
    parser.add_argument("--contacts", action="store_true", help="also draw contacts and centres of mass")
    args = parser.parse_args(argv)
    if args.frames < 1:
        parser.error("--frames must be >= 1")
    flags = DrawFlags.SHAPES | (DrawFlags.CONTACTS | DrawFlags.CENTERS if args.contacts else 0)
    return dict(name=name, headless=args.headless, frames=args.frames, out=args.out, flags=flags)


def has_display():
    """False on a Linux box without X11/Wayland, or when SDL was told to draw nowhere."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def world_bounds(world):
    """Box around every shape, except that static shapes are cut off a quarter of the
    moving bodies' size above the highest of them: a container's 60 m walls would
    shrink the bodies to dots. Floors and walls below and beside stay in view."""
    moving, still = [], []
    for row, body in enumerate(world.bodies):
        pose = (*world.positions[row], world.angles[row])
        kind = moving if body.body_type != engine.BodyType.STATIC else still
        kind.extend(shape_aabb(h.shape, pose) for h in body.shapes)
    if not moving and not still:
        return (-1.0, -1.0, 1.0, 1.0)
    b = np.array(moving + still)
    x0, y0, x1, y1 = (*b[:, :2].min(axis=0).tolist(), *b[:, 2:].max(axis=0).tolist())
    if moving:
        m = np.array(moving)
        top, size = m[:, 3].max(), max(np.ptp(m[:, [0, 2]]), np.ptp(m[:, [1, 3]]))
        y1 = min(y1, top + 0.25 * size)
    return (x0, y0, x1, y1)


class Camera:
    """World (meters, y up) to pixels (y down): fits ``bounds`` into ``size`` below the HUD."""

    def __init__(self, bounds, size):
        x0, y0, x1, y1 = bounds
        pad = MARGIN * max(x1 - x0, y1 - y0, 1e-3)
        w, h = size
        self.scale = min(w / (x1 - x0 + 2 * pad), (h - HUD) / (y1 - y0 + 2 * pad))
        self.cx, self.cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        self.ox, self.oy = 0.5 * w, HUD + 0.5 * (h - HUD)

    def px(self, p):
        return (self.ox + (p[0] - self.cx) * self.scale, self.oy - (p[1] - self.cy) * self.scale)

    def pxs(self, points):
        pts = np.asarray(points, dtype=np.float64)
        xs = self.ox + (pts[:, 0] - self.cx) * self.scale
        ys = self.oy - (pts[:, 1] - self.cy) * self.scale
        return list(zip(xs.tolist(), ys.tolist()))

    def world(self, q):
        return ((q[0] - self.ox) / self.scale + self.cx, (self.oy - q[1]) / self.scale + self.cy)


def frame_size(bounds, width=800):
    """Image size whose aspect follows the scene, so wide and tall scenes both fill it."""
    x0, y0, x1, y1 = bounds
    aspect = (y1 - y0 + 1e-3) / (x1 - x0 + 1e-3)
    return width, int(min(max(width * aspect + HUD + 20, 320), 900))


def _fill(color):
    # Fills at 45 % over the background keep outlines of touching bodies readable.
    return tuple(int(0.45 * c + 0.55 * b) for c, b in zip(color, BACKGROUND))


def _capsule(a, b, r, step=math.pi / 8):
    """Outline of the capsule a-b of radius r: a half circle around each end."""
    t = math.atan2(b[1] - a[1], b[0] - a[0])
    n = int(math.pi / step)
    arc = [(b, t - math.pi / 2 + math.pi * k / n) for k in range(n + 1)]
    arc += [(a, t + math.pi / 2 + math.pi * k / n) for k in range(n + 1)]
    return [(c[0] + r * math.cos(u), c[1] + r * math.sin(u)) for c, u in arc]


class Canvas(DebugDraw):
    """The debug-draw primitives in pixels; a backend supplies poly, disc, line and text."""

    def __init__(self, camera):
        self.cam = camera

    def draw_polygon(self, vertices, color):
        self.poly(self.cam.pxs(vertices), _fill(color), color)

    def draw_circle(self, center, radius, angle, color):
        c = self.cam.px(center)
        self.disc(c, max(radius * self.cam.scale, 1.0), _fill(color), color)
        # the radius line shows rotation: rolling balls look rolling
        rim = (center[0] + radius * math.cos(angle), center[1] + radius * math.sin(angle))
        self.line(c, self.cam.px(rim), color, 1)

    def draw_segment(self, a, b, radius, color):
        if radius * self.cam.scale < 1.0:
            self.line(self.cam.px(a), self.cam.px(b), color, 2)
        else:
            self.draw_polygon(_capsule(a, b, radius), color)

    def draw_point(self, p, size, color):
        self.disc(self.cam.px(p), 0.5 * size, color, color)

    def draw_arrow(self, p, q, color):
        a, b = self.cam.px(p), self.cam.px(q)
        self.line(a, b, color, 2)
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 1.0:
            return
        head = min(9.0, 0.5 * length)
        t = math.atan2(b[1] - a[1], b[0] - a[0])
        for side in (-0.45, 0.45):
            self.line(b, (b[0] - head * math.cos(t + side), b[1] - head * math.sin(t + side)), color, 2)

    def draw_aabb(self, box, color):
        x0, y0, x1, y1 = box
        pts = self.cam.pxs([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
        for a, b in zip(pts, pts[1:]):
            self.line(a, b, color, 1)

    def draw_text(self, p, text, color):
        self.text(self.cam.px(p), text, color)

    def hud(self, text):
        """The status line, on a cleared band: tall static walls may reach up into it."""
        self.rect((0, 0, self.cam.ox * 2, HUD), BACKGROUND)
        self.text((8, 5), text, COLORS["text"])


class PilCanvas(Canvas):
    """Pillow backend: no display needed; flat colours keep GIFs small."""

    def __init__(self, image, camera, font):
        from PIL import ImageDraw
        super().__init__(camera)
        self.d = ImageDraw.Draw(image)
        self.font = font

    def poly(self, pts, fill, outline):
        self.d.polygon(pts, fill=fill, outline=outline)

    def rect(self, box, color):
        self.d.rectangle(box, fill=color)

    def disc(self, c, r, fill, outline):
        self.d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=fill, outline=outline)

    def line(self, a, b, color, width):
        self.d.line((a, b), fill=color, width=width)

    def text(self, p, text, color):
        self.d.text(p, text, fill=color, font=self.font)


class PygameCanvas(Canvas):
    """pygame-ce backend for the live window."""

    def __init__(self, surface, camera, pygame):
        super().__init__(camera)
        self.s, self.pg = surface, pygame
        self.font = pygame.font.Font(None, 22)

    def poly(self, pts, fill, outline):
        self.pg.draw.polygon(self.s, fill, pts)
        self.pg.draw.polygon(self.s, outline, pts, 1)

    def rect(self, box, color):
        self.s.fill(color, (box[0], box[1], box[2] - box[0], box[3] - box[1]))

    def disc(self, c, r, fill, outline):
        self.pg.draw.circle(self.s, fill, c, r)
        self.pg.draw.circle(self.s, outline, c, r, 1)

    def line(self, a, b, color, width):
        self.pg.draw.line(self.s, color, a, b, width)

    def text(self, p, text, color):
        self.s.blit(self.font.render(text, True, color), p)


@functools.lru_cache(maxsize=None)
def _font():
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=15)  # scalable with FreeType (Pillow >= 10.1)
    except TypeError:
        return ImageFont.load_default()


def _image(size, cam):
    """A blank pillow frame and its canvas (pillow imported here: only headless needs it)."""
    from PIL import Image
    img = Image.new("RGB", size, BACKGROUND)
    return img, PilCanvas(img, cam, _font())


def _palette():
    """One fixed GIF palette for all frames (no colour flicker): the drawing colours,
    their fills, and a grey ramp for antialiased text."""
    from PIL import Image
    colors = [BACKGROUND] + [c for v in COLORS.values() for c in (v, _fill(v))]
    flat = [x for c in colors + [(g, g, g) for g in range(0, 256, 17)] for x in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (256 - len(flat) // 3))
    return pal


def _window(size, title):
    """pygame and a window surface (pygame imported here: only live mode needs it)."""
    import pygame
    pygame.init()
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption(title)
    return pygame, screen


def _save(images, out, name):
    path = Path(out) if out else Path("out") / f"{name}.{'png' if len(images) == 1 else 'gif'}"
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(path, save_all=len(images) > 1, append_images=images[1:], duration=33, loop=0)
    print(path)
    return path


def _progress(done, total, title):
    sys.stderr.write(f"\r{title} [{'#' * (30 * done // total):<30}] {done}/{total}")
    sys.stderr.write("\n" if done == total else "")
    sys.stderr.flush()


def _as_world(source):
    """(rebuild, world): ``rebuild`` makes a fresh world for reset; None for a bare World."""
    if isinstance(source, engine.World):
        return None, source

    def rebuild():
        made = source.build() if hasattr(source, "build") else source()
        return made[0] if isinstance(made, tuple) else made
    return rebuild, rebuild()


def run(source, title, frames=150, headless=False, out=None, name="demo", flags=DrawFlags.SHAPES,
        overlay=None, width=800):
    """Show a simulation live, or record ``frames`` frames to ``out`` when headless.

    ``source`` is a Scene, a callable returning a World or (world, bodies), or a World
    (then r cannot reset). ``overlay(drawer, world)`` draws extras (labels) each frame;
    ``width`` is the image width in pixels (the height follows the scene). Headless is
    forced when there is no display. Returns the output path, or None live.
    """
    rebuild, world = _as_world(source)
    if not headless and has_display():
        return _live(rebuild, world, title, flags, overlay)
    bounds = world_bounds(world)
    size, pal = frame_size(bounds, width), _palette()
    cam = Camera(bounds, size)
    images, ms = [], 0.0
    for f in range(frames):
        if f:
            t0 = time.perf_counter()
            for _ in range(STEPS_PER_FRAME):
                world.step(DT)
            ms = 1000.0 * (time.perf_counter() - t0) / STEPS_PER_FRAME
        img, canvas = _image(size, cam)
        draw_world(world, canvas, flags)
        if overlay:
            overlay(canvas, world)
        t = f * STEPS_PER_FRAME * DT
        canvas.hud(f"{title}   bodies {len(world.bodies)}   {ms:.2f} ms/step   t = {t:.2f} s")
        images.append(img if frames == 1 else img.quantize(palette=pal, dither=0))
        _progress(f + 1, frames, title)
    return _save(images, out, name)


def _live(rebuild, world, title, flags, overlay, size=(1100, 720)):
    pygame, screen = _window(size, f"{title}: space pause, s step, r reset, click: box, esc quit")
    canvas = PygameCanvas(screen, Camera(world_bounds(world), size), pygame)
    clock, paused, ms = pygame.time.Clock(), False, 0.0
    while True:
        single = False
        for ev in pygame.event.get():
            key = ev.key if ev.type == pygame.KEYDOWN else None
            if ev.type == pygame.QUIT or key == pygame.K_ESCAPE:
                pygame.quit()
                return None
            if key == pygame.K_SPACE:
                paused = not paused
            elif key == pygame.K_s:
                paused, single = True, True
            elif key == pygame.K_r and rebuild:
                world = rebuild()
                canvas.cam = Camera(world_bounds(world), size)
            elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                side = 30.0 / canvas.cam.scale  # about 30 pixels, whatever the zoom
                box = world.create_body(position=canvas.cam.world(ev.pos))
                box.add_shape(engine.Polygon.box(side, side))
        if not paused or single:
            t0 = time.perf_counter()
            world.step(DT)  # fixed dt: one step per 60 Hz frame, whatever the frame rate
            ms = 0.9 * ms + 100.0 * (time.perf_counter() - t0)  # smoothed: 0.1 * 1000 * seconds
        screen.fill(BACKGROUND)
        draw_world(world, canvas, flags)
        if overlay:
            overlay(canvas, world)
        paused_note = "  [paused]" if paused else ""
        canvas.hud(f"{title}   bodies {len(world.bodies)}   {ms:.2f} ms/step{paused_note}")
        pygame.display.flip()
        clock.tick(60)


def show(picture, bounds, title, headless=False, out=None, name="picture", width=900):
    """Show a still ``picture(drawer)`` of the world box ``bounds``: a window, or a PNG."""
    size = frame_size(bounds, width)
    cam = Camera(bounds, size)
    if headless or not has_display():
        img, canvas = _image(size, cam)
        picture(canvas)
        canvas.hud(title)
        _progress(1, 1, title)
        return _save([img], out, name)
    pygame, screen = _window(size, f"{title} (any key quits)")
    canvas = PygameCanvas(screen, cam, pygame)
    screen.fill(BACKGROUND)
    picture(canvas)
    canvas.hud(title)
    pygame.display.flip()
    while pygame.event.wait().type not in (pygame.QUIT, pygame.KEYDOWN):
        pass
    pygame.quit()
    return None
