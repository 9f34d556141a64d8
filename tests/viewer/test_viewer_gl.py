"""Headless OpenGL rendering (EGL): pieces are drawn where the world says they are, handlers
driven by synthetic pyglet events, and replays played to their end."""

import json

import numpy as np
import pytest

from kubb3d.viewer.app import App, PlaySession, ReplaySession, load_pyglet, scripted_throws
from kubb3d.viewer.camera import project

pyglet = load_pyglet(headless=True)
W, H = 640, 360


def _pixel(img, p):
    x, y = int(round(p[0])), int(round(p[1]))
    return img[y, x].astype(int)


def _wood(rgb) -> bool:
    r, g, b = rgb
    return r > g > b and r - b > 20  # grass has g > r, sky b > r


def _grass(rgb) -> bool:
    r, g, b = rgb
    return g > r + 15 and g > b + 15


@pytest.fixture(scope="module")
def app():
    a = App(PlaySession(), W, H, headless=True, mode="play", camera="thrower")
    yield a
    a.close()


def test_start_position_pieces_where_the_world_says(app, tmp_path):
    app.frame(0.0, hud=False)
    img = app.pixels()
    assert img.shape == (H, W, 3)
    vp = app.camera.view_proj(W, H)
    world = app.session.world
    checked = 0
    for pid in [*world.piece_ids("kubb"), "king"]:
        pos, _ = world.pose(pid)
        top = np.array(pos) + (0, 0, 0.2 * world.equipment.kubb.height)
        (px,), (vis,) = project(top, vp, W, H)
        assert vis, pid
        assert _wood(_pixel(img, px)), (pid, _pixel(img, px))
        checked += 1
    assert checked == 11
    # bare grass beside the king, and the painted centre line
    (px,), _ = project((0.6, 0.6, 0.0), vp, W, H)
    assert _grass(_pixel(img, px))
    (px,), _ = project((0.0, 1.2, 0.0), vp, W, H)  # 3 cm wide, about a pixel: the brightest row of three
    assert max((_pixel(img, px + (0, dy)) > 200).all() for dy in (-1, 0, 1))
    # the HUD darkens its status panel (wherever it covers no piece) and writes white text in it
    app.frame(0.0)
    with_hud = app.pixels()
    x, y, w, h = app.overlay.panels["status"]
    panel = (slice(H - y - h + 2, H - y - 2), slice(x + 2, x + w - 2))
    assert with_hud[panel].mean() < img[panel].mean() - 20
    assert (with_hud[panel] > 230).all(axis=2).sum() > 50
    out = app.screenshot(tmp_path / "start.png")
    assert out.stat().st_size > 20_000


def test_after_a_throw_statuses_are_tinted(app):
    s = app.session
    s.new_round()
    results = scripted_throws(s, 2, np.random.default_rng(1))
    assert s.judgement is not None
    ctl = app.controller
    ctl.set_camera("orbit")
    ctl.orbit.target = np.array((3.6, 0.0, 0.0))
    ctl.orbit.distance, ctl.orbit.elevation, ctl.orbit.azimuth = 4.5, np.radians(55), np.radians(180)
    app.frame(0.0, hud=False)
    img = app.pixels()
    vp = app.camera.view_proj(W, H)
    seen = 0
    for r in s.judgement.rulings:
        p = s.scene.pieces[r.piece]
        (px,), (vis,) = project(p.pose[:3], vp, W, H)
        if not vis:
            continue
        rgb = _pixel(img, px)
        if p.status == "standing":
            # near white: bright and grey, unlike wood (r − b ≈ 60–90) and grass (dark, green)
            assert rgb.min() > 170 and int(rgb.max()) - int(rgb.min()) < 40, (r.piece, rgb)
            seen += 1
        elif p.status == "fallen":
            assert rgb[0] - rgb[1] > 90, (r.piece, rgb)  # plain wood: r − g ≈ 40–60
            seen += 1
    assert seen >= 4
    # the thrown batons lie where the final snapshot says
    for res in results:
        b = res.final[res.piece]
        assert np.allclose(s.scene.pieces[res.piece].pose[:3], b.position)


def test_handlers_with_synthetic_events_throw_and_flag_tilt(app):
    from pyglet.window import key, mouse

    s = app.session
    s.new_round()
    ctl = app.controller
    ctl.set_camera("thrower")
    e0 = ctl.throw.elevation_deg
    app.on_key_press(key.UP, 0)
    assert ctl.throw.elevation_deg == e0 + 1
    for _ in range(9):
        app.on_key_press(key.X, 0)  # tilt 45°: more than DM §5 allows
    assert ctl.throw.tilt_deg == 45
    app.frame(0.0)
    # point at B3 and hold the left button for 0.9 s
    (px,), _ = project((4.0, 0.0, 0.0), app.camera.view_proj(W, H), W, H)
    app.on_mouse_motion(px[0], H - px[1], 0, 0)
    now = [50.0]
    ctl.throw.clock = lambda: now[0]
    app.on_mouse_press(px[0], H - px[1], mouse.LEFT, 0)
    now[0] += 0.9
    app.frame(0.9)
    assert ctl.throw.power == pytest.approx(0.9 / 1.6)
    app.on_mouse_release(px[0], H - px[1], mouse.LEFT, 0)
    app.frame(0.0)
    assert s.thrown == 1 and s.result is not None
    assert any(v.rule == "DM §5" and "tilt" in v.reason for v in s.result.violations)
    hud = s.hud(ctl)
    assert any(f.startswith("ILLEGAL (DM §5)") for f in hud.flags)
    assert s.busy  # playing back in real time
    app.on_key_press(key.N, 0)  # skip to rest
    app.frame(0.0)
    assert not s.busy and hud.power_label


def test_replay_played_to_its_end_shows_the_files_final_poses(tmp_path):
    from kubb3d.match import Match, MatchConfig
    from kubb3d.viewer.replay import load_session

    path = tmp_path / "m.jsonl"
    m = Match(MatchConfig(skills=("elite", "elite"), seed=5), replay=path)
    m.run(max_actions=9)
    m.close()
    expected = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec["type"] == "world":
            expected.update({k: np.array(v) for k, v in rec["poses"].items()})
        elif rec["type"] == "action":
            for th in rec.get("throws") or []:
                expected.update({k: np.array(v[-1]) for k, v in th["trajectory"]["poses"].items()})
            valid = (rec.get("outcome") or {}).get("valid")
            if isinstance(valid, dict):
                expected.update({k: np.array((*p["position_m"], *p["quat_xyzw"])) for k, p in valid.items()})
            # pieces the match moved besides the trajectories (a kubb woken at rest for the
            # contact forces that settled 0.1 mm): the file's ``after`` poses
            expected.update({k: np.array(v) for k, v in ((rec.get("after") or {}).get("poses") or {}).items()})
    session = load_session(path)
    assert isinstance(session, ReplaySession)
    tl = session.timeline
    while tl.playing:
        session.update(1.0)
    final = tl.final_poses()
    for pid, pose in expected.items():
        if pid.startswith("baton") and pid in session.scene.hidden:
            continue
        assert np.allclose(final[pid], pose, atol=1e-9), pid
    assert all(np.allclose(session.scene.pieces[pid].pose, final[pid]) for pid in final if pid in session.scene.pieces)
    a = App(session, W, H, headless=True, mode="view", camera="top")
    try:
        a.frame(0.0, hud=False)
        img = a.pixels()
        vp = a.camera.view_proj(W, H)
        (px,), (vis,) = project(final["king"][:3], vp, W, H)
        assert vis
        rgb = _pixel(img, px)
        grass = _pixel(img, px + (40, 0))
        if session.scene.pieces["king"].status == "standing":  # its sunlit top, lighter than grass
            assert rgb.sum() > grass.sum() + 100, (rgb, grass)
        else:
            assert _wood(rgb), rgb
    finally:
        a.close()


def test_quiz_views_come_from_the_3d_renderer(tmp_path):
    """Issue 18, item 5: the quiz's top and side views are drawn by the 3D view's renderer
    (sky on the side view's horizon, grass, the pieces labelled), not PyBullet's TinyRenderer."""
    from PIL import Image

    from kubb3d.library import resolve_scenario
    from kubb3d.scenario import run
    from kubb3d.viewer.still import render_views

    res, built = run(resolve_scenario("dm_baseline_kubb_felled_early"), keep_world=True)
    try:
        top, side = render_views(built, tmp_path, "s", size=(320, 240))
    finally:
        built.close()
    side_img = np.asarray(Image.open(side).convert("RGB")).astype(int)
    top_img = np.asarray(Image.open(top).convert("RGB")).astype(int)
    assert side_img.shape == top_img.shape == (240, 320, 3)
    sky, ground = side_img[:20].reshape(-1, 3).mean(axis=0), side_img[-20:].reshape(-1, 3).mean(axis=0)
    # the near ground (the pitch; behind the baseline the outside of the pitch is veiled)
    assert sky[2] > sky[1] > sky[0] and ground[1] > ground[2] + 20
    seen = (top_img[:, :, 1] > top_img[:, :, 0] + 20) | (top_img[:, :, 0] > top_img[:, :, 2] + 20)
    assert seen.mean() > 0.8  # grass (or veiled grass) seen from above
    # the labels: light text (as drawn over pieces) that plain grass and wood never have
    assert ((top_img > 235).all(axis=2)).sum() > 30


def test_the_window_labels_the_king_and_the_areas_in_its_language():
    # issue 34: a German window wrote "king" over the king and "OUT (behind baseline A)" on the grass
    from kubb3d.i18n import translator
    from kubb3d.library import scenarios_dir
    from kubb3d.viewer.app import scenario_session

    session = scenario_session(scenarios_dir() / "dm_leaning_on_king.toml")
    session.tr = translator("de")
    a = App(session, W, H, headless=True, mode="view", camera="orbit")
    try:
        a.frame(0.0)
        labels = {text for text, _, _ in a.last_hud.labels}
        assert "König" in labels and "king" not in labels and "A1" in labels
        assert any(text.startswith("AUS (") for text in labels) and not any("OUT" in text for text in labels)
        assert a.last_hud.title.startswith("kubb3d-Ansicht: ") and "Ereignis Wurf" in " ".join(a.last_hud.lines)
    finally:
        a.close()
