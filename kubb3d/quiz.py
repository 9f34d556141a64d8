"""``kubb3d quiz``: referee training in the terminal.

Scenarios are shown one at a time (a text description plus a rendered top and
side view saved as PNG), the trainee names the consequence for each asked
piece, and the quiz explains the right ruling with its rule citation, then the scenario's
``explanation``. A scenario's title and description, shown before the questions, say what
happened and never the ruling (a test holds the files to it). The order
comes from a seeded :class:`numpy.random.Generator`. Reads answers with
``input`` so it works with piped stdin; end of input ends the quiz early and
still prints the score.

The quiz speaks the language of the :class:`kubb3d.i18n.Translator` it is given (questions,
choices, verdicts and the judge's reasons; English by default; German terms: docs/german.md).
Answers are accepted as a number or as a consequence's name in English or in that language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import N_, join, msg, nmsg, piece_name
from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Consequence
from kubb3d.pitch import KING_ID
from kubb3d.scenario import Built, ScenarioError, check_all, collect, has_expectations, load, run

EVENTS = {"throw": N_("throw"), "inkast": N_("inkast")}
"""The scenario events as the quiz names them (translatable)."""

THROW_CHOICES = (
    Consequence.NONE,
    Consequence.COUNTS_AS_FELLED,
    Consequence.RAISE_AT_ORIGINAL_SPOT,
    Consequence.GAME_LOST,
    Consequence.GAME_WON,
    Consequence.SET_INSIDE,
)
INKAST_CHOICES = (
    Consequence.RAISE_HERE,
    Consequence.PLACE_FREELY,
    Consequence.RETHROW,
    Consequence.PENALTY_KUBB,
    Consequence.RAISE_AT_ORIGINAL_SPOT,
    Consequence.GAME_LOST,
)
CHOICES = {"throw": THROW_CHOICES, "inkast": INKAST_CHOICES}
"""The answers offered for a scenario's event: every consequence the judge gives after a throw
(``kubb3d/judge/throws.py``, ``kubb3d/judge/kubbuteo.py``) or after an inkast
(``kubb3d/judge/raising.py``, ``kubb3d/judge/inkast.py``), so every question can be answered
right."""


TRIES = 3
"""Lines a question reads before it counts as not right (an answer neither a choice's number nor
its name), so that a stream of other text (``yes | kubb3d quiz``) ends."""


def parse_answer(text: str, choices: Sequence[Consequence], tr: Translator = ENGLISH) -> Consequence | None:
    """A choice from its number (1-based) or its name (case-insensitive, English or in ``tr``'s
    language); None if neither."""
    t = text.strip().lower()
    if t.isdigit() and 1 <= int(t) <= len(choices):
        return choices[int(t) - 1]
    for c in choices:
        if t in (c.value, c.name.lower(), tr(c.value).lower()):
            return c
    return None


def read_answer(prompt: str) -> str:
    """A line typed by the person (``input``); a closed or missing stdin is the end of input
    (EOFError), as Ctrl-D is."""
    import sys

    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    return input(prompt)


def question(piece_id: str) -> str:
    """The question about one piece: ``What happens to A2?``, ``What happens to the king?``
    (German ``Was geschieht mit dem König?``: the king's is a sentence of its own, its article
    in the case the sentence needs)."""
    if piece_id == KING_ID:
        return msg("What happens to the king?")
    return msg("What happens to {piece}?", piece=piece_name(piece_id))


def ruling_line(piece_id: str, ruling, tr: Translator = ENGLISH) -> str:
    """The answer's one line: ``A2 is leaning → counts as felled (DM §5).`` (the king's: ``The
    king is fallen → …``)."""
    what = {
        "status": tr(ruling.status.value),
        "consequence": tr(ruling.consequence.value),
        "rules": ", ".join(ruling.rules),
    }
    if piece_id == KING_ID:
        return msg("The king is {status} → {consequence} ({rules}).", **what)
    return msg("{piece} is {status} → {consequence} ({rules}).", piece=piece_name(piece_id), **what)


def quiz_files(paths: Sequence[str | Path]) -> list[Path]:
    """The scenario files of ``paths`` (:func:`kubb3d.scenario.collect`), every one checked
    before the quiz says or writes anything (a refusal does nothing).

    Raises:
        kubb3d.scenario.ScenarioError: a path that is not there, a bad file, or one without
            ``[[expect]]`` (each named).
    """
    files = collect(list(paths))
    errors = check_all(files)
    if not errors:  # the quiz teaches rulings that its files' expectations check
        errors = [msg("{file}: expect: {why}", file=str(path), why=UNCHECKED)
                  for path in files if not has_expectations(load(path))]
    if errors:
        raise ScenarioError(join(errors, "; "))
    return files


UNCHECKED = msg(
    "the quiz asks only rulings the file's [[expect]] checks, and it has none (kubb3d judge gives its ruling)"
)
"""Why the quiz refuses a scenario without expectations (:func:`quiz_files`)."""


def run_quiz(
    paths: Sequence[str | Path],
    *,
    seed: int,
    count: int | None = None,
    render: Callable[[Built, str], tuple[Path, Path]] | None = None,
    ask: Callable[[str], str] = read_answer,
    say: Callable[[str], None] = print,
    tr: Translator = ENGLISH,
    show: Callable[[Path], object] | None = None,
) -> tuple[int, int]:
    """Run the quiz in ``tr``'s language; returns (correct answers, questions asked).

    ``render`` (the command line's pictures: :func:`kubb3d.viewer.still.render_views` into
    ``--out``) is called with each built scenario and its file's stem and returns the top and
    side views' paths; None: text only. ``show`` (``quiz --view``:
    :func:`kubb3d.viewer.app.quiz_view`) is called with each scenario's path after its
    description and before its first question. The quiz itself needs no window.

    Raises:
        kubb3d.scenario.ScenarioError: a bad scenario file or path.
    """
    files = quiz_files(paths)
    rng = np.random.default_rng(seed)
    order = [files[i] for i in rng.permutation(len(files))]
    if count is not None:
        order = order[:count]
    right = asked = 0
    say(
        tr(
            nmsg(
                "Referee quiz: {count} scenario (seed {seed}). Answer with a number or the consequence's name.",
                "Referee quiz: {count} scenarios (seed {seed}). Answer with a number or the consequence's name.",
                len(order),
                count=len(order),
                seed=seed,
            )
        )
    )
    try:
        for n, path in enumerate(order, 1):
            res, built = run(path, keep_world=render is not None)
            try:
                say("")
                say(
                    tr(
                        msg(
                            "[{n}/{total}] {title}  ({book} rules, {event})",
                            n=n,
                            total=len(order),
                            title=tr(res.spec.title),
                            book=get_rulebook(res.spec.ruleset).title,
                            event=tr(EVENTS.get(res.spec.event, res.spec.event)),
                        )
                    )
                )
                if res.spec.description:
                    say(f"  {tr(res.spec.description)}")
                if render is not None and built is not None:
                    try:
                        top, side = render(built, path.stem)
                        say("  " + tr(msg("views: {top}  {side}", top=str(top), side=str(side))))
                    except NotImplementedError as exc:  # the table-top board is not drawn yet
                        say("  " + tr(msg("(no picture: {why})", why=str(exc))))
            finally:
                if built is not None:
                    built.close()
            if show is not None:
                say("  " + tr(msg("(the 3D view is open: close it to answer)")))
                show(path)
            targets = res.spec.quiz or [res.spec.expect[0].piece]
            choices = CHOICES[res.spec.event]
            rulings = {r.piece: r for r in res.judgement.rulings}
            for pid in targets:
                ruling = rulings.get(pid)
                if ruling is None:
                    continue
                say("  " + tr(question(pid)))
                for i, c in enumerate(choices, 1):
                    say(f"    {i}. {tr(c.value)}")
                answer = None
                for attempt in range(1, TRIES + 1):
                    answer = parse_answer(ask("  " + tr(msg("your ruling")) + "> "), choices, tr)
                    if answer is not None:
                        break
                    if attempt < TRIES:
                        say("  " + tr(msg("please answer 1–{count} or a consequence's name", count=len(choices))))
                    else:  # no "please answer" that is not waited for: the question is over
                        say("  " + tr(msg("no answer in {tries} tries: counted as not right", tries=TRIES)))
                asked += 1
                ok = answer == ruling.consequence
                right += ok
                verdict = msg("Right") if ok else msg("Not quite")
                say("  " + tr(msg("{verdict}: {line}", verdict=verdict, line=ruling_line(pid, ruling, tr))))
                say(f"  {tr(ruling.reason)}")
            if res.spec.explanation:
                say(f"  {tr(res.spec.explanation)}")
    except EOFError:
        say("")
        say(tr(msg("(end of input)")))
    say("")
    say(tr(msg("Score: {right} of {asked}", right=right, asked=asked)))
    return right, asked
