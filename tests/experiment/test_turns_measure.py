"""The ``turns`` measure: per-turn counts of a whole match, held against a count made from the
replay of the same match (its action records only, no rules engine)."""

import json

import pytest

from kubb3d.experiment.spec import SpecError, load_spec
from kubb3d.experiment.trial import run_trial

SPEC = """
schema = 1
title = "club matches with per-turn records"
seed = {seed}
trials_per_point = 1
measures = ["match", "turns"]

[match]
ruleset = "dm"
skill_a = "club"
skill_b = "club"
round_cap = 12
"""

BASELINE_X = 4.0  # m: DM pitch of 8 m, baselines at x = ±4


def count_from_replay(path) -> list[dict]:
    """Per-turn counts from a one-set match's replay, its action records only: a kubb becomes a
    field kubb of a half when an inkast or a penalty throw lands it there validly or it is placed
    there by hand, and stops standing when a throw's outcome fells it."""
    records = [json.loads(line) for line in open(path, encoding="utf-8")]
    field: dict[str, set[str]] = {"A": set(), "B": set()}
    inkasted: set[str] = set()
    turns: list[dict] = []
    cur: dict = {}
    for rec in records:
        if rec["type"] != "action":
            continue
        action, outcome, events = rec["action"], rec.get("outcome") or {}, rec["events"]
        kind = action["type"]
        if kind in ("Inkast", "PenaltyThrow"):
            side = action["side"] if kind == "Inkast" else action["from_side"]
            target = "B" if side == "A" else "A"
            field[target] |= set(outcome["valid"])
            inkasted |= set(outcome["valid"])
        elif kind == "PlaceKubb":
            field[action["half"]].add(action["kubb"])
            inkasted.add(action["kubb"])
        elif kind in ("BatonThrow", "KingThrow"):
            target = "B" if action["side"] == "A" else "A"
            felled = set(outcome["felled"])
            turn = next(e["turn_no"] for e in events if e["kind"] == "throw")
            if cur.get("turn_no") != turn:
                cur = {
                    "set_no": 1,
                    "turn_no": turn,
                    "advance_line": abs(abs(action["line_x"]) - BASELINE_X) > 1e-9,
                    "field_standing": len(field[target]),
                    "field_inkasted": len(field[target] & inkasted),
                    "first_baton_field_felled": len(field[target] & felled),
                    "batons": 0,
                    "eight_m_felled": 0,
                }
                turns.append(cur)
            cur["batons"] += 1
            if kind == "BatonThrow" and not field[target] and not cur["advance_line"]:
                cur["eight_m_felled"] += len({f"{target}{i}" for i in range(1, 6)} & felled)
            field[target] -= felled
            over = any(e["kind"] == "result" for e in events)
            cur["field_left"] = None if over else len(field[target])
        if any(e["kind"] == "turn" for e in events):
            inkasted = set()
    return turns


@pytest.fixture(scope="module")
def advantage_row(tmp_path_factory) -> dict:
    """The ``turns`` row of the first seed's match (1…11) with an inkast and an advantage line,
    run once for the two tests that read it (each ran the same trial: 5 s of a whole match)."""
    tmp_path = tmp_path_factory.mktemp("turns")
    for seed in range(1, 12):
        spec = tmp_path / f"t{seed}.toml"
        spec.write_text(SPEC.format(seed=seed))
        row = run_trial(load_spec(spec), 0)
        assert row["ok"], row["error"]
        if any(t["field_left"] for t in row["turns"]) and any(t["field_inkasted"] for t in row["turns"]):
            return row
    raise AssertionError("no seed in 1…11 gave a match with an inkast and an advantage line")


def test_turn_records_agree_with_a_count_from_the_replay(tmp_path, advantage_row):
    from kubb3d.match import Match, MatchConfig

    row = advantage_row
    replay = tmp_path / "m.jsonl"
    config = MatchConfig(skills=("club", "club"), seed=int(row["match_seed"]), round_cap=12, time_limit_s=None)
    Match(config, replay=replay).run()
    counted = count_from_replay(replay)
    fields = list(counted[0])
    assert [{k: t[k] for k in fields} for t in row["turns"]] == counted
    # the per-side sums are the sums of the records
    for label in ("A", "B"):
        mine = [t for t in row["turns"] if t["side"] == label]
        low = label.lower()
        assert row[f"turns_first_baton_felled_{low}"] == sum(t["first_baton_field_felled"] for t in mine)
        assert row[f"turns_field_inkasted_{low}"] == sum(t["field_inkasted"] for t in mine)
        assert row[f"turns_advantage_lines_{low}"] == sum(1 for t in mine if t["field_left"])
    # the real values of this match: some field kubbs were inkasted and one line was left
    assert sum(t["field_inkasted"] for t in row["turns"]) > 0
    first = next(t for t in row["turns"] if t["field_left"])
    assert row["turns_first_advantage_line"] == first["side"]


def test_an_advantage_line_left_is_the_next_turns_advance_line(advantage_row):
    """DM §8: field kubbs left standing in a half move its owner's throwing line forward in its
    next turn, and only then."""
    turns = advantage_row["turns"]
    pairs = [(t, n) for t, n in zip(turns, turns[1:]) if (n["set_no"], n["turn_no"]) == (t["set_no"], t["turn_no"] + 1)]
    assert pairs
    for t, n in pairs:
        assert n["advance_line"] == bool(t["field_left"]), (t, n)
        assert n["side"] != t["side"]
    for t in turns:  # counts within their bounds
        assert 0 <= t["field_inkasted"] <= t["field_standing"] <= 10
        assert 0 <= t["first_baton_field_felled"] <= t["field_standing"]
        assert t["eight_m_felled"] <= 5 and t["eight_m_throws"] <= t["batons"] <= 6


def test_the_turns_measure_needs_a_match(tmp_path):
    spec = tmp_path / "bad.toml"
    spec.write_text(
        'schema = 1\ntitle = "x"\nseed = 1\ntrials_per_point = 1\nmeasures = ["hit", "turns"]\n'
        '[throw]\ntarget = "B1"\nspeed = 9.0\n'
    )
    with pytest.raises(SpecError, match="'turns' measure"):
        load_spec(spec)
