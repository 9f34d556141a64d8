"""The "did you mean …?" of a misspelt field name in an input file (experiment specs, scenario
files): the table the name was found in, the closest allowed name of that table (difflib),
else the table's allowed names. Used by :mod:`kubb3d.experiment.spec` and :mod:`kubb3d.scenario_load`
for pydantic's ``extra_forbidden`` errors, which name the field but not what was meant.
"""

from __future__ import annotations

import difflib
import typing
from typing import Any

from pydantic import BaseModel


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation can hold (through Optional, unions, lists, tuples,
    dict values and Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        for m in _models_in(arg):
            if m not in out:
                out.append(m)
    return out


def _field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def _field(model: type[BaseModel], key: str):
    for name, f in model.model_fields.items():
        if key in (name, f.alias):
            return f
    return None


def table_of(model: type[BaseModel], loc: tuple) -> tuple[str, list[str]]:
    """Where the unknown field at ``loc`` (a pydantic error location, union branch names
    included) sits: (the table, e.g. ``[throw]``, ``[throw.speed]`` or ``pieces[2]``; the
    sorted names it allows). A field inside a value that may take several
    forms (a union of tables) allows the names of every form."""
    models = [model]
    path = ""
    for part in loc[:-1]:
        if isinstance(part, int):
            path += f"[{part}]"
            continue
        if any(m.__name__ == part for m in models) or not any(_field(m, part) for m in models):
            continue  # a union branch name that pydantic adds to the location (Grid, float …)
        nxt: list[type[BaseModel]] = []
        for m in models:
            f = _field(m, part)
            if f is not None:
                nxt += [x for x in _models_in(f.annotation) if x not in nxt]
        models = nxt
        path += ("." if path else "") + part
    names = sorted({n for m in models for n in _field_names(m)})
    table = (f"[{path}]" if "[" not in path else path) if path else "the top level"
    return table, names


def unknown_field(model: type[BaseModel], loc: tuple, *, listed_by: str = "") -> str:
    """The message for an unknown field at ``loc``: ``unknown field in [throw]; did you mean
    'speed'?``, or with no close name the names allowed there. ``listed_by`` is where all are
    described (appended in parentheses)."""
    from kubb3d.judge.messages import concat, msg

    table, names = table_of(model, loc)
    near = difflib.get_close_matches(str(loc[-1]), names, n=1, cutoff=0.6)
    if near:
        hint = msg("; did you mean {name}?", name=repr(near[0]))
    elif names:
        hint = msg("; expected one of: {names}", names=", ".join(names))
    else:
        hint = msg(" (this table takes no fields)")
    if listed_by.endswith(" lists them"):  # where all are described: a file or a command
        listed_by = msg("{source} lists them", source=listed_by.removesuffix(" lists them"))
    where = msg("the top level") if table == "the top level" else table
    found = msg("unknown field in {table}{hint}", table=where, hint=hint)
    return concat(found, " (", listed_by, ")") if listed_by else found


def prefer_unknown(errors: list[dict], model: type[BaseModel]) -> list[dict]:
    """The ``extra_forbidden`` errors of a validation of ``model`` if there are any (a
    misspelt name also makes the meant field "missing": the misspelling is what to show), else
    all. An "extra" name that another form of the same value allows is no misspelling (a value
    that fits no form of a union is refused by every form, also for the names of the others)."""
    extra = [
        e
        for e in errors
        if e.get("type") == "extra_forbidden" and e["loc"] and e["loc"][-1] not in table_of(model, tuple(e["loc"]))[1]
    ]
    return extra or errors
