"""Rule variants as referee options (issue #33 item 1): the opening batons, a field kubb valid
with its whole base or half of it inside, the tilt limit; each applied and at its boundary, and
the defaults playing the same match as before (docs/rules.md "Rule variants")."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from kubb3d.judge import Consequence, InkastContext, judge_inkast
from kubb3d.judge.options import BY_NAME, baton_schedule, option, parse_option
from kubb3d.judge.tipping import share_inside
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.pitch import PITCHES
from kubb3d.rules import BatonThrow, MatchState, Phase, get_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))
from helpers import HX, HZ, kubb, snap  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rules_helpers import MISS, start  # noqa: E402


# ------------------------------------------------------------------ opening batons
def _batons_per_turn(ruleset, turns: int) -> list[int]:
    """Batons each turn had in a scripted set where every baton misses (no inkasts between)."""
    state = MatchState(ruleset, ("P1", "P2"))
    start(state)
    out = []
    for _ in range(turns):
        turn, thrown = state.turn_no, 0
        while state.turn_no == turn:
            action = state.legal_actions()[0]
            assert isinstance(action, BatonThrow) and state.phase == Phase.THROW
            state.push(action, MISS)
            thrown += 1
        out.append(thrown)
    return out


@pytest.mark.parametrize(
    "ruleset, opening, expected",
    [
        ("dm", None, [2, 4, 6, 6, 6]),  # DM §4
        ("wikinger", None, [6, 6, 6, 6, 6]),  # WS basic rule 2
        ("kubbuteo", None, [6, 6, 6, 6, 6]),  # KT rules
        ("dm", "6-6-6", [6, 6, 6, 6, 6]),
        ("dm", "4-6-6", [4, 6, 6, 6, 6]),
        ("dm", "3-6-6", [3, 6, 6, 6, 6]),
        ("wikinger", "2-4-6", [2, 4, 6, 6, 6]),
        ("dm", "1-2-3-4", [1, 2, 3, 4, 4]),  # any list; the last number holds on
        ("dm", "5", [5, 5, 5, 5, 5]),
    ],
)
def test_each_turn_of_a_set_has_the_batons_of_the_opening(ruleset, opening, expected):
    rs = get_ruleset(ruleset) if opening is None else get_ruleset(ruleset, opening=opening)
    assert _batons_per_turn(rs, 5) == expected
    assert rs.batons_for_turn(100) == expected[-1]
    with pytest.raises(ValueError, match="^turn numbers start at 1, got 0$"):
        rs.batons_for_turn(0)


def test_the_default_opening_is_the_rule_books():
    assert [option(None, "opening", r) for r in ("dm", "wikinger", "kubbuteo")] == ["2-4-6", "6-6-6", "6-6-6"]
    assert [get_ruleset(r).opening for r in ("dm", "wikinger", "kubbuteo")] == ["2-4-6", "6-6-6", "6-6-6"]
    assert set(BY_NAME["opening"].variants) == {"2-4-6", "6-6-6", "4-6-6", "3-6-6"}
    assert "community variant" in BY_NAME["opening"].variants["4-6-6"]


@pytest.mark.parametrize(
    "given, value",
    [
        ("2-4-6", "2-4-6"),
        ("2,4,6", "2-4-6"),
        (" 4 6 6 ", "4-6-6"),
        ([3, 6], "3-6"),
        ("6", "6"),
        (6, "6"),
        ("1-1-1-1-1-1-1-1-1-1-1-6", "1-1-1-1-1-1-1-1-1-1-1-6"),
    ],
)
def test_an_opening_is_read_from_words_and_lists(given, value):
    assert baton_schedule(given) == value


@pytest.mark.parametrize(
    "given",
    ["0-6", "7", "2-7-6", "2-x", "", "2.5-6", "1-1-1-1-1-1-1-1-1-1-1-1-6", [True, 6], [2.0, 6], None, 6.0, True],
)
def test_a_bad_opening_is_refused_in_one_line(given):
    with pytest.raises(ValueError, match="^--option opening: expected 1 to 12 whole numbers of batons from 1 to 6"):
        baton_schedule(given)
    if isinstance(given, str):
        with pytest.raises(ValueError, match="opening"):
            parse_option(f"opening={given}")
    with pytest.raises(ValueError):
        get_ruleset("dm", opening=given)


# ------------------------------------------------------------------ field kubb: whole or half
def test_share_inside_is_the_overlap_of_a_square_and_the_half():
    """Against the formula of a square of side 2·HX straddling the sideline y = -2.5: the share
    inside is the length of its side beyond the line over 2·HX."""
    pitch = PITCHES["dm"]
    for share in (0.0, 0.1, 0.37, 0.5, 0.9, 1.0):
        top = -pitch.half_width + share * 2 * HX
        square = [(-2 - HX, top - 2 * HX), (-2 + HX, top - 2 * HX), (-2 + HX, top), (-2 - HX, top)]
        assert share_inside(square, pitch, "A", 0.0) == pytest.approx(share, abs=1e-12)
        assert share_inside(square, pitch, "B", 0.0) == 0.0  # the other half
    corner = [
        (-pitch.length / 2 - HX, -2.5 - HX),
        (-pitch.length / 2 + HX, -2.5 - HX),
        (-pitch.length / 2 + HX, -2.5 + HX),
        (-pitch.length / 2 - HX, -2.5 + HX),
    ]
    assert share_inside(corner, pitch, "A", 0.0) == pytest.approx(0.25, abs=1e-12)


@pytest.mark.parametrize("side", ["A", "B"])
def test_share_inside_widens_each_line_of_the_half_by_the_tolerance(side):
    """JudgeParams.line_tol: "a raised kubb's base may cross a line by at most this much". A square
    of side 2·HX centred on each of the half's four lines (baseline, centre line, both sidelines)
    has half of itself inside; with the lines widened by 1 cm it has (HX + 1 cm) / (2·HX), the
    same for every line and either half."""
    pitch, tol = PITCHES["dm"], 0.01
    lo, hi = (-pitch.length / 2, 0.0) if side == "A" else (0.0, pitch.length / 2)
    mid_x = (lo + hi) / 2
    for cx, cy in ((lo, 0.5), (hi, 0.5), (mid_x, pitch.half_width), (mid_x, -pitch.half_width)):
        square = [(cx - HX, cy - HX), (cx + HX, cy - HX), (cx + HX, cy + HX), (cx - HX, cy + HX)]
        assert share_inside(square, pitch, side, 0.0) == pytest.approx(0.5, abs=1e-12), (cx, cy)
        assert share_inside(square, pitch, side, tol) == pytest.approx((HX + tol) / (2 * HX), abs=1e-12), (cx, cy)


def _lying_beyond_the_sideline(share: float):
    """A kubb lying along y outside the right sideline (-y) of half A, whose raised base over its
    +y end (the one towards the field) would have ``share`` of its area inside."""
    top = -2.5 + share * 2 * HX
    return kubb("B1", -2.0, top - 2 * HX - HZ, lying_yaw_deg=90, side="A")


@pytest.mark.parametrize(
    "share, whole, half",
    [(0.6, False, True), (0.51, False, True), (0.49, False, False), (0.3, False, False), (1.0, True, True)],
)
def test_a_field_kubb_half_inside_is_valid_only_under_the_half_rule(share, whole, half):
    sn = snap(_lying_beyond_the_sideline(share))
    for value, valid in (("whole", whole), ("half", half)):
        ctx = InkastContext(inkasting_side="B", inkasted=("B1",), options={"field_kubb_inside": value})
        r = judge_inkast(sn, ctx).ruling("B1")
        assert r.valid is valid, (share, value, r.reason)
        assert r.consequence is (Consequence.RAISE_HERE if valid else Consequence.RETHROW)
        if valid:
            base_top = r.raised_pose.position[1] + HX
            assert base_top == pytest.approx(-2.5 + share * 2 * HX, abs=1e-9)  # raised where it lies
            if share < 1:
                assert f"{share:.0%} of its base is inside the field" in r.reason
    default = judge_inkast(sn, InkastContext(inkasting_side="B", inkasted=("B1",))).ruling("B1")
    assert default.valid is whole  # DM §7: the whole base


def test_a_field_kubb_exactly_half_inside_is_valid_under_the_half_rule(monkeypatch):
    """docs/rules.md, option field_kubb_inside: `half` is "with at least half of its base's area
    inside". A base's share is a ratio of float areas that rarely lands on 0.5 exactly, so the
    share is set: exactly one half is valid, a float step less is not."""
    import kubb3d.judge.raising as raising

    sn = snap(_lying_beyond_the_sideline(0.6))
    ctx = InkastContext(inkasting_side="B", inkasted=("B1",), options={"field_kubb_inside": "half"})
    ruled = []
    for share in (0.5, math.nextafter(0.5, 0.0)):
        monkeypatch.setattr(raising, "share_inside", lambda *args, share=share: share)
        ruled.append(judge_inkast(sn, ctx).ruling("B1").valid)
    assert ruled == [True, False]


def test_field_kubb_option_reaches_the_judge_from_a_word():
    assert parse_option("field_kubb_inside=half") == ("field_kubb_inside", "half")
    with pytest.raises(ValueError, match="expected one of whole, half"):
        parse_option("field_kubb_inside=most")


# ------------------------------------------------------------------ tilt limit
@pytest.mark.parametrize("limit", [30.0, 45.0])
def test_the_tilt_limit_is_a_foul_just_above_it_only(limit):
    """DM §5 (30°), the US and VM rule books before 2024/2026 (45°): a tilt at the limit is
    allowed, a hundredth of a degree more is a foul cited from the rule book."""
    from kubb3d.throw import FlightMetrics, Release, check_legality

    rules = replace(get_rulebook("dm").throw_rules, max_tilt_deg=option({"max_tilt_deg": limit}, "max_tilt_deg", "dm"))
    release = Release((0.0, 0.0, 1.0), (8.0, 0.0, 3.0), (0.0, 10.0, 0.0), (0.0, 0.0, 0.0, 1.0))

    def fouls(tilt_deg: float) -> list[str]:
        metrics = FlightMetrics(math.radians(tilt_deg), 0.0, None)
        return [v.rule for v in check_legality(metrics, release, rules, PITCHES["dm"], None, None)]

    assert fouls(limit) == [] and fouls(limit - 5) == []
    assert fouls(limit + 0.01) == ["DM §5"]
    assert (fouls(40.0) == []) is (limit == 45.0)  # 40°: a foul under 30°, allowed under 45°


# ------------------------------------------------------------------ defaults change nothing
@pytest.mark.parametrize(
    "ruleset, defaults",
    [
        ("dm", {"opening": "2-4-6", "field_kubb_inside": "whole"}),
        ("wikinger", {"opening": "6-6-6", "field_kubb_inside": "whole"}),
    ],
)
def test_a_match_with_the_defaults_named_is_the_match_without_them(tmp_path, ruleset, defaults):
    """Naming every new option at its default changes the replay in its header only: the
    default variants are the rules that were played before they were options."""
    from kubb3d.match import Match, MatchConfig

    lines = {}
    for name, options in (("plain", {}), ("named", defaults)):
        path = tmp_path / f"{name}.jsonl"
        Match(MatchConfig(ruleset=ruleset, seed=2, round_cap=4, options=options), replay=path).run()
        lines[name] = path.read_text(encoding="utf-8").splitlines()
    assert lines["plain"][1:] == lines["named"][1:] and len(lines["plain"]) > 10
    plain, named = (json.loads(lines[k][0])["config"] for k in ("plain", "named"))
    assert "options" not in plain and named.pop("options") == defaults and named == plain


def test_a_match_plays_the_opening_it_is_given(tmp_path):
    from kubb3d.match import Match, MatchConfig

    m = Match(MatchConfig(ruleset="dm", seed=3, round_cap=3, options={"opening": "4-6-6"}))
    try:
        while m.state.outcome() is None and m.state.turn_no < 2:
            m.step()
        first = [a for a, _ in m.state.history if isinstance(a, BatonThrow)]
    finally:
        m.close()
    assert m.ruleset.opening == "4-6-6" and len(first) == 4


# ------------------------------------------------------------------ time up: tie-break or count
def _first_turn_missed(ruleset, time_limit_s: float = 1.0) -> MatchState:
    """A state whose first turn (every baton a miss) ran past a time limit of 1 s."""
    state = MatchState(ruleset, ("P1", "P2"), time_limit_s=time_limit_s)
    start(state)
    while state.turn_no == 1 and state.outcome() is None and state.phase == Phase.THROW:
        state.push(state.legal_actions()[0], MISS)
    return state


@pytest.mark.parametrize(
    "ruleset, time_up, tie_break",
    [
        ("dm", None, True),  # DM §9: the tie-break
        ("dm", "tie-break kubbs", True),
        ("dm", "count baseline kubbs", False),
        ("wikinger", None, False),  # WS End of the Game: the count
        ("wikinger", "tie-break kubbs", True),
    ],
)
def test_time_up_starts_the_tie_break_or_counts(ruleset, time_up, tie_break):
    rs = get_ruleset(ruleset) if time_up is None else get_ruleset(ruleset, time_up=time_up)
    state = _first_turn_missed(rs)
    assert state.time_expired
    if tie_break:
        assert state.outcome() is None and state.phase == Phase.LAG and state.lag_purpose == "tiebreak"
    else:
        out = state.outcome()
        assert out is not None and out.termination.name == "TIME" and out.winner is None  # 5:5 standing
        assert "time is up with 5:5 baseline kubbs standing" in out.reason


def test_counting_at_time_up_takes_sets_first_then_baseline_kubbs():
    from kubb3d.judge.rulings import Pose
    from kubb3d.rules.core import KubbInfo

    dm = get_ruleset("dm", time_up="count baseline kubbs")
    state = MatchState(dm, ("P1", "P2"))
    start(state)
    for side, standing in (("A", 2), ("B", 4)):
        for i, (kid, (x, y)) in enumerate(sorted(dm.pitch.baseline_kubb_positions(side).items())):
            state.kubbs[kid] = KubbInfo(kid, side, True, i < standing, Pose((x, y, 0.06)))
    at_a = state.player_at("A")
    at_b = state.player_at("B")
    out = dm.time_up_result(state)
    standing = {at_a: 2, at_b: 4}
    assert out.winner == at_b and out.points == {"P1": 0, "P2": 0}
    counted = f"time is up with {standing['P1']}:{standing['P2']} baseline kubbs standing"
    assert f"{counted} (option time_up=count_baseline_kubbs)" in out.reason  # the option, not DM §9's tie-break
    state.set_wins[at_a] = 1  # a set ahead beats more baseline kubbs standing
    out = dm.time_up_result(state)
    assert out.winner == at_a and f"{at_a} leads in sets" in out.reason and out.points == dict(state.set_wins)
    assert get_ruleset("dm").time_up_result(state) is None


# ------------------------------------------------------------------ set from a spec and the command line
def test_an_experiment_spec_and_the_command_line_take_the_variants(tmp_path):
    from typer.testing import CliRunner

    from kubb3d.cli import _register_subapps, app
    from kubb3d.experiment.spec import SpecError, load_spec

    base = 'schema = 1\ntitle = "t"\nseed = 1\ntrials_per_point = 1\nmeasures = ["felled"]\n[throw]\ntarget = "B3"\n'
    good = tmp_path / "good.toml"
    good.write_text(
        base + '[options]\nopening = [4, 6, 6]\nfield_kubb_inside = "half"\ntime_up = "count baseline kubbs"\n'
    )
    assert load_spec(good).spec.options == {
        "opening": "4-6-6",
        "field_kubb_inside": "half",
        "time_up": "count baseline kubbs",
    }
    bad = tmp_path / "bad.toml"
    bad.write_text(base + "[options]\nopening = [2, 4, 7]\n")
    with pytest.raises(SpecError, match="opening"):
        load_spec(bad)
    _register_subapps()
    out = tmp_path / "m.jsonl"
    res = CliRunner().invoke(app, ["match", "--round-cap", "3", "--option", "opening=3,6", "--replay", str(out), "-q"])
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["config"]["options"] == {"opening": "3-6"}
    first_turn = [r for r in records if r["type"] == "action" and r["action"]["type"] == "BatonThrow"][:4]
    assert [r["action"]["baton"] for r in first_turn][:3] == ["baton1", "baton2", "baton3"]
    assert first_turn[3]["action"]["baton"] == "baton1"  # the reply's first baton: the opener threw 3
    rules = CliRunner().invoke(app, ["rules", "show", "dm", "--json"])
    shown = {o["option"]: o for o in json.loads(rules.output)["options"]}
    assert shown["opening"]["default"] == "2-4-6" and shown["time_up"]["default"] == "tie-break kubbs"
    assert {v["value"] for v in shown["field_kubb_inside"]["variants"]} == {"whole", "half"}


def test_a_kubb_partly_out_stays_until_a_throw_moves_it():
    """A field kubb raised partly across the sideline (valid under ``half``; under ``whole`` when
    other kubbs blocked its raising, DM §7: "so darf er an diese herangeklappt werden und dann
    ggf. im Aus stehen") is not set inside by a throw that left it where it stood; one the throw
    pushed is (``standing_outside``). Found by the 2026-12-06 examination: under ``whole`` the
    judge set every standing kubb across the line inside, moved or not."""
    from kubb3d.judge import Pose, ThrowContext, judge_throw

    across = kubb("B1", 2.0, -2.5)  # standing, half of its base beyond y = -2.5
    spot = Pose(tuple(across.position), tuple(across.quat_xyzw))
    pushed_from = Pose((2.0, -2.45, across.position[2]), tuple(across.quat_xyzw))
    cases = [
        ("half", spot, Consequence.NONE),
        ("half", pushed_from, Consequence.SET_INSIDE),
        ("whole", spot, Consequence.NONE),
        ("whole", pushed_from, Consequence.SET_INSIDE),
    ]
    for value, round_start, expected in cases:
        ctx = ThrowContext(thrower="A", round_start={"B1": round_start}, options={"field_kubb_inside": value})
        assert judge_throw(snap(across), ctx).ruling("B1").consequence is expected, (value, round_start)
