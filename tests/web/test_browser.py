"""The web pages in a real browser (issue #35 item 3; docs/web.md "The browser test"): headless
Chromium opens the replay page and the quiz from disk. No console errors; the canvas draws the
pieces where the replay file says (positions read here in Python, projected with the page's camera:
the pixel at each piece changes when the page hides the pieces, bare ground does not); the
timeline steps; a quiz answer reveals the reason, which was nowhere on the page before.

Screenshots go to the module's temporary folder, or to ``KUBB3D_WEB_SHOTS`` if set."""

from __future__ import annotations

import base64
import json
import os
import re
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest
from cdp_browser import Browser, find_chromium
from PIL import Image

from kubb3d.i18n import translator
from kubb3d.library import scenarios_dir
from kubb3d.viewer.replay import load_session
from kubb3d.web.page import quiz_data, quiz_page, replay_page

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium here (Debian's package; .ci/run installs it with apt-get install chromium)"
)
WIDTH, HEIGHT = 1000, 800
QUIZ = {"seed": 0, "count": 3}
KT_SCENARIO = "kt_return_short"
"""A scenario on the Kubbuteo board (a table-top: the board's lines were once hidden under it)."""
LEANING = "dm_leaning_on_field_kubb"
"""A scenario whose ruling (a leaning kubb counts as felled) the page must show on opening."""


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("KUBB3D_WEB_SHOTS") or tmp_path_factory.mktemp("web-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def pages(dm_replay, tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("web-pages")
    made = {
        "replay": replay_page(dm_replay),
        "replay-de": replay_page(dm_replay, translator("de")),
        "quiz": quiz_page([scenarios_dir()], **QUIZ),
        "board": replay_page(KT_SCENARIO),
        "scenario": replay_page(LEANING),
    }
    out = {}
    for name, html in made.items():
        out[name] = folder / f"{name}.html"
        out[name].write_text(html, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def browser():
    with Browser(CHROMIUM, WIDTH, HEIGHT) as b:
        yield b


def open_page(browser: Browser, path: Path) -> dict:
    browser.open(path)
    browser.wait_for("window.kubb3dPage && window.kubb3dPage.ready")
    return browser.evaluate("kubb3dPage.state()")


def screenshot(browser: Browser, folder: Path, name: str) -> np.ndarray:
    time.sleep(0.2)  # one more frame
    path = browser.screenshot(folder / f"{name}.png")
    return np.asarray(Image.open(path).convert("RGB"), dtype=int)


def project(camera: dict, rect: dict, point) -> tuple[int, int] | None:
    """Screenshot pixel (column, row) of a world point (m) through the page's camera, or None
    outside the canvas."""
    m = np.asarray(camera["matrix"], dtype=float).reshape(4, 4).T  # three.js: column-major
    clip = m @ np.append(np.asarray(point, dtype=float), 1.0)
    if clip[3] <= 0:
        return None
    x, y = clip[0] / clip[3], clip[1] / clip[3]
    col = rect["left"] + (x + 1) / 2 * camera["width"]
    row = rect["top"] + (1 - y) / 2 * camera["height"]
    inside = (
        rect["left"] + 3 <= col < rect["left"] + rect["width"] - 3
        and rect["top"] + 3 <= row < rect["top"] + rect["height"] - 3
    )
    return (int(col), int(row)) if inside and row < HEIGHT - 3 else None


def change(a: np.ndarray, b: np.ndarray, at: tuple[int, int]) -> int:
    """The largest colour difference, 0-765, between two screenshots in the 3 × 3 pixels at ``at``."""
    col, row = at
    return int(
        np.abs(a[row - 1 : row + 2, col - 1 : col + 2] - b[row - 1 : row + 2, col - 1 : col + 2]).sum(axis=2).max()
    )


def check_pieces_drawn(browser: Browser, shots: Path, name: str, poses: dict, kinds: dict, hidden: set) -> int:
    """Assert that every shown kubb and the king is drawn where ``poses`` (from the replay file)
    puts it and that the ground away from all pieces is untouched; the number of pieces checked."""
    camera = browser.evaluate("kubb3dPage.camera()")
    rect = browser.evaluate("JSON.parse(JSON.stringify(document.getElementById('view').getBoundingClientRect()))")
    with_pieces = screenshot(browser, shots, name)
    browser.evaluate("kubb3dPage.piecesVisible(false)")
    bare = screenshot(browser, shots, name + "-no-pieces")
    browser.evaluate("kubb3dPage.piecesVisible(true)")
    shown = {pid: pose for pid, pose in poses.items() if pid not in hidden}
    checked = 0
    for pid, pose in shown.items():
        if kinds[pid] not in ("kubb", "king"):
            continue
        at = project(camera, rect, pose[:3])
        if at is None:
            continue
        assert change(with_pieces, bare, at) > 60, f"{name}: {pid} is not drawn at {at}"
        checked += 1
    ground = 0
    for x in np.linspace(-3.8, 3.8, 9):
        for y in np.linspace(-2.3, 2.3, 7):
            if min(np.hypot(p[0] - x, p[1] - y) for p in shown.values()) < 0.6:
                continue
            at = project(camera, rect, (x, y, 0.0))
            if at is None:
                continue
            assert change(with_pieces, bare, at) < 8, f"{name}: something drawn on bare ground at ({x:.1f}, {y:.1f})"
            ground += 1
    assert ground >= 20
    return checked


def test_replay_page_draws_the_pieces_where_the_replay_says_and_steps(browser, pages, shots, dm_replay):
    state = open_page(browser, pages["replay"])
    assert browser.evaluate("kubb3dPage.webgl") is True
    timeline = load_session(dm_replay).timeline
    segments = timeline.segments
    assert (state["segment"], state["segments"]) == (0, len(segments))
    browser.evaluate("document.getElementById('showlabels').click()")  # the labels off: bare pixels
    kinds = {pid: load_session(dm_replay).scene.pieces[pid].kind for pid in segments[0].start}
    # the first turn's set-up, then the end of a throw that felled kubbs (tinted, at rest)
    felled = next(i for i, s in enumerate(segments) if any(str(r.consequence) == "counts as felled" for r in s.rulings))
    checked = 0
    for i, local in ((2, 0.0), (felled, segments[felled].duration - 0.01)):
        browser.evaluate(f"kubb3dPage.seek({float(timeline.starts[i]) + local!r})")
        assert browser.evaluate("kubb3dPage.state().segment") == i
        seg = segments[i]
        checked += check_pieces_drawn(
            browser, shots, f"replay-segment-{i + 1}", seg.poses_at(local), kinds, set(seg.info.get("hidden", ()))
        )
    assert checked >= 16
    # the timeline steps: a throw forward and back; the panel and the highlighted line follow
    browser.evaluate("kubb3dPage.seek(0)")
    for expected in (1, 2, 3):
        browser.evaluate("document.getElementById('next').click()")
        assert browser.evaluate("kubb3dPage.state().segment") == expected
        where = browser.evaluate("document.getElementById('where').textContent")
        assert where == f"{segments[expected].label} ({expected + 1}/{len(segments)})"  # two cells
        now = browser.evaluate(
            "[...document.querySelectorAll('#segments li')].findIndex(li => li.classList.contains('now'))"
        )
        assert now == expected
    browser.evaluate("document.getElementById('prev').click()")
    assert browser.evaluate("kubb3dPage.state().segment") == 2
    browser.evaluate("document.getElementById('showlabels').click()")
    screenshot(browser, shots, "replay-labels")
    before = browser.evaluate("kubb3dPage.state().t")
    browser.evaluate("document.getElementById('play').click()")
    time.sleep(1.0)
    playing = browser.evaluate("kubb3dPage.state()")
    browser.evaluate("document.getElementById('play').click()")
    assert playing["playing"] and playing["t"] > before + 0.2
    assert browser.evaluate("kubb3dPage.state().playing") is False
    # a ruling with its reason and citation, shown at rest
    browser.evaluate(f"kubb3dPage.seek({float(timeline.starts[felled]) + segments[felled].duration - 0.01!r})")
    text = browser.evaluate("document.getElementById('rulings').innerText")
    ruling = next(r for r in segments[felled].rulings if str(r.consequence) == "counts as felled")
    assert f"{ruling.piece}: " in text and ", ".join(ruling.rules) in text and ruling.reason in text
    screenshot(browser, shots, "replay-ruling")
    assert browser.errors == []


def test_german_replay_page(browser, pages, shots, dm_replay):
    open_page(browser, pages["replay-de"])
    words = browser.evaluate(
        "['play', 'timelineword', 'rulingsword'].map(id => document.getElementById(id).textContent)"
    )
    assert words == ["abspielen", "Zeitleiste", "Entscheidungen"]
    # issue 34: the title, the timeline and the labels over the pieces in words, not identifiers
    assert browser.evaluate("document.title") == "kubb3d-Ansicht: DM-Spiel P1 (club) gegen P2 (club), Seed 1"
    labels = browser.evaluate("[...document.querySelectorAll('#labels .label')].map((d) => d.textContent)")
    assert "König" in labels and "Wurfholz 1" in labels and "A1" in labels and "king" not in labels
    steps = browser.evaluate("document.getElementById('segments').textContent")
    assert "A: Wurf (Wurfholz 1)" in steps and "Satz 1, Wurfrunde 1: Aufstellung" in steps and "baton" not in steps
    timeline = load_session(dm_replay).timeline
    felled = next(
        i for i, s in enumerate(timeline.segments) if any(str(r.consequence) == "counts as felled" for r in s.rulings)
    )
    browser.evaluate(f"kubb3dPage.seek({float(timeline.starts[felled]) + timeline.segments[felled].duration - 0.01!r})")
    assert translator("de")("counts as felled") in browser.evaluate("document.getElementById('rulings').innerText")
    # the clock writes its numbers as the rest of the page does ("0.0 / 315.2 s" once)
    clock = browser.evaluate("document.getElementById('clock').textContent")
    assert re.fullmatch(r"\d+,\d / \d+,\d s", clock), clock
    screenshot(browser, shots, "replay-de")
    assert browser.errors == []


def test_quiz_answer_reveals_the_reason_only_after_a_choice(browser, pages, shots):
    data = quiz_data([scenarios_dir()], **QUIZ)
    first = data["questions"][0]
    answer = json.loads(base64.b64decode(first["asks"][0]["answer"]))
    state = open_page(browser, pages["quiz"])
    assert state == {"question": 0, "questions": 3, "right": 0, "asked": 0}
    assert browser.evaluate("kubb3dPage.webgl") is True
    before = " ".join(browser.evaluate("document.body.innerText").split())  # innerText folds spaces
    assert (
        " ".join(first["heading"].split()) in before and answer["reason"] not in before and answer["line"] not in before
    )
    screenshot(browser, shots, "quiz-question")
    wrong = 1 if answer["right"] == 0 else 0
    browser.evaluate(f"document.querySelectorAll('.ask')[0].querySelectorAll('.choices button')[{wrong}].click()")
    after = browser.evaluate("document.querySelector('.ask .verdict').innerText")
    assert answer["reason"] in after and answer["line"] in after and after.startswith("Not quite")
    assert browser.evaluate("kubb3dPage.state()")["asked"] == 1
    screenshot(browser, shots, "quiz-answered")
    assert browser.errors == []


TWO_ASKS, ONE_ASK = "dm_leaning_on_king", "dm_accident_wind"
"""A scenario that asks about two pieces (quiz = ["A1", "king"]) and one that asks about one."""


@pytest.mark.parametrize("lang,words", [("en", ("situation", "situations", "questions")),
                                        ("de", ("Situation", "Situationen", "Fragen"))])
def test_the_quiz_header_counts_situations_and_the_intro_the_questions_the_score_counts(
    browser, tmp_path, lang, words
):
    """The header's "N / M" counts the situations, and says so; the intro names both counts, and
    the score's total once every choice is made is the intro's number of questions. The header
    said "question 1 / 70" of the library's 70 situations that ask 71 questions."""
    from kubb3d.library import resolve_scenario
    from kubb3d.quiz import quiz_files

    files = [resolve_scenario(TWO_ASKS), resolve_scenario(ONE_ASK)]
    asked = [len(tomllib.loads(f.read_text(encoding="utf-8")).get("quiz") or [None]) for f in quiz_files(files)]
    assert sorted(asked) == [1, 2]
    page = tmp_path / f"quiz-{lang}.html"
    page.write_text(quiz_page(files, seed=0, tr=translator(lang)), encoding="utf-8")
    open_page(browser, page)
    word, situations, questions = words
    header = lambda: " ".join(browser.evaluate("document.querySelector('header span').innerText").split())  # noqa: E731
    assert header() == f"{word} 1 / 2 · {translator(lang).gettext('Score')} 0 / 0", header()
    intro = browser.evaluate("document.getElementById('intro').innerText")
    assert f" 2 {situations}, 3 {questions} " in intro, intro
    for n in (1, 2):
        assert header().startswith(f"{word} {n} / 2 ·"), header()
        browser.evaluate("document.querySelectorAll('.ask .choices').forEach((r) => r.querySelector('button').click())")
        if n == 1:
            browser.evaluate("document.getElementById('next').click()")
    assert header().endswith(" / 3"), header()
    assert browser.errors == []
    if lang == "en":  # docs/web.md quotes this quiz
        doc = " ".join((Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8").split())
        assert f"`{TWO_ASKS}` (it asks about A1 and the king) and `{ONE_ASK}` opens with `situation 1 / 2` and " \
            f"`2 situations, 3 questions`, and ends with a score out of 3" in doc


def test_the_board_shows_its_baselines(browser, pages, shots):
    """KT "Equipment": baselines marked 3.5 in from the narrow ends. Along each baseline the
    page's pixels are darker (ink) than the board 2 cm beside it (the lines were drawn before
    the board's top once, and it covered them)."""
    open_page(browser, pages["board"])
    browser.evaluate("kubb3dPage.seek(1e9)")
    scene = load_session(KT_SCENARIO).scene
    camera = browser.evaluate("kubb3dPage.camera()")
    rect = browser.evaluate("JSON.parse(JSON.stringify(document.getElementById('view').getBoundingClientRect()))")
    image = screenshot(browser, shots, "board")
    darker = 0
    for side in ("A", "B"):
        x = scene.pitch.baseline_x(side)
        inward = -np.sign(x) * 0.02
        for y in np.linspace(-0.8, 0.8, 9) * scene.pitch.half_width:
            on, beside = project(camera, rect, (x, y, 0.0)), project(camera, rect, (x + inward, y, 0.0))
            if on is None or beside is None:
                continue
            col, row = on
            ink = image[row - 1 : row + 2, col - 1 : col + 2].sum(axis=2).min()
            board = image[beside[1], beside[0]].sum()
            darker += ink < board - 60
    assert darker >= 14
    assert browser.errors == []


def test_on_a_phone_the_timeline_scrolls_itself_not_the_page(pages, shots, dm_replay):
    """A match page opened on a phone (400 × 800: the timeline below the scene) scrolled itself
    down to the timeline's current line on opening and at every throw (scrollIntoView scrolls
    every scrolled box up to the page), taking the scene off the screen. Stepping through the
    throws now leaves the page where it is, and the current line is still inside the list's
    visible box every time: the list scrolled to it, as on a wide screen."""
    segments = load_session(dm_replay).timeline.segments
    with Browser(CHROMIUM, 400, 800) as phone:
        open_page(phone, pages["replay"])
        assert phone.evaluate("window.scrollY") == 0
        for expected in range(1, min(len(segments), 40)):
            phone.evaluate("document.getElementById('next').click()")
            assert phone.evaluate("kubb3dPage.state().segment") == expected
            assert phone.evaluate("window.scrollY") == 0, expected
            inside = phone.evaluate(
                "(() => { const l = document.getElementById('segments').getBoundingClientRect();"
                " const n = document.querySelector('#segments li.now').getBoundingClientRect();"
                " return n.top >= l.top - 1 && n.bottom <= l.bottom + 1; })()"
            )
            assert inside, expected
        assert phone.evaluate("document.getElementById('segments').scrollTop") > 0
        screenshot(phone, shots, "replay-phone")
        assert phone.errors == []


def rulings_text(browser: Browser) -> str:
    return browser.evaluate("document.getElementById('rulings').innerText")


def wait_until_paused(browser: Browser, timeout_s: float = 15.0) -> dict:
    browser.wait_for("!kubb3dPage.state().playing", timeout_s)
    return browser.evaluate("kubb3dPage.state()")


def test_going_to_a_throw_shows_its_ruling(browser, pages, shots, dm_replay):
    """A user's report: a click on a timeline line (``A: baton throw (baton 4) · B1: counts as
    felled``), ◀ / ▶ and the arrow keys landed at the start of the throw, the rulings area empty,
    and play ran on into the next throw. Each now lands where the throw's pieces are at rest,
    with its rulings; play stops at a ruling; ↺ watch throw plays it again from its start."""
    segments = load_session(dm_replay).timeline.segments
    felled = [
        i for i, s in enumerate(segments) if i > 0 and any(str(r.consequence) == "counts as felled" for r in s.rulings)
    ]
    i = felled[1]
    ruling = next(r for r in segments[i].rulings if str(r.consequence) == "counts as felled")
    head = f"{ruling.piece}: {ruling.status}, {ruling.consequence}"
    open_page(browser, pages["replay"])
    assert ruling.reason not in rulings_text(browser)
    browser.evaluate(f"document.querySelectorAll('#segments li')[{i}].click()")
    state = browser.evaluate("kubb3dPage.state()")
    assert state["segment"] == i and state["local"] >= segments[i].times[-1]
    text = rulings_text(browser)
    assert head in text and ruling.reason in text and ", ".join(ruling.rules) in text
    # who threw and what it felled, as the terminal's play-by-play says it (at rest only)
    events = browser.evaluate("document.getElementById('events').innerText")
    assert re.match(r"P[12] (king )?throw \d .*felled .*\[DM §\d+\]", events), events
    screenshot(browser, shots, "replay-timeline-click")
    # the arrow keys: back a throw and forward again, each at rest with its rulings
    key = "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{}'}}))"
    browser.evaluate(key.format("ArrowLeft"))
    assert browser.evaluate("kubb3dPage.state().segment") == i - 1
    browser.evaluate(key.format("ArrowRight"))
    assert browser.evaluate("kubb3dPage.state().segment") == i
    assert ruling.reason in rulings_text(browser)
    # ↺ watch throw: from the throw's start (no ruling yet), stopping at its ruling
    browser.evaluate("document.getElementById('watch').click()")
    state = browser.evaluate("kubb3dPage.state()")
    assert state["segment"] == i and state["playing"] and state["local"] < 0.5
    assert ruling.reason not in rulings_text(browser)
    state = wait_until_paused(browser)
    assert state["segment"] == i and segments[i].times[-1] <= state["local"] < segments[i].times[-1] + 0.2
    assert ruling.reason in rulings_text(browser)
    # play from the throw before the previous ruling stops at that ruling, not later
    j = felled[0]
    browser.evaluate(f"document.querySelectorAll('#segments li')[{j - 1}].click()")
    browser.evaluate("document.getElementById('play').click()")
    state = wait_until_paused(browser, 30.0)
    assert state["segment"] == j and state["local"] < segments[j].times[-1] + 0.2
    first = next(r for r in segments[j].rulings if str(r.consequence) == "counts as felled")
    assert first.reason in rulings_text(browser)
    assert browser.errors == []


def test_a_scenario_page_opens_on_its_ruling(browser, pages, shots):
    """A scenario page opened at 0.0 s without its ruling until play was pressed. It opens on the
    ruling (the pieces at rest, tinted); the situation as set up is the timeline's first line,
    and play from there stops at the ruling again."""
    ruling = next(r for r in load_session(LEANING).timeline.segments[0].rulings if r.piece == "A2")
    state = open_page(browser, pages["scenario"])
    text = rulings_text(browser)
    status, consequence = (getattr(x, "value", x) for x in (ruling.status, ruling.consequence))
    head = f"A2: {status}, {consequence}"
    assert head == "A2: leaning, counts as felled" and head in text and ruling.reason in text
    assert state["local"] >= 0.4 and not state["playing"] and state.get("stops") == 2
    screenshot(browser, shots, "scenario-ruling")
    lines = browser.evaluate("[...document.querySelectorAll('#segments li')].map((li) => li.textContent)")
    assert lines[0] == "as set up, before the ruling" and lines[1].startswith("Kubb leaning on a field kubb")
    browser.evaluate("document.querySelectorAll('#segments li')[0].click()")
    assert browser.evaluate("kubb3dPage.state().t") == 0
    assert ruling.reason not in rulings_text(browser)
    screenshot(browser, shots, "scenario-set-up")
    browser.evaluate("document.getElementById('play').click()")
    state = wait_until_paused(browser)
    assert 0.4 <= state["local"] < 0.6 and ruling.reason in rulings_text(browser)
    assert browser.errors == []


COLUMNS = """[...document.querySelectorAll('#last > div, #rulings > div:not(.ruling)')].map((div) => {
  const cells = [...div.querySelectorAll('.cell')].map((c) => c.getBoundingClientRect());
  const gaps = cells.slice(1).map((c, k) => (c.top >= cells[k].bottom - 1 ? null : c.left - cells[k].right));
  return { text: div.textContent, cells: cells.length, gaps };
})"""
"""Each line of the last throw's facts and the "still standing" lines: its text, its cells and
the gap in px between neighbouring cells (null: the next cell wrapped onto a line of its own)."""


@pytest.mark.parametrize("size", [(WIDTH, HEIGHT), (400, 800)], ids=["desktop", "phone"])
def test_the_last_throws_columns_keep_a_gap(pages, shots, dm_replay, size):
    """A user's report: the panel's lines ran together (``y +0.79 m first hit: nothing``,
    ``legal felled: nothing``): the 3D viewer lays them out in columns with runs of spaces, which
    the browser folds into one. Each column is now a cell of its own with a visible gap, on a
    wide screen and on a phone."""
    timeline = load_session(dm_replay).timeline
    segments = timeline.segments
    i = next(k for k, s in enumerate(segments) if s.info.get("throw", {}).get("legal") and not s.info.get("lag"))
    with Browser(CHROMIUM, *size) as b:
        open_page(b, pages["replay"])
        b.evaluate(f"kubb3dPage.seek({float(timeline.starts[i]) + segments[i].duration - 0.01!r})")  # at rest
        lines = b.evaluate(COLUMNS)
        texts = [line["text"] for line in lines]
        hit = next(line for line in lines if "first hit:" in line["text"])
        legal = next(line for line in lines if line["text"].startswith("legal"))
        standing = [line for line in lines if line["text"].startswith("still standing:")]
        assert hit["cells"] == 2 and legal["cells"] == 2 and standing and all(s["cells"] == 2 for s in standing), texts
        gaps = [g for line in (hit, legal, *standing) for g in line["gaps"]]
        assert gaps and all(g is None or g >= 12 for g in gaps), (texts, gaps)
        assert b.evaluate("document.getElementById('last').innerText").count("first hit:") == 1
        b.evaluate("document.getElementById('last').scrollIntoView()")
        screenshot(b, shots, f"replay-columns-{size[0]}")
        assert b.errors == []


NEGATIVE_ZERO = re.compile(r"(?<![\w.,])-0(?:[.,]0+)?(?![.,]?\d)")
"""A number written as a negative zero: ``-0.0°``, ``-0,0°``, ``x -0.00 m`` (not ``-0.05``, ``1-0``)."""


@pytest.mark.parametrize("page", ["replay", "replay-de"])
def test_the_page_never_shows_a_negative_zero(browser, pages, dm_replay, page):
    """A user's report: ``intended 7.61 m/s -0.0°`` (German ``-0,0°``) on the page. Every segment
    at rest (the last throw's facts, the rulings, the clock) is read off the page: no line has a
    negative zero, and the page's own check of its texts turns one into a zero and leaves other
    numbers be."""
    timeline = load_session(dm_replay).timeline
    ends = [float(t) + s.duration - 0.01 for t, s in zip(timeline.starts, timeline.segments)]
    open_page(browser, pages[page])
    texts = browser.evaluate(
        f"{json.dumps(ends)}.map((t) => {{ kubb3dPage.seek(t); return document.body.innerText; }})"
    )
    assert len(texts) == len(ends) and any("°" in text for text in texts)
    shown = [line for text in texts for line in text.splitlines() if NEGATIVE_ZERO.search(line)]
    assert shown == []
    cases = {
        "intended 7.61 m/s -0.0°, released 7.36 m/s +0.0°": "intended 7.61 m/s 0.0°, released 7.36 m/s +0.0°",
        "beabsichtigt 7,61 m/s -0,0°": "beabsichtigt 7,61 m/s 0,0°",
        "x -0.00 m, y -0.96 m": "x 0.00 m, y -0.96 m",
        "-0.05 m; 1-0; -0.5°; -10.0 cm; -0": "-0.05 m; 1-0; -0.5°; -10.0 cm; 0",
    }
    got = browser.evaluate(f"{json.dumps(list(cases))}.map(kubb3dNoNegativeZero)")
    assert got == list(cases.values())
    assert browser.evaluate("[-0.04, -0, 0.04, -0.06].map((x) => kubb3dFixed(x, 1))") == ["0.0", "0.0", "0.0", "-0.1"]
    assert browser.errors == []


BROKEN = """(() => { const e = document.getElementById('broken'); const r = e.getBoundingClientRect();
  return { hidden: e.hidden, visible: !e.hidden && getComputedStyle(e).visibility === 'visible' && r.height > 0,
           text: e.innerText, ready: !!(window.kubb3dPage && window.kubb3dPage.ready) }; })()"""
"""The page's notice of a broken file (#broken): hidden, shown, its text; and whether the page started."""


def test_a_cut_off_or_damaged_page_says_so_instead_of_opening_blank(browser, pages, shots, tmp_path):
    """A page cut off (a download, an e-mail or a copy that stopped short) or with damaged data
    opened blank, its buttons without words, whatever part was missing (the quiz's too). It says at the top that
    the file is incomplete or damaged and how large the whole file is, in the page's language,
    with the browser's error where its data could not be read; a whole page shows no notice."""
    state = open_page(browser, pages["scenario"])
    whole = browser.evaluate(BROKEN)
    assert whole["hidden"] and not whole["visible"] and whole["ready"] and state["stops"] == 2
    # the notice waits 1.5 s before it shows (a whole page never flashes it): the page's CSS
    # animations run 20 times faster here
    browser.send("Animation.enable", session=True)
    browser.send("Animation.setPlaybackRate", session=True, playbackRate=20)
    cuts = (  # inside the data, inside three.js, inside the player, inside the page's last script
        ("scenario", 'id="kubb3d-data">', 2000),
        ("replay-de", 'id="three-src">', 1000),
        ("quiz", 'id="kubb3d-data">', 5000),
        ("scenario", "function kubb3dSegments", 0),
        ("scenario", "kubb3dPage = {", 0),
    )
    for name, mark, after in cuts:
        text = pages[name].read_text(encoding="utf-8")
        size = f"{len(text.encode('utf-8')) / 1e6:.2f}"
        says = ("incomplete or damaged", f"whole, it is {size} MB")
        if name == "replay-de":
            says = ("unvollständig oder beschädigt", f"vollständig ist sie {size.replace('.', ',')} MB")
        cut = tmp_path / f"{name}-cut-{len(mark)}-{after}.html"
        cut.write_text(text[: text.rindex(mark) + after], encoding="utf-8")
        browser.open(cut)
        seen = browser.wait_for(f"(() => {{ const s = {BROKEN}; return s.visible && s; }})()", timeout_s=15)
        assert all(s in seen["text"] for s in says) and not seen["ready"], (name, mark, seen)
        screenshot(browser, shots, cut.stem)
    text = pages["scenario"].read_text(encoding="utf-8")
    at = text.index('id="kubb3d-data">') + 3000
    damaged = tmp_path / "damaged.html"
    damaged.write_text(text[:at] + "}}}" + text[at + 3 :], encoding="utf-8")
    browser.open(damaged)
    seen = browser.wait_for(f"(() => {{ const s = {BROKEN}; return s.visible && s; }})()", timeout_s=15)
    assert "incomplete or damaged" in seen["text"] and "SyntaxError" in seen["text"] and not seen["ready"], seen
    screenshot(browser, shots, "damaged")
    assert any("SyntaxError" in e for e in browser.errors), browser.errors
    browser.errors.clear()
    browser.send("Animation.setPlaybackRate", session=True, playbackRate=1)
