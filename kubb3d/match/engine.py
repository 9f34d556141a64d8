"""The match's step protocol: :meth:`Match.pending` says what is due, :meth:`Match.step`
performs it (a person's throw answered with its parameters), :meth:`Match.run` plays to the
end, :meth:`Match.resume` continues an interrupted match from its replay file."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Callable, Generator, Mapping, cast

import numpy as np

from kubb3d.errors import IllegalAction, ReplayError
from kubb3d.files import rewrite_locked
from kubb3d.match.config import MatchConfig
from kubb3d.match.human import HumanInput, is_params
from kubb3d.match.protocol import (
    Current,
    HumanThrow,
    Judge,
    Pending,
    Performed,
    StepResult,
    ThrowAnswer,
)
from kubb3d.match.records import causal_order, pose_rounded
from kubb3d.physics.world import PhysicsGlitch
from kubb3d.pitch import KING_ID
from kubb3d.ranges import listed
from kubb3d.rules import (
    Action,
    BatonThrow,
    Choose,
    Event,
    Inkast,
    KingThrow,
    LagThrow,
    Outcome,
    PenaltyThrow,
    PlaceKubb,
    RemoveTieBreakKubb,
    action_from_dict,
    action_to_dict,
    outcome_from_dict,
)
from kubb3d.throw import ThrowFrame, run_frames

_THROW_ACTIONS = (LagThrow, BatonThrow, KingThrow, Inkast, PenaltyThrow)
"""Actions in which a person throws (the others stay with the simulated player's strategy)."""


class Match(HumanInput):
    """Plays one match; see the package doc (:mod:`kubb3d.match`).

    Args:
        config: the match configuration.
        judge: the referee: :mod:`kubb3d.judge` (the default) or an object with the same
            ``judge_throw``, ``judge_inkast``, ``ThrowContext`` and ``InkastContext`` (the audit
            passes one that records every call, :class:`kubb3d.audit.RecordingJudge`).
        replay: path of the replay file to write (None: no file).
        on_event: called with every :class:`~kubb3d.rules.Event` as it happens.
        human: the players whose throws a person makes: a collection of player names (the
            caller answers each throw: :meth:`pending` gives the :class:`HumanRequest`,
            ``step(params)`` performs it; the viewer's match mode) or a mapping name →
            callable (:data:`HumanThrow`) that :meth:`step` asks itself. Keyed by player
            *name*, not by side, because players change ends between sets (``DM §3``).
            Whenever such a player throws a baton (or the king, or the lag) or inkasts a
            kubb, the parameters are the intended release: the release simulated is that one with
            the person's error of :attr:`MatchConfig.difficulty` (``exact``: verbatim;
            :func:`kubb3d.match.human.person_release`), and the replay keeps both, as the throw's
            ``intended`` and ``params``. Choices,
            placements and raising stay with the simulated player's strategy unless the
            caller passes its own action to :meth:`step`.

    Raises:
        MatchSetupError, UnknownNameError, OptionError: bad configuration (unknown ruleset or
            skill, a ``human`` key that is not a player name …).
        TypeError: a person's throw that is not a ``ThrowParams`` (on a board:
            ``FlickParams``).
    """

    # ------------------------------------------------------------------ run
    def pending(self) -> Pending | None:
        """What is due next: the action, who acts and, for a person's throw, the
        :class:`HumanRequest`; None once the match is over.

        At a turn boundary this rebuilds the world (and writes its ``world`` record, returned
        by the next :meth:`step`); for a person's throw it starts the action up to the
        request (an inkast picks its kubbs up). Calling it again returns the same answer."""
        if self.state.outcome() is not None:
            return None
        self._check_open()
        if self._current is None:
            self._ensure_world()
            self._start(self._decide())
        c = self._current
        assert c is not None
        return Pending(c.action, c.player, c.request)

    def _start(self, action: Action) -> None:
        s = self.state
        side = getattr(action, "side", None)
        player = getattr(action, "player", None) or (s.player_at(side) if side else s.players[0])
        self._current = c = Current(action, player)
        if isinstance(action, _THROW_ACTIONS) and player in self.human:
            c.run = self._perform(action)
            try:
                req = next(c.run)
                while isinstance(req, ThrowFrame):  # (a person is asked before anything is thrown)
                    req = next(c.run)
                c.request = req
            except StopIteration as stop:  # performing it asked nothing after all
                c.result = stop.value

    def step(self, answer: ThrowAnswer | Action | None = None) -> StepResult:
        """Perform the pending action (see :meth:`pending`) and return what it did:
        :meth:`step_iter` run to its end without looking at its frames.

        ``answer`` is None (a simulated player's action; a person's throw whose ``human``
        callable is given), the person's ``ThrowParams`` (``FlickParams`` on a board) when a
        throw is asked for, or a legal rules action replacing the one the simulated player
        chose (a choice, a placement …). One step is one whole action (a lag throw, a choice,
        a baton throw, an inkast attempt, a penalty throw, a raising, a placement …) except
        when a person inkasts several kubbs: each kubb thrown is then a step of its own
        (``done`` False until the last). The world stays open after the last action (for a
        viewer); call :meth:`close` when done.

        Raises:
            RuntimeError: the match is already over; a person's throw is due and no
                parameters were given.
            MatchClosed: the match was closed before its end.
            TypeError: parameters of the wrong type for the person's throw.
            IllegalAction: an action that is not legal now, or parameters where none are asked.
        """
        return run_frames(self.step_iter(answer))

    def step_iter(self, answer: ThrowAnswer | Action | None = None) -> Generator[ThrowFrame, None, StepResult]:
        """:meth:`step` as a generator: it yields the :class:`~kubb3d.throw.ThrowFrame` of every
        throw simulated during the step as they are simulated (release, 30 Hz samples, rest; a
        throw repeated after a physics glitch starts again at ``time_s`` 0) and returns the
        :class:`StepResult`. A view can draw each frame as it comes; the match goes on exactly as
        with :meth:`step` (same result, same replay, bit for bit). The errors of :meth:`step` are
        raised at the first ``next()``."""
        if self.state.outcome() is not None:
            raise RuntimeError("the match is over; no action is left to perform")
        self._check_open()
        self.pending()
        c = self._current
        assert c is not None
        if answer is not None and c.run is None and not is_params(answer):
            self._override(cast(Action, answer))
            c, answer = self._current, None
            assert c is not None
        if c.result is not None:
            return self._finish(c, c.result)
        if c.run is None:
            if answer is not None:
                raise IllegalAction(
                    f"no throw is asked for now ({c.player} plays {type(c.action).__name__} as a "
                    "simulated player): call step() without parameters"
                )
            c.run = self._perform(c.action)
            send = None
        else:
            send = self._answer(c, cast("ThrowAnswer | None", answer))
        while True:
            try:
                req = c.run.send(send)
            except StopIteration as stop:
                return self._finish(c, stop.value)
            if isinstance(req, ThrowFrame):
                yield req
                send = None
                continue
            c.request = req
            fn = self.human.get(c.player)
            if fn is None:
                return StepResult(c.action, False, throws=self._take_throws(), records=self._take_records())
            send = self._answer(c, None)

    def _override(self, action: Action) -> None:
        """Replace the pending action (not a person's throw under way) by the caller's legal one."""
        s = self.state
        if not s.is_legal(action):
            why = s.placement_error(action) if isinstance(action, PlaceKubb) else None
            raise IllegalAction(f"{action} is not legal now: {why or f'legal are {s.legal_actions()}'}")
        self._start(action)

    def _finish(self, c: Current, result: Performed) -> StepResult:
        outcome, extra, notes = result
        self._current = None
        action = c.action
        events = self.state.push(action, outcome)
        ordered = causal_order(notes, events)
        self._emit(ordered)
        throws = self._take_throws()
        after = self._after(extra)
        rec = {
            "type": "action",
            "i": self.action_index,
            "action": action_to_dict(action),
            "outcome": None if outcome is None else outcome.to_dict(),
            "events": [e.to_dict() for e in ordered],
            **extra,
        }
        if after:
            rec["after"] = after
        self._write(rec)
        self.action_index += 1
        out = self.state.outcome()
        if out is not None:
            self._write(
                {
                    "type": "outcome",
                    "i": self.action_index,
                    "clock_s": self.state.clock,
                    "glitches": len(self.glitches),
                    **out.to_dict(),
                }
            )
        return StepResult(action, True, outcome, tuple(ordered), throws, self._take_records())

    def _take_throws(self) -> tuple[dict, ...]:
        out, self._step_throws = tuple(self._step_throws), []
        return out

    def _take_records(self) -> tuple[dict, ...]:
        out = self.log.take()
        self.last_records = list(out)
        return out

    def run(self, max_actions: int | None = None) -> Outcome | None:
        """Play until the match has an outcome (or ``max_actions`` more actions): a loop over
        :meth:`step`. Returns the outcome (None if stopped early). A run stopped by
        ``max_actions`` keeps the world and the replay file open: a later :meth:`run` or
        :meth:`step` goes on exactly where it stopped (the same outcome and replay, bit for bit,
        as one run). The match is closed (:meth:`close`) once it has its outcome; close it
        yourself (or use it as a context manager) when you stop for good.

        Raises:
            MatchClosed: the match was closed before its end.
        """
        n = 0
        try:
            while self.state.outcome() is None:
                if max_actions is not None and n >= max_actions:
                    return None
                self.step()
                n += 1
            return self.state.outcome()
        finally:
            if self.state.outcome() is not None:
                self.close()

    # ------------------------------------------------------------------ decisions
    def _decide(self) -> Action:
        s = self.state
        legal = s.legal_actions()
        a = legal[0]
        if isinstance(a, Choose):
            return cast(Action, self.players[a.player].choose(legal))
        if isinstance(a, RemoveTieBreakKubb):
            return legal[0]
        if isinstance(a, PlaceKubb):
            return self._placement(a)
        return a

    def _placement(self, a: PlaceKubb) -> PlaceKubb:
        s = self.state
        player = self.players[s.player_at(a.side)]
        others = [
            np.asarray(self._w.pose(pid)[0][:2])
            for pid in self._w.piece_ids("kubb", "king")
            if pid != a.kubb and self._w.pose(pid)[0][2] > self._floor_z() + 0.05
        ]
        clearance = self.flow.placement_clearance
        spots = player.place_spots(self.pitch, a.half, a.reason, placer_owns_half=(a.side == a.half))
        for xy in spots:
            cand = replace(a, position=(float(xy[0]), float(xy[1])))
            if s.placement_error(cand) is None and all(np.hypot(*(np.asarray(xy) - o)) > clearance for o in others):
                return cand
        for xy in spots:  # crowded: accept overlap with lying pieces rather than fail
            cand = replace(a, position=(float(xy[0]), float(xy[1])))
            if s.placement_error(cand) is None:
                return cand
        raise RuntimeError(f"no valid spot to place {a.kubb} in half {a.half}")

    # ------------------------------------------------------------------ resume
    @classmethod
    def resume(
        cls, path: str | os.PathLike, *, judge: Judge | None = None, on_event: Callable[[Event], None] | None = None
    ) -> "Match":
        """Continue an interrupted match from its replay file (rewritten in place).

        The match state is rebuilt by pushing the recorded actions and outcomes up to the
        last turn boundary; the world is rebuilt from that boundary's poses; later records
        are dropped and played again (with the same per-action seeds).

        Raises:
            ReplayError: unreadable file, wrong schema, or records that do not fit.
        """
        from kubb3d.replay import read_replay

        path = Path(path)
        # every record validated (kubb3d.replay): file, line, field; a cut file is what a resume expects
        rp = read_replay(path, warn=False)
        lines = rp.lines
        if rp.header.config is None:
            from kubb3d.judge.messages import concat, msg

            needed = msg("missing (the match configuration is needed to resume)")
            raise ReplayError(concat(f"{path}:1: config: ", needed))
        try:
            config = MatchConfig.from_dict(rp.header.config.model_dump())
            m = cls(config, judge=judge, replay=None, on_event=on_event, _resume=True)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:1: bad configuration: {exc}") from None
        known = set(m._standard_poses()) | set(m.state.kubbs) | {KING_ID}
        for n, r, _ in rp.records:
            if r.type == "world":
                unknown = sorted(set(r.poses) - known)
                if unknown:
                    from kubb3d.judge.messages import concat, msg

                    raise ReplayError(concat(f"{path}:{n}: poses: ", msg(
                        "unknown pieces {unknown}; expected among {known}", unknown=listed(unknown[:5]),
                        known=listed(sorted(known)))))
        worlds = [(n, r) for n, r, _ in rp.records if r.type == "world"]
        cut_line = 1
        boundary = None
        if worlds:
            cut_line, boundary = worlds[-1]
        upto = boundary.i if boundary else 0
        # lag actions before the first set have no world record: keep them only if complete
        expect = 0
        for n, r, _raw in rp.records:
            if r.type != "action" or r.i >= upto:
                continue
            if r.i != expect:
                raise ReplayError(f"{path}:{n}: i: action {r.i} where action {expect} was expected")
            try:
                m.state.push(action_from_dict(r.action), outcome_from_dict(r.outcome))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise ReplayError(
                    f"{path}:{n}: recorded action does not fit the match: {' '.join(str(exc).split())[:200]}"
                ) from None
            m.action_index = expect = r.i + 1
        if boundary is not None:
            if m.action_index != upto:
                raise ReplayError(f"{path}: actions before the last turn boundary are missing")
            # the world holds every kubb still in the game and the king: a record missing one
            # would end the resumed match in a KeyError at the first throw at it
            in_game = {kid for kid, k in m.state.kubbs.items() if not k.removed} | {KING_ID}
            if set(boundary.poses) != in_game:
                missing, extra = sorted(in_game - set(boundary.poses)), sorted(set(boundary.poses) - in_game)
                from kubb3d.judge.messages import concat, join, msg

                why = [msg("missing {pieces}", pieces=", ".join(missing))] if missing else []
                why += [msg("no such piece in the match: {pieces}", pieces=", ".join(extra))] if extra else []
                raise ReplayError(concat(f"{path}:{cut_line}: poses: ", join(why, "; ")))
            try:
                m._build(boundary.poses, boundary.sides)
            except (ValueError, PhysicsGlitch) as exc:
                raise ReplayError(f"{path}:{cut_line}: poses: cannot build the world: {exc}") from None
            m._keep_standing_poses(boundary.poses)
            m.world_key = (boundary.set, boundary.turn)
            m._recorded = {pid: pose_rounded(p[:3], p[3:]) for pid, p in boundary.poses.items()}
        m.events = list(m.state.events)
        keep = lines[:cut_line]
        # atomic: a kill at any moment leaves the old replay or the cut one, never a torn file
        m.replay_path = path
        m.log.fh = rewrite_locked(path, ("\n".join(keep) + "\n").encode("utf-8"))
        return m


def play(
    config: MatchConfig,
    *,
    judge: Judge | None = None,
    replay: str | os.PathLike | None = None,
    on_event: Callable[[Event], None] | None = None,
    human: Mapping[str, HumanThrow] | None = None,
) -> tuple[Outcome, Match]:
    """Play a whole match (a loop over :meth:`Match.step`); returns (outcome, the finished match)."""
    m = Match(config, judge=judge, replay=replay, on_event=on_event, human=human)
    out = m.run()
    assert out is not None  # run() without max_actions plays to the end
    return out, m
