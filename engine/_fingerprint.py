"""Which sources decide the compiled kernels, their fingerprint, and the stale-cache guard.

Numba keys each cached kernel on the source file that defines it and nothing else, so a
kernel that calls or inlines code from another file (the narrowphase inlines the
manifold routines, for example) would keep running its stale compiled code after that
other file changed. ``_jit`` therefore calls :func:`clear_stale_cache` at import: it
fingerprints every kernel module of the package (every module that imports ``_jit``),
``_jit.py`` and ``_memory.py`` (helpers kernels inline) and every module of named values
only (``constants.py``, the row layouts: Numba bakes the values a kernel reads into its
compiled code), and clears their cached code when the fingerprint changed. The same
fingerprint tells whether the shipped kernels (``_prebuilt.py``) were built from these
sources.

Reading and hashing the 140 files takes about 17 ms, a twentieth of a warm start, so
the marker also keeps a digest of every ``.py`` file's path, size and modification time:
when those are unchanged, the fingerprint is taken from the marker without reading a
file (about 2 ms). The digest is kept only once every file is at least
:data:`SETTLED_SECONDS` old, so that a file rewritten twice within one tick of the file
system's clock, with the same size, is still read (git's "racily clean" entries).
This module is not part of the fingerprint itself: it decides nothing that is compiled.
"""
import hashlib
import os
import pathlib
import re
import time

__all__ = ["SETTLED_SECONDS", "clear_stale_cache", "kernel_fingerprint", "kernel_modules"]

ROOT = pathlib.Path(__file__).resolve().parent
SETTLED_SECONDS = 2.0
_IMPORTS_JIT = re.compile(rb"^from \.+_jit import", re.M)
# Modules of named values only (``constants.py``, row layouts) define nothing: Numba bakes
# the values kernels read from them into the compiled code, so they count as sources.
_DEFINES = re.compile(rb"^\s*(def|class) ", re.M)
# What kernels inline from outside their own modules, besides each other: ``borrowed``,
# ``copy_rows`` (``_jit.py``) and the memory intrinsics.
_TOOLKIT = ("_jit.py", "_memory.py")


def _root(package):
    return ROOT if package is None else pathlib.Path(package)


def _sources(root):
    """Every ``.py`` file under ``root`` with its bytes, each file read once."""
    return {p: p.read_bytes() for p in sorted(root.rglob("*.py"))}


def kernel_modules(package=None):
    """The kernel modules of ``package`` (default: this engine): every ``.py`` file under it
    that imports ``_jit``, sorted by path.

    Examples
    --------
    >>> names = [p.name for p in kernel_modules()]
    >>> "narrowphase.py" in names and "world.py" not in names
    True
    """
    return [p for p, text in _sources(_root(package)).items() if _IMPORTS_JIT.search(text)]


def _fingerprinted(root):
    """The files whose bytes decide what the kernels under ``root`` compile to, with
    their bytes (see the module's docstring)."""
    toolkit = {root / name for name in _TOOLKIT}
    return {p: text for p, text in _sources(root).items()
            if p in toolkit or _IMPORTS_JIT.search(text) or not _DEFINES.search(text)}


def kernel_fingerprint(package=None):
    """The SHA-256 of the path and bytes of every file that decides the compiled kernels.

    Examples
    --------
    >>> len(kernel_fingerprint())
    64
    """
    root = _root(package)
    digest = hashlib.sha256()
    for path, text in _fingerprinted(root).items():
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(text)
    return digest.hexdigest()


def _stats(root):
    """A digest of the path, size and modification time of every ``.py`` file under
    ``root``, and the newest modification time (ns)."""
    entries = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                entries.append((os.path.relpath(os.path.join(folder, name), root),
                                st.st_size, st.st_mtime_ns))
    entries.sort()
    newest = max((e[2] for e in entries), default=0)
    return hashlib.sha256(repr(entries).encode()).hexdigest(), newest


def clear_stale_cache(package=None):
    """Delete the cached kernels under ``package`` unless no kernel source changed;
    returns the sources' fingerprint (:func:`kernel_fingerprint`).

    The fingerprint and the digest of the files' sizes and times are kept in
    ``package/__pycache__/kernels.sha256``.

    Examples
    --------
    >>> clear_stale_cache() == kernel_fingerprint()
    True
    """
    root = _root(package)
    marker = root / "__pycache__" / "kernels.sha256"
    stats, newest = _stats(root)
    try:
        kept = marker.read_text().split()
    except OSError:
        kept = []
    if len(kept) == 2 and kept[1] == stats:
        return kept[0]  # no file changed since the marker was written
    fingerprint = kernel_fingerprint(root)
    settled = newest < time.time_ns() - SETTLED_SECONDS * 1e9
    try:
        if kept[:1] != [fingerprint]:
            for cache in {p.parent / "__pycache__" for p in _fingerprinted(root)}:
                if cache.is_dir():
                    for f in cache.iterdir():
                        if f.suffix in (".nbi", ".nbc"):
                            f.unlink()
        marker.parent.mkdir(exist_ok=True)
        marker.write_text(fingerprint + (" " + stats if settled else ""))
    except OSError:  # a read-only install: Numba caches elsewhere
        pass
    return fingerprint
