"""What a user reads in one language, gathered from every place that shows it (issue 34).

Each function returns ``(where, text)`` pairs of one surface: the quiz in the terminal and on its
web page, the judge's rulings, a match's play-by-play, a replay's web page and the 3D view's HUD
(titles, panels, piece and area labels) of a replay, of every shipped scenario and of the play,
challenge and match sessions under every camera. :func:`english_words` and
:func:`missing_articles` are the checks the tests run on them.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any, Iterator

from cli_process import run_kubb3d
from typer.testing import CliRunner

from kubb3d.i18n import Translator
from kubb3d.library import scenarios_dir

Texts = list[tuple[str, str]]

ENGLISH_WORDS = (
    "throw",
    "throws",
    "baton",
    "batons",
    "king",
    "kubb",
    "kubbs",
    "thrower",
    "camera",
    "inkast",
    "raising",
    "lag",
    "flick",
    "return",
    "event",
    "match",
    "view",
    "set",
    "turn",
    "pieces",
    "piece",
    "seed",
    "vs",
    "person",
    "orbit",
    "top",
    "follow",
    "behind",
    "beyond",
    "sideline",
    "baseline",
    "the",
    "of",
    "and",
    "is",
    "to",
    "with",
    "from",
    "felled",
    "standing",
    "fallen",
    "leaning",
    "playing",
    "paused",
    "legal",
    "OUT",
    "ILLEGAL",
    "KING",
    "THROW",
    "FLICK",
    "chooses",
    "places",
    "scenario",
    "rules",
    "up",
)
"""English words (identifiers and the words around them) that have no place in a German text:
matched case-sensitively as whole words, a baton's id (``baton3``) too."""

_ENGLISH = re.compile(r"\b(" + "|".join(ENGLISH_WORDS) + r")\d*\b")


def english_words(text: str, citations: set[str]) -> list[str]:
    """The English words of :data:`ENGLISH_WORDS` in ``text`` once the rule citations (names of
    rules, kept in every language: ``WS End of the Game``) are taken out."""
    for cite in sorted(citations, key=len, reverse=True):
        text = text.replace(cite, " ")
    return [m.group(0) for m in _ENGLISH.finditer(text)]


_ARTICLE = {
    # the king right after a preposition, a verb or a conjunction, or opening a sentence before
    # its verb (a numbered baton, like a numbered kubb, is a name: "an Wurfholz 3" reads well)
    "de": re.compile(
        r"\b(mit|gegen|an|auf|für|über|unter|neben|hinter|vor|bei|nach|aus|durch|um|ohne|zu|von|in|und|oder|"
        r"berührt|trifft|traf|würde|wurde|nachdem|weil|sich|stand|fiel|ist|war)\s+König\b"
        r"|(^|[.:!?(]\s*)König\s+(ist|war|wird|liegt|lag|steht|stand|fiel|ruht|lehnt|hat|hält|ging)\b"
    ),
    "en": re.compile(
        r"\b(to|with|against|on|at|of|by|from|onto|and|or|touches|overlap|once|check)\s+king\b"
        r"|(^|[.:!?(]\s*)[Kk]ing\s+(is|was|lies|lay|stands|stood|fell|rests|leans|has|went|stays|does)\b"
    ),
}


def missing_articles(text: str, lang: str) -> list[str]:
    """The places where the king stands in a sentence without its article ("mit König", "König
    ist gefallen", "What happens to king?", "leans on king"); a list or a label ("stehen noch:
    B1, König", "zuerst getroffen: König") needs none."""
    return [m.group(0) for m in _ARTICLE[lang].finditer(text)]


def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every text of a page's data, a quiz answer's hidden JSON decoded; numbers, poses and
    meshes left out."""
    skip = {
        "poses",
        "start",
        "end",
        "raised",
        "times",
        "meshes",
        "wood",
        "statusColors",
        "pitch",
        "hidden",
        "focus",
        "rules",
        "thrown",
        "pieces",
        "piece",
        "overlay",
    }  # ids and data (a ruling's shown name is "name")
    if isinstance(value, str):
        if where.endswith(("/asks/answer", "/questions/explanation")):
            value = json.loads(base64.b64decode(value))
            yield from _strings(value, where + "*")
        else:
            yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, f"{where}/{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, where)


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="kubb3d-data">(.*?)</script>', html, re.S)
    assert found, "no data element in the page"
    return json.loads(found.group(1))


def page_texts(html: str) -> Texts:
    """The page's title and every text of its data, the piece labels' names among them."""
    data = page_data(html)
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    out = [("page <title>", title.group(1) if title else "")]
    out += list(_strings(data, "page"))
    out += [(f"page label of {pid}", info.get("name", pid)) for pid, info in data.get("pieces", {}).items()]
    for q in data.get("questions", ()):
        out += [(f"quiz page label of {pid}", info.get("name", pid)) for pid, info in q["scene"]["pieces"].items()]
    return out


def quiz_terminal(tr: Translator) -> Texts:
    """``kubb3d quiz`` over every shipped scenario, each asked piece answered with choice 1."""
    from kubb3d.quiz import run_quiz

    lines: list[str] = []
    run_quiz([scenarios_dir()], seed=0, ask=lambda _prompt: "1", say=lines.append, tr=tr)
    return [("quiz", line) for line in lines]


def judge_terminal(judge_app, lang: str) -> Texts:
    """``kubb3d judge --lang LANG`` over every shipped scenario."""
    r = CliRunner().invoke(judge_app, ["judge", "--lang", lang])
    assert r.exit_code in (0, 1), r.output
    return [("judge", line) for line in r.stdout.splitlines()]


def match_terminal(match_app, args, lang: str) -> Texts:
    """``kubb3d match ARGS --lang LANG``: the play-by-play and the result line."""
    r = CliRunner().invoke(match_app, ["match", *args, "--lang", lang])
    assert r.exit_code == 0, r.output
    return [("match", line) for line in r.stdout.splitlines()]


def stats_terminal(stats_app, path: Path, lang: str) -> Texts:
    """``kubb3d stats REPLAY --lang LANG``: both players' figures (in this process, as
    :func:`match_terminal`: a subprocess cost an interpreter start and kubb3d's import each)."""
    r = CliRunner().invoke(stats_app, ["stats", str(path), "--lang", lang])
    assert r.exit_code == 0, r.output
    return [("stats", line) for line in r.stdout.splitlines()]


def _controller(scene, **toggles):
    from kubb3d.viewer.controls import Controller

    ctl = Controller(scene.pitch, mode="view")
    for key, value in toggles.items():
        setattr(ctl, key, value)
    return ctl


def _labels(scene, ctl, tr: Translator) -> list[str]:
    """The piece and area labels the view writes over the picture (as :meth:`App.frame`)."""
    from kubb3d.viewer.overlay import piece_marks

    view_proj = ctl.camera().view_proj(1280, 720)
    return [text for text, _, _ in piece_labels(piece_marks(scene, view_proj, 1280, 720)[1], tr)]


def piece_labels(labels, tr: Translator):
    from kubb3d.viewer.hud import Hud, translate_hud

    return translate_hud(Hud(labels=labels), tr).labels if tr.lang != "en" else labels


def hud_texts(hud) -> list[str]:
    """Every text line of a :class:`~kubb3d.viewer.hud.Hud`."""
    out = [hud.title, hud.power_label, hud.message]
    for key in ("lines", "settings", "flags", "rulings", "help", "last_throw", "summary", "rulings_list", "prompt"):
        out += list(getattr(hud, key))
    out += [text for text, _, _ in hud.labels]
    return [str(t) for t in out if t]


def replay_hud(session, tr: Translator, where: str) -> Texts:
    """The HUD of a :class:`~kubb3d.viewer.app.ReplaySession` at rest at the end of every
    segment, with the help, the rulings list and the labels shown."""
    from kubb3d.viewer.hud import translate_hud

    session.tr = tr
    tl = session.timeline
    ctl = _controller(session.scene, show_help=True, show_rulings=True, camera_mode="top")
    out: Texts = []
    for i, seg in enumerate(tl.segments):
        tl.seek(float(tl.starts[i]) + seg.duration - 1e-6)
        session.update(0.0)
        h = translate_hud(session.hud(ctl), tr)
        out += [(f"{where} segment {i}", t) for t in hud_texts(h)]
        out += [(f"{where} segment {i} label", t) for t in _labels(session.scene, ctl, tr)]
    return out


def scenario_sessions() -> list[tuple[str, Any]]:
    """(name, session) of the 3D view of every shipped scenario (``kubb3d view NAME``), with the
    rulings and as the quiz shows it (before the answer). The sessions are the same in every
    language (:func:`replay_hud` sets ``tr``), so one list serves all."""
    from kubb3d.viewer.app import scenario_session

    out: list[tuple[str, Any]] = []
    for path in sorted(scenarios_dir().glob("*.toml")):
        out += [(path.stem, scenario_session(path)), (path.stem + " (quiz)", scenario_session(path, reveal=False))]
    return out


def scenario_huds(tr: Translator, sessions: list[tuple[str, Any]] | None = None) -> Texts:
    """The HUD and labels of :func:`scenario_sessions` (``sessions``, if given: building them
    takes seconds)."""
    out: Texts = []
    for name, session in scenario_sessions() if sessions is None else sessions:
        out += replay_hud(session, tr, name)
    return out


def session_titles(tr: Translator) -> Texts:
    """The titles of free play (throws and flicks), a challenge and a match under every camera."""
    from kubb3d.viewer.app import PlaySession
    from kubb3d.viewer.camera import CAMERA_MODES
    from kubb3d.viewer.challenge_mode import ChallengeSession
    from kubb3d.viewer.hud import translate_hud
    from kubb3d.viewer.match_mode import MatchSession

    out: Texts = []
    sessions = [PlaySession(), PlaySession("kubbuteo", "kubbuteo"), ChallengeSession("inkast", "club", seed=3)]
    match = MatchSession("dm", "club", seed=1, hold=True, round_cap=3)
    try:
        for session in [*sessions, match]:
            session.tr = tr
            for mode in CAMERA_MODES:
                ctl = _controller(session.scene, camera_mode=mode, show_help=True)
                h = translate_hud(session.hud(ctl), tr)
                out += [(f"{type(session).__name__} {mode}", t) for t in hud_texts(h)]
    finally:
        for session in [*sessions, match]:
            session.close()
    return out


def replay_file(tmp: Path, *args: str) -> Path:
    """A replay of a short seeded match (``kubb3d match ARGS --replay``)."""

    path = tmp / ("-".join(a.strip("-") for a in args) + ".jsonl")
    if path.exists():
        return path
    run_kubb3d("match", *args, "--replay", str(path), "-q", check=True, timeout=300)
    return path


def citations() -> set[str]:
    """Every rule citation the judge and the rules engine may give (``DM §5``, ``WS End of the
    Game``: names of rules, kept in every language) and the page they point to for kubb3d's own
    rules (``docs/rules.md``)."""
    from kubb3d.judge.citations import known_citations

    return set(known_citations()) | {"docs/rules.md"}
