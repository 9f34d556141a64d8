"""Rules-engine rules at their boundaries, DM and WS (issue #37 item 5: each test here kills
mutants of kubb3d/rules that survived the fast tests; docs/mutation.md)."""

from __future__ import annotations

import pytest

from kubb3d.rules import get_ruleset


def test_dm_baton_schedule_2_4_then_6():
    """DM §4: "Spieler A startet mit 2 Hölzern, B wirft 4, danach erhält jeder Spieler pro
    Wurfrunde 6 Hölzer."; a turn number below 1 is refused with the number named."""
    dm = get_ruleset("dm")
    assert [dm.batons_for_turn(t) for t in (1, 2, 3, 4, 9)] == [2, 4, 6, 6, 6]
    with pytest.raises(ValueError, match="^turn numbers start at 1, got 0$"):
        dm.batons_for_turn(0)
