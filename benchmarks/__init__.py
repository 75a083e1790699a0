"""Side-by-side benchmarks of the engine against pymunk; run ``python -m benchmarks --help``."""
