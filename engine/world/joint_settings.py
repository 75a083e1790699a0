"""The part of ``World`` that looks joints up and holds their world-wide settings (a base
class of ``World``; ``world_joints.py`` makes the joints)."""
import numpy as np

from .._api import state_setting
from .._checks import as_non_negative, as_positive
from .joint import Joint, JointEvents
from .joint_rows import remove_joint

__all__ = ["JointSettings"]


class JointSettings:
    """Joint settings and lookups of :class:`~engine.World` (see ``docs/joints.md``)."""

    # -- settings -------------------------------------------------------------------------
    joint_hertz = state_setting("joint_hertz", "joint_hertz", as_positive, """\
        Stiffness of every joint's position correction, in Hz; 120 by default (Box2D v3:
        60). Higher is stiffer, up to 0.3 times the substep rate times the square root of
        ``joint_iterations`` (108 Hz at the default 6 substeps and one pass, so the default
        is solved as 108 Hz): the solver uses the lesser of the two, as the stiffest it
        holds (``docs/joints.md``).

        Examples
        --------
        >>> from engine import World
        >>> World().joint_hertz
        120.0
        """)

    joint_damping_ratio = state_setting("joint_zeta", "joint_damping_ratio", as_non_negative,
                                        "Damping ratio of the joints' position correction (2 by "
                                        "default, as in Box2D).")

    @property
    def joint_iterations(self):
        """Passes over the joints in each of a substep's two solver passes (1 by default,
        as in Box2D). Stiff joints (a high ``joint_hertz``) or heavy loads on long chains
        need more: see ``docs/joints.md``.

        Examples
        --------
        >>> from engine import World
        >>> world = World()
        >>> world.joint_iterations = 4
        >>> world.joint_iterations
        4
        """
        return self._state.joint_iterations

    @joint_iterations.setter
    def joint_iterations(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"joint_iterations must be an int from 1 to 64, got {value!r}")
        if not 1 <= value <= 64:
            raise ValueError(f"joint_iterations must be an int from 1 to 64, got {value!r}")
        self._state.check_unlocked()
        self._state.joint_iterations = int(value)

    @property
    def joints(self):
        """The live joints, in id order."""
        return [h for h in self._state.joints.handles if h is not None]

    def joint(self, id):
        """The joint with ``id`` (``joint.id``); raises ValueError when there is none.

        Parameters
        ----------
        id : int
            A live joint's id.
        """
        handles = self._state.joints.handles
        if isinstance(id, bool) or not isinstance(id, (int, np.integer)):
            raise TypeError(f"a joint id must be an int, got {id!r}")
        if not 0 <= id < len(handles) or handles[id] is None:
            raise ValueError(f"no joint has id {id} (destroyed, or never made)")
        return handles[id]

    @property
    def joint_events(self):
        """The last step's :class:`~engine.world.joint.JointEvents`: ``broken``, the ids of
        the joints whose load exceeded ``break_force`` or ``break_torque`` (destroyed)."""
        return JointEvents(self._state.broken)

    def destroy_joint(self, joint):
        """Remove ``joint``; its handle raises from now on.

        Parameters
        ----------
        joint : Joint
            A live joint of this world.
        """
        state = self._state
        if not isinstance(joint, Joint) or joint._state is not state:
            raise TypeError(f"expected a joint of this world, got {joint!r}")
        row = joint._check()
        state.check_unlocked()
        remove_joint(state, row)
