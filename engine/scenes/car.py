"""A car on wheel joints (Box2D v3's ``samples/car.cpp`` proportions) and bumpy ground
to drive it on."""
import math

from ..geometry.shapes import Circle, Polygon, Segment
from .scene import Rig

__all__ = ["car", "bumpy_terrain"]

# Box2D's chassis outline, scaled by 0.85 and rounded by 0.15 m.
CHASSIS = ((-1.5, -0.5), (1.5, -0.5), (1.5, 0.0), (0.0, 0.9), (-1.15, 0.9), (-1.5, 0.2))


def car(world, position, *, motor_speed=-20.0, max_motor_torque=10.0, spring_hertz=5.0,
        spring_damping=0.7):
    """A chassis on two wheels (radius 0.4 m) on wheel joints with a vertical suspension
    (travel +-0.25 m); a motor drives the rear wheel.

    Box2D's car: chassis density 1 and friction 0.2, wheels density 2 and friction 1.5;
    the front wheel's joint has a weak motor of speed 0 (rolling friction, 0.05 N m).
    A negative ``motor_speed`` turns the wheel clockwise: the car drives to the right.

    Parameters
    ----------
    world : World
    position : (float, float)
        Where the car stands: the chassis is 1 m above it, the axles 0.35 and 0.4 m.
    motor_speed : float
        Of the rear wheel relative to the chassis, rad/s.
    max_motor_torque : float
        In N m.
    spring_hertz, spring_damping : float
        The suspension.

    Returns
    -------
    Rig
        Bodies: chassis, rear wheel, front wheel. Joints: rear axle, front axle.

    Examples
    --------
    >>> from engine import World
    >>> rig = car(World(), (0.0, 0.0))
    >>> [b.user_data for b in rig.bodies], rig.joints[0].motor_speed
    (['chassis', 'rear wheel', 'front wheel'], -20.0)
    """
    px, py = position
    chassis = world.create_body(position=(px, py + 1.0))
    chassis.add_shape(Polygon([(0.85 * x, 0.85 * y) for x, y in CHASSIS], radius=0.15),
                      density=1.0, friction=0.2)
    chassis.user_data = "chassis"
    bodies, joints = [chassis], []
    for name, dx, dy, speed, torque in (("rear wheel", -1.0, 0.35, motor_speed, max_motor_torque),
                                        ("front wheel", 1.0, 0.4, 0.0, 0.05)):
        wheel = world.create_body(position=(px + dx, py + dy))
        wheel.add_shape(Circle(0.4), density=2.0, friction=1.5)
        wheel.user_data = name
        joints.append(world.create_wheel_joint(
            chassis, wheel, (px + dx, py + dy), (0.0, 1.0), spring_hertz=spring_hertz,
            spring_damping=spring_damping, limits=(-0.25, 0.25), motor_speed=speed,
            max_motor_torque=torque))
        bodies.append(wheel)
    return Rig(bodies, joints)


def bumpy_terrain(world, start=-20.0, end=120.0, step=1.0, bump_height=0.25, flat=5.0):
    """A static body of segments from ``x = start`` to ``end``: flat (y = 0) up to
    ``x = flat``, then rolling bumps, two sines 0.6 m and ``bump_height`` m high.

    Parameters
    ----------
    world : World
    start, end : float
        The ground's extent along x, in m.
    step : float
        Length of the segments along x, in m.
    bump_height : float
        Height of the short bumps, in m.
    flat : float
        Where the bumps start, in m (a car built at x = 0 stands on flat ground).

    Returns
    -------
    Body
        The ground (friction 0.6), tagged ``"ground"``.

    Examples
    --------
    >>> from engine import World
    >>> ground = bumpy_terrain(World(), start=0.0, end=20.0)
    >>> len(ground.shapes)
    20
    """
    def height(x):
        if x <= flat:
            return 0.0
        u = x - flat
        return 0.6 * math.sin(0.25 * u) ** 2 + bump_height * math.sin(1.3 * u) ** 2

    ground = world.create_body("static")
    ground.user_data = "ground"
    count = int(round((end - start) / step))
    for k in range(count):
        x0, x1 = start + k * step, start + (k + 1) * step
        ground.add_shape(Segment((x0, height(x0)), (x1, height(x1))), friction=0.6)
    return ground
