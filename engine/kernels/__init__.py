"""Numba kernels over NumPy arrays: everything per body, per piece, per contact.

Kernels are compiled on first use and cached on disk (``cache=True``, see ``_jit.py``).
Numba keys each cached kernel on the source file that defines it and nothing else, so a
kernel that calls or inlines code from another file (``narrowphase`` uses ``manifold``
and ``layout``, for example) would keep running its stale compiled code after that other
file changed: after a ``git pull`` or an upgrade in place, wrong physics, silently. To
rule that out, this package fingerprints all of its sources at import and clears its own
cache when any of them changed (about a millisecond). Caches that Numba keeps elsewhere
(``NUMBA_CACHE_DIR``, or a user-wide directory for read-only installs) are not covered:
clear those by hand after changing kernels.
"""
import hashlib
import pathlib


def _clear_stale_cache(here=None):
    """Delete the cached kernels in ``here/__pycache__`` unless the sources are unchanged."""
    here = pathlib.Path(__file__).resolve().parent if here is None else pathlib.Path(here)
    digest = hashlib.sha256()
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    fingerprint = digest.hexdigest()
    cache = here / "__pycache__"
    marker = cache / "kernels.sha256"
    try:
        if marker.is_file() and marker.read_text() == fingerprint:
            return
        if cache.is_dir():
            for f in cache.iterdir():
                if f.suffix in (".nbi", ".nbc"):
                    f.unlink()
        cache.mkdir(exist_ok=True)
        marker.write_text(fingerprint)
    except OSError:  # a read-only install: Numba caches elsewhere
        pass


_clear_stale_cache()
