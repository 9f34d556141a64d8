"""The relation two judged situation files must keep when one is the other mirrored (y → −y),
its sides swapped (x → −x, A ↔ B) or its pieces relabelled: the same status, consequence and
validity per piece, raised spots transformed alike (within 1 cm), winner and penalty alike."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

_APPS: dict[int, object] = {}


@cache
def _judged(path: Path, app_id: int) -> dict:
    result = CliRunner().invoke(_APPS[app_id], ["judge", "--check", "--json", str(path)])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output[result.output.index("{") :])


def judged(app, path: Path) -> dict:
    """`kubb3d judge --check --json PATH` through the Typer ``app``, once per file (cached)."""
    _APPS[id(app)] = app
    return _judged(path, id(app))


def swap_id(piece: str) -> str:
    """A1 ↔ B1 …; other ids (king, batons, field kubbs' own names) unchanged."""
    if len(piece) == 2 and piece[0] in "AB" and piece[1].isdigit():
        return {"A": "B", "B": "A"}[piece[0]] + piece[1]
    return piece


MIRRORED_BASELINE = {f"{side}{n}": f"{side}{6 - n}" for side in "AB" for n in range(1, 6)}
"""The baseline kubbs of a mirrored copy (y → −y): A1 ↔ A5, A2 ↔ A4 …"""


def renamer(how: str, relabelled: dict[str, str] | None = None) -> Callable[[str], str]:
    """How a copy made by ``how`` names the original's pieces: ``swap`` A1 ↔ B1 (:func:`swap_id`),
    ``mirror`` the baseline kubbs renumbered (:data:`MIRRORED_BASELINE`), else (a relabelling)
    by ``relabelled``; ids not named keep their name."""
    if how == "swap":
        return swap_id
    names = MIRRORED_BASELINE if how == "mirror" else (relabelled or {})
    return lambda piece: names.get(piece, piece)


def transformed(xy, how: str) -> tuple[float, float]:
    """A point of the original in the copy: ``mirror`` y → −y, ``swap`` x → −x, else unmoved."""
    x, y = xy[0], xy[1]
    return {"mirror": (x, -y), "swap": (-x, y)}.get(how, (x, y))


def assert_rules_alike(a: dict, b: dict, how: str, rename: Callable[[str], str] | None = None) -> None:
    """``a`` and ``b`` are `kubb3d judge --json` documents of an original and its copy made by
    ``how`` (``mirror`` or ``swap``, or another word for a relabelling with ``rename``)."""
    if rename is None:
        rename = swap_id if how == "swap" else (lambda p: p)
    side = (lambda s: {"A": "B", "B": "A"}.get(s, s)) if how == "swap" else (lambda s: s)
    by_piece = {r["piece"]: r for r in b["rulings"]}
    compared = 0
    for r in a["rulings"]:
        other = by_piece.get(rename(r["piece"]))
        if other is None:  # a piece only one of the two files sets up
            continue
        compared += 1
        for key in ("status", "consequence", "valid"):
            assert other.get(key) == r.get(key), (r["piece"], key, r.get(key), other.get(key))
        if r.get("raised_pose") and other.get("raised_pose"):
            want = transformed(r["raised_pose"]["position_m"], how)
            got = other["raised_pose"]["position_m"]
            assert abs(want[0] - got[0]) < 0.01 and abs(want[1] - got[1]) < 0.01, (r["piece"], want, got)
    assert compared >= 1
    assert side(a.get("winner")) == b.get("winner") and side(a.get("loser")) == b.get("loser")
    assert a.get("penalty") == b.get("penalty")


def marked(f: Path, wrong: dict[str, str]):
    """``f`` as a test parameter named by its stem; a file listed in ``wrong`` (stem -> what kubb3d
    rules instead of the rule book) is a strict expected failure."""
    if f.stem in wrong:
        return pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=wrong[f.stem]), id=f.stem)
    return pytest.param(f, id=f.stem)


def assert_rules_as_written(app, path: Path, *, penalty: bool = True) -> None:
    """``path`` rules as its ``[[expect]]`` says, with the winner and loser its ``[outcome]``
    names (none: the game goes on) and, with ``penalty``, its penalty."""
    doc = judged(app, path)
    assert doc["ok"], doc["mismatches"]
    outcome = tomllib.loads(path.read_text(encoding="utf-8")).get("outcome", {})
    assert (doc["winner"], doc["loser"]) == (outcome.get("winner"), outcome.get("loser"))
    if penalty:
        assert doc.get("penalty") == outcome.get("penalty")
