"""Joint handles: what ``World.create_*_joint`` returns (``docs/joints.md``).

A handle reads and writes its joint's row in the world's joint store
(``joints/store.py``, layout ``joints/layout.py``); it raises once the joint was
destroyed (by ``World.destroy_joint``, by destroying one of its bodies, or by breaking).
Settings may be changed between steps, never during one or from a callback.
"""
import math

import numpy as np

from .._checks import as_float, as_non_negative, as_vec2
from ..joints import layout as L

__all__ = ["Joint", "JointEvents", "setting", "point_setting", "as_limits", "as_break"]


def as_limits(value, name="limits"):
    """``None`` (no limits) or ``(lower, upper)`` finite floats with lower <= upper."""
    if value is None:
        return None
    try:
        lower, upper = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be None or a pair (lower, upper), got {value!r}") from None
    lower, upper = as_float(lower, f"{name}[0]"), as_float(upper, f"{name}[1]")
    if lower > upper:
        raise ValueError(f"{name} must have lower <= upper, got ({lower}, {upper})")
    return lower, upper


def as_break(value, name):
    """``None`` (unbreakable) or a float > 0 (a force in N or a torque in N m)."""
    if value is None:
        return math.inf
    f = as_non_negative(value, name)
    if f == 0.0:
        raise ValueError(f"{name} must be None or > 0, got {value!r}")
    return f


def setting(col, doc, check=as_non_negative):
    """A property reading and writing column ``col`` of the joint's row; values pass
    ``check(value, name)`` first."""
    name = doc.split(":")[0]

    def get(self):
        return float(self._data()[col])

    def put(self, value):
        value = check(value, name)
        self._writable()[col] = value
        self._refresh()

    return property(get, put, doc=doc)


def point_setting(col, name, doc):
    """A property reading and writing the point ``(x, y)`` in columns ``col`` and
    ``col + 1`` of the joint's row; values pass ``as_vec2(value, name)`` first."""

    def get(self):
        d = self._data()
        return float(d[col]), float(d[col + 1])

    def put(self, value):
        value = as_vec2(value, name)
        d = self._writable()
        d[col], d[col + 1] = value

    return property(get, put, doc=doc)


class JointEvents:
    """What happened to joints in the last step: ``broken``, an int64 array of the ids of
    the joints that broke (and were destroyed) at its end."""

    __slots__ = ("broken",)

    def __init__(self, broken):
        self.broken = broken

    def __repr__(self):
        return f"JointEvents(broken={self.broken.tolist()})"


HANDLE_DOC = """
    Parameters
    ----------
    state : WorldState
        The world's state (``World.create_*_joint`` makes handles; do not call the
        class yourself).
    row : int
        The joint's row of the world's joint store, its id.

    Attributes
    ----------
    kind : int
        The kind's code (``engine.joints.layout``).
    user_data : object
        Anything to keep with the joint; None by default. The engine never reads it.
    """


class Joint:
    """A joint between two bodies. Subclasses add each kind's readings and settings.
    """

    __slots__ = ("_state", "_row", "user_data", "__weakref__")
    kind = -1

    def __init__(self, state, row):
        self._state = state
        self._row = row
        self.user_data = None

    # -- identity and liveness ---------------------------------------------------------
    def _check(self):
        joints = self._state.joints
        if self._row >= len(joints.handles) or joints.handles[self._row] is not self:
            raise RuntimeError("this joint was destroyed; its handle can no longer be used")
        return self._row

    def _refresh(self):
        """Recompute derived columns after a setting changed (a kind may override)."""

    def _data(self):
        return self._state.joints.columns.data[self._check()]

    def _writable(self):
        row = self._check()
        self._state.check_unlocked()
        return self._state.joints.columns.data[row]

    @property
    def alive(self):
        """False once the joint was destroyed."""
        joints = self._state.joints
        return self._row < len(joints.handles) and joints.handles[self._row] is self

    @property
    def id(self):
        """Its id (an int, stable for the joint's life; ``world.joint(id)``)."""
        return self._check()

    def _body(self, col):
        return self._state.handles[int(col[self._check()])]

    @property
    def body_a(self):
        """The first body (a :class:`~engine.Body`)."""
        return self._body(self._state.joints.columns.body_a)

    @property
    def body_b(self):
        """The second body; forces are reported on it."""
        return self._body(self._state.joints.columns.body_b)

    @property
    def collide_connected(self):
        """Whether the two bodies' shapes collide with each other (set at creation)."""
        return bool(self._state.joints.columns.collide[self._check()])

    # -- anchors ------------------------------------------------------------------------
    def _world_point(self, body_col, x_col):
        row = self._check()
        i = int(body_col[row])
        b = self._state.bodies
        d = self._state.joints.columns.data[row]
        c, s = math.cos(b.angle[i]), math.sin(b.angle[i])
        x, y = d[x_col], d[x_col + 1]
        return (float(b.pos[i, 0] + c * x - s * y), float(b.pos[i, 1] + s * x + c * y))

    @property
    def anchor_a(self):
        """The anchor on body A, in world coordinates now."""
        return self._world_point(self._state.joints.columns.body_a, L.J_AX)

    @property
    def anchor_b(self):
        """The anchor on body B, in world coordinates now."""
        return self._world_point(self._state.joints.columns.body_b, L.J_BX)

    # -- loads --------------------------------------------------------------------------
    def _axis(self):
        """The joint's axis in world coordinates now (prismatic, wheel)."""
        row = self._check()
        i = int(self._state.joints.columns.body_a[row])
        d = self._state.joints.columns.data[row]
        c, s = math.cos(self._state.bodies.angle[i]), math.sin(self._state.bodies.angle[i])
        return c * d[L.J_UX] - s * d[L.J_UY], s * d[L.J_UX] + c * d[L.J_UY]

    def _impulse(self):
        """The impulse of the last substep on B, ``(px, py, angular)`` in N s."""
        d = self._data()
        return float(d[L.J_PX]), float(d[L.J_PY]), 0.0

    @property
    def reaction_force(self):
        """``(fx, fy)``, the force in N the joint applied to body B at the end of the last
        step (its impulse over the substep; zero before the first step)."""
        px, py, _ = self._impulse()
        f = self._data()[L.J_INVH]
        return (px * f, py * f)

    @property
    def reaction_torque(self):
        """The torque in N m the joint applied to body B at the end of the last step."""
        return self._impulse()[2] * float(self._data()[L.J_INVH])

    break_force = property(
        lambda self: _unbreak(self._state.joints.columns.break_force[self._check()]),
        lambda self, v: self._set_break("break_force", v),
        doc="break_force: None (default) or a force in N: when the joint's load exceeds it, "
            "the joint is destroyed at the end of the step (``world.joint_events.broken``).")
    break_torque = property(
        lambda self: _unbreak(self._state.joints.columns.break_torque[self._check()]),
        lambda self, v: self._set_break("break_torque", v),
        doc="break_torque: None (default) or a torque in N m, as ``break_force``.")

    def _set_break(self, name, value):
        value = as_break(value, name)
        row = self._check()
        self._state.check_unlocked()
        joints = self._state.joints
        c = joints.columns
        before = np.isfinite(c.break_force[row]) or np.isfinite(c.break_torque[row])
        getattr(c, name)[row] = value
        after = np.isfinite(c.break_force[row]) or np.isfinite(c.break_torque[row])
        joints.breakable += int(after) - int(before)

    def __repr__(self):
        if not self.alive:
            return f"<{type(self).__name__} (destroyed)>"
        return f"<{type(self).__name__} id={self._row}>"


def _unbreak(value):
    return None if math.isinf(value) else float(value)


Joint.__doc__ += HANDLE_DOC
