"""ShapeHandle: a shape attached to a body, with its material.

The geometry (a :class:`~engine.shapes.Shape`) is an immutable value that many bodies
may share; the handle is the attachment: which body, which density, friction and
restitution, and which rows of the world's piece arrays it owns.
"""
from .._checks import as_non_negative

__all__ = ["ShapeHandle"]


class ShapeHandle:
    """A shape attached to a body, with its material; returned by ``Body.add_shape``.

    ``friction`` and ``restitution`` can be changed at any time (between steps).

    Parameters
    ----------
    body : Body
        The body carrying the shape (``Body.add_shape`` makes the handle; do not call
        ``ShapeHandle`` yourself).
    shape : Circle, Segment or Polygon
        The geometry, in the body's frame.
    density, friction, restitution : float
        The material, as given to ``Body.add_shape``.
    pieces : numpy.ndarray
        The rows of the world's piece arrays the shape occupies, one per convex piece.

    Attributes
    ----------
    shape : Circle, Segment or Polygon
        The attached geometry. Read it only: assigning another shape does not change
        what the world collides.
    """

    __slots__ = ("_body", "shape", "_density", "_friction", "_restitution", "_pieces")

    def __init__(self, body, shape, density, friction, restitution, pieces):
        self._body = body
        self.shape = shape
        self._density = density
        self._friction = friction
        self._restitution = restitution
        self._pieces = pieces

    @property
    def body(self):
        """The body carrying this shape."""
        return self._body

    @property
    def density(self):
        """Mass per square meter, kg/m^2."""
        return self._density

    @property
    def friction(self):
        """Coulomb friction coefficient (mixed with the other shape's; see World.mixing)."""
        return self._friction

    @friction.setter
    def friction(self, value):
        f = as_non_negative(value, "friction")
        self._body._state.check_unlocked()
        self._friction = f
        self._body._state.pieces.friction[self._pieces] = f

    @property
    def restitution(self):
        """Bounciness, 0 (none) to 1 (elastic)."""
        return self._restitution

    @restitution.setter
    def restitution(self, value):
        e = as_non_negative(value, "restitution")
        self._body._state.check_unlocked()
        self._restitution = e
        self._body._state.pieces.restitution[self._pieces] = e

    def __repr__(self):
        return f"<ShapeHandle {self.shape!r} on {self._body!r}>"
