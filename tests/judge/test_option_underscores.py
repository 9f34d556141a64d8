"""A choice with spaces (``set inside``) may be typed with underscores (``set_inside``) wherever
an option is read: ``--option``, a scenario's ``[options]`` table and an experiment spec; a
refusal lists the choices in that typeable form."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kubb3d.experiment import load_spec
from kubb3d.judge.options import BY_NAME, option_value, parse_option, typed
from kubb3d.scenario import judge_options

SPACED = [(o.name, c) for o in BY_NAME.values() for c in (o.choices or ()) if isinstance(c, str) and " " in c]


def test_some_choices_have_spaces():
    assert ("standing_outside", "set inside") in SPACED and len(SPACED) >= 6


@pytest.mark.parametrize("name, choice", SPACED)
def test_the_underscore_spelling_is_the_same_value(name, choice):
    assert parse_option(f"{name}={choice.replace(' ', '_')}") == (name, choice)
    assert parse_option(f"{name}={choice.upper().replace(' ', '_')}") == (name, choice)
    assert option_value(name, choice) == choice


def test_a_scenario_and_an_experiment_spec_take_it_too(tmp_path):
    assert judge_options({"standing_outside": "set_inside", "raise_order": "nearest_baseline_first"}) == {
        "standing_outside": "set inside", "raise_order": "nearest baseline first"}
    path = tmp_path / "spec.toml"
    path.write_text(
        'schema = 1\ntitle = "t"\nseed = 1\ntrials_per_point = 2\nmeasures = ["tilt"]\n[setup]\nruleset = "dm"\n'
        '[throw]\ntarget = "B3"\n[options]\nadvance_line = "front_edge"\ntime_up = { grid = ["count_baseline_kubbs",'
        ' "tie-break kubbs"] }\n', encoding="utf-8")
    spec = load_spec(path)
    options = spec.spec.options if hasattr(spec, "spec") else spec.options
    assert options["advance_line"] == "front edge"
    assert options["time_up"].grid == ["count baseline kubbs", "tie-break kubbs"]


def test_the_refusal_lists_values_one_can_type(judge_app):
    res = CliRunner().invoke(judge_app, ["judge", "dm_standing_pushed_across_sideline",
                                         "--option", "standing_outside=x"])
    assert res.exit_code == 2
    assert res.output.strip() == "error: --option standing_outside: expected one of set_inside, stays, got 'x'"
    assert typed("nearest baseline first") == "nearest_baseline_first"


def test_underscores_judge_as_the_spaced_value(judge_app):
    res = CliRunner().invoke(judge_app, ["judge", "dm_standing_pushed_across_sideline", "--option",
                                   "standing_outside=set_inside", "--check"])
    assert res.exit_code == 0, res.output
