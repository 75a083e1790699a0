"""The kernel cache is dropped when any kernel source changes, wherever it lives (engine/_jit.py)."""
from engine._jit import clear_stale_cache, kernel_modules


def _package(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "k.py").write_text("from .._jit import njit\nX = 1\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "k.py").write_text("from .._jit import njit_exact\nY = 2\n")
    (tmp_path / "api.py").write_text("def f():\n    return 3\n")  # not a kernel module
    for folder in ("a", "b"):
        (tmp_path / folder / "__pycache__").mkdir()
    return tmp_path


def test_kernel_modules_are_the_files_that_import_jit(tmp_path):
    root = _package(tmp_path)
    assert [p.relative_to(root).as_posix() for p in kernel_modules(root)] == ["a/k.py", "b/k.py"]


def test_changed_source_clears_cached_kernels_in_every_package_and_only_then(tmp_path):
    root = _package(tmp_path)
    clear_stale_cache(root)
    stale_a = root / "a" / "__pycache__" / "k.f-1.py311.nbi"
    stale_b = root / "b" / "__pycache__" / "k.g-2.py311.nbc"
    stale_a.write_text("compiled")
    stale_b.write_text("compiled")
    clear_stale_cache(root)  # nothing changed: the caches survive
    assert stale_a.exists() and stale_b.exists()
    (root / "api.py").write_text("def f():\n    return 4\n")  # not a kernel: nothing to clear
    clear_stale_cache(root)
    assert stale_a.exists() and stale_b.exists()
    (root / "b" / "k.py").write_text("from .._jit import njit_exact\nY = 3\n")  # a kernel changed
    clear_stale_cache(root)
    assert not stale_a.exists() and not stale_b.exists()
    assert (root / "__pycache__" / "kernels.sha256").is_file()


def test_the_engine_kernels_are_found_in_every_concept_package():
    folders = {p.parent.name for p in kernel_modules()}
    assert {"geometry", "collision", "broadphase", "contacts", "dynamics"} <= folders


def test_a_changed_constant_clears_the_cached_kernels(tmp_path):
    root = _package(tmp_path)
    (root / "constants.py").write_text("LIMIT = 1.0\n")
    clear_stale_cache(root)
    stale = root / "a" / "__pycache__" / "k.f-1.py311.nbi"
    stale.write_text("compiled")
    (root / "constants.py").write_text("LIMIT = 2.0\n")  # baked into compiled kernels
    clear_stale_cache(root)
    assert not stale.exists()


def _age(root, seconds=60):
    """Set every file under ``root`` ``seconds`` into the past."""
    import os
    import time
    past = time.time() - seconds
    for p in root.rglob("*.py"):
        os.utime(p, (past, past))


def test_unchanged_settled_files_are_not_read_again(tmp_path, monkeypatch):
    from engine import _fingerprint
    root = _package(tmp_path)
    first = clear_stale_cache(root)
    marker = root / "__pycache__" / "kernels.sha256"
    assert marker.read_text().split() == [first]  # files just written: no shortcut kept
    _age(root)
    assert clear_stale_cache(root) == first
    assert len(marker.read_text().split()) == 2  # the files' sizes and times kept too

    def unread(*args):
        raise AssertionError("the sources were read again")
    monkeypatch.setattr(_fingerprint, "kernel_fingerprint", unread)
    assert clear_stale_cache(root) == first  # from the marker
    monkeypatch.undo()
    stale = root / "a" / "__pycache__" / "k.f-1.py311.nbi"
    stale.write_text("compiled")
    (root / "a" / "k.py").write_text("from .._jit import njit\nX = 2\n")  # same size, new time
    assert clear_stale_cache(root) != first
    assert not stale.exists()
