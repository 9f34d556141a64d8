"""Match mode of ``kubb3d play --opponent SKILL``: a whole match against a simulated player.

:class:`MatchSession` runs a :class:`kubb3d.match.Match` inside the viewer. The person is one
player of the match (the first by default: ``P1``, ``T1`` in a WS team match; he starts at end A and changes ends between sets like
the match says); the other player is simulated.

How the session advances (pure Python, no OpenGL, no threads; the app calls
:meth:`MatchSession.update` every frame): the session drives the match itself.

* When nothing is being played back it asks :meth:`Match.pending` what is due. A simulated
  player's action (a lag throw, a choice, a baton throw, one inkast attempt …) is performed at
  once by :meth:`Match.step`; a throw of the person sets the play controls up for the
  :class:`~kubb3d.match.HumanRequest` (its side and line; inkasts and penalty kubbs with a
  lower speed range, a steeper default elevation and little spin) and waits for the release.
* On release, :meth:`MatchSession.throw` hands the :class:`~kubb3d.throw.ThrowParams` to
  :meth:`Match.step_iter`, which simulates that one throw (each kubb of a multi-kubb inkast is
  a step of its own) and yields its frames (:class:`~kubb3d.throw.ThrowFrame`) as they are
  simulated. Every frame the session pulls more of them (at most :data:`LIVE_BUDGET_S` of
  wall time, so the window keeps drawing) and shows the throw as far as it is known, at real
  speed (a :class:`~kubb3d.viewer.scene.LiveSegment`): the piece flies from the release on,
  without waiting for the step. Simulated players' steps are streamed the same way.
* When the step returns its :class:`~kubb3d.match.StepResult`, its records and throws become
  playback segments through a :class:`~kubb3d.viewer.replay.TimelineBuilder` (the same code
  that reads replay files); they take over from the live throw at the same moment of the
  flight, with the judge's rulings and raised poses (animated) once it is at rest.

Headless (``--screenshot``): :meth:`MatchSession.advance_throws` performs match actions in the
calling thread with the person's throws scripted by :func:`scripted_person` (the simulated
strategy's noise-free throws).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Generator, Mapping

import numpy as np

from kubb3d.errors import MatchSetupError, MatchUnavailable as MatchUnavailable
from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import N_, Msg, concat, join, known, msg, nmsg, piece_name
from kubb3d.pitch import KING_ID, opponent
from kubb3d.rules import Choose, Phase
from kubb3d.viewer.camera import camera_name
from kubb3d.viewer.controls import SPEED_MAX, SPEED_MIN, Controller, FlickControls, ThrowControls
from kubb3d.viewer.hud import mode_tags as _modes, HELP_FLICK, HELP_PLAY, Hud, last_throw_lines, outcome_line, power_label, release_warnings, ruling_history, ruling_lines, throw_lines
from kubb3d.viewer.scene import HOLD_TIME, LiveSegment, PieceView, Segment

PERSON = "P1"
"""Default name of the person's player (DM duels name the players P1 and P2)."""
INKAST_SPEED = (2.0, 11.0)
"""m/s: release speed at an empty / full power bar for inkasts and penalty kubbs (a lob of
4–8 m needs about 6–9 m/s)."""
BATON_SPEED = (SPEED_MIN, SPEED_MAX)
"""m/s: the same for baton, king and lag throws."""
KUBB_DEFAULTS = {"elevation_deg": 50.0, "spin_rps": 0.3, "tilt_deg": 0.0, "release_angle_deg": 0.0, "speed_range": INKAST_SPEED}
"""Settings an inkast starts from (deg, rev/s, m/s)."""
BATON_DEFAULTS = {"elevation_deg": 20.0, "spin_rps": 1.5, "tilt_deg": 0.0, "release_angle_deg": 60.0, "speed_range": BATON_SPEED}
"""Settings a baton throw starts from (deg, rev/s, m/s)."""


LIVE_BUDGET_S = 0.012
"""s: wall time a frame spends at most pulling frames of the step under way (simulating it);
a throw simulates much faster than real time (``docs/speed.md``), so the simulation stays
ahead of the display while the window keeps drawing (docs/viewer.md, live throws)."""


@dataclass
class _Stream:
    """The step under way (:meth:`Match.step_iter`): its live throws and its result once done."""

    run: Generator
    throws: list[LiveSegment] = field(default_factory=list)
    k: int = 0  # the live throw on screen
    hold: float = 0.0  # s the live throw on screen has been at rest
    result: Any = None


@dataclass
class MatchControls(ThrowControls):
    """The play controls with a per-throw speed range and release angle.

    Attributes:
        speed_range: release speed at an empty and a full power bar, m/s.
        release_angle_deg: the piece's long axis above the horizontal at release, deg
            (batons 60°, kubbs 0°, as the simulated players throw them).
    """

    speed_range: tuple[float, float] = BATON_SPEED
    release_angle_deg: float = 60.0

    @property
    def speed(self) -> float:
        """Release speed for the current power, m/s."""
        lo, hi = self.speed_range
        return lo + self.power * (hi - lo)

    def params(self, speed: float | None = None):
        return replace(super().params(speed), release_angle_deg=self.release_angle_deg)


def scripted_person(match, name: str = PERSON) -> Callable[[Any], Any]:
    """A stand-in for the person: answers every :class:`~kubb3d.match.HumanRequest` with the
    noise-free throw the simulated strategy of player ``name`` intends (aimed at the
    request's target hint). Deterministic: the same request gives the same
    :class:`~kubb3d.throw.ThrowParams`."""
    player = match.players[name]

    def answer(req):
        eq, pitch = req.world.equipment, req.world.pitch
        rng = np.random.default_rng(0)  # only feeds the discarded noisy release
        if req.flick:  # Kubbuteo: returns and the lag flick stop at the target, batons arrive at 0.7 m/s
            kubb = req.kind in ("inkast", "penalty")
            side = opponent(req.into) if kubb else req.side
            stop = kubb or req.kind == "lag"
            intended, _ = player.baton_flick(req.world, side, req.line_x, req.target[:2], rng, arrive_speed=0.0 if stop else 0.7, kind="kubb" if kubb else "baton")
        elif req.kind in ("inkast", "penalty"):
            intended, _ = player.kubb_throw(eq, pitch, opponent(req.into), req.target[:2], rng, dt=req.world.dt)
        else:
            intended, _ = player.baton_throw(eq, pitch, req.side, req.line_x, req.target, rng, dt=req.world.dt)
        return intended

    return answer


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m:d}:{s:02d}"


def state_lines(state, person: str, flick: bool = False) -> list[str]:
    """The match facts of the HUD's status panel for a :class:`~kubb3d.rules.MatchState`:
    sets, phase and whose turn, throwing line (m; cm on a Kubbuteo board; only while throwing, ``DM §8``: the state
    keeps the last thrower's line through the next inkast; while inkasting the baseline,
    ``DM §6``) and batons left, kubbs standing per half (and felled ones waiting), the match
    clock (m:ss); ``flick``: on a table-top board, whose start is a lag flick (kubb3d's start
    rule for KT, :mod:`kubb3d.rules.kubbuteo`)."""
    s = state
    p1, p2 = s.players
    if s.set_no == 0 and flick:
        return [nmsg("lag flicks (best of {sets} set): stop your baton closest to the king", "lag flicks (best of {sets} sets): stop your baton closest to the king", s.sets, sets=s.sets), msg("clock {clock}", clock=_clock(s.clock))]
    if s.set_no == 0:  # before the first set: the lag throws (DM §3)
        return [
            nmsg(
                "lag throws (best of {sets} set): land your baton closest to the king",
                "lag throws (best of {sets} sets): land your baton closest to the king",
                s.sets,
                sets=s.sets,
            ),
            msg("clock {clock}", clock=_clock(s.clock)),
        ]
    lines: list[str] = [msg("set {n} (best of {sets}): sets won {p1} {w1} – {w2} {p2}", n=s.set_no, sets=s.sets, p1=p1, w1=s.set_wins[p1], w2=s.set_wins[p2], p2=p2)]
    turn: str = "-"
    if s.turn_side is not None:
        who = s.player_at(s.turn_side)
        turn = msg("{player} (you), end {end}", player=who, end=s.turn_side) if who == person else msg("{player}, end {end}", player=who, end=s.turn_side)
    lines.append(msg("phase {phase}   turn {n}: {turn}", phase=known(s.phase.value), n=s.turn_no, turn=turn))
    why = opening_line(s)
    if why:
        lines.append(why)
    board = s.ruleset.flicks  # Kubbuteo: lengths in cm, as the flick panels give them
    if s.turn_side is not None and s.phase is Phase.THROW and s.line_x is not None:
        if board:
            lines.append(msg("throwing line x {x_cm:+.1f} cm   batons left {batons}", x_cm=s.line_x * 100, batons=s.batons_left))
        else:
            lines.append(msg("throwing line x {x:+.2f} m   batons left {batons}", x=s.line_x, batons=s.batons_left))
    elif s.turn_side is not None and s.phase is Phase.INKAST:  # from the baseline (DM §6)
        if board:
            lines.append(msg("inkast from the baseline x {x_cm:+.1f} cm   batons left {batons}", x_cm=s.pitch.baseline_x(s.turn_side) * 100, batons=s.batons_left))
        else:
            lines.append(msg("inkast from the baseline x {x:+.2f} m   batons left {batons}", x=s.pitch.baseline_x(s.turn_side), batons=s.batons_left))
    else:  # the state keeps the last thrower's line until the next throwing phase
        lines.append(msg("throwing line -   batons left {batons}", batons=s.batons_left))
    if s.kubbs:
        per = []
        for half in ("A", "B"):
            owner = s.player_at(half)
            standing = s.standing_in(half)
            felled = len(s.felled_in(half))
            field = sum(1 for k in standing if not k.baseline)
            per.append(concat(f"{half} ({owner}) {len(standing)}", nmsg(" incl. {n} field", " incl. {n} field", field, n=field) if field else "", msg(", {n} felled", n=felled) if felled else ""))
        # the heading, each half and KING DOWN set apart by two spaces or more: a narrow panel
        # wraps the line between them (hud.wrap_text), not inside a half's count
        lines.append(concat(msg("kubbs standing: "), " ", join(per, "   "), "" if s.king_standing else msg("   KING DOWN")))
    limit = msg(" of {limit}", limit=_clock(s.time_limit_s)) if s.time_limit_s else ""
    lines.append(msg("clock {clock}{limit}", clock=_clock(s.clock), limit=limit))
    return lines


def opening_line(state) -> str:
    """Who opens the set and why, with the clause, until the opener's first throw (else ""):
    after the lag the winner chooses an end or who opens and the loser takes the other
    decision (``DM §3``; the deciding set after time ran out, ``DM §9``); where the rules give
    no choice the lag winner opens (WS "Sequence of Play"; Kubbuteo: kubb3d's lag rule, KT
    says nothing); from the second set on the right to open changes (``DM §3``)."""
    s = state
    if s.set_no == 0 or s.opener is None or s.turn_no > 1 or s.batons_thrown:
        return ""  # once the opener has thrown, the play-by-play takes the panel's room
    rs = s.ruleset
    if getattr(s, "tb_decider", False):
        return msg("{player} opens, as chosen after the deciding lag [{rule}]", player=s.opener, rule=rs.cite("tiebreak_decider"))
    if s.set_no > 1:
        return msg("{player} opens: the right to open changes every set [{rule}]", player=s.opener, rule=rs.cite("sets"))
    if rs.lag_choice:
        return msg("{player} opens, as chosen after the lag [{rule}]", player=s.opener, rule=rs.cite("lag"))
    return msg("{player} opens: the lag winner opens, without a choice [{rule}]", player=s.opener, rule=rs.cite("lag"))


_FLICK_TEXT = {"lag": N_("your lag flick: stop the baton close to the king"), "baton": N_("your flick: {piece} at the kubbs in half {half}"), "king": N_("KING FLICK with {piece} from your baseline"), "inkast": N_("return {piece}: flick it into half {into}"), "penalty": N_("return {piece} again: flick it into half {into}")}
"""The person's request in words on a table-top board (KT: batons and returned kubbs are flicked)."""
_KIND_TEXT = {"lag": N_("your lag throw: land the baton close to the king"), "baton": N_("your throw: {piece} at the kubbs in half {half}"), "king": N_("KING THROW with {piece} from your baseline"), "inkast": N_("inkast {piece} into half {into}"), "penalty": N_("penalty kubb {piece} into half {into}")}


class MatchSession:
    """A match against a simulated player, as a viewer session (see the module doc).

    Args:
        ruleset: ``dm`` or ``wikinger``.
        opponent: skill preset of the simulated player (``novice``, ``club``, ``elite``).
        seed: the match's root seed (the opponent's release noise, choices …).
        person: name of the person's player (``P1`` or ``P2`` in DM; None: the first player,
            ``P1``, or ``T1`` in a WS team match).
        replay: also write the match replay to this path (None: no file).
        hold: do not start match actions on :meth:`update` (headless screenshots).
        round_cap: turns per set before the match is cut off (None: the match's default).
        difficulty: the person's release error (:data:`kubb3d.match.human.DIFFICULTIES`).
        sets: best of this many sets (None: the ruleset's default).

    Raises:
        UnknownNameError, MatchSetupError: unknown ruleset or skill, a person who is not a player.
    """

    tr: Translator = ENGLISH
    """The language of the HUD (the app sets it from ``--lang``, docs/german.md)."""

    def __init__(self, ruleset: str = "dm", opponent: str = "club", seed: int = 0, person: str | None = None, replay: str | Path | None = None, hold: bool = False, round_cap: int | None = None, options: Mapping[str, Any] | None = None, replace_replay: bool = True, difficulty: str = "exact", sets: int | None = None) -> None:
        from kubb3d.match import Match, MatchConfig
        from kubb3d.viewer.replay import TimelineBuilder

        cfg = MatchConfig(ruleset=ruleset, skills=(opponent, opponent), seed=seed, options=tuple(sorted((options or {}).items())), difficulty=difficulty, sets=sets)
        if round_cap is not None:
            cfg = replace(cfg, round_cap=round_cap)
        names = cfg.player_names()
        if person is None:  # the first player: P1 in a duel, T1 in a team match (WS)
            person = names[0]
        if person not in names:
            raise MatchSetupError(f"the person must be one of the players {list(names)}, got {person!r}")
        self.person, self.opponent_skill = person, opponent
        self.other = names[1] if names[0] == person else names[0]
        self.match = Match(cfg, replay=replay, human=[person], replace_replay=replace_replay)
        m = self.match
        self.pitch = m.pitch
        self.builder = TimelineBuilder(m.header)
        self.scene = self.builder.scene()
        self.flick = m.flow.flicks
        self.controls = (FlickControls if self.flick else MatchControls)(self.pitch, m.state.end_of[person])
        self._kind_mode = "baton"
        self._saved = {"baton": dict(BATON_DEFAULTS), "kubb": dict(KUBB_DEFAULTS)}
        self.records: list[dict] = []
        self.news: list[str] = []  # texts of the last action's events (not rulings), at most 3
        self.hold = hold
        self.request = None  # the HumanRequest waiting for the person's throw
        self.choice: tuple[Choose, Choose] | None = None  # the person's lag-winner choice asked (DM §3): open, give
        self.queue: list[Segment] = []
        self.segment: Segment | None = None
        self.t = 0.0
        self.error = ""
        self.message = ""
        self._live = 0  # throws of the action under way already played (a person's inkast)
        self._stream: _Stream | None = None  # the step being simulated and drawn
        self._pending = None  # the match's last Pending (who acts)
        self.card: list[str] = []  # the last throw's card: stays until the person's next release
        self.card_rulings: tuple = ()  # the rulings of the last action at rest, and what it felled
        self.card_felled: list[str] | None = None
        self.history: list[tuple[str, tuple, list[str] | None]] = []  # the rulings list (TAB)
        # everything a rematch keeps (R: the next seed)
        self.config = {"ruleset": ruleset, "opponent": opponent, "seed": seed, "person": person, "replay": replay, "round_cap": round_cap, "options": options, "difficulty": difficulty, "sets": sets}
        self.facts: list[str] = state_lines(m.state, person, self.flick)

    # ---------------------------------------------------------------- state
    @property
    def over(self) -> bool:
        return self.match.state.outcome() is not None

    @property
    def playing(self) -> bool:
        """A segment (or queued ones) is still being played back."""
        return self._stream is not None or bool(self.queue) or (self.segment is not None and self.t < self.segment.duration)

    @property
    def busy(self) -> bool:
        """True unless the person is asked for a throw (no aiming or charging meanwhile)."""
        return self.request is None

    @property
    def can_throw(self) -> bool:
        return self.request is not None

    @property
    def confirm_quit(self) -> bool:
        """ESC asks before it leaves the match, unless the match is over."""
        return not self.over

    @property
    def computer_on_screen(self) -> bool:
        """The simulated player's action is being played back (it plays faster, and in slow
        motion only when asked for every throw: :meth:`Controller.rate`)."""
        seg = self.segment
        if self.request is not None or not self.playing or seg is None:
            return False
        return seg.info.get("actor") not in (None, self.person)

    def warnings(self) -> list[str]:
        """What would make the person's baton throw being prepared illegal
        (:func:`~kubb3d.viewer.hud.release_warnings`; none for an inkast or a flick)."""
        req = self.request
        if req is None or req.kind in ("inkast", "penalty") or self.flick:
            return []
        return release_warnings(self.controls, self.match.ruleset.book.throw_rules)

    def throw(self, params) -> None:
        """The person released: perform the asked-for throw with ``params``
        (:class:`~kubb3d.throw.ThrowParams`); its playback starts at once.

        Raises:
            RuntimeError: the person is not asked for a throw now.
            ValueError: parameters out of range.
        """
        if self.request is None:
            raise RuntimeError("not your throw: wait for your turn")
        params.validate()
        self.request = None
        self.message = ""
        self.card, self.card_rulings, self.card_felled = [], (), None
        self._begin(params)
        self.update(0.0)  # the release is on screen in this very frame

    # ---------------------------------------------------------------- the step under way
    def _begin(self, answer=None) -> None:
        """Start the pending step (``answer``: the person's parameters, or None); its throws
        are shown as they are simulated (:meth:`update`)."""
        self._stream = _Stream(self.match.step_iter(answer))

    def _pull(self, budget: float) -> None:
        """Simulate the step under way for at most ``budget`` s of wall time (at least one
        frame), adding its frames to the live throws; at its end the step's segments take over."""
        st = self._stream
        if st is None:
            return
        deadline = time.perf_counter() + budget
        while st.result is None:
            try:
                fr = next(st.run)
            except StopIteration as stop:
                st.result = stop.value
                break
            except Exception as exc:  # shown on the HUD; the match cannot go on
                self.error = f"match engine error: {exc}"
                self._stream = None
                return
            self._frame(st, fr)
            if time.perf_counter() >= deadline:
                break
        if st.result is not None:
            self._land(st)

    def _frame(self, st: _Stream, fr) -> None:
        """One :class:`~kubb3d.throw.ThrowFrame` of the step under way."""
        from kubb3d.viewer.replay import TimelineBuilder

        poses = {pid: p for pid, p in fr.poses().items() if not pid.startswith("stake")}
        if fr.time_s > 0.0 or fr.final:
            st.throws[-1].add(fr.time_s, poses, fr.final)
            return
        # a release: a new throw, or the repeat of the last one after a physics glitch
        sc = self.scene
        for pid, pose in poses.items():
            if pid not in sc.pieces:
                sc.pieces[pid] = PieceView(TimelineBuilder.kind_of(pid), pose.copy())
        p = self._pending
        action = getattr(p, "action", None)
        info = {"live": True, "hidden": set(sc.pieces) - set(poses), "actor": p.player if p is not None else self.other, "throwing_line": getattr(action, "line_x", None)}
        live = LiveSegment(fr.piece, self._live_label(action, fr.piece), {pid: pv.pose for pid, pv in sc.pieces.items()}, poses, info)
        if st.throws and st.throws[-1].piece == fr.piece:
            st.throws[-1] = live
            if st.k == len(st.throws) - 1:
                self.segment, self.t = live.segment, 0.0
        else:
            st.throws.append(live)

    def _live_label(self, action, piece: str) -> str:
        from kubb3d.match import action_to_dict

        return self.builder.describe(action_to_dict(action)) if action is not None else piece_name(piece)

    def _land(self, st: _Stream) -> None:
        """The step under way returned: its segments replace the live throws, the one on screen
        at the same moment of its flight."""
        self._stream = None
        shown = st.throws[st.k].segment if st.throws else None
        on_screen = shown is not None and self.segment is shown
        t = self.t
        n0 = len(self.queue)
        if not self._take(st.result):
            self.segment = None
            return
        new = self.queue[n0:]
        thrown = [seg for seg in new if seg.thrown is not None]
        if on_screen and len(thrown) == len(st.throws):
            i = self.queue.index(thrown[st.k])
            self.queue = self.queue[i + 1 :]
            self.segment, self.t = thrown[st.k], min(t, thrown[st.k].flight)
        elif shown is not None:
            self.segment, self.t = None, 0.0  # play the step's segments from their start

    def _advance_live(self, dt: float) -> None:
        """Show the step under way ``dt`` s later, as far as it is simulated; a throw at rest
        stays :data:`~kubb3d.viewer.scene.HOLD_TIME` s before the step's next throw. Until the
        step's first throw is on screen only one frame is simulated at a time, so that the
        release is drawn as soon as it is known."""
        st = self._stream
        self._pull(LIVE_BUDGET_S if st is not None and st.throws else 0.0)
        st = self._stream
        if st is None or not st.throws:
            return
        live = st.throws[st.k]
        if self.segment is not live.segment:
            self.segment, self.t = live.segment, 0.0
            return
        self.t = min(self.t + dt, live.last_time)
        if live.final and self.t >= live.last_time:
            st.hold += dt
            if st.hold >= HOLD_TIME and st.k + 1 < len(st.throws):
                st.k, st.hold = st.k + 1, 0.0
                self.segment, self.t = st.throws[st.k].segment, 0.0

    def advance_throws(self, n: int) -> list[dict]:
        """Perform ``n`` match actions at once (fewer if the match ends), the person's throws
        made by :func:`scripted_person`; the view jumps to rest after the last. Returns the
        action records."""
        script = scripted_person(self.match, self.person)
        out: list[dict] = []
        while len(out) < n and not self.over:
            p = self._pending = self.match.pending()  # whose action: its segments' actor (the card's name)
            r = self.match.step(None if p.request is None else script(p.request))
            self._take(r)
            if r.done:
                out.append(r.record)
        self.request = None
        self.skip()
        self.update(0.0)
        return out

    # ---------------------------------------------------------------- step results → segments
    def _take(self, r) -> bool:
        """Queue the playback segments of a :class:`~kubb3d.match.StepResult` (False: it cannot be
        shown, :attr:`error` says why)."""
        from kubb3d.match import action_to_dict

        b = self.builder
        new: list[Segment] = []
        try:
            for rec in r.records:
                self.records.append(rec)
                new += b.feed(rec, shown=self._live if rec.get("type") == "action" else 0)
            if r.done:
                self._live = 0
            else:
                n = len(getattr(r.action, "kubbs", ())) or 1
                for th in r.throws:
                    self._live += 1
                    new.append(b.live_throw(th, f"{b.describe(action_to_dict(r.action))} ({self._live}/{n})"))
        except (KeyError, TypeError, ValueError) as exc:  # a record the viewer cannot show
            self.error = f"cannot show the last action: {exc}"
            return False
        sc = self.scene
        for pid, kind in b.kinds.items():
            if pid not in sc.pieces:
                sc.pieces[pid] = PieceView(kind, b.poses.get(pid, np.array((0, 0, -5, 0, 0, 0, 1.0))).copy(), side=b.sides.get(pid))
            elif b.sides.get(pid) is not None:
                sc.pieces[pid].side = b.sides[pid]
        for seg in new:  # pieces a segment does not know are hidden (batons not yet thrown)
            for pid, pv in sc.pieces.items():
                if pid not in seg.start:
                    seg.start[pid] = pv.pose.copy()
                    seg.end.setdefault(pid, pv.pose.copy())
                    seg.info.setdefault("hidden", set()).add(pid)
        actor = self._pending.player if self._pending is not None else self.other
        for seg in new:
            seg.info["actor"] = actor
        # the step's facts are shown once its last segment is at rest (nothing before it happened)
        # each with the clauses it applies, as the rulings panel gives them: "P1 wins the lag
        # throw" said neither why nor by which rule after the other lag baton felled the king
        texts = [concat(e.text, f"  [{', '.join(e.rules)}]") if e.rules else e.text for e in r.events if e.kind != "ruling"]
        after = {"facts": state_lines(self.match.state, self.person, self.flick), "news": texts[-3:] if texts else None}
        if new:
            new[-1].info["after"] = after
            self.queue.extend(new)
        else:
            self._apply(after)
        if any(rec.get("type") == "world" for rec in r.records):
            self.controls.side = self.match.state.end_of[self.person]
            self.controls.line_x = None
        return True

    def _apply(self, after: dict) -> None:
        self.facts = after["facts"]
        if after["news"]:
            self.news = after["news"]

    def _rest(self, seg: Segment) -> None:
        """A segment came to rest: its card and rulings are shown from now until the person's
        next release (or the next throw at rest), its rulings join the rulings list; once."""
        if seg.info.get("rested"):
            return
        seg.info["rested"] = True
        if seg.info.get("throw"):
            self.card = last_throw_lines(seg, self.person)
        if seg.rulings:
            self.card_rulings, self.card_felled = tuple(seg.rulings), seg.info.get("felled")
            self.history.append((seg.label, tuple(seg.rulings), seg.info.get("felled")))

    def _show(self, seg: Segment, t: float) -> None:
        if seg.at_rest(t):
            self._rest(seg)
        if seg.at_rest(t) and "after" in seg.info:  # once: later steps may have newer facts
            self._apply(seg.info.pop("after"))
        sc = self.scene
        sc.set_poses(seg.poses_at(t))
        sc.trace = seg.trace(t)
        sc.hidden = set(seg.info.get("hidden", ())) | (set(sc.pieces) - set(seg.start))
        sc.throwing_line = seg.info.get("throwing_line")
        sc.clear_status()
        if seg.at_rest(t):
            sc.set_status(seg.rulings)

    def _prepare(self, req, poses) -> None:
        """Show the request's world and set the controls up for it."""
        sc = self.scene
        for pid, pose in poses.items():
            if pid not in sc.pieces:
                kind = "king" if pid == KING_ID else ("baton" if pid.startswith("baton") else "kubb")
                sc.pieces[pid] = PieceView(kind, pose)
        sc.set_poses(poses)
        sc.hidden = set(sc.pieces) - set(poses)
        sc.trace = None
        sc.clear_status()
        c = self.controls
        mode = "kubb" if req.kind in ("inkast", "penalty") else "baton"
        if mode != self._kind_mode and not self.flick:  # a flick is the same for both
            self._saved[self._kind_mode] = {k: getattr(c, k) for k in BATON_DEFAULTS}
            for k, v in self._saved[mode].items():
                setattr(c, k, v)
            self._kind_mode = mode
        c.side = opponent(req.into) if mode == "kubb" else req.side
        c.line_x = req.line_x
        c.charging, c.power = False, 0.0
        sc.throwing_line = req.line_x
        # the aim stays where the pointer is (the request's target is only the simulated
        # strategy's hint)
        self.request = req
        half = opponent(req.side)
        text = (_FLICK_TEXT if self.flick else _KIND_TEXT)[req.kind]
        what = Msg(text, **{k: v for k, v in (("piece", piece_name(req.piece)), ("half", half), ("into", req.into)) if "{" + k + "}" in text})
        self.message = msg("YOUR TURN: {what} (hold the left button or SPACE, release to flick)", what=what) if self.flick else msg("YOUR TURN: {what} (hold the left button or SPACE, release to throw)", what=what)

    # ---------------------------------------------------------------- per frame
    def update(self, dt: float) -> None:
        """Advance playback by ``dt`` s; when nothing is left to play back, perform the next
        simulated action or set the controls up for the person's throw."""
        if self._stream is not None:
            self._advance_live(dt)
            dt = 0.0  # spent on the live throw (or on the segment that took over from it)
        if self._stream is None and self.segment is None and self.queue:
            self.segment, self.t = self.queue.pop(0), 0.0
            dt = 0.0
        while self.segment is not None and self._stream is None:
            self.t = min(self.t + dt, self.segment.duration)
            if self.t >= self.segment.duration and self.queue:
                dt = 0.0
                self.segment, self.t = self.queue.pop(0), 0.0
                continue
            break
        if self.segment is not None and self.request is None:
            self._show(self.segment, self.t)
        if not self.playing and self.request is None and self.choice is None and not self.over and not self.hold and not self.error:
            p = self._pending = self.match.pending()
            if p.request is not None:
                self.facts = state_lines(self.match.state, self.person, self.flick)
                self._prepare(p.request, self._world_poses(p.request.world))
            elif self._ask(p):
                pass  # the person's keys answer (command)
            else:
                self.message = self._actor(p)
                self._begin()
        if self.over and not self.playing:
            out = self.match.state.outcome()
            self.message = concat(outcome_line(out.winner, out.reason, self.person), msg("   (R: rematch, ESC: quit)"))
        elif self.segment is not None and self.playing and self.segment.info.get("actor") not in (None, self.person):
            self.message = msg("computer ({player}, {skill}) is playing: {label}", player=self.other, skill=self.opponent_skill, label=self.segment.label)

    def _ask(self, p) -> bool:
        """The person won the lag and may decide who opens (``DM §3``: the winner chooses an end
        or who opens, the loser takes the other decision): ask, O or G (:meth:`choose`); True
        if asked. The computer, when it wins, opens itself (``Player.choose``, kubb3d/players.py)."""
        if not isinstance(p.action, Choose) or p.player != self.person:
            return False
        legal = [a for a in self.match.state.legal_actions() if isinstance(a, Choose)]
        starts = {a.value: a for a in legal if a.what == "start"}
        if self.person not in starts or self.other not in starts or not any(a.what == "end" for a in legal):
            return False  # not the lag winner's first decision (the loser's, or a DM §9 decider's)
        self.choice = (starts[self.person], starts[self.other])
        self.message = msg("you won the lag: O you open, G {other} opens [{rule}]", other=self.other, rule=self.match.ruleset.cite("lag"))
        return True

    def choose(self, open_: bool) -> None:
        """Answer the lag winner's choice: the person opens (``open_``) or lets the other
        player open; the other player then takes the remaining decision, the ends (``DM §3``).

        Raises:
            RuntimeError: no choice is asked now."""
        if self.choice is None:
            raise RuntimeError("no choice is asked now")
        a = self.choice[0 if open_ else 1]
        self.choice = None
        self.message = ""
        self._begin(a)
        self.update(0.0)

    def command(self, cmd: str) -> None:
        """A key's command the app does not handle itself: O and G answer the lag winner's
        choice (ignored when none is asked)."""
        if cmd in ("choose:open", "choose:give") and self.choice is not None:
            self.choose(cmd == "choose:open")

    def choice_prompt(self) -> list[str]:
        """The lag winner's choice as a centred panel: the result, the clause and the two keys."""
        if self.choice is None:
            return []
        rule = self.match.ruleset.cite("lag")
        return [
            msg("you ({player}) won the lag: who opens the set?", player=self.person),
            msg("the lag winner chooses an end or who opens; the loser takes the other decision [{rule}]", rule=rule),
            msg("O: you open (you throw first)"),
            msg("G: {other} opens (then {other} chooses the ends)", other=self.other),
        ]

    @staticmethod
    def _world_poses(w) -> dict[str, np.ndarray]:
        """id → pose (7,) of the kubbs, the king and the batons of the world a throw is asked in
        (the stakes are part of the drawn pitch)."""
        out = {}
        for pid in w.piece_ids("kubb", "king", "baton"):
            pos, q = w.pose(pid)
            out[pid] = np.array((*pos, *q), dtype=float)
        return out

    def _actor(self, p) -> str:
        return msg("{player} ({skill}) plays", player=p.player, skill=self.opponent_skill)

    def skip(self) -> None:
        """Jump to the end of everything queued for playback (the step under way is simulated
        to its end first)."""
        while self._stream is not None:
            self._pull(math.inf)
        for seg in [self.segment, *self.queue] if self.segment is not None else self.queue:
            if not seg.info.get("live"):
                self._rest(seg)
            if "after" in seg.info:
                self._apply(seg.info.pop("after"))
        if self.queue:
            self.segment, self.queue = self.queue[-1], []
        if self.segment is not None:
            self.t = self.segment.duration

    def follow(self):
        """(pose (7,), velocity (3,) m/s) of the piece in flight, or None."""
        seg = self.segment
        live = self._stream is not None and seg is not None and seg.info.get("live", False)
        if seg is None or seg.thrown is None or self.request is not None or (seg.at_rest(self.t) and not live):
            return None  # at rest the follow camera goes back to the thrower's view
        return seg.poses_at(self.t)[seg.thrown], seg.velocity(self.t)

    def hud(self, ctl: Controller) -> Hud:
        rules = self.match.ruleset.book.title
        side = self.match.state.end_of[self.person] if self.request is None else self.controls.side
        title = msg("kubb3d: {book} match, you ({person}, end {side}) vs {other} ({skill}), camera {camera}", book=rules, person=self.person, side=side, other=self.other, skill=self.opponent_skill, camera=camera_name(ctl.camera_mode))
        h = Hud(title=concat(title, *_modes(ctl)))
        over = self.over and not self.playing
        h.lines = list(self.facts) + ([] if over else [concat("» ", t) for t in self.news])
        seg = self.segment
        if over:  # the result is said once, in the summary
            h.summary = self.summary()
        if self.request is not None:
            h.settings = throw_lines(self.controls)
            # the power bar wherever the person can charge, the last release's power marked
            h.power = self.controls.power
            h.power_mark = self.controls.last_power
            h.power_label = power_label(self.controls)
            h.flags = self.warnings()
        elif seg is not None:
            if not over:
                h.lines.append(seg.label)
            h.flags = list(seg.info.get("flags", []))
        # the last throw's card and rulings stay until the person's next release
        h.last_throw = list(self.card)
        if self.card_rulings:
            h.rulings = ruling_lines(self.card_rulings, None, tr=self.tr, felled_now=self.card_felled)
            h.legend = True
        h.help = (HELP_FLICK if self.flick else HELP_PLAY) if ctl.show_help else []
        h.rulings_list = ruling_history(self.history, tr=self.tr) if ctl.show_rulings else []
        h.prompt = self.choice_prompt()
        h.message = self.error or ("" if over else self.message)
        return h

    def summary(self) -> list[str]:
        """The end-of-match panel: result, sets, turns and clock, the person's throws."""
        st = self.match.state
        out = st.outcome()
        if out is None:
            return []
        p1, p2 = st.players
        batons = felled = inkasts = 0
        for rec in self.records:
            if rec.get("type") != "action":
                continue
            ev = next((e for e in rec.get("events", ()) if e.get("kind") in ("throw", "inkast")), None)
            if ev is None or ev.get("player") != self.person:
                continue
            if ev["kind"] == "throw":
                batons += 1
                felled += len((rec.get("outcome") or {}).get("felled", ()))
            else:
                inkasts += len(rec.get("throws", ()))
        rate = msg(" ({rate:.0%} per baton)", rate=felled / batons) if batons else ""
        if self.flick:
            did = concat(
                nmsg("you flicked {batons} baton", "you flicked {batons} batons", batons, batons=batons),
                nmsg(" and knocked {felled} kubb", " and knocked {felled} kubbs", felled, felled=felled),
                rate,
                nmsg("; you returned {inkasts} kubb", "; you returned {inkasts} kubbs", inkasts, inkasts=inkasts),
            )
        else:
            did = concat(
                nmsg("you threw {batons} baton", "you threw {batons} batons", batons, batons=batons),
                nmsg(" and felled {felled} kubb", " and felled {felled} kubbs", felled, felled=felled),
                rate,
                nmsg("; you inkasted {inkasts} kubb", "; you inkasted {inkasts} kubbs", inkasts, inkasts=inkasts),
            )
        return [
            outcome_line(out.winner, out.reason, self.person),
            msg("sets won: {p1} {w1} – {w2} {p2}    turns {turns}    clock {clock}", p1=p1, w1=st.set_wins[p1], w2=st.set_wins[p2], p2=p2, turns=st.turn_no, clock=_clock(st.clock)),
            did,
            *self.stats_lines(),
            msg("R: rematch (a new seed)    ESC: quit"),
        ]

    def stats_lines(self) -> list[str]:
        """Both players' figures of the match so far (:mod:`kubb3d.stats`, as ``kubb3d stats``)."""
        from kubb3d.stats import match_stats, stats_lines

        return stats_lines(match_stats(self.match.header, [r for r in self.records if r.get("type") == "action"]))

    def new_round(self) -> None:
        """Rematch once the match is over (the next seed; the same opponent, replay path,
        difficulty, sets, round cap and referee options); ignored while the match goes on."""
        if not self.over:
            self.message = msg("the match is still on (R starts a rematch once it is over)")
            return
        self.match.close()
        self.__init__(**{**self.config, "seed": self.config["seed"] + 1, "hold": self.hold})

    def close(self) -> None:
        """Close the match (its world and replay file)."""
        self.match.close()


def match_session(ruleset: str, opponent: str, equipment: str, seed: int, hold: bool = False, replay: str | Path | None = None, round_cap: int | None = None, options: Mapping[str, Any] | None = None, replace_replay: bool = True, difficulty: str = "exact", sets: int | None = None) -> MatchSession:
    """The session for ``kubb3d play --opponent`` (``hold``: headless screenshot; ``replay``:
    the replay file to write, replaced if it exists only with ``replace_replay``; ``round_cap``:
    turns per set, None: the match's default; ``options``: referee options,
    :mod:`kubb3d.judge.options`; ``difficulty``: the person's release error).

    Raises:
        MatchUnavailable: an equipment set the ruleset does not play with (``standard``, the
            default of ``--set``, stands for the ruleset's own set).
        ValueError: unknown skill.
    """
    from kubb3d.players import get_skill
    from kubb3d.rules import get_ruleset

    get_skill(opponent)
    want = get_ruleset(ruleset).equipment
    if equipment not in (want, "standard"):  # "standard" is the option's default: the ruleset's set
        raise MatchUnavailable(f"a {ruleset} match is played with the {want!r} set; --set {equipment} only works without --opponent")
    return MatchSession(ruleset, opponent, seed, replay=replay, hold=hold, round_cap=round_cap, options=options, replace_replay=replace_replay, difficulty=difficulty, sets=sets)
