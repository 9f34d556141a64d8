"""Issue 18 item 5: ``kubb3d quiz --view`` (the situation in the 3D view before its question)
and the outside of the pitch marked in the quiz's pictures."""

from __future__ import annotations

import numpy as np
import pytest

from kubb3d.viewer.app import load_pyglet

pyglet = load_pyglet(headless=True)


def _reddish(rgb) -> float:
    """Red minus green of a pixel: the veil over the outside turns green grass towards red."""
    return float(rgb[0]) - float(rgb[1])


def test_the_quiz_shows_each_situation_before_asking_and_needs_no_window(tmp_path):
    from kubb3d.library import resolve_scenario
    from kubb3d.quiz import run_quiz

    files = [resolve_scenario(n) for n in ("dm_inkast_outside_rethrow", "dm_leaning_on_field_kubb")]
    log: list[str] = []

    def ask(prompt: str) -> str:
        log.append("ask")
        return "1"

    right, asked = run_quiz(files, seed=0, ask=ask, say=lambda s: None, show=lambda p: log.append(p.stem))
    assert asked == 2 and 0 <= right <= 2
    # each situation is shown once, before its own question
    assert [e for e in log] in (
        ["dm_inkast_outside_rethrow", "ask", "dm_leaning_on_field_kubb", "ask"],
        ["dm_leaning_on_field_kubb", "ask", "dm_inkast_outside_rethrow", "ask"],
    )


def test_quiz_view_shows_the_position_without_its_answer_and_the_outside_veiled(tmp_path):
    from PIL import Image

    from kubb3d.library import resolve_scenario
    from kubb3d.viewer.app import App, quiz_view, scenario_session
    from kubb3d.viewer.camera import project

    path = resolve_scenario("dm_inkast_outside_rethrow")
    s = scenario_session(path, reveal=False)
    seg = s.timeline.segments[0]
    assert seg.rulings == () and not seg.raised  # no rulings, tints or raising before the answer
    assert s.scene.outside_shade and any(t.startswith("OUT (beyond sideline") for t, _ in s.scene.area_labels)
    assert scenario_session(path).timeline.segments[0].rulings  # the plain view shows them
    out = quiz_view(path, screenshot=tmp_path / "q.png", width=640, height=360)
    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    # a point 0.4 m inside the sideline and one 0.4 m outside, both on the ground in view
    app = App(s, 640, 360, headless=True, mode="view", camera="orbit")
    try:
        app.frame(0.0)
        # the sideline B1 lies beyond (its y says which: the scenario's words name the left one)
        edge = np.copysign(s.scene.pitch.half_width, float(s.scene.pieces["B1"].pose[1]))
        x = float(s.scene.pieces["B1"].pose[0]) + 0.5
        pts = np.array(((x, edge - np.sign(edge) * 0.4, 0.0), (x, edge + np.sign(edge) * 0.4, 0.0)))
        (pin, pout), vis = project(pts, app.camera.view_proj(640, 360), 640, 360)
        assert vis.all()
        inside, outside = (img[int(p[1]), int(p[0])] for p in (pin, pout))
        assert inside[1] > inside[0] + 20  # grass
        assert _reddish(outside) > _reddish(inside) + 25, (inside, outside)
    finally:
        app.close()


def test_quiz_view_without_a_display_is_a_one_line_error(monkeypatch, tmp_path):
    import re

    from cli_process import run_kubb3d

    env = {k: v for k, v in __import__("os").environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = run_kubb3d("quiz", "--view", "--count", "1", "--no-images", input="1\n", env=env, cwd=tmp_path, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: --view: no display")
    # the hint names what quiz has (it once said "use --screenshot", an option of play only)
    hinted = set(re.findall(r"--[a-z-]+", r.stderr)) - {"--view"}
    quiz_options = run_kubb3d("quiz", "--help", env={**env, "COLUMNS": "200"}).stdout
    assert hinted and all(option in quiz_options for option in hinted), hinted


@pytest.mark.parametrize("name", ["dm_inkast_outside_rethrow", "dm_baseline_kubb_felled_early"])
def test_the_quiz_pictures_mark_the_outside_of_the_pitch(tmp_path, name):
    from PIL import Image

    from kubb3d.library import resolve_scenario
    from kubb3d.scenario import run
    from kubb3d.viewer.still import render_views

    res, built = run(resolve_scenario(name), keep_world=True)
    try:
        top, side = render_views(built, tmp_path, "s", size=(320, 240))
    finally:
        built.close()
    for path in (top, side):
        img = np.asarray(Image.open(path).convert("RGB")).astype(int)
        red = img[:, :, 0] - img[:, :, 1]
        grass = (img[:, :, 1] > img[:, :, 0] + 20).mean()
        veiled = (red > 0).mean()
        # both sides of the line are in view: grass inside, the veil outside
        assert grass > 0.1 and veiled > 0.1, (path.name, grass, veiled)


def test_the_outside_bands_tile_the_outside_once_and_leave_the_pitch_clear():
    """The veil's four bands (as the renderer lays them) cover all ground outside the pitch
    within their reach exactly once (no darker corners) and none of the pitch."""
    from kubb3d.pitch import Pitch
    from kubb3d.viewer.render import quads_along
    from kubb3d.viewer.scene import outside_quads

    pitch, reach = Pitch(), 40.0
    v = quads_along(outside_quads(pitch, reach), 0.001)[:, :2].reshape(-1, 6, 2)
    boxes = [(q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()) for q in v]
    hl, hw = pitch.length / 2, pitch.half_width
    area = 0.0
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        area += (x1 - x0) * (y1 - y0)
        assert not (x0 < hl - 1e-6 and -hl + 1e-6 < x1 and y0 < hw - 1e-6 and -hw + 1e-6 < y1), i  # off the pitch
        for a0, b0, a1, b1 in boxes[i + 1 :]:
            assert min(x1, a1) - max(x0, a0) <= 1e-6 or min(y1, b1) - max(y0, b0) <= 1e-6
    full = (2 * hl + 2 * reach) * (2 * hw + 2 * reach)
    assert area == pytest.approx(full - 4 * hl * hw)


@pytest.mark.parametrize("name", ["dm_field_kubb_lying", "dm_leaning_on_field_kubb", "ws_flipped_standing_again"])
def test_a_quiz_top_view_shows_where_on_the_pitch_the_pieces_are(tmp_path, name):
    # the top view of a field kubb alone in B's half showed nothing but grass around it: the
    # framing now reaches the nearest pitch line, stake or king (here a line, 1.0-1.8 m away)
    from PIL import Image

    from kubb3d.library import resolve_scenario
    from kubb3d.scenario import build
    from kubb3d.viewer.still import render_views

    built = build(resolve_scenario(name))
    try:
        top, _side = render_views(built, tmp_path, "s", size=(320, 240))
    finally:
        built.close()
    img = np.asarray(Image.open(top).convert("RGB")).astype(int)
    line = (img.min(axis=2) > 215).mean()  # the chalk of a line (a label's letters are a few pixels)
    assert line > 0.004, (name, line)


@pytest.mark.parametrize("name", ["dm_king_throw_win", "ws_king_throw_win"])
def test_a_king_throw_picture_frames_the_baton_and_the_whole_half(tmp_path, name):
    # the top view of a won king throw showed the king alone, filling the picture: neither the
    # baton that felled it nor B's half, whose kubbs all down make the throw a king throw
    from PIL import Image

    from kubb3d.library import resolve_scenario
    from kubb3d.scenario import build
    from kubb3d.viewer.still import render_views, situation_focus

    built = build(resolve_scenario(name))
    try:
        assert situation_focus(built.spec, built.snapshot) == ["king", "baton1", "B1", "B2", "B3", "B4", "B5"]
        top, _side = render_views(built, tmp_path, "s", size=(320, 240))
    finally:
        built.close()
    img = np.asarray(Image.open(top).convert("RGB")).astype(int)
    # columns a pitch line crosses from sideline to sideline (its chalk may be split over two)
    chalk = np.convolve((img.min(axis=2) > 215).mean(axis=0), np.ones(3), mode="same") > 0.4
    lines = np.count_nonzero(np.diff(chalk.astype(int)) == 1) + int(chalk[0])
    assert lines >= 2, lines  # the centre line by the king and B's baseline with its kubbs
