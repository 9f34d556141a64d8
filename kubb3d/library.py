"""The files shipped with kubb3d: the judge scenario library and the experiment specs.

In a checkout they are the top-level ``scenarios/`` and ``scenarios/experiments/`` folders;
in an installed wheel the same files are the package data of ``kubb3d.scenarios`` and
``kubb3d.scenarios.experiments``. Commands that take a scenario or a spec accept a short
name (``hit-8m``, ``dm_king_felled_early``) and look it up here when no such file exists.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def scenarios_dir() -> Path:
    """The folder of the shipped judge scenarios (``*.toml``)."""
    return Path(str(resources.files("kubb3d.scenarios")))


def experiments_dir() -> Path:
    """The folder of the shipped experiment specs (``*.toml``)."""
    return Path(str(resources.files("kubb3d.scenarios.experiments")))


def scenario_files() -> list[Path]:
    """The shipped scenario files, sorted by name."""
    return sorted(scenarios_dir().glob("*.toml"))


def experiment_files() -> list[Path]:
    """The shipped experiment specs, sorted by name."""
    return sorted(experiments_dir().glob("*.toml"))


def _lookup(name: str | Path, folder: Path) -> Path | None:
    text = str(name)
    if Path(text).exists() or "/" in text or "\\" in text:
        return None
    stem = text[:-5] if text.endswith(".toml") else text
    candidate = folder / f"{stem}.toml"
    return candidate if candidate.is_file() else None


def resolve_scenario(name: str | Path) -> Path:
    """``name`` as given if that file or folder exists, else the shipped scenario of that
    short name (with or without ``.toml``), else ``name`` unchanged (the caller reports it)."""
    return _lookup(name, scenarios_dir()) or Path(name)


def not_found(name: str | Path, kind: str = "scenario") -> str:
    """The message for a ``name`` that is neither a file nor a shipped ``kind`` (``scenario`` or
    ``spec``), with the nearest shipped name when one is close (:func:`kubb3d.ranges.did_you_mean`):
    ``dm_acident_wind: no such file or directory, nor a shipped scenario of that name; did you mean
    'dm_accident_wind'? (kubb3d scenario list)``."""
    from kubb3d.judge.messages import msg
    from kubb3d.ranges import did_you_mean

    files = scenario_files() if kind == "scenario" else experiment_files()
    text = str(name)
    if Path(text).suffix.lower() not in ("", ".toml"):  # a replay's or another file's name
        return msg("{name}: no such file", name=text)
    stem = Path(text[:-5] if text.lower().endswith(".toml") else text).name
    near = did_you_mean(stem, [f.stem for f in files])
    if kind == "scenario":
        return msg("{name}: no such file or directory, nor a shipped scenario of that name{near} (kubb3d scenario "
                   "list)", name=text, near=near)
    return msg("{name}: no such file or directory, nor a shipped spec of that name{near} (kubb3d experiment list)",
               name=text, near=near)


def resolve_experiment(name: str | Path) -> Path:
    """``name`` as given if that file exists, else the shipped spec of that short name
    (``hit-8m`` → ``…/experiments/hit-8m.toml``), else ``name`` unchanged."""
    return _lookup(name, experiments_dir()) or Path(name)


def other_toml_kind(data: dict, path: str | Path, wanted: str) -> str | None:
    """The one-line error for a TOML file of the other kind: an experiment spec given where a
    judge scenario is read (``wanted="scenario"``: ``kubb3d judge``, ``view``, ``quiz``,
    ``export``) or a scenario given to ``kubb3d experiment run`` (``wanted="spec"``), told by
    the top-level fields only one kind has; None when the file is not plainly the other kind
    (then the schema's own message names the field)."""
    spec_keys = [k for k in ("trials_per_point", "measures") if k in data]
    scenario_keys = [k for k in ("expect", "event") if k in data]
    if wanted == "scenario" and spec_keys and not scenario_keys:
        from kubb3d.judge.messages import msg

        return msg("{path}: an experiment spec (it has {field}), not a judge scenario; run it with kubb3d experiment "
                   "run {path}", path=str(path), field=spec_keys[0])
    if wanted == "spec" and scenario_keys and not spec_keys:
        from kubb3d.judge.messages import msg

        return msg("{path}: a judge scenario (it has {field}), not an experiment spec; rule on it with kubb3d judge "
                   "{path}", path=str(path), field=scenario_keys[0])
    return None
