"""Mass properties of a body from the shapes attached to it.

Each shape knows its own exact mass, centroid and moment about its centroid
(``Shape.mass_properties``); a body's are their sum, with the moments moved to the
common centre of mass by the parallel-axis theorem.
"""
import numpy as np

__all__ = ["combine"]


def combine(attached):
    """Total mass, centre of mass, inertia about it, and extent of attached shapes.

    Parameters
    ----------
    attached : iterable of (shape, density)

    Returns
    -------
    (mass, (cx, cy), inertia, extent): ``extent`` is the largest distance from the
    centre of mass to the shapes' surface. With no mass, the centre is the origin.

    Examples
    --------
    >>> from engine import Circle
    >>> m, c, i, r = combine([(Circle(1.0, center=(1, 0)), 1.0), (Circle(1.0, center=(-1, 0)), 1.0)])
    >>> round(m, 6), c, round(i, 6), r
    (6.283185, (0.0, 0.0), 9.424778, 2.0)
    """
    attached = attached if type(attached) is list else list(attached)  # (read twice)
    mass = mx = my = about_origin = 0.0
    for shape, density in attached:
        # ``shape.mass_properties(density)`` without checking the density again (the
        # callers did): a body's mass is worked out at every shape added to it
        m, (cx, cy), moment = density * shape._area, shape._centroid, max(density * shape._second, 0.0)
        mass += m
        mx += m * cx
        my += m * cy
        about_origin += moment + m * (cx * cx + cy * cy)
    if mass > 0.0:
        cx, cy = mx / mass, my / mass
        inertia = max(about_origin - mass * (cx * cx + cy * cy), 0.0)
    else:
        cx = cy = inertia = 0.0
    extent = 0.0
    for shape, _ in attached:
        # (a lone shape's centre of mass is its centroid, mostly to the last bit: then
        # its reach, worked out once, is the same number)
        same = (cx, cy) == shape._centroid
        extent = max(extent, shape._reach if same else
                     surface_reach(shape._verts, shape._radius, cx, cy))
    return mass, (cx, cy), inertia, extent


def min_extent(shapes):
    """Smallest extent of a body's shapes: how thin its thinnest part is.

    For each convex piece, the distance from its centre to its nearest face plus its
    rounding radius (a circle's or capsule's radius); the smallest over all pieces.
    Continuous collision calls a body fast when one step moves it more than a fraction
    of this (Box2D's ``minExtent``). A body without shapes has an infinite one.

    Examples
    --------
    >>> from engine import Polygon, Circle
    >>> min_extent([Polygon.box(4.0, 0.1), Circle(1.0)])
    0.05
    """
    return min((shape._thin for shape in shapes), default=np.inf)  # (each shape its thinnest)


def thinnest(verts, norms, starts, radius):
    """The smallest, over the convex pieces, of the distance from a piece's vertex mean
    to its nearest face, plus the rounding ``radius`` (:func:`min_extent`).

    Examples
    --------
    >>> box = np.array([[-2.0, -0.5], [2.0, -0.5], [2.0, 0.5], [-2.0, 0.5]])
    >>> normals = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    >>> thinnest(box, normals, np.array([0, 4]), 0.1)
    0.6
    """
    best = np.inf
    for k in range(len(starts) - 1):
        v = verts[starts[k]:starts[k + 1]]
        inner = 0.0
        if len(v) >= 3:
            c = v.mean(axis=0)
            inner = float(np.min(np.einsum("ij,ij->i", v - c, norms[starts[k]:starts[k + 1]])))
        best = min(best, max(inner, 0.0) + radius)
    return best


def surface_reach(verts, radius, cx, cy):
    """The largest distance from ``(cx, cy)`` to the surface of the shape with core
    vertices ``verts`` and rounding ``radius`` (a body's extent, :func:`combine`).

    Examples
    --------
    >>> surface_reach(np.array([[0.0, 0.0], [3.0, 0.0]]), 0.5, 0.0, 4.0)
    5.5
    """
    return float(np.hypot(verts[:, 0] - cx, verts[:, 1] - cy).max() + radius)
