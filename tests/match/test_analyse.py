"""``kubb3d analyse`` (issue #33 item 3): win probability after the actions of a recorded match.

Held against what the command does not choose: the point after action k is ``whatif --at k+1``
with the same seed; the point after the last action is the replay's own outcome record; each
point's probabilities are shares of its rollouts (the players' and the draws' add to 1); with
``--every`` the points are the actions the option names; bad input is one line, exit 2 and
nothing written. Matches are cut after 3 turns (``kubb3d match --round-cap 3``) to stay cheap.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from kubb3d.analyse import alternatives, choices_at, win_curve
from kubb3d.cli import _register_subapps, app
from kubb3d.match import Match, MatchConfig
from kubb3d.whatif import read_recorded, state_at, summarise, whatif

_register_subapps()
runner = CliRunner()


def _short(tmp_path_factory, seed: int):
    path = tmp_path_factory.mktemp("analyse") / f"dm{seed}.jsonl"
    Match(MatchConfig(ruleset="dm", seed=seed, round_cap=3), replay=path).run()
    return read_recorded(path)


def _first_short(tmp_path_factory, wanted, what: str):
    """The first DM match cut after 3 turns (seeds 1-10) for which ``wanted(record)`` holds (the
    tests need the kind of match, not one seed's outcome, which the physics may move)."""
    for seed in range(1, 11):
        rec = _short(tmp_path_factory, seed)
        if wanted(rec):
            return rec
    pytest.fail(f"no DM match of seeds 1-10 cut after 3 turns {what}")


@pytest.fixture(scope="module")
def won(tmp_path_factory):
    """A DM match cut after 3 turns that one side wins, with an inkast."""
    return _first_short(
        tmp_path_factory,
        lambda rec: rec.outcome["winner"] is not None
        and any(a["type"] == "Inkast" for _, a, _ in rec.actions.values()),
        "is won and has an inkast",
    )


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """A DM match cut after 3 turns that ends in a draw."""
    return _first_short(tmp_path_factory, lambda rec: rec.outcome["winner"] is None, "is drawn")


def _analyse(rec, *args: str) -> dict:
    res = runner.invoke(app, ["analyse", str(rec.path), *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.fixture(scope="module")
def doc(won):
    """Every 4th action of the won match, 2 rollouts per point."""
    return _analyse(won, "--every", "4", "--samples", "2", "--seed", "5")


def test_the_same_seed_gives_the_same_document(won, doc):
    assert _analyse(won, "--every", "4", "--samples", "2", "--seed", "5") == doc


def test_the_point_after_the_last_action_is_the_recorded_outcome(won, drawn, doc):
    last = doc["points"][-1]
    winner = won.outcome["winner"]
    loser = next(p for p in won.players if p != winner)
    assert last["after"] == max(won.actions) and last["exact"] and last["samples"] == 0
    assert last["wins"][winner] == {"p": 1.0, "ci95": [1.0, 1.0]} and last["wins"][loser]["p"] == 0.0
    assert doc["played"] == {"winner": winner, "termination": won.outcome["termination"]}
    final = win_curve(drawn, 1, every=max(drawn.actions) + 1)[-1]
    assert final.exact and final.draws == 1 and all(final.p(p) == 0.0 for p in drawn.players)


def test_each_point_is_shares_of_its_rollouts(doc):
    """P1 + P2 = 1 − draws, each a count of the samples over the samples, intervals around them."""
    for point in doc["points"]:
        wins = [point["wins"][p]["p"] for p in doc["players"]]
        assert sum(wins) == pytest.approx(1 - point["draws"]["p"], abs=1e-12)
        n = point["samples"] or 1
        for rate in [*point["wins"].values(), point["draws"]]:
            assert (rate["p"] * n) == pytest.approx(round(rate["p"] * n), abs=1e-9)
            assert rate["ci95"][0] <= rate["p"] <= rate["ci95"][1]


def test_every_k_analyses_every_kth_action_and_the_last(won, doc):
    last = max(won.actions)
    afters = [point["after"] for point in doc["points"]]
    assert afters[0] == -1 and afters[-1] == last and doc["every"] == 4
    assert [b - a for a, b in zip(afters[1:-1], afters[2:-1])] == [4] * (len(afters) - 3)
    assert afters[1] == 0 and afters[-2] + 4 > last and afters[-2] != last
    assert len(afters) == 2 + len([i for i in range(last) if i % 4 == 0])


def test_a_point_is_whatif_from_the_next_action(won, doc):
    """The rollouts behind the point after action k are ``whatif --at k+1`` with the same seed."""
    point = doc["points"][-2]
    k = point["after"]
    summary = summarise(won.players, whatif(won, k + 1, 2, seed=5))
    for player in won.players:
        assert point["wins"][player]["p"] == summary["wins"][player]["p"]
        assert point["wins"][player]["ci95"] == summary["wins"][player]["ci95"]


def test_the_moves_are_the_biggest_steps_of_the_curve(doc):
    player = doc["players"][0]
    points = doc["points"]
    steps = sorted(
        (abs(b["wins"][player]["p"] - a["wins"][player]["p"]) for a, b in zip(points, points[1:])), reverse=True
    )
    assert [abs(m["change"]) for m in doc["moves"]] == pytest.approx(steps[: len(doc["moves"])])
    for move in doc["moves"]:
        before = next(p for p in points if p["after"] == move["first"] - 1)
        assert move["before"] == before["wins"][player]["p"]


def test_workers_give_the_same_curve(won):
    every = max(won.actions) // 2 + 1
    assert win_curve(won, 1, every=every, seed=3, workers=2) == win_curve(won, 1, every=every, seed=3)


def test_baton_alternatives_are_the_standing_targets_with_the_same_seeds(won):
    """Every kubb standing in the target half is a choice; aiming at the kubb the player aimed at
    (the recorded lateral) plays exactly as the player's own choice with the same seeds."""
    at = max(i for i, (_, a, _) in won.actions.items() if a["type"] == "BatonThrow")
    side = won.actions[at][1]["side"]
    standing = state_at(won, at).standing_in("B" if side == "A" else "A")
    choices = choices_at(won, at)
    assert [label for label, _ in choices] == ["own choice", *(f"at {k.id}" for k in standing)]
    own_lateral = json.loads(won.lines[won.actions[at][0]])["throws"][0]["intended"]["lateral"]
    aimed = [k.id for k in standing if abs(k.pose.position[1] - own_lateral) < 0.01]
    assert len(aimed) == 1
    found = {alt.label: alt for alt in alternatives(won, at, 2, seed=4)}
    assert [r.seed for r in found["own choice"].results] == [r.seed for r in found[f"at {aimed[0]}"].results]
    assert found["own choice"].results == found[f"at {aimed[0]}"].results


def test_inkast_alternatives_lie_in_the_half_the_kubbs_are_thrown_into(won):
    at = max(i for i, (_, a, _) in won.actions.items() if a["type"] == "Inkast")
    side = won.actions[at][1]["side"]
    pitch = state_at(won, at).pitch
    spots = [choice.inkast_at for _, choice in choices_at(won, at)[1:]]
    assert len(spots) == 5 and len(set(spots)) == 5
    assert all(pitch.in_half("B" if side == "A" else "A", x, y) for x, y in spots)
    res = runner.invoke(app, ["analyse", str(won.path), "--at", str(at), "--alternatives", "--samples", "1", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert [alt["choice"]["inkast_at"] for alt in got["alternatives"]] == [None, *(list(s) for s in spots)]
    assert all(alt["summary"]["samples"] == 1 for alt in got["alternatives"])


def test_the_png_is_written(won, tmp_path):
    out = tmp_path / "curve.png"
    every = str(max(won.actions) + 1)
    res = runner.invoke(app, ["analyse", str(won.path), "--every", every, "--samples", "1", "--png", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--every", "0"], "--every"),
        (["--samples", "0"], "--samples"),
        (["--at", "5"], "--at: give it with --alternatives"),
        (["--alternatives"], "--alternatives: give the action with --at"),
        (["--at", "999", "--alternatives"], "--at: expected an action of"),
        (["--at", "0", "--alternatives"], "action 0 is LagThrow; expected a BatonThrow"),
        (["--png", "MISSING/curve.png"], "--png: the folder"),
        (["--png", "FOLDER"], "is a folder"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(won, tmp_path, args, expected):
    args = [str(tmp_path / "nowhere" / "curve.png") if a == "MISSING/curve.png" else a for a in args]
    args = [str(tmp_path) if a == "FOLDER" else a for a in args]
    res = runner.invoke(app, ["analyse", str(won.path), *args])
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.output
    assert expected in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_bad_or_unfinished_replay_is_one_line(won, tmp_path):
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(won.lines[:-1]) + "\n")  # no outcome record: an interrupted match
    out = tmp_path / "curve.png"
    for path, expected in [(cut, "interrupted"), (tmp_path / "none.jsonl", "none.jsonl")]:
        res = runner.invoke(app, ["analyse", str(path), "--png", str(out)])
        assert res.exit_code == 2 and res.output.count("\n") == 1 and res.output.startswith("error: "), res.output
        assert expected in res.output and not out.exists()


def test_the_docs_name_the_inkast_spots_compared():
    """docs/analysis.md words the spots of INKAST_DEPTHS; the count and fractions must agree."""
    from pathlib import Path

    from kubb3d.analyse import INKAST_DEPTHS

    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text().split())
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
    fractions = {"a quarter": 0.25, "half": 0.5, "three quarters": 0.75, "a third": 1 / 3, "two thirds": 2 / 3}
    pattern = r"at an inkast, (\w+) spots .*?: (a quarter|a third|half)(?:, (\w+(?: \w+)?))? and (\w+ \w+) of"
    m = re.search(pattern, text)
    assert m, "docs/analysis.md no longer describes the inkast spots"
    assert words[m.group(1)] == len(INKAST_DEPTHS) + 2
    named = [fractions[g] for g in m.groups()[1:] if g is not None]
    assert named == pytest.approx(list(INKAST_DEPTHS))


@pytest.mark.parametrize("last", [1, 2, 3, 5, 8, 13, 99])
def test_the_curve_marks_whole_actions_only(won, last):
    # the PNG of a short match read "2.5" and "7.5" under its x axis: actions are whole numbers
    import matplotlib.pyplot as plt

    from kubb3d.analyse import Point, curve_figure

    last = min(last, max(won.actions))  # a point is after an action the replay holds
    players = won.players
    points = [Point(i, {players[0]: 1, players[1]: 0}, 0, 1) for i in range(-1, last + 1)]
    fig = curve_figure(won, points, top=0)
    try:
        labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
        ticks = list(fig.axes[0].get_xticks())
    finally:
        plt.close(fig)
    assert labels[0] == "start" and ticks[0] == -1
    assert all(label.isdigit() for label in labels[1:]), labels
    assert [int(label) for label in labels[1:]] == ticks[1:] and all(0 <= t <= last for t in ticks[1:])


def test_reports_name_actions_and_endings_in_words(won):
    # `whatif` and `analyse` printed "(BatonThrow A baton1)", "as played: P1 wins (round_cap)" and
    # "ended by: round_cap 1": class names, ids and code names where a reader wants words
    from kubb3d.whatif import describe_action

    described = [describe_action(won, i) for i in sorted(won.actions)]
    assert all(re.search(r"[a-z][A-Z]|\bbaton\d|_", text) is None for text in described), described
    assert any(text.endswith("baton throw, baton 1") for text in described)
    curve = runner.invoke(app, ["analyse", str(won.path), "--every", str(max(won.actions) + 1), "--samples", "1"])
    assert curve.exit_code == 0, curve.output
    what = runner.invoke(app, ["whatif", str(won.path), "--at", str(max(won.actions)), "--samples", "1"])
    assert what.exit_code == 0, what.output
    for text in (curve.stdout, what.stdout):
        assert re.search(r"\b(round_cap|early_king)\b|BatonThrow|Inkast [AB]", text) is None, text
        assert "as played: " in text and "(ended by " in text


def test_the_text_report_fits_100_columns_and_prints_no_zero_change(doc):
    """The tryout: the curve's table was 170 columns wide and ended in "(+0 points)" lines."""
    import copy

    from kubb3d.cli.analyse import curve_lines

    widest = {"p": 1.0, "ci95": [1.0, 1.0]}  # 100.0 % (100–100), in every column
    wide = copy.deepcopy(doc)
    for point in wide["points"]:
        point["wins"] = {p: widest for p in wide["players"]}
        point["draws"] = widest  # the third column
        point["action"] = "B baton throw, baton 6, a long description of what happened"
    assert len(curve_lines(doc)) > 5
    for report in (curve_lines(doc), curve_lines(wide)):
        report = [line for line in report if doc["replay"] not in line]  # the path, as long as given
        assert max(len(line) for line in report) <= 100, max(report, key=len)
    zero = copy.deepcopy(doc)
    step = dict(zero["moves"][0], change=0.004, before=0.5, after=0.504)
    zero["moves"] = [step, *zero["moves"]]
    lines = curve_lines(zero)
    assert not any(re.search(r"\([+-]0 points\)", line) for line in lines), lines
    real = [m for m in doc["moves"] if round(100 * m["change"]) != 0]
    assert sum("points)" in line for line in lines) == len(real)
    zero["moves"] = [step]
    assert curve_lines(zero)[-1] == f"no action moved {doc['players'][0]}'s chance by 1 point or more"


def test_the_text_reports_of_a_real_curve_fit_100_columns(won):
    every = str(max(won.actions) // 3)
    res = runner.invoke(app, ["analyse", str(won.path), "--every", every, "--samples", "2"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.stdout.splitlines() if str(won.path) not in line]  # the path as given
    assert len(lines) > 5 and max(len(line) for line in lines) <= 100, res.stdout
    assert "2 rollouts each" in res.stdout and "*" in res.stdout


def test_a_choice_is_named_in_the_match_s_own_words(won):
    # `analyse` said "P2 chooses start: P2" where `match` said "P2 decides that P2 opens" (its
    # report and `whatif`'s name an action by describe_action)
    from kubb3d.whatif import describe_action

    choices = [(i, line) for i, (line, action, _) in won.actions.items() if action["type"] == "Choose"]
    assert {won.actions[i][1]["what"] for i, _ in choices} == {"start", "end"}
    for i, line in choices:
        said = [event["text"] for event in json.loads(won.lines[line])["events"] if event["kind"] == "choice"]
        assert [describe_action(won, i)] == said
    assert any(re.fullmatch(r"P\d decides that P\d opens", describe_action(won, i)) for i, _ in choices)
