"""Issue 18 item 2: the Kubbuteo set in the 3D view: the table-top board with its baselines and
centre point (KT "Equipment"), the table and the floor, the disks and the mushroom king at
their sizes, cameras scaled to the board."""

import numpy as np
import pytest

from kubb3d.equipment import INCH, KUBBUTEO
from kubb3d.pitch import Pitch
from kubb3d.viewer.camera import project, thrower_camera, top_camera, view_scale
from kubb3d.viewer.scene import Scene

BOARD = Pitch(KUBBUTEO.board.length, KUBBUTEO.board.width, KUBBUTEO.baseline_inset)
W, H = 1280, 720


def test_view_scale_shrinks_only_a_table_top():
    assert view_scale(Pitch()) == 1.0 and view_scale(Pitch(7.5, 5.0)) == 1.0
    assert view_scale(BOARD) == pytest.approx(48 * INCH / 8.0)  # 0.1524


def test_board_markings_are_the_kt_baselines_and_centre_point():
    segs = Scene(BOARD, "kubbuteo").line_segments()
    xs = sorted({round(a[0], 6) for a, b, _ in segs if a[0] == b[0] and abs(a[1] - b[1]) > 0.5})
    x = 24 * INCH - 3.5 * INCH  # 3.5 in inside the ends of the 4 ft board
    assert xs == [round(-x, 6), round(x, 6)]
    cross = [s for s in segs if max(abs(v) for v in (*s[0], *s[1])) < 0.05]
    assert len(cross) == 2  # the centre point
    assert all(w < 0.01 for *_, w in segs)
    # the field keeps its boundary and centre line, 3 cm wide
    assert len(Scene(Pitch(), "standard").line_segments()) == 5


def test_cameras_frame_the_board():
    pitch = BOARD
    assert pitch.baseline_inset == pytest.approx(3.5 * INCH)
    vp = top_camera(pitch, W / H).view_proj(W, H)
    corners = [(sx * pitch.length / 2, sy * pitch.half_width, 0.0) for sx in (-1, 1) for sy in (-1, 1)]
    px, vis = project(corners, vp, W, H)
    assert vis.all() and np.ptp(px[:, 0]) > 0.4 * W  # the board, not a speck in a field view
    cam = thrower_camera(pitch, "A")
    assert 0.2 < cam.eye[2] < 0.5 and cam.near < 0.02
    far = [(pitch.baseline_x("B"), y, 0.015) for _, y in pitch.baseline_kubb_positions("B").values()]
    px, vis = project([(pitch.baseline_x("A"), 0.0, 0.0), *[p for p in far]], cam.view_proj(W, H), W, H)
    assert vis.all() and px[0, 1] > px[1:, 1].max()


def test_a_replay_header_without_the_inset_gets_the_sets():
    from kubb3d.viewer.replay import TimelineBuilder

    b = TimelineBuilder({"equipment": "kubbuteo", "pitch": {"length": 48 * INCH, "width": 24 * INCH}})
    assert b.pitch.baseline_x("A") == pytest.approx(-(24 - 3.5) * INCH)
    assert b.pitch.baseline_kubb_positions("B")["B3"][0] == pytest.approx((24 - 3.5) * INCH)


@pytest.mark.gl
def test_kubbuteo_replay_drawn_on_its_board(tmp_path):
    """The pieces are drawn where the replay says, the board is wood with its dark baselines,
    the floor shows beyond the board's edge, and a screenshot is written."""
    from kubb3d.match import Match, MatchConfig
    from kubb3d.viewer.app import App, load_pyglet
    from kubb3d.viewer.replay import load_session

    load_pyglet(headless=True)
    path = tmp_path / "kt.jsonl"
    Match(MatchConfig(ruleset="kubbuteo", seed=1, round_cap=3), replay=path).run()
    session = load_session(path)
    session.command("home")
    app = App(session, 640, 360, headless=True, mode="view", camera="top")
    try:
        app.frame(0.0, hud=False)
        app.frame(0.0, hud=False)
        img = app.pixels().astype(int)
        vp = app.camera.view_proj(640, 360)
        scene = session.scene
        for pid in ("A1", "A5", "B3", "king"):
            pose = scene.pieces[pid].pose
            (px,), (vis,) = project(pose[:3] + (0, 0, 0.01), vp, 640, 360)
            r, g, b = img[int(px[1]), int(px[0])]
            assert vis and r > g > b, (pid, (r, g, b))  # wood
        board = project((0.25, 0.1, 0.0), vp, 640, 360)[0][0]
        line = project((session.scene.pitch.baseline_x("A"), 0.06, 0.0), vp, 640, 360)[0][0]
        floor = project((0.0, 0.6, -0.75), vp, 640, 360)[0][0]
        wood, ink, tile = (img[int(p[1]), int(p[0])] for p in (board, line, floor))
        assert wood.sum() > ink.sum() + 150  # dark baseline on the pale board
        assert wood[0] > wood[2] + 40 and abs(int(tile[0]) - int(tile[2])) < 60 and tile.sum() < wood.sum()
        # the king's sun shadow falls on the board (a bug: the table drawn under the board had
        # marked the board's pixels as not to be shadowed)
        from kubb3d.viewer.render import SUN_DIRECTION

        king = scene.pieces["king"].pose[:3]
        shade = np.array((king[0], king[1], 0.0)) - SUN_DIRECTION * (0.02 / SUN_DIRECTION[2])
        sunny = np.array((king[0], king[1], 0.0)) + SUN_DIRECTION * (0.04 / SUN_DIRECTION[2])
        (a, b), _ = project(np.array([(shade[0], shade[1], 0.0), (sunny[0], sunny[1], 0.0)]), vp, 640, 360)
        assert img[int(a[1]), int(a[0])].sum() < img[int(b[1]), int(b[0])].sum() - 120
        assert app.screenshot(tmp_path / "kt.png").stat().st_size > 10_000
    finally:
        app.close()


def test_no_label_over_the_board_for_a_disk_on_the_floor_behind_it():
    """A knocked disk lies on the floor beyond the board's end where the match lays it (KT
    rules: the playing area is kept clear); seen through the table top its label floated over
    the board (a bug). It keeps its label where the floor beside the board is in view."""
    from kubb3d.viewer.app import behind_board, piece_marks
    from kubb3d.viewer.scene import PieceView

    length, width = KUBBUTEO.board.length, KUBBUTEO.board.width
    floor_z = -KUBBUTEO.board.table_height + 0.004
    beyond_b, under = (length / 2 + 0.08, 0.0, floor_z), (0.0, 0.0, floor_z)
    low = thrower_camera(BOARD, "A").view_proj(W, H)
    top = top_camera(BOARD, W / H).view_proj(W, H)
    assert behind_board(beyond_b, low, length, width) and behind_board(under, top, length, width)
    assert not behind_board(beyond_b, top, length, width) and not behind_board((0.3, 0.0, 0.004), low, length, width)
    scene = Scene(BOARD, "kubbuteo")
    scene.pieces["B4"] = PieceView("kubb", np.array((*beyond_b, 0.0, 0.0, 0.0, 1.0)), side="B")
    on_line = (length / 2 - 3.5 * INCH, 0.0, 0.004)
    scene.pieces["B3"] = PieceView("kubb", np.array((*on_line, 0.0, 0.0, 0.0, 1.0)), side="B")
    assert [pid for pid, *_ in piece_marks(scene, low, W, H)[1]] == ["B3"]
    assert [pid for pid, *_ in piece_marks(scene, top, W, H)[1]] == ["B3", "B4"]
