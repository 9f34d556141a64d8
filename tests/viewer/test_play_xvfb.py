"""Issue 18, item 7: a whole match played as a person plays it. ``kubb3d play --opponent club``
runs in a window on a virtual display (Xvfb); real input events (xdotool: pointer moves, the
left button held and released, keys) aim and throw every one of the person's batons and kubbs
until the match is over, with screenshots of the display along the way.

Needs the ``Xvfb`` and ``xdotool`` programs (``.ci/run`` installs them where it can); without
them the test is skipped and says why. The helpers are in ``conftest.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from xplay_helpers import WindowPlay, persons_throws, records, summary_shown

pytestmark = [pytest.mark.slow, pytest.mark.gl]

AIMS = ((507, 126), (574, 126), (706, 126), (771, 126))
"""px: where the person points in turn in the thrower's view: the far baseline's kubbs beside
the middle one (a baton aimed at B3 passes over the king and may fell it early); inkasted
kubbs land in the far half."""
HOLD_S = 1.0
"""s: how long the left button is held (the power bar fills in 1.6 s)."""
TIME_LIMIT_S = 420.0


def test_a_whole_dm_match_through_input_events(display, tmp_path):
    from PIL import Image

    replay = tmp_path / "match.jsonl"
    # --difficulty exact: the person's releases as he made them (the default, club, adds an error)
    app = WindowPlay(display, tmp_path, "--opponent", "club", "--seed", "1", "--round-cap", "4",
                     "--replay", str(replay), "--difficulty", "exact")
    try:
        app.wait_for_first_frame()
        app.shot("start")
        # aim, hold the button for power, release; N skips the playback to rest
        final = app.play_to_the_end(replay, AIMS, (HOLD_S,), (6, 2), "throw", TIME_LIMIT_S)
        recs = records(replay)
        out = recs[-1]
        assert out["type"] == "outcome" and out["termination"] in ("KING", "EARLY_KING", "ROUND_CAP", "SETS")
        # the person threw: every P1 throw in the replay is a person's (no release noise added)
        person = persons_throws(recs)
        assert len(person) >= 5 and all(t["params"] == t["intended"] for t in person)
        # the screenshots show the pitch (grass) and, at the end, the summary panel (dark)
        assert summary_shown(final), "no end-of-match summary in the middle of the window"
        for p in app.shots[:-1]:
            a = np.asarray(Image.open(p).convert("RGB")).astype(int)
            assert (a[:, :, 1] > a[:, :, 0] + 20).mean() > 0.3, p  # mostly grass
        assert app.quit() == 0, app.proc.stderr.read()[-2000:]
    finally:
        app.close()


KT_AIMS = ((610, 130), (550, 130), (640, 130))
"""px: where the person points in turn in the Kubbuteo thrower's view (1280 × 720, from A's
baseline): B4, B5 and between B3 and B4, whose straight paths from the gap where the disk
starts pass the king by 5 cm or more (a king knocked early loses the game, KT "Rules")."""
KT_HOLDS_S = (1.2, 0.8)
"""s: the button held in turn: 1.2 s (2.8 m/s: a baton reaches the far baseline at about
1.2 m/s) and 0.8 s (2.0 m/s: a returned kubb stops in the far half, 0.7 m out)."""


def test_a_whole_kubbuteo_match_through_input_events(display, tmp_path):
    """Issue 18 "Done means": ``kubb3d play --ruleset kubbuteo --opponent club`` played to the
    end through mouse and key events; the person's flicks are his own (no noise added)."""
    from PIL import Image

    replay = tmp_path / "kt.jsonl"
    app = WindowPlay(display, tmp_path, "--ruleset", "kubbuteo", "--opponent", "club", "--seed", "2",
                     "--round-cap", "3", "--replay", str(replay), "--difficulty", "exact")
    try:
        app.wait_for_first_frame()
        app.shot("start")
        final = app.play_to_the_end(replay, KT_AIMS, KT_HOLDS_S, (5, 1), "flick", TIME_LIMIT_S)
        recs = records(replay)
        assert recs[0]["ruleset"] == "kubbuteo" and recs[-1]["type"] == "outcome"
        person = persons_throws(recs)
        assert len(person) >= 6 and all(t["params"] == t["intended"] for t in person)
        assert {"azimuth_deg", "spin_rps", "offset"} <= set(person[-1]["params"])  # FlickParams
        assert summary_shown(final), "no end-of-match summary in the middle of the window"
        for p in app.shots[:-1]:  # the board's pale wood fills much of the view, and no grass
            a = np.asarray(Image.open(p).convert("RGB")).astype(int)
            r, g, b = a[..., 0], a[..., 1], a[..., 2]
            assert ((r > g) & (g > b) & (r > 150)).mean() > 0.25, p
            assert (g > r + 20).mean() < 0.01, p
        assert app.quit() == 0, app.proc.stderr.read()[-2000:]
    finally:
        app.close()
