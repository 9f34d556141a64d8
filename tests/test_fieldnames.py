"""A misspelt field name in a spec or scenario file: one line naming the file, the field, the
table it is in and the closest allowed name of that table (kubb3d/fieldnames.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.scenario import ScenarioError, load

SPEC = """schema = 1
title = "t"
seed = 1
trials_per_point = 1
measures = ["hit"]
[throw]
target = "B3"
speed = 10.0
"""


def _one_line_naming(exc, path, words) -> str:
    """The error's one-line message, which starts with the file and holds every one of ``words``."""
    msg = str(exc.value)
    assert msg.startswith(f"{path}: ") and "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


@pytest.mark.parametrize(
    "extra, words",
    [
        ('[throw]\nsped = 8.0\n', ["throw.sped: unknown field in [throw]; did you mean 'speed'?"]),
        # only the names of the table the field is in: 'speed' is a [throw] name, not a [setup] one
        ('[setup]\nsped = 8.0\n', ["setup.sped: unknown field in [setup]", "expected one of:", "ground"]),
        ('[throw]\nelevation_deg = {grdi = [10.0, 20.0]}\n',
         ["throw.elevation_deg.grdi: unknown field in [throw.elevation_deg]; did you mean 'grid'?"]),
    ],
)
def test_spec_typo_names_file_table_and_the_closest_name(tmp_path, extra, words):
    text = SPEC.replace("[throw]\n", "[throw]\n" + extra.split("\n", 1)[1]) if extra.startswith("[throw]") else (
        SPEC + extra)
    p = tmp_path / "typo.toml"
    p.write_text(text)
    with pytest.raises(SpecError) as exc:
        load_spec(p)
    msg = _one_line_naming(exc, p, words)
    if "[setup]" in words[0]:
        assert "'speed'" not in msg


def test_spec_typo_is_shown_before_the_missing_field_it_causes(tmp_path):
    p = tmp_path / "typo.toml"
    p.write_text(SPEC.replace('measures = ["hit"]', 'measure = ["hit"]'))
    with pytest.raises(SpecError) as exc:
        load_spec(p)
    assert "measure: unknown field in the top level; did you mean 'measures'?" in str(exc.value), exc.value


SCENARIO = """schema = 1
title = "x"
ruleset = "dm"
event = "throw"

[throw]
thrower = "A"

[[pieces]]
id = "king"
place = "lying"
at = [0.1, 0.0]
yaw_deg = 0

[[expect]]
piece = "king"
status = "fallen"
consequence = "game lost"
rules = ["DM §1"]
"""


@pytest.mark.parametrize(
    "old, new, words",
    [
        ("yaw_deg = 0", "yaw_dg = 0",
         ["pieces[0] (id king).yaw_dg: unknown field in pieces[0]; did you mean 'yaw_deg'?"]),
        ('id = "king"', 'nam = "king"', ["pieces[0].nam: unknown field in pieces[0]; expected one of:", " id,"]),
        ('thrower = "A"', 'thrwer = "A"', ["throw.thrwer: unknown field in [throw]; did you mean 'thrower'?"]),
    ],
)
def test_scenario_typo_names_file_table_and_the_closest_name(tmp_path, old, new, words):
    load_ok = tmp_path / "ok.toml"
    load_ok.write_text(SCENARIO)
    load(load_ok)  # the base file is valid
    p = tmp_path / "typo.toml"
    p.write_text(SCENARIO.replace(old, new))
    with pytest.raises(ScenarioError) as exc:
        load(p)
    _one_line_naming(exc, p, words)


def test_judge_cli_prints_the_suggestion_in_one_line(tmp_path, cli):
    p = tmp_path / "typo.toml"
    p.write_text(SCENARIO.replace("yaw_deg = 0", "yaw_dg = 0"))
    r = cli("judge", str(p))
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "did you mean 'yaw_deg'?" in lines[0] and "Traceback" not in r.stderr


def test_a_name_another_form_of_the_value_allows_is_no_misspelling():
    """[setup.ground] is a name or a table: a bad friction in the table once read as
    "unknown field in [setup.ground]; did you mean 'base'?" for the field 'base' itself."""
    p = Path(__file__).resolve().parent / "bad_inputs" / "spec_friction_negative.toml"
    with pytest.raises(SpecError) as exc:
        load_spec(p)
    msg = str(exc.value)
    assert "setup.ground.friction: expected from 0 to 2, got -0.5" in msg and "did you mean" not in msg, msg
