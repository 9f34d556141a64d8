"""An option a ruleset does not read says so in ``kubb3d rules show`` and in docs/rules.md, for
every ruleset and option alike: a new user read ``field_kubb_inside`` in ``rules show kt`` with no
note, although docs/rules.md says "Not read under KT". The rulesets named are those whose code
indeed never reads the option (checked here by what that code is)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.judge.options import OPTIONS
from kubb3d.judge.rulebook import get_rulebook

_register_subapps()
RULESETS = ("dm", "wikinger", "kubbuteo")
SHORT = {"dm": "DM", "wikinger": "WS", "kubbuteo": "KT"}
ROOT = Path(__file__).resolve().parents[2]


def _show(ruleset: str, *args: str):
    res = CliRunner().invoke(app, ["rules", "show", ruleset, *args])
    assert res.exit_code == 0, res.output
    return res.output


def _blocks(text: str) -> dict[str, str]:
    """Each option's block of ``rules show``, its lines joined."""
    names = "|".join(o.name for o in OPTIONS)
    parts = re.split(rf"\n\n(?=(?:{names})  default:)", text)
    return {p.split()[0]: " ".join(p.split()) for p in parts[1:]}


def test_the_options_the_tryout_and_the_code_name():
    not_read = {(o.name, r) for o in OPTIONS for r in o.not_read}
    assert not_read == {("field_kubb_inside", "kubbuteo"), ("raise_order", "kubbuteo"),
                        ("max_tilt_deg", "kubbuteo"), ("helicopter_limit", "kubbuteo"), ("helicopter_limit", "dm")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_show_marks_exactly_the_options_the_ruleset_does_not_read(ruleset):
    blocks = _blocks(_show(ruleset))
    assert set(blocks) == {o.name for o in OPTIONS}
    rows = {row["option"]: row for row in json.loads(_show(ruleset, "--json"))["options"]}
    for o in OPTIONS:
        marked = f"not read under {ruleset}: " in blocks[o.name]
        assert marked == (ruleset in o.not_read), (o.name, blocks[o.name])
        assert rows[o.name]["read"] is (ruleset not in o.not_read)
        assert rows[o.name]["not_read"] == o.not_read.get(ruleset)
    if ruleset == "kubbuteo":
        assert "not read under kubbuteo: a returned kubb is judged where it rests" in blocks["field_kubb_inside"]


def test_docs_rules_md_says_not_read_for_the_same_rulesets():
    """Each option's row in the options table of docs/rules.md: its "Not read under …" names the
    rule books of ``not_read``, and a row without it belongs to an option every ruleset reads."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for o in OPTIONS:
        row = re.search(rf"^\| `{o.name}` \|.*$", text, re.M)
        assert row, o.name
        said = re.search(r"Not read under ([A-Z]+(?:(?:, | or )[A-Z]+)*)", row.group(0))
        named = set(re.split(r", | or ", said.group(1))) if said else set()
        assert named == {SHORT[r] for r in o.not_read}, (o.name, named)


def test_what_the_code_of_each_ruleset_is_makes_the_options_unread():
    # a Kubbuteo return is judged by judge_return (no option read); a flick is no baton throw;
    # DM has no helicopter ban
    kt, dm = get_rulebook("kubbuteo"), get_rulebook("dm")
    assert kt.returns_by_flick and kt.throw_rules is None
    assert dm.throw_rules is not None and not dm.throw_rules.forbid_helicopter
    assert get_rulebook("wikinger").throw_rules.forbid_helicopter


@pytest.mark.parametrize("scenario", ["kt_return_short", "kt_return_resting_on_a_kubb"])
def test_kt_returns_are_ruled_alike_under_every_value_of_the_options_kt_does_not_read(scenario):
    from kubb3d.library import resolve_scenario
    from kubb3d.scenario import run

    path = resolve_scenario(scenario)
    plain = run(path)[0].judgement.to_dict()
    for o in OPTIONS:
        if "kubbuteo" in o.not_read and o.applies == "judge":
            for value in o.choices:
                assert run(path, options={o.name: value})[0].judgement.to_dict() == plain, (o.name, value)
