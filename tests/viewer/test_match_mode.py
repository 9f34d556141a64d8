"""Match mode (``kubb3d play --opponent``): the session drives :class:`kubb3d.match.Match` with the
person's throws from the controls, shows the match's facts and renders headless."""

import json
import re

import numpy as np
import pytest

from kubb3d.match import Match, MatchConfig
from kubb3d.viewer.controls import Controller
from kubb3d.viewer.match_mode import INKAST_SPEED, BATON_SPEED, MatchSession, scripted_person, state_lines

SEED = 3


def _facts(lines):
    """(phase, batons left, clock s, standing A, standing B) read back from the HUD lines."""
    text = "\n".join(lines)
    phase = re.search(r"phase (.+?)   turn", text).group(1)
    batons = int(re.search(r"batons left (\d+)", text).group(1))
    m, s = re.search(r"clock (\d+):(\d\d)", text).groups()
    return phase, batons, int(m) * 60 + int(s)


def test_session_plays_the_same_match_as_the_driver_and_shows_its_state():
    s = MatchSession("dm", "club", seed=SEED)
    person = scripted_person(s.match)
    asked = []
    try:
        for _ in range(400):
            if s.request is None and "inkast" in asked and sum(r["type"] == "action" for r in s.records) >= 12:
                break
            if s.request is not None:
                req = s.request
                c = s.controls
                # controls set up from the request: side, line, speed range
                assert c.line_x == req.line_x and c.line == req.line_x
                if req.kind in ("inkast", "penalty"):
                    assert (
                        c.side != req.into
                        and c.speed_range == INKAST_SPEED
                        and c.elevation_deg == 50.0
                        and c.release_angle_deg == 0.0
                    )
                else:
                    assert c.side == req.side and c.speed_range == BATON_SPEED and c.release_angle_deg == 60.0
                # the HUD shows the match state while the worker waits for the person
                st = s.match.state
                lines = s.hud(Controller(s.pitch, throw=c)).lines
                if st.set_no == 0:  # the lag: no set, turn or batons yet (no stale zeros)
                    assert lines[0].startswith("lag throws") and "batons left" not in "\n".join(lines)
                else:
                    phase, batons, clock = _facts(lines)
                    assert (phase, batons, clock) == (st.phase.value, st.batons_left, int(st.clock))
                assert s.can_throw and not s.busy
                asked.append(req.kind)
                with pytest.raises(ValueError):
                    s.throw(person(req).__class__(speed=-1.0))
                s.throw(person(req))
                assert s.request is None and s.busy
            s.update(0.0)
            s.skip()
            s.update(0.0)
            assert not s.error, s.error
        else:
            raise AssertionError("the session did not advance")
        records = list(s.records)
        # at rest between actions the HUD facts equal the state
        st = s.match.state
        assert _facts(s.facts) == (st.phase.value, st.batons_left, int(st.clock))
    finally:
        s.close()
    assert asked[:2] == ["lag", "baton"] and "inkast" in asked
    with pytest.raises(RuntimeError, match="not your throw"):
        s.throw(None)

    n_actions = sum(r["type"] == "action" for r in records)
    m = Match(MatchConfig(ruleset="dm", skills=("club", "club"), seed=SEED), human=["P1"])
    person = scripted_person(m)
    direct = []
    try:
        while sum(r["type"] == "action" for r in direct) < n_actions:
            p = m.pending()
            direct.extend(m.step(None if p.request is None else person(p.request)).records)
    finally:
        m.close()
    assert records == direct
    assert sum(1 for r in records if r["type"] == "world") >= 2


def test_state_lines_count_kubbs_per_half():
    m = Match(MatchConfig(ruleset="dm", seed=1))
    try:
        st = m.state
        while not any(st.felled_in(h) for h in "AB"):  # until a baton felled a kubb
            m.step()
        lines = state_lines(st, "P1")
        for h in "AB":
            n, felled = len(st.standing_in(h)), len(st.felled_in(h))
            assert re.search(
                rf"{h} \({st.player_at(h)}\) {n}\b" + (f"[^,]*, {felled} felled" if felled else ""), lines[3]
            ), (lines[3], h, n, felled)
        assert f"turn {st.turn_no}:" in lines[1] and lines[0].startswith(f"set {st.set_no} ")
    finally:
        m.close()


def test_headless_screenshot_after_match_actions(tmp_path):
    from kubb3d.viewer.app import App, load_pyglet
    from kubb3d.viewer.camera import project

    load_pyglet(headless=True)
    W, H = 640, 360
    s = MatchSession("dm", "club", seed=SEED, hold=True)
    app = App(s, W, H, headless=True, mode="play", camera="thrower")
    try:
        recs = s.advance_throws(9)
        assert len(recs) == 9 and s.records[-1]["type"] == "action"
        app.frame(0.0, hud=False)
        img = app.pixels().astype(int)
        vp = app.camera.view_proj(W, H)
        w = s.match.world
        own = s.match.state.end_of["P1"]
        checked = 0
        for k in s.match.state.standing_in(own):
            pos, _ = w.pose(k.id)
            assert np.allclose(s.scene.pieces[k.id].pose[:3], pos, atol=0.01)
            (px,), (vis,) = project(np.array(pos) + (0, 0, 0.2 * w.equipment.kubb.height), vp, W, H)
            r, g, b = img[int(round(px[1])), int(round(px[0]))]
            assert vis and r > g > b and r - b > 20, (k.id, (r, g, b))  # wood, not grass
            checked += 1
        assert checked >= 4
        app.frame(0.0)
        out = app.screenshot(tmp_path / "match.png")
        assert out.stat().st_size > 10_000
    finally:
        app.close()


def test_cli_opponent(tmp_path, cli):
    out = tmp_path / "m.png"
    r = cli("play", "--opponent", "club", "--screenshot", str(out), "--after", "3", "--width", "320", "--height", "180")
    assert r.returncode == 0, r.stderr
    assert out.exists()
    r = cli("play", "--opponent", "wizard", "--screenshot", str(tmp_path / "w.png"))
    assert r.returncode == 2 and "wizard" in r.stderr and "Traceback" not in r.stderr
    # --replay saves the match (a valid replay the viewer reads); refused without --opponent
    rp = tmp_path / "m.jsonl"
    out = tmp_path / "m2.png"  # (an existing picture is replaced only with --force)
    r = cli("play", "--opponent", "club", "--screenshot", str(out), "--after", "4", "--replay", str(rp),
            "--round-cap", "3", "--width", "320", "--height", "180")
    assert r.returncode == 0, r.stderr
    from kubb3d.viewer.replay import load_replay

    tl, _, header = load_replay(rp)
    # a segment per throw of the match so far: the lag throws at least (4 when the first pair is
    # tied and thrown again, 2 since the ninth speed round's flight, when it is not)
    throws = sum(len(json.loads(line).get("throws") or []) for line in rp.read_text().splitlines())
    assert header["config"]["round_cap"] == 3 and len(tl.segments) == throws >= 2
    # issue 34: the view named the person "P1 (club)" like the computer; the header says who
    # the person played, and the view's title names them (with the release error they had)
    from kubb3d.viewer.replay import load_session

    assert header["people"] == ["P1"]
    title = load_session(rp).title
    assert "P1 (person, club) vs P2 (club)" in title, title
    from kubb3d.match import Match, MatchConfig

    simulated = Match(MatchConfig(seed=0))
    try:
        assert "people" not in simulated.header  # simulated matches' replays stay as they were
    finally:
        simulated.close()
    bad = (
        (("--replay", str(rp)), "exists"),
        (("--replay", str(tmp_path / "x.jsonl"), "--opponent", "club", "--screenshot", str(tmp_path / "r.png"),
          "--round-cap", "2"),
         "round-cap"),
        (("--replay", str(tmp_path / "y.jsonl")), "--replay needs --opponent (a match)"),
    )
    for args, msg in bad:
        r = cli("play", *(("--opponent", "club", "--screenshot", str(out)) if msg == "exists" else ()), *args)
        assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_rematch_after_the_match_is_over():
    s = MatchSession("dm", "club", seed=SEED, round_cap=3)
    try:
        s.new_round()
        assert "still on" in s.message and s.match.config.seed == SEED
        s.advance_throws(200)
        assert s.over and s.summary()[0].startswith("match over: ")
        hud = s.hud(Controller(s.pitch, throw=s.controls))
        assert hud.summary and not hud.message and not any(line.startswith("» ") for line in hud.lines)
        s.new_round()
        assert not s.over and s.match.config.seed == SEED + 1 and s.records == []
    finally:
        s.close()


def _simulate_step(session, person) -> None:
    """One step of the match: the scripted person's throw if one is asked, else the clock at 0;
    then the step simulated to its end, nothing of it played yet."""
    if session.request is not None:
        session.throw(person(session.request))
    else:
        session.update(0.0)
    while session._stream is not None:
        session.update(0.0)


def test_facts_wait_until_the_throw_is_played():
    """Issue 18: the HUD does not show what a throw did (kubbs standing, felled, the news)
    before the throw has been played back to rest."""
    s = MatchSession("dm", "club", seed=SEED)
    person = scripted_person(s.match)
    seen = 0
    try:
        for _ in range(300):
            # the step's last segment: queued, or on screen already (a streamed throw that took
            # over from its live frames)
            _simulate_step(s, person)
            last = ([s.segment] if s.segment is not None else []) + s.queue
            last = last[-1] if last else None
            if last is not None and last.info.get("after", {}).get("facts") not in (None, s.facts):
                before, after = list(s.facts), last.info["after"]["facts"]
                s.update(0.0)  # the first segment starts
                assert s.playing and s.facts == before
                s.update(s.segment.flight * 0.5)
                assert s.facts == before
                s.skip()
                s.update(0.0)
                assert s.facts == after
                seen += 1
                if seen >= 5:
                    break
            s.skip()
        assert seen >= 5
    finally:
        s.close()


def test_a_persons_throw_flies_on_screen_while_it_is_simulated(monkeypatch):
    """Issue 18 item 1: the release is drawn in the frame of the release, the throw then flies
    frame by frame while the match step is still simulating it (one frame pulled per update
    here), and the step's own segment takes over at the same moment of the flight."""
    import kubb3d.viewer.match_mode as mm
    from kubb3d.throw import release_from_params

    monkeypatch.setattr(mm, "LIVE_BUDGET_S", 0.0)
    s = MatchSession("dm", "club", seed=SEED)
    person = scripted_person(s.match)
    try:
        for _ in range(2000):
            if s.request is not None and s.request.kind == "baton":
                break
            if s.request is not None:
                s.throw(person(s.request))
            s.skip()
            s.update(0.0)
        req = s.request
        assert req is not None and req.kind == "baton"
        params = person(req)
        s.throw(params)
        sc = s.scene
        assert s._stream is not None and s.segment.thrown == req.piece and req.piece not in sc.hidden
        start = np.asarray(release_from_params(params, s.pitch).position)
        assert np.allclose(sc.pieces[req.piece].pose[:3], start, atol=1e-9)
        xs, ts, live_updates = [], [], 0
        forward = 1.0 if req.side == "A" else -1.0
        while s._stream is not None:
            s.update(1 / 30)
            live_updates += 1
            xs.append(forward * sc.pieces[req.piece].pose[0])
            ts.append(s.t)
        assert live_updates > 10  # many frames drawn before the step returned
        # the replay rounds times to 0.1 ms: the step's segment may take over 0.05 ms earlier
        assert all(b >= a - 1e-4 for a, b in zip(ts, ts[1:])) and ts[-1] > 0.3
        assert xs[10] > forward * start[0] + 1.0  # flying forward at once
        # the step's segment took over without starting again
        seg = s.segment
        assert seg.thrown == req.piece and not seg.info.get("live") and s.t == ts[-1] > 0.3
        s.skip()
        s.update(0.0)
        end = seg.end[req.piece]
        assert np.allclose(sc.pieces[req.piece].pose, end, atol=1e-4)  # the replay rounds to 0.1 mm
    finally:
        s.close()


def test_the_hud_line_is_always_the_line_of_the_side_whose_turn_it_is():
    """Issue 18 (noticed): the status panel said "throwing line x +4.00 m" (B's baseline) while
    P1 inkasted at end A: the rules state keeps the last thrower's line until the next
    throwing phase. The panel names the line only while throwing (``DM §8``: the baseline or
    an advance line in the thrower's own half) and the baseline while inkasting (``DM §6``)."""
    m = Match(MatchConfig(ruleset="dm", skills=("club", "club"), seed=1))
    checked = set()
    try:
        while m.state.outcome() is None:
            s = m.state
            for line in state_lines(s, "P1"):
                got = re.search(r"x ([+-]\d+\.\d\d) m", line)
                if got and s.turn_side is not None:
                    x, side = float(got.group(1)), s.turn_side
                    f = m.pitch.forward(side)
                    # in the side's own half, not behind its baseline
                    assert f * x <= 0.0 and f * (x - m.pitch.baseline_x(side)) >= -1e-9, (s.phase, side, line)
                    checked.add((s.phase.value, side))
            m.step()
    finally:
        m.close()
    assert {("inkast", "A"), ("inkast", "B"), ("throw", "A"), ("throw", "B")} <= checked


def test_the_last_throw_card_names_whose_throw_it_is():
    """The card after a throw names its thrower: the computer's lag throw is not shown as if it
    were the person's ("P2 (computer): baton 1 at 6.7 m/s"), in English and in German."""
    from kubb3d.i18n import translator

    de = translator("de")
    s = MatchSession("dm", "club", seed=SEED)
    person = scripted_person(s.match)
    seen: dict[str, list[str]] = {}
    lag = ""
    try:
        for _ in range(300):
            _simulate_step(s, person)
            s.skip()
            s.update(0.0)
            if s.card:
                first = str(s.card[0])
                actor = {"P1 (you)": "P1", "P2 (computer)": "P2"}.get(first.split(": ")[0])
                assert actor is not None, first
                assert re.fullmatch(r"P[12] \((you|computer)\): baton \d at \d+\.\d m/s", first), first
                seen.setdefault(actor, []).append(first)
                german = de(s.card[0])
                assert german.startswith({"P1": "P1 (du): Wurfholz ", "P2": "P2 (Computer): Wurfholz "}[actor]), german
                if actor == "P2" and any(str(line).startswith("lag: ") for line in s.card):
                    lag = first
                if "P1" in seen and lag:
                    break
        assert set(seen) == {"P1", "P2"} and lag.startswith("P2 (computer): baton")
    finally:
        s.close()


def test_the_card_after_scripted_actions_names_who_threw():
    """The README's Kubbuteo picture (``kubb3d play --ruleset kubbuteo --opponent club --seed 1
    --after 3``) showed P1's first flick on a card titled "P2 (computer)": the actions played
    at once by ``--after`` were all put down to the computer. After each of the first three
    actions (P1's lag flick, P2's, P1's first flick) the card names the player who acted and
    the piece of that action."""
    s = MatchSession("kubbuteo", "club", seed=1, hold=True)
    try:
        for n, who, lag in ((1, "P1 (you)", True), (2, "P2 (computer)", True), (3, "P1 (you)", False)):
            (rec,) = s.advance_throws(1)
            assert sum(r["type"] == "action" for r in s.records) == n
            thrower = "P1" if who.startswith("P1") else "P2"
            assert rec["action"]["side"] == s.match.state.end_of[thrower]
            assert s.card[0].startswith(f"{who}: baton 1 at "), (n, s.card)
            assert any(line.startswith("lag: ") for line in s.card) is lag
        assert s.news[0].startswith("P1 flick 1 (baton 1")
    finally:
        s.close()
