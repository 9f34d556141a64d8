"""``kubb3d quiz``: referee training in the terminal.

Scenarios are shown one at a time (a text description plus a rendered top and
side view saved as PNG), the trainee names the consequence for each asked
piece, and the quiz explains the right ruling with its rule citation. The order
comes from a seeded :class:`numpy.random.Generator`. Reads answers with
``input`` so it works with piped stdin; end of input ends the quiz early and
still prints the score.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from kubb3d.judge.rulebook import get_rulebook
from kubb3d.judge.rulings import Consequence

THROW_CHOICES = (
    Consequence.NONE,
    Consequence.COUNTS_AS_FELLED,
    Consequence.RAISE_AT_ORIGINAL_SPOT,
    Consequence.GAME_LOST,
    Consequence.GAME_WON,
)
INKAST_CHOICES = (
    Consequence.RAISE_HERE,
    Consequence.PLACE_FREELY,
    Consequence.RETHROW,
    Consequence.PENALTY_KUBB,
    Consequence.RAISE_AT_ORIGINAL_SPOT,
    Consequence.GAME_LOST,
)


def parse_answer(text: str, choices: Sequence[Consequence]) -> Consequence | None:
    """A choice from its number (1-based) or its name (case-insensitive); None if neither."""
    t = text.strip().lower()
    if t.isdigit() and 1 <= int(t) <= len(choices):
        return choices[int(t) - 1]
    for c in choices:
        if t == c.value or t == c.name.lower():
            return c
    return None


def run_quiz(
    paths: Sequence[str | Path],
    *,
    seed: int,
    count: int | None = None,
    out_dir: str | Path = "quiz-images",
    images: bool = True,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> tuple[int, int]:
    """Run the quiz; returns (correct answers, questions asked).

    Raises:
        kubb3d.scenario.ScenarioError: a bad scenario file or path.
    """
    from kubb3d.scenario import collect, render_views, run

    files = collect(list(paths))
    rng = np.random.default_rng(seed)
    order = [files[i] for i in rng.permutation(len(files))]
    if count is not None:
        order = order[:count]
    right = asked = 0
    say(f"Referee quiz: {len(order)} scenarios (seed {seed}). Answer with a number or the consequence's name.")
    try:
        for n, path in enumerate(order, 1):
            res, built = run(path, keep_world=images)
            try:
                say("")
                say(
                    f"[{n}/{len(order)}] {res.spec.title}  "
                    f"({get_rulebook(res.spec.ruleset).title} rules, {res.spec.event})"
                )
                if res.spec.description:
                    say(f"  {res.spec.description}")
                if built is not None:
                    try:
                        top, side = render_views(built, out_dir, path.stem)
                        say(f"  views: {top}  {side}")
                    except NotImplementedError as exc:  # the table-top board is not drawn yet
                        say(f"  (no picture: {exc})")
            finally:
                if built is not None:
                    built.close()
            targets = res.spec.quiz or [res.spec.expect[0].piece]
            choices = THROW_CHOICES if res.spec.event == "throw" else INKAST_CHOICES
            rulings = {r.piece: r for r in res.judgement.rulings}
            for pid in targets:
                ruling = rulings.get(pid)
                if ruling is None:
                    continue
                say(f"  What happens to {pid}?")
                for i, c in enumerate(choices, 1):
                    say(f"    {i}. {c.value}")
                answer = None
                for _ in range(3):
                    answer = parse_answer(ask("  your ruling> "), choices)
                    if answer is not None:
                        break
                    say(f"  please answer 1–{len(choices)} or a consequence's name")
                asked += 1
                ok = answer == ruling.consequence
                right += ok
                say(
                    f"  {'Right' if ok else 'Not quite'}: {pid} is {ruling.status.value} → {ruling.consequence.value} "
                    f"({', '.join(ruling.rules)})."
                )
                say(f"  {ruling.reason}")
    except EOFError:
        say("")
        say("(end of input)")
    say("")
    say(f"Score: {right} of {asked}")
    return right, asked
