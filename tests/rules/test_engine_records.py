"""The rules engine's records at the cases no fast test reached (issue #37 item 5: the mutants
these tests kill survived the fast tests; docs/mutation.md): a tied lag's line, penalty kubbs
one after another, two stößel in one inkast, the time-up leader from either side, an unknown
action in a replay, the state as data, a ruleset registered again, the king throws a turn
allows and the result of a set the king ended."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from rules_helpers import finish_turn, start, throw

from kubb3d.equipment import get_set
from kubb3d.errors import OutcomeError, UnknownNameError
from kubb3d.judge.rulings import Pose
from kubb3d.rules import (
    Inkast,
    InkastOutcome,
    KingThrow,
    LagResult,
    LagThrow,
    MatchState,
    PenaltyThrow,
    Phase,
    Raise,
    ThrowOutcome,
    get_ruleset,
)
from kubb3d.rules.actions import ACTION_TYPES, action_from_dict
from kubb3d.rules.core import KubbInfo, outcome_from_dict
from kubb3d.rules.ruleset import register_ruleset


def dm(**kw) -> MatchState:
    return MatchState(get_ruleset("dm"), ("Ann", "Bob"), **kw)


def test_a_tied_lag_is_repeated_and_says_so():
    """DM §3: "Bei Gleichstand ... wird der Wurf wiederholt": the play-by-play names the tie."""
    s = dm()
    s.push(LagThrow("A"), LagResult(0.3))
    s.push(LagThrow("B"), LagResult(0.3))
    assert (s.events[-1].kind, s.events[-1].text, s.events[-1].rules) == ("lag", "lag throw tied: repeated",
                                                                          ("DM §3",))
    assert s.legal_actions()[0] == LagThrow("A")


def test_each_penalty_kubb_starts_again_with_the_opponent():
    """DM §6: "Diese Kubbs wirft der Gegner ... Misslingt ihm dies, erhält der ursprüngliche
    Einwerfer einen weiteren Versuch": the alternation starts anew with the opponent for each
    penalty kubb, and each throw is one line naming its thrower."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    for attempt in (1, 2):
        s.push(Inkast("B", ("B1", "B2"), attempt), InkastOutcome(invalid=frozenset({"B1", "B2"})))
    assert s.legal_actions() == [PenaltyThrow("A", "B1", 1, "B")]
    s.push(PenaltyThrow("A", "B1", 1, "B"), InkastOutcome(invalid=frozenset({"B1"})))
    s.push(PenaltyThrow("B", "B1", 2, "B"), InkastOutcome(valid={"B1": Pose((-3.5, 2.0, 0.075))}))
    assert s.legal_actions() == [PenaltyThrow("A", "B2", 1, "B")]
    penalties = [(e.text, e.player, e.rules) for e in s.events if e.text.startswith("penalty throw")]
    assert penalties == [("penalty throw 1 of B1 by Ann invalid", "Ann", ("DM §6",)),
                         ("penalty throw 2 of B1 by Bob valid", "Bob", ("DM §6",))]


def test_two_stossel_of_one_inkast_are_one_line_of_the_inkaster():
    """DM §7 "Stößel": kubbs lying on others are placed freely after the raising; the line names
    them all and the inkaster."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2", "B3"})))
    throw(s)
    s.push(Inkast("B", ("B1", "B2", "B3"), 1),
           InkastOutcome(valid={"B1": Pose((-1, 0.5, 0.075))}, stossel=frozenset({"B3", "B2"})))
    line = next(e for e in s.events if "stößel" in e.text)
    assert (line.text, line.player) == ("stößel: B2, B3 (placed freely after raising)", "Bob")
    s.push(Raise("A", ("B1",)))


def test_a_valid_dm_inkast_is_a_thrown_inkast_in_the_play_by_play_not_a_return():
    """DM §6: kubbs are thrown into the opponent's half ("einwerfen"); only the KT book flicks them
    back ("returns"), so a valid DM inkast's line says it was inkasted."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    s.push(Inkast("B", ("B1",), 1), InkastOutcome(valid={"B1": Pose((-1, 0.5, 0.075))}))
    line = next(e for e in s.events if e.kind == "inkast")
    assert (line.text, line.player, line.rules) == ("Bob inkasts B1 validly into half A", "Bob", ("DM §6",))


def test_a_baton_throws_line_says_what_it_felled_and_only_an_illegal_one_says_so():
    """DM §5: the play-by-play line of a baton throw, cited to the throwing clause: what it felled
    and nothing more when it was legal, "; illegal throw" added when it was not."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s, ThrowOutcome(legal=False))
    lines = [(e.text, e.rules, e.player) for e in s.events if e.kind == "throw"]
    assert lines == [("Ann throw 1 (baton 1, line x = -4.00 m): felled B1", ("DM §5",), "Ann"),
                     ("Ann throw 2 (baton 2, line x = -4.00 m): nothing felled; illegal throw", ("DM §5",), "Ann")]


def test_an_inkast_outcome_must_speak_of_every_inkasted_kubb_and_of_no_other():
    """An inkast outcome that names a kubb not inkasted, or says nothing about one that was, is
    refused in words, and the state is left as it was."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2"})))
    throw(s)
    inkast = Inkast("B", ("B1", "B2"), 1)
    spot = Pose((-1, 0.5, 0.075))
    with pytest.raises(OutcomeError, match=r"inkast outcome names kubbs that were not inkasted: \['B3'\]"):
        s.push(inkast, InkastOutcome(valid={"B1": spot, "B2": spot, "B3": spot}))
    with pytest.raises(OutcomeError, match=r"inkast outcome says nothing about \['B2'\]"):
        s.push(inkast, InkastOutcome(valid={"B1": spot}))
    assert s.legal_actions()[0] == inkast


def test_the_play_by_play_keeps_the_clock_to_the_millisecond():
    """An event's clock is the match clock when it happened, rounded to the millisecond: with
    12.34567 s a baton throw, the throws are logged at 12.346 s and 24.691 s."""
    from kubb3d.rules.ruleset import TimeModel

    s = MatchState(replace(get_ruleset("dm"), time=TimeModel(baton_throw_s=12.34567)), ("Ann", "Bob"))
    start(s)
    throw(s)
    throw(s)
    assert [e.clock_s for e in s.events if e.kind == "throw"] == [round(12.34567, 3), round(2 * 12.34567, 3)]


def test_the_turns_of_a_match_are_counted_up():
    """MatchState.total_turns counts the turns begun in the match: the opening turn is the first,
    the next one the second."""
    s = dm()
    start(s)
    assert s.total_turns == 1
    finish_turn(s)
    assert s.total_turns == 2


def test_a_kt_lag_is_flicked_and_a_key_no_book_cites_names_the_ruleset():
    """KT rules: the lag is flicked, and its line says so (DM and WS throw it); a rule key a
    book has no citation for is cited by the ruleset's name."""
    lines = {}
    for name in ("kubbuteo", "dm"):
        s = MatchState(get_ruleset(name), ("Ann", "Bob"))
        s.push(LagThrow("A"), LagResult(0.1))
        lines[name] = s.events[-1].text
        assert get_ruleset(name).cite("no such rule") == name
    # on the board in cm, as every other length of Kubbuteo (tests/kubbuteo/test_board_units.py)
    assert lines == {"kubbuteo": "Ann lag flick from end A: 10.0 cm from the king",
                     "dm": "Ann lag throw from end A: 0.100 m from the king"}


def test_a_standing_kubb_a_throw_moved_stands_where_the_throw_left_it():
    """A throw's outcome carries the new poses of kubbs that still stand (moved, not felled): the
    state keeps each where it now stands, and leaves a kubb the throw did not move where it was."""
    s = dm()
    start(s)
    before = s.kubbs["B3"].pose
    moved = Pose((4.0, 0.3, 0.075), (0.0, 0.0, math.sin(0.1), math.cos(0.1)))
    throw(s, ThrowOutcome(poses={"B2": moved}))
    assert (s.kubbs["B2"].pose, s.kubbs["B2"].standing) == (moved, True)
    assert s.kubbs["B3"].pose == before


def test_a_throw_outcome_reads_a_judgement_without_rulings_or_with_rulings_already_as_data():
    """ThrowOutcome.from_judgement keeps the rulings as Ruling.to_dict dicts: a judgement without
    rulings gives none, rulings that are dicts already are kept as they are, a Ruling is turned
    into its dict."""
    from types import SimpleNamespace

    from kubb3d.judge.rulings import Consequence, Ruling, Status

    bare = SimpleNamespace(felled={"B1"}, raise_again=set(), winner=None, loser=None)
    assert ThrowOutcome.from_judgement(bare).rulings == ()
    ruling = Ruling(piece="B1", status=Status.FALLEN, consequence=Consequence.COUNTS_AS_FELLED, rules=("DM §5",),
                    reason="B1 lies on the ground.")
    as_data = SimpleNamespace(**vars(bare), rulings=[ruling.to_dict()])
    as_objects = SimpleNamespace(**vars(bare), rulings=[ruling])
    assert ThrowOutcome.from_judgement(as_data).rulings == (ruling.to_dict(),)
    assert ThrowOutcome.from_judgement(as_objects).rulings == (ruling.to_dict(),)
    assert ThrowOutcome.from_judgement(as_data).felled == frozenset({"B1"})


@pytest.mark.parametrize("leader, other", [("Ann", "Bob"), ("Bob", "Ann")])
def test_dm_time_up_at_a_sets_end_gives_the_match_to_the_set_leader_either_side(leader, other):
    """DM §9: after the organiser's time, only "Sollten beide Spieler ... die gleiche Anzahl an
    Siegen haben" is a deciding set played: otherwise the player ahead in sets wins, whichever
    of the two he is."""
    for lag_side in ("A", "B"):   # the leader must not open: the opener's early king loses him the set
        s = dm(sets=5, time_limit_s=1.0)
        start(s, lag_winner_side=lag_side)
        if s.player_at(s.turn_side) == other:
            break
    s.set_wins = {leader: 1, other: 0}
    opener = s.turn_side
    throw(s, ThrowOutcome(winner="B" if opener == "A" else "A", loser=opener))   # the set to the leader: 2 to 0
    out = s.outcome()
    assert out is not None and out.winner == leader
    assert out.reason == f"time is up and {leader} leads in sets (DM §9)"


@pytest.mark.parametrize("leader, other", [("Left", "Right"), ("Right", "Left")])
def test_ws_time_up_the_team_ahead_in_sets_wins_either_side(leader, other):
    """WS "End of the Game": when time is up the team that has won more sets wins, whichever of
    the two it is."""
    ws = get_ruleset("wikinger")
    s = MatchState(ws, ("Left", "Right"), sets=3)
    start(s)
    s.set_wins = {leader: 1, other: 0}
    out = ws.time_up_result(s)
    assert out is not None and out.winner == leader
    assert out.reason == f"time is up and {leader} leads in sets ({ws.cite('time')})"
    assert ws.cite("time").startswith("WS")


def test_an_unknown_action_in_a_replay_is_named_with_the_known_ones():
    with pytest.raises(UnknownNameError) as refused:
        action_from_dict({"type": "juggle"})
    assert str(refused.value) == f"unknown action type 'juggle'; expected one of {', '.join(sorted(ACTION_TYPES))}"


def test_the_state_as_data_names_set_turn_and_side():
    s = dm()
    start(s)
    data = s.to_dict()
    assert list(data)[:5] == ["phase", "set", "turn", "turn_side", "clock_s"]
    assert (data["set"], data["turn"], data["turn_side"]) == (s.set_no, s.turn_no, s.turn_side) == (1, 1, "A")


def test_a_ruleset_registered_again_is_found_by_its_name():
    """register_ruleset runs at import (where mutmut cannot see it): calling it again registers
    the class under its name field's default and returns it unchanged."""
    cls = type(get_ruleset("wikinger"))
    assert register_ruleset(cls) is cls
    assert type(get_ruleset("wikinger")) is cls and get_ruleset("ws").name == "wikinger"


def test_a_king_felled_by_an_inkasted_kubb_names_the_inkaster_and_the_rule():
    """DM §1: "Wird der König vorzeitig mit Kubb oder Wurfholz zu Fall gebracht, hat die
    gegnerische Mannschaft gewonnen": the result says who felled it, with what, and the clause."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}, king_felled=True))
    assert s.outcome().reason == "Bob felled the king early with an inkasted kubb (DM §1)"


# ------------------------------------------------------------------ a kubb placed by hand (WS basic rule 11)
def _ws(kubbs: dict[str, tuple[float, float, float]]) -> tuple:
    """A WS match with kubbs standing in half A at (x, y), turned by yaw (deg)."""
    ws = get_ruleset("wikinger")
    s = MatchState(ws, ("Left", "Right"))
    s.kubbs = {kid: KubbInfo(kid, "A", False, True,
                             Pose((x, y, 0.075), (0.0, 0.0, math.sin(math.radians(yaw) / 2),
                                                  math.cos(math.radians(yaw) / 2))))
               for kid, (x, y, yaw) in kubbs.items()}
    return ws, s


def test_a_placed_kubb_must_have_its_whole_footprint_inside_the_half():
    """DM §7 „mit seiner gesamten Grundfläche im Feld“, which WS basic rule 11's placement
    follows: a kubb with its edge on the baseline is inside, a hair further out is not."""
    ws, s = _ws({})
    hw = get_set(ws.equipment).kubb.width / 2
    inside = -ws.pitch.length / 2 + hw
    assert ws.placement_error(s, "B1", "A", (inside, 1.0)) is None
    outside = ws.placement_error(s, "B1", "A", (math.nextafter(inside, -10.0), 1.0))
    assert outside == "the kubb's footprint must lie inside half A (WS basic rule 11)"


@pytest.mark.parametrize("half", ["A", "B"])
def test_a_placed_kubb_may_touch_each_line_of_its_half_from_inside_but_not_cross_it(half):
    """DM §7's whole footprint inside the field, at each of the four lines of either half (its
    baseline, the centre line, both sidelines): a kubb with its edge exactly on the line is
    inside, one float step further out is not."""
    ws, s = _ws({})
    hw = get_set(ws.equipment).kubb.width / 2
    length, side = ws.pitch.length, ws.pitch.half_width
    lo, hi = (-length / 2, 0.0) if half == "A" else (0.0, length / 2)
    middle = (lo + hi) / 2
    refused = f"the kubb's footprint must lie inside half {half} (WS basic rule 11)"
    for edge, outward in (((lo + hw, 1.5), (-1.0, 0.0)), ((hi - hw, 1.5), (1.0, 0.0)),
                          ((middle, side - hw), (0.0, 1.0)), ((middle, -(side - hw)), (0.0, -1.0))):
        assert ws.placement_error(s, "B1", half, edge) is None, edge
        beyond = (math.nextafter(edge[0], edge[0] + outward[0]) if outward[0] else edge[0],
                  math.nextafter(edge[1], edge[1] + outward[1]) if outward[1] else edge[1])
        assert ws.placement_error(s, "B1", half, beyond) == refused, beyond


def test_a_placed_kubb_too_near_the_king_is_told_how_far_it_must_stand():
    """WS basic rule 11's penalty kubb stands at least the ruleset's distance (0.3 m, centre to
    centre) from the king: 1 mm short of it the refusal says so in full; at it, it is allowed."""
    ws, s = _ws({})
    assert ws.min_king_distance_m == 0.3 and ws.penalty_distance == "centre"
    assert ws.placement_error(s, "B1", "A", (-0.299, 0.0)) == (
        "the kubb must stand at least 0.30 m from the king (WS basic rule 11)")
    assert ws.placement_error(s, "B1", "A", (-0.3, 0.0)) is None


def test_a_placed_kubb_may_not_overlap_a_stake_but_may_stand_clear_of_it():
    """A stake's footprint is its diameter's square to the lines: a kubb at the sideline 1 mm into
    the square of the centre-line stake is refused, naming it; one a tenth of a stake radius clear of
    it is allowed (the square turned by 1 rad would reach its corner 1.38 radii out, into the kubb)."""
    ws, s = _ws({})
    hw = get_set(ws.equipment).kubb.width / 2
    radius = get_set(ws.equipment).stake.radius
    stake, (sx, sy) = next((sid, xy) for sid, xy in sorted(ws.pitch.stake_positions().items())
                           if xy[0] == 0.0 and xy[1] > 0.0)
    y = sy - hw  # the kubb's edge on the sideline
    assert ws.placement_error(s, "B1", "B", (sx + radius - 0.001 + hw, y)) == (
        f"the kubb would overlap {stake} (WS basic rule 11)")
    assert ws.placement_error(s, "B1", "B", (sx + 1.1 * radius + hw, y)) is None


@pytest.mark.parametrize("direction", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_placed_kubb_may_stand_beside_a_kubb_on_any_side_but_not_overlap_it(direction):
    """A placed kubb's square, on each side of a standing kubb: 1 mm apart it is allowed, 1 mm
    into it refused."""
    ws, s = _ws({"A1": (-2.0, 0.5, 0.0)})
    hw = get_set(ws.equipment).kubb.width / 2
    dx, dy = direction
    for gap, allowed in ((0.001, True), (-0.001, False)):
        spot = (-2.0 + dx * (2 * hw + gap), 0.5 + dy * (2 * hw + gap))
        error = ws.placement_error(s, "B1", "A", spot)
        assert (error is None) is allowed, (spot, error)
        if not allowed:
            assert error == "the kubb would overlap A1 (WS basic rule 11)"


def test_a_standing_kubb_turned_45_degrees_reaches_further_than_one_square_to_the_lines():
    """The standing kubb's square is turned by its yaw: turned 45° its corner reaches hw·√2 from
    its centre, so a kubb placed 1.39 hw beyond its side overlaps the turned kubb's corner but
    not the same kubb square to the lines."""
    for yaw, overlaps in ((45.0, True), (0.0, False)):
        ws, s = _ws({"A1": (-2.0, 0.5, yaw)})
        hw = get_set(ws.equipment).kubb.width / 2
        error = ws.placement_error(s, "B1", "A", (-2.0 + hw + 1.39 * hw, 0.5))
        assert (error is not None) is overlaps, (yaw, error)


def test_a_standing_kubb_turned_30_degrees_is_not_its_mirror_image():
    """Turned +30° (counter-clockwise) a kubb's upper corner points at 75°, (√3 − 1)/2 · hw right
    of its centre and (√3 + 1)/2 · hw above it; turned −30° that corner is on the left. A kubb
    placed up and to the right, its lower edge 0.1 hw under the corner's height, overlaps the
    kubb turned +30° only; the same spot mirrored left overlaps the kubb turned −30° only."""
    corner_x, corner_y = (math.sqrt(3) - 1) / 2, (math.sqrt(3) + 1) / 2  # in hw, turned +30°
    for yaw, side, overlaps in ((30.0, 1, True), (-30.0, 1, False), (-30.0, -1, True), (30.0, -1, False)):
        ws, s = _ws({"A1": (-2.0, 0.5, yaw)})
        hw = get_set(ws.equipment).kubb.width / 2
        spot = (-2.0 + side * (corner_x + 1.0) * hw, 0.5 + (corner_y + 0.9) * hw)
        error = ws.placement_error(s, "B1", "A", spot)
        assert (error is not None) is overlaps, (yaw, side, error)


def test_a_placed_kubb_may_overlap_another_footprint_by_0_1_mm_but_not_more(monkeypatch):
    """placement_error refuses an overlap deeper than 0.1 mm (``> 1e-4``, the solver's slack;
    a kubb touching another is allowed): at exactly 0.1 mm allowed, one float step more refused."""
    from kubb3d.judge import geometry

    ws, s = _ws({"A1": (-2.0, 0.5, 0.0)})
    hw = get_set(ws.equipment).kubb.width / 2
    spot = (-2.0 + 2 * hw - 1e-4, 0.5)  # 0.1 mm into A1 as computed: the depth is set below
    for depth, allowed in ((1e-4, True), (math.nextafter(1e-4, 1.0), False), (0.0, True)):
        monkeypatch.setattr(geometry, "overlap_depth", lambda a, b, depth=depth: depth)
        error = ws.placement_error(s, "B1", "A", spot)
        assert (error is None) is allowed, (depth, error)
        if not allowed:
            assert error == "the kubb would overlap the king (WS basic rule 11)"  # the first one looked at


def test_a_replay_written_before_poses_rulings_and_turns_were_recorded_still_reads():
    """Older replay records lack a throw's ``poses`` and ``rulings`` and a pose's ``quat_xyzw``:
    they read as none and as upright (the unit quaternion)."""
    old_throw = {"kind": "throw", "felled": ["B1"], "raise_again": [], "winner": None, "loser": None, "legal": True}
    back = outcome_from_dict(old_throw)
    assert (back.poses, back.rulings, back.felled) == ({}, (), frozenset({"B1"}))
    old_inkast = {"kind": "inkast", "valid": {"B1": {"position_m": [-1.0, 0.5, 0.075]}}, "invalid": [],
                  "stossel": [], "king_felled": False}
    assert outcome_from_dict(old_inkast).valid["B1"] == Pose((-1.0, 0.5, 0.075), (0, 0, 0, 1))


def test_taking_back_an_action_keeps_the_match_settings():
    """MatchState.pop rebuilds the state from its history: the sets, the clock limit, the round
    cap and the team sizes are those the match was set up with, not the defaults."""
    s = dm(sets=3, time_limit_s=600.0, round_cap=5)
    start(s)
    throw(s)
    settings = (s.sets, s.time_limit_s, s.round_cap, s.team_sizes)
    s.pop()
    assert (s.sets, s.time_limit_s, s.round_cap, s.team_sizes) == settings
    assert settings[:3] == (3, 600.0, 5) and dm().round_cap != 5


def test_a_match_won_on_sets_says_how_many_and_cites_the_sets_clause():
    """Best of three: the set that gives a player a second set ends the match (here a king felled
    by an inkast, DM §1), and the result names the sets won and the ruleset's clause on sets."""
    s = dm(sets=3)
    start(s)
    s.set_wins = {"Ann": 1, "Bob": 0}  # as after a first set won by Ann
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    throw(s)
    s.push(s.legal_actions()[0], InkastOutcome(valid={"B1": Pose((-1, 0, 0.075))}, king_felled=True))
    out = s.outcome()
    assert out is not None and (out.winner, out.sets) == ("Ann", {"Ann": 2, "Bob": 0})
    assert out.reason == f"Ann won 2 of best-of-3 sets ({s.ruleset.cite('sets')})"
    assert s.ruleset.cite("sets") == "DM §3"


# ------------------------------------------------------------------ king throws (DM §1, §10; WS End of the Game)
def _half_b_cleared(ruleset) -> MatchState:
    """Ann (side A) has felled all five kubbs of half B with her first throw of her second turn."""
    s = MatchState(ruleset, ("Ann", "Bob"))
    start(s)
    finish_turn(s)
    finish_turn(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1", "B2", "B3", "B4", "B5"})))
    return s


@pytest.mark.parametrize("limit", [1, 2, 3, None])
def test_a_turn_ends_after_as_many_missed_king_throws_as_the_ruleset_allows(limit):
    """DM §10 ("Es gibt nur einen Königswurf pro Runde"): a turn allows king_throws_per_turn
    king throws (DM: one), None as many as batons are left; every missed one counts."""
    s = _half_b_cleared(replace(get_ruleset("dm"), king_throws_per_turn=limit))
    batons = s.batons_left
    thrown = 0
    while s.turn_side == "A" and s.phase is Phase.THROW:
        assert isinstance(s.legal_actions()[0], KingThrow)
        throw(s)
        thrown += 1
    assert thrown == (batons if limit is None else limit) and batons > 3


@pytest.mark.parametrize("ruleset", ["dm", "wikinger"])
def test_a_set_ended_by_the_king_names_who_felled_it(ruleset):
    """DM §10 and §1, WS End of the Game: a legal king throw that fells the king wins the set for
    its thrower, a king felled early loses it; either way the result names the thrower."""
    won = _half_b_cleared(get_ruleset(ruleset))
    throw(won, ThrowOutcome(winner="A"))
    early = MatchState(get_ruleset(ruleset), ("Ann", "Bob"))
    start(early)
    throw(early, ThrowOutcome(loser="A"))
    assert (won.outcome().winner, early.outcome().winner) == ("Ann", "Bob")
    for state, book in ((won, "king"), (early, "early_king")):
        cite = state.ruleset.cite(book)
        assert state.outcome().reason.startswith("Ann felled the king") and state.outcome().reason.endswith(f"({cite})")


@pytest.mark.parametrize("ruleset, again", [("dm", "thrown again"), ("wikinger", "thrown again"),
                                            ("kubbuteo", "flicked again")])
def test_an_inkast_to_be_repeated_is_one_line_of_its_kind_by_its_player(ruleset, again):
    """DM §6 ("erneut geworfen"), WS basic rule 11, KT ("returned to Player B for reflicking"):
    an invalid first inkast is thrown (under KT flicked) again; the play-by-play says so in an
    inkast line of the inkasting side and player, citing the book's inkast clause."""
    s = MatchState(get_ruleset(ruleset), ("Ann", "Bob"))
    start(s)
    throw(s, ThrowOutcome(felled=frozenset({"B1"})))
    while not isinstance(s.legal_actions()[0], Inkast):
        throw(s)
    n = len(s.events)
    s.push(s.legal_actions()[0], InkastOutcome(invalid=frozenset({"B1"})))
    assert s.legal_actions() == [Inkast("B", ("B1",), 2)]
    [line] = s.events[n:]
    assert (line.kind, line.side, line.player, line.rules) == ("inkast", "B", "Bob", (s.ruleset.cite("inkast"),))
    assert "B1" in line.text and line.text.endswith(f": {again}")


@pytest.mark.parametrize("early, text", [({"B1"}, "raised again at its original spot: B1"),
                                         ({"B1", "B2"}, "raised again at their original spots: B1, B2")])
def test_kubbs_felled_too_early_are_raised_at_the_end_of_the_turn_in_a_raise_line(early, text):
    """DM §5: baseline kubbs felled before the field kubbs are raised again at their spots when
    the turn ends: one line of the same kind as any raising, by the side whose turn ends."""
    s = dm()
    start(s)
    throw(s, ThrowOutcome(raise_again=frozenset(early)))
    n = len(s.events)
    finish_turn(s)
    [line] = [e for e in s.events[n:] if e.text.startswith("raised again")]
    assert (line.kind, line.side, line.player, line.rules, line.text) == ("raise", "A", "Ann", ("DM §5",), text)
    assert all(s.kubbs[k].standing for k in early) and s.turn_side == "B"


def test_a_finished_matchs_data_holds_its_outcome_under_the_names_its_readers_use():
    """The state's data (replays, --json) keeps the outcome as the notation, what-if and analysis
    readers take it: termination by name, winner, points, sets and reason, as JSON."""
    s = _half_b_cleared(get_ruleset("wikinger"))
    throw(s, ThrowOutcome(winner="A"))
    outcome = s.outcome()
    data = json.loads(json.dumps(s.to_dict()))["outcome"]
    assert data == {"termination": outcome.termination.name, "winner": "Ann", "points": dict(outcome.points),
                    "sets": {"Ann": 1, "Bob": 0}, "reason": outcome.reason}
    assert data["termination"] == "KING" and data["points"] and data["reason"].startswith("Ann felled the king")
