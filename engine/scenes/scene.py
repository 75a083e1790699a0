"""The scene as data: :class:`Scene`, :class:`BodySpec`, and the flat ground most builders share."""
import dataclasses
import itertools
from typing import NamedTuple

from ..geometry.shapes import Polygon
from ..world.world import World

__all__ = ["BodySpec", "Rig", "Scene", "add_ground"]


class Rig(NamedTuple):
    """What a builder that adds bodies and joints to a world returns.

    Attributes
    ----------
    bodies : list of Body
        The bodies it created, in the builder's documented order.
    joints : list of Joint
        The joints it created, in the builder's documented order.

    Examples
    --------
    >>> Rig([], []).joints
    []
    """

    bodies: list
    joints: list


@dataclasses.dataclass
class BodySpec:
    """One body: its type, pose, velocity, and ``(shape, density, friction, restitution)`` list.

    Attributes
    ----------
    body_type : {"dynamic", "kinematic", "static"}
        How the body moves, as :meth:`engine.World.create_body` takes it.
    position : (float, float)
        Origin of the body frame in the world, in meters.
    angle : float
        Rotation in radians, counter-clockwise.
    velocity : (float, float)
        Initial velocity of the centre of mass in m/s.
    angular_velocity : float
        Initial angular velocity in rad/s, counter-clockwise.
    shapes : list of (Shape, float, float, float)
        ``(shape, density in kg/m^2, friction coefficient, restitution)`` per shape, in body coordinates.
    tag : str
        A label (``"ground"``, ``"ball"``, ...) that becomes the body's ``user_data``; ``""`` gives None.
    awake : bool
        False: the body starts asleep in a world with sleeping on (Box2D's ``isAwake``).

    Examples
    --------
    >>> from engine import Circle
    >>> spec = BodySpec("dynamic", (0.0, 2.0), shapes=[(Circle(0.5), 1.0, 0.6, 0.0)], tag="ball")
    >>> spec.angle, spec.velocity, spec.tag
    (0.0, (0.0, 0.0), 'ball')
    """

    body_type: str
    position: tuple
    angle: float = 0.0
    velocity: tuple = (0.0, 0.0)
    angular_velocity: float = 0.0
    shapes: list = dataclasses.field(default_factory=list)
    tag: str = ""
    awake: bool = True


@dataclasses.dataclass
class Scene:
    """A scene as data: ``gravity`` and ``bodies`` (a list of :class:`BodySpec`).

    Attributes
    ----------
    name : str
        A short name with the scene's size, e.g. ``"pyramid20"`` (used by the benchmarks' reports).
    gravity : (float, float)
        Acceleration in m/s^2 of the world :meth:`build` creates.
    bodies : list of BodySpec
        The bodies in creation order (the order of the handles :meth:`build` returns).

    Examples
    --------
    >>> from engine import Circle
    >>> scene = Scene("one ball", gravity=(0.0, -9.81))
    >>> ball = scene.add("dynamic", (0, 3), [(Circle(0.25), 1.0, 0.6, 0.5)], tag="ball")
    >>> ball.position, len(scene.bodies)
    ((0, 3), 1)
    """

    name: str
    gravity: tuple = (0.0, -10.0)
    bodies: list = dataclasses.field(default_factory=list)

    def add(self, body_type, position, shapes, **kw):
        """Append a :class:`BodySpec` and return it.

        Parameters
        ----------
        body_type : {"dynamic", "kinematic", "static"}
            How the body moves.
        position : (float, float)
            Origin of the body frame in the world, in meters (stored as a tuple).
        shapes : iterable of (Shape, float, float, float)
            ``(shape, density in kg/m^2, friction coefficient, restitution)`` per shape (stored as a list).
        **kw
            The other :class:`BodySpec` fields: ``angle``, ``velocity``, ``angular_velocity``, ``tag``,
            ``awake``.
        """
        spec = BodySpec(body_type, tuple(position), shapes=list(shapes), **kw)
        self.bodies.append(spec)
        return spec

    def build(self, world=None, **world_options):
        """Create the scene's bodies in ``world`` (a new :class:`World` by default).

        Parameters
        ----------
        world : World or None
            The world to add the bodies to (its gravity is kept); None creates one with this scene's ``gravity``.
        **world_options
            Passed to :class:`~engine.World` when one is created (``substeps``, ``mixing``).

        Returns
        -------
        (world, bodies): the world and the body handles, in scene order.

        Examples
        --------
        >>> from engine.scenes import pyramid
        >>> world, bodies = pyramid(3).build()
        >>> len(bodies), len(world.bodies)
        (7, 7)
        """
        world = world if world is not None else World(gravity=self.gravity, **world_options)
        handles = []
        # Runs of bodies with one and the same shape and material are made by one
        # ``create_bodies`` call: the same world as the loop, many times faster.
        for _, run in itertools.groupby(self.bodies, key=_run_key):
            run = list(run)
            if len(run) > 1 and len(run[0].shapes) == 1:
                shape, density, friction, restitution = run[0].shapes[0]
                made = world.create_bodies(
                    shape, [s.position for s in run], [s.angle for s in run], body_type=run[0].body_type,
                    velocities=[s.velocity for s in run], angular_velocities=[s.angular_velocity for s in run],
                    density=density, friction=friction, restitution=restitution)
            else:
                made = [_make(world, spec) for spec in run]
            for body, spec in zip(made, run):
                body.user_data = spec.tag or None
            handles.extend(made)
        for body, spec in zip(handles, self.bodies):
            if not spec.awake and world.sleeping:
                body.awake = False
        return world, handles


def _run_key(spec):
    """Bodies with equal keys in a row can be made by one ``create_bodies`` call."""
    if len(spec.shapes) != 1:
        return object()  # never equal: made on its own
    shape, density, friction, restitution = spec.shapes[0]
    return (spec.body_type, id(shape), density, friction, restitution)


def _make(world, spec):
    body = world.create_body(spec.body_type, position=spec.position, angle=spec.angle,
                             velocity=spec.velocity, angular_velocity=spec.angular_velocity)
    for shape, density, friction, restitution in spec.shapes:
        body.add_shape(shape, density=density, friction=friction, restitution=restitution)
    return body


def add_ground(scene, width, friction=0.6, thickness=1.0, top=0.0):
    """Add a static box ``width`` x ``thickness`` m centred on x = 0, top face at y = ``top``, tagged ``"ground"``.

    Its material: density 1, ``friction``, restitution 0.
    """
    scene.add("static", (0.0, 0.0),
              [(Polygon.box(width, thickness, center=(0.0, top - 0.5 * thickness)), 1.0, friction, 0.0)],
              tag="ground")
