"""Debug drawing without a renderer: the engine describes, a *drawer* paints.

:func:`draw_world` walks a world through its public API (``world.bodies``,
``world.positions``, ``world.angles``, each body's shapes) and calls a handful of
primitives on a drawer: a subclass of :class:`DebugDraw` that maps them onto pygame,
pillow, matplotlib or anything else. Everything the drawer receives is in world
coordinates (meters, y up); the drawer owns the camera. Nothing in ``engine/`` imports
a renderer, so the engine stays installable without one.

Colours are ``(r, g, b)`` tuples of ints in 0..255 (see :data:`COLORS`).
"""
import enum
import math

import numpy as np

from .._api import fill_doc
from ..world.body_type import BodyType
from ..collision.collide import collide
from ..geometry.shapes import Circle, Segment
from .joint_draw import draw_joints

__all__ = ["COLORS", "DebugDraw", "DrawFlags", "capsule_outline", "draw_joints", "draw_manifold",
           "draw_shape", "draw_world", "shape_aabb"]

# Box2D's debug palette idea (static green, kinematic blue, dynamic warm), brightened
# to read on a dark background.
COLORS = {
    BodyType.STATIC: (120, 190, 120),
    BodyType.KINEMATIC: (110, 150, 240),
    BodyType.DYNAMIC: (235, 170, 90),
    "aabb": (200, 110, 220),
    "contact": (255, 80, 80),
    "normal": (90, 220, 230),
    "mtv": (255, 230, 60),
    "center": (240, 240, 240),
    "tree": (90, 120, 200),  # internal nodes of the broadphase tree
    "tree_leaf": (150, 150, 170),  # its leaves: one fat box per convex piece
    "text": (230, 230, 230),
    "joint": (80, 200, 200),  # a joint: lines from each body's centre to its anchor
    "asleep": (150, 130, 110),  # a sleeping dynamic body: its colour dimmed
}

# The parameters of draw_text and of PixelDraw.pixel_text, described once (``fill_doc``).
TEXT_PARAMETERS = """\
p : (float, float)
text : str
color : (int, int, int)"""

# Rounded corners are drawn as arcs of at most this angle per chord (radians): 16
# chords per full turn look round at debug-drawing sizes.
_ARC_STEP = math.pi / 8


class DrawFlags(enum.IntFlag):
    """What :func:`draw_world` draws; combine with ``|``.

    Examples
    --------
    >>> flags = DrawFlags.SHAPES | DrawFlags.CENTERS
    >>> DrawFlags.CENTERS in flags, DrawFlags.AABBS in flags
    (True, False)
    """

    NONE = 0
    SHAPES = 1  # every shape, coloured by body type
    AABBS = 2  # each shape's tight bounding box (not the broadphase's fat box)
    CONTACTS = 4  # contact points and normals, recomputed with engine.collide
    CENTERS = 8  # each body's centre of mass
    TREE = 16  # the broadphase's dynamic AABB trees: fat leaf boxes and internal nodes
    JOINTS = 32  # each joint: body centres to anchors, and anchor to anchor
    ALL = 63


class DebugDraw:
    """The drawing primitives a renderer implements; every default does nothing.

    Subclass it and override what your renderer supports: a primitive left out is
    skipped silently, so a drawer that only fills polygons is a valid drawer. All
    points are world coordinates ``(x, y)`` in meters, y up; sizes that are not lengths
    in the world (``draw_point``'s ``size``, arrow heads, text) are the renderer's
    choice, in pixels.

    Examples
    --------
    >>> class Recorder(DebugDraw):
    ...     def __init__(self):
    ...         self.calls = []
    ...     def draw_circle(self, center, radius, angle, color):
    ...         self.calls.append(("circle", center, radius))
    >>> rec = Recorder()
    >>> from engine import Circle
    >>> draw_shape(rec, Circle(0.5), (1.0, 2.0, 0.0), (255, 0, 0))
    >>> rec.calls
    [('circle', (1.0, 2.0), 0.5)]
    """

    def draw_circle(self, center, radius, angle, color):
        """A disc of ``radius`` at ``center``, with a mark showing its rotation ``angle``.

        Parameters
        ----------
        center : (float, float)
        radius : float
            In meters.
        angle : float
            The disc's rotation in radians (a radius line at it shows rolling).
        color : (int, int, int)
        """

    def draw_polygon(self, vertices, color):
        """A filled polygon; ``vertices`` is a (k, 2) array, counter-clockwise, possibly concave.

        Parameters
        ----------
        vertices : (k, 2) numpy.ndarray
        color : (int, int, int)
        """

    def draw_segment(self, a, b, radius, color):
        """A segment from ``a`` to ``b``; a capsule (rounded ends) when ``radius > 0``.

        Parameters
        ----------
        a, b : (float, float)
            The end points.
        radius : float
            The capsule's radius in meters; 0 for a plain segment.
        color : (int, int, int)
        """

    def draw_point(self, p, size, color):
        """A dot of ``size`` pixels at ``p``.

        Parameters
        ----------
        p : (float, float)
        size : float
            Diameter in pixels (not meters).
        color : (int, int, int)
        """

    def draw_arrow(self, p, q, color):
        """An arrow from ``p`` to ``q`` (contact normals, the MTV).

        Parameters
        ----------
        p, q : (float, float)
            Tail and head.
        color : (int, int, int)
        """

    def draw_aabb(self, box, color):
        """The outline of an axis-aligned box ``(min_x, min_y, max_x, max_y)``.

        Parameters
        ----------
        box : (float, float, float, float)
            ``(min_x, min_y, max_x, max_y)`` in meters.
        color : (int, int, int)
        """

    @fill_doc(parameters=TEXT_PARAMETERS)
    def draw_text(self, p, text, color):
        """``text`` with its top-left corner at the world point ``p``.

        Parameters
        ----------
        {parameters}
        """


def _rotate(points, pose):
    """World coordinates of local ``points`` (k, 2) at ``pose`` (x, y, angle)."""
    x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    pts = np.asarray(points, dtype=np.float64)
    return np.column_stack((x + c * pts[:, 0] - s * pts[:, 1], y + s * pts[:, 0] + c * pts[:, 1]))


def _as_pose(pose):
    return (float(pose[0]), float(pose[1]), float(pose[2]) if len(pose) > 2 else 0.0)


def _rounded_outline(v, r):
    """Outline of a convex CCW polygon ``v`` grown by ``r``: its edges pushed out, arcs at corners."""
    e = np.roll(v, -1, axis=0) - v
    n = np.column_stack((e[:, 1], -e[:, 0])) / np.hypot(e[:, 0], e[:, 1])[:, None]
    out = []
    for i in range(len(v)):
        t0 = math.atan2(n[i - 1, 1], n[i - 1, 0])
        span = (math.atan2(n[i, 1], n[i, 0]) - t0) % (2.0 * math.pi)
        k = max(1, math.ceil(span / _ARC_STEP))
        for j in range(k + 1):
            t = t0 + span * j / k
            out.append((v[i, 0] + r * math.cos(t), v[i, 1] + r * math.sin(t)))
    return np.array(out)


def capsule_outline(a, b, radius):
    """Outline of the capsule from ``a`` to ``b`` of ``radius``: a half circle around each end.

    Examples
    --------
    >>> pts = capsule_outline((0, 0), (2, 0), 0.5)
    >>> pts.shape, pts.min(axis=0).round(9).tolist(), pts.max(axis=0).round(9).tolist()
    ((18, 2), [-0.5, -0.5], [2.5, 0.5])
    """
    t = math.atan2(b[1] - a[1], b[0] - a[0])
    n = round(math.pi / _ARC_STEP)
    u = np.linspace(-0.5 * math.pi, 0.5 * math.pi, n + 1) + t
    ends = [(b, u), (a, u + math.pi)]
    return np.vstack([np.column_stack((c[0] + radius * np.cos(v), c[1] + radius * np.sin(v))) for c, v in ends])


def draw_shape(drawer, shape, pose, color):
    """Draw one shape (local coordinates) at ``pose`` with ``drawer``.

    Parameters
    ----------
    drawer : DebugDraw
    shape : Circle, Segment or Polygon
    pose : (x, y, angle) or (x, y)
        Where the shape's local origin is in the world, and its rotation in radians.
    color : (int, int, int)

    Examples
    --------
    >>> from engine import Segment
    >>> class Recorder(DebugDraw):
    ...     def draw_segment(self, a, b, radius, color):
    ...         print(a, b, radius)
    >>> draw_shape(Recorder(), Segment((0, 0), (1, 0), 0.25), (2, 1, 0.0), (0, 0, 0))
    (2.0, 1.0) (3.0, 1.0) 0.25
    """
    pose = _as_pose(pose)
    if isinstance(shape, Circle):
        (cx, cy), = _rotate([shape.center], pose)
        drawer.draw_circle((float(cx), float(cy)), shape.radius, pose[2], color)
    elif isinstance(shape, Segment):
        a, b = _rotate([shape.a, shape.b], pose)
        drawer.draw_segment((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), shape.radius, color)
    else:
        outline = shape.vertices if shape.radius == 0.0 else _rounded_outline(shape.vertices, shape.radius)
        drawer.draw_polygon(_rotate(outline, pose), color)


def shape_aabb(shape, pose):
    """The tight axis-aligned box ``(min_x, min_y, max_x, max_y)`` of ``shape`` at ``pose``.

    Examples
    --------
    >>> from engine import Polygon
    >>> [round(v, 9) for v in shape_aabb(Polygon.box(2, 1), (1, 0, math.pi / 2))]
    [0.5, -1.0, 1.5, 1.0]
    """
    pts = _rotate(np.vstack(shape.pieces), _as_pose(pose))
    r = shape.radius
    lo, hi = pts.min(axis=0) - r, pts.max(axis=0) + r
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def draw_manifold(drawer, manifold, normal_length=None):
    """Draw a :class:`~engine.Manifold`: its points, and either the MTV or its normals.

    Parameters
    ----------
    drawer : DebugDraw
    manifold : Manifold
        From :func:`engine.collide`.
    normal_length : float, optional
        None (default): one arrow, the minimum translation vector at true length,
        from the middle of the contact points (moving shape B along it separates the
        shapes). A length in meters: the unit normal scaled to it at every point,
        readable when depths are millimetres, as in resting contacts.

    Examples
    --------
    >>> from engine import Circle, collide
    >>> class Recorder(DebugDraw):
    ...     def draw_arrow(self, p, q, color):
    ...         print("arrow", p, q)
    >>> draw_manifold(Recorder(), collide(Circle(1), (0, 0), Circle(1), (1.5, 0)))
    arrow (0.75, 0.0) (1.25, 0.0)
    """
    points = manifold.points
    for p in points:
        drawer.draw_point(p, 5, COLORS["contact"])
    nx, ny = manifold.normal
    if normal_length is None:
        mx = sum(p[0] for p in points) / len(points)
        my = sum(p[1] for p in points) / len(points)
        dx, dy = manifold.mtv
        drawer.draw_arrow((mx, my), (mx + dx, my + dy), COLORS["mtv"])
    else:
        for px, py in points:
            drawer.draw_arrow((px, py), (px + normal_length * nx, py + normal_length * ny), COLORS["normal"])


def _contacts(items):
    """Manifolds of overlapping shapes of different bodies, one of them dynamic or kinematic.

    A sweep over the tight boxes sorted by ``min_x`` finds the candidate pairs; each is
    then tested with :func:`engine.collide`. This is a debugging aid that uses only the
    public API, not the solver's own contacts (which the world does not expose yet).
    """
    if len(items) < 2:
        return []
    boxes = np.array([it[3] for it in items])
    order = np.argsort(boxes[:, 0], kind="stable")
    sorted_min_x = boxes[order, 0]
    found = []
    for k, i in enumerate(order):
        # candidates start after i in min_x order and before i's max_x
        end = np.searchsorted(sorted_min_x, boxes[i, 2], side="right")
        js = order[k + 1:end]
        js = js[(boxes[js, 1] <= boxes[i, 3]) & (boxes[js, 3] >= boxes[i, 1])]
        for j in js:
            (ba, ta, sa, _, pa), (bb, tb, sb, _, pb) = items[min(i, j)], items[max(i, j)]
            if ba == bb or (ta == BodyType.STATIC and tb == BodyType.STATIC):
                continue
            m = collide(sa, pa, sb, pb)
            if m is not None:
                found.append(m)
    return found


def draw_world(world, drawer, flags=DrawFlags.SHAPES, normal_length=0.3):
    """Draw ``world`` with ``drawer``: shapes coloured by body type, and optional overlays.

    Parameters
    ----------
    world : World
    drawer : DebugDraw
    flags : DrawFlags
        ``SHAPES`` (default), ``AABBS`` (each shape's tight box; the broadphase's fat
        boxes are not public), ``CONTACTS`` (points and normals of overlapping shapes,
        recomputed with :func:`engine.collide`, so speculative contacts of shapes not
        yet touching are not shown), ``CENTERS`` (centres of mass), ``TREE`` (the
        broadphase trees: each piece's fat box, and the internal nodes above them, as
        of the last step), ``JOINTS`` (each joint: a line from each body's origin
        to its anchor and one between the anchors, which part when the joint
        stretches; a mouse joint from its anchor to its target), or ``ALL``.
    normal_length : float
        Length in meters of the contact normal arrows.

    Examples
    --------
    >>> from engine import World, Polygon
    >>> class Recorder(DebugDraw):
    ...     def draw_polygon(self, vertices, color):
    ...         print(vertices.tolist(), color)
    ...     def draw_point(self, p, size, color):
    ...         print(p, size)
    >>> world = World()
    >>> box = world.create_body("static", position=(0, 1))
    >>> _ = box.add_shape(Polygon.box(2, 2))
    >>> draw_world(world, Recorder(), DrawFlags.SHAPES | DrawFlags.CENTERS)
    [[-1.0, 0.0], [1.0, 0.0], [1.0, 2.0], [-1.0, 2.0]] (120, 190, 120)
    (0.0, 1.0) 4
    """
    flags = DrawFlags(flags)
    # The array views give every pose in one read; the handles are in the same order.
    positions, angles = world.positions, world.angles
    items = []  # (body row, type, shape, box, pose) for the overlays
    for row, body in enumerate(world.bodies):
        pose = (float(positions[row, 0]), float(positions[row, 1]), float(angles[row]))
        kind = body.body_type
        color = COLORS[kind] if kind != BodyType.DYNAMIC or body.awake else COLORS["asleep"]
        for handle in body.shapes:
            if flags & DrawFlags.SHAPES:
                draw_shape(drawer, handle.shape, pose, color)
            if flags & (DrawFlags.AABBS | DrawFlags.CONTACTS):
                items.append((row, kind, handle.shape, shape_aabb(handle.shape, pose), pose))
        if flags & DrawFlags.CENTERS:
            drawer.draw_point(body.world_center_of_mass, 4, COLORS["center"])
    if flags & DrawFlags.AABBS:
        for _, _, _, box, _ in items:
            drawer.draw_aabb(box, COLORS["aabb"])
    if flags & DrawFlags.TREE:
        boxes, heights, _ = world.broadphase_boxes()
        for box, height in zip(boxes.tolist(), heights.tolist()):
            drawer.draw_aabb(box, COLORS["tree_leaf" if height == 0 else "tree"])
    if flags & DrawFlags.CONTACTS:
        for m in _contacts(items):
            draw_manifold(drawer, m, normal_length=normal_length)
    if flags & DrawFlags.JOINTS:
        draw_joints(world, drawer, COLORS["joint"])

