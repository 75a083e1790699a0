"""Broadphase proxies: each piece's bounding box, and fat boxes that absorb small motion.

A piece's *tight* box bounds its rounded core at the current pose, grown by the
speculative distance (so a contact can be created before the shapes touch). Its *fat*
box, stored in the tree, adds a margin: while the tight box stays inside the fat one the
tree is not touched (Box2D v3: margin = min(5 cm, 0.125 x extent); static proxies get no
margin since they do not move).
"""

from .._jit import borrowed, njit, njit_inline
from .tree_build import refit_pays, tree_refresh
from .tree_ops import META_LEAVES, META_NODES, tree_insert, tree_move
from ..geometry.convex import piece_box, turns_freely
from ..constants import LANE_WIDTH, MOVED_BY_HAND, STATIC


@njit
def fat_margin(maxx, maxy, minx, miny, margin, fraction):
    """Fat-box margin of a piece: at most ``margin``, at most ``fraction`` of its extent."""
    extent = 0.5 * max(maxx - minx, maxy - miny)
    return min(margin, fraction * extent)


@njit
def fat_box(verts, start, count, radius, x, y, c, s, static, speculative, margin, fraction):
    """The fat box of a piece placed at ``(x, y)`` turned by ``(c, s)`` = (cos, sin): its
    tight box grown by ``speculative``, then by the fat margin unless ``static``."""
    x0, y0, x1, y1 = piece_box(verts, start, count, radius, x, y, c, s, speculative)
    if static:
        return x0, y0, x1, y1
    g = fat_margin(x1, y1, x0, y0, margin, fraction)
    return x0 - g, y0 - g, x1 + g, y1 + g


@njit
def insert_pieces(tree, verts, starts, counts, radius, x, y, c, s, static, shift, users, params, fat, nodes,
                  first):
    """Box and insert new pieces ``first``, ``first + 1``, ... (``World.create_bodies``,
    ``World.add_copy``);
    returns the first piece not inserted: all of them, or the one the tree had no two
    free nodes for (grow it by ``AABBTree.reserve(2)``, as an insert does, and go on).

    Piece ``k`` (vertex rows ``starts[k]`` .. ``+ counts[k]`` of ``verts``, rounding
    ``radius[k]``) is placed at ``(x[k], y[k])`` turned by ``(c[k], s[k])``; its fat box (as
    :func:`fat_box` computes it, no margin when ``static[k]``) goes to ``fat[k]``, and a leaf
    for ``users[k]`` with that box moved ``shift[k]`` along x to ``nodes[k]``. ``tree`` is
    the ``TreeArrays`` to insert into; ``params`` the ``ProxyParams``.
    """
    for k in range(first, users.shape[0]):
        if tree.aabb.shape[0] - tree.meta[META_NODES] < 2:
            return k
        x0, y0, x1, y1 = fat_box(verts, starts[k], counts[k], radius[k], x[k], y[k], c[k], s[k], static[k],
                                 params.speculative, params.margin, params.fraction)
        fat[k, 0], fat[k, 1], fat[k, 2], fat[k, 3] = x0, y0, x1, y1
        nodes[k] = tree_insert(tree.aabb, tree.parent, tree.child1, tree.child2, tree.height, tree.user,
                               tree.meta, x0 + shift[k], y0, x1 + shift[k], y1, users[k])
    return users.shape[0]


@njit_inline
def _moving_box(verts, start, count, radius, x, y, c, s, grow, tx, ty):
    """A piece's box at ``(x, y)`` turned by ``(c, s)``, grown by ``grow``, united with
    itself moved by ``(tx, ty)``: the box it sweeps over the coming step."""
    x0, y0, x1, y1 = piece_box(verts, start, count, radius, x, y, c, s, grow)
    return min(x0, x0 + tx), min(y0, y0 + ty), max(x1, x1 + tx), max(y1, y1 + ty)


@njit_inline
def _update_tree(pieces, lane, tree, moved, n_moved, quality):
    """Give the leaves of the ``n_moved`` pieces listed in ``moved`` their new fat boxes
    (moved by their lane) and replace the list by their leaf nodes: boxes changed in
    place and the tree refit or rebuilt when many moved, else each leaf moved."""
    aabb, parent, child1, child2, height, user, meta = tree
    piece_body, piece_node, piece_fat = pieces.body, pieces.node, pieces.fat
    if refit_pays(n_moved, meta[META_LEAVES]):
        for k in range(n_moved):
            i = moved[k]
            node = piece_node[i]
            shift = lane[piece_body[i]] * LANE_WIDTH
            aabb[node, 0] = piece_fat[i, 0] + shift
            aabb[node, 1] = piece_fat[i, 1]
            aabb[node, 2] = piece_fat[i, 2] + shift
            aabb[node, 3] = piece_fat[i, 3]
            moved[k] = node
        tree_refresh(aabb, parent, child1, child2, height, user, meta, quality)
    else:
        for k in range(n_moved):
            i = moved[k]
            node = piece_node[i]
            f = piece_fat[i]
            shift = lane[piece_body[i]] * LANE_WIDTH
            tree_move(aabb, parent, child1, child2, height, user, meta, node, f[0] + shift, f[1],
                      f[2] + shift, f[3])
            moved[k] = node


@njit
def refresh_proxies(bodies, pieces, tree, params, moved, quality):
    """Re-box the pieces of moving bodies; update the tree for those that left their fat box.

    The tight box is swept along the body's motion over the coming step (the box at
    the start united with the box moved by ``v dt``), grown for rotation by
    ``|w| extent dt`` and by the speculative distance, so pairs that may touch during
    the step are tracked before they do (speculative contacts, Firth 2011).

    ``bodies.moved`` marks bodies whose pose changed since the last refresh; a body at
    rest that did not move keeps its boxes.

    ``bodies``, ``pieces``: ``BodyArrays`` and ``PieceArrays`` (``world/state.py``);
    ``tree``: the moving-body tree's ``TreeArrays``; ``params``: ``ProxyParams`` (step,
    speculative distance, fat margin and its fraction of the extent).
    ``moved`` int32 (>= pieces,) receives the leaves whose fat box changed; the return
    value is how many. Those are the only proxies that can form new pairs. A leaf's box
    is its fat box moved ``lane * LANE_WIDTH`` along x (0 outside a ``WorldBatch``). When many
    leaves moved (``tree_build.refit_pays``), their boxes change in place and the
    tree is refit or rebuilt (``tree_build.tree_refresh``; ``quality`` is kept by the
    caller): cheaper than reinserting each leaf (Box2D enlarges boxes in place and
    rebuilds the enlarged subtrees every step for the same reason).
    """
    # borrowed: else each view ``piece_fat[i]`` and ``tree_move`` call counts atomically
    bodies, pieces, tree, moved, quality = borrowed((bodies, pieces, tree, moved, quality))
    btype, pos, turn, vel, angvel = bodies.btype, bodies.pos, bodies.turn, bodies.vel, bodies.angvel
    extent, moved_body, lane = bodies.extent, bodies.moved, bodies.lane
    piece_body, piece_start, piece_count = pieces.body, pieces.start, pieces.count
    piece_radius, piece_fat, verts = pieces.radius, pieces.fat, pieces.verts
    dt, speculative, margin, fraction = params
    n_moved = 0
    piece_sensor = pieces.sensor
    for i in range(piece_body.shape[0]):
        if piece_body[i] < 0 or piece_sensor[i]:  # a free row, or a sensor's (own tree)
            continue
        b = piece_body[i]
        if btype[b] == STATIC:
            continue
        if moved_body[b] == 0 and vel[b, 0] == 0.0 and vel[b, 1] == 0.0 and angvel[b] == 0.0:
            continue  # at rest and unmoved since its box was made: the box still holds
        k = piece_start[i]
        circle = turns_freely(verts, k, piece_count[i])
        x0, y0, x1, y1 = _moving_box(verts, k, piece_count[i], piece_radius[i], pos[b, 0], pos[b, 1],
                                     1.0 if circle else turn[b, 0], 0.0 if circle else turn[b, 1],
                                     speculative + dt * abs(angvel[b]) * extent[b],
                                     dt * vel[b, 0], dt * vel[b, 1])
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
    _update_tree(pieces, lane, tree, moved, n_moved, quality)
    return n_moved


@njit
def placed_proxies(bodies, pieces, moving, static):
    """The leaves of the pieces of bodies placed by hand (``moved`` == MOVED_BY_HAND: a
    pose set, a shape added, a type changed): they look for new pairs although their fat
    boxes may not have changed.

    ``moving`` and ``static`` int32 (>= pieces,) receive the leaves in the moving-body
    and the static tree; returns both counts. Static bodies' marks are cleared here (no
    later stage reads them); the solver turns the others' into MOVED_BY_STEP.
    """
    btype, moved = bodies.btype, bodies.moved
    piece_body, piece_node = pieces.body, pieces.node
    n_moving = 0
    n_static = 0
    for p in range(piece_body.shape[0]):
        b = piece_body[p]
        if b < 0 or moved[b] != MOVED_BY_HAND or pieces.sensor[p]:
            continue
        if btype[b] == STATIC:
            static[n_static] = piece_node[p]
            n_static += 1
        else:
            moving[n_moving] = piece_node[p]
            n_moving += 1
    for b in range(btype.shape[0]):
        if btype[b] == STATIC and moved[b] == MOVED_BY_HAND:
            moved[b] = 0
    return n_moving, n_static
