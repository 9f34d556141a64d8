"""The referee quiz asks before it tells: a scenario's title and description (shown before the
questions) say what happened, never the ruling; the scenario's explanation comes after the
answer."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from cli_process import run_kubb3d

from kubb3d.i18n import translator
from kubb3d.judge.rulings import Consequence
from kubb3d.library import resolve_scenario, scenario_files
from kubb3d.quiz import run_quiz

RULING_WORDS = [re.escape(c.value) for c in Consequence if c is not Consequence.NONE] + [
    r"\b(in)?valid\b",
    r"\b(il)?legal\b",
    r"\b(wins?|loses?|won)\b",
    r"\bcounts as\b",
    r"\bstood up\b",
    r"\bsets? .{0,4}(up|back)\b",
    r"\bis (tipped|raised|placed)\b",
    r"\b(flicked|thrown) again\b",
    r"\bstays\b",
    r"\bmisflick\)",
]
"""Phrases that state a ruling: the consequences' names and the words a ruling is given in."""


def _giveaways(text: str) -> list[str]:
    return [m.group(0) for w in RULING_WORDS for m in re.finditer(w, text, flags=re.IGNORECASE)]


def test_the_ruling_words_catch_what_the_old_titles_gave_away():
    # titles and descriptions as they were before the quiz kept its answers back
    old = [
        "Stößel above the sideline: invalid",
        "Inkasted kubb lying outside the sideline: rethrow",
        "Kubbuteo: a baseline kubb knocked onto its face counts as knocked",
        "Kubbuteo: the king knocked down while kubbs stand loses the game",
        "B1 landed standing on its end inside A's half: it stays as it stands.",
        "B2's inkast knocked over field kubb B5. It is stood up again where it stood.",
        "Side B returns B1 into A's half; it stopped on B's side of the centre line (a misflick).",
        "Legal king throw after all kubbs are down",
    ]
    assert all(_giveaways(t) for t in old), [t for t in old if not _giveaways(t)]
    # and the facts a situation needs pass
    assert not _giveaways("B2's inkast knocked over field kubb B5, which had been raised in A's half earlier.")


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_a_scenario_tells_what_happened_not_the_ruling(path):
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    shown = f"{doc['title']} | {doc.get('description', '')}"
    assert not _giveaways(shown), f"{path.name}: {_giveaways(shown)} in {shown!r}: move it to `explanation`"


def test_the_quiz_gives_the_explanation_after_the_answer_in_its_language():
    path = resolve_scenario("dm_inkast_near_king")
    for lang, explanation in (
        ("en", "Raising must not touch the king, so it is tipped over its other end."),
        ("de", "Beim Aufstellen darf der König nicht berührt werden, also wird er über sein anderes Ende gekippt."),
    ):
        out: list[str] = []
        asked_at: list[int] = []

        def ask(prompt: str, out: list[str] = out, asked_at: list[int] = asked_at) -> str:
            asked_at.append(len(out))
            return "1"

        right, asked = run_quiz([path], seed=0, ask=ask, say=out.append, tr=translator(lang))
        assert (right, asked) == (1, 1)  # 1 = raise here, the judge's ruling
        lines = [s.strip() for s in out]
        assert explanation in lines
        assert lines.index(explanation) > asked_at[0]  # told only after the answer
        assert not any(explanation in s for s in lines[: asked_at[0]])


def test_a_question_without_an_answer_says_it_counts_as_not_right():
    """After the third line that was no answer the quiz said "please answer 1–6 …" and went on
    without waiting, scoring the question wrong: it says so instead, in its language; a valid
    answer after two bad lines still counts."""
    path = resolve_scenario("dm_inkast_near_king")
    for lang, please, over in (
        ("en", "please answer 1–6 or a consequence's name", "no answer in 3 tries: counted as not right"),
        ("de", "bitte antworte mit 1–6 oder dem Namen einer Folge", "keine Antwort in 3 Versuchen: als falsch gezählt"),
    ):
        cases = (
            (["7", "", "raise here"], (1, 1), [please, please]),
            (["7", "x", "0", "1"], (0, 1), [please, please, over]),
        )
        for answers, score, said in cases:
            out: list[str] = []
            lines = iter(answers)
            right, asked = run_quiz([path], seed=0, ask=lambda prompt, lines=lines: next(lines), say=out.append,
                                    tr=translator(lang))
            assert (right, asked) == score, (lang, answers, out)
            assert [s.strip() for s in out if s.strip() in (please, over)] == said, (lang, answers, out)


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_every_question_offers_its_right_answer(path):
    # dm_standing_pushed_across_sideline asked "What happens to B1?" without "set inside" among
    # the answers, so no trainee could get it right
    from kubb3d.quiz import CHOICES

    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = {e["piece"]: e.get("consequence") for e in doc["expect"]}
    for piece in doc.get("quiz") or [doc["expect"][0]["piece"]]:
        assert Consequence(expected[piece]) in CHOICES[doc["event"]], (path.name, piece, expected[piece])


def test_a_kubb_pushed_across_the_sideline_can_be_ruled_right():
    out: list[str] = []
    right, asked = run_quiz(
        [resolve_scenario("dm_standing_pushed_across_sideline")], seed=0,
        ask=lambda prompt: "set inside", say=out.append,
    )
    assert (right, asked) == (1, 1), "\n".join(out)
    assert any(line.strip().startswith("6. set inside") for line in out), "\n".join(out)


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_every_scenario_describes_its_situation(path):
    # 18 scenarios (ws_king_throw_win among them) had only a title, so their question showed
    # a picture and a headline but no account of what happened
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    description = doc.get("description", "").strip()
    assert description, f"{path.name}: no `description` of what happened"
    assert description != doc["title"].strip() and len(description.split()) >= 6, f"{path.name}: {description!r}"


@pytest.mark.parametrize("command", [["quiz"], ["judge"], ["judge", "--json"], ["judge", "--check"]])
def test_one_bad_file_among_good_ones_refuses_before_any_work(command, tmp_path, cli):
    # exit 2 means nothing was done: the good file first must not be asked, ruled or drawn
    good = resolve_scenario("dm_accident_wind")
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text(encoding="utf-8").replace("accident = true", "accident = true\ntilt_dg = 10"))
    out = tmp_path / "images"
    extra = ["--out", str(out)] if command[0] == "quiz" else []
    result = cli(*command, *extra, str(good), str(bad))
    assert result.returncode == 2, result.stderr
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and str(bad) in errors[0] and "tilt_dg" in errors[0], result.stderr
    if "--json" in command:  # the refusal is the whole document: no rulings of the good file
        assert set(json.loads(result.stdout)) == {"error"}
    else:
        assert result.stdout == ""
    assert not out.exists()


def test_a_penalty_kubbs_explanation_names_it_and_not_the_free_placement_choice():
    # ws_inkast_penalty_place's answer was "penalty kubb" but its explanation said "side B places it
    # freely", the words of the other choice "place freely" (a valid stößel, placed by the inkasting
    # side): after a wrong "place freely" the explanation seemed to agree with it
    from kubb3d.scenario import run

    penalty = [p for p in scenario_files() if any(
        e.get("consequence") == Consequence.PENALTY_KUBB.value
        for e in tomllib.loads(p.read_text(encoding="utf-8")).get("expect", []))]
    assert {p.stem for p in penalty} >= {"ws_inkast_penalty_place", "dm_inkast_outside_penalty"}
    for path in penalty:
        res, _ = run(path)
        for r in res.judgement.rulings:
            if r.consequence is Consequence.PENALTY_KUBB:
                reason = str(r.reason)
                assert "penalty kubb" in reason and not re.search(r"\bfreely\b", reason), (path.stem, reason)


def _quiz_in(folder, *args: str):
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return run_kubb3d("quiz", "--count", "1", *args, cwd=folder, input="1\n", timeout=300, env=env)


def test_a_second_quiz_replaces_the_pictures_of_the_first_in_its_own_folder(tmp_path):
    # `kubb3d quiz` twice in one folder: the second refused to start ("quiz-images/… already
    # exists"), though it would draw the same pictures into the quiz's own folder
    first = _quiz_in(tmp_path)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    pictures = sorted((tmp_path / "quiz-images").iterdir())
    assert pictures and all(p.suffix == ".png" for p in pictures)
    mine = tmp_path / "quiz-images" / "mine.png"  # a picture the quiz did not draw stays
    mine.write_bytes(b"not the quiz's")
    second = _quiz_in(tmp_path)
    assert second.returncode == 0, second.stderr
    note = "note: replacing the pictures of an earlier quiz in quiz-images (--out DIR keeps them)"
    assert second.stderr.strip() == note
    assert first.stdout == second.stdout and mine.read_bytes() == b"not the quiz's"
    german = _quiz_in(tmp_path, "--lang", "de")
    assert german.returncode == 0 and "werden ersetzt" in german.stderr, german.stderr
    # a folder the user names keeps the rule of every output folder: refused, with what to do
    named = _quiz_in(tmp_path, "--out", "quiz-images")
    lines = named.stderr.strip().splitlines()
    assert named.returncode == 2 and len(lines) == 1 and "--force" in lines[0] and "another folder" in lines[0]
    forced = _quiz_in(tmp_path, "--out", "quiz-images", "--force")
    assert forced.returncode == 0 and forced.stderr == "", forced.stderr


def test_a_bad_scenario_is_one_error_line_before_any_note_about_the_pictures(tmp_path):
    # `kubb3d quiz nosuch` beside the pictures of an earlier quiz said "note: replacing the
    # pictures …" and then refused: the inputs are checked before the folder is looked at
    (tmp_path / "quiz-images").mkdir()
    (tmp_path / "quiz-images" / "old-top.png").write_bytes(b"an earlier quiz's")
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = 1\n", encoding="utf-8")
    for arg, words in (("nosuch", "nosuch: no such file or directory"), (str(bad), "bad.toml")):
        res = _quiz_in(tmp_path, arg)
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2 and len(lines) == 1, res.stderr
        assert lines[0].startswith("error: ") and words in lines[0] and "note" not in lines[0], lines
        assert res.stdout == ""
    assert (tmp_path / "quiz-images" / "old-top.png").read_bytes() == b"an earlier quiz's"
