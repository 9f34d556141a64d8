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
        assert {"status", "rulings", "legend", "power", "last_throw"} <= set(panels)
        facts = app.session.segment.info["throw"]  # the free throw's last-throw panel
        assert facts["piece"] == "baton2" and facts["speed_mps"] == pytest.approx(
            float(np.linalg.norm(app.session.result.release.velocity)))
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


@pytest.fixture(scope="module", params=["dm", "kubbuteo"])
def short_replay(tmp_path_factory, request):
    """A short seeded match (4 turns) as a replay file: DM on the grass and Kubbuteo on its
    table-top board (whose cameras are scaled down to the board)."""
    from kubb3d.match import Match, MatchConfig

    path = tmp_path_factory.mktemp("replay") / f"{request.param}.jsonl"
    Match(MatchConfig(ruleset=request.param, seed=1, round_cap=4), replay=path).run()
    return path


def _covers(panel, rect, height) -> bool:
    """A HUD panel (x, y, w, h, bottom-left origin) over a piece's screen rectangle
    (x0, y0, x1, y1, top-left origin)."""
    x, y, w, h = panel
    x0, y0, x1, y1 = rect
    return x < x1 and x0 < x + w and (height - y - h) < y1 and y0 < (height - y)


@pytest.mark.parametrize("size", [(1280, 720), (960, 720)])
@pytest.mark.parametrize("camera", ["thrower", "orbit", "top"])
def test_replay_hud_covers_no_piece(short_replay, size, camera):
    """Issue 18: with labels on, no HUD panel lies over a kubb or the king, at 16:9 and 4:3, at
    every throw of a replay that has rulings and a last-throw panel to show (issue 34: in the
    orbit view, which the cameras of the fixed layout do not frame, a panel over a piece is
    drawn lighter, at FADED_ALPHA, and only such a panel)."""
    from kubb3d.viewer.replay import load_session

    w, h = size
    session = load_session(short_replay)
    app = App(session, w, h, headless=True, mode="view", camera=camera)
    try:
        tl = session.timeline
        tl.playing = False
        checked = 0
        for i, seg in enumerate(tl.segments):
            if not seg.rulings or "throw" not in seg.info:
                continue
            session.command(f"seek:{(float(tl.starts[i]) + seg.duration - 1e-3) / tl.duration}")
            app.frame(0.0)
            hud = session.hud(app.controller)
            assert hud.rulings and hud.last_throw
            rects, labels = app._marks
            assert labels and len(rects) >= 5
            for name, panel in app.overlay.panels.items():
                over = any(_covers(panel, rect, h) for rect in rects)
                assert over == (name in app.overlay.faded), (i, name, panel)
                assert not over or camera == "orbit", (i, name, panel)
            checked += 1
        assert checked >= 5
        assert {"status", "rulings", "last_throw", "legend"} <= set(app.overlay.panels)
        # the frame reads back at the window's size (it was saved as a PNG nobody looked at,
        # 40 % of the test's time; App.screenshot is run by tests/test_wrote_lines.py's `view
        # --screenshot` and the README pictures)
        assert app.pixels().shape == (h, w, 3)
    finally:
        app.close()


def test_labels_toggle_and_camera_reset():
    app = App(PlaySession(), 640, 360, headless=True, mode="play", camera="top")
    try:
        ctl = app.controller
        app.frame(0.0)
        assert ctl.show_labels and len(app._marks[1]) == 11  # ten kubbs and the king
        ctl.key_press("L")
        assert not ctl.show_labels
        ctl.key_press("2")  # from the top camera the orbit camera must not look straight down
        assert ctl.camera_mode == "orbit" and ctl.orbit.elevation < np.radians(60)
        start = (ctl.orbit.azimuth, ctl.orbit.elevation, ctl.orbit.distance)
        ctl.mouse_press(100, 100, "right")
        ctl.mouse_drag(300, 10, 200, -90, {"right"})
        assert (ctl.orbit.azimuth, ctl.orbit.elevation) != start[:2]
        ctl.key_press("0")
        assert (ctl.orbit.azimuth, ctl.orbit.elevation, ctl.orbit.distance) == start
    finally:
        app.close()


@pytest.mark.parametrize("camera", ["thrower", "top"])
def test_labels_of_adjacent_kubbs_do_not_overlap(camera):
    """Issue 18 (noticed): three field kubbs side by side and one lying against them; their
    drawn labels do not overlap and each stays over its own piece's column (its centre over
    the piece: issue 34 lets a label make room sideways too)."""
    from itertools import combinations

    session = PlaySession()
    sc = session.scene
    for i, pid in enumerate(("B1", "B2", "B3")):
        sc.pieces[pid].pose[:3] = (2.0, 0.09 * i, sc.pieces[pid].pose[2])
    sc.pieces["B4"].pose[:] = (2.0, 0.3, 0.035, 0.0, np.sin(np.pi / 4), 0.0, np.cos(np.pi / 4))
    app = App(session, 960, 720, headless=True, mode="play", camera=camera)
    try:
        app.frame(0.0)
        boxes = app.overlay.label_boxes
        assert {"B1", "B2", "B3", "B4", "king"} <= set(boxes)
        for (a, p), (b, q) in combinations(boxes.items(), 2):
            assert not (p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]), (a, p, b, q)
        # over its own piece: the label's centre over the piece's screen rectangle, give or take
        # half a label's height (the top view's kubbs are 7 px wide)
        rects = dict(zip((t for t, _, _ in app._marks[1]), app._marks[0]))
        tall = max(y1 - y0 for _, y0, _, y1 in boxes.values())
        for t, (x0, _, x1, _) in boxes.items():
            assert rects[t][0] - tall / 2 <= (x0 + x1) / 2 <= rects[t][2] + tall / 2, (t, (x0 + x1) / 2, rects[t])
    finally:
        app.close()



@pytest.mark.parametrize("camera", ["thrower", "top", "orbit"])
def test_a_clusters_labels_do_not_pile_into_the_baseline_labels(camera):
    """Issue 34: the labels of six field kubbs lying close together in front of baseline B were
    stacked straight up, past the baseline kubbs' labels, B4's pushed into the top panels. In
    a crowded scene no two label boxes overlap, each stays within four label heights above
    and two label widths beside its piece, and the labels of pieces away from the cluster
    keep their places."""
    import math

    from kubb3d.viewer.scene import PieceView

    session = PlaySession()
    sc = session.scene
    rng = np.random.default_rng(1)
    for i in range(6):  # 12 cm apart along the pitch, 10 cm across: an inkast's heap
        yaw = rng.uniform(0, math.pi)
        x, y = 2.6 + 0.12 * (i % 3), 0.5 + 0.1 * (i // 3) + 0.02 * i
        pose = (x, y, 0.075, 0, 0, math.sin(yaw / 2), math.cos(yaw / 2))
        sc.pieces[f"F{i + 1}"] = PieceView("kubb", np.array(pose))
    app = App(session, 1280, 720, headless=True, mode="play", camera=camera)
    try:
        app.frame(0.0)
        boxes = app.overlay.label_boxes
        anchors = {t: (x, y) for t, x, y in app._marks[1]}
        assert {f"F{i}" for i in range(1, 7)} | {"B3", "B4", "king"} <= set(boxes)
        for (a, p), (b, q) in combinations(boxes.items(), 2):
            assert not (p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]), (camera, a, p, b, q)
        tall = max(y1 - y0 for _, y0, _, y1 in boxes.values())
        wide = max(x1 - x0 for x0, _, x1, _ in boxes.values())
        for t, (x0, _, x1, y1) in boxes.items():
            ax, ay = anchors[t]
            assert ay - 4 * tall - 1e-6 <= y1 <= ay and abs((x0 + x1) / 2 - ax) <= 2 * wide, (camera, t)
        moved = {t for t, (x0, _, x1, y1) in boxes.items() if ((x0 + x1) / 2, y1) != pytest.approx(anchors[t])}
        assert {"A1", "A2", "A3", "A4", "A5", "B1", "king"}.isdisjoint(moved), moved
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1280, 720), (960, 720)])
@pytest.mark.parametrize("camera", ["thrower", "orbit", "top"])
def test_panels_stay_put_and_show_the_pieces_under_them(size, camera):
    """Issue 18 (noticed) had the power bar and the message move away from kubbs under them;
    issue 34 then found panels jumping between corners from throw to throw. The layout is
    fixed: kubbs moved under the power bar move no panel; the panel over them is marked (drawn
    as see-through as its text allows, :func:`test_a_panel_over_a_white_piece_keeps_its_text_readable`),
    the others are not; the power bar shows in every camera."""
    from kubb3d.viewer.camera import ground_point

    w, h = size
    session = PlaySession()
    session.message = "a message line that is about as long as the ones the match mode shows to a player"
    app = App(session, w, h, headless=True, mode="play", camera=camera)
    try:
        session.controls.charging, session.controls.power = True, 0.4
        app.frame(0.0)
        before = dict(app.overlay.panels)
        assert {"message", "power"} <= set(before)
        assert not app.overlay.faded or camera == "orbit"  # the cameras that frame the pitch for the HUD
        vp = app.camera.view_proj(w, h)
        x, y, pw, ph = before["power"]
        for pid, py in (("B1", h - y - ph / 2 + 10), ("B2", h - y - ph / 2 - 5)):
            p = ground_point(x + pw / 2, py, vp, w, h)
            session.scene.pieces[pid].pose[:2] = p[:2]
        app.frame(0.0)
        assert app.overlay.panels == before
        rects = dict(zip((t for t, _, _ in app._marks[1]), app._marks[0]))
        over = {name for name, box in before.items() if any(_covers(box, r, h) for r in rects.values())}
        assert "power" in over and app.overlay.faded == over
        session.scene.pieces["B1"].pose[:2] = session.scene.pieces["B2"].pose[:2] = (4.0, 9.0)  # away
        app.frame(0.0)
        assert "power" not in app.overlay.faded and app.overlay.panels == before
    finally:
        app.close()


def test_the_end_of_match_summary_covers_every_panel_under_it_and_fits_the_window():
    """Seen on a 800×600 window at the end of a match: the rulings panel's text showed through
    the summary (both panels' text in one drawing layer) and the summary's first line ran past
    the window's edge. The summary is modal: drawn opaque over everything, its lines wrapped to
    the window; what lies under it does not change a pixel of it."""
    from dataclasses import replace

    w, h = 800, 600
    session = PlaySession()
    base = session.hud
    long_line = "match over: you win: " + "a reason that is much longer than the window is wide " * 3
    summary = [long_line, "sets won: P1 0 – 0 P2    turns 3    clock 2:29", *["you threw 12 batons"] * 20,
               "R: rematch (a new seed)    ESC: quit"]
    rulings = [f"B{i}: fallen, counts as felled  [DM §5]" for i in range(1, 6)] + ["   a reason " * 6] * 12
    app = App(session, w, h, headless=True, mode="play", camera="thrower")
    try:
        shots = {}
        for name, extra in (("alone", {}), ("over_rulings", {"rulings": rulings})):
            session.hud = lambda ctl, extra=extra: replace(base(ctl), summary=summary, **extra)
            app.frame(0.0)
            shots[name] = (app.pixels(), dict(app.overlay.panels))
        (img0, p0), (img1, p1) = shots["alone"], shots["over_rulings"]
        x, y, pw, ph = p1["summary"]
        assert p0["summary"] == p1["summary"]
        assert 0 <= x and x + pw <= w and 0 <= y and y + ph <= h  # inside the window
        assert ph > 4 * int(font_size(w) * 1.55)  # the long line was wrapped onto more lines
        rx, ry, rw, rh = p1["rulings"]
        assert rx < x + pw and x < rx + rw and ry < y + ph and y < ry + rh  # the rulings lie under it
        inside = (slice(h - y - ph, h - y), slice(x, x + pw))
        assert np.array_equal(img0[inside], img1[inside])
    finally:
        app.close()


def _luminance(rgb) -> np.ndarray:
    """WCAG 2.1 relative luminance of sRGB levels 0–255 (last axis RGB)."""
    c = np.asarray(rgb, dtype=float)[..., :3] / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4) @ np.array((0.2126, 0.7152, 0.0722))


@pytest.mark.parametrize("camera", ["thrower", "orbit"])
def test_a_panel_over_a_white_piece_keeps_its_text_readable(camera, monkeypatch):
    """docs/images/after-throw.png showed the king through the throw's panel: a panel over a
    piece was drawn at an opacity of 40 of 255, and its white text over the white king could not
    be read. A white (standing) king is put under the throw's panel and the frame read back:
    where the king lies under the panel, the panel's background keeps WCAG 2.1's 4.5:1 contrast
    with the white text (success criterion 1.4.3, level AA); drawn at the old opacity, the same
    read-back gives less than 2:1."""
    from kubb3d.viewer import overlay
    from kubb3d.viewer.camera import ground_point

    w, h = 960, 540
    session = PlaySession()
    app = App(session, w, h, headless=True, mode="play", camera=camera)
    try:
        app.frame(0.0)
        x, y, pw, ph = app.overlay.panels["settings"]
        king = session.scene.pieces["king"]
        king.status = "standing"  # tinted white, as in a match
        king.pose[:2] = ground_point(x + pw / 2, h - y - ph / 4, app.camera.view_proj(w, h), w, h)[:2]
        app.frame(0.0, hud=False)
        scene = app.pixels().astype(float)
        rows, cols = slice(h - y - ph, h - y), slice(x, x + pw)  # the panel, top-left origin
        bright = _luminance(scene[rows, cols]) > 0.45  # the king under the panel
        assert bright.sum() >= 100, bright.sum()

        def contrast() -> float:
            app.frame(0.0)
            assert "settings" in app.overlay.faded and app.overlay.panels["settings"] == (x, y, pw, ph)
            background = np.median(app.pixels().astype(float)[rows, cols][bright], axis=0)  # text: the lesser part
            return 1.05 / (float(_luminance(background)) + 0.05)  # against white text, luminance 1

        assert contrast() >= 4.5
        monkeypatch.setattr(overlay, "FADED_ALPHA", 40)
        app.overlay._key = None  # rebuilt with the old opacity
        assert contrast() < 2.0
    finally:
        app.close()


def test_the_docs_give_the_panels_opacities_of_the_code():
    from kubb3d.viewer.overlay import FADED_ALPHA, PANEL_COLOR, TEXT_CONTRAST, contrast_ratio

    text = " ".join((ROOT / "docs" / "viewer.md").read_text(encoding="utf-8").split())
    assert f"`FADED_ALPHA`, {FADED_ALPHA} of 255 against {PANEL_COLOR[3]} elsewhere" in text
    assert f"keeps a contrast of {TEXT_CONTRAST:g}:1 over a white piece" in text
    # the least such opacity: one level less falls short (blended over white, as the GPU does)
    for alpha, ok in ((FADED_ALPHA, True), (FADED_ALPHA - 1, False)):
        a = alpha / 255
        under = a * np.array(PANEL_COLOR[:3]) + (1 - a) * 255.0
        assert (contrast_ratio((255, 255, 255), under) >= TEXT_CONTRAST) is ok


@pytest.mark.parametrize("name", ["dm_leaning_on_field_kubb", "dm_king_felled_early"])
def test_no_label_is_drawn_over_a_panel(name):
    """`kubb3d view dm_leaning_on_field_kubb --screenshot …` (orbit camera, 960×540) drew the
    labels B2, king and "OUT (behind baseline B)" over the rulings panel's text, which could not
    be read there. A label that would lie on a panel of the fixed layout is left out; every
    other label is drawn where the layout put it, so the labels drawn are exactly those laid
    out off the panels."""
    w, h = 960, 540
    session = scenario_session(ROOT / "scenarios" / f"{name}.toml")
    app = App(session, w, h, headless=True, mode="view", camera="orbit")
    try:
        session.timeline.playing = False
        session.command("seek:1.0")  # the end, as the screenshot shows it
        app.frame(0.0)
        ov = app.overlay
        panels = [p for n, p in ov.panels.items() if n not in ("help", "summary", "rulings_list")]
        _, labels = app._marks
        drawn = {text for text, pair in ov._label_pool.items() if pair[1].visible}
        assert drawn == set(ov.label_boxes) and drawn <= {text for text, _, _ in labels}
        for text, box in ov.label_boxes.items():
            assert not any(_covers(p, box, h) for p in panels), text
        left_out = {text for text, _, _ in labels} - drawn
        assert left_out, "this view has labels under the rulings panel (the case of the bug)"
        assert {"A1", "king"} & drawn  # the pieces of the situation keep theirs
    finally:
        app.close()


@pytest.mark.parametrize("size", [(960, 540), (1280, 720), (960, 720)])
def test_the_orbit_start_view_of_play_keeps_the_king_and_the_far_half_clear_of_the_panels(size):
    # README's after-throw picture (play --after 2 --seed 1 --camera orbit, 960 × 540) had the
    # king under the throw settings: the orbit camera's start view in play mode now stands back
    # until the king and the far baseline lie between the HUD's rows (camera.fit_in_band)
    w, h = size
    session = PlaySession()
    app = App(session, w, h, headless=True, mode="play", camera="orbit")
    try:
        scripted_throws(session, 2, np.random.default_rng(1))
        app.frame(0.0)
        rects, labels = app._marks
        marked = {str(name): rect for (name, _, _), rect in zip(labels, rects)}
        assert {"king", "B1", "B2", "B3", "B4", "B5"} <= set(marked), sorted(marked)
        assert {"settings", "power", "last_throw", "rulings", "status"} <= set(app.overlay.panels)
        for pid in ("king", "B1", "B2", "B3", "B4", "B5"):
            covered = [n for n, panel in app.overlay.panels.items() if _covers(panel, marked[pid], h)]
            assert covered == [], (pid, covered)
        assert not app.overlay.faded
    finally:
        app.close()


@pytest.mark.parametrize("size", [(960, 540), (1280, 720)])
def test_the_red_banners_leave_the_far_baselines_kubbs_and_labels_clear(size):
    """A user's report: at 960×540 the tilt warning (and the ILLEGAL banners) covered B1–B5
    on the far baseline in the thrower's view, and at 1280×720 hid their labels. With two
    banners up (a tilt past DM §5's 30° and a release past the line), the banners' rectangle
    meets no piece's and no label's rectangle, every piece keeps its label, and the banners do
    not cover the other panels; in the top view, whose top band is free of the pitch, they stay
    under the message."""
    from pyglet.window import key

    w, h = size
    app = App(PlaySession(), w, h, headless=True, mode="play", camera="thrower")
    try:
        app.frame(0.0)
        for _ in range(7):  # 35°
            app.on_key_press(key.X, 0)
        for _ in range(30):  # the release past the throwing line
            app.on_key_press(key.W, 0)
        app.frame(0.0)
        flags = app.last_hud.flags
        assert len(flags) == 2 and flags[0].startswith("WARNING (DM §5): tilt 35°")
        assert "past the throwing line" in flags[1]
        panels = app.overlay.panels
        banner = panels["flags"]
        rects, labels = app._marks
        names = {text for text, _, _ in labels}
        assert {"B1", "B2", "B3", "B4", "B5", "king"} <= names
        assert set(app.overlay.label_boxes) == names  # every label drawn, none left out under a panel
        for rect in rects:
            assert not _covers(banner, rect, h), (banner, rect)
        for text, box in app.overlay.label_boxes.items():
            assert not _covers(banner, box, h), (text, banner, box)
        for name, (x, y, pw, ph) in panels.items():
            assert name == "flags" or not _overlap(banner, (x, y, pw, ph)), (name, banner)
        assert "flags" not in app.overlay.faded
        app.controller.set_camera("top")
        app.frame(0.0)
        (_, y, _, ph), (_, my, _, _) = app.overlay.panels["flags"], app.overlay.panels["message"]
        assert y + ph == my - 2  # just under the message, top centre
        for rect in app._marks[0]:
            assert not _covers(app.overlay.panels["flags"], rect, h)
    finally:
        app.close()


@pytest.fixture(scope="module")
def after_an_illegal_throw():
    """A free throw tilted 40° (illegal, DM §5) at rest, then the next throw prepared tilted
    40° and past the line: three banners up (the throw's ILLEGAL, two WARNINGs) and a long
    reason in the rulings panel. One app, resized by each test."""
    from dataclasses import replace

    from pyglet.window import key

    session = PlaySession()
    app = App(session, 1280, 720, headless=True, mode="play", camera="thrower")
    try:
        app.frame(0.0)
        assert not session.throw(replace(session.controls.params(speed=11.0), tilt_deg=40.0)).legal
        session.skip()
        for _ in range(8):  # 40°
            app.on_key_press(key.X, 0)
        for _ in range(3):  # past the line
            app.on_key_press(key.W, 0)
        yield app
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (800, 600)])
def test_the_banners_after_an_illegal_throw_leave_the_far_baseline_clear(after_an_illegal_throw, size):
    """A player's report: after an illegal throw, its ILLEGAL banner and the next throw's
    warnings stacked top centre hid B1–B5 and the king with their labels (the targets),
    because the bottom centre was not clear either (it covers part of the thrower's own
    baseline). The banners go where they cover fewer pieces: the far baseline, the king and
    their labels stay clear and drawn."""
    app = after_an_illegal_throw
    w, h = size
    app.on_resize(w, h)
    app.frame(0.0)
    assert len(app.last_hud.flags) == 3 and app.last_hud.flags[0].startswith("ILLEGAL (DM §5)")
    banner = app.overlay.panels["flags"]
    rects, labels = app._marks
    far = {"B1", "B2", "B3", "B4", "B5", "king"}
    marked = {str(name): rect for (name, _, _), rect in zip(labels, rects)}
    assert far <= set(marked) and far <= set(app.overlay.label_boxes)
    for pid in sorted(far):
        assert not _covers(banner, marked[pid], h), (pid, banner, marked[pid])
        assert not _covers(banner, app.overlay.label_boxes[pid], h), (pid, banner)


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_a_reason_in_the_rulings_panel_is_wrapped_once(after_an_illegal_throw, size):
    """At 800×600 the rulings panel showed "B3 fell to an illegal throw (the baton" / "tilted"
    / "40° out of …": the reason, wrapped to 48 characters first, was wrapped again to the
    panel's width in px. Every line of a reason but its last is full: the next line's first
    word would not have fit on it, unless the line ends after a comma (wrap_text's choice)."""
    app = after_an_illegal_throw
    w, h = size
    app.on_resize(w, h)
    app.frame(0.0)
    x, y, pw, ph = app.overlay.panels["rulings"]
    inner = pw - 2 * max(4, font_size(w) * 2 // 3)
    dim = (200, 210, 220, 255)
    texts = [lab for lab in app.overlay._items if isinstance(lab, pyglet.text.Label)]
    inside = [lab for lab in texts if x <= lab.x < x + pw and y <= lab.y < y + ph]
    labs = sorted(inside, key=lambda lab: -lab.y)
    reason = [lab for lab in labs if tuple(lab.color) == dim]
    assert len(reason) >= 2 and "illegal throw" in reason[0].text  # the long reason, on more than one line
    for a, b in zip(labs, labs[1:]):
        if tuple(a.color) == dim and tuple(b.color) == dim and not a.text.rstrip().endswith(","):
            more = a.text.rstrip() + " " + b.text.split()[0]
            joined = pyglet.text.Label(more, font_size=a.font_size, font_name="DejaVu Sans")
            assert joined.content_width > inner, (a.text, b.text)
            joined.delete()


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_the_throw_being_prepared_leaves_the_throwers_own_baseline_clear(after_an_illegal_throw, size):
    """A player's report: at 800×600, with a last-throw card up, the throw being prepared and
    the power bar stood above the bottom row (the bar did not fit between the legend and the
    card) and hid A2–A4 on the thrower's own baseline and the release point's mark (a match's
    card has two more lines, so the raised panels stood higher than here). A shorter bar keeps
    them in the row, the bar's panel on the row's bottom edge beside the legend: neither panel
    covers a baseline kubb of the thrower or the mark."""
    app = after_an_illegal_throw
    w, h = size
    app.on_resize(w, h)
    app.frame(0.0)
    panels = app.overlay.panels
    assert "last_throw" in panels and "legend" in panels
    assert panels["power"][1] == panels["legend"][1], (panels["power"], panels["legend"])
    rects, labels = app._marks
    own = {str(name): rect for (name, _, _), rect in zip(labels, rects) if str(name).startswith("A")}
    assert set(own) == {"A1", "A2", "A3", "A4", "A5"}
    (mx, my), = project(app.session.scene.release_point[None, :], app.camera.view_proj(w, h), w, h)[0]
    mark = (mx - 10, my - 10, mx + 10, my + 10)  # the cross drawn at the release point
    for name in ("settings", "power"):
        for pid, rect in [*own.items(), ("release point", mark)]:
            assert not _covers(panels[name], rect, h), (name, pid, panels[name], rect)
