"""Shared fixture: the tiny spec run serially in this process (the reference rows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from experiment_helpers import strip_wall, write_tiny


@pytest.fixture(scope="session")
def tiny_reference(tmp_path_factory) -> tuple[Path, list[dict], Path]:
    """(spec path, rows without wall_s, results file) of the tiny spec run serially in this process."""
    from kubb3d.experiment import load_spec, read_rows, run

    folder = tmp_path_factory.mktemp("tiny")
    spec = write_tiny(folder)
    out = folder / "serial.sqlite"
    report = run(load_spec(spec), out, backend="serial", progress=False)
    assert report.ran == 16
    return spec, strip_wall(read_rows(out)), out
