"""A 20-box-base pyramid (210 boxes) settling on the ground: the stacking benchmark scene."""
from engine import scenes

from . import _viewer

DESCRIPTION = "a pyramid of 210 boxes (base 20) that should stand still"


def main(argv=()):
    opts = _viewer.options(argv, "pyramid", frames=150)
    return _viewer.run(scenes.pyramid(20), "Pyramid, base 20", **opts)


if __name__ == "__main__":
    main()
