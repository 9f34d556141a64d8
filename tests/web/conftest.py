"""Shared inputs of the web page tests: one seeded DM match replay (played once a session)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import run_kubb3d

MATCH_SEED = 1
"""The match whose page the tests open (a whole one-set DM match; docs/web.md gives its segments)."""


@pytest.fixture(scope="session")
def dm_replay(tmp_path_factory) -> Path:
    """A replay of a whole DM match (``kubb3d match --seed 1 --replay``)."""
    path = tmp_path_factory.mktemp("web-replay") / "dm.jsonl"
    run_kubb3d("match", "--seed", str(MATCH_SEED), "--replay", str(path), "-q", check=True, timeout=300)
    return path
