"""Wikinger-Schach group stage in physics (kubb3d tournament): pairings, ranking, a Stechen thrown
in physics where teams are level (WS "Tie-Break After the Group Stage")."""

import pytest

from kubb3d.rules.wikinger import GameResult
from kubb3d.tournament import pairings, run_tournament, stechen_positions, throw_stechen

# a three-way tie on points: T1 beats T2, T2 beats T3, T3 beats T1; T4 loses every game
WINS = {
    ("T1", "T2"): (2, 0),
    ("T2", "T3"): (2, 0),
    ("T1", "T3"): (0, 2),
    ("T1", "T4"): (2, 0),
    ("T2", "T4"): (2, 0),
    ("T3", "T4"): (2, 0),
}


def _fake_game(args):
    return GameResult(args[0], args[1], *WINS[(args[0], args[1])])


def test_round_robin_pairs_every_team_once():
    assert pairings(["T1", "T2", "T3"]) == [("T1", "T2"), ("T1", "T3"), ("T2", "T3")]
    assert len(pairings([f"T{i}" for i in range(6)])) == 15


def test_three_teams_level_on_points_throw_a_stechen_in_physics():
    r = run_tournament(4, 5, play=_fake_game)
    assert r.points == {"T1": 4, "T2": 4, "T3": 4, "T4": 0}
    assert r.ranking[-1] == "T4"  # decided by points, no Stechen
    first = r.stechen[0]
    assert first[0] == ("T1", "T2", "T3")  # WS: all level teams throw, one after another
    assert all(0 <= n <= 6 for n in first[1].values())
    # the Stechen winner ranks first; each later round is among teams the earlier one left level
    best = max(first[1].values())
    assert first[1][r.ranking[0]] == best and list(first[1].values()).count(best) == 1
    for teams, _felled in r.stechen[1:]:
        assert set(teams) < {"T1", "T2", "T3"}
    assert r.endings == [("", "")] * 6  # the stand-in says nothing of how its games ended
    doc = r.to_json()
    assert doc["games"][0] == {"team1": "T1", "team2": "T2", "points1": 2, "points2": 0, "ended": "", "reason": ""}
    again = run_tournament(4, 5, play=_fake_game)
    assert (again.ranking, again.stechen) == (r.ranking, r.stechen)  # same seed, same tournament


def test_stechen_pawns_stand_evenly_on_the_baseline_and_count_at_most_six():
    from kubb3d.pitch import PITCHES

    pitch = PITCHES["wikinger"]
    ys = [y for _, y in stechen_positions(pitch)]
    assert len(ys) == 6 and ys == sorted(ys)
    gaps = [b - a for a, b in zip([-pitch.half_width, *ys], [*ys, pitch.half_width])]
    assert gaps == pytest.approx([pitch.width / 7] * 7)
    st = throw_stechen(("T1", "T2"), {"T1": "elite", "T2": "novice"}, seed=3)
    assert not st.legal_actions() and set(st.felled) == {"T1", "T2"}
    assert all(0 <= v <= 6 for v in st.felled.values())


def test_tournament_command_refuses_bad_input(tmp_path):
    from typer.testing import CliRunner

    from kubb3d.cli import _register_subapps, app

    _register_subapps()
    runner = CliRunner()
    for args, msg in (
        (["--teams", "1"], "--teams: expected from 2 to 16, got 1"),
        (["--ruleset", "dm"], "only --ruleset wikinger"),
        (["--players", "club,nope", "--teams", "2"], "unknown skill 'nope'"),
        (["--ground", "lava"], "unknown ground 'lava'"),
    ):
        res = runner.invoke(app, ["tournament", *args])
        assert res.exit_code == 2 and msg in res.output, (args, res.output)
