"""Sabotaged Kubbuteo play (tests/kubbuteo/kt_invalid_play.py): kubb3d's referee against the
independent KT one (docs/examinations/2026-12-07-ws-invalid.md, finding 8): one whole match,
and the calls stored in tests/data/kt_invalid_positions.json (``kubbuteo_referee_play.py
--load FILE --store … --cases …``) judged again as played and under the board's mirrors."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kt_comparison import compare_match  # noqa: E402
from kt_invalid_play import record_kt_invalid_match  # noqa: E402
from test_kt_play_referee import MIRRORS, _checks, _variant  # noqa: E402


def test_a_sabotaged_kubbuteo_match_agrees_throughout():
    """Seed 1 of ``--invalid 0.2``: twelve flicks at kubbs from nearer the centre (counted: KT
    gives no consequence), a return released in front of the baseline (counted), misflicked
    returns reflicked and one placed, and a baton flicked at the king that knocks it over: A
    loses ("the offending player immediately loses the game"). Every compared check agrees."""
    positions, records = record_kt_invalid_match(1, rate=0.2)
    checks = compare_match(positions, records)
    bad = [c for c in checks if not c.agrees and "info" not in c.kind]
    assert bad == [], [(c.kind, c.call, c.mine, c.theirs, c.note) for c in bad]
    kinds = Counter(c.kind for c in checks)
    assert kinds["flick:line(info, at kubbs, from nearer the centre)"] == 12
    assert kinds["return:from-baseline(info, released in front of it)"] == 1
    misflicks = Counter(c.theirs for c in checks if c.kind == "return:misflick")
    assert misflicks == Counter({"reflick": 6, "placed": 1})
    verdicts = [(c.mine, c.theirs) for c in checks if c.kind == "flick:verdict" and c.mine != (None, None)]
    assert verdicts == [(("B", "A"), ("B", "A"))]
    done = next(r for r in records if r.get("type") == "sabotage")["done"]
    assert sum(kind == "king" for d in done.values() for _, kind in d) == 3


DATA = Path(__file__).resolve().parents[1] / "data" / "kt_invalid_positions.json"
STORED = {c["name"]: c for c in json.loads(DATA.read_text(encoding="utf-8"))["cases"]}

# name: (the counted kind, the verdict (winner, loser) as played)
EXPECT = {
    # 6.1 cm nearer the centre than A's advance line: KT gives no consequence (counted)
    "flick-at-kubbs-from-nearer-the-centre": ("flick:line(info, at kubbs, from nearer the centre)", (None, None)),
    # "fallen kubbs are returned from the original baseline": no consequence (counted)
    "return-from-in-front-of-the-baseline": ("return:from-baseline(info, released in front of it)", None),
    # "if at any time during the game the King is knocked down by a poorly flicked baton, the
    # offending player immediately loses the game"
    "baton-at-the-king-early": (None, ("B", "A")),
    # "Knocking over the King from anywhere but the baseline will result in losing the game":
    # B's king flick from 3.3 cm in front of its baseline knocks the king over; B loses
    "king-flick-from-in-front-of-the-baseline": ("flick:line(info, at the king, from nearer the centre)", ("A", "B")),
}


@pytest.mark.parametrize("mirror", MIRRORS)
@pytest.mark.parametrize("name", list(EXPECT))
def test_stored_sabotaged_call(name, mirror):
    """The stored call judged again by kubb3d and the independent KT referee, as played, with
    the ends swapped, mirrored across the board's long axis, and both: they agree, the stance
    is counted, and the verdict is the one listed (its sides swapped with the ends)."""
    pos, prior = _variant(STORED[name], mirror)
    checks = _checks(pos, prior)
    bad = [c for c in checks if not c.agrees and "info" not in c.kind]
    assert bad == [], [(c.kind, c.piece, c.mine, c.theirs, c.note) for c in bad]
    counted, verdict = EXPECT[name]
    if counted is not None:
        assert sum(c.kind == counted for c in checks) == 1
    if verdict is not None:
        if "swap" in mirror:
            verdict = tuple({"A": "B", "B": "A"}.get(s, s) for s in verdict)  # type: ignore[assignment]
        v = next(c for c in checks if c.kind == "flick:verdict")
        assert v.mine == v.theirs == verdict
