"""Experiment rows that cannot be silently wrong: a drawn or gridded value is checked per
trial against the range a fixed value of its field must have; names, equipment and set-ups
that would throw the wrong thing or make every trial fail are refused at load."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.experiment.spec import validate
from kubb3d.experiment.trial import _Values, child_seed, run_trial

REPO = Path(__file__).resolve().parents[2]


def _spec(throw: dict | None = None, setup: dict | None = None, **top) -> dict:
    data = {"schema": 1, "title": "t", "seed": 3, "trials_per_point": 40, "measures": ["hit"]}
    data["setup"] = {"ruleset": "dm", **(setup or {})}
    if throw is not None:
        data["throw"] = {"target": "B2", "speed": 10.0, **throw}
    data.update(top)
    return data


# (section, field, a draw wide enough to leave the field's range in most trials)
WIDE = [
    ("throw", "tilt_deg", {"normal": [0.0, 1e6]}),
    ("throw", "azimuth_deg", {"normal": [0.0, 1e6]}),
    ("throw", "release_angle_deg", {"normal": [0.0, 1e6]}),
    ("setup", "terrain_cm", {"normal": [0.0, 1e6]}),
]


@pytest.mark.parametrize("section,field,draw", WIDE, ids=[w[1] for w in WIDE])
def test_a_drawn_value_outside_the_fixed_range_fails_its_trial(section, field, draw):
    loaded = validate(
        _spec(throw={field: draw} if section == "throw" else {}, setup={field: draw} if section == "setup" else None)
    )
    failed = 0
    for i in range(loaded.n_trials):
        values = _Values(loaded, i, np.random.default_rng(child_seed(loaded, i)))
        v = values.columns[field]
        # the same value given fixed: the loader is the judge of the range
        fixed = _spec(throw={field: v} if section == "throw" else {}, setup={field: v} if section == "setup" else None)
        try:
            validate(fixed)
            refused = False
        except SpecError:
            refused = True
        assert (values.out_of_range() is not None) == refused, (i, v)
        if refused:
            row = run_trial(loaded, i)  # fails before any physics
            assert row["ok"] is False and field in row["error"], row
            assert row[field] == v  # the drawn value is stored with the failure
            failed += 1
    assert failed > loaded.n_trials // 2


def test_values_inside_the_range_pass_the_check():
    loaded = validate(_spec(throw={"tilt_deg": {"normal": [0.0, 1.0]}, "azimuth_deg": {"uniform": [-2.0, 2.0]}}))
    for i in range(loaded.n_trials):
        assert _Values(loaded, i, np.random.default_rng(child_seed(loaded, i))).out_of_range() is None


@pytest.mark.parametrize("baton", ["B2", "king", "A1"])
def test_the_baton_cannot_name_a_kubb_or_the_king(baton):
    with pytest.raises(SpecError, match="throw.baton"):
        validate(_spec(throw={"baton": baton}))


def test_a_table_top_set_is_refused_on_a_pitch():
    with pytest.raises(SpecError, match="table-top"):
        validate(_spec(throw={}, setup={"equipment": "kubbuteo"}))
    validate(_spec(throw={}, setup={"equipment": "dm-small"}))  # a pitch set is fine


def test_specs_that_fail_every_trial_are_refused_at_load():
    from kubb3d.rules.core import get_ruleset  # noqa: F401  (the match's own bound below)

    with pytest.raises(SpecError, match="round_cap"):
        validate(_spec(match={"round_cap": 1}, measures=["match"]))
    validate(_spec(match={"round_cap": 3}, measures=["match"]))
    with pytest.raises(SpecError, match="at"):
        validate(_spec(throw={}, setup={"layout": "empty", "pieces": [{"id": "X1", "at": [1e9, 0.0]}]}))
    with pytest.raises(SpecError, match="standard layout"):
        validate(_spec(throw={}, setup={"pieces": [{"id": "B2", "at": [3.0, 1.0]}]}))


def test_the_piece_bound_is_the_scenario_loaders():
    from kubb3d.experiment.spec import PIECE_COORD_MAX_M
    from kubb3d.scenario import MAX_COORD_M

    assert PIECE_COORD_MAX_M == MAX_COORD_M


def test_a_scenario_edited_during_a_run_fails_its_trials(tmp_path):
    sc = tmp_path / "sc.toml"
    shutil.copy(REPO / "scenarios" / "dm_field_kubb_lying.toml", sc)
    spec = tmp_path / "s.toml"
    spec.write_text(
        'schema = 1\ntitle = "t"\nseed = 1\ntrials_per_point = 2\nmeasures = ["hit"]\n'
        '[setup]\nruleset = "dm"\nlayout = "scenario"\nscenario = "sc.toml"\n'
        '[throw]\nspeed = 10.0\n'
    )
    loaded = load_spec(spec)
    sc.write_text(sc.read_text() + "\n# edited\n")
    row = run_trial(loaded, 0)
    assert row["ok"] is False and "changed since the spec was loaded" in row["error"]
    assert load_spec(spec).sha256 != loaded.sha256  # the spec hash names the file's content


@pytest.mark.parametrize("pid", ['L"1', "L\\1", "L'1", "L 1", "L-1", "L_1", "Lé"])
def test_a_piece_id_the_spec_accepts_has_its_column_in_the_results_view(pid, tmp_path):
    """The results view reads each field with a SQLite JSON path, which cannot name a key
    holding " or \\ (the column was NULL): such ids are refused at load; every accepted id's
    column holds its value."""
    import sqlite3

    from kubb3d.experiment.store import ResultStore

    try:
        validate(_spec(throw={"target": pid}, setup={"layout": "empty", "pieces": [{"id": pid, "at": [2.0, 0.0]}]}))
    except SpecError as exc:
        assert "setup.pieces[0].id" in str(exc)
        return
    col = f"{pid}_tilt_deg"
    with ResultStore(tmp_path / "r.sqlite", "0" * 64, "{}") as store:
        store.add([({"trial": 0, "ok": True, "error": None, col: 12.5}, 0.0)])
    db = sqlite3.connect(tmp_path / "r.sqlite")
    quoted = '"' + col.replace('"', '""') + '"'
    assert db.execute(f"SELECT {quoted} FROM results").fetchone() == (12.5,)
