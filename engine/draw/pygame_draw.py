"""Debug drawing onto a pygame-ce surface.

pygame is imported when a :class:`PygameDraw` is made, not when this module is
imported, so ``import engine`` and ``import engine.draw.pygame_draw`` work without pygame.
In a game loop::

    drawer = PygameDraw(screen, Camera.fit((-10, -1, 10, 12), screen.get_size()))
    world.debug_draw(drawer)               # or with DrawFlags.ALL for every overlay
"""
from .._api import fill_doc
from .debug_draw import DrawFlags, draw_world
from .pixels import BACKGROUND, Camera, PixelDraw

__all__ = ["Camera", "PygameDraw", "draw_world_pygame"]


# How every example here begins, written once (``fill_doc``).
_PYGAME = """\
Examples
--------
>>> import os; os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"  # no banner; a Surface needs no window
>>> import pygame"""


@fill_doc(examples=_PYGAME)
class PygameDraw(PixelDraw):
    """Draws :class:`~engine.draw.debug_draw.DebugDraw` primitives on a ``pygame.Surface``.

    Parameters
    ----------
    surface : pygame.Surface
        The window (``pygame.display.set_mode(...)``) or any surface.
    camera : Camera, optional
        World to pixels; default 30 pixels per meter with the world origin at the
        surface's centre. Change ``drawer.camera`` at any time to pan or zoom.
    font_size : int
        Height of :meth:`draw_text` labels in pixels.
    background : (int, int, int)
        What fills blend towards: the colour you clear the surface with.

    Attributes
    ----------
    pygame : module
        The ``pygame`` module, imported by the constructor.

    {examples}
    >>> from engine import World, Circle
    >>> world = World()
    >>> world.create_body(position=(0, 0)).add_shape(Circle(1.0)) and None
    >>> surface = pygame.Surface((100, 100))
    >>> world.debug_draw(PygameDraw(surface, Camera(scale=20, screen_center=(50, 50))))
    >>> surface.get_at((50, 50))[:3] != (0, 0, 0), surface.get_at((5, 5))[:3]
    (True, (0, 0, 0))
    """

    def __init__(self, surface, camera=None, font_size=18, background=BACKGROUND):
        import pygame  # here, not at module level: the engine installs without pygame

        w, h = surface.get_size()
        super().__init__(camera if camera is not None else Camera(30.0, (0.0, 0.0), (0.5 * w, 0.5 * h)),
                         background)
        self.pygame, self.surface = pygame, surface
        self.font_size = font_size
        self._font = None

    def pixel_polygon(self, points, fill, outline):
        if len(points) >= 3:
            self.pygame.draw.polygon(self.surface, fill, points)
            self.pygame.draw.polygon(self.surface, outline, points, 1)

    def pixel_disc(self, center, radius, fill, outline):
        self.pygame.draw.circle(self.surface, fill, center, radius)
        self.pygame.draw.circle(self.surface, outline, center, radius, 1)

    def pixel_line(self, a, b, color, width):
        self.pygame.draw.line(self.surface, color, a, b, width)

    def pixel_text(self, p, text, color):
        if self._font is None:  # fonts need pygame.font.init(), which plain surfaces do not
            if not self.pygame.font.get_init():
                self.pygame.font.init()
            self._font = self.pygame.font.Font(None, self.font_size)
        self.surface.blit(self._font.render(text, True, color), p)

    def pixel_rect(self, box, color):
        self.surface.fill(color, (box[0], box[1], box[2] - box[0], box[3] - box[1]))


@fill_doc(examples=_PYGAME)
def draw_world_pygame(world, surface, bounds, flags=DrawFlags.SHAPES, background=BACKGROUND):
    """Clear ``surface`` and draw ``world`` with the world box ``bounds`` fitted to it.

    The one-call version of ``world.debug_draw(PygameDraw(surface, Camera.fit(...)))``.

    Parameters
    ----------
    world : World
    surface : pygame.Surface
    bounds : (min_x, min_y, max_x, max_y)
        World box to show, in meters.
    flags : DrawFlags
    background : (int, int, int)

    Returns
    -------
    PygameDraw
        The drawer used (its ``camera`` maps mouse positions back with ``to_world``).

    {examples}
    >>> from engine import World, Polygon
    >>> world = World()
    >>> world.create_body("static").add_shape(Polygon.box(4, 1, center=(0, -0.5))) and None
    >>> drawer = draw_world_pygame(world, pygame.Surface((80, 40)), (-2, -1, 2, 1))
    >>> [round(v, 6) for v in drawer.camera.to_world((40, 20))]
    [0.0, 0.0]
    """
    surface.fill(background)
    drawer = PygameDraw(surface, Camera.fit(bounds, surface.get_size()), background=background)
    draw_world(world, drawer, flags)
    return drawer
