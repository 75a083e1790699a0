"""Kernels compiled ahead of time, shipped with the package, loaded when nothing is cached.

A program's first run would otherwise compile every kernel it calls (about 50 s on a
2-core machine for a pyramid's first step). The package carries an archive,
``engine/prebuilt/<target>-py<version>.zip``, of Numba cache entries built by
``python tools/build_kernels.py`` for one instruction set, ``x86-64-v3`` (AVX2 and FMA:
Intel since Haswell, 2013; AMD since Excavator, 2015). When a kernel is missing from
Numba's ordinary cache, :class:`PrebuiltCache` looks for it in the archive; if the
archive holds it, its machine code is loaded (as from Numba's cache) and also written to
the ordinary cache, so later runs load it from there, as they always did. A kernel the
archive lacks compiles as before.

The archive is used only where its code is right and runs:

- its fingerprint equals the kernel sources' (``_jit.kernel_fingerprint``: the same
  fingerprint that clears stale ordinary caches), so a changed kernel is never loaded
  from it;
- the Python (cache file names carry ``py311``) and Numba versions are the ones it was
  built with;
- the machine is Linux on x86-64 and its processor has every feature of ``x86-64-v3``;
- ``ENGINE_PREBUILT`` is not ``0`` and Numba's JIT is on.

Anything else (another processor, Python or Numba, a kernel edited since the build)
compiles as before: slower to start, never wrong. The code is the one a compile with
``NUMBA_CPU_NAME=x86-64-v3`` gives, so on a machine that uses the archive every run
computes the same numbers, first or later. ``tests/test_prebuilt.py`` checks that the
archive matches the sources, that a cold start compiles nothing, and that its positions
equal those of kernels compiled on this machine.
"""
import io
import json
import os
import pathlib
import pickle
import platform
import sys
import zipfile

import numba
from numba.core import caching

__all__ = ["MANIFEST", "TARGET", "PrebuiltCache", "archive_path", "attach", "configure", "entry_folder",
           "host_runs", "stale", "usable"]

# Numba's name for the instruction set and the features it implies (LLVM's names);
# a machine runs the archive's code only if its processor reports all of them.
TARGET = "x86-64-v3"
_FEATURES = ("avx", "avx2", "bmi", "bmi2", "cx16", "f16c", "fma", "lzcnt", "movbe", "popcnt",
             "sahf", "sse3", "sse4.1", "sse4.2", "ssse3", "xsave")
MANIFEST = "manifest.json"


def archive_path(root, version=None):
    """Where the archive for :data:`TARGET` and a Python ``version`` (default: this one's,
    ``(major, minor)``) lives under the package ``root``: one archive per Python, since
    the cached code and its index depend on the interpreter.

    Examples
    --------
    >>> archive_path("/pkg", (3, 11)).as_posix()
    '/pkg/prebuilt/x86-64-v3-py311.zip'
    """
    major, minor = version or sys.version_info[:2]
    return pathlib.Path(root) / "prebuilt" / f"{TARGET}-py{major}{minor}.zip"


def entry_folder(folder, root):
    """The archive's name prefix for kernels defined in ``folder`` of the package ``root``.

    Examples
    --------
    >>> entry_folder("/pkg/dynamics", "/pkg"), entry_folder("/pkg", "/pkg")
    ('dynamics/', '')
    """
    relative = pathlib.PurePath(folder).relative_to(root).as_posix()
    return "" if relative == "." else relative + "/"


def host_runs(features=None):
    """Whether this machine runs ``x86-64-v3`` code (Linux, x86-64, every feature).

    Examples
    --------
    >>> host_runs({"avx2": False})
    False
    """
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return False
    if features is None:
        from llvmlite import binding as ll
        features = ll.get_host_cpu_features()
    return all(features.get(name, False) for name in _FEATURES)


class _Archive:
    """The opened archive: its index files, read on demand, and its data entries."""

    def __init__(self, path, root):
        self.zip = zipfile.ZipFile(path)
        self.root = root
        self.manifest = json.loads(self.zip.read(MANIFEST))
        self.magic = tuple(self.manifest["magic"])
        self.indexes = {}

    def overloads(self, index_name):
        """The ``{key: data entry}`` of one index file of the archive (empty if absent)."""
        if index_name not in self.indexes:
            try:
                raw = self.zip.read(index_name)
            except KeyError:
                self.indexes[index_name] = {}
            else:
                stream = io.BytesIO(raw)
                pickle.load(stream)  # Numba's version, checked once in the manifest
                self.indexes[index_name] = pickle.loads(stream.read())[1]
        return self.indexes[index_name]

    def payload(self, cache, key):
        """The pickled cache entry of ``cache``'s kernel for ``key``, or None."""
        folder = entry_folder(pathlib.Path(cache._py_func.__code__.co_filename).resolve().parent, self.root)
        index_name = folder + cache._cache_file._index_name
        data_name = self.overloads(index_name).get((key[0], self.magic, key[2]))
        if data_name is None:
            return None
        return pickle.loads(self.zip.read(folder + data_name))


_state = {"archive": None, "stale": False}


def configure(root, fingerprint):
    """Open the archive under ``root`` if it may be used here (see the module's
    docstring); returns whether it will be. Called once, by ``_jit`` at import.

    Examples
    --------
    >>> configure("/nonexistent", "0" * 64)
    False
    """
    _state["archive"], _state["stale"] = None, False
    path = archive_path(root)
    if (os.environ.get("ENGINE_PREBUILT", "1") == "0" or numba.config.DISABLE_JIT
            or not path.is_file() or not host_runs()):
        return False
    try:
        archive = _Archive(path, pathlib.Path(root).resolve())
    except (OSError, zipfile.BadZipFile, ValueError, KeyError):
        return False
    manifest = archive.manifest
    if manifest.get("numba") != numba.__version__ or manifest.get("python") != list(sys.version_info[:2]):
        return False
    if manifest.get("fingerprint") != fingerprint:
        _state["stale"] = True  # kernels edited since the build (a developer's tree)
        return False
    _state["archive"] = archive
    return True


def usable():
    """Whether kernels missing from Numba's cache are looked for in the archive."""
    return _state["archive"] is not None


def stale():
    """Whether the archive would serve this machine but was built from other sources
    (kernels edited since): ``python tools/build_kernels.py`` rebuilds it."""
    return _state["stale"]


class PrebuiltCache(caching.FunctionCache):
    """Numba's cache of one kernel, falling back to the shipped archive on a miss."""

    def _load_overload(self, sig, target_context):
        data = super()._load_overload(sig, target_context)
        archive = _state["archive"]
        if data is not None or archive is None or not self._enabled:
            return data
        key = self._index_key(sig, target_context.codegen())
        try:
            payload = archive.payload(self, key)
        except (KeyError, ValueError, OSError, zipfile.BadZipFile):
            return None
        if payload is None:
            return None
        try:  # keep it in the ordinary cache: later runs load it from there
            self._impl.locator.ensure_cache_path()
            self._cache_file.save(key, payload)
        except OSError:
            pass
        return self._impl.rebuild(target_context, payload)


def attach(dispatcher):
    """Give ``dispatcher`` (a cached Numba kernel) the archive as a fallback; returns it."""
    cache = getattr(dispatcher, "_cache", None)
    if type(cache) is caching.FunctionCache:
        cache.__class__ = PrebuiltCache
    return dispatcher
