"""The lint and type checks of `.ci/run` (configured in pyproject.toml) also run with the tests,
so a change that breaks them is caught before it lands, not only in CI."""

import subprocess
import sys


def _run(*args: str, root) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=600, cwd=root)


def test_ruff_finds_nothing(root):
    res = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".", root=root)
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_finds_nothing(root):
    res = _run("mypy", root=root)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success" in res.stdout
