"""Who opens after the lag in ``kubb3d play --opponent`` (a user's report: the person who won
the lag was never asked). DM §3 gives the lag winner the choice of an end or of who opens (the
loser takes the other decision): the person is asked, O or G; the computer, when it wins,
opens itself (``Player.choose``). WS ("Sequence of Play") and Kubbuteo (kubb3d's lag rule, KT
says nothing) give no choice: the status panel says who opens and why, with the clause."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kubb3d.i18n import translator
from kubb3d.viewer.app import App, load_pyglet
from kubb3d.viewer.match_mode import MatchSession, scripted_person

pyglet = load_pyglet(headless=True)
from pyglet.window import key  # noqa: E402  (after the headless switch)

W, H = 960, 540


def _to_the_first_set(s: MatchSession, lag_speed: float = 1.0, limit: int = 300) -> None:
    """Play until the first set has begun or the person is asked to choose; the person's lag
    throw is the scripted one at ``lag_speed`` times its speed (0.85: it stops short of the
    king and wins the lag of seed 0; the scripted one fells the king and loses it)."""
    person = scripted_person(s.match, s.person)
    for _ in range(limit):
        if s.choice is not None or s.match.state.set_no >= 1:
            return
        if s.request is not None:
            p = person(s.request)
            s.throw(replace(p, speed=p.speed * lag_speed) if s.request.kind == "lag" else p)
        s.skip()
        s.update(0.0)
    raise AssertionError("the lag did not end")


def _news(s: MatchSession) -> list[str]:
    return [e["text"] for r in s.records if r.get("type") == "action" for e in r.get("events", ())]


@pytest.mark.parametrize("press, opener", [(key.O, "P1"), (key.G, "P2")])
def test_the_person_who_wins_the_lag_chooses_who_opens(press, opener):
    s = MatchSession("dm", "club", seed=0)
    app = App(s, W, H, headless=True, mode="play", camera="thrower")
    try:
        _to_the_first_set(s, lag_speed=0.85)
        assert "P1 wins the lag throw" in _news(s)
        assert s.choice is not None and s.busy and not s.can_throw
        app.frame(0.0)
        prompt = app.last_hud.prompt
        assert prompt == [
            "you (P1) won the lag: who opens the set?",
            "the lag winner chooses an end or who opens; the loser takes the other decision [DM §3]",
            "O: you open (you throw first)",
            "G: P2 opens (then P2 chooses the ends)",
        ]
        assert "prompt" in app.overlay.panels
        assert app.last_hud.message == "you won the lag: O you open, G P2 opens [DM §3]"
        done = len(s.records)
        for _ in range(5):  # the match waits for the answer
            s.skip()
            app.frame(0.1)
        assert len(s.records) == done and s.choice is not None and s.match.state.set_no == 0
        app.on_key_press(key.SPACE, 0)  # no other key answers
        app.on_key_release(key.SPACE, 0)
        app.frame(0.0)
        assert s.choice is not None
        app.on_key_press(press, 0)
        for _ in range(20):
            if s.match.state.set_no:
                break
            s.skip()
            app.frame(0.0)
        st = s.match.state
        assert st.opener == opener and s.choice is None
        news = _news(s)
        assert f"P1 decides that {opener} opens" in news
        assert any(t.startswith("P2 takes end ") for t in news)  # the loser's decision (DM §3)
        assert f"{opener} opens, as chosen after the lag [DM §3]" in s.facts
        assert "prompt" not in app.overlay.panels
        if opener == "P1":  # the opener throws 2 batons (DM §4), the person first
            _to_the_first_set(s)
            for _ in range(50):
                if s.request is not None:
                    break
                s.skip()
                s.update(0.0)
            assert s.request.kind == "baton" and st.turn_no == 1 and st.batons_left == 2
    finally:
        app.close()


def test_the_prompt_reads_in_german():
    s = MatchSession("dm", "club", seed=0)
    s.tr = translator("de")
    app = App(s, W, H, headless=True, mode="play", camera="thrower")
    try:
        _to_the_first_set(s, lag_speed=0.85)
        app.frame(0.0)
        assert app.last_hud.prompt == [
            "du (P1) hast den Anwurf gewonnen: wer eröffnet den Satz?",
            "der Gewinner des Anwurfs wählt eine Seite oder wer eröffnet; der Verlierer erhält die übrig "
            "gebliebene Entscheidung [DM §3]",
            "O: du eröffnest (du wirfst zuerst)",
            "G: P2 eröffnet (dann wählt P2 die Seiten)",
        ]
        assert app.last_hud.message == "Anwurf gewonnen: O du eröffnest, G P2 eröffnet [DM §3]"
        # a player's report: the status panel said "P1 gewinnt den Anwurf" after P2's lag baton
        # felled the king, with no rule; each event there now names the clauses it applies
        news = [line for line in app.last_hud.lines if line.startswith("» ")]
        assert news[-1] == "» P1 gewinnt den Anwurf  [DM §3]", news
        assert news[-2].startswith("» P2 Anwurf von Seite B: "), news
        assert news[-2].endswith("König gefallen  [DM §3]"), news
        actions = [r for r in s.records if r.get("type") == "action"]
        english = [e for r in actions for e in r.get("events", ()) if e["kind"] != "ruling"]
        assert english and all(e["rules"] for e in english)  # so every one of them shows a clause
    finally:
        app.close()


def test_the_computer_that_wins_the_lag_opens_itself():
    """The computer's documented default (kubb3d/players.py, ``Player.choose``): it opens."""
    s = MatchSession("dm", "club", seed=0)
    try:
        _to_the_first_set(s)
        assert s.choice is None and "P2 wins the lag throw" in _news(s)
        assert s.match.state.opener == "P2" and "P2 decides that P2 opens" in _news(s)
        assert "P2 opens, as chosen after the lag [DM §3]" in s.facts
    finally:
        s.close()


@pytest.mark.parametrize("ruleset, rule",
                         [("wikinger", "WS Sequence of Play"), ("kubbuteo", "kubb3d decision: Kubbuteo lag")])
def test_without_a_choice_the_status_says_who_opens_and_why(ruleset, rule):
    s = MatchSession(ruleset, "club", seed=0)
    try:
        _to_the_first_set(s)
        assert s.choice is None
        opener = s.match.state.opener
        assert opener in s.match.state.players
        assert f"{opener} opens: the lag winner opens, without a choice [{rule}]" in s.facts
        assert any(t in (f"{opener} wins the lag throw", f"{opener} wins the lag flick") for t in _news(s))
        de = translator("de")
        assert f"{opener} eröffnet: der Gewinner des Anwurfs eröffnet, ohne Wahl [{rule}]" in [de(t) for t in s.facts]
    finally:
        s.close()
