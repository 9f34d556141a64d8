"""The words of each ruling on every shipped scenario: one spot written one way in one ruling,
no explanation that contradicts itself, and an option that decided a ruling named in it.

The scenarios are built (settled in physics) once for the module and judged as often as needed
(``kubb3d.scenario.judge_built``), so a relation over all of them stays fast."""

from __future__ import annotations

import re

import pytest

from kubb3d.cli.judge import _format
from kubb3d.judge.messages import number_text
from kubb3d.judge.options import BY_NAME, default, option_cite
from kubb3d.library import resolve_scenario, scenarios_dir
from kubb3d.scenario import Result, build, judge_built

PATHS = sorted(scenarios_dir().glob("*.toml"))
SPOT = re.compile(r"at \((-?\d+\.\d+), (-?\d+\.\d+)\) m")


@pytest.fixture(scope="module")
def built():
    out = {}
    for p in PATHS:
        b = build(p)
        out[p.stem] = b
    yield out
    for b in out.values():
        b.close()


def test_the_library_is_all_here(built):
    assert len(built) == len(PATHS) >= 70


def test_one_spot_is_written_one_way_in_one_ruling(built):
    """``raise here (at (-2.105, -0.035) m)`` beside ``raised … at (-2.10, -0.03) m`` was one
    spot in two precisions; the judge line and the reason now agree."""
    seen = 0
    for name, b in built.items():
        judgement, _ = judge_built(b)
        text = _format(Result(b.path, b.spec, judgement))
        lines = text.splitlines()[1:]
        for ruling, line, reason in zip(judgement.rulings, lines[0::2], lines[1::2]):
            spots = SPOT.findall(line) + SPOT.findall(reason)
            if ruling.raised_pose is None:
                continue
            x, y = ruling.raised_pose.position[:2]
            assert SPOT.findall(line) == [(number_text(x, ".2f"), number_text(y, ".2f"))], (name, line)
            assert len(set(spots)) == 1, (name, line, reason)
            seen += len(SPOT.findall(reason))
    assert seen >= 10  # reasons that give the spot were compared


CONTRADICTIONS = (
    # (what one part says, what another part says): never both about one piece
    (re.compile(r"\braised over its short edge|\bis raised\b|\btipped (up|into)\b"),
     re.compile(r"stays as it stands|stays standing|\bnot tipped\b")),
    (re.compile(r"\bis valid\b"), re.compile(r"\bis invalid\b|thrown again|penalty kubb")),
    (re.compile(r"→ counts as felled"), re.compile(r"\bdoes not count\b|\bstill stands\b(?! again)")),
    (re.compile(r"→ none\b"),
     re.compile(r"\bis raised\b|set up again|stood up again|set back|counts as (felled|fallen)")),
)


def explanations(built):
    """(scenario, piece, the quiz's answer: the ruling line, the reason and the scenario's
    explanation) for every ruling of every shipped scenario."""
    from kubb3d.quiz import ruling_line

    for name, b in built.items():
        judgement, _ = judge_built(b)
        asked = b.spec.quiz or [e.piece for e in b.spec.expect[:1]]
        for r in judgement.rulings:  # the scenario's explanation follows the asked pieces' answers
            told = b.spec.explanation if r.piece in asked else ""
            yield name, r, "\n".join((ruling_line(r.piece, r), r.reason, told))


def test_no_explanation_says_a_piece_is_raised_and_stays_as_it_stands(built):
    """``dm_inkast_landed_upright`` said ``B1 is valid and is raised over its short edge …: it
    landed upright on its base`` and then ``It stays as it stands``."""
    found = []
    for name, r, text in explanations(built):
        for a, b in CONTRADICTIONS:
            if a.search(text) and b.search(text):
                found.append((name, r.piece, a.pattern, b.pattern, text))
    assert found == []


def test_the_patterns_catch_the_old_wording():
    old = ("B1 is standing → raise here (DM §7).\nB1 is valid and is raised over its short edge at (-1.20, 0.70) m: "
           "it landed upright on its base.\nIt stays as it stands.")
    a, b = CONTRADICTIONS[0]
    assert a.search(old) and b.search(old)


JUDGE_OPTIONS = [
    (o.name, value)
    for o in BY_NAME.values()
    if o.applies == "judge"
    for value in o.choices
]


def test_every_ruling_an_option_changes_names_the_option(built):
    """For every referee option the judge reads, each value other than the rule book's default,
    and every shipped scenario: each ruling the option changes (against the scenario judged
    under its own options) names the option in its reason and cites it, and does not keep the
    citations of the default's ruling alone (``standing_outside=stays`` once gave B1 the bare
    'stands on its base …' with DM §5 only)."""
    changed = {}
    for name, value in JUDGE_OPTIONS:
        for stem, b in built.items():
            if value == b.spec.options.get(name, default(name, b.spec.ruleset)):
                continue  # the scenario's own value
            own, _ = judge_built(b)
            other, _ = judge_built(b, {name: value})
            before = {r.piece: r for r in own.rulings}
            for r in other.rulings:
                if before.get(r.piece) == r:
                    continue
                changed.setdefault((name, value), []).append(f"{stem}:{r.piece}")
                cite = option_cite(name, value)
                assert name in r.reason and cite in r.rules, (stem, r.piece, r.reason, r.rules)
                assert str(before[r.piece].reason) != str(r.reason)
    # the relation is not empty: these options change rulings of the shipped library
    assert {("standing_outside", "stays"), ("field_kubb_inside", "half"), ("first_foul_warning", True),
            ("own_half_knock", "raise at end of round")} <= set(changed), changed


def test_judging_under_another_option_compares_only_what_it_leaves(built):
    """``judge --option standing_outside=stays`` printed three 'differs from expected' lines for
    B1, whose expectations are for the default; now B1 is named as not compared and the rest
    is compared."""
    from kubb3d.scenario import run

    res, _ = run(resolve_scenario("dm_standing_pushed_across_sideline"), options={"standing_outside": "stays"})
    assert res.mismatches == [] and res.not_compared == ("B1",)
    res, _ = run(resolve_scenario("dm_standing_pushed_across_sideline"), options={"standing_outside": "set inside"})
    assert res.mismatches == [] and res.not_compared == ()
    # an option that changes nothing in a scenario leaves every expectation compared
    res, _ = run(resolve_scenario("dm_leaning_on_field_kubb"), options={"standing_outside": "stays"})
    assert res.not_compared == () and res.mismatches == []


BARELY_OVER = """schema = 1
title = "a kubb barely over the sideline"
ruleset = "dm"
event = "inkast"

[options]
field_kubb_inside = "half"

[inkast]
inkasting_side = "B"
inkasted = ["B2"]

[[pieces]]
id = "B2"
place = "lying"
at = [-2.0, {y}]
yaw_deg = 0
"""


@pytest.mark.parametrize("over_mm", [0.1, 0.4, 2.0, 20.0])
def test_a_share_of_the_base_inside_is_never_rounded_up_to_all_of_it(tmp_path, over_mm):
    """Under field_kubb_inside = half a kubb whose raised base crosses the sideline by 0.1 mm was
    "valid … 100% of its base is inside the field", the same kubb the default rules out for not
    standing wholly inside. The share is written rounded down: what is not all of it never reads
    as 100 %, and the figure is the whole per cent below the share (60 mm wide base)."""
    from kubb3d.equipment import EQUIPMENT_SETS

    half = EQUIPMENT_SETS["dm-small"].kubb.width / 2
    path = tmp_path / "barely.toml"
    path.write_text(BARELY_OVER.format(y=2.5 - half + over_mm / 1000), encoding="utf-8")
    b = build(path)
    try:
        judgement, _ = judge_built(b)
    finally:
        b.close()
    (ruling,) = [r for r in judgement.rulings if r.piece == "B2"]
    share = 1 - over_mm / 1000 / (2 * half)
    assert ruling.valid and f"{int(share * 100)}% of its base is inside" in str(ruling.reason), ruling.reason
