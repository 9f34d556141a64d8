"""Files the viewer can show: match replays (``kubb3d match --replay``) and scenario files.

A match replay (JSON lines, schema 2, see :mod:`kubb3d.match`) becomes a
:class:`~kubb3d.viewer.scene.Timeline`. The viewer owns no rules: it reads poses.

* a ``world`` record (turn boundary) is a still segment that sets every kubb and the king
  to the recorded poses and collects the batons;
* every simulated throw of an ``action`` record (baton throw or flick, king throw, lag throw,
  inkast, penalty kubb) is a segment playing its recorded trajectory from the current poses
  (a lag throw from its own fresh world's, the record's ``before``); the action's rulings are
  shown on its last throw, and the pieces the match moved once the action was over (the
  record's ``after``: raised, set back, parked, placed) are animated there; pieces the match
  took out of its world (``gone``: a flicked baton, a tie-break kubb) are hidden from then on;
* an action without throws that moves pieces (a placement) is a still segment.

The sentences the file recorded in English (the judge's reasons, the result, a foul's reason)
are read back as :func:`~kubb3d.judge.messages.recorded` messages: a translator makes them from
the id and parameters the file keeps beside each (``reason_msg``, :func:`kubb3d.i18n.from_data`),
or, in files written before, parses the English into its template (:func:`kubb3d.i18n.parse`),
and shows them in its language.

Pure Python + numpy: no OpenGL here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from kubb3d.errors import ReplayError, ScenarioError
from kubb3d.judge.messages import N_, concat, ids, msg, piece_name, recorded
from kubb3d.pitch import KING_ID, Pitch
from kubb3d.viewer.hud import outcome_line, throw_felled
from kubb3d.viewer.scene import PieceView, Scene, Segment, Timeline
from kubb3d.ranges import counted


def _rulings(judgement: dict | None, outcome: dict | None) -> tuple:
    """Rulings of an action record as objects with ``piece``, ``status``, ``consequence``,
    ``rules``, ``reason``, ``raised_pose`` (a dict or None)."""
    rows = []
    if judgement and judgement.get("rulings"):
        rows = judgement["rulings"]
    elif outcome and outcome.get("rulings"):
        rows = outcome["rulings"]
    out = []
    for r in rows:
        if not isinstance(r, dict) or "piece" not in r:
            continue
        out.append(SimpleNamespace(piece=r["piece"], status=r.get("status", "?"), consequence=r.get("consequence", "none"), rules=tuple(r.get("rules", ())), reason=recorded(r.get("reason", ""), r.get("reason_msg")), raised_pose=r.get("raised_pose")))
    return tuple(out)


def _pose_dict(d: dict) -> dict[str, np.ndarray]:
    """id → pose (7,) of a record's ``poses`` mapping.

    Raises:
        ValueError: a pose that is not 7 numbers."""
    out = {}
    for pid, p in d.items():
        arr = np.asarray(p, dtype=float)
        if arr.shape != (7,):
            raise ValueError(f"pose of {pid} must have 7 numbers")
        out[pid] = arr
    return out


def _snake(name: str) -> str:
    """``KingThrow`` → ``king_throw`` (action types are class names in the file)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", str(name)).lower()


WORDS = {"baton_throw": N_("baton throw"), "king_throw": N_("KING THROW"), "lag_throw": N_("lag throw"), "inkast": N_("inkast"), "penalty_throw": N_("penalty kubb"), "place_kubb": N_("places a kubb"), "raise": N_("raising"), "choose": N_("chooses")}
"""Segment labels of the action types (translatable words)."""
FLICK_WORDS = {**WORDS, "baton_throw": N_("flick"), "king_throw": N_("KING FLICK"), "lag_throw": N_("lag flick"), "inkast": N_("return")}
"""The same on a table-top board, in KT's words ("flicks the six batons", "returning knocked down kubbs")."""


def _describe(action: dict, flick: bool = False) -> str:
    """A segment label, a message: the side and what it does (``flick``: in Kubbuteo's words),
    with the baton (``B: baton throw (baton 2)``) or the kubbs (``A: inkast A1, B3``) it moves."""
    t = _snake(action.get("type", "action"))
    side = action.get("side") or action.get("player") or ""
    words = FLICK_WORDS if flick else WORDS
    what = msg(words[t]) if t in words else t.replace("_", " ")
    pieces = [action["baton"]] if "baton" in action else []
    if "kubbs" in action:
        pieces = list(action["kubbs"])
    if "kubb" in action:
        pieces = [action["kubb"]]
    if pieces and "baton" in action and pieces == [action["baton"]]:
        return msg("{side}: {action} ({baton})", side=side, action=what, baton=piece_name(action["baton"]))
    if pieces:
        return msg("{side}: {action} {pieces}", side=side, action=what, pieces=ids(pieces))
    return msg("{side}: {action}", side=side, action=what) if side else what


MOVED_M = 0.005
"""m: a piece that moved this far during a throw was touched (the first such is the first hit)."""


def throw_facts(th: dict, times: np.ndarray, tposes: dict[str, np.ndarray], start: dict[str, np.ndarray]) -> dict:
    """What a throw record says about the throw, for the last-throw panel: ``piece``,
    ``speed_mps`` (release speed), ``landing`` ((x, y) m where the piece first came down to
    within 3 cm of its resting height, or None), ``slid`` (released less than 3 cm above z = 0:
    a flicked disk, even one that then falls off the board) and then ``rest`` ((x, y) m of its
    last sample), ``first_hit`` (the first other piece that
    moved more than :data:`MOVED_M`, or None), ``legal`` and ``violations`` (rules), ``intended``
    and ``released`` (the thrower's intended and actual parameters, dicts, or None)."""
    piece = th["piece"]
    rel = th.get("release") or {}
    speed = float(np.linalg.norm(rel.get("velocity_mps", (0.0, 0.0, 0.0))))
    landing = rest = None
    arr = tposes.get(piece)
    slid = arr is not None and len(arr) > 0 and bool(arr[0, 2] < 0.03)  # released on the ground: a flick
    if arr is not None and len(arr) > 1 and not slid:
        low = np.nonzero(arr[1:, 2] <= arr[-1, 2] + 0.03)[0]
        if len(low):
            landing = (float(arr[low[0] + 1, 0]), float(arr[low[0] + 1, 1]))
    if slid and len(arr):
        rest = (float(arr[-1, 0]), float(arr[-1, 1]))
    first, first_i = None, len(times)
    for pid in sorted(tposes):
        if pid == piece or pid not in start or not len(tposes[pid]):
            continue
        moved = np.nonzero(np.linalg.norm(tposes[pid][:, :3] - start[pid][:3], axis=1) > MOVED_M)[0]
        if len(moved) and moved[0] < first_i:
            first, first_i = pid, int(moved[0])
    return {"piece": piece, "speed_mps": speed, "landing": landing, "slid": slid, "rest": rest, "first_hit": first, "legal": bool(th.get("legal", True)), "violations": [v.get("rule", "?") for v in th.get("violations", [])], "intended": th.get("intended"), "released": th.get("params")}


class TimelineBuilder:
    """Turns replay records into playback segments, one record at a time (the match mode feeds
    it each :class:`~kubb3d.match.StepResult` as the match goes on; :func:`load_replay` a whole
    file).

    Args:
        header: the replay's ``header`` record (pitch, equipment).

    Raises:
        ValueError: a bad pitch or an unknown equipment set in the header.
    """

    def __init__(self, header: dict) -> None:
        from kubb3d.equipment import get_set

        self.equipment = header.get("equipment", "standard")
        try:
            self.eq = get_set(self.equipment)
        except KeyError:
            raise ValueError(f"unknown equipment {self.equipment!r}") from None
        # a replay's header gives the pitch's length and width; the baselines' inset is the
        # equipment set's (Kubbuteo: 3.5 in, KT "Equipment")
        self.pitch = Pitch(**{"baseline_inset": self.eq.baseline_inset, **header.get("pitch", {})})
        self.poses: dict[str, np.ndarray] = {}
        self.kinds: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        self.hidden: set[str] = set()
        self.set_no = self.turn_no = 0
        self.segments: list[Segment] = []
        self._pending: list[dict] = []  # events for the next segment (a turn's or a set's start)

    def describe(self, action: dict) -> str:
        """The label of an action's segments (flicks on a table-top board)."""
        return _describe(action, self.eq.board is not None)

    @staticmethod
    def kind_of(pid: str) -> str:
        return "king" if pid == KING_ID else ("baton" if pid.startswith("baton") else "kubb")

    def _info(self, lines_=(), flags=(), line_x=None) -> dict:
        # the lag throws come before set 1: "set 0, turn 0" read as a set of its own
        where = msg("set {set}, turn {turn}", set=self.set_no, turn=self.turn_no) if self.set_no else msg("lag throws, before set 1")
        return {"hidden": set(self.hidden), "lines": [where, *lines_], "flags": list(flags), "throwing_line": line_x}

    def _add(self, seg: Segment) -> Segment:
        if self._pending:
            seg.info["events"] = [*self._pending, *seg.info.get("events", ())]
            self._pending = []
        self.segments.append(seg)
        return seg

    def _events(self, rec: dict, n0: int) -> None:
        """The play-by-play of an action (its ``events``: who threw, the lag's winner, the choice
        of end and opener, an advance line, a raising, each with its rule; as ``kubb3d match``
        prints them) in ``info["events"]`` of the last segment it made: ``{"text", "rules"}``.
        The start of a turn or a set, and the events of an action that made no segment (a
        choice), go to the next segment (a set-up); a ruling (the segment's rulings say it) and
        the result (the outcome's segment) are left out."""
        for event in rec.get("events") or ():
            kind = event.get("kind")
            if kind in ("ruling", "result") or not event.get("text"):
                continue
            item = {"text": str(event["text"]), "rules": [str(r) for r in event.get("rules") or ()]}
            starts = kind == "turn" or (kind == "set" and not event.get("turn_no"))
            if starts or len(self.segments) == n0:
                self._pending.append(item)
            else:
                self.segments[-1].info.setdefault("events", []).append(item)

    def feed(self, rec: dict, shown: int = 0) -> list[Segment]:
        """The segments one record adds (``shown``: of an action record, how many of its
        throws were already played live with :meth:`live_throw`).

        Raises:
            KeyError, TypeError, ValueError: a malformed record.
        """
        n0 = len(self.segments)
        typ = rec.get("type")
        if typ == "world":
            self._world(rec)
        elif typ == "action":
            self._action(rec, shown)
        elif typ == "outcome":
            text = outcome_line(rec.get("winner"), recorded(str(rec.get("reason", "")), rec.get("reason_msg")))
            last_rulings = next((sg.rulings for sg in reversed(self.segments) if sg.rulings), ())
            self._add(Segment(text, {k: v.copy() for k, v in self.poses.items()}, rulings=last_rulings, info=self._info([text])))
        return self.segments[n0:]

    def live_throw(self, th: dict, label: str, line_x: float | None = None) -> Segment:
        """The segment of one throw of an action still under way (a kubb of a person's
        inkast), played from the current poses without rulings."""
        return self._throw(th, label, line_x)

    def _world(self, rec: dict) -> None:
        self.set_no, self.turn_no = rec.get("set", self.set_no), rec.get("turn", self.turn_no)
        new = _pose_dict(rec["poses"])
        for pid in new:
            self.kinds.setdefault(pid, self.kind_of(pid))
        gone = {pid for pid in self.poses if self.kinds.get(pid) in ("kubb", "king") and pid not in new}
        start = {k: v.copy() for k, v in self.poses.items()}
        self.poses.update(new)
        self.sides.update(rec.get("sides", {}))
        self.hidden = {pid for pid, k in self.kinds.items() if k == "baton"} | gone
        self._add(Segment(msg("set {set}, turn {turn}: pieces set up", set=self.set_no, turn=self.turn_no), {**start, **{k: v.copy() for k, v in self.poses.items()}}, info=self._info()))

    def _throw(self, th: dict, label: str, line_x, rulings: tuple = (), after: dict[str, np.ndarray] | None = None, felled: list[str] | None = None) -> Segment:
        """The segment of one throw, from the current poses; ``after``: the poses the match put
        pieces at once the action was over, animated after the rest (the judge's raising, a
        kubb parked or set back); ``felled``: what the throw felled (its judgement's)."""
        poses, kinds = self.poses, self.kinds
        piece = th["piece"]
        kinds.setdefault(piece, self.kind_of(piece))
        self.hidden.discard(piece)
        traj = th.get("trajectory") or {}
        times = np.asarray(traj.get("times_s", []), dtype=float)
        tposes = {pid: np.asarray(arr, dtype=float).reshape(-1, 7) for pid, arr in (traj.get("poses") or {}).items()}
        for pid, arr in tposes.items():
            kinds.setdefault(pid, self.kind_of(pid))
            if len(arr) != len(times):
                raise ValueError(f"trajectory of {pid} has {counted(len(arr), 'pose')} for {counted(len(times), 'time')}")
        start = {k: v.copy() for k, v in poses.items()}
        if piece in tposes and len(tposes[piece]):
            start[piece] = tposes[piece][0].copy()
        flags = [msg("ILLEGAL ({rule}): {reason}", rule=v.get("rule", "?"), reason=recorded(v.get("reason", ""), v.get("reason_msg"))) for v in th.get("violations", [])]
        end = {k: v.copy() for k, v in start.items()}
        for pid, arr in tposes.items():
            if len(arr):
                end[pid] = arr[-1].copy()
        raised = {pid: p.copy() for pid, p in (after or {}).items() if pid in end}
        info = self._info(flags=flags, line_x=line_x)
        info["throw"] = throw_facts(th, times, tposes, start)
        if felled is not None:
            info["felled"] = felled
        seg = self._add(Segment(label, start, times, tposes, end, raised, rulings, piece, info))
        poses.update(end)
        return seg

    def _action(self, rec: dict, shown: int) -> None:
        """The segments of an action record: its throws played from the current poses (a lag
        throw from its own world's, ``before``), then the pieces where the match put them
        (``after``: moved ones animated at the end of the last throw, ``gone`` ones hidden)."""
        action = rec.get("action") or {}
        throws = rec.get("throws") or []
        rulings = _rulings(rec.get("judgement"), rec.get("outcome"))
        felled = throw_felled(rec.get("judgement"))
        label = self.describe(action)
        line_x = action.get("line_x")
        before = rec.get("before")
        if before is not None:
            new = _pose_dict(before)
            self.hidden |= set(self.poses) - set(new)
            self.poses.update(new)
            self.hidden -= set(new)
        after = rec.get("after") or {}
        moved = _pose_dict(after.get("poses") or {})
        for pid in moved:
            self.kinds.setdefault(pid, self.kind_of(pid))
        n0 = len(self.segments)
        for j, th in enumerate(throws):
            if j < shown:
                continue  # played live while the action was under way; the poses followed
            tag = f" ({j + 1}/{len(throws)})" if len(throws) > 1 else ""
            last = j == len(throws) - 1
            seg = self._throw(th, concat(label, tag), line_x, rulings if last else (), moved if last else None, felled if last else None)
            out = rec.get("outcome") or {}
            if last and out.get("kind") == "lag":  # the lag's result on its card (DM §3)
                seg.info["lag"] = {"distance_m": out.get("distance_m"), "king_felled": bool(out.get("king_felled"))}
        self.poses.update({k: v.copy() for k, v in moved.items()})
        self.hidden -= set(moved)
        self.hidden |= set(after.get("gone") or ())
        if len(self.segments) == n0 and moved:  # a placement; a person's live throws
            self._add(Segment(label, {k: v.copy() for k, v in self.poses.items()}, rulings=rulings, info=self._info()))
        self._events(rec, n0)

    def scene(self) -> Scene:
        """A scene with every piece seen so far, at its latest pose; every segment learns the
        pieces it did not know (hidden, at their first known pose)."""
        segments = self.segments
        scene = Scene(self.pitch, self.equipment)
        for pid, k in self.kinds.items():
            pose = self.poses.get(pid)
            if pose is None:
                pose = next((s.start[pid] for s in segments if pid in s.start), np.array((0, 0, -5, 0, 0, 0, 1.0)))
            scene.pieces[pid] = PieceView(k, np.asarray(pose, dtype=float), side=self.sides.get(pid))
        for seg in segments:
            for pid in scene.pieces:
                if pid not in seg.start:
                    first = next((s.start[pid] for s in segments if pid in s.start), scene.pieces[pid].pose)
                    seg.start[pid] = np.asarray(first, dtype=float).copy()
                    if pid not in seg.end:
                        seg.end[pid] = seg.start[pid].copy()
                    seg.info.setdefault("hidden", set()).add(pid)
        return scene


def load_replay(path: str | Path) -> tuple[Timeline, Scene, dict]:
    """Read a match replay.

    Returns:
        (timeline, scene with every piece that appears, header record).

    Raises:
        ReplayError: unreadable file, not a replay, wrong schema, malformed records.
    """
    from kubb3d.replay import read_replay

    path = Path(path)
    rp = read_replay(path)  # the one typed reader (kubb3d.replay): every field validated
    header = rp.header_dict
    try:
        b = TimelineBuilder(header)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{path}:1: bad header: {exc}") from None
    for n, _, rec in rp.records:
        if not isinstance(rec, dict):
            raise ReplayError(concat(f"{path}:{n}: ", msg("expected a JSON object")))
        try:
            b.feed(rec)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:{n}: malformed {rec.get('type') or 'record'} record: {exc}") from None
    if not b.segments:
        raise ReplayError(concat(f"{path}: ", msg("the replay holds no turns or throws")))
    scene = b.scene()
    return Timeline(b.segments), scene, header


def load_session(path: str | Path):
    """A :class:`~kubb3d.viewer.app.ReplaySession` for a replay (``.jsonl``/``.json``) or a
    scenario (``.toml``) file, or a shipped scenario by its short name
    (:func:`kubb3d.library.resolve_scenario`: ``kt_return_short``).

    Raises:
        ReplayError: the file cannot be shown (bad replay, bad scenario …).
    """
    from kubb3d.library import resolve_scenario
    from kubb3d.viewer.app import ReplaySession, scenario_session

    path = resolve_scenario(path)
    if not os.path.lexists(path):
        from kubb3d.library import not_found

        raise ReplayError(not_found(path))
    if path.suffix.lower() == ".toml":
        try:
            return scenario_session(path)
        except ScenarioError as exc:
            from kubb3d.errors import message

            raise ReplayError(message(exc)) from None
    tl, scene, header = load_replay(path)
    cfg = header.get("config", {})
    names = cfg.get("names") or ["A", "B"]
    skills = cfg.get("skills") or ["?", "?"]
    people = set(header.get("people") or ())
    difficulty = cfg.get("difficulty", "exact")  # the person's release error (left out when exact)
    who = [msg("{name} (person, {difficulty})", name=n, difficulty=difficulty) if n in people else f"{n} ({k})" for n, k in zip(names, skills)]
    title = msg("kubb3d view: {book} match {first} vs {second}, seed {seed}", book=_book(header.get("ruleset")), first=who[0], second=who[1], seed=str(cfg.get("seed")))
    return ReplaySession(tl, scene, title)


def _book(ruleset) -> str:
    """The rule book's short title of a replay's ruleset (``DM``), or the name as written."""
    from kubb3d.judge.rulebook import get_rulebook

    try:
        return get_rulebook(str(ruleset)).title
    except (KeyError, ValueError):
        return str(ruleset)
