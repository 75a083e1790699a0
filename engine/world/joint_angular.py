"""Handles of the joints that act on relative angles alone, pymunk's ``RotaryLimitJoint``,
``SimpleMotor``, ``DampedRotarySpring`` (the angular joint), ``GearJoint`` and
``RatchetJoint``, and Box2D's filter joint (no constraint)."""
from .._checks import as_float, as_within
from ..joints import layout as L
from .joint import HANDLE_DOC, Joint, setting
from .joint_kinds import Relative, RevoluteJoint

__all__ = ["AngularJoint", "GearJoint", "RatchetJoint", "FilterJoint", "as_ratio"]


def as_ratio(value, name="ratio"):
    """A gear ratio: a finite non-zero float of at most 1e6 in size."""
    f = as_within(value, name, 1e6)
    if f == 0.0:
        raise ValueError(f"{name} must be non-zero, got {value!r}")
    return f


class AngularJoint(RevoluteJoint):
    """Limits, a motor and a spring on ``angle_b - angle_a`` alone; the bodies move
    freely otherwise (``World.create_angular_joint``; pymunk's ``RotaryLimitJoint``,
    ``SimpleMotor``, ``DampedRotarySpring``)."""

    __slots__ = ()
    kind = L.ANGULAR


class GearJoint(Relative):
    """Holds ``ratio * angle_b - angle_a`` at ``phase`` (``World.create_gear_joint``)."""

    __slots__ = ()
    kind = L.GEAR
    ratio = setting(L.J_RATIO, "ratio: how many turns of A one turn of B makes.", as_ratio)
    phase = setting(L.J_AOFF, "phase: the held value of ratio * angle_b - angle_a (rad).", as_float)

    def _impulse(self):
        d = self._data()
        return 0.0, 0.0, float(d[L.J_RATIO] * d[L.J_PA])


class RatchetJoint(Relative):
    """Lets ``angle_b - angle_a`` move one way only, in teeth (``World.create_ratchet_joint``)."""

    __slots__ = ()
    kind = L.RATCHET
    angle = property(lambda self: self._relative_angle(),
                     doc="angle: angle_b - angle_a minus its value at creation (rad).")
    ratchet = property(lambda self: float(self._data()[L.J_RATIO]),
                       doc="ratchet: the angle between teeth; its sign is the free direction.")
    phase = property(lambda self: float(self._data()[L.J_AOFF]), doc="phase: where the teeth are (rad).")

    def _impulse(self):
        d = self._data()
        return 0.0, 0.0, float(d[L.J_PLOWER] - d[L.J_PUPPER])


class FilterJoint(Joint):
    """No constraint: the two bodies' shapes never collide (``World.create_filter_joint``)."""

    __slots__ = ()
    kind = L.FILTER


for _kind in (AngularJoint, GearJoint, RatchetJoint, FilterJoint):
    _kind.__doc__ += "\n" + HANDLE_DOC
