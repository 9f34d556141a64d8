"""Fifth referee examination (issue #37): situations written from the rule books' words alone.

Every ``examiner5/*.toml`` quotes, in its leading comment, the clause it rests on (DM translated
into English in the examiner's words) and states the ruling that clause gives. They were written
without reading the judge's or the rules' code. A file kubb3d rules otherwise is listed in
:data:`WRONG` with the kind of wrong ruling and marked ``xfail(strict=True)``, so a fix flips it.

Relations: a mirrored copy (y -> -y), a sides-swapped copy (x -> -x, A <-> B) or a relabelled copy
(piece ids renamed) must be ruled as its original, transformed (:data:`COPIES`); a pair that differs
in one fact the rule book names must be ruled differently in that piece (:data:`FLIPS`).
A file without an ``[outcome]`` winner expects the game to go on: no winner, no loser.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from match_procedure import finish_turn, opened_by, throw
from situation_relations import MIRRORED_BASELINE, assert_rules_alike, assert_rules_as_written, judged, marked, swap_id

HERE = Path(__file__).resolve().parent / "examiner5"
FILES = sorted(HERE.glob("*.toml"))

# Fixed kinds, no longer marked: DM §7 'so aufzustellen, dass möglichst alle mit ihrer gesamten
# Grundfläche im Feld stehen' / WS basic rule 13 'it must be tipped into the field': the inkasted kubbs
# were raised one at a time in throwing order, each the way the raiser preferred, so one could take
# the only in-field spot of a later one (dm5_inkast_raising_keeps_both_inside and copies,
# ws5_inkast_kubb_on_line_*); the raisings of a turn are now chosen together
# (kubb3d.judge.raising:_RaisingPlan.raise_lying_jointly).
WRONG: dict[str, str] = {}
# copies whose relation to their original fails because the original is ruled wrongly
WRONG_RELATIONS: dict[str, str] = {}

"""Baseline kubbs are numbered in +y: mirrored (y -> -y), B1 stands where B5 stood."""

# copy -> (original, how, relabel): how is "mirror" (y -> -y) or "swap" (x -> -x, A <-> B) or
# "relabel" (positions unchanged); relabel maps the original's piece ids to the copy's.
COPIES: dict[str, tuple[str, str, dict[str, str]]] = {
    "dm5_baseline_kubb_leaning_on_baton_field_kubb_stands_swapped": (
        "dm5_baseline_kubb_leaning_on_baton_field_kubb_stands",
        "swap",
        {},
    ),
    "dm5_king_felled_by_field_kubb_mirrored": ("dm5_king_felled_by_field_kubb", "mirror", {}),
    "dm5_king_felled_by_field_kubb_swapped": ("dm5_king_felled_by_field_kubb", "swap", {}),
    "dm5_accident_wind_by_b": ("scenarios/dm_accident_wind", "swap", {}),
    "dm5_foul_fells_field_and_baseline_kubb_swapped": ("dm5_foul_fells_field_and_baseline_kubb", "swap", {}),
    "dm5_inkast_upright_astride_centre_line_swapped": ("dm5_inkast_upright_astride_centre_line", "swap", {}),
    "dm5_inkast_second_attempt_short_penalty_swapped": ("dm5_inkast_second_attempt_short_penalty", "swap", {}),
    "dm5_inkast_stossel_invalid_mirrored": ("scenarios/dm_inkast_stossel_invalid", "mirror", {}),
    "dm5_inkast_stossel_on_second_attempt": ("scenarios/dm_inkast_stossel_valid", "same", {}),
    "dm5_inkast_one_in_one_out_relabelled": ("dm5_inkast_one_in_one_out", "relabel", {"B1": "B2", "B2": "B1"}),
    "dm5_inkast_raising_would_touch_king_swapped": ("../dm_inkast_raising_would_touch_king", "swap", {}),
    "dm5_inkast_leaning_tip_ground_edge_swapped": ("scenarios/dm_inkast_leaning_tip_ground_edge", "swap", {}),
    "dm5_inkast_blocked_inward_stands_partly_out_mirrored": (
        "dm5_inkast_blocked_inward_stands_partly_out",
        "mirror",
        {},
    ),
    "ws5_kubb_knocked_over_by_foot_swapped": ("ws5_kubb_knocked_over_by_foot", "swap", {}),
    "ws5_king_felled_by_field_kubb_mirrored": ("ws5_king_felled_by_field_kubb", "mirror", {}),
    "ws5_helicopter_throw_by_b": ("../ws_helicopter_throw_fells_baseline_kubb", "swap", {}),
    "ws5_inkast_second_attempt_short_placed_swapped": ("ws5_inkast_second_attempt_short_placed", "swap", {}),
    "ws5_inkast_across_baseline_b_by_a": ("../ws_inkast_across_baseline_tipped_in", "swap", {}),
    "ws5_inkast_knocks_baseline_kubb_by_b": ("../ws_inkast_knocks_baseline_kubb", "swap", {}),
    "kt5_king_knocked_by_knocked_kubb_swapped": ("kt5_king_knocked_by_knocked_kubb", "swap", {}),
    "kt5_baseline_knocked_one_of_two_field_kubbs_standing_mirrored": (
        "kt5_baseline_knocked_one_of_two_field_kubbs_standing",
        "mirror",
        MIRRORED_BASELINE,
    ),
    "kt5_return_just_short_mirrored": ("../kt_return_just_short", "mirror", {}),
    "kt5_return_off_board_second_time_by_a": ("../kt_return_off_board_second_time_placed", "swap", {}),
    "kt5_return_past_centre_line_by_a": ("../kt_return_just_past_centre", "swap", {}),
    "dm5_inkast_stossel_on_standing_field_kubbs_swapped": ("dm5_inkast_stossel_on_standing_field_kubbs", "swap", {}),
    "dm5_inkast_along_pitch_by_far_baseline_one_way_prefer_back": (
        "dm5_inkast_along_pitch_by_far_baseline_one_way",
        "same",
        {},
    ),
    "dm5_inkast_leaning_supporter_first_mirrored": ("scenarios/dm_inkast_leaning_supporter_first", "mirror", {}),
    "ws5_inkast_kubb_on_line_behind_a_lying_kubb_reordered": (
        "ws5_inkast_kubb_on_line_behind_a_lying_kubb",
        "same",
        {},
    ),
    "dm5_inkast_raising_keeps_both_inside_mirrored": ("dm5_inkast_raising_keeps_both_inside", "mirror", {}),
    "dm5_inkast_raising_keeps_both_inside_swapped": ("dm5_inkast_raising_keeps_both_inside", "swap", {}),
    "dm5_inkast_raising_keeps_both_inside_reordered": ("dm5_inkast_raising_keeps_both_inside", "same", {}),
    "dm5_inkast_raising_keeps_both_inside_prefer_back": ("dm5_inkast_raising_keeps_both_inside", "same", {}),
    "ws5_inkast_kubb_on_line_tipped_in_beside_another_reordered": (
        "ws5_inkast_kubb_on_line_tipped_in_beside_another",
        "same",
        {},
    ),
    "ws5_inkast_kubb_on_line_tipped_in_beside_another_prefer_back": (
        "ws5_inkast_kubb_on_line_tipped_in_beside_another",
        "same",
        {},
    ),
}

# (a, b, piece): the two files differ in one fact the rule book names, so the piece's consequence
# must differ between them.
FLIPS: list[tuple[str, str, str]] = [
    ("dm5_baseline_kubb_leaning_on_baton_field_kubb_stands", "dm5_baseline_kubb_leaning_on_baton_half_clear", "B2"),
    ("dm5_inkast_upright_astride_centre_line", "dm5_inkast_upright_just_past_centre_line", "B1"),
    ("dm5_inkast_stossel_over_thrower_half", "dm5_inkast_stossel_over_receiver_half", "B3"),
    ("dm5_baseline_kubbs_stand_again_field_kubb_stands", "dm5_baseline_kubbs_stand_again_half_clear", "B2"),
    ("dm5_baseline_kubbs_stand_again_field_kubb_stands", "dm5_baseline_kubbs_stand_again_half_clear", "B4"),
    ("scenarios/dm_inkast_stossel_invalid", "dm5_inkast_stossel_invalid_on_second_attempt", "B3"),
]

ROOT = Path(__file__).resolve().parents[3]


def _path(name: str) -> Path:
    """An examiner5 file, a shipped scenario ("scenarios/NAME") or an earlier situation ("../NAME")."""
    if name.startswith("scenarios/"):
        return ROOT / (name + ".toml")
    return (HERE / (name + ".toml")).resolve()




def test_at_least_40_situations_each_quoting_its_clause():
    assert len(FILES) >= 40
    names = {f.stem for f in FILES}
    assert set(WRONG) <= names and set(WRONG_RELATIONS) <= set(COPIES)
    for copy, (original, _, _) in COPIES.items():
        assert copy in names and _path(original).is_file(), (copy, original)
    for a, b, _ in FLIPS:
        assert _path(a).is_file() and _path(b).is_file(), (a, b)
    for f in FILES:
        head = "".join(line for line in f.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
        assert re.search(r"\b(DM §\d+|WS|KT)\b", head), f.name


@pytest.mark.parametrize("path", [marked(f, WRONG) for f in FILES])
def test_situation_rules_as_the_rule_book_says(judge_app, path):
    assert_rules_as_written(judge_app, path, penalty=False)


# (file, piece, at once): DM §5 sets up kubbs felled by "wind, poor ground, by accident or similar
# mishaps ... at once" ("umgehend"), but a baseline kubb felled while field kubbs stand "only at the
# end of the throwing round" ("erst am Ende der Wurfrunde").
TIMING = [
    ("dm5_accident_wind_by_b", "A2", True),
    ("dm5_king_blown_over_by_wind", "king", True),
    ("dm5_baseline_kubb_leaning_on_baton_field_kubb_stands", "B2", False),
    ("dm5_baseline_kubb_leaning_on_baton_field_kubb_stands_swapped", "A2", False),
]


@pytest.mark.parametrize("name, piece, at_once", TIMING, ids=[t[0] for t in TIMING])
def test_dm_accidents_are_set_up_at_once_early_baseline_kubbs_at_the_end_of_the_round(judge_app, name, piece, at_once):
    doc = judged(judge_app, _path(name))
    assert piece in doc["raise_again"]
    assert (piece in doc["raise_now"]) == at_once


def _relation(copy: str):
    if copy in WRONG_RELATIONS:
        return pytest.param(copy, marks=pytest.mark.xfail(strict=True, reason=WRONG_RELATIONS[copy]), id=copy)
    return pytest.param(copy, id=copy)


@pytest.mark.parametrize("copy", [_relation(c) for c in sorted(COPIES)])
def test_copies_rule_as_their_originals(judge_app, copy):
    original, how, relabel = COPIES[copy]
    a = judged(judge_app, _path(original))
    b = judged(judge_app, _path(copy))
    assert_rules_alike(a, b, how, swap_id if how == "swap" else (lambda p: relabel.get(p, p)))


@pytest.mark.parametrize("a, b, piece", FLIPS, ids=[f"{a}-{b}" for a, b, _ in FLIPS])
def test_one_named_fact_flips_the_ruling(judge_app, a, b, piece):
    ra = {r["piece"]: r for r in judged(judge_app, _path(a))["rulings"]}[piece]
    rb = {r["piece"]: r for r in judged(judge_app, _path(b))["rulings"]}[piece]
    assert ra["consequence"] != rb["consequence"], (ra["consequence"], rb["consequence"])


# ---- match procedure (rules that one scenario file cannot express), through kubb3d.rules ----------

from kubb3d.judge.rulings import Pose  # noqa: E402
from kubb3d.pitch import opponent  # noqa: E402
from kubb3d.rules import (  # noqa: E402
    BatonThrow,
    Choose,
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    PenaltyThrow,
    Phase,
    Raise,
    RemoveTieBreakKubb,
    Termination,
    ThrowOutcome,
    get_ruleset,
)


def play_on(state: MatchState, lag_winner: str, turns: int) -> list[tuple[str, object]]:
    """Push ``turns`` more turns in which nothing is felled: every inkast lands valid in the middle
    of the receiving half, the second lag (DM §9) is won by ``lag_winner``. Returns (the side
    whose turn it was, action) for every action pushed."""
    log: list[tuple[str, object]] = []
    while turns > 0 and state.legal_actions():
        action = state.legal_actions()[0]
        log.append((state.turn_side, action))
        if isinstance(action, LagThrow):
            state.push(action, LagResult(0.1 if action.side == lag_winner else 0.3))
        elif isinstance(action, Inkast):
            x = 1.0 if action.side == "A" else -1.0
            state.push(action, InkastOutcome(valid={k: Pose((x, 0.3 * i, 0.075)) for i, k in enumerate(action.kubbs)}))
        elif isinstance(action, (BatonThrow, KingThrow)):
            turn = (state.set_no, state.turn_no)
            state.push(action, ThrowOutcome())
            turns -= (state.set_no, state.turn_no) != turn
        else:
            state.push(action)
    return log


@pytest.mark.parametrize("opener", ["A", "B"])
def test_dm_tiebreak_the_turn_in_progress_is_finished_before_the_second_lag(opener):
    # DM §9 step 1: "The player whose turn it is finishes his throwing round (a new throwing round
    # begins with the first inkasted kubb and ends with the throw of the last baton)"; step 2: then a
    # second king throw (a lag, like the one at the start) decides the advantage. The time runs out
    # during the opener's first baton (1 s limit); both of its two batons (DM §4) are still thrown.
    state = opened_by("dm", opener, time_limit_s=1.0)
    throw(state)
    assert state.phase == Phase.THROW and state.turn_side == opener and state.batons_left == 1
    throw(state)
    assert state.phase == Phase.LAG


@pytest.mark.parametrize("lag_winner", ["A", "B"])
def test_dm_tiebreak_kubbs_are_taken_from_the_advantage_players_opponent_first(lag_winner):
    # DM §9 step 3: "The player with the advantage removes, after the raising of his inkasted kubbs,
    # a tie-break kubb from the opponent's half ... If several kubbs still stand on the baseline,
    # the player opposite decides which baseline kubb is removed." A opens; time runs out in A's
    # first turn; B's turn follows (B fells nothing, so nothing to inkast). Whoever wins the second
    # lag, the first tie-break kubb comes out of the other player's half, in the advantage player's
    # own turn, and it is a baseline kubb (they stand on the baseline: nearest to it).
    state = opened_by("dm", "A", time_limit_s=1.0)
    throw(state, {"B1"})
    finish_turn(state)
    log = play_on(state, lag_winner, turns=3)
    removals = [(turn, action) for turn, action in log if isinstance(action, RemoveTieBreakKubb)]
    assert removals, "no tie-break kubb was removed"
    turn, first = removals[0]
    assert turn == lag_winner and first.half == opponent(lag_winner)
    assert first.kubb[0] == opponent(lag_winner) and first.kubb[1:] in "12345"
    before = [a for _, a in log[: log.index((turn, first))]]
    if lag_winner == "B":  # B inkasts B1 and A raises it before B's removal: "after the raising"
        assert any(isinstance(a, Raise) for a in before)


@pytest.mark.parametrize("lag_winner", ["A", "B"])
def test_dm_tiebreak_kubb_leaves_the_game_and_one_goes_after_every_later_raising(lag_winner):
    # DM §9 step 3: "This kubb is removed from the game completely and not inkasted again"; step 4:
    # "After this round a tie-break kubb is taken out of the game after every raising." Over the six
    # turns after the second lag, each turn takes out exactly one kubb, alternately from each half,
    # and a removed kubb is neither standing nor waiting to be inkasted.
    state = opened_by("dm", "A", time_limit_s=1.0)
    finish_turn(state)
    log = play_on(state, lag_winner, turns=6)
    removed = [a for _, a in log if isinstance(a, RemoveTieBreakKubb)]
    assert len(removed) >= 5
    halves = [a.half for a in removed]
    assert all(h1 != h2 for h1, h2 in zip(halves, halves[1:])), halves
    for half in "AB":
        gone = {a.kubb for a in removed if a.half == half}
        standing = {k.id for k in state.standing_in(half)}
        assert not gone & standing and not gone & set(state.felled_in(half))
        assert state.baseline_standing(half) == 5 - len(gone)


@pytest.mark.parametrize("inkaster", ["A", "B"])
def test_dm_every_kubb_invalid_after_the_second_round_is_a_penalty_kubb(inkaster):
    # DM §6: "All kubbs lying invalid after this second round become penalty kubbs, which the
    # opposing player now throws from the same baseline into his half of the field." Two kubbs
    # invalid twice: the opponent throws each of them first, from the inkaster's baseline; when
    # both land valid the opponent raises them (DM §7: "Then the opponent raises the kubbs").
    other = opponent(inkaster)
    state = opened_by("dm", other)
    throw(state, {f"{inkaster}1", f"{inkaster}2"})
    finish_turn(state)
    kubbs = (f"{inkaster}1", f"{inkaster}2")
    state.push(Inkast(inkaster, kubbs, 1), InkastOutcome(invalid=frozenset(kubbs)))
    state.push(Inkast(inkaster, kubbs, 2), InkastOutcome(invalid=frozenset(kubbs)))
    x = -1.0 if inkaster == "B" else 1.0
    for i, kubb in enumerate(kubbs):
        assert state.legal_actions() == [PenaltyThrow(other, kubb, 1, inkaster)]
        state.push(PenaltyThrow(other, kubb, 1, inkaster), InkastOutcome(valid={kubb: Pose((x, 0.5 * i, 0.075))}))
    assert state.legal_actions() == [Raise(other, kubbs)]


def test_dm_penalty_kubb_alternation_goes_on_until_it_lands_valid():
    # DM §6: "If he fails, the original inkaster gets another try. This alternation goes on until
    # the kubb lands validly in the field." Six misses: the throwers alternate A, B, A, B, A, B.
    state = opened_by("dm", "A")
    throw(state, {"B3"})
    finish_turn(state)
    state.push(Inkast("B", ("B3",), 1), InkastOutcome(invalid=frozenset({"B3"})))
    state.push(Inkast("B", ("B3",), 2), InkastOutcome(invalid=frozenset({"B3"})))
    throwers = []
    for number in range(1, 7):
        (action,) = state.legal_actions()
        assert isinstance(action, PenaltyThrow) and action.number == number and action.from_side == "B"
        throwers.append(action.side)
        state.push(action, InkastOutcome(invalid=frozenset({"B3"})))
    assert throwers == ["A", "B"] * 3


@pytest.mark.parametrize("side", ["A", "B"])
def test_ws_two_points_for_a_king_win_and_for_an_early_king(side):
    # WS End of the Game: an early king: "The game ends immediately; the opposing team wins and
    # receives two points"; a king thrown from the baseline after all kubbs: "It receives two points
    # for this."
    state = opened_by("wikinger", side)
    state.push(state.legal_actions()[0], ThrowOutcome(winner=opponent(side), loser=side))
    out = state.outcome()
    assert out.termination == Termination.EARLY_KING
    assert out.points == {state.player_at(opponent(side)): 2, state.player_at(side): 0}
    state = opened_by("wikinger", side)
    finish_turn(state)
    finish_turn(state)
    throw(state, {f"{opponent(side)}{n}" for n in range(1, 6)})
    assert isinstance(state.legal_actions()[0], KingThrow)
    state.push(state.legal_actions()[0], ThrowOutcome(winner=side, loser=opponent(side)))
    out = state.outcome()
    assert out.termination == Termination.KING
    assert out.points == {state.player_at(side): 2, state.player_at(opponent(side)): 0}


def test_ws_games_last_20_minutes_and_dm_kt_games_have_no_clock():
    # WS basic rule 1: "A game (except the final) is limited to 20 minutes." DM §9 leaves the time
    # to the organiser ("Nach Ablauf einer vom Veranstalter vorgegebenen Zeit"); KT names none.
    assert get_ruleset("wikinger").time_limit_s == 20 * 60
    assert get_ruleset("dm").time_limit_s is None and get_ruleset("kubbuteo").time_limit_s is None


def _group(*games):
    from kubb3d.tournament import GameResult

    return [GameResult(*g) for g in games]


@pytest.mark.parametrize("names", [("T1", "T2", "T3", "T4"), ("T4", "T3", "T2", "T1")])
def test_ws_three_teams_level_on_points_throw_a_stechen_even_if_head_to_head_would_order_them(names):
    # WS Tie-Break After the Group Stage: "If teams are level on points after the group stage, the
    # head-to-head result of the two teams decides. If this comparison also ends in a draw, or if 3
    # teams are level on points after the group stage, a playoff (Stechen) is thrown." a, b, c end
    # on 2 points each (a beat b); three level: no head-to-head, one tier for the Stechen. Relabelled
    # (names reversed) the same tiers.
    from kubb3d.tournament import group_ranking

    a, b, c, d = names
    tiers = group_ranking(_group((a, b, 2, 0), (b, c, 2, 0), (a, c, 0, 0), (c, d, 2, 0), (a, d, 0, 0), (b, d, 0, 0)))
    assert [set(t) for t in tiers] == [{a, b, c}, {d}]


@pytest.mark.parametrize("names", [("T1", "T2", "T3"), ("T3", "T1", "T2")])
def test_ws_two_teams_level_head_to_head_decides_and_a_drawn_one_goes_to_stechen(names):
    # WS Tie-Break After the Group Stage: "the head-to-head result of the two teams decides. If this
    # comparison also ends in a draw ... a playoff (Stechen) is thrown". a and c end on 2 points;
    # c won their game (1 point on time): c first. Then a and b level with a drawn game: one tier.
    from kubb3d.tournament import group_ranking

    a, b, c = names
    assert group_ranking(_group((a, b, 1, 0), (a, c, 0, 1), (b, c, 0, 2))) == [(c,), (a,), (b,)]
    tiers = group_ranking(_group((a, b, 0, 0), (a, c, 2, 0), (b, c, 2, 0)))
    assert [set(t) for t in tiers] == [{a, b}, {c}]


@pytest.mark.parametrize("felled", [(2, 3), (3, 2), (2, 2)])
def test_ws_stechen_most_pawns_felled_advances(felled):
    # WS Tie-Break After the Group Stage: "Each team provides 2 players who, within one minute, throw
    # from the baseline at the 6 pawns on the opposite side. The team that knocks over the most
    # pawns advances to the next round." Level teams: no one advances yet.
    from kubb3d.rules.wikinger import Stechen

    stechen = Stechen(["T1", "T2"])
    left = dict(zip(("T1", "T2"), felled))
    while stechen.legal_actions():
        action = stechen.legal_actions()[0]
        hit = 1 if left[action.team] > 0 else 0
        left[action.team] -= hit
        stechen.push(action, hit)
    winner, top = stechen.result()
    if felled[0] == felled[1]:
        assert winner is None and set(top) == {"T1", "T2"}
    else:
        assert winner == ("T1" if felled[0] > felled[1] else "T2")


@pytest.mark.parametrize("pick", ["tiebreak", "choices"])
def test_dm_tiebreak_decider_set_third_lag_and_first_kubb_after_the_first_six_baton_round(pick):
    # DM §9, a new set in the tie-break: "1) If both players have the same number of wins after the
    # first tie-break set, a further deciding set is played. 2) The players decide in a third king
    # throw (like the lag at the start) who wins the advantage ... 3) The player with the advantage
    # may choose either the tie-break advantage (the first tie-break kubb is taken out on the
    # opponent's side of the field) or the choice of side + the choice of who begins; the other
    # player gets what is left. 4) The first tie-break kubb is taken out of the game after the
    # first throwing round with 6 batons." Best of 3: the first set is won with the king; the time
    # runs out in the second, which side A's player wins in its tie-break: 1:1.
    state = opened_by("dm", "A", sets=3, time_limit_s=80)
    throw(state, {f"B{n}" for n in range(1, 6)})
    state.push(state.legal_actions()[0], ThrowOutcome(winner="A", loser="B"))
    lag_winner = advantage = None
    first_removal = None
    completed: list[int] = []  # batons of each finished throwing round of the deciding set
    batons = 0
    for _ in range(200):
        actions = state.legal_actions()
        if not actions:
            break
        action = actions[0]
        if isinstance(action, LagThrow):
            state.push(action, LagResult(0.1 if action.side == "B" else 0.3))
        elif isinstance(action, Choose) and action.what == "advantage":
            assert {a.value for a in actions} == {"tiebreak", "choices"}
            lag_winner = action.player
            other = next(p for p in ("L", "R") if p != lag_winner)
            advantage = lag_winner if pick == "tiebreak" else other
            state.push(next(a for a in actions if a.value == pick))
            # "the other player gets what is left"
            assert {(a.player, a.what) for a in state.legal_actions()} == {
                (other if pick == "tiebreak" else lag_winner, "end")
            }
        elif isinstance(action, RemoveTieBreakKubb) and state.set_no == 3:
            first_removal = action
            if state.batons_left == 0:  # taken out at the end of the round just thrown
                completed.append(batons)
            break
        elif isinstance(action, (BatonThrow, KingThrow)):
            turn = (state.set_no, state.turn_no)
            if action.baton == "baton1":
                batons = state.batons_left
            clear = state.set_no == 2 and action.side == "A" and state.turn_no > 1
            if isinstance(action, KingThrow):
                state.push(action, ThrowOutcome(winner=action.side, loser=opponent(action.side)))
            else:
                felled = frozenset(k.id for k in state.standing_in("B")) if clear else frozenset()
                state.push(action, ThrowOutcome(felled=felled))
            if turn[0] == 3 and (state.set_no, state.turn_no) != turn:
                completed.append(batons)
        else:
            state.push(action)
    assert lag_winner is not None, "no third lag after 1:1 in the tie-break"
    assert first_removal is not None, "no tie-break kubb came out in the deciding set"
    assert completed and completed[-1] == 6 and completed.count(6) == 1, completed
    assert state.player_at(first_removal.half) != advantage  # the advantage player's opponent's side


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
@pytest.mark.parametrize("off", ["A", "B"])
def test_lag_baton_off_the_pitch_loses_to_one_that_lands(ruleset, off):
    # DM §3: the duellists try to make their batons land "as close as possible to the king ... The
    # nearer one wins the lag"; WS Sequence of Play: "The player who is closer gains the right to
    # throw." A baton that left the pitch (distance None) is farther than any that landed 2 m off.
    state = MatchState(get_ruleset(ruleset), ("L", "R"))
    state.push(LagThrow("A"), LagResult(None if off == "A" else 2.0))
    state.push(LagThrow("B"), LagResult(None if off == "B" else 2.0))
    winner = state.player_at(opponent(off))
    if state.phase == Phase.CHOOSE:
        assert state.choice_queue[0][0] == winner
    else:
        assert state.player_at(state.turn_side) == winner


def test_ws_the_helicopter_limit_decides_whether_an_80_degree_turn_is_a_horizontal_rotation():
    # WS basic rule 5: "The throwing sticks are held at the end and thrown straight from below (no
    # "helicopter throw", i.e. no horizontal rotation)." WS gives no angle; the referee option
    # helicopter_limit does, 90° by default (the VM rules of 2019: more than a quarter turn before the
    # baton hits anything). 0.5 rev/s of flat spin turns the baton about 80° about the vertical before
    # it reaches B3: legal at 90°, a helicopter at 45° (set as on the command line, --option), and the
    # ruling flips just where the limit passes the measured turn.
    import math
    from dataclasses import replace

    from kubb3d.judge.options import default, options_for, parse_options
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.physics.world import World
    from kubb3d.pitch import Pitch
    from kubb3d.throw import ThrowParams, aim, check_legality
    from kubb3d.throw import throw as throw_baton

    def helicopter(result) -> bool:  # under another limit than the default, cited as the option
        return bool({"WS basic rule 5", "option helicopter_limit=45"} & {v.rule for v in result.violations})

    assert default("helicopter_limit", "wikinger") == 90.0
    with World.standard("standard", Pitch(7.5, 5.0)) as world:
        params = aim(world, "B3", ThrowParams(helicopter_rps=0.5)).params
        usual = throw_baton(world, params, ruleset="wikinger")
    with World.standard("standard", Pitch(7.5, 5.0)) as world:
        options = options_for(parse_options(["helicopter_limit=45"]), "throw")
        strict = throw_baton(world, params, ruleset="wikinger", **options)
    turn = math.degrees(usual.metrics.helicopter)
    assert 60 < turn < 90 and math.degrees(strict.metrics.helicopter) == pytest.approx(turn, abs=1e-9)
    assert not helicopter(usual) and usual.legal
    assert helicopter(strict) and not strict.legal
    rules = get_rulebook("wikinger").throw_rules
    for limit, expected in ((turn - 1e-6, True), (turn + 1e-6, False)):
        broken = check_legality(
            usual.metrics, usual.release, replace(rules, helicopter_limit_deg=limit), Pitch(7.5, 5.0), None, None
        )
        assert ("WS basic rule 5" in [v.rule for v in broken]) is expected, (limit, turn)
    with World.standard("standard", Pitch(7.5, 5.0)) as world, pytest.raises(ValueError, match="helicopter_limit"):
        throw_baton(world, params, ruleset="wikinger", helicopter_limit=400.0)


def test_ws_a_straight_baton_is_no_helicopter():
    # WS basic rule 5 (the other side of the one above): "thrown straight from below" without flat
    # spin is legal and turns the baton by no measurable angle about the vertical.
    from kubb3d.physics.world import World
    from kubb3d.pitch import Pitch
    from kubb3d.throw import ThrowParams, aim
    from kubb3d.throw import throw as throw_baton

    with World.standard("standard", Pitch(7.5, 5.0)) as world:
        result = throw_baton(world, aim(world, "B3", ThrowParams()).params, ruleset="wikinger")
    assert result.legal and abs(result.metrics.helicopter) < 1e-6


def test_kt_returns_come_from_the_original_baseline_while_batons_use_the_advance_line():
    # KT: "If either player leaves Field Kubbs standing, the kubb closest to the King now represents
    # that player's baseline ... This rule applies when flicking at Field and Baseline Kubbs only;
    # fallen kubbs are returned from the original baseline." A simulated Kubbuteo match (seed 1):
    # every return is flicked from the baseline (x = -/+0.5207 m); batons also from advance lines.
    import kubb3d
    from kubb3d.pitch import Pitch

    board = Pitch(1.2192, 0.6096, 0.0889)
    match = kubb3d.Match(kubb3d.MatchConfig(ruleset="kubbuteo", seed=1))
    returns: set[tuple[str, float]] = set()
    batons: set[tuple[str, float]] = set()
    try:
        while match.pending() is not None:
            result = match.step()
            for flick in result.throws:
                line = (result.action.side, round(flick["params"]["line_x"], 4))
                if isinstance(result.action, Inkast):
                    returns.add(line)
                elif isinstance(result.action, BatonThrow):
                    batons.add(line)
    finally:
        match.close()
    baseline = {side: round(board.baseline_x(side), 4) for side in "AB"}
    assert returns and all(x == baseline[side] for side, x in returns), returns
    assert any(x != baseline[side] for side, x in batons), "no advance line in this match"


# ---- Roll Kubb Dames (rule book RKD), through kubb3d.dames ------------------------------------


def _rank(cell: int) -> int:
    return cell // 8 + 1


@pytest.mark.parametrize("players, per_player", [(2, 6), (4, 4)])
def test_rkd_set_up_six_kubbs_each_on_the_central_cells_showing_1(players, per_player):
    # RKD Nombre de joueurs: "2 players: 6 kubbs per player. VARIANT: 4 players / 4 kubbs per player";
    # RKD Règle du jeu: "each player puts his kubbs on the board, showing 1, on the first line of his
    # camp: on the central cells of his first line."
    from kubb3d.dames import DamesBoard, DamesRules, cell_name

    board = DamesBoard(rules=DamesRules(players=players))
    by_seat: dict[str, list[str]] = {}
    for cell, kubb in board.kubbs().items():
        assert kubb.top == 1
        by_seat.setdefault(kubb.seat, []).append(cell_name(cell))
    assert len(by_seat) == players and all(len(cells) == per_player for cells in by_seat.values())
    assert sorted(by_seat["S"]) == [f"{f}1" for f in ("bcdefg" if players == 2 else "cdef")]
    assert sorted(by_seat["N"]) == [f"{f}8" for f in ("bcdefg" if players == 2 else "cdef")]


@pytest.mark.parametrize("seed", [1, 2])
def test_rkd_ti_kubb_sets_2_3_1_and_every_roll_is_that_long_orthogonal_without_going_back(seed):
    # RKD Règle du jeu: "The value of the small black kubb (the ti-kubb) starts at 2 with the first
    # player, then 3 for the next player, then 1 for the next, then 2 ... and so on." RKD Déroulement
    # du jeu: the player "moves, by rolling in any direction except diagonally, one of his kubbs by the
    # value of the ti-kubb; he may not go back on his steps during a move. Only one kubb is moved."
    import numpy as np

    from kubb3d.dames import DamesBoard

    rng = np.random.default_rng(seed)
    board = DamesBoard()
    values = []
    while not board.is_game_over() and len(values) < 30:
        values.append(board.ti_value)
        for roll in board.legal_rolls():
            assert len(roll.path) == board.ti_value and set(roll.path) <= set("NESW")
            cells, cell = [roll.start], roll.start
            for step in roll.path:
                cell += {"N": 8, "S": -8, "E": 1, "W": -1}[step]
                cells.append(cell)
            assert cells[-1] == roll.end and len(set(cells)) == len(cells), roll  # never back on its steps
        moves = list(board.legal_moves())
        board.push(moves[int(rng.integers(len(moves)))])
    assert values == [(2, 3, 1)[i % 3] for i in range(len(values))]


def test_rkd_every_roll_advances_a_line_unless_it_attacks():
    # RKD Déroulement du jeu: "It must progress/advance by at least one line at every move, except when
    # it attacks an opponent's kubb." From the start position every roll of S goes up a rank, every
    # roll of N down one.
    from kubb3d.dames import DamesBoard

    board = DamesBoard()
    for seat, sign in (("S", 1), ("N", -1)):
        assert board.roller == seat
        rolls = board.legal_rolls()
        assert rolls and all((_rank(r.end) - _rank(r.start)) * sign >= 1 for r in rolls)
        board.push(next(iter(board.legal_moves())))


@pytest.mark.parametrize("path, attacked", [("NN", None), ("EE", "g3"), ("WW", "a3")])
def test_rkd_two_rolls_the_same_way_turn_the_die_upside_down(path, attacked):
    # RKD Matériel: "each kubb has the values 1 to 6 like a die" (opposite faces add up to 7); rolled
    # over two edges the same way, the face that was on top ends at the bottom: 1 -> 6. Mirrored (east
    # and west) the same; those rolls advance no line, so they end next to an opponent's kubb (an
    # attack, RKD Déroulement du jeu "except when it attacks an opponent's kubb").
    from kubb3d.dames import DamesBoard, parse_cell

    kubbs = {"d3": "S124", "a8": "N153"}
    if attacked:
        kubbs[attacked] = "N153"
    board = DamesBoard.from_kubbs(kubbs, ti_value=2)
    rolls = [r for r in board.legal_rolls() if r.start == parse_cell("d3") and r.path == path]
    assert len(rolls) == 1 and rolls[0].die.top == 6


@pytest.mark.parametrize(
    "mover, other, removed", [("S124", "N315", ["N"]), ("S654", "N315", ["S"]), ("S124", "N642", ["N", "S"])]
)
def test_rkd_combat_higher_takes_lower_equal_both_out(mover, other, removed):
    # RKD Combat: "If the kubb of a player who has just moved stands next to an opponent's kubb, there
    # is combat: the kubb with the higher value wins and 'takes' the kubb (compulsory capture) with the
    # lower value: it is taken out of the game. If both values are equal, both kubbs are taken out."
    # S's kubb rolls d3 -> d5 (north twice: its top turns over, 1 -> 6 or 6 -> 1) next to N's kubb on d6.
    from kubb3d.dames import DamesBoard, Move, parse_cell

    # d3 is S's only kubb: when it is taken, S has no kubb left in play and cannot play, so by RKD But
    # du jeu the game is over and the roll has no ti-kubb placement.
    ends = "S" in removed
    board = DamesBoard.from_kubbs({"d3": mover, "d6": other, "a8": "N153"}, ti_value=2)
    board.push(Move(parse_cell("d3"), "NN", None if ends else parse_cell("h1")))
    assert sorted(kubb.seat for _, kubb in board.last_removed) == sorted(removed)
    assert (board.outcome() is not None) == ends


def test_rkd_a_kubb_on_its_last_line_is_frozen_and_cannot_be_fought():
    # RKD Combat: "The kubbs on the last line of each camp stay 'frozen' and can no longer be moved,
    # nor fight, nor be fought." N's kubb on d1 (N's last line) shows 1; S's kubb rolls c1 -> c2 -> d2
    # next to it showing a higher value: no combat. N's frozen kubb has no roll.
    from kubb3d.dames import DamesBoard, Move, parse_cell

    board = DamesBoard.from_kubbs({"c1": "S124", "d1": "N153", "a8": "N153"}, ti_value=2)
    assert board.is_frozen(parse_cell("d1"))
    board.push(Move(parse_cell("c1"), "NE", parse_cell("h5")))
    assert board.last_removed == () and board.kubb_at(parse_cell("d1")) is not None
    assert all(r.start != parse_cell("d1") for r in board.legal_rolls())


def test_rkd_game_ends_with_all_kubbs_on_the_last_line_and_most_points_wins():
    # RKD But du jeu: "When a player has all his kubbs (those still in play) on the last line of his
    # camp, or cannot play (blocked), the game is over. The winner is the one with the most points
    # from the kubbs on the last line of his camp." S's last kubb rolls d7 -> d8; N has one kubb on
    # its last line (rank 1) showing 2 and one in play.
    from kubb3d.dames import DamesBoard, Move

    board = DamesBoard.from_kubbs({"d7": "S124", "a1": "N214", "h5": "N153"}, ti_value=1)
    roll = next(r for r in board.legal_rolls() if r.path == "N")
    board.push(Move(roll.start, "N", None))
    out = board.outcome()
    assert out is not None and out.player == "S"
    assert out.points == {"S": roll.die.top, "N": 2}
    assert out.winner == ("S" if roll.die.top > 2 else "N" if roll.die.top < 2 else None)


@pytest.mark.parametrize("opener", ["A", "B"])
def test_ws_each_player_throws_one_baton_of_the_six(opener):
    # WS basic rule 2: "The team whose turn it is receives the 6 throwing sticks and throws them all
    # one after another"; basic rule 4: "Each player receives one throwing stick. Throws are made in
    # any order." Two turns of a six-player team: six batons each, six different throwers each.
    state = opened_by("wikinger", opener)
    for _ in range(2):
        side, turn = state.turn_side, (state.set_no, state.turn_no)
        throwers, batons = [], []
        while (state.set_no, state.turn_no) == turn:
            action = state.legal_actions()[0]
            assert isinstance(action, BatonThrow) and action.side == side
            throwers.append(action.thrower)
            batons.append(action.baton)
            state.push(action, ThrowOutcome())
        assert len(batons) == 6 and len(set(batons)) == 6 and len(set(throwers)) == 6
