"""The referee audit (issue #12): a few seeded matches with every invariant checked after every
action; hundreds run as ``kubb3d audit`` (see docs/rules.md for the figures)."""

from __future__ import annotations

import json
import math
import os

import pytest
from cli_process import run_kubb3d

from kubb3d.audit import CHECKS, AuditReport, _Auditor, audit_match, cites_ruleset
from kubb3d.files import FileSafetyError
from kubb3d.judge import Consequence, Ruling, Status, ThrowContext, ThrowJudgement
from kubb3d.rules import get_ruleset
from kubb3d.snapshot import PieceState, Snapshot


@pytest.fixture(scope="module")
def dm1(tmp_path_factory):
    """The audit of DM seed 1, its replay kept."""
    folder = tmp_path_factory.mktemp("dm1")
    return audit_match("dm", 1, replay_dir=folder, keep_clean=True), folder / "dm-seed1.jsonl"


@pytest.mark.parametrize("ruleset,seed", [("dm", 1), ("wikinger", 0)])
def test_seeded_match_has_no_violation(ruleset, seed, tmp_path, dm1):
    rep = dm1[0] if ruleset == "dm" else audit_match(ruleset, seed, replay_dir=tmp_path)
    assert [v.to_dict() for v in rep.violations] == []
    # every check that applies to every match looked at something
    for check in (
        "completes",
        "felled_moved",
        "moved_ruled",
        "standing_ok",
        "raised_ok",
        "conserved",
        "king_by_rules",
        "cites_ruleset",
        "replay_reproduces",
    ):
        assert rep.checked[check] > 0, check
    assert rep.felled > 0
    # before issue #12 about 40 % of the felled kubbs stood upright at rest; now only the rare
    # kubb that turned over and landed standing (DM §5 „Überschlag“; the KT kubb knocked past its
    # tipping angle that bounced back up; over 20 DM matches: docs/rules.md)
    assert rep.felled_standing <= 3
    if ruleset != "dm":
        assert list(tmp_path.iterdir()) == []  # a clean match keeps no replay file


def test_dm_seed_1_no_kubb_is_felled_without_being_touched(dm1):
    # issue #12: in this match P2's first baton of turn 4 "felled" A1 and A3, which had been
    # raised upside down a moment before and were never touched
    recs = [json.loads(line) for line in dm1[1].read_text().splitlines()]
    raised_upside_down = set()
    for r in recs:
        if r["type"] != "action":
            continue
        out = r.get("outcome") or {}
        for kid, pose in out.get("valid", {}).items() if out.get("kind") == "inkast" else ():
            x, y, z, w = pose["quat_xyzw"]
            if 1 - 2 * (x * x + y * y) < -0.99:
                raised_upside_down.add(kid)
        if out.get("kind") == "throw":
            for kid in out["felled"]:
                assert kid in r["throws"][0]["trajectory"]["poses"], (
                    f"{kid} felled at action {r['i']} without being touched"
                )
    assert raised_upside_down  # the case of the issue happens in this match


def test_cli_json_report(cli, tmp_path):
    log = tmp_path / "audit.jsonl"
    r = cli(
        "audit",
        "--ruleset",
        "dm",
        "--matches",
        "1",
        "--first-seed",
        "1",
        "--json",
        "--replay-dir",
        str(tmp_path),
        "--log",
        str(log),
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    (line,) = log.read_text().splitlines()
    assert json.loads(line)["per_seed"] == doc["per_seed"]
    assert list(doc["checks"]) == list(CHECKS)
    assert doc["matches"] == 1 and doc["violations"] == []
    assert doc["checks"]["felled_moved"]["checked"] == doc["felled_by_throw"] > 0
    assert doc["per_seed"]["1"]["felled_by_throw"] == doc["felled_by_throw"]


def _kubb(pid, x, y, q=(0.0, 0.0, 0.0, 1.0), side="B", max_tilt=0.0):
    return PieceState(
        pid, "kubb", "box", (0.035, 0.035, 0.075), (x, y, 0.075), q, 0.4557, side=side, max_tilt=max_tilt
    )


def test_a_kubb_counted_felled_without_being_touched_is_a_violation():
    rep = AuditReport("dm")
    aud = _Auditor(rep, 7, get_ruleset("dm"))
    before = {"B1": _kubb("B1", 4.0, 0.0)}
    after = Snapshot(1.0, {"B1": _kubb("B1", 4.0, 0.0)})
    j = ThrowJudgement(
        (
            Ruling(
                piece="B1",
                status=Status.STANDING,
                consequence=Consequence.COUNTS_AS_FELLED,
                rules=("DM §5",),
                reason="history",
            ),
        ),
        frozenset({"B1"}),
        frozenset({"B1"}),
        frozenset(),
        frozenset(),
    )
    aud.throw(12, before, after, ThrowContext(thrower="A"), j)
    assert [(v.check, v.seed, v.action) for v in rep.violations] == [("felled_moved", 7, 12)]
    assert rep.felled == 1 and rep.felled_standing == 1



@pytest.mark.parametrize("ruleset", ["dm", "wikinger", "kubbuteo"])
@pytest.mark.parametrize("degrees", [34.0, 89.0, 91.0])
@pytest.mark.parametrize("record", ["trajectory", "world"])
def test_a_kubb_rocked_back_onto_its_spot_is_felled_only_as_its_ruleset_reads_history(ruleset, degrees, record):
    """Knocked during the throw and back onto its spot, standing: felled only past 90° where a kubb
    that stands again counts when it turned over (DM §5 „Überschlag mit anschließendem Stehen“; WS
    and Kubbuteo read it so too). The turn is seen in the throw's recorded trajectory
    or only in the world's record (Kubbuteo seed 30, action 247: the world recorded 16.9° at a
    frame the replay's trajectory skipped)."""
    rep = AuditReport(ruleset)
    aud = _Auditor(rep, 7, get_ruleset(ruleset))
    before = {"B1": _kubb("B1", 4.0, 0.0)}
    turn = math.radians(degrees)
    after = Snapshot(1.0, {"B1": _kubb("B1", 4.0, 0.0, max_tilt=turn if record == "world" else 0.0)})
    felled = Ruling(piece="B1", status=Status.STANDING, consequence=Consequence.COUNTS_AS_FELLED, rules=("DM §5",),
                    reason="history")
    j = ThrowJudgement((felled,), frozenset({"B1"}), frozenset({"B1"}), frozenset(), frozenset())
    aud.throw(13, before, after, ThrowContext(thrower="A"), j, {"B1": turn if record == "trajectory" else 0.0})
    enough = degrees > 90.0
    assert [v.check for v in rep.violations if v.check == "felled_moved"] == ([] if enough else ["felled_moved"])


def test_a_field_kubb_ruled_standing_behind_the_baseline_is_a_violation():
    """DM §2 („5m Breite x 8m Länge“): the field ends at the baseline. A field kubb a throw pushed
    5.5 cm behind B's baseline (x = 4.0) and left there, ruled standing with no consequence, is a
    violation of standing_ok (kubb3d decision: standing outside sets it back inside); a baseline
    kubb there is not, and neither is a field kubb the throw did not move."""
    stands = Ruling(piece="F1", status=Status.STANDING, consequence=Consequence.NONE, rules=("DM §5",), reason="ok")
    j = ThrowJudgement((stands,), frozenset(), frozenset(), frozenset(), frozenset())
    pushed, spot = _kubb("F1", 4.02, 1.2), _kubb("F1", 3.5, 1.2)
    field = ThrowContext(thrower="A", field_kubbs=frozenset({"F1"}))
    cases = [(spot, field, ["standing_ok"]), (spot, ThrowContext(thrower="A"), []), (pushed, field, [])]
    for before, ctx, want in cases:
        rep = AuditReport("dm")
        _Auditor(rep, 0, get_ruleset("dm")).throw(3, {"F1": before}, Snapshot(1.0, {"F1": pushed}), ctx, j)
        assert [v.check for v in rep.violations] == want
        assert all(v.detail == "F1 ruled standing but its base is 5.5 cm behind the baseline" for v in rep.violations)


def test_a_standing_ruling_outside_the_sideline_is_a_violation():
    rep = AuditReport("wikinger")
    aud = _Auditor(rep, 0, get_ruleset("wikinger"))
    k = _kubb("B1", 2.0, -2.56)  # base 9.5 cm across the sideline y = -2.5
    j = ThrowJudgement(
        (
            Ruling(
                piece="B1",
                status=Status.STANDING,
                consequence=Consequence.NONE,
                rules=("WS basic rule 8",),
                reason="stands",
            ),
        ),
        frozenset(),
        frozenset(),
        frozenset(),
        frozenset(),
    )
    aud.throw(3, {"B1": k}, Snapshot(1.0, {"B1": k}), ThrowContext(ruleset="wikinger", thrower="A"), j)
    assert [v.check for v in rep.violations] == ["standing_ok"]
    assert "outside the sideline" in rep.violations[0].detail


def test_citations_must_belong_to_the_ruleset():
    assert cites_ruleset(("DM §5",), "dm") is None
    assert cites_ruleset(("WS basic rule 8", "DM §5"), "wikinger") is None
    assert "only DM §5" in cites_ruleset(("DM §5",), "wikinger")
    assert cites_ruleset((), "dm") == "no citation"
    assert "unknown" in cites_ruleset(("DM §12",), "dm")


def test_cli_rejects_bad_input_in_one_line(cli):
    r = cli("audit", "--matches", "0")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["error: --matches: expected from 1 to 100000, got 0"]
    r = cli("audit", "--ruleset", "chess")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_a_raised_kubb_is_checked_where_the_match_leaves_the_pieces():
    # WS seed 79, action 96: the judge raised A4 against B4 where an inkast had nudged it 8 mm,
    # then the match put B4 back on its spot, 8 mm into A4
    from kubb3d.judge import InkastContext
    from kubb3d.judge.raising import InkastJudgement
    from kubb3d.judge.rulings import Pose

    rep = AuditReport("wikinger")
    aud = _Auditor(rep, 79, get_ruleset("wikinger"))
    spot, nudged = Pose((0.27, 1.5, 0.075)), _kubb("B4", 0.278, 1.5)
    a4 = _kubb("A4", 0.208, 1.5)
    snap = Snapshot(1.0, {"B4": nudged, "A4": a4})
    ctx = InkastContext(ruleset="wikinger", inkasting_side="A", inkasted=("A4",), before={"B4": spot})
    j = InkastJudgement(
        (
            Ruling(
                piece="A4",
                status=Status.FALLEN,
                consequence=Consequence.RAISE_HERE,
                rules=("WS basic rule 10",),
                reason="raised",
                hand_check=False,
                raised_pose=Pose(a4.position),
            ),
        ),
        {"A4": Pose(a4.position)},
    )
    aud.inkast(96, snap, ctx, j, {"B4": _kubb("B4", 0.27, 1.5)}, {"B4": _kubb("B4", 0.27, 1.5), "A4": a4})
    assert [(v.check, v.detail) for v in rep.violations] == [("raised_ok", "A4 raised overlapping B4 by 0.8 cm")]
    # the match left B4 nudged: A4 clears it, but B4 is off the spot the engine keeps
    rep.violations.clear()
    aud.inkast(96, snap, ctx, j, {"B4": nudged}, {"B4": nudged, "A4": a4})
    assert [(v.check, v.detail) for v in rep.violations] == [
        ("conserved", "B4 stood at (0.270, 1.500) before the inkast and 8.0 mm away after it")
    ]


def test_a_match_that_stops_with_an_error_is_a_violation_not_a_gap(monkeypatch, tmp_path):
    # the DM audit once stopped at 171 of 200 matches; a match that raises must be counted and
    # reported with its replay, and the run must go on
    import kubb3d.judge
    from kubb3d.audit import run_audit

    def broken(*_a, **_k):
        raise RuntimeError("judge failed")

    monkeypatch.setattr(kubb3d.judge, "judge_inkast", broken)
    rep = run_audit("dm", 1, first_seed=1, replay_dir=tmp_path)
    assert rep.matches == 1 and rep.checked["completes"] == 1
    (v,) = [v for v in rep.violations if v.check == "completes"]
    assert v.seed == 1 and v.action > 0 and "RuntimeError: judge failed" in v.detail
    assert v.replay and (tmp_path / "dm-seed1.jsonl").exists()
    assert set(rep.wall_s) == {1} and rep.wall_s[1] > 0


def test_a_felled_king_is_checked_at_its_spot():
    # Kubbuteo seed 20: a returned kubb felled the king (the set is over); the kubbs raised beside
    # its spot were compared with the king lying where it fell
    from kubb3d.judge import InkastContext
    from kubb3d.judge.inkast import InkastJudgement
    from kubb3d.judge.rulings import Pose

    rep = AuditReport("dm")
    aud = _Auditor(rep, 20, get_ruleset("dm"))
    on_side = (0.0, 0.7071068, 0.0, 0.7071068)
    lying = PieceState("king", "king", "box", (0.045, 0.045, 0.15), (0.25, 0.0, 0.045), on_side, 1.5, side=None)
    a2 = _kubb("A2", 0.2, 0.0, side="A")
    ctx = InkastContext(ruleset="dm", inkasting_side="A", inkasted=("A2",), before={"king": Pose((0.0, 0.0, 0.15))})
    raised = (
        Ruling(
            piece="A2",
            status=Status.FALLEN,
            consequence=Consequence.RAISE_HERE,
            rules=("DM §7",),
            reason="raised",
            hand_check=False,
            raised_pose=Pose(a2.position),
        ),
    )
    j = InkastJudgement(raised, {"A2": Pose(a2.position)}, winner="B", loser="A")
    after = Snapshot(1.0, {"A2": a2, "king": lying})
    aud.inkast(50, after, ctx, j, {"king": lying}, {"king": lying, "A2": a2})
    assert [v.check for v in rep.violations] == []
    # the same with the king standing where it lies now: a raised kubb touching it is caught
    aud.inkast(51, after, ctx, InkastJudgement(j.rulings, j.raised), {"king": lying}, {"king": lying, "A2": a2})
    assert "raised_ok" in {v.check for v in rep.violations}


def test_the_audit_uses_the_judges_tipping_angle_for_a_low_centre_of_mass():
    # A piece whose centre of mass sits 2 cm below its box centre tips at
    # atan(3.5 / 5.5) = 32.5°; the audit had used |com z| (atan(3.5 / 9.5) = 20.2°), so an
    # upright piece standing at 25° — inside its base — was a "standing_ok" violation.
    from dataclasses import replace

    tilt = math.radians(25.0)
    q = (math.sin(tilt / 2), 0.0, 0.0, math.cos(tilt / 2))
    low = replace(_kubb("B1", 4.0, 0.0, q=q), com_local=(0.0, 0.0, -0.02))
    aud = _Auditor(AuditReport("dm"), 0, get_ruleset("dm"))
    assert aud._standing_problem(low) is None
    high = replace(low, com_local=(0.0, 0.0, 0.02))  # centre of mass above: tips at 20.2°
    assert "tipping angle 20°" in (aud._standing_problem(high) or "")


def test_a_clean_audit_makes_no_folder_and_says_where_replays_go(tmp_path):
    """The tryout: `kubb3d audit` left an empty kubb3d-audit/ folder behind after 0 violations.
    The folder is made for a kept replay only (the default folder, as any --replay-dir)."""

    r = run_kubb3d("audit", "--matches", "1", "--first-seed", "1", timeout=300, cwd=tmp_path,
                   env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 0, r.stderr  # docs/reliability.md: 0 when no violation, 1 with one
    assert list(tmp_path.iterdir()) == []
    last = r.stdout.strip().splitlines()[-1]
    assert last == "0 violations; no replay kept (kubb3d-audit is made only for a match with a violation)"
    assert "on 1 worker," in r.stdout


def test_a_kept_replay_makes_its_folder_one_level_deep(tmp_path, dm1):
    rep, replay = dm1
    assert rep.violations == [] and replay.exists() and sorted(replay.parent.iterdir()) == [replay]
    again = audit_match("dm", 1, replay_dir=tmp_path / "clean")  # nothing kept: no folder
    assert again.violations == [] and not (tmp_path / "clean").exists()
    with pytest.raises(FileSafetyError, match="does not exist"):
        audit_match("dm", 1, replay_dir=tmp_path / "a" / "b")
