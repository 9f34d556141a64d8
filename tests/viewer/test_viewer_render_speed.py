"""The renderer's shortcuts for CPU renderers keep the picture right: baked grass stripes,
the sky drawn only above the horizon, the sun's shadow projected on the grass, and a shadow
map that moving pieces do not force to be redrawn."""

import numpy as np
import pytest

from kubb3d.viewer.app import App, PlaySession, load_pyglet
from kubb3d.viewer.camera import project, top_camera

pyglet = load_pyglet(headless=True)
from kubb3d.viewer import render as R  # noqa: E402  (after load_pyglet)

W, H = 480, 270


def test_grass_texture_stripes_and_shade():
    noise = R.grass_noise(np.random.default_rng(0), 64)
    tex = R.grass_texture(noise, tile=10.0)
    assert tex.shape == (64, 64, 4)
    x = (np.arange(64) + 0.5) / 64 * 10.0  # world x of each texel column, m
    assert (tex[:, (x % 2.0) < 1.0, 3] == 0).all() and (tex[:, (x % 2.0) >= 1.0, 3] == 255).all()
    assert (tex[..., 1] > tex[..., 0]).all() and (tex[..., 1] > tex[..., 2]).all()  # green
    shade = np.array(R.ground_shade())
    assert ((0.3 < shade) & (shade < 0.8)).all() and shade[2] > shade[0]  # bluish shadow


def test_sky_rows_above_the_horizon_only():
    from kubb3d.pitch import Pitch
    from kubb3d.viewer.camera import OrbitCamera

    assert R.sky_rows(top_camera(Pitch()).view_proj(W, H)) is None  # looking straight down
    vp = OrbitCamera(elevation=np.radians(10.0), distance=6.0).camera().view_proj(W, H)
    low = R.sky_rows(vp)
    assert low is not None and -1.0 < low < 1.0
    # a point far beyond the pitch on the ground lies below that row, a point high up above it
    (g,), _ = project((60.0, 0.0, 0.0), vp, W, H)
    (s,), _ = project((60.0, 0.0, 30.0), vp, W, H)
    row = (1 - low) / 2 * H  # pixel row (from the top) of normalised y = low
    assert g[1] > row - 1 and s[1] < row


@pytest.fixture(scope="module")
def app():
    a = App(PlaySession(), W, H, headless=True, mode="play", camera="orbit")
    yield a
    a.close()


def test_sun_shadow_darkens_the_grass_behind_a_kubb(app):
    ctl = app.controller
    ctl.set_camera("orbit")
    o = ctl.orbit
    o.target, o.distance, o.elevation, o.azimuth = np.array((4.0, 0.0, 0.0)), 1.6, np.radians(60), np.radians(200)
    app.frame(0.0, hud=False)
    img = app.pixels().astype(int)
    vp = app.camera.view_proj(W, H)
    kubb = app.session.scene.pieces["B3"].pose[:3]
    sun = R.SUN_DIRECTION
    top = kubb + (0, 0, 0.05)
    shadow = top - sun * (top[2] / sun[2])  # a point of the top's shadow on the ground
    lit = np.array((kubb[0] - 0.3, kubb[1] + 0.3, 0.0))  # bare grass on the sunny side
    (ps, pl), vis = project(np.stack((shadow, lit)), vp, W, H)
    assert vis.all()
    a, b = img[int(ps[1]), int(ps[0])], img[int(pl[1]), int(pl[0])]
    assert a[1] > a[0] and b[1] > b[0]  # both grass
    assert a.sum() < 0.8 * b.sum(), (a, b)


def test_a_moving_piece_does_not_redraw_the_shadow_map(app):
    s = app.session
    s.new_round()
    app.frame(0.0, hud=False)
    app.frame(0.0, hud=False)
    assert not app.renderer.stats.shadow_redrawn  # nothing moved
    baton = s.scene.pieces["baton1"] if "baton1" in s.scene.pieces else None
    pid = "baton1" if baton is not None else "B1"
    piece = s.scene.pieces[pid]
    redrawn = []
    for _ in range(4):
        piece.pose[2] += 0.05
        app.frame(0.0, hud=False)
        redrawn.append(app.renderer.stats.shadow_redrawn)
    assert redrawn == [True, False, False, False]  # left out once, then unchanged
    app.frame(0.0, hud=False)  # at rest again: back in the map
    assert app.renderer.stats.shadow_redrawn
