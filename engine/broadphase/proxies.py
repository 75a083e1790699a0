"""Broadphase proxies: each piece's bounding box, and fat boxes that absorb small motion.

A piece's *tight* box bounds its rounded core at the current pose, grown by the
speculative distance (so a contact can be created before the shapes touch). Its *fat*
box, stored in the tree, adds a margin: while the tight box stays inside the fat one the
tree is not touched (Box2D v3: margin = min(5 cm, 0.125 x extent); static proxies get no
margin since they do not move).
"""
import math

from .._jit import njit
from .tree_ops import META_LEAVES, tree_move, tree_rebuild
from ..geometry.convex import piece_box
from ..constants import STATIC


@njit
def fat_margin(maxx, maxy, minx, miny, margin, fraction):
    """Fat-box margin of a piece: at most ``margin``, at most ``fraction`` of its extent."""
    extent = 0.5 * max(maxx - minx, maxy - miny)
    return min(margin, fraction * extent)


@njit
def refresh_proxies(piece_alive, piece_body, piece_start, piece_count, piece_radius, piece_node,
                    piece_fat, verts, btype, pos, angle, vel, angvel, extent, moved_body, dt,
                    speculative,
                    margin, fraction, aabb, parent, child1, child2, height, user, meta, moved):
    """Re-box the pieces of moving bodies; update the tree for those that left their fat box.

    The tight box is swept along the body's motion over the coming step (the box at
    the start united with the box moved by ``v dt``), grown for rotation by
    ``|w| extent dt`` and by the speculative distance, so pairs that may touch during
    the step are tracked before they do (speculative contacts, Firth 2011).

    ``moved_body`` (n,) uint8 marks bodies whose pose changed since the last refresh; a
    body at rest that did not move keeps its boxes without recomputing them.

    The seven tree arrays are the moving-body tree's (layout in ``tree_ops``).
    ``moved`` int32 (>= pieces,) receives the leaves whose fat box changed; the return
    value is how many. Those are the only proxies that can form new pairs. When more
    than a quarter of the leaves moved (a falling pile), rebuilding the tree top-down
    once is cheaper than removing and reinserting each of them (Box2D rebuilds
    enlarged subtrees every step for the same reason).
    """
    n_moved = 0
    for i in range(piece_alive.shape[0]):
        if piece_alive[i] == 0:
            continue
        b = piece_body[i]
        if btype[b] == STATIC:
            continue
        if moved_body[b] == 0 and vel[b, 0] == 0.0 and vel[b, 1] == 0.0 and angvel[b] == 0.0:
            continue  # at rest and unmoved since its box was made: the box still holds
        c = math.cos(angle[b])
        s = math.sin(angle[b])
        turn = dt * abs(angvel[b]) * extent[b]
        x0, y0, x1, y1 = piece_box(verts, piece_start[i], piece_count[i], piece_radius[i],
                                   pos[b, 0], pos[b, 1], c, s, speculative + turn)
        tx = dt * vel[b, 0]
        ty = dt * vel[b, 1]
        x0 = min(x0, x0 + tx)
        x1 = max(x1, x1 + tx)
        y0 = min(y0, y0 + ty)
        y1 = max(y1, y1 + ty)
        f = piece_fat[i]
        if x0 >= f[0] and y0 >= f[1] and x1 <= f[2] and y1 <= f[3]:
            continue
        g = fat_margin(x1, y1, x0, y0, margin, fraction)
        f[0] = x0 - g
        f[1] = y0 - g
        f[2] = x1 + g
        f[3] = y1 + g
        moved[n_moved] = i
        n_moved += 1
    if 4 * n_moved > meta[META_LEAVES] and n_moved > 32:
        for k in range(n_moved):
            i = moved[k]
            node = piece_node[i]
            for j in range(4):
                aabb[node, j] = piece_fat[i, j]
            moved[k] = node
        tree_rebuild(aabb, parent, child1, child2, height, user, meta)
    else:
        for k in range(n_moved):
            i = moved[k]
            node = piece_node[i]
            f = piece_fat[i]
            tree_move(aabb, parent, child1, child2, height, user, meta, node, f[0], f[1], f[2], f[3])
            moved[k] = node
    return n_moved
