"""Rule books (kubb3d.judge.rulebook): one registry of ruleset names, the judge cites from the
book in force and never branches on a ruleset's name, and a new book is all a new rule set needs."""

import ast
import dataclasses
from pathlib import Path

import pytest
from helpers import king, kubb, leaning_pair, snap

import kubb3d.judge
from kubb3d.judge import Consequence, ThrowContext, judge_throw
from kubb3d.judge import rulebook as rb
from kubb3d.judge.citations import is_known
from kubb3d.judge.options import OPTIONS, default
from kubb3d.rules import get_ruleset, ruleset_names

JUDGE = Path(kubb3d.judge.__file__).parent
BORROWED = {("wikinger", "warning")}  # WS has no warning clause: DM §5's


def test_one_registry_of_names():
    assert rb.rulebook_names() == ["dm", "wikinger", "kubbuteo"]
    assert rb.rulebook_names(baton_throws=True) == ["dm", "wikinger"]
    # every rule book has a rules-engine class, and every engine class a rule book
    assert ruleset_names() == sorted(rb.rulebook_names())
    for name in ruleset_names():
        assert get_ruleset(name).book is rb.get_rulebook(name)
    known = r"dm \(dm\), wikinger \(ws\), kubbuteo \(kt\)"
    with pytest.raises(ValueError, match=r"unknown ruleset 'vm'; expected one of " + known):
        rb.get_rulebook("vm")


def test_books_cite_known_rules_of_their_own_seed():
    for name in rb.rulebook_names():
        book = rb.get_rulebook(name)
        cites = dataclasses.asdict(book.cites)
        assert set(cites) == {f.name for f in dataclasses.fields(rb.JudgeCitations)}
        events = [(k, (v,)) for k, v in book.events.items()]
        for situation, rules in [*cites.items(), ("glitch", (book.glitch,)), *events]:
            assert rules and all(is_known(r) for r in rules), (name, situation, rules)
            # each situation cites the book's own seed first (DM's raising rule may back up WS),
            # except where a book borrows another's clause by analogy
            if (name, situation) not in BORROWED:
                assert rules[0].startswith(book.seed + " ") or rules[0].startswith("kubb3d decision"), (name, situation)


def test_engine_and_judge_agree_on_penalty_kubbs():
    for name in ruleset_names():
        assert get_ruleset(name).penalty == rb.get_rulebook(name).penalty, name


def test_judge_has_no_branch_on_a_ruleset_name():
    """No comparison of a ruleset (or anything) with the name of a ruleset in the judge's code:
    what differs between rulesets is read from the rule book (issue #14)."""
    names = set(rb.rulebook_names())
    found = []
    for path in sorted(JUDGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                consts = [c.value for c in [node.left, *node.comparators] if isinstance(c, ast.Constant)]
                if any(isinstance(c, str) and c in names for c in consts):
                    found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Name) and node.test.id == "dm":
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found


def test_a_new_rule_book_is_all_the_judge_needs(monkeypatch):
    """A rule book registered under a new name is judged with its own citations."""
    dm = rb.get_rulebook("dm")
    vm = dataclasses.replace(
        dm,
        name="vm",
        seed="DM",
        cites=dataclasses.replace(dm.cites, leaning=("DM §7",), game_end=("DM §2",)),
        options={o.name: o.defaults["dm"] for o in OPTIONS} | {"own_half_knock": "raise at end of round"},
    )
    monkeypatch.setitem(rb._BOOKS, "vm", vm)
    s, l, c = leaning_pair(30)
    j = judge_throw(snap(s, l, king(), contacts=[c]), ThrowContext(ruleset="vm", field_kubbs=frozenset({"S", "L"})))
    assert j.ruling("L").consequence is Consequence.COUNTS_AS_FELLED and j.ruling("L").rules == ("DM §7",)
    early = judge_throw(snap(king(lying=True), kubb("B3", 4.0, 0.0)), ThrowContext(ruleset="vm", thrower="A"))
    assert early.ruling("king").consequence is Consequence.GAME_LOST and early.ruling("king").rules == ("DM §2",)
    assert default("own_half_knock", "vm") == "raise at end of round" and default("own_half_knock", "dm") == "raise now"
    monkeypatch.setitem(rb._BOOKS, "vm", dataclasses.replace(vm, options={}))
    with pytest.raises(ValueError, match="gives no default for the referee option 'own_half_knock'"):
        default("own_half_knock", "vm")


def test_every_book_has_a_default_for_every_referee_option():
    for name in rb.rulebook_names():
        for o in OPTIONS:
            value = default(o.name, name)
            assert o.choices is None or value in o.choices or value is None, (name, o.name, value)


def test_kubbuteo_has_no_baton_throws():
    from kubb3d.physics.world import World
    from kubb3d.throw import ThrowParams, throw

    with World("standard", stakes=False) as w, pytest.raises(ValueError, match="has no baton throws"):
        throw(w, ThrowParams(side="A"), ruleset="kubbuteo")
