"""The demos' one door to a renderer: a pygame-ce window, or pillow images when headless.

:func:`run` shows a simulation (a scene, a scene builder or a world); :func:`show` shows
a still picture. Both draw through ``engine.draw.debug_draw``, so this file only maps its
primitives to pixels, through ``engine.draw.pygame_draw`` in a window and a small pillow
backend when headless; the demos themselves never import a renderer. Live keys: space
pause, s single step, r reset, c contacts, t broadphase tree, esc quit; dragging a
body pulls it, a click on empty space drops a box.
"""
import argparse
import functools
import os
import sys
import time
from pathlib import Path

import numpy as np

import engine
from engine.draw.debug_draw import COLORS, DrawFlags, draw_world, shape_aabb
from engine.draw.pixels import BACKGROUND, Camera, PixelDraw, fill_color
from engine.draw.pygame_draw import PygameDraw

DT = 1.0 / 60.0
# Two steps per GIF frame: 30 fps at 33 ms a frame. Browsers slow GIF delays under
# 20 ms down to 100 ms, so one step per frame could not play at real time.
STEPS_PER_FRAME = 2
HUD = 26  # pixels kept free at the top for the status line, so it never covers bodies
MARGIN = 0.05  # of the larger world extent, on every side


def options(argv, name, frames=150, joints=False):
    """Parse the options every demo shares; returns keyword arguments for run/show
    (``joints``: draw the joints, ``DrawFlags.JOINTS``)."""
    parser = argparse.ArgumentParser(prog=f"python -m demos {name}")
    parser.add_argument("--headless", action="store_true", help="render to a file, open no window")
    parser.add_argument("--frames", type=int, default=frames, help=f"frames to record (default {frames})")
    parser.add_argument("--out", help=f"output file (default out/{name}.gif, or .png for one frame)")
    parser.add_argument("--contacts", action="store_true", help="also draw contacts and centres of mass")
    parser.add_argument("--tree", action="store_true", help="also draw the broadphase tree's boxes")
    args = parser.parse_args(argv)
    if args.frames < 1:
        parser.error("--frames must be >= 1")
    flags = DrawFlags.SHAPES | (DrawFlags.CONTACTS | DrawFlags.CENTERS if args.contacts else 0)
    flags |= DrawFlags.TREE if args.tree else 0
    flags |= DrawFlags.JOINTS if joints else 0
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


def frame_size(bounds, width=800):
    """Image size whose aspect follows the scene, so wide and tall scenes both fill it."""
    x0, y0, x1, y1 = bounds
    aspect = (y1 - y0 + 1e-3) / (x1 - x0 + 1e-3)
    return width, int(min(max(width * aspect + HUD + 20, 320), 900))


def fit(bounds, size):
    """The camera for ``bounds`` in a frame of ``size``, below the status line."""
    return Camera.fit(bounds, size, margin=MARGIN, top=HUD)


def hud(canvas, text, width):
    """The status line, on a cleared band: tall static walls may reach up into it."""
    canvas.pixel_rect((0, 0, width, HUD), BACKGROUND)
    canvas.pixel_text((8, 5), text, COLORS["text"])


class PilCanvas(PixelDraw):
    """Pillow backend: no display needed; flat colours keep GIFs small."""

    def __init__(self, image, camera, font):
        from PIL import ImageDraw
        super().__init__(camera)
        self.d = ImageDraw.Draw(image)
        self.font = font

    def pixel_polygon(self, pts, fill, outline):
        self.d.polygon(pts, fill=fill, outline=outline)

    def pixel_rect(self, box, color):
        self.d.rectangle(box, fill=color)

    def pixel_disc(self, c, r, fill, outline):
        self.d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=fill, outline=outline)

    def pixel_line(self, a, b, color, width):
        self.d.line((a, b), fill=color, width=width)

    def pixel_text(self, p, text, color):
        self.d.text(p, text, fill=color, font=self.font)


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
    colors = [BACKGROUND] + [c for v in COLORS.values() for c in (v, fill_color(v))]
    flat = [x for c in colors + [(g, g, g) for g in range(0, 256, 17)] for x in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (256 - len(flat) // 3))
    return pal


def _window(size, title):
    """pygame and a window surface (pygame imported here: only live mode needs it)."""
    import pygame
    pygame.display.init()  # not pygame.init(): no audio, which only logs errors on silent machines
    pygame.font.init()
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


def status(title, world, ms, extra=""):
    """The status line: what runs, how many bodies and contacts, and what a step costs."""
    return f"{title}   bodies {len(world.bodies)}   contacts {world.contact_count}   {ms:.2f} ms/step{extra}"


def run(source, title, frames=150, headless=False, out=None, name="demo", flags=DrawFlags.SHAPES,
        overlay=None, width=800, bounds=None, control=None):
    """Show a simulation live, or record ``frames`` frames to ``out`` when headless.

    ``source`` is a Scene, a callable returning a World or (world, bodies), or a World
    (then r cannot reset). ``overlay(drawer, world)`` draws extras (labels) each frame;
    ``width`` is the image width in pixels (the height follows the scene); ``bounds``
    the world box to show, when the first frame's bodies do not tell (a rotating box).
    ``control(world, keys)`` runs before every step: ``keys`` is the set of held keys
    (``"left"``, ``"right"``, ``"up"``, ``"down"``, ``"jump"``) in a window, None when
    headless (the demo plays its own script then).
    Headless is forced when there is no display. Returns the output path, or None live.
    """
    rebuild, world = _as_world(source)
    if not headless and has_display():
        return _live(rebuild, world, title, flags, overlay, bounds, control=control)
    bounds = bounds or world_bounds(world)
    size, pal = frame_size(bounds, width), _palette()
    cam = fit(bounds, size)
    images, ms = [], 0.0
    for f in range(frames):
        if f:
            t0 = time.perf_counter()
            for _ in range(STEPS_PER_FRAME):
                if control:
                    control(world, None)
                world.step(DT)
            ms = 1000.0 * (time.perf_counter() - t0) / STEPS_PER_FRAME
        img, canvas = _image(size, cam)
        draw_world(world, canvas, flags)
        if overlay:
            overlay(canvas, world)
        hud(canvas, status(title, world, ms, f"   t = {f * STEPS_PER_FRAME * DT:.2f} s"), size[0])
        images.append(img if frames == 1 else img.quantize(palette=pal, dither=0))
        _progress(f + 1, frames, title)
    return _save(images, out, name)


def body_at(world, point):
    """The dynamic body with a shape under the world ``point``, or None: the viewer's
    mouse pick, a ``world.query_point`` (the deepest shape under the point wins)."""
    for hit in world.query_point(point):
        if hit.body.body_type == engine.BodyType.DYNAMIC:
            return hit.body
    return None


class Grab:
    """A body held by the mouse: a mouse joint (``world.create_mouse_joint``) pulls the
    grabbed point toward the cursor on a 5 Hz spring, with at most 1000 times the body's
    mass in newtons, as Box2D's samples do; releasing destroys the joint."""

    def __init__(self, world, body, point):
        self.world, self.body = world, body
        self.joint = world.create_mouse_joint(body, point, max_force=1000.0 * body.mass)

    @property
    def alive(self):
        """False once the joint is gone (its body was destroyed, or the world reset)."""
        return self.joint.alive

    @property
    def target(self):
        return self.joint.target

    @target.setter
    def target(self, point):
        self.joint.target = point

    def anchor(self):
        """World position of the grabbed point."""
        return self.joint.anchor_b

    def release(self):
        if self.joint.alive:
            self.world.destroy_joint(self.joint)


KEYS = "space (or p) pause, s step, r reset, c contacts, t tree, drag a body or click to drop a box, esc quit"


def _held(pygame):
    """The demo keys held down now."""
    held = pygame.key.get_pressed()
    names = {"left": pygame.K_LEFT, "right": pygame.K_RIGHT, "up": pygame.K_UP, "down": pygame.K_DOWN,
             "jump": pygame.K_SPACE}
    return frozenset(name for name, key in names.items() if held[key])


def _live(rebuild, world, title, flags, overlay, bounds=None, size=(1100, 720), control=None):
    pygame, screen = _window(size, f"{title}: {KEYS}")
    canvas = PygameDraw(screen, fit(bounds or world_bounds(world), size), font_size=22)
    clock, paused, ms, grab = pygame.time.Clock(), False, 0.0, None
    while True:
        single = False
        for ev in pygame.event.get():
            key = ev.key if ev.type == pygame.KEYDOWN else None
            if ev.type == pygame.QUIT or key == pygame.K_ESCAPE:
                pygame.quit()
                return None
            if key == pygame.K_SPACE and control is None:  # space is a game key with controls
                paused = not paused
            elif key == pygame.K_p:
                paused = not paused
            elif key == pygame.K_s:
                paused, single = True, True
            elif key == pygame.K_r and rebuild:
                world, grab = rebuild(), None  # the old world's joint goes with it
                canvas.camera = fit(bounds or world_bounds(world), size)
            elif key == pygame.K_c:
                flags ^= DrawFlags.CONTACTS | DrawFlags.CENTERS
            elif key == pygame.K_t:
                flags ^= DrawFlags.TREE
            elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                p = canvas.camera.to_world(ev.pos)
                body = body_at(world, p)
                if body is not None:
                    grab = Grab(world, body, p)
                else:
                    side = 30.0 / canvas.camera.scale  # about 30 pixels, whatever the zoom
                    world.create_body(position=p).add_shape(engine.Polygon.box(side, side))
            elif ev.type == pygame.MOUSEMOTION and grab:
                grab.target = canvas.camera.to_world(ev.pos)
            elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and grab:
                grab.release()
                grab = None
        if grab and not grab.alive:
            grab = None
        if not paused or single:
            t0 = time.perf_counter()
            if control:
                control(world, _held(pygame))
            world.step(DT)  # fixed dt: one step per 60 Hz frame, whatever the frame rate
            ms = 0.9 * ms + 100.0 * (time.perf_counter() - t0)  # smoothed: 0.1 * 1000 * seconds
        screen.fill(BACKGROUND)
        draw_world(world, canvas, flags)
        if grab and not flags & DrawFlags.JOINTS:  # JOINTS draws it already
            canvas.draw_segment(grab.anchor(), grab.target, 0.0, COLORS["mtv"])
        if overlay:
            overlay(canvas, world)
        hud(canvas, status(title, world, ms, "  [paused]" if paused else ""), size[0])
        pygame.display.flip()
        clock.tick(60)


def show(picture, bounds, title, headless=False, out=None, name="picture", width=900):
    """Show a still ``picture(drawer)`` of the world box ``bounds``: a window, or a PNG."""
    size = frame_size(bounds, width)
    cam = fit(bounds, size)
    if headless or not has_display():
        img, canvas = _image(size, cam)
        picture(canvas)
        hud(canvas, title, size[0])
        _progress(1, 1, title)
        return _save([img], out, name)
    pygame, screen = _window(size, f"{title} (any key quits)")
    canvas = PygameDraw(screen, cam, font_size=22)
    screen.fill(BACKGROUND)
    picture(canvas)
    hud(canvas, title, size[0])
    pygame.display.flip()
    while pygame.event.wait().type not in (pygame.QUIT, pygame.KEYDOWN):
        pass
    pygame.quit()
    return None
