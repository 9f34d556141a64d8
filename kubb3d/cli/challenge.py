"""``kubb3d play --challenge NAME``: the drills of :mod:`kubb3d.challenges` in the viewer, or played
headless by the computer (``--auto``, with ``--json``). Called by :func:`kubb3d.cli.viewer.play`."""

from __future__ import annotations

from kubb3d.errors import message as error_message

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from kubb3d.i18n import Translator


def auto_document(run, best: int | None) -> dict:
    """The ``--auto --json`` document: the drill, difficulty, seed, score (and the most possible),
    the best score kept, and every throw with its intended and actual release and points."""
    return {
        "challenge": run.name,
        "difficulty": run.difficulty,
        "seed": run.seed,
        "score": run.score,
        "max_score": run.challenge.max_score,
        "best": best,
        "throws": [
            {"piece": t.piece, "intended": t.intended, "released": t.released, "points": t.points, "text": str(t.text)}
            for t in run.throws
        ],
    }


def run_challenge(
    name: str,
    difficulty: str,
    seed: int,
    *,
    auto: bool,
    as_json: bool,
    screenshot: Optional[Path],
    after: int,
    width: int,
    height: int,
    camera: str,
    tr: Translator,
) -> None:
    """Play drill ``name``: headless by the computer (``auto``), one frame (``screenshot``, after
    ``after`` computer throws) or in a window. Raises UserError for an unknown drill or an
    unreadable best-score file (before any work)."""
    from kubb3d.challenges import BestScores, ChallengeError, auto_answer, get_challenge, play_challenge
    from kubb3d.cli import UserError
    from kubb3d.errors import UnknownNameError
    from kubb3d.judge.messages import msg

    try:
        get_challenge(name)
        scores = BestScores()
    except (UnknownNameError, ChallengeError) as exc:
        raise UserError(error_message(exc)) from None
    if auto:
        run = play_challenge(name, difficulty=difficulty, seed=seed)
        best = scores.get(name, difficulty)
        if as_json:
            sys.stdout.write(json.dumps(auto_document(run, best), ensure_ascii=False) + "\n")
            return
        for t in run.throws:
            typer.echo(tr(t.text))
        line = msg(
            "{title} ({difficulty}, seed {seed}): {score} of {most} points",
            title=msg(run.challenge.title),
            difficulty=difficulty,
            seed=seed,
            score=run.score,
            most=run.challenge.max_score,
        )
        typer.echo(tr(line))
        mine = msg("your best score: {best}", best=best) if best is not None else msg("your best score: none yet")
        typer.echo(tr(mine))
        return
    from kubb3d.viewer import app as A
    from kubb3d.viewer.challenge_mode import challenge_session

    session = challenge_session(name, difficulty, seed, scores)
    session.tr = tr
    if screenshot is not None:
        app = A.App(session, width, height, headless=True, mode="play", camera=camera)
        session.keep_best = False  # the computer's throws are not your best
        try:
            for _ in range(after):
                if session.can_throw and session.run is not None:
                    session.throw(auto_answer(session.run))
                    session.skip()
                    session.update(0.0)
            app.frame(0.0)
            typer.echo(f"wrote {app.screenshot(screenshot)}")
        finally:
            app.close()
        return
    try:
        app = A.App(session, width, height, headless=False, mode="play", camera=camera)
    except A.NoDisplay as exc:
        session.close()
        raise UserError(error_message(exc)) from None
    try:
        app.run()
    finally:
        app.close()
