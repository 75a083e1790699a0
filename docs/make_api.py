"""Generate docs/api.md, the API reference, from the engine's docstrings.

    python docs/make_api.py        # rewrite docs/api.md, list what lacks documentation

``render()`` returns the page and ``missing()`` the public items without documentation;
``tests/test_api_doc.py`` checks that docs/api.md equals ``render()`` and that nothing is
missing beyond the known gaps it lists.

What is documented (``SURFACE``): every name in ``engine.__all__`` and
``engine.scenes.__all__``, and the drawing names listed for ``engine.draw`` and its
adapters (their modules import no renderer, so they import here without one).

Where the text comes from (NumPy docstring style):

- a summary is the first paragraph of ``inspect.getdoc``, joined into one line (so an
  override without a docstring shows the one it overrides);
- a parameter's description is its entry in the ``Parameters`` section (the class's or
  ``__init__``'s for a constructor); ``name : type`` alone counts, the type is shown;
- an attribute's (slots, NamedTuple and dataclass fields, public ``self.x = ...`` in an
  ``__init__``) is its entry in an ``Attributes`` section of the class or a base;
- a constructor parameter and an attribute of the same name document each other (a
  NamedTuple's fields, ``Camera(scale=...)`` stored as ``camera.scale``).

Missing: a public class, function, method or property without a docstring, a parameter
without a ``Parameters`` entry, an attribute without a description. Members are sorted by
name; methods and properties documented by a base class shown on this page are only named
("Also ..., as documented under Base").
"""
import ast
import dataclasses
import enum
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "docs" / "api.md"

# (module, names): None means the module's __all__.
SURFACE = [
    ("engine", None),
    ("engine.scenes", None),
    ("engine.draw", ["DebugDraw", "DrawFlags", "draw_world"]),
    ("engine.draw.pixels", ["Camera"]),
    ("engine.draw.pygame_draw", ["PygameDraw"]),
    ("engine.draw.matplotlib_draw", ["MatplotlibDraw", "plot_world"]),
]

INTRO = """\
# API reference

Every public class, function, property and parameter of the engine, with a one-line
summary each. This page is generated from the docstrings by `docs/make_api.py` (run
`python docs/make_api.py` after changing a docstring) and checked by
`tests/test_api_doc.py`, which fails when the page is out of date or when a public item
lacks documentation (apart from the known gaps listed in that test, shown here as
*(undocumented)*). Do not edit it by hand.

Types and details are in the docstrings (`help(engine.World)`); the guides are listed in
[the index](index.md).
"""

UNDOCUMENTED = "*(undocumented)*"


# -- docstring parsing ------------------------------------------------------------------
def _rst_to_md(text):
    """Inline reST to Markdown: ``x`` -> `x`, :role:`~a.b` -> `b`, :role:`a.b` -> `a.b`."""
    text = re.sub(r":\w+:`~(?:[\w.]*\.)?([\w]+)`", r"`\1`", text)
    text = re.sub(r":\w+:`([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _paragraph(lines):
    """The first paragraph of ``lines``, joined into one line."""
    out = []
    for line in lines:
        if not line.strip():
            if out:
                break
            continue
        out.append(line.strip())
    return _rst_to_md(" ".join(out))


def summary(obj):
    """First paragraph of the docstring of ``obj`` as one line, or None without one."""
    doc = inspect.getdoc(obj)
    return _paragraph(doc.splitlines()) if doc else None


def section(doc, title):
    """``{name: (type, description)}`` of a NumPy-style section (``Parameters``, ...)."""
    lines = inspect.cleandoc(doc or "").splitlines()

    def is_title(j):
        return (j + 1 < len(lines) and lines[j].strip() and not lines[j][0].isspace()
                and set(lines[j + 1].strip()) == {"-"})

    start = next((j + 2 for j in range(len(lines)) if is_title(j) and lines[j].strip() == title), None)
    if start is None:
        return {}
    stop = next((j for j in range(start, len(lines)) if is_title(j)), len(lines))
    body = lines[start:stop]
    entries = {}
    k = 0
    while k < len(body):
        line = body[k]
        k += 1
        if not line.strip() or line[0].isspace():
            continue
        names, _, kind = line.partition(" : ")
        desc = []
        while k < len(body) and (not body[k].strip() or body[k][0].isspace()):
            desc.append(body[k])
            k += 1
        for name in names.split(","):
            entries[name.strip().lstrip("*")] = (_rst_to_md(kind.strip()), _paragraph(desc))
    return entries


def _entry(type_, desc):
    """One Markdown description from a section entry: ``*type* - description``."""
    parts = [f"*{type_}*" if type_ else "", desc or ""]
    return " — ".join(p for p in parts if p) or UNDOCUMENTED


# -- signatures -------------------------------------------------------------------------
def _default(field_defaults, name, value):
    if name in field_defaults:  # a dataclass field with a default factory
        return f"{field_defaults[name].__name__}()"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    text = repr(value)
    if re.search(r" at 0x[0-9a-f]+", text):
        raise ValueError(f"default {name}={text} would put a memory address in the page")
    return text


def signature(name, obj, skip_first=False):
    """``name(a, b=1, *, c=2)`` without annotations, defaults by ``repr``."""
    sig = inspect.signature(obj)
    factories = {}
    if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
        factories = {f.name: f.default_factory for f in dataclasses.fields(obj)
                     if f.default_factory is not dataclasses.MISSING}
    params = list(sig.parameters.values())[1 if skip_first else 0:]
    parts, star = [], False
    for i, p in enumerate(params):
        if p.kind == p.POSITIONAL_ONLY and (i + 1 == len(params) or params[i + 1].kind != p.POSITIONAL_ONLY):
            suffix = ", /"
        else:
            suffix = ""
        if p.kind == p.VAR_POSITIONAL:
            text, star = f"*{p.name}", True
        elif p.kind == p.VAR_KEYWORD:
            text = f"**{p.name}"
        else:
            if p.kind == p.KEYWORD_ONLY and not star:
                parts.append("*")
                star = True
            text = p.name
            if p.default is not p.empty:
                text += "=" + _default(factories, p.name, p.default)
        parts.append(text + suffix)
    return f"{name}({', '.join(parts)})"


def _parameters(obj, skip_first=False):
    names = list(inspect.signature(obj).parameters)
    return names[1:] if skip_first else names


# -- classes ----------------------------------------------------------------------------
def _engine_mro(cls):
    return [c for c in cls.__mro__ if c.__module__.split(".")[0] == "engine"]


def _init_attributes(cls):
    """Public names assigned as ``self.name = ...`` in the ``__init__`` of ``cls``."""
    init = cls.__dict__.get("__init__")
    if init is None:
        return []
    try:
        source = inspect.getsource(init)
    except (OSError, TypeError):  # generated (a dataclass's): its fields are read instead
        return []
    tree = ast.parse(textwrap.dedent(source))
    names = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        for target in targets:
            for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                        and t.value.id == "self" and not t.attr.startswith("_")):
                    names.append(t.attr)
    return names


def _members(cls):
    """``(methods, properties, attributes)``: {name: defining class}, over the engine MRO."""
    methods, props, attrs = {}, {}, {}
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    enum_members = set(cls.__members__) if issubclass(cls, enum.Enum) else set()
    for klass in reversed(_engine_mro(cls)):  # bases first, subclasses override
        for name in _init_attributes(klass):
            attrs.setdefault(name, klass)
        for name, value in vars(klass).items():
            if name.startswith("_") or name in enum_members:
                continue
            if isinstance(value, property):
                props[name] = klass
                attrs.pop(name, None)
            elif isinstance(value, (staticmethod, classmethod)) or inspect.isfunction(value):
                methods[name] = klass
            else:  # slots, NamedTuple fields, dataclass defaults, class constants
                attrs.setdefault(name, klass)
    for name in fields:
        attrs.setdefault(name, cls)
    for name in list(attrs):
        if name in props or name in methods:
            del attrs[name]
    return methods, props, attrs


def _doc_owner(cls, name):
    """The first class of the engine MRO of ``cls`` whose own ``name`` has a docstring."""
    for klass in _engine_mro(cls):
        value = vars(klass).get(name)
        if value is None:
            continue
        func = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
        if func is not None and func.__doc__:
            return klass
    return None


def _class_section(cls, title):
    """A docstring section gathered over the engine MRO (subclasses first)."""
    entries = {}
    for klass in reversed(_engine_mro(cls)):
        entries.update(section(klass.__doc__, title))
    return entries


class _Page:
    """The Markdown lines and the list of missing items, filled by the ``_doc_*`` walkers."""

    def __init__(self):
        self.lines = []
        self.missing = []

    def add(self, *lines):
        self.lines.extend(lines)

    def summary(self, path, obj):
        text = summary(obj)
        if text is None:
            self.missing.append(path)
        return text or UNDOCUMENTED

    def parameters(self, path, names, described, attributes=(), owner=""):
        """A "Parameters:" list; a name neither ``described`` nor in ``attributes`` is missing."""
        if not names:
            return
        self.add("Parameters:", "")
        for name in names:
            if name in described:
                text = _entry(*described[name])
            elif name in attributes:
                text = f"see the attribute `{owner}.{name}`."
            else:
                self.missing.append(f"{path}({name})")
                text = UNDOCUMENTED
            self.add(f"- `{name}`: {text}")
        self.add("")


def _doc_function(page, path, name, func, heading, skip_first=False):
    page.add(f"{heading} `{name}`", "", f"`{signature(name, func, skip_first)}`", "")
    page.add(page.summary(path, func), "")
    page.parameters(path, _parameters(func, skip_first), section(inspect.getdoc(func), "Parameters"))


def _doc_class(page, path, name, cls, shown):
    page.add(f"### class `{name}`", "")
    page.add(page.summary(path, cls), "")
    methods, props, attrs = _members(cls)
    attr_docs = _class_section(cls, "Attributes")
    if issubclass(cls, enum.Enum):
        page.add("Members:", "")
        for member_name, member in cls.__members__.items():
            desc = attr_docs.get(member_name)
            page.add(f"- `{name}.{member_name}` = {member.value!r}" + (f": {_entry(*desc)}" if desc else ""))
        page.add("")
        init_params = {}
    else:
        init = cls.__dict__.get("__init__")
        init_params = _class_section(cls, "Parameters")
        if init is not None:
            init_params = {**init_params, **section(inspect.getdoc(init), "Parameters")}
        page.add(f"`{signature(name, cls)}`", "")
        page.parameters(path, _parameters(cls), init_params, attributes=attr_docs, owner=name)
    if attrs:
        page.add("Attributes:", "")
        for attr in sorted(attrs):
            if attr in attr_docs:
                text = _entry(*attr_docs[attr])
            elif attr in init_params:
                text = f"set from the constructor's `{attr}` (see Parameters)."
            else:
                page.missing.append(f"{path}.{attr}")
                text = UNDOCUMENTED
            page.add(f"- `{name}.{attr}`: {text}")
        page.add("")
    inherited = {}
    own_props = []
    for prop in sorted(props):
        owner = _doc_owner(cls, prop)
        if owner is not None and owner is not cls and owner in shown:
            inherited.setdefault(owner, []).append(prop)
        else:
            own_props.append(prop)
    if own_props:
        page.add("Properties:", "")
        for prop in own_props:
            value = getattr(cls, prop)
            mode = "settable" if value.fset is not None else "read-only"
            page.add(f"- `{name}.{prop}` ({mode}): {page.summary(f'{path}.{prop}', value)}")
        page.add("")
    for meth in sorted(methods):
        owner = _doc_owner(cls, meth)
        if owner is not None and owner is not cls and owner in shown:
            inherited.setdefault(owner, []).append(meth)
            continue
        raw = inspect.getattr_static(cls, meth)
        func = getattr(cls, meth)
        skip = not isinstance(raw, (staticmethod, classmethod))  # bound classmethods have no cls
        _doc_function(page, f"{path}.{meth}", f"{name}.{meth}", func, "####", skip_first=skip)
    for owner in sorted(inherited, key=lambda c: c.__name__):
        names = ", ".join(f"`{n}`" for n in sorted(inherited[owner]))
        page.add(f"Also {names}, as documented under `{owner.__name__}`.", "")


def _surface():
    """``[(module name, module, [(name, object)])]`` in ``SURFACE`` order."""
    engine = importlib.import_module("engine")
    if Path(engine.__file__).resolve().parent != ROOT / "engine":
        raise RuntimeError(f"engine is imported from {engine.__file__}, not from {ROOT}: the page would "
                           f"describe another checkout (put {ROOT} first on PYTHONPATH)")
    out = []
    for mod_name, names in SURFACE:
        module = importlib.import_module(mod_name)
        names = list(module.__all__) if names is None else names
        out.append((mod_name, module, [(n, getattr(module, n)) for n in names]))
    return out


# Public constants have no docstrings: their one line is here.
CONSTANTS = {
    "ALL_BITS": "All 64 filter bits (2**64 - 1): `Filter`'s default mask, colliding with every category.",
}


def _build():
    page = _Page()
    surface = _surface()
    shown = {obj for _, _, objs in surface for _, obj in objs if inspect.isclass(obj)}
    page.add(INTRO, "## Contents", "")
    for mod_name, _, objs in surface:
        anchor = mod_name.replace(".", "")
        page.add(f"- [`{mod_name}`](#{anchor}): " + ", ".join(f"`{n}`" for n, _ in objs))
    page.add("")
    for mod_name, module, objs in surface:
        page.add(f"## {mod_name}", "", page.summary(mod_name, module), "")
        classes = [(n, o) for n, o in objs if inspect.isclass(o)]
        functions = [(n, o) for n, o in objs if not inspect.isclass(o)]
        for name, cls in classes:
            _doc_class(page, f"{mod_name}.{name}", name, cls, shown)
        for name, func in functions:
            if not callable(func):
                if name not in CONSTANTS:
                    raise TypeError(f"{mod_name}.{name} is neither a class nor a function "
                                    "nor a constant described in CONSTANTS")
                page.add(f"### `{name} = {func!r}`", "", CONSTANTS[name], "")
                continue
            _doc_function(page, f"{mod_name}.{name}", name, func, "###")
    text = "\n".join(page.lines)
    text = re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"
    return text, page.missing


def render():
    """The text of docs/api.md."""
    return _build()[0]


def missing():
    """Public items without documentation, e.g. ``engine.World.create_body(angle)``."""
    return _build()[1]


def main():
    text, gaps = _build()
    API_MD.write_text(text)
    print(f"wrote {API_MD.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    if gaps:
        print(f"{len(gaps)} undocumented (tests/test_api_doc.py tolerates only the known gaps it lists):")
        for item in gaps:
            print("  " + item)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # the checkout this script is in, before any installed engine
    main()
