"""Shared inputs of the web page tests: one seeded DM match replay (played once a session)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def dm_replay(seed_one_match) -> Path:
    """A replay of a whole DM match (``kubb3d match --seed 1 --replay``: tests/shared_runs.py's
    SEED_ONE_MATCH, played once a session for these tests and two docs tests)."""
    folder, _, done = seed_one_match
    assert done.returncode == 0, done.stderr
    return folder / "dm.jsonl"
