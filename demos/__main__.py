"""``python -m demos`` lists the demos; ``python -m demos NAME [options]`` runs one.

Options: ``--headless``, ``--frames N``, ``--out PATH``, ``--contacts``, ``--tree`` (see ``_viewer.options``).

Without a display (no DISPLAY/WAYLAND_DISPLAY on Linux, or SDL_VIDEODRIVER=dummy), or
with ``--headless``, a demo renders to ``out/NAME.gif`` (``.png`` for a still picture).
"""
import importlib
import pkgutil
import sys
from pathlib import Path


def demo_names():
    """Every module of this package not starting with an underscore, sorted."""
    here = [str(Path(__file__).resolve().parent)]
    return sorted(m.name for m in pkgutil.iter_modules(here) if not m.name.startswith("_"))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    names = demo_names()
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m demos NAME [--headless] [--frames N] [--out PATH] [--contacts] [--tree]\n")
        for name in names:
            print(f"  {name:<12} {importlib.import_module(f'demos.{name}').DESCRIPTION}")
        return 0
    if argv[0] not in names:
        print(f"unknown demo {argv[0]!r}; choose one of: {', '.join(names)}", file=sys.stderr)
        return 2
    importlib.import_module(f"demos.{argv[0]}").main(argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
