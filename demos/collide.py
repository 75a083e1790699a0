"""Collision detection alone: what ``engine.collide`` tells you about two shapes.

For users who move things themselves and only ask "do these overlap, and how do I push
them apart?". Each panel is one call ``collide(shape_a, pose_a, shape_b, pose_b)`` on
overlapping shapes: A (green), B (orange), the contact points (red), the minimum
translation vector (yellow arrow, true length) and, in grey, B moved by that MTV,
which just touches A. The labels give the depth and the normal (from A to B).
"""
import math

from engine import Circle, Polygon, Segment
from engine import collide
from engine.draw.debug_draw import COLORS, draw_manifold, draw_shape, shape_aabb

from . import _viewer

DESCRIPTION = "the SAT picture: overlapping shape pairs with contact points and MTV (a still image)"

HEXAGON = Polygon([(math.cos(a), math.sin(a)) for a in (k * math.pi / 3 for k in range(6))])
U_SHAPE = Polygon([(-1.5, -1), (1.5, -1), (1.5, 1), (0.7, 1), (0.7, -0.2), (-0.7, -0.2), (-0.7, 1),
                   (-1.5, 1)])
L_SHAPE = Polygon([(-1.5, -1.5), (1.5, -1.5), (1.5, -0.5), (-0.5, -0.5), (-0.5, 1.5), (-1.5, 1.5)])

# (label, shape A, pose A, shape B, pose B), poses relative to the panel's centre
PAIRS = [
    ("box / box", Polygon.box(2.4, 1.2), (0, 0, 0.1), Polygon.box(1.2, 1.2), (1.0, 0.85, 0.6)),
    ("box / circle", Polygon.box(2.0, 2.0), (0, 0, 0.3), Circle(0.8), (1.4, 0.9)),
    ("hexagon / capsule", HEXAGON, (0, 0, 0), Segment((-1.0, 0), (1.0, 0), radius=0.4), (0.7, 1.0, -0.5)),
    ("concave U / box", U_SHAPE, (0, 0, 0), Polygon.box(1.0, 1.0), (0.3, 0.35, 0.3)),
    ("concave L / circle", L_SHAPE, (0, 0, 0), Circle(0.6), (-0.05, -0.05)),
    ("capsule / box", Segment((-1.2, -0.3), (1.2, 0.3), radius=0.5), (0, 0, 0), Polygon.box(1.4, 0.8),
     (0.3, 0.95, -0.25)),
]
COLUMNS, CELL_W, CELL_H = 3, 5.6, 6.0
GHOST = (110, 110, 125)


def _panel_origin(k):
    row, col = divmod(k, COLUMNS)
    return col * CELL_W, -row * CELL_H


def _at(pose, origin):
    return (origin[0] + pose[0], origin[1] + pose[1], pose[2] if len(pose) > 2 else 0.0)


def _outline(drawer, shape, pose, color):
    """Redraw A's edges over B, so the overlap region shows both boundaries."""
    if not isinstance(shape, Polygon):
        return
    x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    pts = [(x + c * u - s * v, y + s * u + c * v) for u, v in shape.vertices.tolist()]
    for p, q in zip(pts, pts[1:] + pts[:1]):
        drawer.draw_segment(p, q, 0.0, color)


def picture(drawer):
    for k, (label, sa, pa, sb, pb) in enumerate(PAIRS):
        o = _panel_origin(k)
        pa, pb = _at(pa, o), _at(pb, o)
        m = collide(sa, pa, sb, pb)
        top, left = o[1] + 2.5, o[0] - 2.5
        drawer.draw_text((left, top), label, COLORS["text"])
        if m is None:  # would mean a bad pose above; say so rather than draw nothing
            drawer.draw_text((left, top - 0.45), "no overlap", COLORS["contact"])
            continue
        dx, dy = m.mtv
        draw_shape(drawer, sb, (pb[0] + dx, pb[1] + dy, pb[2]), GHOST)
        draw_shape(drawer, sa, pa, COLORS[0])  # BodyType.STATIC's green
        draw_shape(drawer, sb, pb, COLORS[2])  # BodyType.DYNAMIC's orange
        _outline(drawer, sa, pa, COLORS[0])
        draw_manifold(drawer, m)
        lines = [(f"depth {m.depth:.3f} m, {len(m.points)} point(s)", COLORS["text"]),
                 (f"normal ({m.normal[0]:+.2f}, {m.normal[1]:+.2f})", COLORS["text"])]
        # Check the MTV's promise, 1 % past it: a concave A can still overlap B there,
        # since the MTV is the deepest convex piece's (B may overlap several pieces).
        after = collide(sa, pa, sb, (pb[0] + 1.01 * dx, pb[1] + 1.01 * dy, pb[2]))
        if after is None:
            lines.append(("B moved by the MTV: apart", GHOST))
        else:
            lines.append((f"B moved by the MTV: overlaps {after.depth:.3f} m", COLORS["contact"]))
            lines.append(("(MTV of the deepest convex piece)", COLORS["contact"]))
        for i, (text, color) in enumerate(lines):
            drawer.draw_text((left, o[1] - 1.75 - 0.38 * i), text, color)


def bounds():
    boxes = []
    for k, (_, sa, pa, sb, pb) in enumerate(PAIRS):
        o = _panel_origin(k)
        boxes += [shape_aabb(sa, _at(pa, o)), shape_aabb(sb, _at(pb, o))]
        boxes.append((o[0] - 2.6, o[1] - 3.3, o[0] + 2.6, o[1] + 2.6))  # room for the labels
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def main(argv=()):
    opts = _viewer.options(argv, "collide", frames=1)
    title = "engine.collide: A green, B orange, contact points red, MTV yellow, grey = B moved by the MTV"
    return _viewer.show(picture, bounds(), title, headless=opts["headless"], out=opts["out"],
                        name="collide", width=1000)


if __name__ == "__main__":
    main()
