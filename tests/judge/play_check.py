"""The one check a play examination's comparison makes (tests/judge/play_comparison.py,
tests/judge/ws_play_comparison.py, tests/kubbuteo/kt_comparison.py): what kind of decision,
on which piece, the independent referee's answer (``mine``) and kubb3d's (``theirs``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Check:
    kind: str
    piece: str
    mine: Any
    theirs: Any
    note: str = ""
    call: int = -1
    seed: int = -1
    agree: bool | None = None  # when set, the verdict itself (answers that need not be equal)

    @property
    def agrees(self) -> bool:
        return self.mine == self.theirs if self.agree is None else self.agree


def assert_stored_checks(
    case: dict[str, Any], checks: list[Check], known: str, error: type[AssertionError], *, skip_info: bool = False
) -> None:
    """A stored case's checks: each of its ``expect_kinds`` made, and every check agreeing,
    but where the case names kubb3d's known reading (``case[known]``): then only the kinds the
    case is kept for may differ, and ``error`` is raised with them (a strict xfail)."""
    kinds = Counter(c.kind for c in checks)
    for kind in case["expect_kinds"]:
        assert kinds[kind] > 0, f"no {kind} check on this position"
    bad = [c for c in checks if not c.agrees and not (skip_info and "info" in c.kind)]
    text = "\n".join(f"{c.kind} {c.piece}: mine {c.mine} kubb3d {c.theirs} ({c.note})" for c in bad)
    if case.get(known) and bad:
        # only the disagreement the case is kept for may remain (else a real failure)
        assert {c.kind for c in bad} <= set(case["expect_kinds"]), text
        raise error(text)
    assert bad == [], text
