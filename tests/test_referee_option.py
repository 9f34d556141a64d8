"""``--option NAME=VALUE``: the referee's options (kubb3d.judge.options) set from the command line on
``match``, ``judge``, ``audit`` and ``play``, and from an experiment spec (issue #37 item 4).
A bad name or value is one line and exit 2; a good one reaches the part that reads it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.judge.options import BY_NAME, OPTIONS, option, options_for, parse_option, parse_options
from kubb3d.match import Match, MatchConfig

_register_subapps()
runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("command", [["match"], ["judge", "dm_illegal_throw_tilt"], ["audit", "--matches", "1"],
                                     ["play", "--opponent", "club"]])
@pytest.mark.parametrize(
    "word, expected",
    [
        ("nonsense", "expected NAME=VALUE"),
        ("=1", "expected NAME=VALUE"),
        ("bogus=1", "unknown referee option 'bogus'"),
        ("raise_order=random", "expected one of throwing_order, nearest_baseline_first"),
        ("first_foul_warning=maybe", "expected true or false"),
        ("settle_s=abc", "expected a number from 0.05 to 15"),
        ("settle_s=1e9", "expected a number from 0.05 to 15"),
        ("max_tilt_deg=nan", "expected a number from 0 to 90 or none"),
        ("helicopter_limit=400", "expected a number from 0 to 360"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(command, word, expected):
    res = _run(*command, "--option", word)
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0], res.output
    assert "Traceback" not in res.output


def test_every_option_parses_its_default_back():
    """What `kubb3d rules show` prints as a default is a value `--option` accepts, and gives it back."""
    for o in OPTIONS:
        for ruleset, value in o.defaults.items():
            word = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            assert parse_option(f"{o.name}={word}") == (o.name, value), (o.name, ruleset)
            assert option({o.name: value}, o.name, ruleset) == value


def test_options_split_by_the_part_that_reads_them():
    given = parse_options(["advance_line=front edge", "max_tilt_deg=45", "raise_order=nearest baseline first"])
    assert options_for(given, "ruleset") == {"advance_line": "front edge"}
    assert options_for(given, "throw") == {"max_tilt_deg": 45.0}
    assert options_for(given, "judge") == {"raise_order": "nearest baseline first"}
    assert {o.applies for o in BY_NAME.values()} == {"judge", "ruleset", "throw"}


def test_judge_option_changes_the_ruling_it_is_about():
    """first_foul_warning=on turns the foul's "raise at original spot" into "counts as felled"
    for the felled kubb, and changes nothing else."""
    plain = json.loads(_run("judge", "dm_illegal_throw_tilt", "--json").output)
    warned = json.loads(_run("judge", "dm_illegal_throw_tilt", "--json", "--option", "first_foul_warning=on").output)
    before = {r["piece"]: r["consequence"] for r in plain["rulings"]}
    after = {r["piece"]: r["consequence"] for r in warned["rulings"]}
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {"A1"}
    assert (before["A1"], after["A1"]) == ("raise at original spot", "counts as felled")


def test_judge_refuses_an_option_of_whole_matches():
    res = _run("judge", "dm_illegal_throw_tilt", "--option", "advance_line=front edge")
    assert res.exit_code == 2 and "applies to whole matches" in res.output


def test_judge_takes_exactly_the_options_rules_show_says_it_takes():
    # each option at its DM default: judge accepts it iff `rules show` names judge where it is set,
    # and a refusal says why in the option's own terms (a throw's tilt limit is not "whole matches")
    rows = json.loads(_run("rules", "show", "dm", "--json").output)["options"]
    shown = {row["option"]: row["set_on"] for row in rows}
    assert set(shown) == set(BY_NAME)
    for name, where in shown.items():
        value = BY_NAME[name].defaults["dm"]
        word = "none" if value is None else ",".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        res = _run("judge", "dm_illegal_throw_tilt", "--option", f"{name}={word}")
        assert (res.exit_code == 0) == ("judge" in where), (name, where, res.output)
        if res.exit_code:
            assert res.exit_code == 2 and where in res.output, res.output
            kind = BY_NAME[name].applies
            assert ("whole matches" in res.output) == (kind == "ruleset"), res.output
            assert ("simulating a throw" in res.output) == (kind == "throw"), res.output


class _Recorder:
    """A judge that records the options of every context it is given."""

    def __init__(self) -> None:
        import kubb3d.judge as judge

        self.judge, self.seen = judge, []
        self.ThrowContext, self.InkastContext = judge.ThrowContext, judge.InkastContext

    def judge_throw(self, snapshot, ctx):
        self.seen.append(dict(ctx.options))
        return self.judge.judge_throw(snapshot, ctx)

    def judge_inkast(self, snapshot, ctx):
        self.seen.append(dict(ctx.options))
        return self.judge.judge_inkast(snapshot, ctx)

    def __getattr__(self, name):
        return getattr(self.judge, name)


def test_a_match_hands_each_option_to_the_part_that_reads_it(tmp_path):
    options = parse_options(["advance_line=front edge", "raise_order=nearest baseline first", "max_tilt_deg=45"])
    config = MatchConfig(seed=4, round_cap=3, options=tuple(sorted(options.items())))
    recorder = _Recorder()
    m = Match(config, judge=recorder, replay=tmp_path / "m.jsonl")
    for _ in range(8):
        if m.state.outcome() is not None:
            break
        m.step()
    assert m.ruleset.advance_line == "front edge"
    assert m.throw_options == {"max_tilt_deg": 45.0}
    assert recorder.seen and all(seen == {"raise_order": "nearest baseline first"} for seen in recorder.seen)
    header = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])
    assert MatchConfig.from_dict(header["config"]).options == config.options


def test_a_match_with_the_defaults_writes_no_options():
    """Replays of matches played at the defaults stay byte for byte as they were."""
    assert "options" not in MatchConfig().to_dict()
    assert MatchConfig.from_dict(MatchConfig().to_dict()).options == ()


def test_match_option_on_the_command_line(tmp_path):
    out = tmp_path / "m.jsonl"
    res = _run("match", "--round-cap", "3", "--option", "max_tilt_deg=none", "--replay", str(out), "-q")
    assert res.exit_code == 0, res.output
    header = json.loads(out.read_text().splitlines()[0])
    assert header["config"]["options"] == {"max_tilt_deg": None}


def test_an_experiment_spec_takes_options(tmp_path: Path):
    from kubb3d.experiment.spec import SpecError, load_spec

    base = 'schema = 1\ntitle = "t"\nseed = 1\ntrials_per_point = 1\nmeasures = ["felled"]\n[throw]\ntarget = "B3"\n'
    good = tmp_path / "good.toml"
    good.write_text(base + '[options]\nmax_tilt_deg = 45\nfirst_foul_warning = true\n')
    loaded = load_spec(good)
    assert loaded.spec.options == {"max_tilt_deg": 45.0, "first_foul_warning": True}
    plain = tmp_path / "plain.toml"
    plain.write_text(base)
    assert "options" not in load_spec(plain).normalised()  # older results files keep their hash
    bad = tmp_path / "bad.toml"
    bad.write_text(base + '[options]\nraise_order = "random"\n')
    with pytest.raises(SpecError, match="raise_order"):
        load_spec(bad)


@pytest.mark.parametrize("alias, name", [("ws", "wikinger"), ("WS", "wikinger"), ("kt", "kubbuteo"), ("DM", "dm")])
def test_a_ruleset_may_be_named_by_its_rule_books_short_name(alias, name):
    """The docs call the rule books DM, WS and KT; every command takes those names too."""
    from kubb3d.judge.rulebook import canonical_ruleset, get_rulebook
    from kubb3d.rules import get_ruleset

    assert canonical_ruleset(alias) == name
    assert get_rulebook(alias).name == name and get_ruleset(alias).name == name
    res = _run("rules", "show", alias, "--json")
    assert res.exit_code == 0 and json.loads(res.output)["ruleset"] == name
    res = _run("rules", "show", "xx")
    assert res.exit_code == 2 and "wikinger (ws)" in res.output


CODE = re.compile(r"\b(True|False|None)\b|kubb3d\.\w|\b\w+\(|\b[A-Z][A-Z_]{3,}\b|\b[A-Z]\w+\.\w+|\w+:\w+_\w+")
"""What a referee does not read: Python's True/False/None, module paths (kubb3d.judge.throws),
calls (simulate(…)), constants (SETTLE_S), attributes (ThrowContext.options), module:function."""


@pytest.mark.parametrize("ruleset", ["dm", "wikinger", "kubbuteo"])
def test_rules_show_speaks_to_a_referee(ruleset):
    # `kubb3d rules show` printed "default: False" and lines "applied in: kubb3d.judge.throws:judge_throw"
    res = _run("rules", "show", ruleset)
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    found = CODE.search(text.replace("docs/rules.md", "").replace("docs/physics.md", "").replace("NAME=VALUE", ""))
    assert found is None, found.group(0)
    # every default it prints is a value --option takes back
    for o in OPTIONS:
        shown = re.search(rf"{o.name} default: (.+?) \(choices", text)
        assert shown, o.name
        assert parse_option(f"{o.name}={shown.group(1)}") == (o.name, o.defaults[ruleset])
    assert "first_foul_warning default: no (choices: no | yes)" in text


def test_code_pattern_catches_what_it_names():
    for code in ("default: False", "applied in: kubb3d.judge.throws:judge_throw", "set by: ThrowContext.options",
                 "simulate(…, settle_s=…)", "Default: SETTLE_S"):
        assert CODE.search(code), code
    assert CODE.search("concerns: DM §5, §10; WS basic rule 14 by analogy; KT rules (2 in)") is None
