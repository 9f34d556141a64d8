"""On the Kubbuteo board every length is in cm (issue: the 3D view's status panel and
play-by-play gave the throwing line and the lag in m, "line x = -0.52 m", beside the last-flick
panel's "stopped at x +42.3 cm"): the HUD of a Kubbuteo replay and of a live match, the
play-by-play, in English and German."""

from __future__ import annotations

import re
import sys

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import i18n_surfaces as surfaces  # noqa: E402
from kubb3d.i18n import ENGLISH, translator  # noqa: E402

METRES = re.compile(r"\d m\b(?!/s)")
"""A length in metres (``-0.52 m``); a speed (``2.4 m/s``) is not one."""
CM = re.compile(r"\d cm\b")


@pytest.fixture(scope="module")
def replay(short_replays_folder):
    return surfaces.replay_file(short_replays_folder, "--ruleset", "kubbuteo", "--seed", "2", "--round-cap", "3")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_kubbuteo_replay_and_match_give_lengths_in_cm(replay, match_app, lang):
    from kubb3d.viewer.replay import load_session

    tr = translator(lang) if lang != "en" else ENGLISH
    texts = surfaces.replay_hud(load_session(replay), tr, "kubbuteo")
    texts += surfaces.match_terminal(match_app, ("--ruleset", "kubbuteo", "--seed", "2", "--round-cap", "3"), lang)
    in_metres = [(where, t) for where, t in texts if METRES.search(t)]
    assert in_metres == []
    # and the lengths are there, in cm: the line of each flick, the lag, where a disk stopped
    lines = [t for _, t in texts if CM.search(t)]
    line_word = "line x = " if lang == "en" else "Wurflinie x = "
    assert any(line_word in t for t in lines) and any(("king" if lang == "en" else "König") in t for t in lines)
    assert any(t.startswith("lag:" if lang == "en" else "Anwurf:") and " cm " in t for t in lines), lines


def test_the_live_kubbuteo_status_panel_gives_the_lines_in_cm():
    from kubb3d.match import Match, MatchConfig
    from kubb3d.rules import Phase
    from kubb3d.viewer.match_mode import state_lines

    de = translator("de")
    m = Match(MatchConfig(ruleset="kubbuteo", seed=1, round_cap=3))
    seen = set()
    try:
        while len(seen) < 2 and m.state.outcome() is None:
            st = m.state
            if st.set_no and st.turn_side is not None and st.phase in (Phase.THROW, Phase.INKAST):
                # the line after the phase line(s): "who opens" comes first until the opener's first flick
                line = next(x for x in state_lines(st, "P1", flick=True)[2:] if not re.match(r"P\d opens", str(x)))
                if st.phase is Phase.THROW and st.line_x is not None:
                    assert re.fullmatch(r"throwing line x [+-]\d+\.\d cm   batons left \d", line), line
                    assert re.fullmatch(r"Wurflinie x [+-]\d+,\d cm   Wurfhölzer übrig \d", de(line)), de(line)
                    seen.add("throw")
                elif st.phase is Phase.INKAST:
                    assert re.fullmatch(r"inkast from the baseline x [+-]\d+\.\d cm   batons left \d", line), line
                    seen.add("inkast")
            m.step()
    finally:
        m.close()
    assert seen == {"throw", "inkast"}
