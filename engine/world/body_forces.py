"""The forces side of ``Body`` (a base class of it): forces, torques and impulses, each
checked against the valid ranges before it is written, and waking the body."""
from .. import constants as K
from .._checks import as_vec2, as_within, checked_sum
from . import sleeping

__all__ = ["BodyForces"]


class BodyForces:
    """Forces, torques and impulses on a :class:`~engine.Body`."""

    def _arm(self, point):
        if point is None:
            return 0.0, 0.0
        px, py = as_vec2(point, "point", K.MAX_COORDINATE, "m")
        cx, cy = self.world_center_of_mass
        return px - cx, py - cy

    def apply_force(self, force, point=None):
        """Add ``force`` (N, world axes) at world ``point`` (default: centre of mass) for the next step.

        Forces add up until the next ``World.step``, which applies and clears them. The
        sum of a step's forces is refused (``ValueError``, nothing added) beyond
        ``MAX_FORCE`` (1e30 N) a component, its torque beyond ``MAX_TORQUE`` (1e40 N m).

        Parameters
        ----------
        force : (float, float)
            In newtons, world axes.
        point : (float, float), optional
            The world point it acts at; the centre of mass (no torque) by default.

        Examples
        --------
        >>> from engine import World
        >>> body = World(gravity=(0, 0)).create_body()
        >>> body.apply_force((2.0, 0.0)); body.world.step(0.5)
        >>> round(body.velocity[0], 12)  # a shapeless body: 1 kg
        1.0
        """
        fx, fy = as_vec2(force, "force", K.MAX_FORCE, "N")
        rx, ry = self._arm(point)
        self._state.check_unlocked()
        i = self._row()
        b = self._state.bodies
        total = (checked_sum(b.force[i, 0], fx, "the force applied this step, x,", K.MAX_FORCE, "N"),
                 checked_sum(b.force[i, 1], fy, "the force applied this step, y,", K.MAX_FORCE, "N"))
        torque = checked_sum(b.torque[i], rx * fy - ry * fx, "the torque applied this step", K.MAX_TORQUE, "N m")
        b.force[i] = total
        sleeping.wake(self._state, i)
        b.torque[i] = torque

    def apply_torque(self, torque):
        """Add ``torque`` (N m) for the next step.

        A step's torques add up to at most ``MAX_TORQUE`` (1e40 N m; beyond, ``ValueError``
        and nothing is added).

        Parameters
        ----------
        torque : float
            In N m, counter-clockwise positive.
        """
        t = as_within(torque, "torque", K.MAX_TORQUE, "N m")
        self._state.check_unlocked()
        i = self._row()
        b = self._state.bodies
        b.torque[i] = checked_sum(b.torque[i], t, "the torque applied this step", K.MAX_TORQUE, "N m")
        sleeping.wake(self._state, i)

    def apply_impulse(self, impulse, point=None):
        """Change momentum now by ``impulse`` (N s, world axes) at world ``point``.

        Refused (``ValueError``, nothing changed) if the body's velocity would leave
        +-``MAX_INPUT_SPEED`` (1e6 m/s) a component or its angular velocity
        +-``MAX_INPUT_ANGULAR_SPEED`` (1e6 rad/s).

        Parameters
        ----------
        impulse : (float, float)
            In N s, world axes.
        point : (float, float), optional
            The world point it acts at; the centre of mass (no spin) by default.

        Examples
        --------
        >>> from engine import World
        >>> body = World().create_body()  # no shape: 1 kg
        >>> body.apply_impulse((0.0, 3.0)); body.velocity
        (0.0, 3.0)
        """
        jx, jy = as_vec2(impulse, "impulse")
        rx, ry = self._arm(point)
        self._state.check_unlocked()
        i = self._row()
        b = self._state.bodies
        im, ii = float(b.inv_mass[i]), float(b.inv_inertia[i])
        why = f"the velocity after the impulse {(jx, jy)}"
        vx = checked_sum(b.vel[i, 0], im * jx, why + ", x,", K.MAX_INPUT_SPEED, "m/s")
        vy = checked_sum(b.vel[i, 1], im * jy, why + ", y,", K.MAX_INPUT_SPEED, "m/s")
        w = checked_sum(b.angvel[i], ii * (rx * jy - ry * jx), "the angular velocity after the impulse",
                 K.MAX_INPUT_ANGULAR_SPEED, "rad/s")
        b.vel[i] = (vx, vy)
        b.angvel[i] = w
        sleeping.wake(self._state, i)
