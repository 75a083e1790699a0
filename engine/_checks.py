"""Checks at the API boundary: turn user values into floats or fail with a clear message.

Every public entry point converts its inputs through these helpers, so kernels never see
NaN, infinities or wrong types, and a failed call leaves everything unchanged.
"""
import math
import numbers

import numpy as np


def as_float(value, name):
    """``value`` as a finite float, or a TypeError/ValueError naming ``name``."""
    t = type(value)
    if t is float:  # the common case, without the slower checks below
        if value - value == 0.0:  # false for NaN and infinities
            return value
        raise ValueError(f"{name} must be finite, got {value}")
    if t is not int and (isinstance(value, (bool, np.bool_))
                         or not isinstance(value, (numbers.Real, np.floating, np.integer))):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    try:
        f = float(value)
    except OverflowError:  # an int beyond the floats
        raise ValueError(f"{name} must be finite, got an integer of {len(str(abs(int(value))))} "
                         f"digits, beyond the largest float") from None
    if not math.isfinite(f):
        raise ValueError(f"{name} must be finite, got {f}")
    return f


def as_flag(value, name):
    """``value`` as a bool: True or False (a NumPy bool too), or a TypeError naming ``name``.

    Examples
    --------
    >>> as_flag(np.True_, "bullet")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def as_bool(value, name):
    """``value`` if it is True or False (a Python bool, not a NumPy one), or a TypeError
    naming ``name``."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return value


def as_positive(value, name):
    """``value`` as a finite float > 0."""
    if type(value) is float and 0.0 < value < math.inf:  # the common case (NaN fails)
        return value
    f = as_float(value, name)
    if f <= 0.0:
        raise ValueError(f"{name} must be > 0, got {f}")
    return f


def as_non_negative(value, name):
    """``value`` as a finite float >= 0."""
    if type(value) is float and 0.0 <= value < math.inf:  # the common case (NaN fails)
        return value
    f = as_float(value, name)
    if f < 0.0:
        raise ValueError(f"{name} must be >= 0, got {f}")
    return f


def as_within(value, name, limit, unit=""):
    """``value`` as a finite float with ``|value| <= limit`` (``unit`` for the message).

    Examples
    --------
    >>> as_within(-3, "torque", 1e40, "N m")
    -3.0
    """
    if type(value) is float and -limit <= value <= limit and value - value == 0.0:
        return value  # the common case, in one test (NaN and infinities fail it)
    f = as_float(value, name)
    if not abs(f) <= limit:
        raise ValueError(f"{name} must be between -{limit:g} and {limit:g}{' ' + unit if unit else ''}, "
                         f"got {f!r}")
    return f


def as_between(value, name, low, high, unit=""):
    """``value`` as a finite float with ``low <= value <= high`` (``unit`` for the message).

    Examples
    --------
    >>> as_between(2, "density", 1e-12, 1e12, "kg/m^2")
    2.0
    """
    if type(value) is float and low <= value <= high and value - value == 0.0:
        return value  # the common case, in one test (NaN and infinities fail it)
    f = as_float(value, name)
    if not low <= f <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}{' ' + unit if unit else ''}, "
                         f"got {f!r}")
    return f


def checked_sum(old, add, what, limit, unit):
    """``old + add`` as a float, or a ValueError naming ``what`` if it leaves ``-limit ..
    limit`` (an accumulated force, a velocity after an impulse).

    Examples
    --------
    >>> checked_sum(1.0, 2.0, "force", 1e30, "N")
    3.0
    """
    total = float(old) + add
    if not abs(total) <= limit:
        raise ValueError(f"{what} would be {total!r} {unit}; it must stay between -{limit:g} and "
                         f"{limit:g} {unit} (nothing was applied)")
    return total


def as_vec2(value, name, limit=None, unit=""):
    """``value`` (a pair of real numbers) as a tuple of two finite floats; with ``limit``,
    each within ``-limit .. limit`` (``unit`` names their unit in the message)."""
    if type(value) is tuple and len(value) == 2:  # the common cases, checked cheaply
        x, y = value
        if type(x) is not float or type(y) is not float:
            if type(x) not in _PLAIN or type(y) not in _PLAIN:
                return _checked_vec2(value, name, limit, unit)
            x, y = as_float(x, f"{name}[0]"), as_float(y, f"{name}[1]")
            value = (x, y)
        if (x + y) - (x + y) == 0.0 and (limit is None or (abs(x) <= limit and abs(y) <= limit)):
            return value
    return _checked_vec2(value, name, limit, unit)


_PLAIN = (float, int)  # (not bool: type(True) is bool)


def _checked_vec2(value, name, limit, unit):
    """:func:`as_vec2` for any value, with the message naming what is wrong."""
    xy = _vec2(value, name)
    if limit is not None:
        for k in range(2):
            as_within(xy[k], f"{name}[{k}]", limit, unit)
    return xy


def _vec2(value, name):
    try:
        n = len(value)
    except TypeError:
        raise TypeError(f"{name} must be a pair (x, y), got {type(value).__name__} {value!r}") from None
    if n != 2 or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a pair (x, y), got {value!r}")
    return as_float(value[0], f"{name}[0]"), as_float(value[1], f"{name}[1]")


def as_pose(value, name):
    """``value`` as ``(x, y, angle)`` floats; ``(x, y)`` means angle 0."""
    if type(value) is tuple and len(value) == 3:
        x, y, a = value
        if type(x) is float and type(y) is float and type(a) is float and (x + y + a) - (x + y + a) == 0.0:
            return value
    try:
        n = len(value)
    except TypeError:
        raise TypeError(f"{name} must be a pose (x, y, angle), got {type(value).__name__} {value!r}") from None
    if n == 2:
        return as_float(value[0], f"{name}[0]"), as_float(value[1], f"{name}[1]"), 0.0
    if n != 3 or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a pose (x, y, angle), got {value!r}")
    return (as_float(value[0], f"{name}[0]"), as_float(value[1], f"{name}[1]"),
            as_float(value[2], f"{name}[2]"))


def as_array(value, name, shape, limit, low=None):
    """``value`` as a float64 array broadcast to ``shape`` (a read-only view when it was
    broadcast), finite, each entry within ``-limit .. limit`` and at least ``low``.

    Examples
    --------
    >>> as_array(0.5, "angles", (3,), math.inf).tolist()
    [0.5, 0.5, 0.5]
    >>> as_array([[0, 1]], "velocities", (2, 2), 10.0).tolist()
    [[0.0, 1.0], [0.0, 1.0]]
    """
    arr = np.asarray(value, dtype=np.float64)
    try:
        arr = np.broadcast_to(arr, shape)
    except ValueError:
        raise ValueError(f"{name} must have shape {shape} (or broadcast to it), got "
                         f"{np.shape(value)}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    if np.abs(arr).max(initial=0.0) > limit:
        raise ValueError(f"{name} must be within +-{limit:g}")
    if low is not None and arr.min(initial=low) < low:
        raise ValueError(f"{name} must be >= {low:g}")
    return arr


def as_points(value, name, min_count=1, limit=None, copy=True):
    """``value`` as a C-contiguous float64 (n, 2) array of finite coordinates (with
    ``limit``, each within ``-limit .. limit`` m); with ``copy`` False, ``value`` itself
    when it already is one (for arrays only read during the call)."""
    try:
        arr = np.array(value, dtype=np.float64) if copy else np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of (x, y) pairs, got {value!r}") from None
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise TypeError(f"{name} must be a sequence of (x, y) pairs, got an array of shape {arr.shape}")
    if arr.shape[0] < min_count:
        raise ValueError(f"{name} needs at least {min_count} points, got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.argwhere(~np.isfinite(arr))[0, 0])
        raise ValueError(f"{name} must be finite; point {bad} is {tuple(arr[bad].tolist())}")
    if limit is not None and arr.size and not np.abs(arr).max() <= limit:
        bad = int(np.argwhere(np.abs(arr) > limit)[0, 0])
        raise ValueError(f"{name} coordinates must be between -{limit:g} and {limit:g} m; "
                         f"point {bad} is {tuple(arr[bad].tolist())}")
    return np.ascontiguousarray(arr)


def as_direction(value, name):
    """A unit vector from a finite non-zero pair (normalized).

    Examples
    --------
    >>> as_direction((0, 2), "up")
    (0.0, 1.0)
    """
    x, y = as_vec2(value, name)
    length = math.hypot(x, y)
    if not length > 0.0 or not math.isfinite(length):
        raise ValueError(f"{name} must be a non-zero direction, got {value!r}")
    return (x / length, y / length)


def as_restitution(value, name="restitution"):
    """A restitution coefficient: a finite float from 0 (no bounce) to 1 (elastic);
    more would add energy at every bounce.

    Examples
    --------
    >>> as_restitution(0.5)
    0.5
    """
    e = as_non_negative(value, name)
    if e > 1.0:
        raise ValueError(f"{name} must be between 0 and 1 (1: elastic), got {value!r}")
    return e
