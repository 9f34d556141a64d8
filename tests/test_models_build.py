"""``kubb3d models build`` writes where it is told: without ``--out`` it used to rebuild the models
folder kubb3d reads (the installed package's own) in place; that now takes ``--in-place``."""

from __future__ import annotations

import hashlib
import shutil

import pytest
from typer.testing import CliRunner

import kubb3d.assets as assets
from kubb3d.cli import _register_subapps, app


def _state(folder):
    """Name → (bytes' hash, mtime) of every file in ``folder``."""
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in folder.iterdir()}


def _run(*args):
    _register_subapps()
    return CliRunner().invoke(app, ["models", "build", *args])


@pytest.fixture
def own(tmp_path, monkeypatch):
    """A copy of the models folder, standing in for the one kubb3d reads."""
    folder = tmp_path / "own-models"
    shutil.copytree(assets.models_dir(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(assets, "models_dir", lambda: folder)
    return folder


@pytest.mark.parametrize(
    "args, words",
    [
        ((), "--out: expected a folder to write to (or --in-place to rebuild"),
        (("--out", "{own}", "--force"), "is the models folder kubb3d reads; give --in-place"),
        (("--in-place", "--out", "{tmp}/elsewhere"), "give it or --out FOLDER, not both"),
    ],
    ids=["no-out", "out-is-own", "both"],
)
def test_the_models_kubb3d_reads_are_not_rebuilt_unasked(own, tmp_path, args, words):
    before = _state(own)
    res = _run(*(a.format(own=own, tmp=tmp_path) for a in args))
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], res.stderr
    assert _state(own) == before  # nothing written
    assert not (tmp_path / "elsewhere").exists()


def test_out_writes_a_fresh_build_and_in_place_rebuilds_the_own_folder(own, tmp_path):
    out = tmp_path / "built"
    res = _run("--out", str(out))
    assert res.exit_code == 0, res.output
    assert assets.check_models(out) == [] and {p.name for p in out.iterdir()} == {
        p.name for p in own.iterdir() if p.suffix in (".obj", ".urdf", ".json")
    }
    (own / "standard-kubb.urdf").write_text("stale", encoding="utf-8")
    assert assets.check_models(own) != []
    res = _run("--in-place")
    assert res.exit_code == 0, res.output
    assert f"to {own}" in res.stdout and assets.check_models(own) == []
