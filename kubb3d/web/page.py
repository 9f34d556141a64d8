"""Self-contained web pages of a replay, a scenario and the referee quiz (docs/web.md).

:func:`replay_page` turns a match replay (``kubb3d match --replay``) or a scenario file into one
HTML page: the pitch and the pieces in 3D (three.js, carried inside the page), play and pause,
a throw back and forward, a timeline, each ruling with its reason and citation, piece labels.
:func:`quiz_page` does the same for the referee quiz (:mod:`kubb3d.quiz`): every situation in 3D,
the choices, and the ruling, its reason and the scenario's explanation only after a choice.

The pages read what the viewer reads (:func:`kubb3d.viewer.replay.load_session`: the timeline of
segments and the scene) and play it the way :class:`kubb3d.viewer.scene.Segment` does; the
piece meshes are the model files' (:func:`kubb3d.viewer.meshes.load_piece_meshes`). Poses are
rounded to :data:`DECIMALS` places (0.1 mm, 1e-4 of a quaternion) to keep a whole DM match small.
All text is in the given :class:`~kubb3d.i18n.Translator`'s language.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from kubb3d.i18n import DECIMAL_COMMA, ENGLISH, Translator
from kubb3d.judge.messages import N_, msg, nmsg
from kubb3d.judge.rulings import Consequence

DECIMALS = 4
"""Decimal places of every number of a pose in a page (m and quaternion components)."""

THREE_JS = "three.module.min.js"
"""The three.js build carried inside each page (npm package ``three`` 0.170.0, MIT licence in
``three.LICENSE`` beside it)."""

UI = {
    "play": N_("play"),
    "pause": N_("pause"),
    "prev": N_("◀ throw"),
    "next": N_("throw ▶"),
    "watch": N_("↺ watch throw"),
    "watchHelp": N_("this throw again from its start, up to its ruling"),
    "labels": N_("labels"),
    "view": N_("reset view"),
    "rulings": N_("rulings"),
    "timeline": N_("timeline"),
    "help": N_("drag to turn the view, wheel or pinch to zoom"),
    "noWebgl": N_("This browser cannot draw 3D (WebGL is off); the rulings and the timeline still work."),
    "right": N_("Right"),
    "wrong": N_("Not quite"),
    "score": N_("Score"),
    "situation": N_("situation"),
    "nextQuestion": N_("next situation"),
    "done": N_("That was the last situation."),
    "explanation": N_("Why"),
}
"""Words of the pages' buttons and headings, translated when a page is made."""


def _num(x: float) -> float:
    v = round(float(x), DECIMALS)
    return 0.0 if v == 0 else v  # no "-0.0"


def _pose(p: Any) -> list[float]:
    return [_num(v) for v in np.asarray(p, dtype=float).reshape(7)]


def _value(x: Any) -> str:
    return str(getattr(x, "value", x))


@functools.lru_cache(maxsize=None)
def piece_meshes(equipment: str) -> dict[str, dict[str, list[float]]]:
    """Kind → ``{"v": positions, "n": normals}`` (flat lists, 3 per vertex, m, body frame,
    unindexed triangles) of the equipment set's model files (``models/<set>-<kind>.obj``).

    Raises:
        FileNotFoundError: a model file is missing (run ``kubb3d models build --in-place``).
    """
    from kubb3d.viewer.meshes import load_piece_meshes

    out = {}
    for kind, arr in load_piece_meshes(equipment).items():
        out[kind] = {
            "v": [round(float(v), 5) for v in arr[:, :3].reshape(-1)],
            "n": [round(float(v), 3) for v in arr[:, 3:6].reshape(-1)],
        }
    return out


def _standing(rulings: Sequence[Any], tr: Translator) -> list[str]:
    """One line per citation for the pieces that simply still stand (as the viewer's panel)."""
    from kubb3d.judge.messages import join, piece_name

    by_cites: dict[str, list[str]] = {}
    for r in rulings:
        if _value(r.consequence) == "none" and _value(r.status) == "standing":
            by_cites.setdefault(", ".join(r.rules), []).append(r.piece)
    return [
        tr(msg("still standing: {pieces}  [{rules}]", pieces=join([piece_name(p) for p in pieces]), rules=cites))
        for cites, pieces in by_cites.items()
    ]


def _rulings(rulings: Sequence[Any], tr: Translator, felled_now: Sequence[str] | None = None) -> list[dict]:
    """The rulings other than "still standing", each with its reason and citations; ``earlier``
    marks a kubb that counts as felled but was felled by an earlier throw of the round (not in
    ``felled_now``, what this throw felled; None: not known)."""
    from kubb3d.judge.messages import piece_name
    from kubb3d.viewer.scene import overlay_status

    return [
        {
            "piece": r.piece,
            "name": tr(piece_name(r.piece)),
            "status": tr(_value(r.status)),
            "consequence": tr(_value(r.consequence)),
            "none": _value(r.consequence) == "none",
            "earlier": felled_now is not None
            and r.piece not in felled_now
            and _value(r.consequence) == Consequence.COUNTS_AS_FELLED.value,
            "rules": list(r.rules),
            "reason": tr(r.reason),
            "overlay": overlay_status(r),
        }
        for r in rulings
        if not (_value(r.consequence) == "none" and _value(r.status) == "standing")
    ]


def _event_line(event: dict, tr: Translator) -> str:
    """One line of an action's play-by-play (``P2 wins the lag throw  [DM §3]``) in ``tr``'s
    language: the replay keeps its English text, read back into the catalog's templates."""
    from kubb3d.judge.messages import recorded

    text = tr(recorded(event["text"]))
    return f"{text}  [{', '.join(event['rules'])}]" if event.get("rules") else text


def _delta(poses: dict[str, list[float]], base: dict[str, list[float]]) -> dict[str, list[float]]:
    return {pid: p for pid, p in poses.items() if base.get(pid) != p}


def scene_data(session: Any, tr: Translator = ENGLISH) -> dict:
    """The JSON-ready data of a :class:`kubb3d.viewer.app.ReplaySession` for the page's player.

    Each segment stores its poses as changes from where the previous one left the pieces
    (``start``), its trajectory samples (``times`` s, ``poses`` T × 7 flattened), the poses at rest
    where they differ from the last samples (``end``), the judge's raising (``raised``), the
    hidden pieces, its rulings and HUD lines in ``tr``'s language; each piece its label
    (``name``: ``A3``, ``König``, ``Wurfholz 2``) in that language too.
    """
    from kubb3d.viewer.hud import last_throw_lines
    from kubb3d.viewer.scene import HOLD_TIME, RAISE_TIME, STATUS_COLORS
    from kubb3d.viewer.textures import WOOD

    scene = session.scene
    pitch = scene.pitch
    board = scene.board
    segments = []
    final: dict[str, list[float]] = {}
    for seg in session.timeline.segments:
        start = {pid: _pose(p) for pid, p in seg.start.items()}
        traj = {pid: [_num(v) for v in np.asarray(arr, dtype=float).reshape(-1)] for pid, arr in seg.poses.items()}
        default_end = dict(start)
        for pid, flat in traj.items():
            if flat:
                default_end[pid] = flat[-7:]
        end = {pid: _pose(p) for pid, p in (seg.end or {}).items()}
        raised = {pid: _pose(p) for pid, p in seg.raised.items()}
        info = seg.info or {}
        segments.append(
            {
                "label": tr(seg.label),
                "start": _delta(start, final),
                "times": [_num(t) for t in seg.times],
                "poses": traj,
                "end": _delta(end, default_end),
                "raised": raised,
                "hidden": sorted(info.get("hidden", ())),
                "thrown": seg.thrown,
                "lines": [tr(line) for line in info.get("lines", ())],
                "events": [_event_line(e, tr) for e in info.get("events", ())],
                "flags": [tr(line) for line in info.get("flags", ())],
                "lastThrow": [tr(line) for line in last_throw_lines(seg)],
                "rulings": _rulings(seg.rulings, tr, info.get("felled")),
                "standing": _standing(seg.rulings, tr),
            }
        )
        final = {**start, **default_end, **end, **raised}
    from kubb3d.judge.messages import piece_name

    # each piece's label: a kubb's id, the king and a baton as words of the language
    pieces = {pid: {"kind": p.kind, "side": p.side, "name": tr(piece_name(pid))} for pid, p in scene.pieces.items()}
    return {
        "equipment": scene.equipment,
        "pitch": {
            "length": pitch.length,
            "width": pitch.width,
            "lines": [[a[0], a[1], b[0], b[1], w] for a, b, w in scene.line_segments()],
            "board": None
            if board is None
            else {
                "length": board.length,
                "width": board.width,
                "thickness": board.thickness,
                "height": board.table_height,
            },
        },
        "meshes": piece_meshes(scene.equipment),
        "wood": {k: list(v) for k, v in WOOD.items()},
        "statusColors": {k: list(v) for k, v in STATUS_COLORS.items()},
        "statusNames": {k: tr(k) for k in STATUS_COLORS},
        "pieces": pieces,
        "segments": segments,
        "hold": HOLD_TIME,
        "raise": RAISE_TIME,
        "focus": list(getattr(session, "focus", [])),
    }


def _asset(name: str) -> str:
    return (resources.files("kubb3d.web") / name).read_text(encoding="utf-8")


def _json_script(data: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can end it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


BROKEN = N_(
    "This page could not open: the file is incomplete or damaged (cut off while it was downloaded,"
    " sent or saved?), or this browser runs no JavaScript. Ask for the file again: whole, it is"
    " {size:.2f} MB."
)
"""The notice at the top of every page, in its language, that stays only if the page's last
script never ran (the file cut off before it) or failed (its data damaged); ``size`` is the whole
page's size in MB, as ``kubb3d export`` prints it."""


def _page(template: str, title: str, lang: str, data: dict, tr: Translator = ENGLISH) -> str:
    from html import escape

    parts = {
        "{{LANG}}": escape(lang),
        "{{TITLE}}": escape(title),
        "{{DATA}}": _json_script(data),
        "{{PLAYER}}": _asset("player.js"),
        "{{THREE}}": _asset(THREE_JS),
    }

    def fill(size: float) -> str:
        parts["{{BROKEN}}"] = escape(tr(msg(BROKEN, size=size)))
        # one pass: the inserted text (the data, the library) is not searched for placeholders
        return re.sub(
            r"\{\{(LANG|TITLE|BROKEN|DATA|PLAYER|THREE)\}\}", lambda m: parts[m.group(0)], _asset(template)
        )

    page = fill(0.0)
    for _ in range(3):  # the notice gives the page's own size, which its digits change by a few bytes
        size = round(len(page.encode("utf-8")) / 1e6, 2)
        again = fill(size)
        if round(len(again.encode("utf-8")) / 1e6, 2) == size:
            return again
        page = again
    return page


def _ui(tr: Translator) -> dict[str, str]:
    words = {key: tr(text) for key, text in UI.items()}
    # the decimal mark the language writes numbers with (German "315,2 s"), for the page's clock
    words["decimal"] = "," if tr.lang in DECIMAL_COMMA else "."
    return words


def replay_page(path: str | Path, tr: Translator = ENGLISH) -> str:
    """The HTML page of a match replay (``.jsonl``) or a scenario file (``.toml``, or a shipped
    scenario's short name), in ``tr``'s language.

    What the replay's reader warns of (:class:`kubb3d.files.InputWarning`: a replay cut off, its
    last line incomplete or its result missing) is passed on as a warning and stands on the page
    too, under its title (``notes``), with the file's name instead of the path it was read from:
    the person the page is sent to sees that the match goes no further than the page shows.

    Raises:
        kubb3d.errors.ReplayError: the file cannot be shown (bad replay, bad scenario …).
        FileNotFoundError: a model file is missing.
    """
    import warnings

    from kubb3d.files import InputWarning
    from kubb3d.viewer.replay import load_session

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        session = load_session(path)
    notes = []
    for w in caught:
        if issubclass(w.category, InputWarning):
            said = w.message.args[0] if isinstance(w.message, Warning) and w.message.args else str(w.message)
            notes.append(tr(_with_file_name(said)))
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)  # passed on (the CLI's line)
    data = scene_data(session, tr)
    title = tr(session.title)
    data.update(title=title, info=[tr(line) for line in session.info], notes=notes, ui=_ui(tr))
    if session.before_rest:  # a scenario: opens on its ruling, the situation as set up a stop before
        data.update(setUp=tr(msg("as set up, before the ruling")), beforeRest=tr(session.before_rest))
    return _page("replay.html", title, tr.lang, data, tr)


def _with_file_name(text: Any) -> Any:
    """A message whose ``path`` parameter is a path (``/home/…/m.jsonl``) with the file's name
    alone (``m.jsonl``), for a page that is sent to others; any other text as it is."""
    from kubb3d.judge.messages import Msg

    if not isinstance(text, Msg) or "path" not in text.params:
        return text
    params = {**text.params, "path": Path(str(text.params["path"])).name}
    if text.forms is not None:
        return nmsg(text.forms[0], text.forms[1], text.forms[2], **params)
    return Msg(text.template, **params)


def _hide(payload: Any) -> str:
    """The answer part of a quiz question, base64 of its JSON: the page shows it only after a
    choice, and a glance at the page's source does not give it away either."""
    return base64.b64encode(json.dumps(payload, ensure_ascii=False).encode()).decode()


def quiz_data(paths: Sequence[str | Path], *, seed: int, count: int | None = None, tr: Translator = ENGLISH) -> dict:
    """The questions of the quiz in the order :func:`kubb3d.quiz.run_quiz` asks them (same
    seed, same order): per scenario its title, rule book, event, description and scene at rest
    without rulings (the piece meshes once per equipment set, in ``meshes``), and per asked
    piece the choices and the hidden answer (the right choice's index, the verdict line, the
    reason, the citations) and the scenario's explanation.

    Raises:
        kubb3d.scenario.ScenarioError: a bad scenario file or path.
    """
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.quiz import CHOICES, EVENTS, question, ruling_line
    from kubb3d.quiz import quiz_files
    from kubb3d.scenario import run
    from kubb3d.viewer.app import scenario_session

    files = quiz_files(paths)
    rng = np.random.default_rng(seed)
    order = [files[i] for i in rng.permutation(len(files))]
    if count is not None:
        order = order[:count]
    questions = []
    meshes: dict[str, dict] = {}
    for path in order:
        res, _ = run(path)
        session = scenario_session(path, reveal=False)
        choices = CHOICES[res.spec.event]
        rulings = {r.piece: r for r in res.judgement.rulings}
        asks = []
        for pid in res.spec.quiz or [res.spec.expect[0].piece]:
            ruling = rulings.get(pid)
            if ruling is None:
                continue
            answer = {
                "right": choices.index(ruling.consequence) if ruling.consequence in choices else -1,
                "line": tr(ruling_line(pid, ruling, tr)),
                "reason": tr(ruling.reason),
                "rules": list(ruling.rules),
            }
            asks.append(
                {
                    "question": tr(question(pid)),
                    "choices": [tr(c.value) for c in choices],
                    "answer": _hide(answer),
                }
            )
        scene = scene_data(session, tr)
        meshes.setdefault(scene["equipment"], scene.pop("meshes"))  # once per equipment set
        for seg in scene["segments"]:  # the question's page shows the situation only
            seg["rulings"], seg["raised"] = [], {}
        questions.append(
            {
                "heading": tr(
                    msg(
                        "{title}  ({book} rules, {event})",
                        title=tr(res.spec.title),
                        book=get_rulebook(res.spec.ruleset).title,
                        event=tr(EVENTS.get(res.spec.event, res.spec.event)),
                    )
                ),
                "description": tr(res.spec.description) if res.spec.description else "",
                "scene": scene,
                "asks": asks,
                "explanation": _hide(tr(res.spec.explanation) if res.spec.explanation else ""),
            }
        )
    asked = sum(len(q["asks"]) for q in questions)  # what the score counts: a situation may ask two
    return {
        "intro": tr(
            msg(
                "Referee quiz: {situations}, {questions} (seed {seed}). Choose what happens to each piece asked about.",
                situations=nmsg("{count} situation", "{count} situations", len(questions), count=len(questions)),
                questions=nmsg("{count} question", "{count} questions", asked, count=asked),
                seed=seed,
            )
        ),
        "questions": questions,
        "meshes": meshes,
    }


def quiz_page(paths: Sequence[str | Path], *, seed: int, count: int | None = None, tr: Translator = ENGLISH) -> str:
    """The one HTML page of the quiz (:func:`quiz_data`), in ``tr``'s language.

    Raises:
        kubb3d.scenario.ScenarioError: a bad scenario file or path.
    """
    data = quiz_data(paths, seed=seed, count=count, tr=tr)
    title = tr(msg("kubb3d referee quiz"))
    data.update(title=title, ui=_ui(tr))
    return _page("quiz.html", title, tr.lang, data, tr)
