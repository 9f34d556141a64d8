"""The match package's layout (issue #31 step 3): the flow of pieces is chosen by the ruleset
object, never by its name, and the modules stay small enough to read."""

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from kubb3d.equipment import get_set
from kubb3d.match import FlickFlow, ThrowFlow
from kubb3d.match.core import flow_for
from kubb3d.rules import get_ruleset, ruleset_names
from kubb3d.rules.dm import DM

PACKAGE = Path(__file__).resolve().parents[2] / "kubb3d" / "match"
NAMES = {"dm", "wikinger", "kubbuteo", "ws", "kt", "rkd"}


def _name_tests(source: str) -> list[str]:
    """``x == "dm"``-like comparisons with a ruleset's name (or its rule book's short name)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            words = [s.value.lower() for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
            if any(word in NAMES for word in words):
                out.append(f"line {node.lineno}: {ast.unparse(node)}")
    return out


def test_the_match_tests_no_ruleset_name():
    found = {p.name: _name_tests(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.glob("*.py"))}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_name_scan_sees_one():
    assert _name_tests('if config.ruleset != "wikinger":\n    pass\n') == ["line 1: config.ruleset != 'wikinger'"]
    assert _name_tests("if ruleset.team_size > 1:\n    pass\n") == []


@pytest.mark.parametrize("name", ruleset_names())
def test_the_flow_follows_the_rulesets_flicks_and_its_board(name):
    ruleset = get_ruleset(name)
    flow = flow_for(ruleset)
    assert isinstance(flow, FlickFlow if ruleset.flicks else ThrowFlow)
    assert flow.flicks is ruleset.flicks
    # flicking needs a board and a board is played by flicking (what the match once tested)
    assert ruleset.flicks == (get_set(ruleset.equipment).board is not None)


def test_a_new_ruleset_that_flicks_gets_the_flick_flow_without_a_name():
    @dataclass(frozen=True)
    class FlickedDM(DM):
        flicks: bool = True

    assert isinstance(flow_for(FlickedDM()), FlickFlow)
    assert isinstance(flow_for(DM()), ThrowFlow)


def test_no_module_of_the_match_is_a_room_everyone_passes_through():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert len(sizes) >= 8 and max(sizes.values()) < 600, sizes


def test_names_and_team_sizes_follow_the_ruleset_not_its_spelling():
    """The match once compared ``config.ruleset`` with "wikinger": the rule book's short name
    ``ws`` then got duel names and had its team sizes refused."""
    from kubb3d.errors import MatchSetupError
    from kubb3d.match import Match, MatchConfig

    for name in ("wikinger", "ws"):
        assert MatchConfig(ruleset=name).player_names() == ("T1", "T2")
        m = Match(MatchConfig(ruleset=name, team_size=(3, 4)))
        assert m.state.team_sizes == {"T1": 3, "T2": 4}
        m.close()
    for name in ("dm", "kubbuteo", "kt"):
        assert MatchConfig(ruleset=name).player_names() == ("P1", "P2")
        with pytest.raises(MatchSetupError, match="team sizes apply"):
            Match(MatchConfig(ruleset=name, team_size=2))
