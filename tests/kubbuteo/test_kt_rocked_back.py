"""KT rules: after each flick remove "any knocked over kubbs". A disk standing upright on its flat
at rest after the flick is not knocked over, however far it rocked on the way, unless it turned
over (past 90°, DM §5 „Überschlag“, the reading KT shares: docs/rules.md "KT ← DM §5 knocked
over"; docs/examinations/2026-12-07-kubbuteo-play.md, finding 2).

Relations on the stored position of seed 9 call 47 (B4 rocked 14.4° towards a face and came
back onto its flat), in its four mirrors: B4's history scaled to a multiple of its tipping angle
in either direction rules as if it had not rocked at all, and the independent referee agrees;
a history past 90° counts it for both. The king in the same position: rocked past its own
tipping angle (12.6°) and back, the game goes on."""

from __future__ import annotations

import copy
import json
import math
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "judge"))

from independent_kt_referee import referee_flick  # noqa: E402
from kt_comparison import compare_flick  # noqa: E402
from kt_mirror import mirror_position, mirror_prior  # noqa: E402
from play_positions import rejudge  # noqa: E402

from kubb3d.equipment import kubbuteo_disk, kubbuteo_king  # noqa: E402

STORED = json.loads((HERE.parent / "data" / "kt_play_positions.json").read_text(encoding="utf-8"))
CASE = next(c for c in STORED["cases"] if c["name"] == "rocked-back-standing")
MIRRORS = ("as played", "swap", "flip", "swap+flip")
DISK = kubbuteo_disk()
DIRECTIONS = {"sideways": 0.0, "in plane": math.pi / 2}


def _variant(mirror: str) -> tuple[dict, dict]:
    pos, prior = CASE["position"], CASE["prior"]
    for kind in mirror.split("+"):
        if kind in ("swap", "flip"):
            pos, prior = mirror_position(pos, kind), mirror_prior(prior, kind)
    return copy.deepcopy(pos), prior


def _with_history(pos: dict, pid: str, tilt: float, lean: tuple[float, float] | None) -> dict:
    for p in pos["snapshot"]["pieces"]:
        if p["id"] == pid:
            p["max_tilt"] = tilt
            if lean is None:
                p.pop("max_lean", None)
            else:
                p["max_lean"] = list(lean)
    return pos


def _rocked(name: str, direction: str, factor: float) -> tuple[float, tuple[float, float]]:
    """(max_tilt, max_lean) of a disk rocked ``factor`` × its tipping angle in ``direction``."""
    angle = factor * DISK.tipping_angle_towards(DIRECTIONS[direction])
    return angle, ((angle, 0.0) if direction == "sideways" else (0.0, angle))


def _rock_name(mirror: str) -> str:
    return "A4" if "swap" in mirror else "B4"


def _ruling(pos: dict, pid: str) -> tuple[str, str, bool]:
    j = rejudge(pos)
    r = j["rulings"][pid]
    return r["status"], r["consequence"], pid in j["felled"]


@pytest.mark.parametrize("mirror", MIRRORS)
@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize("factor", [0.5, 0.9, 1.5, 3.0])
def test_a_disk_rocked_back_onto_its_flat_rules_as_one_never_rocked(mirror, direction, factor):
    pos, prior = _variant(mirror)
    pid = _rock_name(mirror)
    still = _ruling(_with_history(copy.deepcopy(pos), pid, 0.0, (0.0, 0.0)), pid)
    assert still == ("standing", "none", False)
    rocked = _with_history(pos, pid, *_rocked(pid, direction, factor))
    assert _ruling(rocked, pid) == still
    # and the independent referee, written from KT's words, agrees on every piece
    checks = compare_flick(rocked, prior, referee_flick(rocked, prior), rejudge(rocked))
    bad = [c for c in checks if not c.agrees and "info" not in c.kind]
    assert bad == [], bad


@pytest.mark.parametrize("mirror", MIRRORS)
@pytest.mark.parametrize("degrees", [91.0, 180.0])
def test_a_disk_that_turned_over_and_landed_on_its_flat_counts(mirror, degrees):
    pos, prior = _variant(mirror)
    pid = _rock_name(mirror)
    turned = _with_history(pos, pid, math.radians(degrees), None)
    status, consequence, felled = _ruling(turned, pid)
    assert (status, consequence, felled) == ("standing", "counts as felled", True)
    assert "turned over" in rejudge(turned)["rulings"][pid]["reason"]
    checks = compare_flick(turned, prior, referee_flick(turned, prior), rejudge(turned))
    assert [c for c in checks if not c.agrees and "info" not in c.kind] == []


@pytest.mark.parametrize("mirror", MIRRORS)
@pytest.mark.parametrize("factor", [0.9, 1.5, 3.0])
def test_the_king_rocked_back_onto_its_foot_leaves_the_game_going_on(mirror, factor):
    # KT rules: "if at any time during the game the King is knocked down by a poorly flicked
    # baton, the offending player immediately loses": a king standing at rest was not knocked
    # down unless it turned over
    pos, _ = _variant(mirror)
    rocked = _with_history(pos, "king", factor * kubbuteo_king().tipping_angle, None)
    j = rejudge(rocked)
    assert (j["winner"], j["loser"]) == (None, None)
    assert (j["rulings"]["king"]["status"], j["rulings"]["king"]["consequence"]) == ("standing", "none")
    over = rejudge(_with_history(copy.deepcopy(pos), "king", math.radians(120.0), None))
    assert over["rulings"]["king"]["consequence"] == "game lost"
    assert over["loser"] == ("B" if "swap" in mirror else "A")
