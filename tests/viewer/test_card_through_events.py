"""Issue 34 "Done means": the last-throw card played through input events. The person's batons
of a DM match are aimed with the pointer, their elevation set with the arrow keys and their
power held on the left button (by a clock the test moves); the playback is skipped with N.
After each throw at rest the card is checked from the HUD state (what this throw felled, by
its judgement; the intended release, by the pointer and the time held) and from the
screenshot (the card's panel and its lines of text are on the picture, unchanged while the
next throw waits, gone at the release)."""

from __future__ import annotations

import os
import re
from typing import Callable

import numpy as np
import pytest

from kubb3d.viewer.app import App, load_pyglet
from kubb3d.viewer.camera import project
from kubb3d.viewer.controls import CHARGE_TIME
from kubb3d.viewer.hud import font_size, wrap_text
from kubb3d.viewer.match_mode import MatchSession, scripted_person
from kubb3d.viewer.overlay import SIDE_SHARE

pyglet = load_pyglet(headless=True)
from pyglet.window import key, mouse  # noqa: E402  (after the headless switch)

W, H = 1280, 720


class Clock:
    """The controls' clock (s), moved by the test: a hold of exactly the time wanted."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _text_rows(region: np.ndarray) -> int:
    """Lines of white text in a panel's pixels: runs of pixel rows holding near-white pixels."""
    white = (region.min(axis=2) > 200).sum(axis=1) > 0
    return int(np.count_nonzero(white[1:] & ~white[:-1]) + int(white[0]))


def _wrapped(lines: list[str]) -> int:
    """How many lines of text ``lines`` take in a corner panel of the window, wrapped to its
    width (the first line bold)."""
    fs = font_size(W)
    max_w = max(40, int(W * SIDE_SHARE) - 2 * max(4, fs * 2 // 3))

    def widths(bold: bool) -> Callable[[str], float]:
        weight = "bold" if bold else "normal"
        return lambda text: pyglet.text.Label(text, font_size=fs, weight=weight, font_name="DejaVu Sans").content_width

    return sum(len(wrap_text(line, widths(i == 0), max_w)) for i, line in enumerate(lines))


def _card_pixels(app: App) -> np.ndarray:
    x, y, w, h = app.overlay.panels["last_throw"]  # px, from the bottom left
    return app.pixels()[H - y - h: H - y, x: x + w].astype(int)


def _wait_for_person(app: App, s: MatchSession, person, limit: int = 3000) -> None:
    """Frames (N skips each playback to rest) until the person is asked for a baton or the
    match is over; the person's other throws (lag, inkasts) scripted."""
    for _ in range(limit):
        assert not s.error, s.error
        if s.over and not s.playing:
            return
        if s.request is not None:
            if s.request.kind in ("baton", "king"):
                return
            s.throw(person(s.request))
        app.on_key_press(key.N, 0)
        app.frame(0.0)
    raise AssertionError("the person was not asked for a baton")


def _throw_by_events(app: App, s: MatchSession, intended, clock: Clock) -> tuple[float, float]:
    """Point at the kubb the match suggests (the request's target), set the elevation of
    ``intended`` (the simulated strategy's throw at it) with UP / DOWN (SHIFT: 5°) and hold the
    left button for its speed; (azimuth deg, speed m/s) of the throw made."""
    ctl = s.controls
    for _ in range(60):
        diff = round(intended.elevation_deg) - round(ctl.elevation_deg)
        if diff == 0:
            break
        big = abs(diff) >= 5
        app.on_key_press(key.UP if diff > 0 else key.DOWN, key.MOD_SHIFT if big else 0)
        app.on_key_release(key.UP if diff > 0 else key.DOWN, 0)
    req = s.request
    assert req is not None and req.target is not None
    target = (float(req.target[0]), float(req.target[1]), 0.0)
    app.frame(0.0)
    (px,), _ = project(target, app.camera.view_proj(W, H), W, H)
    app.on_mouse_motion(px[0], H - px[1], 0, 0)
    app.frame(0.0)
    lo, hi = ctl.speed_range
    power = min(1.0, max(0.0, (intended.speed - lo) / (hi - lo)))
    app.on_mouse_press(px[0], H - px[1], mouse.LEFT, 0)
    clock.now += power * CHARGE_TIME
    app.frame(0.0)
    aimed = ctl.azimuth_deg
    app.on_mouse_release(px[0], H - px[1], mouse.LEFT, 0)
    return aimed, lo + power * (hi - lo)


def test_the_card_is_on_the_hud_and_on_the_picture_until_the_next_release():
    s = MatchSession("dm", "club", seed=3, difficulty="club")
    person = scripted_person(s.match)
    clock = Clock()
    app = App(s, W, H, headless=True, mode="play", camera="thrower")
    checked = felled_some = 0
    try:
        app.frame(0.0)
        for _ in range(40):
            _wait_for_person(app, s, person)
            if s.over:
                break
            s.controls.clock = clock
            aimed, speed = _throw_by_events(app, s, person(s.request), clock)
            app.frame(0.0)
            assert s.request is None and "last_throw" not in app.overlay.panels  # released: no card
            _wait_for_person(app, s, person)
            if s.over:
                break
            last = next(r for r in reversed(s.records) if r["type"] == "action" and r.get("throws"))
            if last["action"]["type"] not in ("BatonThrow", "KingThrow") or last["events"][0].get("player") != s.person:
                continue  # the turn ended: the computer's throws and the inkasts since
            # the HUD state: the card of this throw
            h = app.last_hud
            assert h.last_throw and h.last_throw == s.hud(app.controller).last_throw
            want = re.search(r"intended (\d+\.\d\d) m/s ([+-]\d+\.\d)°", "\n".join(h.last_throw))
            assert want, h.last_throw
            assert float(want.group(1)) == pytest.approx(speed, abs=0.006)
            assert float(want.group(2)) == pytest.approx(aimed, abs=0.06)
            j = last["judgement"]
            king = any(r["piece"] == "king" and r["consequence"] in ("game won", "game lost") for r in j["rulings"])
            felled = set(j["felled"]) | ({"king"} if king else set())
            got = re.search(r"felled: (.*)$", h.last_throw[2]).group(1)
            assert (set(got.split(", ")) if got != "nothing" else set()) == felled, (h.last_throw, j["felled"])
            felled_some += bool(felled)
            # the picture: the card's panel, as many lines of text as the card has
            card = _card_pixels(app)
            box = app.overlay.panels["last_throw"]
            app.frame(0.0, hud=False)
            x, y, w, hh = box
            bare = app.pixels()[H - y - hh: H - y, x: x + w].astype(int)
            app.frame(0.0)
            if checked == 0 and os.environ.get("KUBB3D_KEEP_SHOTS"):
                app.screenshot(os.path.join(os.environ["KUBB3D_KEEP_SHOTS"], "card.png"))
            assert card.mean() < bare.mean() - 20  # the dark panel over the grass
            assert _text_rows(card) == _wrapped(h.last_throw) >= len(h.last_throw), (h.last_throw, _text_rows(card))
            assert _text_rows(bare) == 0
            # it stays, unchanged, while the next throw waits
            for _ in range(4):
                s.update(0.5)
                app.frame(0.5)
                assert app.last_hud.last_throw == h.last_throw
                assert app.overlay.panels["last_throw"] == box
                assert np.array_equal(_card_pixels(app), card)
            checked += 1
            if checked >= 8 and felled_some >= 2:
                break
        assert checked >= 6 and felled_some >= 2, (checked, felled_some)
    finally:
        app.close()
