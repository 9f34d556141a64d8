"""A king flick made from in front of the baseline (KT rules: "attempts to knock over the King
also happen from the baseline. Knocking over the King from anywhere but the baseline will result
in losing the game").

kubb3d's simulated players always flick from the line the match gives; a person's flick (the
match's input for a person's flicks, ``Match(human=...)``) can name a line nearer the centre.
kubb3d took such a flick for a king throw from the baseline and gave the flicker the game
(docs/examinations/2026-12-07-ws-invalid.md, finding 8).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from independent_kt_referee import walk  # noqa: E402
from kt_comparison import compare_match  # noqa: E402
from play_positions import record_with_actions  # noqa: E402

from kubb3d.match.human import strategy_person  # noqa: E402
from kubb3d.match.kubbuteo import FlickFlow  # noqa: E402
from kubb3d.pitch import Pitch  # noqa: E402
from kubb3d.rules import KingThrow  # noqa: E402
from kubb3d.throw import FlickParams  # noqa: E402

NAMES = ("T1", "T2")


def _people(ahead: float):
    """Both players flick as their strategy would, the king flicks from ``ahead`` m in front
    of the line the match gives (the baseline)."""
    holder = {}

    def answer(name):
        def flick(req):
            p = holder[name](req)
            if req.kind == "king":
                return replace(p, line_x=req.line_x + req.world.pitch.forward(req.side) * ahead)
            return p

        return flick

    def attach(match):
        for n in NAMES:
            holder[n] = strategy_person(match, n)

    return {n: answer(n) for n in NAMES}, attach


def test_a_king_knocked_over_by_a_flick_from_in_front_of_the_baseline_loses():
    """Seed 2: A's king flick (call 78) made from 10 cm in front of A's baseline knocks the king
    over after every B kubb is down: A loses (kubb3d gave A the game before)."""
    positions, records = record_with_actions("kubbuteo", 2, _people(0.10), names=NAMES, difficulty="club")
    pos = next(p for p in positions if p["call"] == 78)
    assert pos["action"]["type"] == "KingThrow" and pos["ctx"]["thrower"] == "A"
    assert pos["action"]["throws"][0]["params"]["line_x"] == pytest.approx(pos["action"]["line_x"] + 0.10)
    assert pos["ctx"]["king_throw"] is False
    assert (pos["kubb3d"]["winner"], pos["kubb3d"]["loser"]) == ("B", "A")
    king = pos["kubb3d"]["rulings"]["king"]
    assert "not with a king throw from the baseline" in king["reason"]
    outcome = next(r for r in records if r.get("type") == "outcome")
    assert outcome["winner"] == "T2"
    # the independent KT referee, reading the line from the flick's record, agrees throughout
    checks = compare_match(positions, records)
    bad = [c for c in checks if not c.agrees and "info" not in c.kind]
    assert bad == [], [(c.kind, c.piece, c.mine, c.theirs, c.note) for c in bad]
    mine = next(m for p, _, m in walk(positions) if p["call"] == 78)
    assert (mine["winner_side"], mine["loser_side"]) == ("B", "A")


@pytest.mark.parametrize("side", ["A", "B"])
def test_from_the_baseline_is_where_the_disk_starts(side):
    """The disk's centre on or behind the baseline: from the baseline; 1 mm in front: not."""
    pitch = Pitch(1.2192, 0.6096)
    match = SimpleNamespace(pitch=pitch)
    base = pitch.baseline_x(side)
    f = pitch.forward(side)
    action = KingThrow(side, "baton1", base)

    def from_baseline(line_x, behind):
        res = SimpleNamespace(params=FlickParams(side=side, line_x=line_x, behind_line=behind))
        return FlickFlow().king_from_baseline(match, action, res)  # type: ignore[arg-type]

    assert from_baseline(None, 0.025)
    assert from_baseline(base, 0.0)
    assert from_baseline(base - f * 0.05, 0.0)  # further back
    assert not from_baseline(base + f * 0.026, 0.025)  # the centre 1 mm in front
    assert not from_baseline(base + f * 0.10, 0.025)
