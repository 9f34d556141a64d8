"""Sabotaged Kubbuteo play (tests/kubbuteo/kt_invalid_play.py): kubb3d's referee against the
independent KT one, one whole match (docs/examinations/2026-12-07-ws-invalid.md, finding 8)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kt_comparison import compare_match  # noqa: E402
from kt_invalid_play import record_kt_invalid_match  # noqa: E402


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
