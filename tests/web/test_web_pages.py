"""The web pages without a browser (docs/web.md): what a page carries is what the viewer plays,
the page needs nothing from the network, a whole DM match stays under 5 MB, the quiz page asks in
run_quiz's order and hides its answers, and ``kubb3d export`` refuses bad input in one line."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_kubb3d
from shared_runs import SEED_ONE_MATCH, replay_named

from kubb3d.i18n import translator
from kubb3d.library import scenarios_dir
from kubb3d.viewer.replay import load_session
from kubb3d.web.page import THREE_JS, quiz_data, quiz_page, replay_page

ROOT = Path(__file__).resolve().parents[2]
MAX_PAGE_BYTES = 5_000_000
"""Issue #35: a whole DM match under 5 MB."""


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="kubb3d-data">(.*?)</script>', html, re.S)
    assert found, "no data element in the page"
    return json.loads(found.group(1))


def decode_segments(data: dict) -> list[tuple[dict, dict, float]]:
    """Each segment's poses at its start and once at rest and raised, and its duration, rebuilt
    from the page's changes as the format says (docs/web.md "What a page carries")."""
    out, final = [], {}
    for seg in data["segments"]:
        start = {**final, **seg["start"]}
        end = dict(start)
        for pid, flat in seg["poses"].items():
            if flat:
                end[pid] = flat[-7:]
        end.update(seg["end"])
        final = {**end, **seg["raised"]}
        flight = seg["times"][-1] if seg["times"] else 0.0
        duration = flight + data["hold"] + (data["raise"] + data["hold"] if seg["raised"] else 0.0)
        out.append((start, final, duration))
    return out


def close_poses(page: dict, timeline: dict, hidden: set) -> list[str]:
    """Pieces shown (not hidden) whose page pose is more than 1e-4 from the viewer's (rounding:
    5e-5); a quaternion and its negative are the same orientation (the raising's interpolation
    takes the shorter arc and may end on either)."""
    bad = []
    for pid, pose in timeline.items():
        if pid in hidden:
            continue
        got = page.get(pid)
        if got is None:
            bad.append(pid)
            continue
        got, pose = np.asarray(got), np.asarray(pose)
        quat = min(np.max(np.abs(got[3:] - pose[3:])), np.max(np.abs(got[3:] + pose[3:])))  # q and -q: one turn
        if max(np.max(np.abs(got[:3] - pose[:3])), quat) > 1e-4:
            bad.append(pid)
    return bad


@pytest.fixture(scope="module")
def dm_page(dm_replay) -> str:
    return replay_page(dm_replay)


def test_the_page_holds_every_segment_as_the_viewer_plays_it(dm_page, dm_replay):
    data = page_data(dm_page)
    session = load_session(dm_replay)
    segments = session.timeline.segments
    decoded = decode_segments(data)
    assert len(decoded) == len(segments)
    # docs/web.md quotes the count of this match's segments (124 with 1 mm corner spheres)
    assert f"DM match, seed 1, {len(segments)} segments" in (ROOT / "docs" / "web.md").read_text()
    for i, (seg, (start, final, duration)) in enumerate(zip(segments, decoded)):
        hidden = set(seg.info.get("hidden", ()))
        assert sorted(hidden) == data["segments"][i]["hidden"]
        assert close_poses(start, seg.poses_at(0.0), hidden) == [], i
        assert close_poses(final, seg.poses_at(seg.duration), hidden) == [], i
        assert duration == pytest.approx(seg.duration, abs=1e-3)
        # every ruling is on the page: with its reason and citation, or on a "still standing" line
        shown = data["segments"][i]
        for r in seg.rulings:
            row = next((x for x in shown["rulings"] if x["piece"] == r.piece), None)
            if row is None:
                assert any(r.piece in line and ", ".join(r.rules) in line for line in shown["standing"]), (i, r.piece)
            else:
                assert (row["rules"], row["reason"]) == (list(r.rules), r.reason)
    assert sum(d for _, _, d in decoded) == pytest.approx(session.timeline.duration, abs=0.01)


def test_the_timeline_names_what_each_throw_felled_not_the_whole_round(dm_page, dm_replay):
    """Issue 34 finding 2 in the page: the timeline repeated "B2: counts as felled" after every
    later throw of the round. A kubb that counts as felled is marked on a throw's entry only if
    that throw's judgement felled it (the viewer card's figure, ``info["felled"]``)."""
    data = page_data(dm_page)
    segments = load_session(dm_replay).timeline.segments
    throws_with_earlier = 0
    for seg, shown in zip(segments, data["segments"]):
        felled_now = seg.info.get("felled")
        if felled_now is None:
            continue
        marked = {r["piece"] for r in shown["rulings"] if not r["none"] and not r["earlier"]}
        counted = {r["piece"] for r in shown["rulings"] if r["consequence"] == "counts as felled"}
        assert counted & marked == counted & set(felled_now), seg.label
        throws_with_earlier += bool(counted - set(felled_now))
    assert throws_with_earlier > 0  # the match has throws after a kubb fell earlier in the round


def test_the_lag_throws_are_not_shown_as_a_set_0(dm_page, dm_replay):
    """A match's page (and the viewer) said "set 0, turn 0" under the lag throws, as if they were
    a set before set 1. Every segment before the first set's set-up says that the lag comes
    before set 1, in English and in German; every later one names a set from 1 on, the set and
    turn of the segment's own replay line."""
    segments = load_session(dm_replay).timeline.segments
    first_setup = next(i for i, seg in enumerate(segments) if seg.label.endswith("pieces set up"))
    assert first_setup >= 2  # the two lag throws
    data, de = page_data(dm_page), page_data(replay_page(dm_replay, tr=translator("de")))
    for i, (_seg, shown, shown_de) in enumerate(zip(segments, data["segments"], de["segments"])):
        head, head_de = shown["lines"][0], shown_de["lines"][0]
        if i < first_setup:
            assert (head, head_de) == ("lag throws, before set 1", "Anwürfe, vor Satz 1"), i
        else:
            m = re.fullmatch(r"set (\d+), turn (\d+)", head)
            assert m and int(m.group(1)) >= 1, (i, head)
            assert head_de == f"Satz {m.group(1)}, Wurfrunde {m.group(2)}", (i, head_de)
    assert "set 0" not in dm_page


def test_the_page_says_who_threw_won_the_lag_and_opens_as_the_terminal_does(dm_page, dm_replay):
    """A match's page said "A: lag throw", "B: baton throw (baton 1)" and "set 1, turn 1: pieces
    set up" under a title naming P1 and P2: not who won the lag, who opens, which player is end A,
    nor an advance line, all of which ``kubb3d match`` prints. Each segment now carries the
    play-by-play of its action with its rule (the start of a turn or a set on the set-up that
    follows it); every line of the replay's play-by-play but its rulings and result is on the
    page once, in German too."""
    data = page_data(dm_page)
    segments = data["segments"]
    assert "P2 wins the lag throw  [DM §3]" in segments[1]["events"]
    setup = segments[2]
    assert setup["label"] == "set 1, turn 1: pieces set up"
    assert "set 1: P1 at end A, P2 at end B; P2 opens  [DM §3]" in setup["events"]
    assert "P2 decides that P2 opens  [DM §3]" in setup["events"]
    for seg in segments:
        if seg["label"].startswith(("A: baton throw", "B: baton throw")):
            assert re.match(r"P[12] throw \d \(baton \d, line x = -?\d\.\d\d m\): ", seg["events"][0]), seg["events"]
    expected = []
    for line in dm_replay.read_text(encoding="utf-8").splitlines():
        for event in json.loads(line).get("events") or ():
            if event["kind"] not in ("ruling", "result"):
                rules = ", ".join(event["rules"])
                expected.append(f"{event['text']}  [{rules}]" if rules else event["text"])
    shown = [line for seg in segments for line in seg["events"]]
    assert sorted(shown) == sorted(expected) and any(line.startswith("P1 advances to the line") for line in shown)
    de = page_data(replay_page(dm_replay, tr=translator("de")))["segments"]
    assert "P2 gewinnt den Anwurf  [DM §3]" in de[1]["events"]
    assert "Satz 1: P1 auf Seite A, P2 auf Seite B; P2 eröffnet  [DM §3]" in de[2]["events"]


def test_a_whole_dm_match_is_one_page_under_5_mb_that_needs_no_network(dm_page):
    size = len(dm_page.encode("utf-8"))
    assert size < MAX_PAGE_BYTES, size
    library = (resources.files("kubb3d.web") / THREE_JS).read_text(encoding="utf-8")
    assert dm_page.count(library) == 1  # the library itself, carried inside
    assert (resources.files("kubb3d.web") / "three.LICENSE").read_text().startswith("The MIT License")
    ours = dm_page.replace(library, "")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?https?:|import\(\s*["']https?:""", ours)
    assert "<script src" not in ours and "<link" not in ours


def test_a_cut_off_replays_page_says_that_it_is_cut_off(tmp_path, dm_replay, dm_page):
    """A page made from a replay cut off in the middle (a match stopped, a file copied short)
    ended at its last throw as if the match had ended there; the warning that ``kubb3d export``
    printed reached only the terminal. The page says it under its title, in its language and with
    the file's name, not the path it was read from; the warning is still given; a whole replay's
    page has no such line."""
    import warnings

    from kubb3d.files import InputWarning

    assert page_data(dm_page)["notes"] == []
    lines = dm_replay.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut" / "short.jsonl"
    cut.parent.mkdir()
    cut.write_bytes(b"".join(lines[:40]) + lines[40][:25])
    actions = sum(json.loads(line).get("type") == "action" for line in lines[:40])
    for tr, note in (
        (translator("en"), f"short.jsonl: last line incomplete (cut off?); {actions} actions read, no result"),
        (
            translator("de"),
            f"short.jsonl: letzte Zeile unvollständig (abgeschnitten?); {actions} Aktionen gelesen, kein Ergebnis",
        ),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data = page_data(replay_page(cut, tr))
        assert data["notes"] == [note]
        said = [str(w.message) for w in caught if issubclass(w.category, InputWarning)]
        assert said == [f"{cut}: last line incomplete (cut off?); {actions} actions read, no result"]


def test_german_page_speaks_german(dm_replay, dm_page):
    de = page_data(replay_page(dm_replay, translator("de")))
    en = page_data(dm_page)
    assert (en["ui"]["timeline"], de["ui"]["timeline"]) == ("timeline", "Zeitleiste")
    felled_en = {r["consequence"] for s in en["segments"] for r in s["rulings"]}
    felled_de = {r["consequence"] for s in de["segments"] for r in s["rulings"]}
    assert "counts as felled" in felled_en and "gilt als gefallen" in felled_de  # the catalog's words
    assert "counts as felled" not in felled_de


def test_a_scenario_page_shows_the_rulings_its_file_expects():
    path = scenarios_dir() / "dm_accident_wind.toml"
    spec = tomllib.loads(path.read_text())
    data = page_data(replay_page(path))
    (seg,) = data["segments"]
    shown = {r["piece"]: (r["consequence"], r["rules"]) for r in seg["rulings"]}
    for exp in spec["expect"]:
        assert shown[exp["piece"]] == (exp["consequence"], exp["rules"])
    assert set(seg["raised"]) == {exp["piece"] for exp in spec["expect"] if "raised_at" in exp}


def _hidden(b64: str):
    return json.loads(base64.b64decode(b64))


def test_quiz_page_asks_in_run_quiz_order_and_its_answers_are_the_files(tmp_path):
    from kubb3d.quiz import CHOICES, run_quiz

    lines: list[str] = []
    run_quiz([scenarios_dir()], seed=5, count=6, ask=lambda prompt: "1", say=lines.append)
    titles = [re.match(r"\[\d+/6\] (.*)  \(", line).group(1) for line in lines if re.match(r"\[\d+/6\] ", line)]
    data = quiz_data([scenarios_dir()], seed=5, count=6)
    assert [q["heading"].split("  (")[0] for q in data["questions"]] == titles
    specs = [tomllib.loads(p.read_text()) for p in scenarios_dir().glob("*.toml")]
    by_title = {spec["title"]: spec for spec in specs}
    checked = 0
    for q in data["questions"]:
        spec = by_title[q["heading"].split("  (")[0]]
        expect = {e["piece"]: e["consequence"] for e in spec["expect"]}
        choices = [c.value for c in CHOICES[spec["event"]]]
        for ask in q["asks"]:
            piece = ask["question"].removeprefix("What happens to ").removesuffix("?").replace("the king", "king")
            answer = _hidden(ask["answer"])
            if piece in expect:
                assert choices[answer["right"]] == expect[piece], (spec["title"], piece)
                checked += 1
    assert checked >= 6


def test_quiz_page_gives_no_answer_away_before_a_choice():
    html = quiz_page([scenarios_dir()], seed=0, count=8)
    data = page_data(html)
    for q in data["questions"]:
        for seg in q["scene"]["segments"]:
            assert seg["rulings"] == [] and seg["standing"] == [] and seg["raised"] == {}
        for ask in q["asks"]:
            answer = _hidden(ask["answer"])
            assert answer["reason"] not in html and answer["line"] not in html
        why = _hidden(q["explanation"])
        assert not why or why not in html


def kubb3d(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_kubb3d(*args, cwd=cwd, timeout=300)


@pytest.mark.parametrize(
    "args, expected",
    [
        (("export", "dm.jsonl"), "expected --html OUT.html or --gltf OUT.glb"),
        (("export", "junk.jsonl", "--html", "out.html"), "not a JSON line"),
        (("export", "missing.jsonl", "--html", "out.html"), "missing.jsonl"),
        (("export", "dm.jsonl", "--html", "folder.html"), "folder.html is a folder"),
        (("export", "dm.jsonl", "--html", "page.txt"), "--html must name a .html or .htm file"),
        (("export", "dm.jsonl", "--html", "same.glb", "--gltf", "same.glb"), "--html must name a .html"),
        (("export", "dm.jsonl", "--gltf", "m.gltf"), "--gltf must name a .glb file (glTF binary), got m.gltf"),
        (("export", "dm.jsonl", "--html", "x.html", "--lang", "xx"), "unknown language"),
        (("quiz", "--html", "afile"), "afile"),
        (("quiz", "nosuch.toml", "--html", "site"), "nosuch.toml"),
        (("quiz", "--html", "quiz.txt"), "--html must name a .html or .htm file"),
        (("quiz", "--html", "folder.html"), "folder.html is a folder"),  # as export's
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, dm_replay, args, expected):
    (tmp_path / "dm.jsonl").write_bytes(dm_replay.read_bytes())
    (tmp_path / "junk.jsonl").write_text('{"type": "header", "schema": 2}\nnot json\n{}\n')
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.html").mkdir()
    (tmp_path / "afile").write_text("x")
    before = sorted(p.name for p in tmp_path.iterdir())
    r = kubb3d(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and expected in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_gltf_holds_the_pieces_where_the_replay_leaves_them(tmp_path, dm_replay):
    import trimesh

    r = kubb3d("export", str(dm_replay), "--gltf", "end.glb", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    scene = trimesh.load(tmp_path / "end.glb")
    session = load_session(dm_replay)
    poses = session.timeline.final_poses()
    hidden = set(session.timeline.segments[-1].info.get("hidden", ()))
    shown = {pid for pid in session.scene.pieces if pid not in hidden}
    assert "king" in shown and shown <= set(scene.graph.nodes_geometry)
    for pid in shown:
        transform, _ = scene.graph[pid]
        x, y, z = poses[pid][:3]
        assert np.allclose(transform[:3, 3], (x, z, -y), atol=1e-6), pid  # glTF's y up
    assert {"pitch", "line1"} <= set(scene.graph.nodes_geometry)


def test_docs_figures_are_the_code_and_library():
    """docs/web.md's figures outside the example block: the library's size and release, the
    playback's pause and raising time (the seed-1 match's segments: the page's test above)."""
    from kubb3d.viewer.scene import HOLD_TIME, RAISE_TIME

    text = (ROOT / "docs" / "web.md").read_text()
    library = resources.files("kubb3d.web") / THREE_JS
    size = len(library.read_bytes()) / 1e6
    assert f"three.module.min.js` of the npm package `three`, {size:.2f} MB" in text
    assert library.read_text(encoding="utf-8").count('const t="170"') == 1 and "three.js** 0.170.0" in text
    assert f"a pause of {HOLD_TIME:g} s at rest, then the raising over {RAISE_TIME:g} s" in text


def test_docs_quote_what_the_export_prints(tmp_path, seed_one_match):
    """docs/web.md's example block is what its commands print. A line that is the session's
    SEED_ONE_MATCH but for the replay's name takes that run's output and replay
    (tests/shared_runs.py); the others run here."""
    text = (ROOT / "docs" / "web.md").read_text()
    block = re.search(r"<!-- export-example -->\n```\n(.*?)```", text, re.S)
    assert block, "docs/web.md has no export example"
    lines = block.group(1).strip().splitlines()
    got: list[str] = []
    for line in lines:
        if line.startswith("$ kubb3d "):
            args = line.removeprefix("$ kubb3d ").split()
            name = replay_named(args, SEED_ONE_MATCH)
            if name is None:
                r = kubb3d(*args, cwd=tmp_path)
            else:
                folder, _, r = seed_one_match
                shutil.copyfile(folder / "dm.jsonl", tmp_path / name)
            assert r.returncode == 0, r.stderr
            got += [line, *r.stdout.strip().splitlines()]
    assert got == lines


def test_a_html_name_is_a_file_for_quiz_as_for_export(tmp_path, dm_replay):
    """``--html q.html`` writes the file q.html for both commands (once quiz made a folder q.html);
    a name without a suffix is still the quiz's folder with index.html."""
    (tmp_path / "dm.jsonl").write_bytes(dm_replay.read_bytes())
    for args in (("quiz", "--count", "1", "--html", "q.html"), ("export", "dm.jsonl", "--html", "m.html")):
        r = kubb3d(*args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        page = tmp_path / args[-1]
        assert r.stdout.startswith(f"wrote {args[-1]} (")
        assert page.is_file() and page.read_text(encoding="utf-8").startswith("<!doctype html>"), args
    r = kubb3d("quiz", "--count", "1", "--html", "site", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("wrote site/index.html ("), r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dm.jsonl", "m.html", "q.html", "site"]
    again = kubb3d("quiz", "--count", "1", "--html", "q.html", cwd=tmp_path)
    assert again.returncode == 2 and again.stderr.startswith("error: --html: q.html already exists"), again.stderr


def test_json_says_what_was_written(tmp_path):
    r = kubb3d("export", "dm_accident_wind", "--html", "wind.html", "--gltf", "wind.glb", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    written = json.loads(r.stdout)
    assert set(written) == {"html", "gltf"}
    for kind, row in written.items():
        path = tmp_path / row["path"]
        assert path.stat().st_size == row["bytes"], kind
    assert (tmp_path / "wind.glb").read_bytes()[:4] == b"glTF"
    assert (tmp_path / "wind.html").read_text(encoding="utf-8").startswith("<!doctype html>")
