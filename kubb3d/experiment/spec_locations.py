"""Where a failed pydantic validation of an experiment spec points: the field path in the
words of the TOML file (``throw.speed``, ``pieces[2].x``), with pydantic's union branch
names left out, and the one error of several that tells the user most."""
from __future__ import annotations


def field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "(top level)"


def most_telling(errors: list[dict]) -> dict:
    """The error to show of a failed validation: a check of ours (a range, a rule) before
    pydantic's type errors, then the deepest location (for a value that fits no branch of a
    union, the branch it came closest to), then the first."""
    return min(enumerate(errors), key=lambda ie: (ie[1].get("type") != "value_error", -len(ie[1]["loc"]), ie[0]))[1]


def _is_branch(part) -> bool:
    return isinstance(part, str) and (
        part[:1].isupper() or part in ("float", "str", "int") or part.startswith(("literal[", "function-"))
    )


def short_loc(loc: tuple) -> tuple:
    # pydantic adds the union branch names (float, Grid …) to the location: drop them
    return tuple(part for part in loc if not _is_branch(part))


def union_field(loc: tuple) -> tuple:
    """The location up to the first union branch name: the field a value was given for."""
    for k, part in enumerate(loc):
        if _is_branch(part):
            return loc[:k]
    return loc
