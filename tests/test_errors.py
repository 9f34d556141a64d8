"""kubb3d.errors: every error class of the package under Kubb3dError, the old import paths kept,
and public functions raising the declared classes (still ValueErrors for older callers).

The classes are found by reading the source (ast), not by importing it: the viewer's modules
need a display to import."""

import ast
import builtins
import math
from pathlib import Path

import pytest

import kubb3d.errors as errors
from kubb3d.errors import Kubb3dError

PKG = Path(__file__).resolve().parents[1] / "kubb3d"

NOT_A_CALLERS_MISTAKE = {
    "PhysicsGlitch": "a simulation fault (NaN, a piece far outside the world); the match retries the throw",
    "ClusterFailed": "a Dask cluster failing during a run; its trials run again on resume",
    "VersionMismatch": "a Dask worker with other versions, found while the run is under way",
    "_Timeout": "the Kubb Dames search's private signal that its time is up, caught where raised",
    "_Interrupted": "the command line's private carrier of Ctrl-C past Typer",
    "InputWarning": "a warning (issued, never raised)",
    "BadRowsWarning": "a warning (issued, never raised)",
}
"""Exception classes of kubb3d that are not Kubb3dErrors, with the reason."""

BUILTIN_EXCEPTIONS = {
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
}


def _classes() -> dict[str, tuple[str, list[str]]]:
    """class name → (module file, the last part of each base's name), every class of kubb3d."""
    out: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).rpartition(".")[2] for b in node.bases]
                out[node.name] = (str(path.relative_to(PKG.parent)), bases)
    return out


def _exception_classes(classes) -> dict[str, bool]:
    """Exception class name → whether it derives from Kubb3dError (by the class statements)."""
    found: dict[str, bool] = {}
    changed = True
    while changed:
        changed = False
        for name, (_, bases) in classes.items():
            if name in found:
                continue
            if any(b in BUILTIN_EXCEPTIONS or b in found for b in bases):
                found[name] = name == "Kubb3dError" or any(found.get(b, False) for b in bases)
                changed = True
    return found


def test_every_exception_class_is_a_kubb3d_error_or_says_why_not():
    found = _exception_classes(_classes())
    outside = sorted(n for n, under in found.items() if not under and n not in NOT_A_CALLERS_MISTAKE)
    assert outside == [], f"exception classes neither under Kubb3dError nor listed with a reason: {outside}"


def test_the_list_of_exceptions_names_only_classes_that_exist_outside_kubb3d_error():
    found = _exception_classes(_classes())
    assert {n for n in NOT_A_CALLERS_MISTAKE if found.get(n) is False} == set(NOT_A_CALLERS_MISTAKE)


def test_the_scan_sees_a_class_that_escapes(tmp_path):
    classes = _classes()
    classes["Stray"] = ("kubb3d/x.py", ["RuntimeError"])
    classes["Deep"] = ("kubb3d/x.py", ["IllegalAction"])
    found = _exception_classes(classes)
    assert found["Stray"] is False and found["Deep"] is True and found["ThrowError"] is True
    assert "Snapshot" not in found


def test_the_error_classes_are_declared_together():
    """Every Kubb3dError class is defined in kubb3d/errors.py, nowhere else."""
    classes = _classes()
    found = _exception_classes(classes)
    elsewhere = sorted(n for n, under in found.items() if under and classes[n][0] != "kubb3d/errors.py")
    assert elsewhere == []
    declared = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, BaseException)}
    assert declared == {n for n, under in found.items() if under}
    for name in declared:
        assert issubclass(getattr(errors, name), Kubb3dError), name


@pytest.mark.parametrize(
    "module, name",
    [
        ("kubb3d.rules", "IllegalAction"), ("kubb3d.rules.core", "IllegalAction"),
        ("kubb3d.files", "FileSafetyError"), ("kubb3d.files", "ReplayError"),
        ("kubb3d.scenario", "ScenarioError"), ("kubb3d.experiment.spec", "SpecError"),
        ("kubb3d.experiment.store", "StoreError"), ("kubb3d.experiment.runner", "ClusterRefused"),
        ("kubb3d.i18n", "LanguageError"), ("kubb3d.dames.board", "IllegalMoveError"),
        ("kubb3d.cli", "UserError"),
    ],
)
def test_the_old_import_paths_name_the_same_classes(module, name):
    import importlib

    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


# what was a bare ValueError stays one: `except ValueError` of older callers still catches it
@pytest.mark.parametrize(
    "call, error",
    [
        ("kubb3d.rules:get_ruleset('nope')", "UnknownNameError"),
        ("kubb3d.equipment:get_set('nope')", "UnknownNameError"),
        ("kubb3d.players:get_skill('nope')", "UnknownNameError"),
        ("kubb3d.pitch:baseline_ids('C')", "PitchError"),
        ("kubb3d.judge.options:parse_option('no-equals-sign')", "OptionError"),
        ("kubb3d.throw:ThrowParams(speed=-1.0).validate()", "ThrowError"),
        ("kubb3d.throw:ThrowParams(speed=math.nan).validate()", "ThrowError"),
        ("kubb3d.rules:MatchState(get_ruleset('dm'), ('P1', 'P1'))", "MatchSetupError"),
        ("kubb3d.dames.rules:parse_cell('z9')", "DamesError"),
    ],
)
def test_public_functions_raise_the_declared_error_which_is_a_value_error(call, error):
    import importlib

    module, _, expr = call.partition(":")
    namespace = {"math": math, **vars(importlib.import_module(module))}
    if module == "kubb3d.rules":
        namespace.update(vars(importlib.import_module("kubb3d.rules")))
    with pytest.raises(getattr(errors, error)) as caught:
        eval(expr, namespace)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, Kubb3dError)
    assert type(caught.value).__name__ == error


# modules whose caller-facing checks raise kubb3d.errors classes: a bare ValueError there is a
# regression, except these internal invariants that no caller's input reaches
BARE_VALUE_ERROR_ALLOWED = {
    ("kubb3d/judge/geometry.py", "cannot normalise a zero vector"),
    ("kubb3d/judge/rulebook.py", "a different rule book is already registered"),
    ("kubb3d/judge/options.py", "turn numbers start at 1"),
}
CHECKED = (
    "judge", "rules", "dames", "match", "throw", "pitch.py", "equipment.py", "players.py", "tournament.py",
    "envs", "handcheck.py", "procedure.py", "files.py", "whatif.py",
)


def _bare_value_errors(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            if isinstance(func, ast.Name) and func.id == "ValueError":
                out.append((node.lineno, ast.unparse(node.exc.args[0]) if node.exc.args else ""))
    return out


def test_no_bare_value_error_for_a_callers_mistake():
    bad, allowed_seen = [], set()
    for name in CHECKED:
        for path in sorted((PKG / name).rglob("*.py")) if (PKG / name).is_dir() else [PKG / name]:
            rel = str(path.relative_to(PKG.parent))
            for line, text in _bare_value_errors(path):
                hit = next((a for a in BARE_VALUE_ERROR_ALLOWED if a[0] == rel and a[1] in text), None)
                if hit:
                    allowed_seen.add(hit)
                else:
                    bad.append(f"{rel}:{line}")
    assert bad == []
    assert allowed_seen == BARE_VALUE_ERROR_ALLOWED  # no stale entry


def test_the_value_error_scan_sees_one(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f(x):\n    if x:\n        raise ValueError(f'bad {x}')\n    raise TypeError('t')\n")
    assert _bare_value_errors(src) == [(3, "f'bad {x}'")]
