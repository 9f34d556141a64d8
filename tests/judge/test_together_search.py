"""kubb3d.judge.together.search, the depth-first search of the joint raising (DM §7 "so
aufzustellen, dass möglichst alle mit ihrer gesamten Grundfläche im Feld stehen"), on a plan
whose raisings are given by hand: what it keeps (as many kubbs valid as possible, then as many
wholly inside), that it leaves a kubb that cannot be valid lying and ends, and that a set of
raised kubbs standing where an earlier branch put them is not searched again."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kubb3d.judge import together


def _opt(x: float, inside: bool) -> SimpleNamespace:
    """A raising that stands the kubb at (x, 0), wholly inside or not (valid either way)."""
    return SimpleNamespace(pose=SimpleNamespace(position=(x, 0.0, 0.1)), inside=inside)


class _Plan:
    """What search reads and changes of a _RaisingPlan: the four dicts of together.saved, and
    raisings/take, here from a table ``ways(kid, chosen) -> [option or None, ...]``."""

    def __init__(self, ways):
        self.ways = ways
        self.obstacles: dict = {}
        self.chosen: dict = {}
        self.options: dict = {}
        self.notes: dict = {}
        self.asked: list[tuple[str, tuple]] = []

    def raisings(self, kid):
        state = tuple(sorted((k, together._where(o)) for k, o in self.chosen.items()))
        self.asked.append((kid, state))
        return [(o, False) for o in self.ways(kid, self.chosen)]

    def take(self, kid, raising):
        opt, _ = raising
        self.chosen[kid] = opt
        self.obstacles[kid] = kid
        return (0, 0) if opt is None else (1, int(opt.inside))


def _bounds(table, limit=50):
    """together.bound from a table; refuses to be asked more than ``limit`` times (a search that
    never ends would ask for ever)."""
    calls = []

    def bound(plan, kid, group):
        calls.append(kid)
        assert len(calls) <= limit, "search asks for bounds without end"
        return table[kid]

    return bound


def test_a_second_valid_kubb_counts_more_than_a_first_one_wholly_inside(monkeypatch):
    """DM §7 "möglichst alle": K0's preferred raising (wholly inside) leaves K1 no valid raising,
    its other one (wholly inside too) leaves K1 valid though partly out. Two valid kubbs, one
    wholly inside, beat one valid kubb wholly inside: the search keeps K0's second raising."""
    a1, a2, b1 = _opt(0.0, True), _opt(1.0, True), _opt(2.0, False)

    def ways(kid, chosen):
        if kid == "K0":
            return [a1, a2]
        return [None] if chosen.get("K0") is a1 else [b1]

    monkeypatch.setattr(together, "bound", _bounds({"K0": (1, 1), "K1": (1, 0)}))
    plan = _Plan(ways)
    together.search(plan, ["K0", "K1"])
    assert plan.chosen == {"K0": a2, "K1": b1}


def test_more_wholly_inside_decides_between_raisings_with_as_many_valid(monkeypatch):
    """Both ways keep both kubbs valid; the second has both wholly inside ("mit ihrer gesamten
    Grundfläche im Feld"), the first only one: the second is kept."""
    a1, a2, b_out, b_in = _opt(0.0, True), _opt(1.0, True), _opt(2.0, False), _opt(3.0, True)

    def ways(kid, chosen):
        if kid == "K0":
            return [a1, a2]
        return [b_out] if chosen.get("K0") is a1 else [b_in]

    monkeypatch.setattr(together, "bound", _bounds({"K0": (1, 1), "K1": (1, 1)}))
    plan = _Plan(ways)
    together.search(plan, ["K0", "K1"])
    assert plan.chosen == {"K0": a2, "K1": b_in}


def test_a_kubb_that_cannot_be_valid_is_left_lying_and_the_search_ends(monkeypatch):
    """K1 can be neither valid nor inside (bound (0, 0)): it is taken as its first raising gives it
    (invalid, it stays lying) before the others are searched, and the search ends with K0 and K2
    raised as preferred."""
    a, c = _opt(0.0, True), _opt(1.0, True)

    def ways(kid, chosen):
        return {"K0": [a], "K1": [None], "K2": [c]}[kid]

    monkeypatch.setattr(together, "bound", _bounds({"K0": (1, 1), "K1": (0, 0), "K2": (1, 1)}))
    plan = _Plan(ways)
    together.search(plan, ["K0", "K1", "K2"])
    assert plan.chosen == {"K0": a, "K1": None, "K2": c}
    assert plan.asked[0] == ("K1", ())


@pytest.mark.parametrize("group", [["K0", "K1", "K2"], ["K2", "K0", "K1"]])
def test_raised_kubbs_standing_where_an_earlier_branch_put_them_are_not_searched_again(monkeypatch, group):
    """Each kubb has one raising, to the same spot whatever the order; K2's never valid although
    its bound says it could be, so the search never reaches its bound and tries every order. K0
    then K1 stands them where K1 then K0 did: the second order is not searched on, so no kubb's
    raisings are asked twice with the same kubbs standing at the same spots."""
    spots = {"K0": _opt(0.0, True), "K1": _opt(1.0, True), "K2": None}
    monkeypatch.setattr(together, "bound", _bounds({"K0": (1, 1), "K1": (1, 1), "K2": (1, 1)}))
    plan = _Plan(lambda kid, chosen: [spots[kid]])
    together.search(plan, group)
    assert len(plan.asked) == len(set(plan.asked))
    assert plan.chosen == spots
    assert ("K2", (("K0", (0.0, 0.0)), ("K1", (1.0, 0.0)))) in plan.asked
