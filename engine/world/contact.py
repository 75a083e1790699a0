"""What the world says about its touching shape pairs: ``world.contacts()`` as arrays, and
the ``Contact`` a collision callback receives.

Both read the contact rows the narrowphase wrote (``contacts/layout.py``). A pair of
shapes touches while some point of some pair of their pieces is within
``TOUCHING_DISTANCE``; a concave shape may touch another through several of its pieces:
then the pair reports the piece contact with the deepest point (its normal, points and
impulses).
"""
import numpy as np

from .. import constants as K
from .._checks import as_non_negative, as_within
from ..contacts.layout import (C_COUNT, C_FRICTION, C_NX, C_NY, C_POINTS, C_RESTITUTION, C_SURFACE, P_RAX,
                               P_RAY, P_SEP, P_STRIDE, R_NORMAL, R_STRIDE, R_TANGENT)

__all__ = ["Contact", "contact_table", "touching_rows", "point_of"]

_CONTACTS = np.dtype([("shape_a", np.int64), ("shape_b", np.int64), ("normal", np.float64, (2,)),
                      ("point_count", np.int64), ("points", np.float64, (2, 2)),
                      ("depths", np.float64, (2,)), ("normal_impulses", np.float64, (2,)),
                      ("tangent_impulses", np.float64, (2,))])
_POINT_COLUMNS = C_POINTS + P_STRIDE * np.arange(2)


def touching_rows(state):
    """Rows of the touching pairs, one per pair of shapes (the deepest piece contact), in
    shape-pair key order; returns ``(rows, keys, swapped)``: row indices, shape-pair keys
    and whether piece A of the row belongs to the key's second shape."""
    pairs = state.pairs
    rows = pairs.rows
    if rows.shape[0] == 0:
        none = np.empty(0, np.int64)
        return none, none, np.empty(0, bool)
    count = rows[:, C_COUNT].astype(np.int64)
    seps = rows[:, _POINT_COLUMNS + P_SEP]
    seps = np.where(np.arange(2) < count[:, None], seps, np.inf)
    deepest = seps.min(axis=1)
    index = np.flatnonzero(deepest <= K.TOUCHING_DISTANCE)
    a, b = pairs.pieces()
    sa = state.pieces.shape[a[index]].astype(np.int64)
    sb = state.pieces.shape[b[index]].astype(np.int64)
    keys = (np.minimum(sa, sb) << 32) | np.maximum(sa, sb)
    order = np.lexsort((deepest[index], keys))  # by key, then deepest first
    keys, index, swapped = keys[order], index[order], (sa > sb)[order]
    first = np.ones(keys.shape[0], bool)
    first[1:] = keys[1:] != keys[:-1]
    return index[first], keys[first], swapped[first]


def contact_table(state):
    """``world.contacts()``: a record array over the touching pairs of shapes."""
    index, keys, swapped = touching_rows(state)
    rows = state.pairs.rows[index]
    out = np.zeros(index.shape[0], _CONTACTS)
    out["shape_a"] = keys >> 32
    out["shape_b"] = keys & 0xFFFFFFFF
    sign = np.where(swapped, -1.0, 1.0)
    out["normal"] = rows[:, [C_NX, C_NY]] * sign[:, None]
    count = rows[:, C_COUNT].astype(np.int64)
    out["point_count"] = count
    live = np.arange(2) < count[:, None]
    centers = _centers_of_a(state, index)
    for k in range(2):
        base = C_POINTS + k * P_STRIDE
        # (a one-point row's second point columns are not written: not added at all, so
        # stale values raise no floating-point warning)
        anchor = np.where(live[:, k, None], rows[:, [base + P_RAX, base + P_RAY]], 0.0)
        out["points"][:, k] = np.where(live[:, k, None], centers + anchor, 0.0)
        out["depths"][:, k] = np.where(live[:, k], -rows[:, base + P_SEP], 0.0)
        res = state.pairs.results[index, k * R_STRIDE:(k + 1) * R_STRIDE]
        out["normal_impulses"][:, k] = np.where(live[:, k], res[:, R_NORMAL], 0.0)
        out["tangent_impulses"][:, k] = np.where(live[:, k], sign * res[:, R_TANGENT], 0.0)
    out.flags.writeable = False
    return out.view(np.recarray)


def point_of(state, index, rax, ray):
    """World points of anchors ``(rax, ray)`` on the piece-A bodies of rows ``index``."""
    return _centers_of_a(state, index) + np.column_stack((rax, ray))


def _centers_of_a(state, index):
    """World centre of mass of each row's piece-A body, at the step's start pose."""
    a = state.pairs.pieces()[0][index]
    body = state.pieces.body[a]
    b = state.bodies
    angle, com = b.angle0[body], b.com[body]
    c, s = np.cos(angle), np.sin(angle)
    return b.pos0[body] + np.column_stack((c * com[:, 0] - s * com[:, 1],
                                           s * com[:, 0] + c * com[:, 1]))


def _mixed(column, name, doc):
    """A mixed material of a contact's pair, column ``column`` of its rows: a float >= 0,
    settable in ``pre_solve``."""
    def put(self, value):
        self._set_material(column, as_non_negative(value, name), name)

    return property(lambda self: self._material(column), put, doc=doc)


class Contact:
    """A touching pair of shapes, as a collision callback receives it.

    ``shapes`` and ``bodies`` come in the order of the handler's types (pymunk's
    convention); ``normal`` points from ``shapes[0]`` to ``shapes[1]``. In ``begin``,
    ``enabled = False`` ignores the pair until the shapes separate; in ``pre_solve`` it
    ignores the pair for this step, and ``friction``, ``restitution`` and
    ``surface_speed`` change the pair's material for this step. In ``separate`` the pair
    has no contact any more: its geometry reads as None.

    Parameters
    ----------
    state : engine.world.state.WorldState
        The world's state.
    row : int or None
        The contact row of the pair's deepest piece contact (None in ``separate``).
    shapes : (ShapeHandle, ShapeHandle)
        The two shapes, in the handler's type order.
    flipped : bool
        Whether ``shapes[0]`` is the row's piece B (the normal is negated).

    Attributes
    ----------
    enabled : bool
        Set it to False to ignore the pair (see above).
    """

    __slots__ = ("_state", "_row", "shapes", "_flipped", "enabled")

    def __init__(self, state, row, shapes, flipped):
        self._state = state
        self._row = row
        self.shapes = shapes
        self._flipped = flipped
        self.enabled = True

    @property
    def bodies(self):
        """The two shapes' bodies, in the same order."""
        return (self.shapes[0]._body, self.shapes[1]._body)

    def _points(self):
        """The row and the live point columns, or ``(None, ())`` without a row."""
        if self._row is None:
            return None, ()
        r = self._state.pairs.rows[self._row]
        return r, [C_POINTS + k * P_STRIDE for k in range(int(r[C_COUNT]))]

    @property
    def normal(self):
        """Unit normal from ``shapes[0]`` to ``shapes[1]`` (None in ``separate``)."""
        r, _ = self._points()
        if r is None:
            return None
        sign = -1.0 if self._flipped else 1.0
        return (sign * float(r[C_NX]) + 0.0, sign * float(r[C_NY]) + 0.0)

    @property
    def points(self):
        """The contact points in world coordinates, one or two (``[]`` in ``separate``)."""
        r, cols = self._points()
        if r is None:
            return []
        cx, cy = _centers_of_a(self._state, np.array([self._row]))[0]
        return [(float(cx + r[c + P_RAX]), float(cy + r[c + P_RAY])) for c in cols]

    @property
    def depth(self):
        """The deepest overlap in meters; negative for a speculative contact whose surfaces
        are still apart (None in ``separate``)."""
        r, cols = self._points()
        return None if r is None else float(max(-r[c + P_SEP] for c in cols))

    @property
    def normal_impulse(self):
        """The normal impulse of the step, summed over the points, N s (0 before the
        solver)."""
        return self._impulse(R_NORMAL)

    @property
    def tangent_impulse(self):
        """The friction impulse of the step, summed over the points, N s, along the
        normal turned clockwise (0 before the solver)."""
        total = self._impulse(R_TANGENT)
        return -total if self._flipped else total

    def _impulse(self, column):
        r, cols = self._points()
        if r is None:
            return 0.0
        res = self._state.pairs.results[self._row]
        return float(sum(res[k * R_STRIDE + column] for k in range(len(cols))))

    friction = _mixed(C_FRICTION, "friction",
                      "The pair's mixed friction coefficient (settable in ``pre_solve``).")
    restitution = _mixed(C_RESTITUTION, "restitution",
                         "The pair's mixed restitution (settable in ``pre_solve``).")

    @property
    def surface_speed(self):
        """The speed, m/s, at which friction drives ``shapes[1]``'s surface relative to
        ``shapes[0]``'s along the tangent (the normal turned clockwise): the sum of the
        two shapes' ``surface_speed`` (Box2D's tangent speed), the same value in either
        order of the shapes. Settable in ``pre_solve``, for this step (pymunk's
        ``Arbiter.surface_velocity``, a scalar here), within +-``MAX_INPUT_SPEED``."""
        return self._material(C_SURFACE)

    @surface_speed.setter
    def surface_speed(self, value):
        value = as_within(value, "surface_speed", K.MAX_INPUT_SPEED, "m/s")
        self._set_material(C_SURFACE, value, "surface_speed")

    def _material(self, column):
        r, _ = self._points()
        return None if r is None else float(r[column])

    def _set_material(self, column, value, name):
        """Write the checked ``value`` to column ``column`` of every row of the pair."""
        if self._row is None:
            raise RuntimeError(f"{name} can be set only while the shapes touch (pre_solve)")
        for row in _rows_of_pair(self._state, self._row):
            self._state.pairs.rows[row, column] = value

    def __repr__(self):
        return f"<Contact shapes {self.shapes[0]._id}, {self.shapes[1]._id}>"


def _rows_of_pair(state, row):
    """Every contact row of the shape pair that ``row`` belongs to."""
    a, b = state.pairs.pieces()
    shape = state.pieces.shape
    sa, sb = sorted((int(shape[a[row]]), int(shape[b[row]])))
    lo = np.minimum(shape[a], shape[b])
    hi = np.maximum(shape[a], shape[b])
    return np.flatnonzero((lo == sa) & (hi == sb))
