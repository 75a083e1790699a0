"""Box2D v3's human (``shared/human.c``): a ragdoll of 11 capsule bones and 10 revolute
joints with limits, and its ``rain`` benchmark, where groups of them fall on platforms.

The numbers (bone sizes, pivots, limits, joint friction) are Box2D's, at ``scale`` 1 a
person 1.8 m tall. Box2D's joint friction is a motor of speed 0 whose largest torque is
the friction; the builder does the same.
"""
import functools
import math

from ..geometry.shapes import Polygon, Segment
from ..world.filter import Filter
from .scene import Rig

__all__ = ["HUMAN", "FOOT", "ragdoll", "rain_event", "RagdollRain", "ragdoll_rain"]

PI = math.pi
# name, origin height, capsule (y0, y1, radius), parent, pivot height, limits of the relative
# angle from creation, friction scale, linear damping. Heights are above the feet, in m.
# The elbows: Box2D turns the upper arm's joint frame by pi/4, so its limits (-0.2pi,
# 0.3pi) of the frame angle are (0.05pi, 0.55pi) of the relative angle: a straight arm
# starts 9 degrees outside them and is bent into them.
HUMAN = (
    ("hip", 0.95, (-0.02, 0.02, 0.095), -1, 0.0, None, 1.0, 0.0),
    ("torso", 1.2, (-0.135, 0.135, 0.09), 0, 1.0, (-0.25 * PI, 0.0), 0.5, 0.0),
    ("head", 1.475, (-0.038, 0.039, 0.075), 1, 1.4, (-0.3 * PI, 0.1 * PI), 0.25, 0.1),
    ("upper_left_leg", 0.775, (-0.125, 0.125, 0.06), 0, 0.9, (-0.05 * PI, 0.4 * PI), 1.0, 0.0),
    ("lower_left_leg", 0.475, (-0.155, 0.125, 0.045), 3, 0.625, (-0.5 * PI, -0.02 * PI), 0.5, 0.0),
    ("upper_right_leg", 0.775, (-0.125, 0.125, 0.06), 0, 0.9, (-0.05 * PI, 0.4 * PI), 1.0, 0.0),
    ("lower_right_leg", 0.475, (-0.155, 0.125, 0.045), 5, 0.625, (-0.5 * PI, -0.02 * PI), 0.5, 0.0),
    ("upper_left_arm", 1.225, (-0.125, 0.125, 0.035), 1, 1.35, (-0.1 * PI, 0.8 * PI), 0.5, 0.0),
    ("lower_left_arm", 0.975, (-0.125, 0.125, 0.03), 7, 1.1, (0.05 * PI, 0.55 * PI), 0.1, 0.1),
    ("upper_right_arm", 1.225, (-0.125, 0.125, 0.035), 1, 1.35, (-0.1 * PI, 0.8 * PI), 0.5, 0.0),
    ("lower_right_arm", 0.975, (-0.125, 0.125, 0.03), 9, 1.1, (0.05 * PI, 0.55 * PI), 0.1, 0.1),
)
# The foot on each lower leg (body frame at scale 1), rounded by 0.015 m.
FOOT = ((-0.03, -0.185), (0.11, -0.185), (0.11, -0.16), (-0.03, -0.14))


def ragdoll(world, position, *, scale=1.0, joint_friction=0.05, joint_hertz=0.0,
            joint_damping=0.0, group=1, velocity=(0.0, 0.0)):
    """Add Box2D's human standing with its feet at ``position``: 11 bones, 10 joints.

    Bones are capsules (friction 0.2, density 1) in the order of :data:`HUMAN`: hip,
    torso, head, then each leg (upper, lower) and each arm (upper, lower), left first;
    the lower legs also carry a foot (friction 0.05) that touches only category-1
    shapes. Every shape has category 2, mask 3 and group ``-group``, so the bones of one
    ragdoll never collide with each other. Joint ``k`` joins bone ``k + 1`` to its
    parent with the limits of :data:`HUMAN` and a friction motor (speed 0, torque
    ``joint_friction * scale`` times the bone's friction scale).

    Parameters
    ----------
    world : World
    position : (float, float)
        Where the feet stand, in m.
    scale : float
        1 gives a person 1.8 m tall.
    joint_friction : float
        Box2D's friction torque in N m (its rain uses 0.05, its ragdoll sample 0.03).
    joint_hertz, joint_damping : float
        Springs holding each joint at its angle at creation (0 Hz: limp; Box2D's rain
        uses 5 Hz, 0.5).
    group : int
        > 0: the ragdoll's shapes get group ``-group``.
    velocity : (float, float)
        Initial velocity of every bone, in m/s.

    Returns
    -------
    Rig
        The 11 bodies (order of :data:`HUMAN`) and 10 revolute joints.

    Examples
    --------
    >>> from engine import World
    >>> rig = ragdoll(World(), (0.0, 0.0))
    >>> len(rig.bodies), len(rig.joints), rig.bodies[2].user_data
    (11, 10, 'head')
    >>> rig.bodies[2].position  # the head's centre; its top is 0.114 m higher
    (0.0, 1.475)
    """
    s, (px, py) = scale, position
    shape_filter = Filter(category=2, mask=3, group=-group)
    foot_filter = Filter(category=2, mask=1, group=-group)
    bones, foot = _shapes(s)
    bodies, joints = [], []
    for (name, y, _, parent, pivot, limits, friction, damping), bone in zip(HUMAN, bones):
        body = world.create_body(position=(px, py + s * y), velocity=velocity,
                                 linear_damping=damping)
        body.add_shape(bone, density=1.0, friction=0.2, filter=shape_filter)
        if name.startswith("lower") and name.endswith("leg"):
            body.add_shape(foot, density=1.0, friction=0.05, filter=foot_filter)
        body.user_data = name
        if parent >= 0:
            joints.append(world.create_revolute_joint(
                bodies[parent], body, (px, py + s * pivot), limits=limits,
                max_motor_torque=friction * joint_friction * s, spring_hertz=joint_hertz,
                spring_damping=joint_damping))
        bodies.append(body)
    return Rig(bodies, joints)


@functools.lru_cache(maxsize=8)
def _shapes(scale):
    """The bones' capsules (order of :data:`HUMAN`) and the foot at ``scale``: shapes
    cannot change once made, so every ragdoll of a scale shares them (a rain makes
    hundreds of ragdolls; making 12 shapes took about a tenth of making one)."""
    s = scale
    bones = tuple(Segment((0.0, s * y0), (0.0, s * y1), s * r) for _, _, (y0, y1, r), *_ in HUMAN)
    return bones, Polygon([(s * x, s * y) for x, y in FOOT], radius=0.015 * s)


def rain_event(step, columns):
    """What Box2D's rain does before step ``step``: ``("create", column)``,
    ``("replace", column)`` (destroy that column's ragdolls and drop new ones) or None.

    Every 8th step from step 0 a new column of groups drops; once all ``columns`` are in,
    the oldest column is replaced instead, in turn.

    Examples
    --------
    >>> [rain_event(s, 2) for s in (0, 1, 8, 16, 24, 32)]
    [('create', 0), None, ('create', 1), ('replace', 0), ('replace', 1), ('replace', 0)]
    """
    if step % 8:
        return None
    k = step // 8
    return ("create", k) if k < columns else ("replace", (k - columns) % columns)


class RagdollRain:
    """Box2D's ``rain`` benchmark in a world: platforms, and groups of ragdolls dropped
    on them by :meth:`update` (made by :func:`ragdoll_rain`).

    Attributes
    ----------
    world : World
    rows, columns, group_size : int
        The layout: ``rows`` platforms 45 m apart, each with ``columns`` drop points,
        ``group_size`` ragdolls per drop, 0.5 m apart.
    span : float
        Width of every platform, in m.
    groups : dict
        ``(row, column) -> list of Rig``, the ragdolls of each drop now in the world.
    """

    def __init__(self, world, rows, columns, group_size, span):
        self.world, self.rows, self.columns, self.group_size = world, rows, columns, group_size
        self.span, self.groups = span, {}
        self._drop = None  # a world holding one drop at (0, 0), made on first use

    def drop_template(self):
        """A ``World`` holding one drop's ``group_size`` ragdolls, the first standing at
        (0, 0), each next one 0.5 m to the right, ragdoll ``i`` in collision group
        ``-(i + 1)``: :meth:`update` copies it in (``World.add_copy``), about 14 times
        faster than building each ragdoll call by call."""
        if self._drop is None:
            template = type(self.world)()
            for i in range(self.group_size):
                ragdoll(template, (0.5 * i, 0.0), joint_friction=0.05, joint_hertz=5.0,
                        joint_damping=0.5, group=i + 1)
            self._drop = template
        return self._drop

    def origin(self, row, column):
        """Where the first ragdoll of a drop stands at its creation, in m.

        Parameters
        ----------
        row, column : int
            The platform (0 lowest) and the drop point on it (0 leftmost).
        """
        gap = self.span / self.columns
        return (-0.5 * self.span + gap * (column + 0.5), 40.0 + 45.0 * row)

    def update(self, step):
        """Drop or replace a column as :func:`rain_event` says for ``step``.

        Parameters
        ----------
        step : int
            The number of the step about to be taken: call it before each
            ``world.step`` with 0, 1, 2, ...
        """
        event = rain_event(step, self.columns)
        if event is None:
            return
        kind, column = event
        for row in range(self.rows):
            if kind == "replace":  # the drop's ragdolls in one call: the rows left move once
                self.world.destroy_bodies(
                    [body for rig in self.groups.pop((row, column), []) for body in rig.bodies])
            bodies, joints = self.world.add_copy(self.drop_template(), self.origin(row, column))
            self.groups[(row, column)] = [
                Rig(bodies[11 * i:11 * (i + 1)], joints[10 * i:10 * (i + 1)])
                for i in range(self.group_size)]

    @property
    def ragdoll_count(self):
        """Ragdolls now in the world."""
        return sum(len(g) for g in self.groups.values())


def ragdoll_rain(world, rows=5, columns=40, group_size=5, grid_count=500, grid_size=0.5):
    """Box2D v3's ``rain`` benchmark: ``rows`` platforms of ``grid_count + 1`` boxes, and
    up to ``rows * columns * group_size`` ragdolls dropped on them over time.

    Box2D's sizes are the defaults (1000 ragdolls, 11,000 bodies, platforms 250 m wide
    at heights 0, 45, ..., 180 m; a drop starts 40 m above its platform). The ragdolls
    use Box2D's rain settings: joint friction 0.05, joint springs 5 Hz, 0.5; ragdoll
    ``i`` of a group is in collision group ``-(i + 1)``, as in Box2D. Call
    ``rain.update(step)`` before each step.

    Parameters
    ----------
    world : World
    rows, columns, group_size : int
        Platforms, drop points per platform, ragdolls per drop.
    grid_count : int
        Boxes per platform, less one.
    grid_size : float
        Side of every platform box, in m.

    Returns
    -------
    RagdollRain

    Examples
    --------
    >>> from engine import World
    >>> world = World()
    >>> rain = ragdoll_rain(world, rows=1, columns=2, group_size=2, grid_count=20)
    >>> for step in range(9):
    ...     rain.update(step)
    ...     world.step(1 / 60)
    >>> rain.ragdoll_count, len(world.bodies), len(world.joints)
    (4, 45, 40)
    """
    ground = world.create_body("static")
    ground.user_data = "ground"
    box = grid_size
    for row in range(rows):
        x = -0.5 * grid_count * grid_size
        for _ in range(grid_count + 1):
            ground.add_shape(Polygon.box(box, box, center=(x, 45.0 * row)), friction=0.6)
            x += grid_size
    return RagdollRain(world, rows, columns, group_size, grid_count * grid_size)
