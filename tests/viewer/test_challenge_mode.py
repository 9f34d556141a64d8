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
        # the last throw's intended and actual release are on the HUD, under the score
        last = run.throws[-1]
        assert f"released {last.released['speed']:.2f} m/s" in h.lines[1]
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


@pytest.mark.parametrize("camera", ["top", "thrower"])
def test_the_inkast_ring_is_painted_where_the_drill_scores(tmp_path, camera):
    """Issue 34: the inkast drill's ring was only named in the panel. It is painted on the grass:
    the pixels on the circle of RING_RADIUS around RING_CENTRE (where the drill's points change
    from 5 upwards) change when it is drawn; its centre and the grass twice as far out do not."""
    import math

    import numpy as np

    from kubb3d.challenges import RING_CENTRE, RING_RADIUS, ring_points
    from kubb3d.viewer.app import App
    from kubb3d.viewer.camera import project

    assert ring_points(RING_CENTRE[0] + RING_RADIUS, RING_CENTRE[1]) == 5  # the circle drawn is the scored one
    w, h = 1280, 720  # a player's window: at half that the thrower sees the far side of the ring gapped
    app = App(ChallengeSession("inkast", "club", scores=BestScores(tmp_path / "s")), w, h, headless=True, camera=camera)
    try:
        scene = app.session.scene
        assert scene.rings == [(RING_CENTRE, RING_RADIUS)]
        app.frame(0.0, hud=False)
        drawn = app.pixels().astype(int)
        vp = app.camera.view_proj(w, h)
        scene.rings = []
        app.frame(0.0, hud=False)
        bare = app.pixels().astype(int)
        cx, cy = RING_CENTRE
        quarters = np.radians([0, 90, 180, 270])
        on = [(cx + RING_RADIUS * math.cos(a), cy + RING_RADIUS * math.sin(a), 0.0) for a in quarters]
        off = [(cx, cy, 0.0), (cx + 2 * RING_RADIUS, cy, 0.0), (cx, cy - 2 * RING_RADIUS, 0.0)]
        px, vis = project(np.array(on + off), vp, w, h)
        assert vis.all()
        change = np.abs(drawn - bare).sum(axis=2)
        # the largest change within 2 px of each point (the near and far sides of the ring are
        # foreshortened to about a pixel in the thrower's view)
        diff = [int(change[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].max()) for x, y in px]
        assert all(d > 60 for d in diff[:4]), diff
        assert all(d == 0 for d in diff[4:]), diff
        r, g, b = drawn[int(px[0][1]), int(px[0][0])]
        assert r > g > b  # orange on green grass
    finally:
        app.close()


def _card_felled(h) -> set[str]:
    import re

    line = next(ln for ln in h.last_throw if "felled: " in ln)
    got = re.search(r"felled: (.*)$", line).group(1)
    return set() if got == "nothing" else set(got.split(", "))


def test_the_card_counts_what_each_throw_of_a_drill_felled(tmp_path):
    """The challenges' card said "felled: B3, B4" for a baton that felled B4 after B3 had
    fallen (the drill's round's rulings, not the throw's), and "felled: nothing" for a baton
    that won the king drill. Each throw's card gives what that throw felled, as its score does;
    the kubbs felled before share the rulings panel's one line."""
    scores = BestScores(tmp_path / "s")
    s = ChallengeSession("baseline", "exact", scores=scores)
    try:
        ctl = Controller(s.pitch, throw=s.controls)
        seen: set[str] = set()
        earlier = 0
        while s.can_throw:
            s.throw(auto_answer(s.run))
            s.skip()
            s.update(0.0)
            row = s.run.throws[-1]
            h = s.hud(ctl)
            got = _card_felled(h)
            assert got == set(row.felled) and not got & seen, (h.last_throw, row.text, seen)
            assert row.points >= 10 * len(got)
            if seen:
                earlier += 1
                assert any(ln.startswith("felled by an earlier throw:") for ln in h.rulings), h.rulings
            seen |= got
        assert seen == {"B1", "B2", "B3", "B4", "B5"} and earlier >= 3  # exact: one kubb a baton
    finally:
        s.close()
    k = ChallengeSession("king", "exact", scores=scores)
    try:
        k.throw(auto_answer(k.run))
        k.skip()
        k.update(0.0)
        assert k.run.score == 10 and _card_felled(k.hud(Controller(k.pitch, throw=k.controls))) == {"king"}
    finally:
        k.close()


@pytest.mark.parametrize("name", ["baseline", "inkast", "king"])
def test_the_status_panel_on_the_picture_shows_the_score_and_the_last_release(tmp_path, name):
    """At 960 × 540 (the README's pictures) the status panel holds 10 rows of text: the inkast
    drill's last release, after the title, the score, the goal, the ring and the best score,
    was cut off the picture, and the baseline drill's too. The score, the last release and the
    best score come first; the goal, the longest and the same all run, last."""
    from kubb3d.viewer.app import App

    w, h = 960, 540
    s = ChallengeSession(name, "club", scores=BestScores(tmp_path / "s"))
    app = App(s, w, h, headless=True, mode="play", camera="thrower")
    try:
        s.throw(auto_answer(s.run))
        s.skip()
        s.update(0.0)
        app.frame(0.0)
        x, y, pw, ph = app.overlay.panels["status"]
        shown = " ".join(lab.text for lab in app.overlay._items
                         if hasattr(lab, "text") and x <= lab.x <= x + pw and y <= lab.y <= y + ph)
        last = s.run.throws[-1]
        for want in (f"{s.run.score} point", f"released {last.released['speed']:.2f} m/s", "best score: "):
            assert want in shown, (want, shown)
        # and it is the status panel's text that was drawn: the panel is darker than the grass
        app.frame(0.0, hud=False)
        bare = app.pixels()[h - y - ph: h - y, x: x + pw].astype(int)
        app.frame(0.0)
        drawn = app.pixels()[h - y - ph: h - y, x: x + pw].astype(int)
        assert drawn.mean() < bare.mean() - 20
    finally:
        app.close()
