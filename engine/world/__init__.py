"""The world: its state, ``World`` (the step as named stages), bodies, shape attachment and
queries."""
from .body import Body
from .body_type import BodyType
from .shape_handle import ShapeHandle
from .world import World

__all__ = ["Body", "BodyType", "ShapeHandle", "World"]
