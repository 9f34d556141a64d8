"""``kubb3d play --challenge`` in the viewer: the session shows the drill's score and keeps the
best score only for the person's runs (issue 34, item 5)."""

from __future__ import annotations

import pytest

from kubb3d.challenges import BestScores, auto_answer
from kubb3d.viewer.challenge_mode import ChallengeSession
from kubb3d.viewer.controls import Controller


@pytest.fixture(autouse=True)
def _data(tmp_path, monkeypatch):
    monkeypatch.setenv("KUBB3D_DATA_DIR", str(tmp_path / "data"))


def test_a_run_in_the_session_scores_as_the_drill_and_keeps_the_best(tmp_path):
    scores = BestScores(tmp_path / "mine")
    s = ChallengeSession("inkast", "club", seed=3, scores=scores)
    try:
        ctl = Controller(s.pitch, throw=s.controls)
        assert s.controls.elevation_deg == 50.0  # lobbed kubbs, as an inkast in a match
        assert s.hud(ctl).lines[0] == "Inkast into the ring: 0 points, 5 of 5 throws left"
        while s.can_throw:
            s.throw(auto_answer(s.run))
            s.skip()
            s.update(0.0)
        run = s.run
        assert run.over and s.game_over and len(run.throws) == 5
        h = s.hud(ctl)
        assert h.lines[0].startswith(f"Inkast into the ring: {run.score} point")
        assert f"best score: {run.score}" in h.lines and "NEW BEST" in h.message
        assert BestScores(tmp_path / "mine").get("inkast", "club") == run.score
        # the last throw's intended and actual release are on the HUD
        last = run.throws[-1]
        assert f"released {last.released['speed']:.2f} m/s" in h.lines[-1]
        s.new_round()  # R: a new run with the next seed
        assert s.run.seed == 4 and s.run.score == 0 and s.can_throw and not s.new_best
    finally:
        s.close()


def test_cli_screenshot_of_a_challenge(cli, tmp_path):
    out = tmp_path / "c.png"
    size = ("--width", "320", "--height", "180")
    r = cli("play", "--challenge", "baseline", "--screenshot", str(out), "--after", "2", *size)
    assert r.returncode == 0, r.stderr
    assert out.exists()
    # the computer's throws of --after are not the person's best
    assert not (tmp_path / "data" / "challenges.json").exists()
