"""Eighth referee examination: Roll Kubb Dames and Kubbuteo situations written from the rule books'
words alone.

Every ``examiner8/*.toml`` and ``examiner8/rkd/*.toml`` quotes, in its leading comment, the clause it
rests on (French or English words, with a translation) and states the ruling it gives; they were
written without reading the judge's, the rules' or the board game's code, the earlier situations'
expected rulings or docs/rules.md. The page docs/examinations/2026-12-06-night.md lists them with
kubb3d's rulings.

RKD (Roll Kubb Dames) is a board game the judge's scenario format cannot hold, so its situations
are small files of their own (a position and checks, :mod:`rkd_situations`) played through the
public engine ``kubb3d.dames.DamesBoard``. KT and WS situations are ordinary judge scenarios.
Relations: mirrored, sides-swapped (turned 180° on the board) and relabelled (the board turned 90°,
seats renamed) copies must be ruled as their originals, transformed; pairs that differ in one fact
the rule book names must differ in that ruling. A judge file kubb3d rules otherwise is listed in
:data:`WRONG` and marked ``xfail(strict=True)``; every RKD file must pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import rkd_situations as rkd
from situation_relations import assert_rules_alike, assert_rules_as_written, judged, marked, renamer

HERE = Path(__file__).resolve().parent / "examiner8"
FILES = sorted(HERE.glob("*.toml"))
RKD_FILES = sorted((HERE / "rkd").glob("*.toml"))

# file -> "<rule book words>: kubb3d rules X" for files kubb3d rules otherwise than the rule book
WRONG: dict[str, str] = {}

"""Baseline kubbs are numbered in +y: mirrored (y -> -y), B1 stands where B5 stood."""

_KUBB_ORIGINALS = [
    "kt8_king_flicked_not_from_baseline_after_clearing",
    "kt8_king_flicked_from_baseline_one_kubb_standing",
    "kt8_baseline_knocked_field_kubb_in_target_half",
    "kt8_baseline_knocked_field_kubb_only_in_own_half",
    "kt8_field_kubb_knocked_baseline_stands",
    "ws8_king_thrown_not_from_baseline_after_clearing",
    "ws8_king_felled_from_front_line_kubb_standing",
]
# copy -> (original, how): how is "mirror" (y -> -y, baseline kubbs renumbered) or "swap" (x -> -x, A <-> B)
COPIES: dict[str, tuple[str, str]] = {
    f"{name}_{suffix}": (name, how)
    for name in _KUBB_ORIGINALS
    for suffix, how in (("by_b", "swap"), ("mirrored", "mirror"))
    if (HERE / f"{name}_{suffix}.toml").is_file()
}

# RKD copy -> (original, how): "swap" (turned 180°, S <-> N), "mirror" (file a <-> h) or "relabel"
# (turned 90° counter-clockwise, seats S -> E -> N -> W -> S)
_RKD_SUFFIX = {"by_n": "swap", "mirrored": "mirror", "turned": "relabel"}
RKD_COPIES: dict[str, tuple[str, str]] = {
    f.stem: (f.stem[: -len(suffix) - 1], how)
    for f in RKD_FILES
    for suffix, how in _RKD_SUFFIX.items()
    if f.stem.endswith("_" + suffix)
}

# (a, b, piece): the two judge files differ in one fact the rule book names, so the piece's
# consequence must differ between them.
FLIPS: list[tuple[str, str, str]] = [
    # the same king felled from the advance point after the half was cleared: KT « losing the game »,
    # WS « the throw is invalid and the king is set up again »
    ("kt8_king_flicked_not_from_baseline_after_clearing", "ws8_king_thrown_not_from_baseline_after_clearing", "king"),
    # KT: from the advance point (lost) or from the baseline (won)
    ("kt8_king_flicked_not_from_baseline_after_clearing", "kt8_king_flicked_from_baseline_after_clearing", "king"),
    # KT: every kubb down (won) or B3 still standing (lost)
    ("kt8_king_flicked_from_baseline_after_clearing", "kt8_king_flicked_from_baseline_one_kubb_standing", "king"),
    # KT: the standing field kubb in the target half (B2 stood up again) or only in the own half (counts)
    ("kt8_baseline_knocked_field_kubb_in_target_half", "kt8_baseline_knocked_field_kubb_only_in_own_half", "B2"),
    # WS: not from the baseline with the half cleared (set up again) or with B4 standing (lost)
    ("ws8_king_thrown_not_from_baseline_after_clearing", "ws8_king_felled_from_front_line_kubb_standing", "king"),
    # WS: the cleared half's king from the front line (set up again) or from the baseline (won)
    ("ws8_king_thrown_not_from_baseline_after_clearing", "ws8_king_thrown_from_baseline_after_clearing", "king"),
]

# (a, b, key): RKD positions differing in one named fact; the first check's ``key`` must differ.
RKD_FLIPS: list[tuple[str, str, str]] = [
    ("rkd8_path_retraces_its_steps", "rkd8_path_turns_twice_one_line_ahead", "legal"),  # « revenir sur ses pas »
    ("rkd8_ti_kubb_blocks_the_path", "rkd8_ti_kubb_beside_the_path", "legal"),  # ti-kubb « bloquer »
    ("rkd8_sideways_without_attack", "rkd8_sideways_attack_takes", "legal"),  # « sauf quand il attaque »
    ("rkd8_backward_without_attack", "rkd8_backward_attack_takes", "legal"),
    ("rkd8_sideways_next_to_frozen_only", "rkd8_sideways_next_to_unfrozen", "legal"),  # « ni être combattus »
    ("rkd8_frozen_kubb_is_not_fought", "rkd8_unfrozen_kubb_is_fought", "removed"),
    ("rkd8_combat_higher_value_takes", "rkd8_combat_attacker_lower_is_taken", "removed"),  # higher value takes
    ("rkd8_combat_attacker_lower_is_taken", "rkd8_combat_equal_both_out", "removed"),  # equal: both out
    ("rkd8_all_on_last_line_most_points_wins", "rkd8_all_on_last_line_fewer_points_loses", "winner"),
    ("rkd8_blockade_ends_the_game", "rkd8_no_blockade_with_one_roll_left", "over"),  # « blocage »
    ("rkd8_ti_kubb_placement_blocks_opponent", "rkd8_ti_kubb_placement_leaves_a_roll", "over"),
    ("rkd8_frozen_kubb_has_no_roll", "rkd8_kubb_one_line_short_attacks", "ends"),  # « figés »
]


def _path(name: str) -> Path:
    return HERE / (name + ".toml")


def _rkd_path(name: str) -> Path:
    return HERE / "rkd" / (name + ".toml")


def _head(f: Path) -> str:
    return "".join(line for line in f.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))


def test_the_round_has_at_least_40_new_situations_each_quoting_its_clause():
    originals = [f for f in FILES if f.stem not in COPIES] + [f for f in RKD_FILES if f.stem not in RKD_COPIES]
    assert len(originals) >= 40 and len(COPIES) + len(RKD_COPIES) >= 20
    names = {f.stem for f in FILES}
    assert set(WRONG) <= names
    for copy, (original, _) in COPIES.items():
        assert _path(original).is_file(), (copy, original)
    for copy, (original, _) in RKD_COPIES.items():
        assert _rkd_path(original).is_file(), (copy, original)
    for a, b, _ in FLIPS:
        assert _path(a).is_file() and _path(b).is_file(), (a, b)
    for a, b, _ in RKD_FLIPS:
        assert _rkd_path(a).is_file() and _rkd_path(b).is_file(), (a, b)
    for f in FILES + RKD_FILES:
        head = _head(f)
        assert re.search(r"\b(WS|KT|RKD)\b", head) and re.search(r"[«\"]", head), f.name
        assert "Expected" in head, f.name  # the comment states the ruling


@pytest.mark.parametrize("path", [marked(f, WRONG) for f in FILES])
def test_situation_rules_as_the_rule_book_says(judge_app, path):
    assert_rules_as_written(judge_app, path)


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_copies_rule_as_their_originals(judge_app, copy):
    original, how = COPIES[copy]
    a = judged(judge_app, _path(original))
    b = judged(judge_app, _path(copy))
    rename = renamer(how)
    assert_rules_alike(a, b, how, rename)


@pytest.mark.parametrize("a, b, piece", FLIPS, ids=[f"{b}-{piece}" for _, b, piece in FLIPS])
def test_one_named_fact_flips_the_ruling(judge_app, a, b, piece):
    ra = {r["piece"]: r for r in judged(judge_app, _path(a))["rulings"]}[piece]
    rb = {r["piece"]: r for r in judged(judge_app, _path(b))["rulings"]}[piece]
    assert ra["consequence"] != rb["consequence"], (ra["consequence"], rb["consequence"])


@pytest.mark.parametrize("path", RKD_FILES, ids=[f.stem for f in RKD_FILES])
def test_rkd_situation_plays_as_the_rule_book_says(path):
    doc = rkd.load(path)
    for check in doc["check"]:
        got = rkd.observe(doc, check)
        assert rkd.expected_part(check, got) == rkd.stated(check), check


@pytest.mark.parametrize("copy", sorted(RKD_COPIES))
def test_rkd_copies_play_as_their_originals(copy):
    original, how = RKD_COPIES[copy]
    a, b = rkd.load(_rkd_path(original)), rkd.load(_rkd_path(copy))
    assert rkd.same_position(rkd.transformed_doc(a, how), b), "the copy is not the original transformed"
    for ca, cb in zip(a["check"], b["check"], strict=True):
        got_a, got_b = rkd.observe(a, ca), rkd.observe(b, cb)
        assert {k: rkd.t_value(k, v, how) for k, v in got_a.items()} == got_b, (ca, cb)


@pytest.mark.parametrize("a, b, key", RKD_FLIPS, ids=[f"{b}-{key}" for _, b, key in RKD_FLIPS])
def test_rkd_one_named_fact_flips_the_ruling(a, b, key):
    da, db = rkd.load(_rkd_path(a)), rkd.load(_rkd_path(b))
    ga, gb = rkd.observe(da, da["check"][0]), rkd.observe(db, db["check"][0])
    assert ga.get(key) != gb.get(key), (ga.get(key), gb.get(key))


def test_the_examination_page_counts_its_files():
    """The situations, copies and one-fact pairs of docs/examinations/2026-12-06-night.md's counts
    table are these files' (its verdict columns are the day's record, before the RKD fix)."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "examinations" / "2026-12-06-night.md").read_text(
        encoding="utf-8"
    )

    def row(label: str) -> tuple[int, int, int]:
        found = re.search(r"^\| " + re.escape(label) + r"[^|]* \| (\d+) \| (\d+) \| (\d+) \|", page, re.MULTILINE)
        assert found, label
        return tuple(int(n) for n in found.groups())

    rkd = [f.stem for f in RKD_FILES if f.stem not in RKD_COPIES]
    judge = [f.stem for f in FILES if f.stem not in COPIES]
    pairs = lambda prefix: sum(a.startswith(prefix) for a, _, _ in FLIPS)  # noqa: E731
    assert row("RKD positions") == (len(rkd), len(RKD_COPIES), len(RKD_FLIPS))
    for book, prefix in (("KT", "kt8"), ("WS", "ws8")):
        copies = sum(c.startswith(prefix) for c in COPIES)
        assert row(f"{book} judge scenarios") == (sum(n.startswith(prefix) for n in judge), copies, pairs(prefix))
    assert row("total") == (len(rkd) + len(judge), len(RKD_COPIES) + len(COPIES), len(RKD_FLIPS) + len(FLIPS))
