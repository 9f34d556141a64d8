"""``kubb3d whatif`` (issue #33 item 2): a recorded match continued from one of its actions.

Held against the replay itself: continued with the replay's own seed (and its own choice) the
match ends exactly as recorded, line for line; another choice reaches the throw it is about; the
samples depend on the root seed only; bad input is one line and exit code 2 before any match is
played."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment.stats import wilson
from kubb3d.match import Match, MatchConfig
from kubb3d.players import get_skill, Player
from kubb3d.whatif import (
    Choice,
    WhatIfError,
    continue_match,
    read_recorded,
    sample_seed,
    state_at,
    summarise,
    whatif,
)

_register_subapps()
runner = CliRunner()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A whole DM match (seed 1) and its replay, read for what-ifs."""
    path = tmp_path_factory.mktemp("whatif") / "dm.jsonl"
    Match(MatchConfig(ruleset="dm", seed=1), replay=path).run()
    return read_recorded(path)


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """A DM match cut off after 4 turns (seed 2): its continuations are short, whatever the seed."""
    path = tmp_path_factory.mktemp("whatif") / "capped.jsonl"
    Match(MatchConfig(ruleset="dm", seed=2, round_cap=4), replay=path).run()
    return read_recorded(path)


def _tail(recorded, at: int) -> list[str]:
    """The replay's lines from the action record ``at`` to the end."""
    return recorded.lines[recorded.actions[at][0] :]


def _same_ending(recorded, at: int, got) -> None:
    tail = _tail(recorded, at)
    assert list(got.lines[:-1]) == tail[:-1]  # every world and action record, byte for byte
    mine, theirs = json.loads(got.lines[-1]), json.loads(tail[-1])
    assert mine.pop("glitches") <= theirs.pop("glitches")  # (glitches before a resume are not counted)
    assert mine == theirs and got.outcome == {k: theirs[k] for k in got.outcome}


def _at(recorded, kind: str, last: bool = True) -> list[int]:
    return sorted((i for i, (_, a, _) in recorded.actions.items() if a["type"] == kind), reverse=last)


def test_the_replays_own_seed_ends_the_match_as_recorded(recorded):
    """From the first action, from a turn boundary, from mid-turn and from the last action: the
    world at action k is the one the match had, so the replay's own seeds replay its ending."""
    boundary = max(i for i, _ in recorded.worlds)
    mid = max(i for i in recorded.actions if i < boundary - 1 and i not in {w for w, _ in recorded.worlds})
    last = max(recorded.actions)
    assert boundary - 1 > mid > 0 and recorded.outcome["termination"] == "KING"
    for at in (0, mid, boundary, last):
        got = continue_match(recorded, at, keep_lines=True)
        _same_ending(recorded, at, got)
        assert got.actions_left == last + 1 - at
        assert got.winner == recorded.outcome["winner"]


@pytest.mark.parametrize("ruleset", ["wikinger", "kubbuteo"])
def test_other_rulesets_end_as_recorded_too(tmp_path, ruleset):
    """WS (teams, a clock) and Kubbuteo (flicked disks, kubbs parked off the board): from a
    mid-turn action the replay's own seed gives its lines byte for byte."""
    path = tmp_path / f"{ruleset}.jsonl"
    Match(MatchConfig(ruleset=ruleset, seed=2, round_cap=3), replay=path).run()
    rec = read_recorded(path)
    worlds = {i for i, _ in rec.worlds}
    at = max(i for i in rec.actions if i not in worlds and i - 1 not in worlds and rec.actions[i][1]["type"] != "Raise")
    _same_ending(rec, at, continue_match(rec, at, keep_lines=True))


def test_the_seed_counts_from_the_chosen_action_on(recorded):
    """Naming the replay's own seed is the replay; another seed changes the draws of action k
    (its release), and only from k on (the actions before it play as recorded, or the
    continuation would be refused)."""
    at = max(recorded.actions) - 1
    own = recorded.header["config"]["seed"]
    _same_ending(recorded, at, continue_match(recorded, at, seed=own, keep_lines=True))
    other = continue_match(recorded, at, seed=own + 1, keep_lines=True)
    mine, theirs = json.loads(other.lines[0]), json.loads(_tail(recorded, at)[0])
    assert mine["i"] == theirs["i"] == at and mine["action"] == theirs["action"]
    assert mine["throws"][0]["intended"] == theirs["throws"][0]["intended"]  # the same aim
    assert mine["throws"][0]["params"] != theirs["throws"][0]["params"]  # another release


def test_the_players_own_inkast_spot_changes_nothing_and_another_is_aimed_at(recorded):
    at = _at(recorded, "Inkast")[0]
    side = recorded.actions[at][1]["side"]
    assert recorded.actions[at][1]["attempt"] == 1
    pitch = state_at(recorded, at).pitch
    own = Player("x", get_skill("club")).inkast_target(pitch, side, 0)
    _same_ending(recorded, at, continue_match(recorded, at, choice=Choice(inkast_at=own), keep_lines=True))
    spot = (own[0] + 0.6 * (1 if own[0] > 0 else -1), -own[1] - 0.4)
    other = continue_match(recorded, at, choice=Choice(inkast_at=spot), keep_lines=True)
    first = json.loads(other.lines[0])
    assert first["i"] == at and first["action"]["type"] == "Inkast"
    lateral = [t["intended"]["lateral"] for t in first["throws"]]
    assert lateral[0] == pytest.approx(spot[1], abs=1e-12)
    own_lateral = [t["intended"]["lateral"] for t in json.loads(_tail(recorded, at)[0])["throws"]]
    assert [a - b for a, b in zip(lateral, own_lateral)] == pytest.approx([spot[1] - own[1]] * len(lateral))


def test_another_target_is_the_kubb_the_baton_is_aimed_at(recorded):
    """--target: the baton is aimed at the chosen kubb (the throw's intended lateral is the kubb's
    y), and the replay's own aim gives another lateral; the next throws are the player's own."""
    for at in _at(recorded, "BatonThrow"):
        state = state_at(recorded, at)
        side = recorded.actions[at][1]["side"]
        standing = {k.id: k for k in state.standing_in("B" if side == "A" else "A")}
        own = json.loads(_tail(recorded, at)[0])["throws"][0]["intended"]["lateral"]
        others = [k for k, info in standing.items() if abs(info.pose.position[1] - own) > 0.1]
        if others:
            break
    target = others[0]
    got = continue_match(recorded, at, choice=Choice(target=target), keep_lines=True)
    first = json.loads(got.lines[0])
    assert first["i"] == at and first["throws"][0]["intended"]["lateral"] == pytest.approx(
        standing[target].pose.position[1], abs=0.01
    )


def test_samples_depend_on_the_root_seed_only(capped):
    at = max(capped.actions) - 3
    four = whatif(capped, at, 4, seed=7)
    assert [r.seed for r in four] == [sample_seed(7, j) for j in range(4)]
    assert len({r.seed for r in four}) == 4 and capped.header["config"]["seed"] not in {r.seed for r in four}
    again = whatif(capped, at, 2, seed=7)
    assert again == four[:2]  # the first samples of a longer run are the shorter run
    assert continue_match(capped, at, seed=four[3].seed) == four[3]


def test_workers_give_the_same_samples(capped):
    at = max(capped.actions) - 3
    seen = []
    two = whatif(capped, at, 3, seed=7, workers=2, progress=lambda j, r: seen.append(j))
    assert two == whatif(capped, at, 3, seed=7) and sorted(seen) == [0, 1, 2]


def test_the_summary_counts_every_sample_once(capped):
    at = max(capped.actions) - 3
    results = whatif(capped, at, 3, seed=2)
    s = summarise(capped.players, results)
    wins = [s["wins"][p]["count"] for p in capped.players]
    assert sum(wins) + s["draws"]["count"] == 3 == sum(s["terminations"].values())
    for p in capped.players:
        k = s["wins"][p]["count"]
        assert s["wins"][p]["p"] == k / 3 and s["wins"][p]["ci95"] == list(wilson(k, 3))
    assert sum(s["turns_left"]["counts"].values()) == 3
    assert s["turns_left"]["min"] <= s["turns_left"]["mean"] <= s["turns_left"]["max"]


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--at", "999"], "--at: expected an action of dm.jsonl from 0 to"),
        (["--at", "-1"], "--at: expected an action of dm.jsonl from 0 to"),
        (["--at", "3", "--samples", "0"], "--samples: expected from 1 to 100000, got 0"),
        (["--at", "LAST", "--target", "B1"], "--target: action"),
        (["--at", "INKAST", "--target", "B1"], "is an inkast, not a baton throw"),
        (["--at", "BATON", "--inkast-at", "1,1"], "is a baton throw, not an inkast"),
        (["--at", "BATON", "--target", "B99"], "does not stand in half"),
        (["--at", "INKAST", "--inkast-at", "1"], "--inkast-at: expected X,Y in m"),
        (["--at", "INKAST", "--inkast-at", "0.5,9"], "is not in half"),
        (["--at", "INKAST", "--inkast-at", "1,2", "--target", "B1"], "give one of them"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(recorded, args, expected):
    names = {
        "LAST": str(max(recorded.actions)),
        "INKAST": str(_at(recorded, "Inkast")[0]),
        "BATON": str(_at(recorded, "BatonThrow")[0]),
    }
    args = [names.get(a, a) for a in args]
    if expected == "is not in half":
        side = recorded.actions[int(args[1])][1]["side"]
        args[3] = ("-1.5" if side == "A" else "1.5") + ",0"  # in the inkaster's own half
    res = runner.invoke(app, ["whatif", str(recorded.path), *args])
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.output
    assert expected in lines[0]


@pytest.mark.parametrize("content, expected", [("not json\n{}\n", "not a JSON line"), ("", "")])
def test_a_bad_replay_file_is_one_line(tmp_path, content, expected):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    res = runner.invoke(app, ["whatif", str(path), "--at", "0"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and res.output.startswith("error: ")
    assert expected in res.output and "Traceback" not in res.output
    missing = runner.invoke(app, ["whatif", str(tmp_path / "none.jsonl"), "--at", "0"])
    assert missing.exit_code == 2 and "none.jsonl" in missing.output


def test_a_replay_other_physics_made_is_refused(recorded, tmp_path):
    """An action that does not play as recorded (here: a changed release) is named, not
    continued from a world the match never had."""
    lines = list(recorded.lines)
    boundary = max(i for i, _ in recorded.worlds)
    line = recorded.actions[boundary][0]
    doc = json.loads(lines[line])
    doc["throws"][0]["rest_time_s"] = -1.0
    lines[line] = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(WhatIfError, match=f"action {boundary} does not play as recorded"):
        continue_match(read_recorded(path), boundary + 1)


def test_json_document_is_the_same_for_the_same_seed(capped):
    at = str(max(capped.actions))
    docs = [
        json.loads(runner.invoke(app, ["whatif", str(capped.path), "--at", at, "--samples", "2", "--json"]).output)
        for _ in range(2)
    ]
    assert docs[0] == docs[1]
    d = docs[0]
    assert d["at"] == int(at) and d["summary"]["samples"] == 2
    assert d["played"] == {"winner": capped.outcome["winner"], "termination": capped.outcome["termination"]}
    assert [r["seed"] for r in d["results"]] == [sample_seed(1, 0), sample_seed(1, 1)]
    text = runner.invoke(app, ["whatif", str(capped.path), "--at", at, "--samples", "2"]).output
    for p in capped.players:
        k = d["summary"]["wins"][p]["count"]
        assert f"{p} wins {k}/2" in text


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    depth=st.floats(0.5, 3.9),
    side_m=st.floats(-2.2, 2.2),
    index=st.integers(0, 9),
    depth_step=st.floats(0.0, 0.6),
    side_step=st.floats(-0.6, 0.6),
)
def test_choosing_the_players_own_inkast_spot_moves_no_kubb_by_a_bit(depth, side_m, index, depth_step, side_step):
    """Every kubb of an inkast keeps its own target, bit for bit, when the chosen spot is the
    player's own first spot (a sum like spot + chosen - first is not spot in floating point, and
    the ulp changed where a seeded kubb landed); another spot shifts every kubb by the same step."""
    from kubb3d.pitch import Pitch
    from kubb3d.whatif import _ChosenPlayer

    class Grid:
        def inkast_target(self, pitch, side, n):
            return (depth + 0.3 * (n // 3), side_m + 0.3 * (n % 3))

    pitch, own = Pitch(), Grid()
    first = own.inkast_target(pitch, "A", 0)
    assert _ChosenPlayer(own, Choice(inkast_at=first)).inkast_target(pitch, "A", index) == own.inkast_target(
        pitch, "A", index
    )
    moved = _ChosenPlayer(own, Choice(inkast_at=(first[0] + depth_step, first[1] + side_step)))
    got, base = moved.inkast_target(pitch, "A", index), own.inkast_target(pitch, "A", index)
    assert got == pytest.approx((base[0] + depth_step, base[1] + side_step), abs=1e-12)
