"""Bodies hung and linked by joints: a chain bridge, a hanging chain, Newton's cradle on
strings, a double pendulum, and Box2D v3's ``joint_grid`` benchmark."""
import math

from ..geometry.shapes import Circle, Polygon, Segment
from ..world.filter import ALL_BITS, Filter
from .scene import Rig

__all__ = ["catenary_sag", "bridge", "chain", "newtons_cradle", "double_pendulum", "joint_grid"]


def _bisect(f, lo, hi, steps=200):
    """The root of the increasing ``f`` between ``lo`` and ``hi``."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if f(mid) < 0.0 else (lo, mid)
    return 0.5 * (lo + hi)


def catenary_sag(length, span):
    """Sag of a uniform chain of ``length`` hung between two supports ``span`` apart at one
    height: ``a (cosh(span / 2a) - 1)`` with ``length = 2 a sinh(span / 2a)``.

    Parameters
    ----------
    length, span : float
        In m, ``length > span > 0``.

    Examples
    --------
    >>> round(catenary_sag(20.0, 18.0), 4)
    3.8142
    """
    if not length > span > 0.0:
        raise ValueError(f"need length > span > 0, got {length}, {span}")
    # 2 a sinh(D / 2a) falls from +inf to D as a grows: bisect on log a
    excess = lambda t: length - 2.0 * math.exp(t) * math.sinh(0.5 * span / math.exp(t))  # noqa: E731
    a = math.exp(_bisect(excess, math.log(span) - 8.0, math.log(span) + 12.0))
    return a * (math.cosh(0.5 * span / a) - 1.0)


def _hanging_angles(n, length, span):
    """Plank angles of a chain of ``n`` uniform planks of ``length`` hanging between
    supports ``span`` apart: its exact statics, ``tan(theta_k) = (k + 1/2 - n/2) c``."""
    def width(c):
        return sum(length / math.sqrt(1.0 + ((k + 0.5 - 0.5 * n) * c) ** 2) for k in range(n))
    c = _bisect(lambda c: span - width(c), 0.0, 1e6)
    return [math.atan((k + 0.5 - 0.5 * n) * c) for k in range(n)]


def bridge(world, planks=40, plank_length=0.5, span=18.0, height=10.0, density=20.0):
    """A chain bridge: ``planks`` boxes pinned end to end by revolute joints, its two ends
    pinned to a static body at ``(-span / 2, height)`` and ``(span / 2, height)``.

    The planks (``plank_length`` x 0.125 m, friction 0.6) start where a chain of them
    rests, on the discrete catenary, so the bridge settles at once; what it sags beyond
    that is the joints giving way. Compare the middle joint's height with
    :func:`catenary_sag` (``planks * plank_length``, ``span``).

    Parameters
    ----------
    world : World
    planks : int
        Number of planks (even: a joint sits at the middle).
    plank_length : float
        In m; ``planks * plank_length`` must exceed ``span``.
    span : float
        Distance between the two supports, in m.
    height : float
        Height of the supports, in m.
    density : float
        Of the planks, in kg/m^2.

    Returns
    -------
    Rig
        Bodies: the static supports, then the planks from left to right. Joints: from
        left to right, ``planks + 1`` of them.

    Examples
    --------
    >>> from engine import World
    >>> rig = bridge(World(), planks=4, plank_length=1.0, span=3.0)
    >>> len(rig.bodies), len(rig.joints), rig.joints[0].anchor_a
    (5, 5, (-1.5, 10.0))
    >>> [round(j.anchor_b[1], 3) for j in rig.joints]
    [10.0, 9.193, 8.778, 9.193, 10.0]
    """
    if planks * plank_length <= span:
        raise ValueError(f"{planks} planks of {plank_length} m cannot hang across {span} m")
    ground = world.create_body("static", position=(0.0, height))
    ground.user_data = "supports"
    for side in (-1.0, 1.0):
        ground.add_shape(Polygon.box(0.4, 0.4, center=(side * (0.5 * span + 0.2), 0.0)))
    bodies, joints = [ground], []
    x, y = -0.5 * span, height
    for theta in _hanging_angles(planks, plank_length, span):
        dx, dy = plank_length * math.cos(theta), plank_length * math.sin(theta)
        plank = world.create_body(position=(x + 0.5 * dx, y + 0.5 * dy), angle=theta)
        plank.add_shape(Polygon.box(plank_length, 0.125), density=density, friction=0.6)
        joints.append(world.create_revolute_joint(bodies[-1], plank, (x, y)))
        bodies.append(plank)
        x, y = x + dx, y + dy
    joints.append(world.create_revolute_joint(bodies[-1], ground, (0.5 * span, height)))
    return Rig(bodies, joints)


def chain(world, links=20, link_length=0.5, top=(0.0, 12.0), density=20.0):
    """A chain of ``links`` capsules pinned end to end, hanging from a static pin at
    ``top``; it starts straight out to the right, so it swings down.

    Parameters
    ----------
    world : World
    links : int
    link_length : float
        Distance between a link's two joints, in m (capsules of radius 0.125 m).
    top : (float, float)
        The pin, in m.
    density : float
        Of the links, in kg/m^2.

    Returns
    -------
    Rig
        Bodies: the static pin, then the links from the top. Joints: from the top.

    Examples
    --------
    >>> from engine import World
    >>> rig = chain(World(), links=3)
    >>> len(rig.bodies), [j.anchor_a for j in rig.joints]
    (4, [(0.0, 12.0), (0.5, 12.0), (1.0, 12.0)])
    """
    pin = world.create_body("static", position=top)
    pin.user_data = "pin"
    pin.add_shape(Circle(0.1))
    capsule = Segment((-0.5 * link_length, 0.0), (0.5 * link_length, 0.0), 0.125)
    bodies, joints = [pin], []
    for k in range(links):
        link = world.create_body(position=(top[0] + (k + 0.5) * link_length, top[1]))
        link.add_shape(capsule, density=density, friction=0.6)
        joints.append(world.create_revolute_joint(bodies[-1], link, (top[0] + k * link_length, top[1])))
        bodies.append(link)
    return Rig(bodies, joints)


def newtons_cradle(world, balls=5, radius=0.25, length=2.0, lift=0.6, top=(0.0, 4.0)):
    """Newton's cradle on strings: ``balls`` touching balls, each hung on a rigid distance
    joint of ``length`` from a static bar; the first is lifted ``lift`` radians to the
    left and let go. Every material has restitution 1 and friction 0.

    Parameters
    ----------
    world : World
    balls : int
    radius : float
        Of every ball, in m; neighbours touch (centres ``2 * radius`` apart).
    length : float
        Of the strings, bar to ball centre, in m.
    lift : float
        The first ball's starting angle from the vertical, in rad.
    top : (float, float)
        Where the first string hangs from, in m.

    Returns
    -------
    Rig
        Bodies: the bar, then the balls from the left. Joints: the strings, same order.

    Examples
    --------
    >>> from engine import World
    >>> rig = newtons_cradle(World(), balls=3, lift=0.0)
    >>> [b.position for b in rig.bodies[1:]]
    [(0.0, 2.0), (0.5, 2.0), (1.0, 2.0)]
    """
    bar = world.create_body("static", position=top)
    bar.user_data = "bar"
    width = 2.0 * radius * (balls - 1)
    bar.add_shape(Polygon.box(width + 1.0, 0.1, center=(0.5 * width, 0.1)), restitution=1.0, friction=0.0)
    bodies, joints = [bar], []
    for k in range(balls):
        hook = (top[0] + 2.0 * radius * k, top[1])
        angle = lift if k == 0 else 0.0
        at = (hook[0] - length * math.sin(angle), hook[1] - length * math.cos(angle))
        ball = world.create_body(position=at)
        ball.add_shape(Circle(radius), density=1.0, friction=0.0, restitution=1.0)
        joints.append(world.create_distance_joint(bar, ball, hook, at))
        bodies.append(ball)
    return Rig(bodies, joints)


def double_pendulum(world, length=1.0, top=(0.0, 3.0), angles=(math.pi / 2, math.pi / 2)):
    """Two thin bars of ``length`` (0.05 m thick), the first pinned to a static body at
    ``top``, the second pinned to the first's end; ``angles`` are their starting angles
    from hanging straight down, counter-clockwise (the default: both straight out to the
    right). Chaotic, and with no friction its energy stays what it was.

    Parameters
    ----------
    world : World
    length : float
        Of each bar, in m.
    top : (float, float)
        The upper pin, in m.
    angles : (float, float)
        In rad, from the downward vertical.

    Returns
    -------
    Rig
        Bodies: the static pin, the upper bar, the lower bar. Joints: upper, lower.

    Examples
    --------
    >>> from engine import World
    >>> rig = double_pendulum(World())
    >>> [b.position for b in rig.bodies[1:]], rig.joints[1].anchor_a
    ([(0.5, 3.0), (1.5, 3.0)], (1.0, 3.0))
    """
    pin = world.create_body("static", position=top)
    pin.user_data = "pin"
    bodies, joints = [pin], []
    x, y = top
    for theta in angles:
        ux, uy = math.sin(theta), -math.cos(theta)
        bar = world.create_body(position=(x + 0.5 * length * ux, y + 0.5 * length * uy),
                                angle=theta - 0.5 * math.pi)
        bar.add_shape(Polygon.box(length, 0.05), density=1.0)
        joints.append(world.create_revolute_joint(bodies[-1], bar, (x, y)))
        bodies.append(bar)
        x, y = x + length * ux, y + length * uy
    return Rig(bodies, joints)


def joint_grid(world, n=100):
    """Box2D v3's ``joint_grid`` benchmark: ``n`` x ``n`` balls (radius 0.4 m) 1 m apart,
    each pinned to its lower and right neighbours at the midpoint between them by a
    revolute joint (``2 n (n - 1)`` joints, 19,800 at n = 100); the 7 balls in the middle
    of the top row are static, and the balls do not collide with each other.

    Ball ``(k, i)`` (column ``k``, row ``i`` from the top) is at ``(k, -i)``; the bodies
    are made column by column, top to bottom, as in Box2D.

    Parameters
    ----------
    world : World
    n : int
        Balls per row and per column.

    Returns
    -------
    Rig
        The ``n * n`` bodies (index ``k * n + i``) and the joints in creation order.

    Examples
    --------
    >>> from engine import World
    >>> rig = joint_grid(World(), n=10)
    >>> len(rig.bodies), len(rig.joints), sum(b.body_type.name == "STATIC" for b in rig.bodies)
    (100, 180, 7)
    """
    ball = Circle(0.4)
    no_self = Filter(category=2, mask=ALL_BITS & ~2)
    bodies, joints = [], []
    for k in range(n):
        for i in range(n):
            static = i == 0 and n // 2 - 3 <= k <= n // 2 + 3
            body = world.create_body("static" if static else "dynamic", position=(float(k), float(-i)))
            body.add_shape(ball, density=1.0, filter=no_self)
            if i > 0:
                joints.append(world.create_revolute_joint(bodies[-1], body, (k, 0.5 - i)))
            if k > 0:
                joints.append(world.create_revolute_joint(bodies[-n], body, (k - 0.5, -i)))
            bodies.append(body)
    return Rig(bodies, joints)
