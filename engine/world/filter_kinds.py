"""The kinds of collision filters in a world's two trees, for the pair search's skip.

``find_pairs.tree_find_pairs`` skips a tree for a moved leaf whose filter no shape of
that tree can pass, judged by the unions of the tree's categories and masks
(``filter_rule.unions_of``). The unions are worked out from the set of distinct
``(category, mask, on a static body)`` a world's shapes have: a game that makes and
removes bodies every step keeps one or two kinds, so the set rarely changes and the
unions are not worked out again. The set only grows (a removed shape's kind stays,
which keeps the unions wide enough, never too narrow); it lives in the state's scratch
(not pickled: rebuilt from the shapes when next needed), and a body that changes tree
(static to moving or back) drops it.
"""
from ..broadphase.filter_rule import unions_of
from ..constants import STATIC

__all__ = ["note", "forget", "search_unions"]

_KINDS = "filter_kinds"
_UNIONS = "filter_unions"


def note(state, category, mask, static):
    """A shape of filter ``category``, ``mask`` joined the static tree (``static``) or the
    moving one."""
    kinds = state.scratch.get(_KINDS)
    if kinds is not None:
        kinds.add((int(category), int(mask), bool(static)))


def forget(state):
    """Shapes changed trees: the kinds are worked out again from the shapes."""
    state.scratch.pop(_KINDS, None)


def search_unions(state):
    """``(moving, static)``: the ``unions`` of ``tree_find_pairs`` for the moving tree's
    search and for the static tree's (``filter_rule.unions_of``).

    Examples
    --------
    >>> from engine import Circle, Filter, World
    >>> world = World()
    >>> _ = world.create_body().add_shape(Circle(0.5), filter=Filter(category=2, mask=1))
    >>> moving, static = search_unions(world._state)
    >>> moving.tolist(), static.tolist()  # the moving tree: category 2 and mask 1 only
    ([2, 1, 0, 0], [0, 0, 2, 1])
    """
    kinds = state.scratch.get(_KINDS)
    if kinds is None:
        s = state.shapes
        n = s.used
        live = s.body[:n] >= 0
        fixed = state.bodies.btype[s.body[:n][live]] == STATIC
        kinds = state.scratch[_KINDS] = set(zip(s.category[:n][live].tolist(),
                                                s.mask[:n][live].tolist(), fixed.tolist()))
    kept = state.scratch.get(_UNIONS)
    if kept is None or kept[0] is not kinds or kept[1] != len(kinds):
        kept = state.scratch[_UNIONS] = (kinds, len(kinds), unions_of(kinds))
    return kept[2]
