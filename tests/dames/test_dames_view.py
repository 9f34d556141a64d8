"""The Roll Kubb Dames 3D view: die orientations as rotations, the tipping pose, and headless
pictures in which every die stands where the engine says, in its seat's colour, with as
many pips on top as its top value."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from kubb3d.dames import view as V
from kubb3d.dames.board import DamesBoard
from kubb3d.cli.dames import app as dames_app
from kubb3d.dames.die import ORIENTATIONS, STEP, Die

MID_GAME = "1N153N153N153N153N1532/8/8/6N2641/1S2646/3S6544/6S5141/2S1241S124S1242 SN N 1 b2 5"
"""After five moves of search against random (seed 1): tops 1, 2, 5 and 6 on the board."""


def test_every_orientation_is_a_rotation_with_the_engines_top_face():
    for die in ORIENTATIONS:
        r = V.die_rotation(die)
        assert np.allclose(r @ r.T, np.eye(3), atol=1e-12) and np.linalg.det(r) == pytest.approx(1.0)
        assert V.face_up(r, die.handedness()) == die.top
        # face k of the mesh looks where the engine says
        axes = V.body_axes(die.handedness())
        for k in (1, 2, 3):
            assert np.allclose(r @ axes[:, k - 1], die.face_vector(k), atol=1e-12)
        for d, (dx, dy) in STEP.items():
            q = V.axis_rotation(np.cross((0, 0, 1), (dx, dy, 0)), math.pi / 2)
            assert np.allclose(q @ r, V.die_rotation(die.roll(d)), atol=1e-12), (die, d)


def test_tip_pose_ends_exactly_at_the_engines_orientation():
    die = Die.make(1, 2, 4)
    start, path = 9, "NNE"  # b2 → b3 → b4 → c4
    c, r = V.tip_pose(die, start, path, len(path))
    assert np.array_equal(r, V.die_rotation(die.roll_path(path)))
    assert np.allclose(c, V.cell_center(start + 8 + 8 + 1) + (0, 0, V.DIE_EDGE / 2), atol=1e-15)
    # half-way through the first cell: on its north bottom edge, turned 45°, centre raised
    c, r = V.tip_pose(die, start, path, 0.5)
    corners = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * V.DIE_EDGE / 2
    world = c + corners @ r.T
    assert world[:, 2].min() == pytest.approx(0.0, abs=1e-12)  # rests on the edge
    assert c[2] == pytest.approx(V.DIE_EDGE / math.sqrt(2))
    up = r @ V.body_axes(1)[:, 0]  # where face 1 (the top at the start) looks
    assert up[2] == pytest.approx(math.cos(math.pi / 4)) and up[1] == pytest.approx(math.sin(math.pi / 4))
    # continuous at the cell boundaries
    a, _ = V.tip_pose(die, start, path, 1 - 1e-9)
    b, _ = V.tip_pose(die, start, path, 1.0)
    assert np.allclose(a, b, atol=1e-9)


@pytest.fixture(scope="module")
def app():
    from kubb3d.viewer.app import load_pyglet

    load_pyglet(headless=True)
    a = V.DamesApp(DamesBoard(), 640, 480, headless=True)
    yield a
    a.close()


def _seat_of(rgb) -> str | None:
    r, g, b = (int(v) for v in rgb)
    if r > g + 60 and r > b + 60:
        return "S"
    if b > r + 60 and b > g + 40:
        return "N"
    return None


def test_start_position_dice_in_their_seats_colours(app):
    app.board = DamesBoard()
    app.frame(0.0, hud=False)
    img = app.pixels()
    vp = app.camera.view_proj(640, 480)
    from kubb3d.viewer.camera import project

    kubbs = app.board.kubbs()
    assert len(kubbs) == 12
    centres = np.array([V.cell_center(c) + (0, 0, V.DIE_EDGE / 2) for c in kubbs])
    px, vis = project(centres, vp, 640, 480)
    assert vis.all()
    for (cell, k), p in zip(kubbs.items(), px):
        rgb = img[int(round(p[1])), int(round(p[0]))]
        assert _seat_of(rgb) == k.seat, (cell, k, rgb)
    # an empty cell shows the board's wood, not a seat colour
    (q,), _ = project(V.cell_center(27), vp, 640, 480)
    assert _seat_of(img[int(q[1]), int(q[0])]) is None


def test_top_faces_show_as_many_pips_as_the_engine_says(app):
    from kubb3d.viewer.camera import Camera, project

    board = DamesBoard(MID_GAME)
    app.board = board
    tops = set()
    for cell, k in board.kubbs().items():
        c = V.cell_center(cell)
        cam = Camera(
            c + (0.0, 0.0, 0.5), c.copy(), up=np.array((0.0, 1.0, 0.0)), fov_y=math.radians(20), near=0.05, far=5.0
        )
        app.camera = cam
        app.frame(0.0, hud=False)
        img = app.pixels().astype(int)
        vp = cam.view_proj(640, 480)
        grid = np.array([c + (i * V.PIP_STEP, j * V.PIP_STEP, V.DIE_EDGE) for i in (-1, 0, 1) for j in (-1, 0, 1)])
        px, _ = project(grid, vp, 640, 480)
        white = sum(int((img[int(round(p[1])), int(round(p[0]))] > 180).all()) for p in px)
        assert white == k.top, (cell, k)
        tops.add(k.top)
    assert tops >= {1, 2, 5, 6}
    app.camera = V.default_camera("S")


def test_move_animation_ends_in_the_position_after(app):
    board = DamesBoard()
    before = board.copy()
    board.push_text("b1NN@h4")
    anim = V.MoveAnimation(before, board.copy(), board.move_stack[-1], board.last_removed)
    assert anim.duration == pytest.approx(2 * V.ROLL_TIME + anim.HOP_TIME)
    mid = anim.scene_at(V.ROLL_TIME * 1.5)
    end = anim.scene_at(anim.duration)
    rest = V.scene_of(board)
    assert len(mid.dice) == len(end.dice) == 12
    for a, b in zip(sorted(end.dice, key=lambda d: tuple(d.centre)), sorted(rest.dice, key=lambda d: tuple(d.centre))):
        assert np.allclose(a.centre, b.centre) and np.allclose(a.rotation, b.rotation)
    assert np.allclose(end.ti_at, V.cell_center(31))  # h4
    moving = [d for d in mid.dice if d.centre[2] > V.DIE_EDGE / 2 + 1e-6]
    assert len(moving) == 1 and moving[0].seat == "S"


def test_cli_screenshot_after_moves(tmp_path):
    out = tmp_path / "d.png"
    res = CliRunner().invoke(
        dames_app,
        ["play", "--players", "search,random", "--seed", "1", "--depth", "1", "--screenshot", str(out), "--after", "3"],
    )
    assert res.exit_code == 0, res.output
    assert "after 3 turns" in res.stdout and out.stat().st_size > 20_000
    from PIL import Image

    assert Image.open(out).size == (1024, 768)
    for args, msg in (
        (["play", "--players", "human,random", "--screenshot", str(tmp_path / "h.png"), "--after", "2"],
         "computer players only"),
        (["play", "--after", "2"], "--after only makes sense with --screenshot"),
        (["play", "--screenshot", str(tmp_path / "d.jpg")], "must name a .png file"),
    ):
        res = CliRunner().invoke(dames_app, args)
        assert res.exit_code == 2 and msg in res.stderr, (args, res.output)


def test_board_labels_follow_the_notation():
    """a–h and 1–8 (``RKD`` notation) beside the board: seen from South, files run left to
    right and ranks bottom to top; the ti-kubb's cell lies where its file and rank cross."""
    from kubb3d.dames.view import board_labels, cell_center, default_camera
    from kubb3d.viewer.camera import project

    w, h = 1024, 768
    vp = default_camera("S").view_proj(w, h)
    labels = {t: (x, y) for t, x, y in board_labels(vp, w, h)}
    assert sorted(labels) == sorted("abcdefgh12345678")
    files = [labels[c][0] for c in "abcdefgh"]
    ranks = [labels[str(i)][1] for i in range(1, 9)]
    assert files == sorted(files) and ranks == sorted(ranks, reverse=True)
    (g5,), _ = project(cell_center(4 * 8 + 6), vp, w, h)  # g5: file g (6), rank 5 (4)
    assert abs(g5[1] - labels["5"][1]) < 25 and files[5] < g5[0] < files[7]
