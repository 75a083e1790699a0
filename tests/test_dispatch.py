"""StageKernel (engine/_dispatch.py): the fast path is taken only with arguments of the
types of the last checked call (the same objects, or the same classes and Numba
fingerprints), and it gives what the dispatcher gives."""
import numba
import numpy as np

from engine import Circle, Polygon, World
from engine._dispatch import StageKernel
from engine.contacts import pair_set
from engine.world import stages


def test_arguments_of_the_same_types_take_the_entry_point_and_others_the_dispatcher():
    calls = []

    @numba.njit
    def total(a, scale):
        return a.sum() * scale

    kernel = StageKernel(total)
    a = np.arange(5.0)
    assert kernel(a, 2.0) == 20.0
    last, entry = kernel.memo
    assert last[0] is a and entry is not None
    spy = lambda *args: calls.append(args) or -1.0  # noqa: E731
    kernel.memo = (last, spy)  # spy on the fast path
    assert kernel(a, last[1]) == -1.0 and len(calls) == 1  # the same objects: fast path
    assert kernel(a.copy(), 3.0) == -1.0 and len(calls) == 2  # new, of the same types: too
    frozen = a.copy()
    frozen.setflags(write=False)
    # each of these has another Numba type: the dispatcher, which compiles it
    for other, want in ((a[::2], 12.0), (frozen, 20.0), (np.arange(4), 12.0),
                        (np.ones((2, 2)), 8.0)):
        kernel.memo = (last, spy)
        assert kernel(other, 2.0) == want and len(calls) == 2, other
    assert kernel(a, 2) == 20.0  # an int where a float was: checked, and compiled
    ints = np.arange(4)
    assert kernel(ints, 1.0) == 6.0  # a signature seen before: checked by Numba,
    assert kernel.memo[1] is None  # its entry point not worked out for one call,
    assert kernel(ints.copy(), 1.0) == 6.0 and kernel.memo[1] is not None  # but for a second
    assert kernel(ints, 1.0) == 6.0
    assert kernel(a, 2.0) == 20.0 and kernel(a, 2.0) == 20.0  # and back to the first


def test_a_named_tuple_of_another_class_is_checked_even_with_the_same_fingerprint():
    from collections import namedtuple
    First = namedtuple("Pair", "a b")
    Second = namedtuple("Pair", "a b")  # the same name and fields: the same fingerprint

    @numba.njit
    def first(p):
        return p.a.sum() + p.b

    kernel = StageKernel(first)
    x = np.ones(3)
    assert kernel(First(x, 1.0)) == 4.0
    calls = []
    kernel.memo = (kernel.memo[0], lambda *args: calls.append(args) or -1.0)
    assert kernel(First(x.copy(), 2.0)) == -1.0 and len(calls) == 1  # same class: fast
    assert kernel(Second(x, 2.0)) == 5.0 and len(calls) == 1  # another class: checked


def test_a_new_argument_is_fingerprinted_once_and_the_last_ones_not_again(monkeypatch):
    """The fingerprints of the last call's arguments are kept with them: a tuple that is
    new at every call (a world whose bodies change every step) costs one fingerprint a
    call, and a kept fingerprint still tells another type apart."""
    from collections import namedtuple
    from engine import _dispatch
    Cols = namedtuple("Cols", "x k")

    @numba.njit
    def total(c, scale):
        return c.x.sum() * scale + c.k[0]

    printed = []
    real = _dispatch.compute_fingerprint
    monkeypatch.setattr(_dispatch, "compute_fingerprint",
                        lambda v: printed.append(v) or real(v))
    monkeypatch.setattr(_dispatch, "_RECENT", {})
    kernel = StageKernel(total)

    def cols(n, dtype=np.int64):
        return Cols(np.ones(n), np.zeros(n, dtype))

    assert kernel(cols(3), 2.0) == 6.0  # the dispatcher: nothing fingerprinted
    assert printed == []
    second = cols(4)
    assert kernel(second, 2.0) == 8.0  # the new tuple and the last one
    assert len(printed) == 2 and printed[0] is second
    for n in range(5, 9):
        new = cols(n)
        assert kernel(new, 2.0) == 2.0 * n
        assert len(printed) == n - 2 and printed[-1] is new  # the new one only
    entry = kernel.memo[1]
    assert kernel(cols(3, np.int32), 2.0) == 6.0  # another type, told by the kept print
    assert kernel.memo[1] is not entry  # (checked, and compiled: another overload)
    assert kernel(cols(3), 2.0) == 6.0 and kernel(cols(2), 1.0) == 2.0  # back again


def test_a_plain_python_function_is_always_called_directly():
    kernel = StageKernel(lambda a: a + 1)  # what NUMBA_DISABLE_JIT leaves
    assert kernel(1) == 2 and kernel(1) == 2 and kernel.memo[1] is None


def test_a_resting_world_steps_on_the_fast_path_and_a_changed_one_rechecks():
    world = World(sleeping=False)
    world.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    box = world.create_body(position=(0, 0.5))
    box.add_shape(Polygon.box(1, 1))
    for _ in range(30):
        world.step(1 / 60)
    twin = World(sleeping=False)
    twin.create_body("static").add_shape(Polygon.box(10, 1, center=(0, -0.5)))
    twin.create_body(position=(0, 0.5)).add_shape(Polygon.box(1, 1))
    for _ in range(30):
        twin.step(1 / 60)
    world.step(1 / 60)  # after the twin's steps: this world's tuples are checked again,
    world.step(1 / 60)  # and the fast path is back at the next step (with several
    for kernel in (stages._step_bodies, stages._refresh_proxies, pair_set._update_contacts):
        assert kernel.memo[1] is not None, kernel.kernel.__name__  # overloads too)
    assert stages._step_bodies.memo[0][0] is world._state.body_arrays()
    twin.step(1 / 60)  # another world's tuples: the checked path, then its own fast path
    assert stages._step_bodies.memo[0][0] is twin._state.body_arrays()
    ball = world.create_body(position=(3, 1))  # a new body: new tuples, checked again
    ball.add_shape(Circle(0.2))
    twin.step(1 / 60)  # the twin takes as many steps as the world
    for _ in range(60):
        world.step(1 / 60)
        twin.step(1 / 60)
    assert world.positions[1].tolist() == twin.positions[1].tolist()  # bit for bit
    assert ball.position[1] < 0.3  # it fell and landed


def test_the_engine_runs_as_plain_python_for_debugging():
    """``NUMBA_DISABLE_JIT=1`` runs every kernel as Python, for a debugger or prints:
    ``borrowed`` (a Numba intrinsic) must then be the identity, not raise."""
    import subprocess
    import sys
    code = ("from engine import World, Circle, Polygon\n"
            "w = World()\n"
            "w.create_body('static').add_shape(Polygon.box(5, 0.5))\n"
            "b = w.create_body(position=(0, 2)); b.add_shape(Circle(0.5))\n"
            "for _ in range(30): w.step(1 / 60)\n"
            "assert abs(b.position[1] - 0.75) < 0.02, b.position\n"
            "assert w.ray_cast((0, 5), (0, -5)).body == b\n")
    env = {**__import__("os").environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=120)
