"""Loading a cached kernel without parsing the copy of its code kept for linking.

Numba caches a kernel's machine code and, beside it, its LLVM bitcode, kept so that a
kernel compiled later could link it in (``CPUCodeLibrary.serialize_using_object_code``).
Loading the kernel from the cache parses that bitcode (``llvmlite.binding.parse_bitcode``)
and walks every function and global in it to learn which symbols the machine code
defines (``JitEngine._load_defined_symbols``). For the engine's kernels, into which
their helpers are inlined, the bitcode is large, and the two took about two thirds of
the load: most of the 75 ms that the first step of a warm process spent loading its
nine kernels (2026-11-28, numba 0.68.1).

Here the symbols come from the machine code's own symbol table (ELF: the section
headers and a few hundred 24-byte entries, read with ``struct``), and the bitcode is
parsed only if a kernel being compiled asks for it to link against
(``_get_module_for_linking``), which a program that found every kernel in its cache
never does. The cached files are unchanged, and so is
what runs: the same machine code is loaded as before.

Second, Numba refreshes its typing and lowering registries before every load from the
cache (``Cache.load_overload``): the first refresh of a process imports some forty of
Numba's modules and installs about two thousand implementations, 0.13 s of a warm
start, none of which running machine code needs. A load here initializes only what the
loaded code calls into (Numba's runtime, NRT, and the hashing symbols) and leaves the
full refresh to the first compile, which does it anyway (``compile_extra``). Set
``ENGINE_NUMBA_LAZY_REFRESH=0`` to keep Numba's refresh.

Third, Numba checks that a kernel's cache folder is writable by creating and deleting
a temporary file in it, once for every kernel as it is decorated: 351 files made and
removed by ``import engine``, about 23 ms of a warm start of 0.55 s. Here each folder is
probed once a process (``_probe_once``); the folder is still created if missing, and a
write that fails later fails as it would have. Set ``ENGINE_NUMBA_PROBE_ONCE=0`` to probe
every time.

The bitcode change applies only to 64-bit little-endian ELF objects (Linux on x86-64
and ARM64) and to a Numba whose ``_unserialize`` reads ``(object code, bitcode)`` as
0.68's does; anything else loads the way Numba does. Set ``ENGINE_NUMBA_LAZY_BITCODE=0`` to leave Numba
untouched.
"""
import os
import struct
import tempfile

from llvmlite import binding as ll
import numba.cpython.hashing  # noqa: F401  (registers the hashing symbols kernels may call)
from numba.core import caching, codegen
from numba.core.runtime import rtsys

__all__ = ["apply", "apply_lazy_refresh", "apply_probe_once", "defined_symbols"]

_HEADER = struct.Struct("<40xQ12xHH")  # Elf64_Ehdr: e_shoff, e_shnum, e_shstrndx
_SECTION = struct.Struct("<4xI16xQQI")  # Elf64_Shdr: sh_type, sh_offset, sh_size, sh_link
_SYMBOL = struct.Struct("<IBBHQQ")  # Elf64_Sym: name, info, other, section, value, size
_SHT_SYMTAB = 2
_SECTION_OR_FILE = (3, 4)  # symbol types STT_SECTION, STT_FILE: not names of code or data


def _section(object_code, header_at, index):
    """``(type, bytes, link)`` of section ``index`` of an ELF-64 little-endian file."""
    kind, offset, size, link = _SECTION.unpack_from(object_code, header_at + 64 * index)
    return kind, object_code[offset:offset + size], link


def defined_symbols(object_code):
    """The names an ELF-64 little-endian object file defines, or None for any other file.

    The symbol table and its string table are found from the section headers, read with
    ``struct``: the 13 objects a warm pyramid's first step loads take 0.4 ms, against
    2.6 ms through llvmlite's section iterator (a foreign call per section and field).

    Examples
    --------
    >>> defined_symbols(b"not an object file") is None
    True
    """
    if object_code[:6] != b"\x7fELF\x02\x01" or len(object_code) < 64:
        return None
    header_at, count, _ = _HEADER.unpack_from(object_code)
    if header_at == 0 or header_at + 64 * count > len(object_code):
        return None
    for index in range(count):
        kind, symtab, link = _section(object_code, header_at, index)
        if kind == _SHT_SYMTAB and link < count:
            strtab = _section(object_code, header_at, link)[1]
            break
    else:
        return None
    names = set()
    whole = symtab[:len(symtab) // 24 * 24]
    for name, info, _, section, _, _ in _SYMBOL.iter_unpack(whole):
        if section == 0 or name == 0 or (info & 0xF) in _SECTION_OR_FILE:
            continue  # undefined, unnamed, or a section or file entry
        names.add(strtab[name:strtab.index(b"\0", name)].decode())
    return names


def _numba_reads_object_pairs():
    """Whether this Numba's ``_unserialize`` is the one this module stands in for."""
    try:
        import inspect
        source = inspect.getsource(codegen.CPUCodeLibrary._unserialize)
    except (OSError, TypeError, AttributeError):
        return False
    return ("object_code, shared_bitcode = data" in source
            and "_load_defined_symbols(self._shared_module)" in source
            and hasattr(codegen.CPUCodeLibrary, "_get_module_for_linking"))


def _patch_once(switch, owner, flag, numba_matches, patch):
    """Run ``patch()`` once, unless the environment variable ``switch`` is ``0`` or
    ``numba_matches()`` says this Numba is not the one it stands in for; marks ``owner``
    with ``flag``. Returns whether the patch is in place."""
    if os.environ.get(switch, "1") == "0":
        return False
    if getattr(owner, flag, False):
        return True
    if not numba_matches():
        return False
    patch()
    setattr(owner, flag, True)
    return True


def apply():
    """Make Numba load cached kernels without parsing their linking bitcode (see the
    module's docstring); returns whether it did. Idempotent.

    Examples
    --------
    >>> apply() in (True, False)
    True
    """
    apply_probe_once()  # (called from here: the kernels' fingerprint covers _jit.py)
    return _patch_once("ENGINE_NUMBA_LAZY_BITCODE", codegen.CPUCodeLibrary,
                       "_engine_lazy_bitcode", _numba_reads_object_pairs, _load_without_bitcode)


def _numba_probes_with_a_file():
    """Whether this Numba's ``_CacheLocator.ensure_cache_path`` is the one
    ``apply_probe_once`` stands in for: make the folder, then a temporary file in it."""
    try:
        import inspect
        source = inspect.getsource(caching._CacheLocator.ensure_cache_path)
    except (OSError, TypeError, AttributeError):
        return False
    body = [line.strip() for line in source.splitlines()
            if line.strip() and not line.strip().startswith(("#", "def"))]
    return body == ["path = self.get_cache_path()", "os.makedirs(path, exist_ok=True)",
                    "tempfile.TemporaryFile(dir=path).close()"]


def apply_probe_once():
    """Make Numba probe each cache folder for writing once a process, not once a kernel
    (see the module's docstring); returns whether it does.

    Examples
    --------
    >>> apply_probe_once() in (True, False)
    True
    """
    return _patch_once("ENGINE_NUMBA_PROBE_ONCE", caching._CacheLocator, "_engine_probe_once",
                       _numba_probes_with_a_file, _probe_once)


def _probe_once():
    """Replace ``_CacheLocator.ensure_cache_path`` by one that remembers the folders it
    found writable."""
    writable = set()

    def ensure_cache_path(self):
        path = self.get_cache_path()
        os.makedirs(path, exist_ok=True)
        if path not in writable:
            tempfile.TemporaryFile(dir=path).close()  # raises OSError if not writable
            writable.add(path)

    caching._CacheLocator.ensure_cache_path = ensure_cache_path


def _load_without_bitcode():
    """Replace ``CPUCodeLibrary._unserialize`` and ``_get_module_for_linking``."""
    library = codegen.CPUCodeLibrary
    unserialize = library._unserialize.__func__
    for_linking = library._get_module_for_linking

    def _unserialize(cls, gen, state):
        name, kind, data = state
        names = defined_symbols(data[0]) if kind == "object" else None
        if names is None:
            return unserialize(cls, gen, state)
        object_code, shared_bitcode = data
        self = gen.create_library(name)
        self.enable_object_caching()
        self._set_compiled_object(object_code)
        self._engine_bitcode = shared_bitcode  # parsed if something links against it
        self._finalize_final_module()
        gen._engine._defined_symbols |= names
        return self

    def _get_module_for_linking(self):
        bitcode = self.__dict__.pop("_engine_bitcode", None)
        if bitcode is not None and self._shared_module is None:
            self._shared_module = ll.parse_bitcode(bitcode)
        return for_linking(self)

    library._unserialize = classmethod(_unserialize)
    library._get_module_for_linking = _get_module_for_linking


def _numba_refreshes_then_loads():
    """Whether this Numba's ``Cache.load_overload`` is the one ``apply_lazy_refresh``
    stands in for: a refresh of the target context, then the guarded load."""
    try:
        import inspect
        source = inspect.getsource(caching.Cache.load_overload)
    except (OSError, TypeError, AttributeError):
        return False
    skipped = ("#", '"""', "Load", "using", "def")  # comments, docstring, signature
    body = [line.strip() for line in source.splitlines()
            if line.strip() and not line.strip().startswith(skipped)]
    return body == ["target_context.refresh()",
                    "with self._guard_against_spurious_io_errors():",
                    "return self._load_overload(sig, target_context)"]


def apply_lazy_refresh():
    """Make a load from Numba's cache initialize only Numba's runtime, not its typing
    and lowering registries (see the module's docstring); returns whether it did.

    Examples
    --------
    >>> apply_lazy_refresh() in (True, False)
    True
    """
    return _patch_once("ENGINE_NUMBA_LAZY_REFRESH", caching.Cache, "_engine_lazy_refresh",
                       _numba_refreshes_then_loads, _load_without_refresh)


def _load_without_refresh():
    """Replace ``Cache.load_overload`` by one that skips the registries' refresh."""
    def load_overload(self, sig, target_context):
        rtsys.initialize(target_context)  # what loaded code calls: NRT's functions
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    caching.Cache.load_overload = load_overload
