import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT


def run_cli(*args: str, timeout: float = 300):
    """Run the installed ``kubb3d`` entry point in a subprocess; returns CompletedProcess."""
    import subprocess

    return subprocess.run(
        [sys.executable, "-c", "from kubb3d.cli import main; main()", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )
