"""One body on a static surface, to check a material: friction on a ramp, restitution in a drop."""
import math

from ..geometry.shapes import Circle, Polygon
from .scene import Scene, add_ground

__all__ = ["friction_ramp", "restitution_drop"]


def friction_ramp(slope, friction, size=1.0, length=40.0):
    """A box resting on a static ramp inclined by ``slope`` radians; both have ``friction``.

    The box starts in exact contact with the ramp surface, at rest. With Box2D mixing
    the contact friction is ``friction`` (sqrt(f * f)). The ramp (tag ``"ramp"``) turns
    about the origin, the middle of its top face, where the box's bottom face is centred.

    Parameters
    ----------
    slope : float
        Inclination of the ramp and the box, in radians, counter-clockwise.
    friction : float
        Friction coefficient of the box and the ramp.
    size : float
        Side of the box, in meters.
    length : float
        Length of the ramp, in meters (1 m thick).

    Examples
    --------
    >>> ramp, box = friction_ramp(0.0, 0.5).bodies
    >>> ramp.tag, box.tag, box.position, box.shapes[0][2]
    ('ramp', 'box', (0.0, 0.5), 0.5)
    """
    scene = Scene("ramp")
    c, s = math.cos(slope), math.sin(slope)
    scene.add("static", (0.0, 0.0), [(Polygon.box(length, 1.0, center=(0.0, -0.5)), 1.0, friction, 0.0)],
              angle=slope, tag="ramp")
    # box centre half a size above the surface, in the ramp frame, rotated into the world
    x, y = 0.0, 0.5 * size
    scene.add("dynamic", (c * x - s * y, s * x + c * y), [(Polygon.box(size, size), 1.0, friction, 0.0)],
              angle=slope, tag="box")
    return scene


def restitution_drop(restitution, height=5.0, radius=0.25):
    """A ball dropped from ``height`` (its lowest point) onto the ground; both have ``restitution``.

    The ground (tag ``"ground"``, 10 m wide) has its top face at y = 0; the ball is tagged ``"ball"``.

    Parameters
    ----------
    restitution : float
        Restitution of the ball and the ground (0: no bounce, 1: elastic).
    height : float
        Initial height of the ball's lowest point above the ground, in meters.
    radius : float
        Radius of the ball, in meters.

    Examples
    --------
    >>> ground, ball = restitution_drop(0.5).bodies
    >>> ball.position, ground.shapes[0][3], ball.shapes[0][3]
    ((0.0, 5.25), 0.5, 0.5)
    """
    scene = Scene("restitution")
    add_ground(scene, 10.0)
    scene.bodies[0].shapes = [(s, d, f, restitution) for s, d, f, _ in scene.bodies[0].shapes]
    scene.add("dynamic", (0.0, height + radius), [(Circle(radius), 1.0, 0.6, restitution)], tag="ball")
    return scene
