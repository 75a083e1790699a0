"""BodyType: how a body moves (static, kinematic, dynamic), as stored in the ``btype`` column."""
import enum

from ..constants import DYNAMIC, KINEMATIC, STATIC

__all__ = ["BodyType"]


class BodyType(enum.IntEnum):
    """How a body moves.

    ``DYNAMIC`` bodies have mass and respond to gravity, forces and contacts;
    ``KINEMATIC`` bodies move only by the velocity you give them and push dynamic
    bodies without being pushed; ``STATIC`` bodies never move.
    The strings ``"dynamic"``, ``"kinematic"`` and ``"static"`` are accepted too.
    """

    STATIC = STATIC
    KINEMATIC = KINEMATIC
    DYNAMIC = DYNAMIC

    @classmethod
    def parse(cls, value):
        """A ``BodyType`` from a member or its lower-case name.

        Parameters
        ----------
        value : BodyType or str
            A member, or ``"dynamic"``, ``"kinematic"`` or ``"static"`` (any case).

        Examples
        --------
        >>> BodyType.parse("static"), BodyType.parse(BodyType.DYNAMIC)
        (<BodyType.STATIC: 0>, <BodyType.DYNAMIC: 2>)
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls[value.upper()]
            except KeyError:
                pass
        raise ValueError(f"body_type must be BodyType.DYNAMIC, KINEMATIC or STATIC "
                         f"(or 'dynamic', 'kinematic', 'static'), got {value!r}")
