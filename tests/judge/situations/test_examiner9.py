"""Ninth referee examination: Kubbuteo clause by clause and Wikinger-Schach match procedure, written
from the rule books' words alone.

Every ``examiner9/*.toml`` quotes, in its leading comment, the clause it rests on and states the
ruling it gives; they were written without reading the judge's or the rules' code, the earlier
situations' expected rulings or docs/rules.md. The page docs/examinations/2026-12-06-late.md lists
them with kubb3d's rulings.

What a judge scenario cannot hold (set-up geometry, turns of six batons, the misflick count, the
advance point, the king attempt's line, the clock, points and the lag) is checked through the
public match engine :class:`kubb3d.rules.MatchState` with the outcomes a judge would give
(:mod:`match_procedure`). Relations: mirrored, sides-swapped and relabelled copies must be ruled as
their originals; pairs that differ in one fact the rule book names must differ in that ruling. A
judge file kubb3d rules otherwise is listed in :data:`WRONG` and marked ``xfail(strict=True)``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from match_procedure import finish_turn, opened_by, throw
from situation_relations import assert_rules_alike, assert_rules_as_written, judged, marked, renamer

from kubb3d.rules import (
    BatonThrow,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    Phase,
    PlaceKubb,
    Raise,
    ThrowOutcome,
    get_ruleset,
)
from kubb3d.rules.core import Pose

HERE = Path(__file__).resolve().parent / "examiner9"
FILES = sorted(HERE.glob("*.toml"))

# file -> "<rule book words>: kubb3d rules X" for files kubb3d rules otherwise than the rule book
WRONG: dict[str, str] = {}

RELABELLED = {"F1": "F7", "F2": "F8"}
_SUFFIX = {"by_b": "swap", "by_a": "swap", "mirrored": "mirror", "relabelled": "relabel"}
# copy -> (original, how)
COPIES: dict[str, tuple[str, str]] = {
    f.stem: (f.stem[: -len(suffix) - 1], how)
    for f in FILES
    for suffix, how in _SUFFIX.items()
    if f.stem.endswith("_" + suffix) and (HERE / (f.stem[: -len(suffix) - 1] + ".toml")).is_file()
}

# (a, b, piece): the two files differ in one fact the rule book names; the piece's consequence differs.
FLIPS: list[tuple[str, str, str]] = [
    # KT "knock over upright wooden disks": on its face (counts) or pushed but upright (none)
    ("kt9_baseline_kubb_on_its_face_counts", "kt9_baseline_kubb_slid_upright_stands", "B2"),
    # tipped past the rim's balance (falls, counts) or rocked within it (stands)
    ("kt9_kubb_tilted_past_balance_counts", "kt9_kubb_rocked_back_upright_stands", "B3"),
    # KT "while there are still Field Kubbs upright": F1 upright (stood up again) or down (counts)
    ("kt9_baseline_knocked_field_kubb_upright_stood_again", "kt9_baseline_knocked_after_field_kubb_down_counts", "B2"),
    # KT king: toppled early (lost) or nudged upright (game goes on)
    ("kt9_king_knocked_early_loses", "kt9_king_slid_upright_game_goes_on", "king"),
    # KT king: rocked 12° and back (game goes on) or tipped 25° over (lost)
    ("kt9_king_rocked_back_game_goes_on", "kt9_king_tipped_over_loses", "king"),
    # KT "knock over": off the board (counts) or spun on its rim, upright (none)
    ("kt9_baseline_kubb_knocked_off_the_board_counts", "kt9_kubb_turned_on_its_rim_stands", "B2"),
    # KT "all kubbs in the other player's half": all down (won) or a field kubb upright (lost)
    ("kt9_king_from_baseline_after_clearing_wins", "kt9_king_from_baseline_field_kubb_upright_loses", "king"),
    # KT "from the baseline": a king attempt after clearing (won) or a flick at the last kubb (lost)
    ("kt9_king_from_baseline_after_clearing_wins", "kt9_king_and_last_field_kubb_one_flick_loses", "king"),
    # KT return: rests in the opponent's half (raise here) or short (reflick)
    ("kt9_return_rests_in_half_stood_there", "kt9_return_short_in_own_half_reflick", "B1"),
    # KT "1 misflick is allowed": the first short return (reflick) or the second (placed)
    ("kt9_return_short_in_own_half_reflick", "kt9_return_short_again_placed", "B1"),
    # KT the reflick: rests in the half (raise here) or short again (placed)
    ("kt9_reflick_rests_in_half_valid", "kt9_return_short_again_placed", "B1"),
    # KT "reach the opponent's half": just over the centre (valid) or just short of it (reflick)
    ("kt9_return_just_over_centre_valid", "kt9_return_just_short_of_centre_reflick", "B1"),
    # KT "gone off the board": centre 1 cm inside the end (raise here) or 2.4 mm past it (reflick)
    ("kt9_return_overhanging_end_valid", "kt9_return_tipped_off_the_end_reflick", "B1"),
    # WS: knocked over by a baton (counts) or by a foot (set up again, "does not count")
    ("ws9_kubb_knocked_by_baton_counts", "ws9_kubb_knocked_by_foot_set_up_again", "B2"),
    # WS basic rule 11: outside once (repeated) or twice (placed)
    ("ws9_inkast_outside_once_repeated", "ws9_inkast_outside_twice_placed", "A1"),
]


def _path(name: str) -> Path:
    return HERE / (name + ".toml")


def _head(f: Path) -> str:
    return "".join(line for line in f.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))


def test_the_round_has_at_least_40_situations_each_quoting_its_clause():
    originals = [f for f in FILES if f.stem not in COPIES]
    assert len(originals) + len(ENGINE_CHECKS) >= 40 and len(COPIES) >= 20
    assert set(WRONG) <= {f.stem for f in FILES}
    for a, b, _ in FLIPS:
        assert _path(a).is_file() and _path(b).is_file(), (a, b)
    for f in FILES:
        head = _head(f)
        assert re.search(r"\b(WS|KT)\b", head) and '"' in head and "Expected" in head, f.name


def test_the_examination_page_counts_match_the_files():
    """The counts table of docs/examinations/2026-12-06-late.md is these files' and checks' count."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "examinations" / "2026-12-06-late.md").read_text(
        encoding="utf-8"
    )
    count = lambda label: int(re.search(r"\| " + re.escape(label) + r" \| (\d+)", page).group(1))  # noqa: E731
    originals = [f.stem for f in FILES if f.stem not in COPIES]
    kt, ws = sum(n.startswith("kt9") for n in originals), sum(n.startswith("ws9") for n in originals)
    assert count("judge situations (originals)") == len(originals) and f"({kt} KT, {ws} WS)" in page
    assert count("copies (mirror, swap, relabel)") == len(COPIES)
    assert count("one-fact flip pairs") == len(FLIPS)
    assert count("match-engine situations") == len(ENGINE_CHECKS)
    assert count("situations in all") == len(originals) + len(ENGINE_CHECKS)
    assert count("kubb3d rules otherwise (strict xfail)") == len(WRONG)
    assert count("kubb3d rules as the rule book says") == len(originals) + len(ENGINE_CHECKS) - len(WRONG)


@pytest.mark.parametrize("path", [marked(f, WRONG) for f in FILES])
def test_situation_rules_as_the_rule_book_says(judge_app, path):
    assert_rules_as_written(judge_app, path)


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_copies_rule_as_their_originals(judge_app, copy):
    original, how = COPIES[copy]
    a, b = judged(judge_app, _path(original)), judged(judge_app, _path(copy))
    rename = renamer(how, RELABELLED)
    assert_rules_alike(a, b, how, rename)


@pytest.mark.parametrize("a, b, piece", FLIPS, ids=[f"{b}-{piece}" for _, b, piece in FLIPS])
def test_one_named_fact_flips_the_ruling(judge_app, a, b, piece):
    ra = {r["piece"]: r for r in judged(judge_app, _path(a))["rulings"]}[piece]
    rb = {r["piece"]: r for r in judged(judge_app, _path(b))["rulings"]}[piece]
    assert ra["consequence"] != rb["consequence"], (ra["consequence"], rb["consequence"])


def test_ws_throw_back_touching_nothing_sets_nothing_up_again(judge_app):
    """WS basic rule 14 the other way: nothing knocked or moved, no field kubb ruled back."""
    doc = judged(judge_app, _path("ws9_inkast_touches_nothing_field_kubb_stays"))
    assert all(r["piece"] != "F1" for r in doc["rulings"]), doc["rulings"]


def test_ws_kubb_on_the_sideline_is_stood_up_inside(judge_app):
    """WS basic rule 13: "it must be tipped into the field. The kubb may no longer be standing on the
    line": A1 is stood up with its whole 7 cm base inside the 2.5 m half width."""
    doc = judged(judge_app, _path("ws9_inkast_on_sideline_tipped_in"))
    (a1,) = [r for r in doc["rulings"] if r["piece"] == "A1"]
    x, y, _ = a1["raised_pose"]["position_m"]
    assert 0 < x < 3.75 and y + 0.035 < 2.5, (x, y)


# ---- the match engine: what a scenario file cannot hold ------------------------------------------

KT_Z = 0.0155  # a Kubbuteo disk's centre height standing on its rim, m
INCH = 0.0254


def _kt_field_kubbs_in_a(placed: dict[str, tuple[float, float]]) -> MatchState:
    """KT: A knocks the ``placed`` B kubbs, B returns them to ``placed`` in A's half, A stands them
    up, and B's six flicks knock nothing: it is A's turn with those field kubbs upright."""
    s = opened_by("kubbuteo", "A")
    throw(s, set(placed))
    finish_turn(s)
    kubbs = tuple(sorted(placed))
    s.push(Inkast("B", kubbs), InkastOutcome(valid={k: Pose((*xy, KT_Z)) for k, xy in placed.items()}))
    s.push(Raise("A", kubbs))
    finish_turn(s)
    assert s.turn_side == "A"
    return s


def _returns_misflicked(ruleset: str, felled: set[str], invalid: set[str]) -> MatchState:
    """A knocks ``felled``; B returns them, the ``invalid`` ones misflicked, the rest at rest in A's half."""
    s = opened_by(ruleset, "A")
    throw(s, felled)
    finish_turn(s)
    z = KT_Z if ruleset == "kubbuteo" else 0.075
    x = -0.3 if ruleset == "kubbuteo" else -1.5
    valid = {k: Pose((x, 0.05 * i, z)) for i, k in enumerate(sorted(felled - invalid))}
    s.push(Inkast("B", tuple(sorted(felled))), InkastOutcome(valid=valid, invalid=frozenset(invalid)))
    return s


def kt_setup_board_and_equidistant_baseline_kubbs():
    """KT Equipment: "The board is 4 foot by 2 foot", "Baselines are marked 3.5 inches from each of the
    narrow ends"; KT Setup: "5 kubbs are placed equidistant on each baseline"."""
    rs = get_ruleset("kubbuteo")
    assert rs.pitch.length == pytest.approx(48 * INCH) and rs.pitch.width == pytest.approx(24 * INCH)
    assert rs.pitch.baseline_inset == pytest.approx(3.5 * INCH)
    kubbs = opened_by("kubbuteo", "A").to_dict()["kubbs"]
    for side, x in (("A", -(24 - 3.5) * INCH), ("B", (24 - 3.5) * INCH)):
        ys = [kubbs[f"{side}{n}"]["position_m"][1] for n in range(1, 6)]
        assert all(kubbs[f"{side}{n}"]["position_m"][0] == pytest.approx(x) for n in range(1, 6))
        gaps = [ys[0] + 12 * INCH] + [b - a for a, b in zip(ys, ys[1:])] + [12 * INCH - ys[-1]]
        assert max(gaps) - min(gaps) < 1e-6, gaps  # equal steps, sideline to sideline


def kt_six_batons_every_turn():
    """KT Rules 1: "Player A flicks the six batons"; "Player B flicks the batons ... After Player B's
    six flicks": six in every turn, the first included (no 2-4-6 opening)."""
    s = opened_by("kubbuteo", "A")
    assert s.to_dict()["batons_left"] == 6
    finish_turn(s)
    assert s.turn_side == "B" and s.to_dict()["batons_left"] == 6


def kt_first_misflick_is_reflicked_by_the_returning_player():
    """KT Rules 2: "1 misflick ... is allowed and the kubb is returned to Player B for reflicking"."""
    s = _returns_misflicked("kubbuteo", {"B1", "B2"}, {"B1"})
    assert s.phase == Phase.INKAST and s.legal_actions() == [Inkast("B", ("B1",), attempt=2)]


def kt_second_misflick_is_placed_by_the_receiving_player():
    """KT Rules 2: "Subsequent misflicked kubbs will be placed by Player A anywhere in their own half"."""
    s = _returns_misflicked("kubbuteo", {"B1"}, {"B1"})
    s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    (place,) = s.legal_actions()
    assert isinstance(place, PlaceKubb) and (place.side, place.kubb, place.half) == ("A", "B1", "A")


def kt_misflick_count_is_one_per_return_not_one_per_kubb():
    """KT Rules 2: "1 misflick ... is allowed ... Subsequent misflicked kubbs will be placed": with B1
    and B2 both misflicked, B1 (the first) is reflicked and B2 (a subsequent one) is placed."""
    s = _returns_misflicked("kubbuteo", {"B1", "B2", "B3"}, {"B1", "B2"})
    assert s.legal_actions() == [Inkast("B", ("B1",), attempt=2)]
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-0.3, 0.1, KT_Z))}))
    (place,) = s.legal_actions()
    assert isinstance(place, PlaceKubb) and (place.side, place.kubb) == ("A", "B2")


def kt_placed_kubb_at_least_2_in_from_the_king_in_own_half():
    """KT Rules 2: "placed by Player A anywhere in their own half, but at least 2 inches from the King"
    (centre to centre, kubb3d's default reading): 2.05 in allowed, 1.95 in refused, B's half refused."""
    s = _returns_misflicked("kubbuteo", {"B1"}, {"B1"})
    s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    place = s.legal_actions()[0]
    at = lambda x, y: s.placement_error(dataclasses.replace(place, position=(x, y)))  # noqa: E731
    assert at(-2.05 * INCH, 0.0) is None and at(-0.3, 0.2) is None
    assert at(-1.95 * INCH, 0.0) is not None and at(0.0, -1.95 * INCH) is not None
    assert at(0.3, 0.0) is not None  # the returning player's half


def kt_placed_kubb_is_a_field_kubb():
    """KT Rules 2 and 3: a misflicked kubb "placed by Player A ... in their own half" stands there like
    the returned ones, so B "must first knock down any standing Field Kubbs": it is a field kubb."""
    s = _returns_misflicked("kubbuteo", {"B1"}, {"B1"})
    s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    s.push(dataclasses.replace(s.legal_actions()[0], position=(-0.1, 0.1)))
    while s.phase != Phase.THROW:
        s.push(s.legal_actions()[0])
    assert s.turn_side == "B" and s.field_kubbs("A") == frozenset({"B1"})


def kt_no_time_limit():
    """KT Rules: "Play continues in this fashion until a player has knocked down all kubbs": the KT text
    sets no clock."""
    assert get_ruleset("kubbuteo").time_limit_s is None
    assert MatchState(get_ruleset("kubbuteo"), ("L", "R")).time_limit_s is None


def kt_advance_to_the_field_kubb_closest_to_the_king():
    """KT Rules: "If either player leaves Field Kubbs standing, the kubb closest to the King now
    represents that player's baseline": F at 0.30 m from the king (x = -0.10, by a long side) and G
    at 0.15 m (x = -0.15, on the long axis): A flicks from G's line, not from the one nearer the centre."""
    s = _kt_field_kubbs_in_a({"B1": (-0.10, 0.28), "B2": (-0.15, 0.0)})
    assert s.throwing_line("A") == pytest.approx(-0.15, abs=0.005)
    assert s.legal_actions()[0].line_x == pytest.approx(-0.15, abs=0.005)


def kt_advance_point_goes_when_the_field_kubbs_are_down():
    """KT Rules: the advance holds "If either player leaves Field Kubbs standing"; with the only one
    knocked down by B, A flicks from the baseline again."""
    s = opened_by("kubbuteo", "A")
    throw(s, {"B1"})
    finish_turn(s)
    s.push(Inkast("B", ("B1",)), InkastOutcome(valid={"B1": Pose((-0.2, 0.0, KT_Z))}))
    s.push(Raise("A", ("B1",)))
    throw(s, {"B1"})  # B knocks its field kubb; A's half has none left upright
    finish_turn(s)
    s.push(Inkast("A", ("B1",)), InkastOutcome(valid={"B1": Pose((0.2, 0.0, KT_Z))}))
    s.push(Raise("B", ("B1",)))
    assert s.turn_side == "A" and s.throwing_line("A") == pytest.approx(-(24 - 3.5) * INCH)


def kt_king_attempt_from_the_baseline_not_the_advance_point():
    """KT Rules: "attempts to knock over the King also happen from the baseline", even while A flicks
    at kubbs from an advance point."""
    s = _kt_field_kubbs_in_a({"B1": (-0.2, 0.0)})
    assert s.throwing_line("A") == pytest.approx(-0.2, abs=0.005)
    assert not any(isinstance(a, KingThrow) for a in s.legal_actions())  # B2..B5 stand
    throw(s, {"B2", "B3", "B4", "B5"})
    (king,) = s.legal_actions()
    assert isinstance(king, KingThrow) and king.line_x == pytest.approx(-(24 - 3.5) * INCH)


def kt_king_toppled_early_loses_at_once():
    """KT Rules: "if at any time during the game the King is knocked down by a poorly flicked baton, the
    offending player immediately loses the game": no further flick."""
    s = opened_by("kubbuteo", "A")
    s.push(s.legal_actions()[0], ThrowOutcome(winner="B", loser="A"))
    assert s.is_over() and s.legal_actions() == [] and s.outcome().winner == s.player_at("B")


def kt_king_toppled_from_the_baseline_wins():
    """KT Rules: "If a player successfully topples the King, they have won the game"."""
    s = opened_by("kubbuteo", "A")
    throw(s, {"B1", "B2", "B3", "B4", "B5"})
    s.push(s.legal_actions()[0], ThrowOutcome(winner="A", loser="B"))
    assert s.outcome().winner == s.player_at("A")


def ws_twenty_minute_game():
    """WS basic rule 1: "A game (except the final) is limited to 20 minutes"."""
    assert get_ruleset("wikinger").time_limit_s == 1200
    assert MatchState(get_ruleset("wikinger"), ("L", "R")).to_dict()["outcome"] is None


def ws_begun_turn_played_to_its_end():
    """WS: "When the regular playing time has run out, the turn that has begun is played to its end"
    (20 s limit here): batons 4 to 6 are still thrown after the clock passed it."""
    s = opened_by("wikinger", "A", time_limit_s=20)
    throw(s, {"B1"})
    for _ in range(4):
        throw(s)
    assert s.clock > 20 and not s.is_over() and isinstance(s.legal_actions()[0], BatonThrow)
    throw(s)
    assert s.is_over()


def ws_turn_not_begun_is_not_played():
    """WS: "the turn that has begun is played to its end" – only that one: with a 40 s limit A's turn
    ends at 36 s and the change of ends passes 40 s, so B's turn does not begin (5:5, a draw)."""
    s = opened_by("wikinger", "A", time_limit_s=40)
    finish_turn(s)
    assert s.is_over() and s.outcome().winner is None


def ws_opponents_turn_begun_before_the_limit_played_to_its_end():
    """WS: "the turn that has begun is played to its end": with a 60 s limit B's turn begins at 51 s and
    B throws all six batons, the last at about 100 s."""
    s = opened_by("wikinger", "A", time_limit_s=60)
    finish_turn(s)
    assert not s.is_over() and s.turn_side == "B"
    thrown = 0
    while not s.is_over():
        throw(s)
        thrown += 1
    assert thrown == 6 and s.clock > 90


def ws_time_up_more_baseline_kubbs_wins_one_point():
    """WS End of the Game: "the team with the larger number of kubbs on its baseline wins and receives
    one point" (5 against 4)."""
    s = opened_by("wikinger", "A", time_limit_s=20)
    throw(s, {"B1"})
    finish_turn(s)
    out = s.outcome()
    assert out.winner == s.player_at("A") and out.points == {s.player_at("A"): 1, s.player_at("B"): 0}


def ws_time_up_equal_baseline_kubbs_draw():
    """WS End of the Game: "an equal number of kubbs, the game ends in a draw. No team receives a point"."""
    s = opened_by("wikinger", "A", time_limit_s=20)
    finish_turn(s)
    out = s.outcome()
    assert out.winner is None and set(out.points.values()) == {0}


def ws_king_after_clearing_in_overtime_two_points():
    """WS End of the Game: "knocks over all kubbs ... and afterwards the king (thrown from its own
    baseline). It receives two points" – in a turn begun before the time ran out and finished after."""
    s = opened_by("wikinger", "A", time_limit_s=20)
    throw(s, {"B1", "B2", "B3", "B4", "B5"})
    for _ in range(3):
        throw(s)
    assert s.clock > 20
    s.push(s.legal_actions()[0], ThrowOutcome(winner="A", loser="B"))
    assert s.outcome().points == {s.player_at("A"): 2, s.player_at("B"): 0}


def ws_king_early_two_points_to_the_other_team():
    """WS End of the Game: "A team loses if it knocks over the king before ... The game ends
    immediately; the opposing team wins and receives two points"."""
    s = opened_by("wikinger", "A")
    s.push(s.legal_actions()[0], ThrowOutcome(winner="B", loser="A"))
    out = s.outcome()
    assert s.legal_actions() == [] and out.points == {s.player_at("A"): 0, s.player_at("B"): 2}


def ws_foot_fault_throw_not_repeated_kubbs_set_up_again():
    """WS basic rule 7: "the throw is invalid and may not be repeated. Pawns that have fallen over are
    set up again": the baton is spent and B2 stands again."""
    s = opened_by("wikinger", "A")
    s.push(s.legal_actions()[0], ThrowOutcome(legal=False, raise_again=frozenset({"B2"})))
    state = s.to_dict()
    assert state["batons_left"] == 5 and s.legal_actions()[0].baton == "baton2"
    assert state["kubbs"]["B2"]["standing"] and s.baseline_standing("B") == 5


def ws_lag_closer_team_starts():
    """WS Sequence of Play: "The player who is closer gains the right to throw"."""
    s = MatchState(get_ruleset("wikinger"), ("L", "R"))
    s.push(LagThrow("A"), LagResult(0.5))
    s.push(LagThrow("B"), LagResult(0.2))
    assert s.turn_side == "B"


def ws_lag_king_hit_other_team_starts():
    """WS Sequence of Play: "If the king is hit, the other team automatically gains the right to
    throw": A's baton touched the king and lay closer; B starts."""
    s = MatchState(get_ruleset("wikinger"), ("L", "R"))
    s.push(LagThrow("A"), LagResult(0.05, king_hit=True))
    s.push(LagThrow("B"), LagResult(0.6))
    assert s.turn_side == "B" and s.phase == Phase.THROW


def ws_one_stick_per_player():
    """WS basic rule 4: "Each player receives one throwing stick": six different throwers in a turn."""
    s = opened_by("wikinger", "A")
    throwers = []
    for _ in range(6):
        throwers.append(s.legal_actions()[0].thrower)
        throw(s)
    assert sorted(throwers) == list(range(6))


def ws_repeat_after_all_kubbs_thrown_and_set_up_after_all():
    """WS basic rule 11: "the throw must be repeated once, after all kubbs have been thrown"; rule 12:
    "Kubbs may only be set up after all knocked-over kubbs have been thrown"."""
    s = _returns_misflicked("wikinger", {"B1", "B2"}, {"B1"})
    assert s.legal_actions() == [Inkast("B", ("B1",), attempt=2)]  # no Raise yet
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1.0, 1.0, 0.075))}))
    (raise_,) = s.legal_actions()
    assert isinstance(raise_, Raise) and raise_.side == "A" and set(raise_.kubbs) == {"B1", "B2"}


def ws_twice_outside_placed_one_stick_from_the_king():
    """WS basic rule 11: "the opposing team may place the kubb freely in its own field. The kubb need
    only stand one throwing-stick length from the king" (0.30 m, centre to centre by default)."""
    s = _returns_misflicked("wikinger", {"B1"}, {"B1"})
    s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    place = s.legal_actions()[0]
    assert isinstance(place, PlaceKubb) and (place.side, place.half) == ("A", "A")
    at = lambda x, y: s.placement_error(dataclasses.replace(place, position=(x, y)))  # noqa: E731
    assert at(-0.31, 0.0) is None and at(-3.0, -2.0) is None
    assert at(-0.29, 0.0) is not None and at(1.0, 0.0) is not None


def ws_king_only_after_the_field_is_empty_and_from_the_baseline():
    """WS: "If no kubbs are left standing in the opponent's field, the king must be thrown at from the
    baseline"; basic rule 6 lets A throw at kubbs from the front line (A's field kubb at x = -1.0)."""
    s = opened_by("wikinger", "A")
    throw(s, {"B1", "B2"})
    finish_turn(s)
    s.push(
        Inkast("B", ("B1", "B2")),
        InkastOutcome(valid={"B1": Pose((-1.0, 0.5, 0.075)), "B2": Pose((-2.0, -0.5, 0.075))}),
    )
    s.push(s.legal_actions()[0])
    finish_turn(s)
    assert -1.05 < s.throwing_line("A") <= -1.0  # "to the height of that kubb", the frontmost
    assert all(isinstance(a, BatonThrow) for a in s.legal_actions())
    throw(s, {"B3", "B4", "B5"})
    (king,) = s.legal_actions()
    assert isinstance(king, KingThrow) and king.line_x == pytest.approx(-3.75)


ENGINE_CHECKS = {name: f for name, f in dict(globals()).items() if name.startswith(("kt_", "ws_")) and callable(f)}


@pytest.mark.parametrize("name", sorted(ENGINE_CHECKS))
def test_match_engine_follows_the_rule_book(name):
    ENGINE_CHECKS[name]()
