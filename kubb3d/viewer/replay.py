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
    recs = [(1, header)] + [(n, raw) for n, _, raw in rp.records]
    try:
        pitch = Pitch(**header.get("pitch", {}))
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{path}:1: bad pitch: {exc}") from None
    equipment = header.get("equipment", "standard")
    from kubb3d.equipment import get_set

    try:
        eq = get_set(equipment)
    except (KeyError, ValueError) as exc:
        raise ReplayError(f"{path}:1: unknown equipment {equipment!r}") from None

    poses: dict[str, np.ndarray] = {}
    kinds: dict[str, str] = {}
    sides: dict[str, str] = {}
    hidden: set[str] = set()
    segments: list[Segment] = []
    round_start: dict[str, np.ndarray] = {}
    round_key = None
    set_no = turn_no = 0
    all_kubbs: list[str] = []
    # the standard set-up (before the first turn record: lag throws use it)
    standard = {kid: np.array((x, y, eq.kubb.height / 2, 0.0, 0.0, 0.0, 1.0)) for side in ("A", "B") for kid, (x, y) in pitch.baseline_kubb_positions(side).items()}
    standard[KING_ID] = np.array((0.0, 0.0, eq.king.height / 2, 0.0, 0.0, 0.0, 1.0))
    for pid, p in standard.items():
        poses[pid] = p.copy()
        kinds[pid] = "king" if pid == KING_ID else "kubb"
        if pid != KING_ID:
            all_kubbs.append(pid)
            sides[pid] = pid[0]

    def kind_of(pid: str) -> str:
        return "king" if pid == KING_ID else ("baton" if pid.startswith("baton") else "kubb")

    def park(kid: str, half: str) -> None:
        slot = sorted(all_kubbs).index(kid) if kid in all_kubbs else 0
        x = pitch.baseline_x(half) - pitch.forward(half) * 1.5
        poses[kid] = np.array((x, -2.25 + 0.5 * slot, eq.kubb.width / 2, *LYING))

    def info(lines_=(), flags=(), line_x=None) -> dict:
        return {"hidden": set(hidden), "lines": [f"set {set_no}, turn {turn_no}", *lines_], "flags": list(flags), "throwing_line": line_x}

    for n, rec in recs[1:]:
        if not isinstance(rec, dict):
            raise ReplayError(f"{path}:{n}: expected a JSON object")
        typ = rec.get("type")
        try:
            if typ == "world":
                set_no, turn_no = rec.get("set", set_no), rec.get("turn", turn_no)
                new = {pid: np.asarray(p, dtype=float) for pid, p in rec["poses"].items()}
                for pid, p in new.items():
                    if p.shape != (7,):
                        raise ValueError(f"pose of {pid} must have 7 numbers")
                    kinds.setdefault(pid, kind_of(pid))
                    if kinds[pid] == "kubb" and pid not in all_kubbs:
                        all_kubbs.append(pid)
                gone = {pid for pid in poses if kinds.get(pid) in ("kubb", "king") and pid not in new}
                start = {k: v.copy() for k, v in poses.items()}
                poses.update(new)
                sides.update(rec.get("sides", {}))
                hidden = {pid for pid, k in kinds.items() if k == "baton"} | gone
                segments.append(Segment(f"set {set_no}, turn {turn_no}: pieces set up", {**start, **{k: v.copy() for k, v in poses.items()}}, info=info()))
            elif typ == "action":
                action = rec.get("action") or {}
                atype = _snake(action.get("type", ""))
                throws = rec.get("throws") or []
                rulings = _rulings(rec.get("judgement"), rec.get("outcome"))
                label = _describe(action)
                line_x = action.get("line_x")
                if atype in ("baton_throw", "king_throw") and (set_no, turn_no) != round_key:
                    round_key = (set_no, turn_no)
                    round_start = {k: v.copy() for k, v in poses.items() if kinds.get(k) in ("kubb", "king")}
                lag = atype == "lag_throw"
                if lag:
                    # each lag throw is simulated in a fresh standard world (DM §3)
                    for pid, p in standard.items():
                        poses[pid] = p.copy()
                for j, th in enumerate(throws):
                    piece = th["piece"]
                    kinds.setdefault(piece, kind_of(piece))
                    hidden.discard(piece)
                    traj = th.get("trajectory") or {}
                    times = np.asarray(traj.get("times_s", []), dtype=float)
                    tposes = {pid: np.asarray(arr, dtype=float).reshape(-1, 7) for pid, arr in (traj.get("poses") or {}).items()}
                    for pid, arr in tposes.items():
                        kinds.setdefault(pid, kind_of(pid))
                        if len(arr) != len(times):
                            raise ValueError(f"trajectory of {pid} has {len(arr)} poses for {len(times)} times")
                    start = {k: v.copy() for k, v in poses.items()}
                    if piece in tposes and len(tposes[piece]):
                        start[piece] = tposes[piece][0].copy()
                    last = j == len(throws) - 1
                    flags = [f"ILLEGAL ({v.get('rule', '?')}): {v.get('reason', '')}" for v in th.get("violations", [])]
                    raised = {}
                    seg_rulings = rulings if last else ()
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
                    tag = f" ({j + 1}/{len(throws)})" if len(throws) > 1 else ""
                    segments.append(Segment(label + tag, start, times, tposes, end, raised, seg_rulings, piece, info(flags=flags, line_x=line_x)))
                    poses.update(end)
                    poses.update(raised)
                    if lag:
                        for pid, p in standard.items():
                            poses[pid] = p.copy()
                if atype in ("inkast", "penalty_throw"):
                    out = rec.get("outcome") or {}
                    valid = set((out.get("valid") or {}).keys()) if isinstance(out.get("valid"), dict) else set(out.get("valid") or [])
                    into = "B" if action.get("side", action.get("from_side", "A")) == "A" else "A"
                    if atype == "penalty_throw":
                        into = "B" if action.get("from_side", "A") == "A" else "A"
                    for kid in action.get("kubbs", [action.get("kubb")] if action.get("kubb") else []):
                        if kid and kid not in valid and kid in poses:
                            park(kid, into)
                if atype == "place_kubb" and action.get("kubb") and action.get("position"):
                    x, y = action["position"]
                    poses[action["kubb"]] = np.array((x, y, eq.kubb.height / 2, 0.0, 0.0, 0.0, 1.0))
                    hidden.discard(action["kubb"])
                    segments.append(Segment(label, {k: v.copy() for k, v in poses.items()}, info=info()))
                if atype == "remove_tie_break_kubb" and action.get("kubb"):
                    hidden.add(action["kubb"])
            elif typ == "outcome":
                text = f"outcome: {rec.get('termination', '')}, winner {rec.get('winner')}"
                last_rulings = next((sg.rulings for sg in reversed(segments) if sg.rulings), ())
                segments.append(Segment(text, {k: v.copy() for k, v in poses.items()}, rulings=last_rulings, info=info([text])))
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:{n}: malformed {typ or 'record'} record: {exc}") from None
    if not segments:
        raise ReplayError(f"{path}: the replay holds no turns or throws")
    scene = Scene(pitch, equipment)
    for pid, k in kinds.items():
        pose = poses.get(pid)
        if pose is None:
            pose = next((s.start[pid] for s in segments if pid in s.start), np.array((0, 0, -5, 0, 0, 0, 1.0)))
        scene.pieces[pid] = PieceView(k, np.asarray(pose, dtype=float), side=sides.get(pid))
    # segments must know every piece: fill missing start poses from the first known pose
    for seg in segments:
        for pid in scene.pieces:
            if pid not in seg.start:
                first = next((s.start[pid] for s in segments if pid in s.start), scene.pieces[pid].pose)
                seg.start[pid] = np.asarray(first, dtype=float).copy()
                if pid not in seg.end:
                    seg.end[pid] = seg.start[pid].copy()
                seg.info.setdefault("hidden", set()).add(pid)
    return Timeline(segments), scene, header


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
