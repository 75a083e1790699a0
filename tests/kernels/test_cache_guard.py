"""The kernel cache is dropped when any kernel source changes (engine/kernels/__init__.py)."""
from engine.kernels import _clear_stale_cache


def test_changed_source_clears_cached_kernels_and_only_then(tmp_path):
    (tmp_path / "a.py").write_text("X = 1\n")
    (tmp_path / "b.py").write_text("Y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    _clear_stale_cache(tmp_path)
    stale = cache / "a.f-1.py311.nbi"
    stale.write_text("compiled")
    _clear_stale_cache(tmp_path)  # nothing changed: the cache survives
    assert stale.exists()
    (tmp_path / "b.py").write_text("Y = 3\n")  # a dependency changed
    _clear_stale_cache(tmp_path)
    assert not stale.exists()
    assert (cache / "kernels.sha256").is_file()
