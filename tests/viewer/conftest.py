"""Fixtures of the viewer tests: the Xvfb display of the play-through tests (xplay_helpers.py)."""

from xplay_helpers import display  # noqa: F401  (a fixture)
