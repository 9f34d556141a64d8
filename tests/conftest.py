import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT


@pytest.fixture
def cli():
    """Run ``kubb3d ARGS…`` in a subprocess: ``cli("throw", "--json")`` → CompletedProcess."""
    return run_cli


def run_cli(*args: str, timeout: float = 300):
    """Run the installed ``kubb3d`` entry point in a subprocess; returns CompletedProcess."""
    import subprocess

    return subprocess.run(
        [sys.executable, "-c", "from kubb3d.cli import main; main()", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )
