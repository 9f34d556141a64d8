"""Files the viewer can show: match replays (``kubb3d match --replay``) and scenario files.

A match replay (JSON lines, schema 1, see :mod:`kubb3d.match`) becomes a
:class:`~kubb3d.viewer.scene.Timeline`:

* a ``world`` record (turn boundary) is a still segment that sets every kubb and the king
  to the recorded poses and collects the batons;
* every simulated throw of an ``action`` record (baton throw, king throw, lag throw, inkast,
  penalty kubb) is a segment playing its recorded trajectory from the current poses; the
  action's rulings are shown on its last throw, and the pieces the judge stands up again
  (``raise here`` with a raised pose; ``raise at original spot`` of a foul at once) are
  animated to their raised poses;
* after an inkast, invalid and stößel kubbs are picked up (laid behind the baseline like the
  match engine does) until thrown or placed; a ``place_kubb`` action stands the kubb at its
  position.

Pure Python + numpy: no OpenGL here.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from kubb3d.pitch import KING_ID, Pitch
from kubb3d.viewer.hud import outcome_line
from kubb3d.viewer.scene import PieceView, Scene, Segment, Timeline

LYING = (0.0, float(np.sin(np.pi / 4)), 0.0, float(np.cos(np.pi / 4)))
"""quat_xyzw of a kubb lying on its side, long axis along x."""


from kubb3d.replay import ReplayError  # noqa: E402  (one error type for every replay reader)


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
        out.append(SimpleNamespace(piece=r["piece"], status=r.get("status", "?"), consequence=r.get("consequence", "none"), rules=tuple(r.get("rules", ())), reason=r.get("reason", ""), raised_pose=r.get("raised_pose")))
    return tuple(out)


def _snake(name: str) -> str:
    """``KingThrow`` → ``king_throw`` (action types are class names in the file)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", str(name)).lower()


def _describe(action: dict) -> str:
    t = _snake(action.get("type", "action"))
    side = action.get("side") or action.get("player") or ""
    what = {"baton_throw": "baton throw", "king_throw": "KING THROW", "lag_throw": "lag throw", "inkast": "inkast", "penalty_throw": "penalty kubb", "place_kubb": "places a kubb", "raise": "raising", "choose": "chooses"}.get(t, t.replace("_", " "))
    extra = ""
    if "baton" in action:
        extra = f" {action['baton']}"
    if "kubbs" in action:
        extra = f" {', '.join(action['kubbs'])}"
    if "kubb" in action:
        extra = f" {action['kubb']}"
    return f"{side}: {what}{extra}".strip()


MOVED_M = 0.005
"""m: a piece that moved this far during a throw was touched (the first such is the first hit)."""


def throw_facts(th: dict, times: np.ndarray, tposes: dict[str, np.ndarray], start: dict[str, np.ndarray]) -> dict:
    """What a throw record says about the throw, for the last-throw panel: ``piece``,
    ``speed_mps`` (release speed), ``landing`` ((x, y) m where the piece first came down to
    within 3 cm of its resting height, or None), ``slid`` (released less than 3 cm above z = 0:
    a flicked disk, even one that then falls off the board) and then ``rest`` ((x, y) m of its
    last sample), ``first_hit`` (the first other piece that
    moved more than :data:`MOVED_M`, or None), ``legal`` and ``violations`` (rules)."""
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
    return {"piece": piece, "speed_mps": speed, "landing": landing, "slid": slid, "rest": rest, "first_hit": first, "legal": bool(th.get("legal", True)), "violations": [v.get("rule", "?") for v in th.get("violations", [])]}


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
        eq, pitch = self.eq, self.pitch
        self.poses: dict[str, np.ndarray] = {}
        self.kinds: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        self.hidden: set[str] = set()
        self.round_start: dict[str, np.ndarray] = {}
        self.round_key: tuple | None = None
        self.set_no = self.turn_no = 0
        self.all_kubbs: list[str] = []
        self.segments: list[Segment] = []
        # the standard set-up (before the first turn record: lag throws use it)
        self.standard = {kid: np.array((x, y, eq.kubb.height / 2, 0.0, 0.0, 0.0, 1.0)) for side in ("A", "B") for kid, (x, y) in pitch.baseline_kubb_positions(side).items()}
        self.standard[KING_ID] = np.array((0.0, 0.0, eq.king.height / 2, 0.0, 0.0, 0.0, 1.0))
        for pid, p in self.standard.items():
            self.poses[pid] = p.copy()
            self.kinds[pid] = "king" if pid == KING_ID else "kubb"
            if pid != KING_ID:
                self.all_kubbs.append(pid)
                self.sides[pid] = pid[0]

    @staticmethod
    def kind_of(pid: str) -> str:
        return "king" if pid == KING_ID else ("baton" if pid.startswith("baton") else "kubb")

    def _park(self, kid: str, half: str) -> None:
        """Lay a picked-up kubb aside behind the end of ``half``: on the grass 1.5 m behind the
        baseline, or on the floor behind a table-top board (the same place, scaled)."""
        from kubb3d.equipment import LYING_DISK_KUBB
        from kubb3d.viewer.camera import view_scale

        slot = sorted(self.all_kubbs).index(kid) if kid in self.all_kubbs else 0
        k = view_scale(self.pitch)
        x = self.pitch.baseline_x(half) - self.pitch.forward(half) * 1.5 * k
        y = (-2.25 + 0.5 * slot) * k
        board = self.eq.board
        if board is None:
            self.poses[kid] = np.array((x, y, self.eq.kubb.width / 2, *LYING))
        else:
            self.poses[kid] = np.array((x, y, -board.table_height + self.eq.kubb.thickness / 2, *LYING_DISK_KUBB))

    def _info(self, lines_=(), flags=(), line_x=None) -> dict:
        return {"hidden": set(self.hidden), "lines": [f"set {self.set_no}, turn {self.turn_no}", *lines_], "flags": list(flags), "throwing_line": line_x}

    def _add(self, seg: Segment) -> Segment:
        self.segments.append(seg)
        return seg

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
            text = outcome_line(rec.get("winner"), str(rec.get("reason", "")))
            last_rulings = next((sg.rulings for sg in reversed(self.segments) if sg.rulings), ())
            self._add(Segment(text, {k: v.copy() for k, v in self.poses.items()}, rulings=last_rulings, info=self._info([text])))
        return self.segments[n0:]

    def live_throw(self, th: dict, label: str, line_x: float | None = None) -> Segment:
        """The segment of one throw of an action still under way (a kubb of a person's
        inkast), played from the current poses without rulings."""
        return self._throw(th, label, line_x, (), False, "", {})

    def _world(self, rec: dict) -> None:
        self.set_no, self.turn_no = rec.get("set", self.set_no), rec.get("turn", self.turn_no)
        new = {pid: np.asarray(p, dtype=float) for pid, p in rec["poses"].items()}
        for pid, p in new.items():
            if p.shape != (7,):
                raise ValueError(f"pose of {pid} must have 7 numbers")
            self.kinds.setdefault(pid, self.kind_of(pid))
            if self.kinds[pid] == "kubb" and pid not in self.all_kubbs:
                self.all_kubbs.append(pid)
        gone = {pid for pid in self.poses if self.kinds.get(pid) in ("kubb", "king") and pid not in new}
        start = {k: v.copy() for k, v in self.poses.items()}
        self.poses.update(new)
        self.sides.update(rec.get("sides", {}))
        self.hidden = {pid for pid, k in self.kinds.items() if k == "baton"} | gone
        self._add(Segment(f"set {self.set_no}, turn {self.turn_no}: pieces set up", {**start, **{k: v.copy() for k, v in self.poses.items()}}, info=self._info()))

    def _throw(self, th: dict, label: str, line_x, rulings: tuple, last: bool, atype: str, round_start: dict) -> Segment:
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
                raise ValueError(f"trajectory of {pid} has {len(arr)} poses for {len(times)} times")
        start = {k: v.copy() for k, v in poses.items()}
        if piece in tposes and len(tposes[piece]):
            start[piece] = tposes[piece][0].copy()
        flags = [f"ILLEGAL ({v.get('rule', '?')}): {v.get('reason', '')}" for v in th.get("violations", [])]
        raised = {}
        end = {k: v.copy() for k, v in start.items()}
        for pid, arr in tposes.items():
            if len(arr):
                end[pid] = arr[-1].copy()
        if last:
            for r in rulings:
                if r.raised_pose and r.consequence in ("raise here", "place freely") and r.piece in end:
                    rp = r.raised_pose
                    raised[r.piece] = np.array((*rp["position_m"], *rp["quat_xyzw"]), dtype=float)
                elif r.consequence == "raise at original spot" and r.piece in round_start and atype in ("baton_throw", "king_throw") and not th.get("legal", True):
                    raised[r.piece] = round_start[r.piece].copy()
        info = self._info(flags=flags, line_x=line_x)
        info["throw"] = throw_facts(th, times, tposes, start)
        seg = self._add(Segment(label, start, times, tposes, end, raised, rulings if last else (), piece, info))
        poses.update(end)
        poses.update(raised)
        return seg

    def _action(self, rec: dict, shown: int) -> None:
        poses = self.poses
        action = rec.get("action") or {}
        atype = _snake(action.get("type", ""))
        throws = rec.get("throws") or []
        rulings = _rulings(rec.get("judgement"), rec.get("outcome"))
        label = _describe(action)
        line_x = action.get("line_x")
        if atype in ("baton_throw", "king_throw") and (self.set_no, self.turn_no) != self.round_key:
            self.round_key = (self.set_no, self.turn_no)
            self.round_start = {k: v.copy() for k, v in poses.items() if self.kinds.get(k) in ("kubb", "king")}
        before = {k: v.copy() for k, v in poses.items()}
        lag = atype == "lag_throw"
        if lag:
            # each lag throw is simulated in a fresh standard world (DM §3)
            for pid, p in self.standard.items():
                poses[pid] = p.copy()
        for j, th in enumerate(throws):
            if j < shown:
                continue  # played live while the action was under way; the poses followed
            tag = f" ({j + 1}/{len(throws)})" if len(throws) > 1 else ""
            self._throw(th, label + tag, line_x, rulings, j == len(throws) - 1, atype, self.round_start)
            if lag:
                for pid, p in self.standard.items():
                    poses[pid] = p.copy()
        if self.eq.board is not None and atype in ("baton_throw", "king_throw"):
            self._clear_board(rec, before)
        if atype in ("inkast", "penalty_throw"):
            out = rec.get("outcome") or {}
            valid = set((out.get("valid") or {}).keys()) if isinstance(out.get("valid"), dict) else set(out.get("valid") or [])
            into = "B" if action.get("side", action.get("from_side", "A")) == "A" else "A"
            if atype == "penalty_throw":
                into = "B" if action.get("from_side", "A") == "A" else "A"
            for kid in action.get("kubbs", [action.get("kubb")] if action.get("kubb") else []):
                if kid and kid not in valid and kid in poses:
                    self._park(kid, into)
        if atype == "place_kubb" and action.get("kubb") and action.get("position"):
            x, y = action["position"]
            poses[action["kubb"]] = np.array((x, y, self.eq.kubb.height / 2, 0.0, 0.0, 0.0, 1.0))
            self.hidden.discard(action["kubb"])
            self._add(Segment(label, {k: v.copy() for k, v in poses.items()}, info=self._info()))
        if atype == "remove_tie_break_kubb" and action.get("kubb"):
            self.hidden.add(action["kubb"])

    def _clear_board(self, rec: dict, before: dict[str, np.ndarray]) -> None:
        """After a flick on a table-top board, as the match does (``KT rules``: "after each flick,
        keep the playing area clear by removing the baton and any knocked over kubbs"): the baton
        and the knocked kubbs leave the view (they come back where the next record puts them),
        kubbs knocked early stand again at their round-start spots, and the flicker's own kubbs
        knocked by his flick stand again where they stood before it."""
        action, out = rec.get("action") or {}, rec.get("outcome") or {}
        for th in rec.get("throws") or []:
            self.hidden.add(th["piece"])
        self.hidden.update(out.get("felled") or ())
        for kid in out.get("raise_again") or ():
            if kid in self.round_start:
                self.poses[kid] = self.round_start[kid].copy()
        side = action.get("side")
        for kid, pose in before.items():
            if self.sides.get(kid) == side and self.kinds.get(kid) == "kubb" and kid not in self.hidden:
                self.poses[kid] = pose

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
            raise ReplayError(f"{path}:{n}: expected a JSON object")
        try:
            b.feed(rec)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:{n}: malformed {rec.get('type') or 'record'} record: {exc}") from None
    if not b.segments:
        raise ReplayError(f"{path}: the replay holds no turns or throws")
    scene = b.scene()
    return Timeline(b.segments), scene, header


def load_session(path: str | Path):
    """A :class:`~kubb3d.viewer.app.ReplaySession` for a replay (``.jsonl``/``.json``) or a
    scenario (``.toml``) file.

    Raises:
        ReplayError: the file cannot be shown (bad replay, bad scenario …).
    """
    path = Path(path)
    from kubb3d.viewer.app import ReplaySession, scenario_session

    if path.suffix.lower() == ".toml":
        from kubb3d.scenario import ScenarioError

        try:
            return scenario_session(path)
        except ScenarioError as exc:
            raise ReplayError(str(exc)) from None
    tl, scene, header = load_replay(path)
    cfg = header.get("config", {})
    names = cfg.get("names") or ["A", "B"]
    skills = cfg.get("skills") or ["?", "?"]
    title = f"kubb3d view: {header.get('ruleset', '?')} match {names[0]} ({skills[0]}) vs {names[1]} ({skills[1]}), seed {cfg.get('seed')}"
    return ReplaySession(tl, scene, title)
