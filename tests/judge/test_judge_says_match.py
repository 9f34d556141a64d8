"""``kubb3d judge FILE`` says how its rulings compare with the file's expectations, whichever way
they come out: each difference on a line of its own, or one line saying they match (a new user
read the silence of a matching file as "nothing was compared"; ``view`` and ``export --html``
say "matches the expected rulings")."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kubb3d.library import resolve_scenario
from kubb3d.scenario import load
from kubb3d.scenario_expect import count


def _judge(judge_app, *args: str):
    res = CliRunner().invoke(judge_app, ["judge", *args])
    assert res.exit_code == 0, res.output
    return res.output


def test_expectations_are_counted_as_compare_compares_them():
    spec = load(resolve_scenario("dm_king_felled_early"))
    assert count(spec) == 2  # one [[expect]] (the king) and the [outcome]
    assert count(spec, ("king",)) == 1 and count(spec, ("king", "outcome")) == 0


def test_every_judged_file_says_it_matches_or_how_it_differs(judge_app, tmp_path):
    text = resolve_scenario("dm_king_felled_early").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace('consequence = "game lost"', 'consequence = "game won"'), encoding="utf-8")
    none = tmp_path / "none.toml"
    none.write_text(text[: text.index("[[expect]]")], encoding="utf-8")
    said = {}
    for path in ("dm_king_felled_early", str(wrong), str(none)):
        out = _judge(judge_app, path)
        said[path] = ([line.strip() for line in out.splitlines() if line.startswith("  matches ")],
                      [line for line in out.splitlines() if "differs from expected" in line])
    assert said["dm_king_felled_early"] == (["matches the expected rulings (2 expectations compared)"], [])
    assert said[str(wrong)][0] == [] and len(said[str(wrong)][1]) == 1
    assert said[str(none)] == ([], [])  # nothing expected, nothing compared: no word of it


def test_the_match_line_in_german_and_the_json_unchanged(judge_app):
    out = _judge(judge_app, "dm_king_felled_early", "--lang", "de")
    assert out.splitlines()[-1] == "  stimmt mit den erwarteten Entscheidungen überein (2 Erwartungen verglichen)"
    doc = json.loads(_judge(judge_app, "dm_king_felled_early", "--json"))
    assert doc["ok"] is True and doc["compared"] is True and doc["mismatches"] == []
