"""Debug drawing: a renderer-agnostic protocol (``debug_draw``), a pixel camera and raster
drawer (``pixels``), and adapters for pygame (``pygame_draw``) and matplotlib
(``matplotlib_draw``) that import their renderer only when used."""
from .debug_draw import COLORS, DebugDraw, DrawFlags, draw_world

__all__ = ["COLORS", "DebugDraw", "DrawFlags", "draw_world"]
