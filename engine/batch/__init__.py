"""Many worlds stepped as one: :class:`WorldBatch` (``docs/batch.md``)."""
from .batch import WorldBatch
from .lane_world import LaneWorld

__all__ = ["WorldBatch", "LaneWorld"]
