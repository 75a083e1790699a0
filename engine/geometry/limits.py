"""The valid ranges of shape arguments (``constants.py``, "Valid ranges"): lengths,
rounding radii and densities, converted once and checked, or a ValueError naming the range.
"""
from .. import constants as K
from .._checks import as_between, as_non_negative, as_positive

__all__ = ["as_length", "as_rounding", "as_density"]


def as_length(value, name):
    """A length in meters from ``MIN_LENGTH`` to ``MAX_COORDINATE`` (a radius, a side).

    Examples
    --------
    >>> as_length(0.5, "radius")
    0.5
    """
    return _positive_between(value, name, K.MIN_LENGTH, K.MAX_COORDINATE, "m")


def as_rounding(value, name="radius"):
    """A rounding radius in meters: 0, or a length (:func:`as_length`).

    Examples
    --------
    >>> as_rounding(0)
    0.0
    """
    r = as_non_negative(value, name)
    return r if r == 0.0 else as_between(r, name, K.MIN_LENGTH, K.MAX_COORDINATE, "m (or 0)")


def as_density(value, name="density"):
    """A density in kg/m^2 from ``MIN_DENSITY`` to ``MAX_DENSITY`` (1e-12 .. 1e12).

    Examples
    --------
    >>> as_density(2)
    2.0
    """
    if type(value) is float and K.MIN_DENSITY <= value <= K.MAX_DENSITY:
        return value  # the common case (NaN fails the test)
    return _positive_between(value, name, K.MIN_DENSITY, K.MAX_DENSITY, "kg/m^2")


def _positive_between(value, name, low, high, unit):
    """``value`` > 0 and from ``low`` to ``high``: converted once by ``as_positive``, whose
    message tells 0 and below apart, then checked against the range."""
    return as_between(as_positive(value, name), name, low, high, unit)
