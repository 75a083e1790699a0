"""What the public classes' definitions share: docstring text kept once and filled into
every docstring that uses it (:func:`fill_doc`), read-only attribute properties
(:func:`read_only`, and :func:`live_read_only` for handles that check they are still
alive), read-only array views (:func:`column_view`) and settings kept in a state object
(:func:`state_setting`).

Filled docstrings are complete at run time, where ``help()``, the doctests and
``docs/make_api.py`` read them; the source shows a ``{name}`` line where a shared
part goes.
"""
import operator
import re
import textwrap

__all__ = ["fill_doc", "read_only", "live_read_only", "column_view", "state_setting"]

_PART = re.compile(r"^([ \t]*)\{(\w+)\}[ \t]*$", re.M)


def fill_doc(**parts):
    """A decorator that replaces each line ``{name}`` of a docstring with ``parts[name]``.

    For text several docstrings share word for word (a parameter described the same
    way by several methods): it is written once and each docstring names it on a line
    of its own, at the indentation the text takes there.

    Parameters
    ----------
    **parts : str
        The shared texts by name; each is dedented, then indented as its ``{name}``
        line.

    Returns
    -------
    callable
        A decorator that fills the docstring of the function or class it is given and
        returns it. A ``{name}`` line that names no part raises ``KeyError``.

    Examples
    --------
    >>> SENSORS = '''sensors : bool
    ...     Report sensor shapes too.'''
    >>> @fill_doc(sensors=SENSORS)
    ... def find(sensors=False):
    ...     '''Find things.
    ...
    ...     Parameters
    ...     ----------
    ...     {sensors}
    ...     '''
    >>> print(find.__doc__.strip())
    Find things.
    <BLANKLINE>
        Parameters
        ----------
        sensors : bool
            Report sensor shapes too.
    """
    def fill(obj):
        def put(match):
            indent, name = match.groups()
            if name not in parts:
                raise KeyError(f"{obj.__qualname__}'s docstring names no shared part {name!r}")
            lines = textwrap.dedent(parts[name]).strip("\n").splitlines()
            return "\n".join(indent + line if line.strip() else "" for line in lines)

        obj.__doc__ = _PART.sub(put, obj.__doc__)
        return obj

    return fill


def read_only(name, doc):
    """A property that returns the attribute ``name`` (a private one) of its instance.

    Parameters
    ----------
    name : str
        The attribute read, e.g. ``"_radius"``.
    doc : str
        The property's docstring.

    Returns
    -------
    property
        Read-only, with ``operator.attrgetter(name)`` as its getter (a C call: as fast as
        a ``@property`` that returns the attribute).

    Examples
    --------
    >>> class Disc:
    ...     def __init__(self, r):
    ...         self._r = r
    ...     radius = read_only("_r", "The radius in meters.")
    >>> Disc(2.0).radius, Disc.radius.__doc__
    (2.0, 'The radius in meters.')
    """
    return property(operator.attrgetter(name), doc=doc)


def live_read_only(check, name, doc):
    """A property that calls ``self.<check>()``, which raises once the handle's object is
    gone, then returns the attribute ``name`` (a private one) of its instance.

    Parameters
    ----------
    check : str
        The method that raises for a dead handle, e.g. ``"_live_body"``.
    name : str
        The attribute read, e.g. ``"_density"``.
    doc : str
        The property's docstring.

    Returns
    -------
    property
        Read-only; add a setter with ``.setter`` as for any property.

    Examples
    --------
    >>> class Ticket:
    ...     def __init__(self, seat):
    ...         self._seat, self._used = seat, False
    ...     def _valid(self):
    ...         if self._used:
    ...             raise RuntimeError("this ticket was used")
    ...     seat = live_read_only("_valid", "_seat", "The seat number.")
    >>> ticket = Ticket(12)
    >>> ticket.seat
    12
    >>> ticket._used = True
    >>> ticket.seat
    Traceback (most recent call last):
    ...
    RuntimeError: this ticket was used
    """
    alive, value = operator.methodcaller(check), operator.attrgetter(name)

    def get(self):
        alive(self)
        return value(self)

    return property(get, doc=doc)


def column_view(column, doc):
    """A property that returns ``self._view(column)``, a NumPy view its class makes of
    one of its arrays, made read-only (``World.positions``, ``WorldBatch.positions``, ...).

    Parameters
    ----------
    column : str
        The name the class's ``_view`` takes, e.g. ``"pos"``.
    doc : str
        The property's docstring (the view's shape and units).

    Returns
    -------
    property
        Each read takes a new view and switches its ``writeable`` flag off; the array
        it views is unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> class Pair:
    ...     def _view(self, column):
    ...         return {"a": np.arange(4.0)}[column][:2]
    ...     a = column_view("a", "The first two of a.")
    >>> Pair().a, Pair().a.flags.writeable
    (array([0., 1.]), False)
    """
    def get(self):
        view = self._view(column)
        view.flags.writeable = False
        return view

    return property(get, doc=doc)


def state_setting(attr, name, check, doc):
    """A property that reads ``self._state.<attr>`` and sets it between steps: a set calls
    ``self._state.check_unlocked()``, then stores ``check(value, name)``.

    Parameters
    ----------
    attr : str
        The state's attribute, e.g. ``"time_to_sleep"``.
    name : str
        The setting's name in error messages.
    check : callable
        ``check(value, name)``: the value to store, or an exception.
    doc : str
        The property's docstring.

    Returns
    -------
    property

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> class Clock:
    ...     def __init__(self):
    ...         self._state = SimpleNamespace(rate=1.0, check_unlocked=lambda: None)
    ...     rate = state_setting("rate", "rate", lambda v, n: float(v), "Ticks per second.")
    >>> clock = Clock()
    >>> clock.rate = 2
    >>> clock.rate
    2.0
    """
    def put(self, value):
        self._state.check_unlocked()
        setattr(self._state, attr, check(value, name))

    return property(operator.attrgetter("_state." + attr), put, doc=doc)
