"""Every Python code block in the README and docs/ runs (blocks of one file share a namespace)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_code_blocks_run(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # blocks that save files write here
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # the pygame tutorial opens a window
    blocks = BLOCK.findall(path.read_text())
    namespace = {"__name__": "__docs__"}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, f"{path.name}[block {i}]", "exec"), namespace)
        except Exception as exc:  # name the failing block
            raise AssertionError(f"{path.name} block {i} failed: {exc!r}\n{code}") from exc
