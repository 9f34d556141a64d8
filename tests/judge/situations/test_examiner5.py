"""Fifth referee examination (issue #37): situations written from the rule books' words alone.

Every ``examiner5/*.toml`` quotes, in its leading comment, the clause it rests on (DM translated
into English in the examiner's words) and states the ruling that clause gives. They were written
without reading the judge's or the rules' code. A file kubb3d rules otherwise is listed in
:data:`WRONG` with the kind of wrong ruling and marked ``xfail(strict=True)``, so a fix flips it.

Relations: a mirrored copy (y -> -y), a sides-swapped copy (x -> -x, A <-> B) or a relabelled copy
(piece ids renamed) must be ruled as its original, transformed (:data:`COPIES`); a pair that differs
in one fact the rule book names must be ruled differently in that piece (:data:`FLIPS`).
A file without an ``[outcome]`` winner expects the game to go on: no winner, no loser.
"""

from __future__ import annotations

import json
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

HERE = Path(__file__).resolve().parent / "examiner5"
FILES = sorted(HERE.glob("*.toml"))

WRONG: dict[str, str] = {}

MIRRORED_BASELINE = {f"{side}{n}": f"{side}{6 - n}" for side in "AB" for n in range(1, 6)}
"""Baseline kubbs are numbered in +y: mirrored (y -> -y), B1 stands where B5 stood."""

# copy -> (original, how, relabel): how is "mirror" (y -> -y) or "swap" (x -> -x, A <-> B) or
# "relabel" (positions unchanged); relabel maps the original's piece ids to the copy's.
COPIES: dict[str, tuple[str, str, dict[str, str]]] = {
    "dm5_baseline_kubb_leaning_on_baton_field_kubb_stands_swapped": (
        "dm5_baseline_kubb_leaning_on_baton_field_kubb_stands", "swap", {}),
    "dm5_king_felled_by_field_kubb_mirrored": ("dm5_king_felled_by_field_kubb", "mirror", {}),
    "dm5_king_felled_by_field_kubb_swapped": ("dm5_king_felled_by_field_kubb", "swap", {}),
    "dm5_accident_wind_by_b": ("scenarios/dm_accident_wind", "swap", {}),
    "dm5_foul_fells_field_and_baseline_kubb_swapped": ("dm5_foul_fells_field_and_baseline_kubb", "swap", {}),
    "dm5_inkast_upright_astride_centre_line_swapped": ("dm5_inkast_upright_astride_centre_line", "swap", {}),
    "dm5_inkast_second_attempt_short_penalty_swapped": ("dm5_inkast_second_attempt_short_penalty", "swap", {}),
    "dm5_inkast_stossel_invalid_mirrored": ("scenarios/dm_inkast_stossel_invalid", "mirror", {}),
    "dm5_inkast_stossel_on_second_attempt": ("scenarios/dm_inkast_stossel_valid", "same", {}),
    "dm5_inkast_one_in_one_out_relabelled": ("dm5_inkast_one_in_one_out", "relabel", {"B1": "B2", "B2": "B1"}),
    "dm5_inkast_raising_would_touch_king_swapped": (
        "../dm_inkast_raising_would_touch_king", "swap", {}),
    "dm5_inkast_leaning_tip_ground_edge_swapped": ("scenarios/dm_inkast_leaning_tip_ground_edge", "swap", {}),
    "dm5_inkast_blocked_inward_stands_partly_out_mirrored": (
        "dm5_inkast_blocked_inward_stands_partly_out", "mirror", {}),
    "ws5_kubb_knocked_over_by_foot_swapped": ("ws5_kubb_knocked_over_by_foot", "swap", {}),
    "ws5_king_felled_by_field_kubb_mirrored": ("ws5_king_felled_by_field_kubb", "mirror", {}),
    "ws5_helicopter_throw_by_b": ("../ws_helicopter_throw_fells_baseline_kubb", "swap", {}),
    "ws5_inkast_second_attempt_short_placed_swapped": ("ws5_inkast_second_attempt_short_placed", "swap", {}),
    "ws5_inkast_across_baseline_b_by_a": ("../ws_inkast_across_baseline_tipped_in", "swap", {}),
    "ws5_inkast_knocks_baseline_kubb_by_b": ("../ws_inkast_knocks_baseline_kubb", "swap", {}),
    "kt5_king_knocked_by_knocked_kubb_swapped": ("kt5_king_knocked_by_knocked_kubb", "swap", {}),
    "kt5_baseline_knocked_one_of_two_field_kubbs_standing_mirrored": (
        "kt5_baseline_knocked_one_of_two_field_kubbs_standing", "mirror", MIRRORED_BASELINE),
    "kt5_return_just_short_mirrored": ("../kt_return_just_short", "mirror", {}),
    "kt5_return_off_board_second_time_by_a": ("../kt_return_off_board_second_time_placed", "swap", {}),
    "kt5_return_past_centre_line_by_a": ("../kt_return_just_past_centre", "swap", {}),
}

# (a, b, piece): the two files differ in one fact the rule book names, so the piece's consequence
# must differ between them.
FLIPS: list[tuple[str, str, str]] = [
    ("dm5_baseline_kubb_leaning_on_baton_field_kubb_stands", "dm5_baseline_kubb_leaning_on_baton_half_clear", "B2"),
    ("dm5_inkast_upright_astride_centre_line", "dm5_inkast_upright_just_past_centre_line", "B1"),
]

ROOT = Path(__file__).resolve().parents[3]


def _path(name: str) -> Path:
    """An examiner5 file, a shipped scenario ("scenarios/NAME") or an earlier situation ("../NAME")."""
    if name.startswith("scenarios/"):
        return ROOT / (name + ".toml")
    return (HERE / (name + ".toml")).resolve()


_APPS: dict[int, object] = {}


@cache
def _judged(path: Path, app_id: int) -> dict:
    r = CliRunner().invoke(_APPS[app_id], ["judge", "--check", "--json", str(path)])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output[r.output.index("{"):])


def judged(app, path: Path) -> dict:
    _APPS[id(app)] = app
    return _judged(path, id(app))


def test_at_least_40_situations_each_quoting_its_clause():
    assert len(FILES) >= 40
    names = {f.stem for f in FILES}
    assert set(WRONG) <= names
    for copy, (original, _, _) in COPIES.items():
        assert copy in names and _path(original).is_file(), (copy, original)
    for a, b, _ in FLIPS:
        assert {a, b} <= names
    for f in FILES:
        head = "".join(line for line in f.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
        assert re.search(r"\b(DM §\d+|WS|KT)\b", head), f.name


def _marked(f: Path):
    if f.stem in WRONG:
        return pytest.param(f, marks=pytest.mark.xfail(strict=True, reason=WRONG[f.stem]), id=f.stem)
    return pytest.param(f, id=f.stem)


@pytest.mark.parametrize("path", [_marked(f) for f in FILES])
def test_situation_rules_as_the_rule_book_says(judge_app, path):
    doc = judged(judge_app, path)
    assert doc["ok"], doc["mismatches"]
    outcome = tomllib.loads(path.read_text(encoding="utf-8")).get("outcome", {})
    # the game goes on unless the file names a winner and a loser
    assert (doc["winner"], doc["loser"]) == (outcome.get("winner"), outcome.get("loser"))


def _transform(xy, how: str):
    x, y = xy[0], xy[1]
    return {"mirror": (x, -y), "swap": (-x, y)}.get(how, (x, y))


def _swap_id(piece: str) -> str:
    if len(piece) == 2 and piece[0] in "AB" and piece[1].isdigit():
        return {"A": "B", "B": "A"}[piece[0]] + piece[1]
    return piece


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_copies_rule_as_their_originals(judge_app, copy):
    original, how, relabel = COPIES[copy]
    a = judged(judge_app, _path(original))
    b = judged(judge_app, _path(copy))
    rename = _swap_id if how == "swap" else (lambda p: relabel.get(p, p))
    side = (lambda s: {"A": "B", "B": "A"}.get(s, s)) if how == "swap" else (lambda s: s)
    by_piece = {r["piece"]: r for r in b["rulings"]}
    compared = 0
    for r in a["rulings"]:
        other = by_piece.get(rename(r["piece"]))
        if other is None:
            continue
        compared += 1
        for key in ("status", "consequence", "valid"):
            assert other.get(key) == r.get(key), (r["piece"], key, r.get(key), other.get(key))
        if r.get("raised_pose") and other.get("raised_pose"):
            want = _transform(r["raised_pose"]["position_m"], how)
            got = other["raised_pose"]["position_m"]
            assert abs(want[0] - got[0]) < 0.01 and abs(want[1] - got[1]) < 0.01, (r["piece"], want, got)
    assert compared >= 1
    assert side(a["winner"]) == b["winner"] and side(a["loser"]) == b["loser"]
    assert a.get("penalty") == b.get("penalty")


@pytest.mark.parametrize("a, b, piece", FLIPS, ids=[f"{a}-{b}" for a, b, _ in FLIPS])
def test_one_named_fact_flips_the_ruling(judge_app, a, b, piece):
    ra = {r["piece"]: r for r in judged(judge_app, _path(a))["rulings"]}[piece]
    rb = {r["piece"]: r for r in judged(judge_app, _path(b))["rulings"]}[piece]
    assert ra["consequence"] != rb["consequence"], (ra["consequence"], rb["consequence"])
