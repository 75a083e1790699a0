"""The layout rules of docs/internals.md: import-linter contracts (pyproject.toml) and the
rules import-linter cannot say, checked on the source with ``ast``."""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine._jit import kernel_modules

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
KERNELS = kernel_modules()
MODULES = sorted(ENGINE.rglob("*.py"))
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80


def _module_name(path):
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path):
    """(absolute module, imported names) of every import in ``path``."""
    tree = ast.parse(path.read_text())
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            yield module, [a.name for a in node.names]


def test_import_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    result = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken" in result.stdout


def test_every_concept_package_has_kernels_and_the_rule_finds_them():
    assert len(KERNELS) >= 15
    assert {p.parent.name for p in KERNELS} >= {"geometry", "collision", "broadphase", "contacts",
                                                  "dynamics", "world"}


def _is_layout(path):
    """A module of named constants only (row layouts such as ``contacts/layout.py``): no
    imports, no functions, no classes."""
    body = ast.parse(path.read_text()).body
    return all(isinstance(s, (ast.Assign, ast.Expr)) for s in body)


LAYOUTS = [p for p in MODULES if p.name != "__init__.py" and _is_layout(p)]


def test_layout_modules_are_found():
    names = {p.relative_to(ENGINE).as_posix() for p in LAYOUTS}
    assert {"contacts/layout.py", "geometry/seam_rows.py", "body_state.py"} <= names


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_kernel_modules_import_only_numpy_numba_math_constants_and_kernels(path):
    allowed = ({"numpy", "numba", "math", "engine.constants", "engine._jit", "engine._memory"}
               | {_module_name(p) for p in KERNELS + LAYOUTS})
    packages = {"engine"} | {_module_name(p.parent / "__init__.py") for p in KERNELS}
    for module, names in _imports(path):
        # `from .. import constants` names modules; `from .x import y` names objects of x
        targets = [f"{module}.{n}" for n in names] if module in packages else [module]
        for target in targets:
            assert target in allowed, f"{path.name} imports {target}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_private_name_is_imported_from_another_module(path):
    for module, names in _imports(path):
        if module and module.startswith("engine"):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")
                       and n not in ("_jit", "_store", "_checks")]
            assert not private, f"{path.name} imports {private} from {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_modules_and_functions_are_short(path):
    source = path.read_text()
    assert len(source.splitlines()) <= MAX_MODULE_LINES, f"{path.name} is over {MAX_MODULE_LINES} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{node.name} is {length} lines"
