"""A foul throw's citations by rule book, and the ruleset alias of the config's validator
(tenth mutation round, docs/mutation.md)."""

from __future__ import annotations

from kubb3d.judge.rulebook import get_rulebook, ruleset_alias


def test_a_book_that_cites_violations_cites_the_rules_the_foul_broke():
    """DM and WS cite the rule each violation broke (WS basic rule 6 for a throw from beyond the
    sideline); a book without ``cite_violations`` (KT) and a foul with no rule cite the book's
    foul citation."""
    for name in ("dm", "wikinger"):
        book = get_rulebook(name)
        assert book.cite_violations is True
        assert book.foul_cites(("WS basic rule 6",)) == ("WS basic rule 6",)
        assert book.foul_cites(()) == book.cites.foul
    kt = get_rulebook("kubbuteo")
    assert kt.cite_violations is False
    assert kt.foul_cites(("WS basic rule 6",)) == kt.cites.foul != ("WS basic rule 6",)


def test_the_ruleset_alias_maps_short_names_and_leaves_the_rest_to_the_validator():
    """``ws`` and ``KT`` become registered names; an unknown name and a value that is no string
    come back unchanged (the field validator refuses them in one line), never an exception."""
    assert ruleset_alias("ws") == "wikinger"
    assert ruleset_alias("KT") == "kubbuteo"
    assert ruleset_alias("nope") == "nope"
    assert ruleset_alias(3) == 3
    assert ruleset_alias(None) is None
