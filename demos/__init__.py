"""Demos of the engine: ``python -m demos`` lists them, ``python -m demos NAME`` runs one.

Each demo is one module with ``DESCRIPTION`` and ``main(argv)``; only ``demos/_viewer.py``
imports a renderer (pygame-ce live, pillow headless).
"""
