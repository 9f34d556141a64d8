"""The errors kubb3d raises for a caller's mistake, declared together under one base class.

Catch :class:`Kubb3dError` to catch every refusal of the package (the command line prints it
as one line and exits with code 2). Each class also derives from the built-in exception that
the package raised before it had its own classes (``ValueError`` mostly), so an older
``except ValueError`` still catches it. The modules that raise an error keep its name
importable (``from kubb3d.rules import IllegalAction`` works as before).

Not here, on purpose (``tests/test_errors.py`` lists them with the reason): faults that are
not the caller's mistake (:class:`kubb3d.physics.world.PhysicsGlitch`, a Dask cluster failing
during a run, a worker with other versions), private control-flow exceptions, and warnings.
"""

from __future__ import annotations


def message(exc: BaseException) -> str:
    """The message ``exc`` was raised with, as it was given: its one ``str`` argument (a
    translatable message, :class:`kubb3d.judge.messages.Msg`, stays one, so that the error line
    can speak the command line's language), else ``str(exc)``. ``str(exc)`` would keep only the
    English text."""
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc)


class Kubb3dError(Exception):
    """The base of every error kubb3d raises for a caller's mistake."""


class UserError(Kubb3dError):
    """A mistake in a command line's input: printed as one line, exit code 2
    (raised by :mod:`kubb3d.cli`)."""


# ------------------------------------------------------------ files and inputs
class FileSafetyError(Kubb3dError, ValueError):
    """An output path that breaks the rule, a file another process holds, a full disk."""


class ReplayError(Kubb3dError, ValueError):
    """A replay file that cannot be used (message names the file, the line and the field).
    Raised by :mod:`kubb3d.replay` and the match's resume."""


class ScenarioError(Kubb3dError, ValueError):
    """A scenario file that cannot be read, validated or built (one-line message)."""


class SpecError(Kubb3dError, ValueError):
    """An experiment spec that cannot be read or fails validation: ``file: field: reason``."""


class StoreError(Kubb3dError, ValueError):
    """A results file that cannot be used: another spec, another program's file, locked."""


class LanguageError(Kubb3dError, ValueError):
    """An unknown language was asked for (the message names the available ones)."""


# ------------------------------------------------------------ names and settings
class UnknownNameError(Kubb3dError, ValueError):
    """A name that is not in its catalogue: a ruleset, skill, strategy, equipment set, wood,
    action type or outcome kind (the message lists the known names)."""


class OptionError(Kubb3dError, ValueError):
    """A referee option with an unknown name or a value outside its choices or range
    (:mod:`kubb3d.judge.options`)."""


class PitchError(Kubb3dError, ValueError):
    """A pitch of impossible size, or a side other than ``'A'`` and ``'B'``."""


class EquipmentError(Kubb3dError, ValueError):
    """An equipment set asked for a piece it lacks, or a wood density that is not > 0."""


class PlayerError(Kubb3dError, ValueError):
    """A simulated player's skill or strategy with a value outside its range, or a player
    asked to throw with nothing to throw at."""


class MatchSetupError(Kubb3dError, ValueError):
    """A match, tournament or environment that cannot be set up as asked: player names, team
    sizes, sets, time limit, round cap, human players."""


# ------------------------------------------------------------ play
class ThrowError(Kubb3dError, ValueError):
    """Throw parameters outside their contract (speed, height, reach, angles, spins), or an aim
    at a target that is unknown, behind the throwing line or out of reach."""


class JudgeInputError(Kubb3dError, ValueError):
    """A context given to the judge that contradicts itself or the snapshot (a side other than
    A or B, pieces not in the snapshot, a violation of the wrong form)."""


class IllegalAction(Kubb3dError, ValueError):
    """The action is not among :meth:`kubb3d.rules.MatchState.legal_actions` (or the match is
    over)."""


class OutcomeError(Kubb3dError, ValueError):
    """An outcome given to the rules engine that contradicts the action it answers (kubbs that
    were not inkasted, a win given to a throw that was no legal king throw)."""


class DamesError(Kubb3dError, ValueError):
    """A Kubb Dames position, move text, die, rule variant or player list that cannot be used
    (:mod:`kubb3d.dames`); the message says which field and what was expected."""


class WhatIfError(Kubb3dError, ValueError):
    """A what-if that cannot be asked of this replay (one line naming the option and what was
    expected; :mod:`kubb3d.whatif`)."""


class IllegalMoveError(DamesError):
    """A move of Kubb Dames that the rules forbid in the current position; the message says why."""


class NotationError(Kubb3dError, ValueError):
    """Game notation that cannot be read: ``line:column: what was expected`` (1-based; ``what`` a
    translatable message; :mod:`kubb3d.notation`)."""

    def __init__(self, line: int, column: int, what: str) -> None:
        super().__init__(f"{line}:{column}: {what}")
        self.line, self.column, self.what = line, column, what


class StudyError(Kubb3dError, ValueError):
    """A results file that is not one of the shipped studies, or a summary that is not one
    (:mod:`kubb3d.experiment.studies`)."""


class ChallengeError(Kubb3dError, ValueError):
    """An unreadable best-score file, or a throw when the drill is over (:mod:`kubb3d.challenges`)."""


# ------------------------------------------------------------ running
class NoDisplay(Kubb3dError, RuntimeError):
    """No display to open a window on (use ``--screenshot`` for headless rendering)."""


class MatchUnavailable(Kubb3dError, RuntimeError):
    """The viewer's match mode cannot run with these options (the message says why)."""


class MatchClosed(Kubb3dError, RuntimeError):
    """A step or run of a match that was closed before its end (:meth:`kubb3d.match.Match.close`):
    its world is gone; :meth:`kubb3d.match.Match.resume` continues it from its replay file."""


class ClusterRefused(Kubb3dError, RuntimeError):
    """The Dask cluster cannot serve the run, found before any trial: unreachable scheduler, TLS
    refused, no worker, a scheduler or worker without kubb3d or with other versions. Nothing
    is written."""
