"""Viewer logic without OpenGL: cameras, throwing controls, playback, replay files."""

import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from kubb3d.pitch import Pitch
from kubb3d.viewer.camera import OrbitCamera, ground_point, project, thrower_camera, top_camera
from kubb3d.viewer.controls import (
    CHARGE_TIME, COMPUTER_RATE, SLOW_MOTION, SPEED_MAX, SPEED_MIN, Controller, ThrowControls,
)
from kubb3d.viewer.replay import ReplayError, load_replay
from kubb3d.viewer.scene import Segment, Timeline, sample_trajectory

PITCH = Pitch()
W, H = 1280, 720


def test_projection_round_trip_and_top_view_sees_the_corners():
    cam = thrower_camera(PITCH)
    vp = cam.view_proj(W, H)
    px, vis = project(cam.target, vp, W, H)
    assert vis[0] and np.allclose(px[0], (W / 2, H / 2), atol=1e-6)
    p = ground_point(300.0, 500.0, vp, W, H)
    back, _ = project(p, vp, W, H)
    assert np.allclose(back[0], (300.0, 500.0), atol=1e-6)
    corners = [(sx * PITCH.length / 2, sy * PITCH.half_width, 0.0) for sx in (-1, 1) for sy in (-1, 1)]
    px, vis = project(corners, top_camera(PITCH, W / H).view_proj(W, H), W, H)
    assert vis.all()
    # x (A → B) runs to the right, +y up in the image
    assert px[2, 0] > px[0, 0] and px[1, 1] < px[0, 1]


def test_thrower_view_sees_release_point_and_far_baseline():
    cam = thrower_camera(PITCH, "A")
    vp = cam.view_proj(W, H)
    pts = [(-4.0, 0.0, 0.0), *[(4.0, y, 0.075) for _, y in PITCH.baseline_kubb_positions("B").values()]]
    px, vis = project(pts, vp, W, H)
    assert vis.all()
    assert px[0, 1] > px[1, 1]  # the near line is lower in the picture


def test_orbit_clamps():
    o = OrbitCamera()
    o.orbit(0.0, 10.0)
    assert o.elevation == OrbitCamera.MAX_ELEVATION
    o.zoom(1e6)
    assert o.distance == OrbitCamera.MAX_DISTANCE
    t0 = o.target.copy()
    o.pan(1.0, 0.0)
    assert math.isclose(np.linalg.norm(o.target - t0), 1.0)


def test_keys_change_the_throw():
    c = Controller(PITCH)
    t = c.throw
    c.key_press("UP")
    c.key_press("UP", shift=True)
    assert t.elevation_deg == 26.0
    c.key_press("E")
    c.key_press("Z")
    assert t.spin_rps == 1.75 and t.tilt_deg == -5.0
    c.key_press("H")
    assert t.params(speed=9.0).helicopter_rps > 0
    for _ in range(40):
        c.key_press("LEFT")  # to side A's left: +y, stops at the sideline
    assert t.lateral == PITCH.half_width
    c.key_press("W"), c.key_press("W")
    assert t.behind_line == pytest.approx(-0.05)  # past the line: a foot fault
    c.key_press("3")
    assert c.camera_mode == "top"
    c.key_press("M")
    assert c.time_scale == 0.25
    assert c.key_press("ESCAPE") == "quit"


class FakeClock:
    """A clock the test moves by hand, s."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_power_bar_hold_and_release():
    clock = FakeClock()
    c = Controller(PITCH, throw=ThrowControls(PITCH, clock=clock))
    assert c.key_press("SPACE") == "charge"
    clock.now += CHARGE_TIME / 2
    c.throw.update()
    assert c.throw.power == pytest.approx(0.5)
    assert c.key_release("SPACE") == "throw"
    p = c.throw.release()
    assert p.speed == pytest.approx((SPEED_MIN + SPEED_MAX) / 2)
    assert c.throw.power == 0 and not c.throw.charging and c.throw.last_power == pytest.approx(0.5)
    c.busy = True
    assert c.key_press("SPACE") is None  # no new throw during playback


def test_power_is_the_time_held_whatever_the_frames():
    """Issue 34: the charge added each frame's time capped at 0.1 s, so a stalled frame lost
    power (identical 0.95 s holds gave 7.4–7.7 m/s and once 3.9 m/s). The power is the time
    held by the clock: however the frames fall, a 0.95 s hold gives the same speed."""
    speeds = []
    for frames in ([0.95], [0.016] * 30 + [0.47], [0.5, 0.05, 0.4]):
        clock = FakeClock()
        c = Controller(PITCH, throw=ThrowControls(PITCH, clock=clock))
        c.key_press("SPACE")
        for dt in frames:
            clock.now += dt
            c.throw.update()
        c.key_release("SPACE")
        speeds.append(c.throw.release().speed)
    want = SPEED_MIN + 0.95 / CHARGE_TIME * (SPEED_MAX - SPEED_MIN)
    assert speeds == pytest.approx([want] * 3, abs=1e-9)


def test_a_charge_is_cancelled_and_escape_asks_before_leaving_a_match():
    clock = FakeClock()
    c = Controller(PITCH, throw=ThrowControls(PITCH, clock=clock))
    assert c.mouse_press(W / 2, H / 2, "left") == "charge"
    clock.now += 0.8
    assert c.mouse_press(W / 2, H / 2, "right") == "cancel"  # the right button drops the charge
    assert not c.throw.charging and c.throw.power == 0.0
    assert c.mouse_release(W / 2, H / 2, "left") is None  # nothing thrown
    c.key_press("SPACE")
    assert c.key_press("ESCAPE") == "cancel" and c.key_release("SPACE") is None  # so does ESC
    assert c.key_press("ESCAPE") == "quit"  # no match: ESC quits
    c.confirm_quit = True  # a match still on: ESC asks first, any other key goes on
    assert c.key_press("ESCAPE") == "ask-quit" and c.quit_asked
    c.key_press("UP")
    assert not c.quit_asked and c.key_press("ESCAPE") == "ask-quit"
    assert c.key_press("ESCAPE") == "quit"


def test_computer_throws_play_faster_and_slow_motion_is_for_the_persons_throws():
    c = Controller(PITCH)
    assert (c.rate(False), c.rate(True)) == (1.0, COMPUTER_RATE) and COMPUTER_RATE >= 2.0
    c.key_press("M")
    assert (c.rate(False), c.rate(True)) == (SLOW_MOTION, COMPUTER_RATE)
    c.key_press("M", shift=True)  # SHIFT+M: every throw in slow motion
    assert (c.rate(False), c.rate(True)) == (SLOW_MOTION, SLOW_MOTION)
    c.key_press("M", shift=True)
    c.key_press("P")
    assert (c.rate(False), c.rate(True)) == (0.0, 0.0)


def test_mouse_aims_at_the_pointed_kubb():
    c = Controller(PITCH)
    cam = c.camera()
    target = (4.0, PITCH.baseline_kubb_positions("B")["B2"][1], 0.0)
    px, _ = project(target, cam.view_proj(W, H), W, H)
    c.mouse_motion(*px[0])
    r = c.throw.release_point()
    assert c.throw.azimuth_deg == pytest.approx(math.degrees(math.atan2(target[1] - r[1], target[0] - r[0])), abs=1e-6)
    assert c.mouse_press(*px[0], "left") == "charge"
    assert c.mouse_release(*px[0], "left") == "throw"
    c.mouse_drag(10, 10, 30, 0, {"right"})
    assert c.camera_mode == "orbit"
    d0 = c.orbit.distance
    c.mouse_scroll(0, 0, 1)
    assert c.orbit.distance < d0


def test_view_mode_commands_and_timeline_click():
    c = Controller(PITCH, mode="view")
    assert c.key_press("SPACE") == "playpause"
    assert c.key_press("RIGHT") == "next"
    assert c.mouse_press(W / 4, H - 5, "left") == "seek:0.25"


def _segment(label, x0, x1):
    times = np.array((0.0, 0.5, 1.0))
    traj = np.array([(x, 0.0, 0.5, 0, 0, 0, 1.0) for x in np.linspace(x0, x1, 3)])
    return Segment(label, {"baton1": traj[0]}, times, {"baton1": traj}, thrown="baton1")


def test_playback_interpolates_and_steps():
    seg = _segment("one", 0.0, 2.0)
    assert sample_trajectory(seg.times, seg.poses["baton1"], 0.25)[0] == pytest.approx(0.5)
    tl = Timeline([seg, _segment("two", 2.0, 4.0)])
    tl.advance(0.75)
    assert tl.poses_at()["baton1"][0] == pytest.approx(1.5)
    tl.next_throw()
    assert tl.locate()[0] == 1
    tl.advance(100.0)
    assert not tl.playing and tl.final_poses()["baton1"][0] == pytest.approx(4.0)
    assert seg.trace(0.75).shape[1] == 3


def test_replay_file_errors(tmp_path):
    with pytest.raises(ReplayError, match="cannot read"):
        load_replay(tmp_path / "missing.jsonl")
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"type": "action"}\n')
    with pytest.raises(ReplayError, match="no header"):
        load_replay(bad)
    bad.write_text(
        json.dumps({"type": "header", "schema": 2, "equipment": "standard", "pitch": {"length": 8, "width": 5}})
        + "\n"
        + json.dumps({"type": "world", "poses": {"A1": [1, 2]}})
        + "\n"
    )
    with pytest.raises(ReplayError, match=r":2: (i|poses\.A1): "):
        load_replay(bad)


def test_last_throw_facts_from_a_record():
    """Release speed from the release velocity, landing where the piece first comes within 3 cm
    of its resting height, the first hit the first other piece that moved (5 mm)."""
    import numpy as np

    from kubb3d.viewer.hud import last_throw_lines, outcome_line, power_label
    from kubb3d.viewer.match_mode import INKAST_SPEED, MatchControls
    from kubb3d.viewer.replay import throw_facts
    from kubb3d.pitch import Pitch
    from kubb3d.viewer.scene import Segment

    times = np.array([0.0, 0.1, 0.2, 0.3])
    q = [0, 0, 0, 1]
    baton = np.array([[-4, 0, 1.0, *q], [-2, 0, 1.2, *q], [0, 0.5, 0.04, *q], [0.3, 0.5, 0.022, *q]], dtype=float)
    b3 = np.array([[4, 0, 0.075, 0, 0, 0, 1]] * 3 + [[4.01, 0, 0.075, 0, 0, 0, 1]], dtype=float)
    b2 = np.array([[4, 1, 0.075, 0, 0, 0, 1]] * 2 + [[4.002, 1, 0.075, 0, 0, 0, 1]] * 2, dtype=float)
    th = {"piece": "baton1", "legal": False, "violations": [{"rule": "DM §5", "reason": "tilt"}],
          "release": {"velocity_mps": [6.0, 0.0, 8.0]}}
    start = {"baton1": baton[0], "B3": b3[0], "B2": b2[0]}
    f = throw_facts(th, times, {"baton1": baton, "B3": b3, "B2": b2}, start)
    assert f["speed_mps"] == 10.0 and f["landing"] == (0.0, 0.5) and f["first_hit"] == "B3"
    felled = SimpleNamespace(piece="B3", status="fallen", consequence="counts as felled", rules=("DM §5",), reason="")
    seg = Segment("x", start, info={"throw": f}, rulings=(felled,))
    lines = last_throw_lines(seg)
    assert lines[0] == "last throw: baton 1 at 10.0 m/s" and "first hit: B3" in lines[1]
    assert lines[2] == "ILLEGAL (DM §5)   felled: B3"
    assert outcome_line("P1", "P1 felled the king (DM §10)", "P1") == "match over: you win: P1 felled the king (DM §10)"
    assert outcome_line(None, "") == "match over: draw"
    c = MatchControls(Pitch(), "A", speed_range=INKAST_SPEED)
    assert power_label(c).endswith("(2–11 m/s)")


def test_labels_of_adjacent_pieces_are_stacked_not_overlapped():
    """Issue 18 (noticed): the ids of adjacent pieces were drawn over each other."""
    from itertools import combinations

    from kubb3d.viewer.hud import LABEL_GAP_PX, layout_labels

    labels = [("B1", 400.0, 200.0), ("B2", 412.0, 201.0), ("B3", 424.0, 199.0), ("king", 640.0, 150.0),
              ("A1", 100.0, 600.0)]
    widths = {t: 15.0 * len(t) for t, _, _ in labels}  # B1, B2, B3 all overlap one another
    out = layout_labels(labels, widths, 14.0)
    assert [t for t, _, _ in out] == [t for t, _, _ in labels]
    boxes = {t: (x - widths[t] / 2, y - 14.0, x + widths[t] / 2, y) for t, x, y in out}
    for (a, p), (b, q) in combinations(boxes.items(), 2):
        assert not (p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]), (a, b)
    for (_, x, y), (_, x0, y0) in zip(out, labels):
        assert x == x0 and y <= y0  # only up, over its own piece
    # the lowest keeps its place, the others go just above it: a stack 14 px + gap apart
    ys = sorted(y for t, _, y in out if t in ("B1", "B2", "B3"))
    step = 14.0 + LABEL_GAP_PX
    assert ys[-1] == 201.0 and ys[1] == pytest.approx(201.0 - step) and ys[0] == pytest.approx(ys[1] - step)
    # pieces apart keep their places; the input order does not matter
    assert out[3] == labels[3] and out[4] == labels[4]
    assert sorted(layout_labels(labels[::-1], widths, 14.0)) == sorted(out)
    # a label at the picture's edge is moved in, wholly into the picture
    text = "OUT (behind baseline B)"
    ((_, x, y),) = layout_labels([(text, 630.0, 50.0)], {text: 160.0}, 14.0, screen_width=640)
    assert (x, y) == (560.0, 50.0)


@pytest.mark.parametrize("camera", ["thrower", "top", "orbit"])
def test_piece_marks_project_every_piece_as_one_at_a_time(camera):
    """piece_marks projects all pieces at once (for speed); each rectangle and label point is
    the one of that piece's eight box corners, rotated by its own quaternion and projected
    alone, and its label point above the highest corner."""
    from kubb3d.equipment import get_set
    from kubb3d.viewer.overlay import LABEL_LIFT_M, piece_marks
    from kubb3d.viewer.scene import PieceView, Scene, quat_matrix

    scene = Scene(PITCH)
    upright = (0.0, 0.0, 0.0, 1.0)
    for i, y in enumerate((-2.0, -1.0, 0.0, 1.0, 2.0)):
        scene.pieces[f"A{i + 1}"] = PieceView("kubb", np.array((-4.0, y, 0.15, *upright)))
        scene.pieces[f"B{i + 1}"] = PieceView("kubb", np.array((4.0, y, 0.15, *upright)))
    scene.pieces["king"] = PieceView("king", np.array((0.0, 0.0, 0.15, *upright)))
    scene.pieces["baton1"] = PieceView("baton", np.array((-3.0, 0.0, 0.02, *upright)))
    scene.hidden.add("A5")
    tilt = np.array((0.2, -0.4, 0.1, 0.9))
    scene.pieces["B2"].pose[3:] = tilt / np.linalg.norm(tilt)
    scene.pieces["A4"].pose[:] = (-3.5, 0.4, 0.035, 0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))
    cameras = {"thrower": thrower_camera(PITCH), "top": top_camera(PITCH), "orbit": OrbitCamera(elevation=0.5).camera()}
    cam = cameras[camera]
    vp = cam.view_proj(W, H)
    rects, labels = piece_marks(scene, vp, W, H)
    eq = get_set(scene.equipment)
    want_rects, want_labels = [], []
    for pid, pv in sorted(scene.pieces.items()):
        if pv.kind not in ("kubb", "king") or pid in scene.hidden:
            continue
        half = np.array((eq.king if pv.kind == "king" else eq.kubb).half_extents)
        pts = [pv.pose[:3] + quat_matrix(pv.pose[3:]) @ (np.array((sx, sy, sz)) * half)
               for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        top = (pv.pose[0], pv.pose[1], max(p[2] for p in pts) + LABEL_LIFT_M)
        px, vis = project(np.array([*pts, top]), vp, W, H)
        if vis.any():
            want_rects.append((*px.min(axis=0), *px.max(axis=0)))
            want_labels.append((pid, *px[-1]))
    assert len(rects) == len(want_rects) >= 5
    assert np.allclose(rects, want_rects, atol=1e-6)
    assert [t for t, *_ in labels[: len(want_labels)]] == [t for t, *_ in want_labels]
    assert np.allclose([xy for _, *xy in labels[: len(want_labels)]], [xy for _, *xy in want_labels], atol=1e-6)


def test_hud_lines_wrap_between_groups_not_inside_them():
    """Issue 34: in narrow panels the Dames title broke "ESC: / quit)" and the kubbs-standing
    line broke inside a half's count ("A (P1) 5 incl. / 2 field"). Groups set apart by two
    spaces or more stay whole where they fit a line; a group is broken at spaces, after a comma
    outside brackets when that keeps the line half full; no word is lost and every line fits
    where a break allows."""
    from kubb3d.viewer.hud import WRAP_INDENT, wrap_text

    def width_of(text: str) -> float:  # a fixed-width font: 10 px a character
        return 10.0 * len(text)

    standing = "kubbs standing:  A (P1) 5 incl. 3 field, 2 felled   B (P2) 4 incl. 1 field   KING DOWN"
    controls = "drag: turn   wheel: zoom   R: reset view   ESC: quit"
    title = "kubb3d: free throws (DM rules), side A, baton 1/6, camera thrower"
    hint = "aim with the mouse, hold the left button or SPACE for power, release to throw (F1: help)"
    for text in (standing, controls, title, hint):
        for max_w in (200.0, 250.0, 350.0, 500.0, 2000.0):
            lines = wrap_text(text, width_of, max_w)
            assert " ".join(w for line in lines for w in line.split()) == " ".join(text.split())
            assert all(line.startswith(WRAP_INDENT) for line in lines[1:]) and not lines[0].startswith(" ")
            assert all(width_of(line) <= max_w for line in lines), (max_w, lines)
            assert (len(lines) == 1) == (width_of(text) <= max_w)
    assert wrap_text(standing, width_of, 350.0) == [
        "kubbs standing:", "   A (P1) 5 incl. 3 field, 2 felled", "   B (P2) 4 incl. 1 field", "   KING DOWN"]
    assert wrap_text(standing, width_of, 400.0) == [
        "kubbs standing:", "   A (P1) 5 incl. 3 field, 2 felled", "   B (P2) 4 incl. 1 field   KING DOWN"]
    for max_w in (150.0, 200.0, 250.0, 350.0):  # never a key without what it does
        assert not any(line.rstrip().endswith(":") for line in wrap_text(controls, width_of, max_w))
    # after the comma 31 of 38 characters in: rather than "... (DM rules), side" / "A, baton ..."
    assert wrap_text(title, width_of, 380.0) == [
        "kubb3d: free throws (DM rules),", "   side A, baton 1/6, camera thrower"]
    # ... but not when that would take more lines than filling them
    assert len(wrap_text(title, width_of, 250.0)) == 3
    # a comma 19 of 54 characters in is too early (under half): the line is filled
    assert wrap_text(hint, width_of, 540.0)[0] == "aim with the mouse, hold the left button or SPACE for"
    # a comma inside brackets is not a break place
    assert wrap_text("the rules (DM, WS and KT) apply", width_of, 200.0)[0] == "the rules (DM, WS"
    assert wrap_text("averyveryverylongword fits", width_of, 100.0) == ["averyveryverylongword", "   fits"]
