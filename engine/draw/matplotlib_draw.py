"""Debug drawing onto a matplotlib ``Axes``, in world coordinates.

matplotlib is imported when a :class:`MatplotlibDraw` is made, not when this module is
imported, so ``import engine`` never loads it. The axes' data coordinates are the
world's meters (y up, as in matplotlib), so no camera is needed: set the limits, or
let :func:`plot_world` fit them. For a script without a display, choose the Agg backend
(``matplotlib.use("Agg")``) before making figures.
"""
import math

from .._api import fill_doc
from .debug_draw import DebugDraw, DrawFlags, capsule_outline, draw_world
from .pixels import BACKGROUND

__all__ = ["MatplotlibDraw", "plot_world"]


# How every example here begins, written once (``fill_doc``).
_PYPLOT = """\
Examples
--------
>>> import matplotlib; matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt"""


def _rgb(color):
    return tuple(c / 255.0 for c in color)


@fill_doc(examples=_PYPLOT)
class MatplotlibDraw(DebugDraw):
    """Adds one artist per primitive to ``ax`` (patches, lines, text).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    alpha : float
        Opacity of the fills; outlines are opaque.

    {examples}
    >>> from engine import World, Circle
    >>> world = World()
    >>> world.create_body(position=(2, 1)).add_shape(Circle(0.5)) and None
    >>> fig, ax = plt.subplots()
    >>> world.debug_draw(MatplotlibDraw(ax))
    >>> len(ax.patches), [round(float(v), 6) for v in ax.dataLim.bounds]
    (1, [1.5, 0.5, 1.0, 1.0])
    >>> plt.close(fig)
    """

    def __init__(self, ax, alpha=0.45):
        from matplotlib import patches  # here: the engine installs without matplotlib

        self.ax, self.alpha, self._patches = ax, alpha, patches

    def _patch(self, patch):
        self.ax.add_patch(patch)  # add_patch grows the data limits, so autoscale sees it

    def draw_polygon(self, vertices, color):
        c = _rgb(color)
        self._patch(self._patches.Polygon(vertices, closed=True, facecolor=(*c, self.alpha), edgecolor=c,
                                          linewidth=1.0))

    def draw_circle(self, center, radius, angle, color):
        c = _rgb(color)
        self._patch(self._patches.Circle(center, radius, facecolor=(*c, self.alpha), edgecolor=c, linewidth=1.0))
        # the radius line shows rotation
        rim = (center[0] + radius * math.cos(angle), center[1] + radius * math.sin(angle))
        self.ax.plot([center[0], rim[0]], [center[1], rim[1]], color=c, linewidth=1.0)

    def draw_segment(self, a, b, radius, color):
        if radius > 0.0:
            self.draw_polygon(capsule_outline(a, b, radius), color)
        else:
            self.ax.plot([a[0], b[0]], [a[1], b[1]], color=_rgb(color), linewidth=1.5)

    def draw_point(self, p, size, color):
        self.ax.plot([p[0]], [p[1]], "o", color=_rgb(color), markersize=0.75 * size)

    def draw_arrow(self, p, q, color):
        self.ax.annotate("", xy=q, xytext=p, arrowprops=dict(arrowstyle="->", color=_rgb(color), lw=1.5))

    def draw_aabb(self, box, color):
        x0, y0, x1, y1 = box
        self._patch(self._patches.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor=_rgb(color),
                                            linewidth=0.8))

    def draw_text(self, p, text, color):
        self.ax.text(p[0], p[1], text, color=_rgb(color), va="top", ha="left", fontsize=8)


@fill_doc(examples=_PYPLOT)
def plot_world(world, ax=None, flags=DrawFlags.SHAPES, margin=0.05, background=BACKGROUND):
    """Draw ``world`` on ``ax`` (a new figure's axes by default), equal scales, fitted.

    Parameters
    ----------
    world : World
    ax : matplotlib.axes.Axes, optional
    flags : DrawFlags
    margin : float
        Space around the drawing, as a fraction of its size.
    background : (int, int, int) or None
        The axes' face colour: by default the demos' dark grey, which the debug colours
        are chosen to read on (the white of centres of mass vanishes on white). None
        keeps the axes' own.

    Returns
    -------
    matplotlib.axes.Axes

    {examples}
    >>> from engine import World, Polygon
    >>> world = World()
    >>> world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5))) and None
    >>> ax = plot_world(world, margin=0.0)
    >>> [float(v) for v in ax.get_xlim()], ax.get_aspect()
    ([-5.0, 5.0], 1.0)
    >>> plt.close(ax.figure)
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    draw_world(world, MatplotlibDraw(ax), flags)
    if background is not None:
        ax.set_facecolor(_rgb(background))
    ax.set_aspect("equal")
    ax.margins(margin)
    ax.autoscale_view()
    return ax
