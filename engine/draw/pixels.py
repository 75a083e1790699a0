"""World meters to screen pixels: the camera and drawer base shared by raster adapters.

:class:`Camera` maps world points (meters, y up) to pixels (y down) and back.
:class:`PixelDraw` turns the :class:`~engine.draw.debug_draw.DebugDraw` primitives into five
pixel-space operations (filled polygon, disc, line, text, rectangle), so a raster
backend (pygame in :mod:`engine.draw.pygame_draw`, pillow in the demos' viewer) only
implements those five. This module imports no renderer.
"""
import math

import numpy as np

from .._api import fill_doc
from .debug_draw import TEXT_PARAMETERS, DebugDraw, capsule_outline

__all__ = ["BACKGROUND", "Camera", "PixelDraw", "fill_color"]

BACKGROUND = (24, 26, 32)


def fill_color(color, background=BACKGROUND):
    """The fill drawn inside an outline of ``color``: 45 % of it over ``background``.

    Translucent-looking fills keep the outlines of touching bodies readable.

    Examples
    --------
    >>> fill_color((255, 255, 255), (0, 0, 0))
    (114, 114, 114)
    """
    return tuple(int(0.45 * c + 0.55 * b) for c, b in zip(color, background))


class Camera:
    """World (meters, y up) to pixels (x right, y down).

    Parameters
    ----------
    scale : float
        Pixels per meter.
    center : (float, float)
        The world point shown at ``screen_center``.
    screen_center : (float, float)
        Pixel where ``center`` appears, usually the middle of the surface.

    Attributes
    ----------
    cx, cy : float
        The world point shown at pixel ``(ox, oy)`` (``center``); change them to pan.
    ox, oy : float
        ``screen_center`` in pixels.

    Examples
    --------
    >>> cam = Camera(scale=10, center=(0, 0), screen_center=(320, 240))
    >>> cam.to_pixels((1, 2))
    (330.0, 220.0)
    >>> cam.to_world((330, 220))
    (1.0, 2.0)
    """

    def __init__(self, scale=30.0, center=(0.0, 0.0), screen_center=(400.0, 300.0)):
        if not (math.isfinite(scale) and scale > 0):
            raise ValueError(f"scale must be a finite number > 0, got {scale!r}")
        self.scale = float(scale)
        self.cx, self.cy = (float(v) for v in center)
        self.ox, self.oy = (float(v) for v in screen_center)

    @classmethod
    def fit(cls, bounds, size, margin=0.05, top=0):
        """The camera showing the world box ``bounds`` whole and centred in ``size`` pixels.

        Parameters
        ----------
        bounds : (min_x, min_y, max_x, max_y)
            World box to show, in meters.
        size : (int, int)
            Surface width and height in pixels.
        margin : float
            Free space on every side, as a fraction of the larger world extent.
        top : int
            Pixels kept free at the top (for a status line).

        Examples
        --------
        >>> cam = Camera.fit((-5, 0, 5, 5), (200, 100), margin=0.0)
        >>> cam.scale, cam.to_pixels((-5, 0)), cam.to_pixels((5, 5))
        (20.0, (0.0, 100.0), (200.0, 0.0))
        """
        x0, y0, x1, y1 = (float(v) for v in bounds)
        pad = margin * max(x1 - x0, y1 - y0, 1e-3)
        w, h = size
        scale = min(w / max(x1 - x0 + 2 * pad, 1e-3), (h - top) / max(y1 - y0 + 2 * pad, 1e-3))
        return cls(scale, (0.5 * (x0 + x1), 0.5 * (y0 + y1)), (0.5 * w, top + 0.5 * (h - top)))

    def to_pixels(self, p):
        """Pixel ``(x, y)`` of the world point ``p``.

        Parameters
        ----------
        p : (float, float)
            World point in meters.
        """
        return (self.ox + (p[0] - self.cx) * self.scale, self.oy - (p[1] - self.cy) * self.scale)

    def to_pixels_many(self, points):
        """Pixels of a (k, 2) array of world points, as a list of ``(x, y)`` tuples.

        Parameters
        ----------
        points : array_like, shape (k, 2)
            World points in meters.

        Examples
        --------
        >>> Camera(2, (0, 0), (0, 0)).to_pixels_many([(1, 1), (2, 0)])
        [(2.0, -2.0), (4.0, 0.0)]
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        xs = self.ox + (pts[:, 0] - self.cx) * self.scale
        ys = self.oy - (pts[:, 1] - self.cy) * self.scale
        return list(zip(xs.tolist(), ys.tolist()))

    def to_world(self, q):
        """World point under the pixel ``q`` (for mouse input).

        Parameters
        ----------
        q : (float, float)
            Pixel, y down (a mouse position).

        Examples
        --------
        >>> Camera(10, (0, 0), (0, 0)).to_world((10, -20))
        (1.0, 2.0)
        """
        return ((q[0] - self.ox) / self.scale + self.cx, (self.oy - q[1]) / self.scale + self.cy)


class PixelDraw(DebugDraw):
    """A :class:`DebugDraw` whose primitives become pixel operations through ``camera``.

    Subclasses implement :meth:`pixel_polygon`, :meth:`pixel_disc`, :meth:`pixel_line`,
    :meth:`pixel_text` and :meth:`pixel_rect`, all in pixel coordinates.

    Examples
    --------
    >>> class Log(PixelDraw):
    ...     def pixel_disc(self, c, r, fill, outline):
    ...         print("disc", c, r)
    ...     def pixel_line(self, a, b, color, width):
    ...         print("line", a, b)
    >>> Log(Camera(10, (0, 0), (50, 50))).draw_circle((1, 0), 0.5, 0.0, (255, 0, 0))
    disc (60.0, 50.0) 5.0
    line (60.0, 50.0) (65.0, 50.0)
    """

    def __init__(self, camera, background=BACKGROUND):
        self.camera = camera
        self.background = background

    # -- the backend's five operations, in pixels --------------------------------------
    def pixel_polygon(self, points, fill, outline):
        """Fill the pixel polygon ``points`` with ``fill`` and outline it with ``outline``.

        Parameters
        ----------
        points : list of (float, float)
            Pixels, in order (at least 3 for a visible polygon).
        fill, outline : (int, int, int)
        """

    def pixel_disc(self, center, radius, fill, outline):
        """A filled, outlined disc of ``radius`` pixels.

        Parameters
        ----------
        center : (float, float)
            Pixel.
        radius : float
            In pixels.
        fill, outline : (int, int, int)
        """

    def pixel_line(self, a, b, color, width):
        """A line ``width`` pixels wide.

        Parameters
        ----------
        a, b : (float, float)
            End pixels.
        color : (int, int, int)
        width : int
            In pixels.
        """

    @fill_doc(parameters=TEXT_PARAMETERS)
    def pixel_text(self, p, text, color):
        """``text`` with its top-left corner at pixel ``p``.

        Parameters
        ----------
        {parameters}
        """

    def pixel_rect(self, box, color):
        """Fill the pixel rectangle ``(x0, y0, x1, y1)``.

        Parameters
        ----------
        box : (float, float, float, float)
            ``(x0, y0, x1, y1)`` in pixels, x0 <= x1 and y0 <= y1.
        color : (int, int, int)
        """

    # -- DebugDraw ----------------------------------------------------------------------
    def draw_polygon(self, vertices, color):
        self.pixel_polygon(self.camera.to_pixels_many(vertices), fill_color(color, self.background), color)

    def draw_circle(self, center, radius, angle, color):
        cam = self.camera
        c = cam.to_pixels(center)
        self.pixel_disc(c, max(radius * cam.scale, 1.0), fill_color(color, self.background), color)
        # the radius line shows rotation: rolling balls look rolling
        rim = (center[0] + radius * math.cos(angle), center[1] + radius * math.sin(angle))
        self.pixel_line(c, cam.to_pixels(rim), color, 1)

    def draw_segment(self, a, b, radius, color):
        if radius * self.camera.scale < 1.0:
            self.pixel_line(self.camera.to_pixels(a), self.camera.to_pixels(b), color, 2)
        else:
            self.draw_polygon(capsule_outline(a, b, radius), color)

    def draw_point(self, p, size, color):
        self.pixel_disc(self.camera.to_pixels(p), 0.5 * size, color, color)

    def draw_arrow(self, p, q, color):
        a, b = self.camera.to_pixels(p), self.camera.to_pixels(q)
        self.pixel_line(a, b, color, 2)
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length < 1.0:
            return
        head = min(9.0, 0.5 * length)
        t = math.atan2(b[1] - a[1], b[0] - a[0])
        for side in (-0.45, 0.45):
            self.pixel_line(b, (b[0] - head * math.cos(t + side), b[1] - head * math.sin(t + side)), color, 2)

    def draw_aabb(self, box, color):
        x0, y0, x1, y1 = box
        pts = self.camera.to_pixels_many([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
        for a, b in zip(pts, pts[1:]):
            self.pixel_line(a, b, color, 1)

    def draw_text(self, p, text, color):
        self.pixel_text(self.camera.to_pixels(p), text, color)
