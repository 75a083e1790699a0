"""Test-session settings shared by every test module.

Hypothesis draws new random examples on every local run, which is how it finds bugs. In CI
(``CI`` set in the environment) it is derandomized: the examples are a fixed function of
each test, so a red CI run is reproducible by running ``CI=1 python -m pytest`` locally,
and a run cannot turn red only because a new random draw reached a corner case that no
change touched. Whatever a local run finds is fixed and pinned as an explicit test.
"""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
