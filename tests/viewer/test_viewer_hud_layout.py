"""The HUD at small window sizes (smaller text, panels that do not overlap) and the view
mode's orbit camera starting on the scenario's pieces."""

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from kubb3d.viewer.app import App, PlaySession, load_pyglet, scenario_session, scripted_throws
from kubb3d.viewer.camera import frame_points, project
from kubb3d.viewer.hud import font_size

pyglet = load_pyglet(headless=True)
ROOT = Path(__file__).resolve().parents[2]


def test_font_size_follows_the_width():
    assert font_size(1280) == 12 and font_size(1100) == 12
    assert font_size(640) == 7 and font_size(900) == 10 and font_size(200) == 7


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


@pytest.mark.parametrize("size", [(640, 360), (420, 400), (1280, 720)])
def test_hud_panels_do_not_overlap(size):
    w, h = size
    app = App(PlaySession(), w, h, headless=True, mode="play", camera="thrower")
    try:
        scripted_throws(app.session, 2, np.random.default_rng(1))
        app.frame(0.0)
        panels = app.overlay.panels
        assert {"status", "rulings", "legend", "power"} <= set(panels)
        for (na, a), (nb, b) in combinations(panels.items(), 2):
            assert not _overlap(a, b), (na, a, nb, b)
        for name, (x, y, pw, ph) in panels.items():
            assert x >= 0 and y >= 0 and x + pw <= w and y + ph <= h, (name, (x, y, pw, ph))
    finally:
        app.close()


def test_frame_points_sees_every_point_and_is_tight():
    rng = np.random.default_rng(3)
    pts = np.column_stack((rng.uniform(-3, 4, 12), rng.uniform(-2, 2, 12), rng.uniform(0, 0.3, 12)))
    cam = frame_points(pts, 16 / 9, margin=1.0, min_distance=0.5)
    px, vis = project(pts, cam.camera().view_proj(1600, 900), 1600, 900)
    assert vis.all()
    assert (px[:, 0] >= -1).all() and (px[:, 0] <= 1601).all() and (px[:, 1] >= -1).all() and (px[:, 1] <= 901).all()
    # tight: some point lies near an edge of the image
    edge = np.minimum.reduce([px[:, 0], 1600 - px[:, 0], px[:, 1], 900 - px[:, 1]])
    assert edge.min() < 20


def test_view_mode_orbit_starts_on_the_scenarios_pieces():
    session = scenario_session(ROOT / "scenarios" / "dm_field_kubb_lying.toml")
    assert session.focus == ["A1"]
    app = App(session, 640, 360, headless=True, mode="view", camera="orbit")
    try:
        app.frame(0.0, hud=False)
        (p,), (vis,) = project(session.scene.pieces["A1"].pose[:3], app.camera.view_proj(640, 360), 640, 360)
        assert vis and abs(p[0] - 320) < 40 and abs(p[1] - 180) < 40
        assert np.linalg.norm(app.camera.eye - session.scene.pieces["A1"].pose[:3]) < 4.0
    finally:
        app.close()
