"""Scene builders shared by the tests, the demos and the benchmarks.

A scene is plain data (:class:`Scene`: gravity and a list of :class:`BodySpec`), so the
same scene can be built in this engine (:meth:`Scene.build`) and, in the benchmarks and
oracle tests, in pymunk, from identical numbers.

Modules: ``scene`` (:class:`Scene`, :class:`BodySpec`, the shared ground), ``stacks``
(pyramid, Box2D's many_pyramids, stack, domino, cradle), ``crowds`` (rain, idle, bullets,
Box2D's smash, tumbler),
``materials`` (friction ramp, restitution drop) and ``concave`` (gears, letters, terrain).

Builders with joints add to a given world and return a :class:`Rig` (bodies and joints):
``ragdoll`` (Box2D's human, its ``rain`` benchmark), ``linkages`` (bridge, chain, Newton's
cradle on strings, double pendulum, Box2D's ``joint_grid``) and ``car`` (car, bumpy terrain).
"""
from .concave import concave_drop, concave_terrain, gear_outline
from .crowds import box2d_tumbler, bullets, idle, rain, smash, tumbler
from .materials import friction_ramp, restitution_drop
from .car import bumpy_terrain, car
from .linkages import bridge, catenary_sag, chain, double_pendulum, joint_grid, newtons_cradle
from .ragdoll import RagdollRain, ragdoll, ragdoll_rain
from .scene import BodySpec, Rig, Scene
from .stacks import cradle, domino, many_pyramids, pyramid, vertical_stack

__all__ = ["BodySpec", "Scene", "pyramid", "vertical_stack", "rain", "friction_ramp",
           "restitution_drop", "idle", "bullets", "gear_outline", "concave_terrain", "concave_drop",
           "tumbler", "domino", "cradle", "Rig", "ragdoll", "ragdoll_rain", "RagdollRain", "car",
           "bumpy_terrain", "bridge", "catenary_sag", "chain", "newtons_cradle", "double_pendulum",
           "joint_grid", "many_pyramids", "smash", "box2d_tumbler"]
