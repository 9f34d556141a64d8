"""Per-player statistics from a replay (``kubb3d stats``, issue 34 item 5): the definitions of
kubb3d/stats.py checked on hand-made throws, and a whole match's figures against a count made
from the events' own ``player`` fields (not the rules engine's ends)."""

from __future__ import annotations

import json
import math

import pytest

from kubb3d.match import Match, MatchConfig
from kubb3d.stats import distance_bins, match_stats, replay_stats, stats_lines, throw_distance


def _throw(piece: str, poses: dict) -> dict:
    n = max(len(v) for v in poses.values())
    return {"piece": piece, "trajectory": {"times_s": [i / 15 for i in range(n)], "poses": poses}}


Q = [0.0, 0.0, 0.0, 1.0]


def test_distance_is_to_the_first_piece_moved_else_to_the_landing_or_the_stop():
    flight = [[-4.0, 0.0, 0.5, *Q], [-2.0, 0.0, 0.9, *Q], [0.0, 0.3, 0.06, *Q], [0.4, 0.3, 0.04, *Q]]
    # nothing moved: where it first came down (within 3 cm of its resting height)
    assert throw_distance(_throw("baton1", {"baton1": flight})) == pytest.approx(math.hypot(4.0, 0.3))
    # a kubb at (3, 1) moved (at the third sample), another one later: the first one counts
    kubb = [[3.0, 1.0, 0.15, *Q], [3.0, 1.0, 0.15, *Q], [3.2, 1.0, 0.05, *Q], [3.3, 1.0, 0.05, *Q]]
    late = [[1.0, -2.0, 0.15, *Q]] * 3 + [[1.5, -2.0, 0.05, *Q]]
    shaken = [[0.5, 0.5, 0.15, *Q], [0.502, 0.5, 0.15, *Q], [0.502, 0.5, 0.15, *Q], [0.502, 0.5, 0.15, *Q]]
    th = _throw("baton1", {"baton1": flight, "B2": kubb, "B1": late, "B5": shaken})
    assert throw_distance(th) == pytest.approx(math.hypot(7.0, 1.0))  # B5 moved 2 mm: not touched
    # a flicked disk (released on the board) that moved nothing: to where it stopped
    disk = [[-0.45, 0.1, 0.004, *Q], [-0.1, 0.1, 0.004, *Q], [0.15, 0.14, 0.004, *Q]]
    assert throw_distance(_throw("baton2", {"baton2": disk})) == pytest.approx(math.hypot(0.6, 0.04))
    assert distance_bins(8.0) == [(0.0, 4.0), (4.0, 6.0), (6.0, 8.0), (8.0, None)]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("stats") / "m.jsonl"
    m = Match(MatchConfig(ruleset="dm", seed=3), replay=path)
    m.run()
    return path


def test_a_matchs_figures_agree_with_a_count_from_the_events(played):
    recs = [json.loads(line) for line in played.read_text().splitlines()]
    want: dict[str, dict] = {}
    for rec in recs:
        if rec["type"] != "action" or rec["action"]["type"] not in ("BatonThrow", "KingThrow", "Inkast"):
            continue
        ev = next(e for e in rec["events"] if e["kind"] in ("throw", "inkast"))
        zero = {"batons": 0, "hits": 0, "felled": 0, "turns": 0, "inkast": 0, "invalid": 0, "ends": []}
        w = want.setdefault(ev["player"], zero)
        if rec["action"]["type"] == "Inkast":
            w["inkast"] += len(rec["throws"])
            w["invalid"] += sum(r.get("valid") is False for r in (rec.get("judgement") or {}).get("rulings", []))
            ends = [th["trajectory"]["poses"][th["piece"]][-1][:2] for th in rec["throws"]]
            if len(ends) > 1:
                w["ends"].append(ends)
            continue
        felled = len(rec["outcome"]["felled"])
        w["turns"] += rec["action"]["baton"] == "baton1"
        if rec["action"]["type"] == "BatonThrow":
            w["batons"] += 1
            w["hits"] += felled > 0
            w["felled"] += felled
    stats = replay_stats(played)
    assert set(stats) == set(want) == {"P1", "P2"}
    for name, ps in stats.items():
        w = want[name]
        assert (ps.batons, ps.hits, ps.kubbs_felled, ps.turns, ps.inkast_kubbs, ps.inkast_invalid) == (
            w["batons"], w["hits"], w["felled"], w["turns"], w["inkast"], w["invalid"]
        )
        assert sum(b[2] for b in ps.bins) == ps.batons and sum(b[3] for b in ps.bins) == ps.hits
        # the spread: root mean square distance from each attempt's centroid (numpy's variance)
        import numpy as np

        if w["ends"]:
            sq = sum(float(np.sum(np.var(np.array(e), axis=0))) * len(e) for e in w["ends"])
            assert ps.inkast_spread_m == pytest.approx(math.sqrt(sq / sum(len(e) for e in w["ends"])))
    assert stats["P1"].batons > 5 and stats["P2"].batons > 5
    lines = stats_lines(stats)
    assert lines[0].startswith(f"P1: {stats['P1'].hits}/{stats['P1'].batons} batons hit")


def test_cli_stats_text_json_and_bad_files(cli, played, tmp_path):
    r = cli("stats", str(played), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc == {k: v.to_dict() for k, v in replay_stats(played).items()}
    r = cli("stats", str(played), "--lang", "de")
    assert r.returncode == 0 and "Wurfhölzer" in r.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "schema": 2}\n')
    for path, why in ((tmp_path / "none.jsonl", "none.jsonl"), (bad, "no config")):
        r = cli("stats", str(path))
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_the_match_summary_shows_both_players_figures():
    from kubb3d.viewer.match_mode import MatchSession

    s = MatchSession("dm", "club", seed=3, round_cap=3)
    try:
        s.advance_throws(400)
        assert s.over
        summary = s.summary()
        header, actions = s.match.header, [r for r in s.records if r.get("type") == "action"]
        figures = stats_lines(match_stats(header, actions))
        assert figures and all(line in summary for line in figures)
        assert summary[-1].startswith("R: rematch")
    finally:
        s.close()


def test_a_figure_without_a_value_is_left_out_not_printed_as_a_dash():
    """The tryout: Kubbuteo's stats read "inkast spread - m" (no inkast of two kubbs or more)."""
    from kubb3d.i18n import translator
    from kubb3d.stats import PlayerStats

    none = PlayerStats("P1")  # no baton, no turn, no inkast
    one = PlayerStats("P2", batons=1, hits=1, turns=2, kubbs_felled=3)  # no spread
    full = PlayerStats("P3", batons=8, hits=3, turns=2, kubbs_felled=3, spread_sq=0.5, spread_n=2)
    inkasts = PlayerStats("P4", inkasts=2, inkast_kubbs=5, inkast_invalid=1)  # no baton thrown yet
    single = PlayerStats("P5", inkasts=1, inkast_kubbs=1)
    lines = stats_lines({"P1": none, "P2": one, "P3": full, "P4": inkasts, "P5": single})
    assert lines == [
        "P1: 0/0 batons hit",
        "P2: 1/1 baton hit (100 %), 1.50 kubbs a turn",
        "P3: 3/8 batons hit (38 %), 1.50 kubbs a turn, inkast spread 0.50 m",
        # kubb3d stats --help promises the share of inkasted kubbs ruled invalid: it was in --json only
        "P4: 0/0 batons hit, 1 of 5 inkasted kubbs invalid",
        "P5: 0/0 batons hit, 0 of 1 inkasted kubb invalid",
    ]
    german = [translator("de")(line) for line in lines]
    assert german[1] == "P2: 1/1 Wurfholz traf (100 %), 1,50 Kubbs je Runde"  # a decimal comma (issue 34)
    assert german[2].endswith("Streuung der Einwürfe 0,50 m")
    assert german[3].endswith(", 1 von 5 eingeworfenen Kubbs ungültig")
    assert german[4].endswith(", 0 von 1 eingeworfenen Kubb ungültig")
    assert not any(" - " in line or "- m" in line for line in lines + german)
