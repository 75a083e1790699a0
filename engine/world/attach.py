"""The part of :class:`engine.World` that attaches shapes to bodies: pieces, the vertex
pool, broadphase proxies and mass properties.

A mixin, not a class of its own: these methods read and write the world's columns
directly (bodies ``_b``, pieces ``_p``, geometry ``_g``, the two trees), and splitting
them out keeps ``world.py`` to the step and the public API. Nothing here is public.
"""
import math

import numpy as np

from .. import constants as K
from ..broadphase import proxies as _px
from ..geometry.convex import piece_box
from ..constants import DYNAMIC, STATIC
from ..geometry.mass import combine, min_extent
from .shape_handle import ShapeHandle
from ..geometry.shapes import Shape
from .._checks import as_non_negative, as_positive

__all__ = ["WorldShapes"]


class WorldShapes:
    """Shape and piece management of :class:`engine.World` (a mixin over its arrays)."""

    def _add_shape(self, body, shape, density, friction, restitution):
        self._check_unlocked()
        if not isinstance(shape, Shape):
            raise TypeError(f"shape must be a Circle, Segment or Polygon, got {type(shape).__name__}")
        i = self._body_row(body)
        density = as_positive(density, "density")
        friction = as_non_negative(friction, "friction")
        restitution = as_non_negative(restitution, "restitution")
        starts = shape._starts
        nv = int(starts[-1])
        self._g.ensure(self._g_used + nv)
        g0 = self._g_used
        self._g.verts[g0:g0 + nv] = shape._verts
        self._g.norms[g0:g0 + nv] = shape._norms
        self._g.ghost[g0:g0 + nv] = shape._ghost
        self._g_used += nv
        pieces = []
        kind = int(self._b.btype[i])
        for k in range(len(starts) - 1):
            p = self._new_piece()
            P = self._p
            P.alive[p] = 1
            P.body[p] = i
            P.start[p] = g0 + starts[k]
            P.count[p] = starts[k + 1] - starts[k]
            P.radius[p] = shape._radius
            P.friction[p] = friction
            P.restitution[p] = restitution
            P.static[p] = kind == STATIC
            P.dynamic[p] = kind == DYNAMIC
            P.fat[p] = self._fat_box(p)
            P.node[p] = self._tree_of(p).insert(P.fat[p], p)
            self._mark_moved(p)
            pieces.append(p)
        h = ShapeHandle(body, shape, density, friction, restitution, np.array(pieces, dtype=np.int64))
        self._body_shapes[body._key].append(h)
        self._update_mass(i)
        return h

    def _remove_shape(self, body, handle):
        self._check_unlocked()
        i = self._body_row(body)
        shapes = self._body_shapes[body._key]
        if not isinstance(handle, ShapeHandle) or handle not in shapes:
            raise ValueError(f"{handle!r} is not attached to {body!r}")
        shapes.remove(handle)
        self._detach_pieces(handle)
        self._update_mass(i)

    def _detach_pieces(self, handle):
        for p in handle._pieces:
            self._tree_of(p).remove(int(self._p.node[p]))
            self._p.reset_row(p)
            self._p_free.append(int(p))
        a, b = self._pairs.pieces()
        dead = np.isin(a, handle._pieces) | np.isin(b, handle._pieces)
        self._pairs.keep(~dead)

    def _new_piece(self):
        if self._p_free:
            return self._p_free.pop()
        p = self._p_used
        self._p.ensure(p + 1)
        self._p_used += 1
        return p

    def _tree_of(self, p):
        return self._static_tree if self._p.static[p] else self._tree

    def _fat_box(self, p):
        P, b = self._p, self._b
        i = P.body[p]
        c, s = math.cos(b.angle[i]), math.sin(b.angle[i])
        box = piece_box(self._g.verts, P.start[p], P.count[p], P.radius[p],
                        b.pos[i, 0], b.pos[i, 1], c, s, K.SPECULATIVE_DISTANCE)
        if P.static[p]:
            return np.array(box)
        g = _px.fat_margin(box[2], box[3], box[0], box[1], K.AABB_MARGIN, K.AABB_MARGIN_FRACTION)
        return np.array((box[0] - g, box[1] - g, box[2] + g, box[3] + g))

    def _reinsert(self, p):
        self._p.fat[p] = self._fat_box(p)
        self._tree_of(p).move(int(self._p.node[p]), self._p.fat[p])
        self._mark_moved(p)

    def _mark_moved(self, p):
        # New or teleported proxies must look for pairs at the next step.
        self._teleported.append((bool(self._p.static[p]), int(self._p.node[p])))

    def _update_mass(self, i):
        """Mass, centre of mass, inertia and extent of body row ``i`` from its shapes."""
        b = self._b
        key = int(b.key[i])
        attached = self._body_shapes.get(key, ())
        mass, com, inertia, extent = combine((h.shape, h.density) for h in attached)
        b.min_extent[i] = min_extent(h.shape for h in attached)
        old_com = b.com[i].copy()
        b.com[i] = com
        if b.btype[i] != DYNAMIC:
            b.mass[i] = b.inv_mass[i] = b.inertia[i] = b.inv_inertia[i] = 0.0
        elif mass > 0.0:
            b.mass[i], b.inv_mass[i] = mass, 1.0 / mass
            b.inertia[i] = inertia
            b.inv_inertia[i] = 1.0 / inertia if inertia > 0.0 else 0.0
        else:
            b.mass[i], b.inv_mass[i] = 1.0, 1.0  # documented: unit mass, no rotation
            b.inertia[i] = b.inv_inertia[i] = 0.0
        b.extent[i] = extent
        # Keep the velocity of the material points: the centre moved, v follows w x d.
        c, s = math.cos(b.angle[i]), math.sin(b.angle[i])
        dx, dy = b.com[i] - old_com
        wx, wy = c * dx - s * dy, s * dx + c * dy
        b.vel[i, 0] -= b.angvel[i] * wy
        b.vel[i, 1] += b.angvel[i] * wx

    def _override_mass(self, body, mass=None, inertia=None):
        self._check_unlocked()
        i = self._body_row(body)
        if self._b.btype[i] != DYNAMIC:
            raise ValueError("only dynamic bodies have a mass to set")
        if mass is not None:
            m = as_positive(mass, "mass")
            self._b.mass[i], self._b.inv_mass[i] = m, 1.0 / m
        if inertia is not None:
            j = as_non_negative(inertia, "inertia")
            self._b.inertia[i] = j
            self._b.inv_inertia[i] = 1.0 / j if j > 0.0 else 0.0
