"""The studies' results files kept in studies/ (benchmarks/study_results.py) are what
docs/studies.json summarises, and today's code makes the same rows from their seeds: a physics
or player change that moves a match shows here, before the study's figures are quoted as if it
had not."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from kubb3d.experiment.spec import load_spec
from kubb3d.experiment.store import read_rows
from kubb3d.experiment.studies import STUDY_SPECS
from kubb3d.experiment.trial import run_trial
from kubb3d.library import experiments_dir

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import study_results  # noqa: E402


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("studies")
    files = {path.name.removesuffix(".sqlite"): path for path in study_results.unpack(folder)}
    assert set(files) == set(json.loads((ROOT / "docs" / "studies.json").read_text(encoding="utf-8"))["studies"])
    return files


def test_the_json_is_the_summary_of_the_packed_results(cli, unpacked):
    sources = [str(unpacked[name]) for name in STUDY_SPECS if name in unpacked]
    res = cli("experiment", "studies", *sources, "--sensitivity", "docs/sensitivity.json", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == json.loads((ROOT / "docs" / "studies.json").read_text(encoding="utf-8"))


STALE: dict[str, str] = {}
"""Studies whose stored rows today's code is known not to remake, and why: the test must fail there
(strict), so that a re-run that is packed shows."""


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.xfail(name in STALE, reason=STALE.get(name, ""), strict=True))
     for name in STUDY_SPECS],
)
def test_todays_code_makes_the_stored_rows(unpacked, name):
    """Two stored trials of each study, the first and one drawn with a fixed seed, run again."""
    if name not in unpacked:
        pytest.skip(f"{name}: no packed results in studies/")
    rows = {row["trial"]: row for row in read_rows(unpacked[name])}
    loaded = load_spec(experiments_dir() / f"{name}.toml")
    trials = sorted(rows)
    picked = {trials[0], trials[int(np.random.default_rng(7).integers(len(trials)))]}
    for trial in sorted(picked):
        again = json.loads(json.dumps(run_trial(loaded, trial)))
        stored = {key: value for key, value in rows[trial].items() if key in again}
        assert again == stored, f"{name} trial {trial}: today's code makes another row than the stored one"


def test_pack_names_the_spec_by_its_repository_path(unpacked, tmp_path):
    """A packed file carries no folder of the machine that ran it, and unpacks to the same rows."""
    import sqlite3

    for name, path in unpacked.items():
        packed = study_results.pack(path, tmp_path / name / "packed")
        again = study_results.unpack(tmp_path / name, packed.parent)
        assert [p.name for p in again] == [f"{name}.sqlite"]
        assert read_rows(again[0]) == read_rows(path)
        meta = dict(sqlite3.connect(again[0]).execute("SELECT key, value FROM meta"))
        assert json.loads(meta["spec_json"])["path"] == f"scenarios/experiments/{name}.toml"
