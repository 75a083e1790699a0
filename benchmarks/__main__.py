"""``python -m benchmarks``: the engine against pymunk; see ``benchmarks/step.py`` for options."""
import sys

from .step import main

sys.exit(main())
