"""``kubb3d view SCENARIO`` opens on the situation as set up (a user's report: it opened after
the ruling, a leaning inkasted kubb already tinted "raise-again", so it was never seen leaning).
The view is paused before the ruling; SPACE plays it; ``--help`` says so."""

from __future__ import annotations

import math

import numpy as np

from kubb3d.viewer.app import App, load_pyglet, scenario_session
from kubb3d.viewer.scene import rotation_matrices

pyglet = load_pyglet(headless=True)
from pyglet.window import key  # noqa: E402  (after the headless switch)

SCENARIO = "dm_inkast_leaning_tip_ground_edge"  # B2 leans on B1 and is raised (DM §7)


def _tilt_deg(pose) -> float:
    """Angle, deg, of a piece's long axis (its z) from the vertical."""
    z = rotation_matrices(np.asarray(pose, float)[None, 3:])[0][:, 2]
    return math.degrees(math.acos(min(1.0, abs(z[2]))))


def test_a_scenario_opens_as_set_up_and_space_plays_its_ruling(root):
    from kubb3d import scenario as sc

    path = root / "scenarios" / f"{SCENARIO}.toml"
    built = sc.build(path)
    try:
        set_up = {pid: np.array((*p.position, *p.quat_xyzw)) for pid, p in built.initial.items()}
    finally:
        built.close()
    s = scenario_session(path)
    app = App(s, 960, 540, headless=True, mode="view", camera="orbit")
    try:
        for _ in range(5):  # the window waits: a second later it is still the situation as set up
            app.frame(0.2)
        tl = s.timeline
        assert tl.t == 0.0 and not tl.playing
        b2 = s.scene.pieces["B2"].pose
        np.testing.assert_allclose(b2, set_up["B2"], atol=1e-6)
        assert _tilt_deg(b2) > 20.0  # leaning
        assert all(pv.status is None for pv in s.scene.pieces.values())  # no tint yet
        hud = app.last_hud
        assert not hud.rulings and not hud.legend
        assert hud.message == "as set up, before the ruling: SPACE plays the ruling (colours, rulings, raising)"
        app.on_key_press(key.SPACE, 0)
        for _ in range(int(tl.duration / 0.1) + 5):
            app.frame(0.1)
        assert tl.t == tl.duration
        assert s.scene.pieces["B2"].status == "raise-again" and _tilt_deg(s.scene.pieces["B2"].pose) < 1.0
        hud = app.last_hud
        assert hud.rulings[0].startswith("B1: fallen, raise here  [DM §7]") and hud.legend and not hud.message
    finally:
        app.close()


def test_view_help_says_which_moment_a_scenario_shows(cli):
    r = cli("view", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert ("A scenario opens paused on its pieces as the file sets them up (a leaning kubb leans), "
            "before the ruling") in text
    assert "SPACE plays the ruling" in text
    assert "--screenshot shows the end (the ruling) unless --at is given" in text
