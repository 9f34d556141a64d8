"""The drills of ``kubb3d play --challenge`` (issue 34, item 5): their scores follow their rules,
runs are reproducible from the seed, and best scores persist in the data folder (never the real
home: every test names a temporary folder)."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace

import pytest

from kubb3d.challenges import (
    CHALLENGES,
    DATA_DIR_ENV,
    KING_POINTS,
    RING_CENTRE,
    RING_RADIUS,
    BestScores,
    ChallengeError,
    auto_answer,
    data_dir,
    play_challenge,
    ring_points,
)


@pytest.fixture(autouse=True)
def _data(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))


def test_ring_points_fall_from_ten_at_the_centre_to_zero_at_twice_the_radius():
    cx, cy = RING_CENTRE
    assert ring_points(cx, cy) == 10
    assert ring_points(cx + RING_RADIUS, cy) == 5
    assert ring_points(cx, cy - 2 * RING_RADIUS) == 0 and ring_points(cx + 5, cy) == 0
    along = [ring_points(cx + d, cy) for d in [i * 0.05 for i in range(25)]]
    assert along == sorted(along, reverse=True) and along[-1] == 0
    # the same at every bearing
    assert {ring_points(cx + 0.33 * math.cos(a), cy + 0.33 * math.sin(a)) for a in (0.3, 1.9, 4.0)} == {7}


def _wide(run):
    """A scripted person who throws the computer's throw 25° to the left: it hits nothing."""
    return replace(auto_answer(run), azimuth_deg=25.0)


def test_baseline_scores_ten_a_kubb_and_five_a_baton_left():
    miss = play_challenge("baseline", _wide, difficulty="exact")
    assert miss.score == 0 and len(miss.throws) == 6 and all(t.points == 0 for t in miss.throws)
    exact = play_challenge("baseline", difficulty="exact", seed=1)
    felled = sum(len(t.text.split(":")[0].split(",")) for t in exact.throws if t.text.startswith("felled B"))
    assert exact.score == sum(t.points for t in exact.throws) > 0
    # the score is 10 a felled kubb (plus 5 a baton left when all five fell)
    if exact.score >= 50:
        assert exact.score == 50 + 5 * (6 - len(exact.throws))
    else:
        assert exact.score == 10 * felled and len(exact.throws) == 6


def test_the_most_points_are_the_drills_best_run():
    """The baseline drill said "of 55 points", five batons a kubb each; a baton that fells two
    leaves one more baton, and the first felling all five leaves five: 50 + 5 × 5."""
    from kubb3d.pitch import baseline_ids

    base = CHALLENGES["baseline"]
    kubbs = len(baseline_ids("B"))
    assert base.max_score == 10 * kubbs + 5 * (base.throws - 1) > 10 * kubbs + 5 * (base.throws - kubbs)
    assert CHALLENGES["inkast"].max_score == 10 * CHALLENGES["inkast"].throws
    assert CHALLENGES["king"].max_score == KING_POINTS[0] == max(KING_POINTS)


def test_each_throw_names_what_it_felled():
    """What a throw felled (the viewer's card): kubbs felled by an earlier baton are not
    counted again, and a king shot's felling baton names the king."""
    exact = play_challenge("baseline", difficulty="exact", seed=1)
    felled = [set(t.felled) for t in exact.throws]
    assert sum(len(f) for f in felled) == len(set().union(*felled))  # no kubb twice
    for i, (t, f) in enumerate(zip(exact.throws, felled)):  # 10 a kubb this throw felled (+ batons left)
        assert t.points in (10 * len(f), 10 * len(f) + 5 * (6 - i - 1)), (i, t)
    king = play_challenge("king", difficulty="exact")
    assert [t.felled for t in king.throws] == [("king",)]
    miss = play_challenge("king", _wide, difficulty="exact")
    assert all(t.felled == () for t in miss.throws)


def test_the_inkast_points_are_the_ring_points_of_where_each_kubb_rests():
    run = play_challenge("inkast", difficulty="club", seed=2)
    assert len(run.throws) == 5
    for t in run.throws:
        d = float(t.text.split(" rests ")[1].split(" m ")[0])
        # the text's distance (to 1 cm) gives the same points within one ring step
        assert abs(t.points - max(0, 10 - math.floor(10 * d / (2 * RING_RADIUS)))) <= 1
    assert run.score == sum(t.points for t in run.throws) <= CHALLENGES["inkast"].max_score


def test_the_king_shot_scores_by_the_baton_that_fells_it():
    hit = play_challenge("king", difficulty="exact")
    assert [t.points for t in hit.throws] == [KING_POINTS[0]] and hit.score == 10
    miss = play_challenge("king", _wide, difficulty="exact")
    assert miss.score == 0 and len(miss.throws) == 3

    def second(run):  # wide first, then the computer's aim
        return _wide(run) if run.thrown == 0 else auto_answer(run)

    late = play_challenge("king", second, difficulty="exact")
    assert [t.points for t in late.throws] == [0, KING_POINTS[1]]


def test_a_run_is_reproducible_from_its_seed_and_the_error_is_the_difficultys():
    a = play_challenge("baseline", difficulty="club", seed=5)
    b = play_challenge("baseline", difficulty="club", seed=5)
    c = play_challenge("baseline", difficulty="club", seed=6)
    assert [t.released for t in a.throws] == [t.released for t in b.throws] and a.score == b.score
    assert a.throws[0].released != c.throws[0].released
    assert a.throws[0].intended == c.throws[0].intended  # the same first aim, another error
    exact = play_challenge("baseline", difficulty="exact", seed=5)
    assert all(t.released == t.intended for t in exact.throws)


def test_best_scores_persist_between_sessions_per_difficulty(tmp_path):
    folder = tmp_path / "data"
    assert data_dir() == folder
    run = play_challenge("king", difficulty="exact")
    scores = BestScores()
    assert scores.get("king", "exact") is None and scores.record(run)
    again = BestScores()  # a new session reads the file
    assert again.get("king", "exact") == run.score and again.get("king", "club") is None
    worse = play_challenge("king", _wide, difficulty="exact")
    assert not again.record(worse) and BestScores().get("king", "exact") == run.score
    assert json.loads((folder / "challenges.json").read_text()) == {"best": {"king/exact": run.score}}
    (folder / "challenges.json").write_text("{not json")
    with pytest.raises(ChallengeError, match="challenges.json: not a best-score file"):
        BestScores()
    (folder / "challenges.json").write_text('{"best": {"king/exact": "ten"}}')
    with pytest.raises(ChallengeError, match="best: expected"):
        BestScores()


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG base directories are Linux's")
def test_without_the_variable_the_folder_is_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(DATA_DIR_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))  # the XDG spec: $XDG_DATA_HOME/<app>
    assert data_dir() == tmp_path / "share" / "kubb3d"


def test_cli_auto_prints_the_score_and_refuses_what_does_not_fit(cli, tmp_path):
    r = cli("play", "--challenge", "king", "--auto", "--json", "--difficulty", "exact")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["score"] == sum(t["points"] for t in doc["throws"]) and doc["best"] is None
    assert doc["throws"][0]["intended"] == doc["throws"][0]["released"]
    BestScores().record(play_challenge("king", difficulty="exact"))
    r = cli("play", "--challenge", "king", "--auto", "--difficulty", "exact")
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "your best score: 10"
    (tmp_path / "data" / "challenges.json").write_text("[]")
    for args, why in (
        (("--challenge", "king", "--auto"), "challenges.json"),
        (("--challenge", "kong", "--auto"), "baseline, inkast, king"),
        (("--auto",), "need --challenge"),
        (("--challenge", "king", "--json"), "--json needs --auto"),
        (("--challenge", "baseline", "--auto", "--screenshot", str(tmp_path / "c.png")), "drop --auto"),
        (("--challenge", "king", "--opponent", "club"), "drop --opponent"),
        (("--challenge", "king", "--ruleset", "kubbuteo"), "drop --ruleset"),
    ):
        r = cli("play", *args)
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c.png").exists()  # refused before any work
