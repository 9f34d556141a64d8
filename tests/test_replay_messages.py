"""A replay keeps each reason's message id and parameters beside its English text (``reason_msg``,
docs/viewer.md "What a replay records"); German pages translate from them, and from the English
text (:func:`kubb3d.i18n.parse`) in replays written before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import i18n_surfaces as surfaces
import kubb3d.i18n as i18n
from kubb3d.i18n import from_data, parse, translator
from kubb3d.judge.messages import join, message_data, msg, names, nmsg, piece_object, recorded

REPLAYS = (
    ("--seed", "1", "--round-cap", "4"),
    ("--ruleset", "ws", "--seed", "2", "--round-cap", "3"),
    ("--ruleset", "kubbuteo", "--seed", "2", "--round-cap", "3"),
)
"""Short seeded DM, WS and Kubbuteo matches (the ones tests/test_i18n_words.py reads)."""

GLITCHES = (
    "{n} glitch in a row: the throw counts as a throw without effect",
    "{n} glitches in a row: the throw counts as a throw without effect",
)
"""A message of the catalog with a count."""

LIES = "{name} lies on the ground{extra}."
"""A message of the catalog (the judge's)."""

OLD = Path(__file__).parent / "data" / "replay_before_message_ids.jsonl"
"""A DM replay (seed 1, 1 Hz trajectories, cut after 17 actions, its result line kept) written at
commit 4c66753, before replays kept message ids: reasons as English text only."""


@pytest.fixture(scope="module")
def replays(short_replays_folder):
    return [surfaces.replay_file(short_replays_folder, *args) for args in REPLAYS]


def holders(path: Path) -> list[dict]:
    """Every dict of a replay that holds a ``reason``: rulings, fouls, the result."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("type") == "outcome":
            out.append(rec)
        for part in (rec.get("judgement"), rec.get("outcome")):
            if isinstance(part, dict):
                out += [r for r in part.get("rulings") or () if isinstance(r, dict)]
        for throw in rec.get("throws") or ():
            out += list(throw.get("violations", ()))
    return [h for h in out if h.get("reason")]


def english_reasons_on_page(path: Path, reasons: set[str]) -> set[str]:
    from kubb3d.web.page import replay_page

    texts = surfaces.page_texts(replay_page(path, translator("de")))
    return {reason for reason in reasons for _, text in texts if reason in text}


def test_translating_from_ids_gives_what_parsing_the_english_gave(replays):
    de = translator("de")
    seen = {}
    for path in replays:
        sentences = {h["reason"] for h in holders(path)}
        assert len(sentences) > 10, path.name  # each game has sentences of its own
        for h in holders(path):
            assert "reason_msg" in h, h["reason"]  # every sentence kept its message
            made = from_data(h["reason"], h["reason_msg"])
            assert made is not None and str(made) == h["reason"]
            parsed = parse(h["reason"])
            assert parsed is not None, h["reason"]
            seen[h["reason"]] = (de(made), de(parsed))
    assert len(seen) >= 40
    differ = {en: pair for en, pair in seen.items() if pair[0] != pair[1]}
    assert not differ, list(differ.items())[:5]
    assert not [en for en, (german, _) in seen.items() if german == en]  # all of them German


def test_a_replay_read_back_shows_no_english_reason_in_german(replays, tmp_path, monkeypatch):
    path = replays[0]
    reasons = {h["reason"] for h in holders(path)}
    # without the ids (and with parsing turned off) the page does show English reasons: the check sees them
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text(path.read_text(encoding="utf-8").replace('"reason_msg":', '"reason_was":'), encoding="utf-8")
    monkeypatch.setattr(i18n, "parse", lambda text, context="": None)
    assert len(english_reasons_on_page(stripped, reasons)) > 3
    assert english_reasons_on_page(path, reasons) == set()  # from the ids alone


def test_a_replay_written_before_still_loads_and_translates(monkeypatch):
    from kubb3d.replay import read_replay

    text = OLD.read_text(encoding="utf-8")
    assert "reason_msg" not in text and json.loads(text.splitlines()[0])["schema"] == 2
    assert len(read_replay(OLD).records) == 18
    reasons = {h["reason"] for h in holders(OLD)}
    assert len(reasons) >= 15
    assert english_reasons_on_page(OLD, reasons) == set()  # parsed back, as before
    de = translator("de")
    assert all(de(recorded(reason)) != reason for reason in reasons)
    monkeypatch.setattr(i18n, "parse", lambda text, context="": None)
    assert len(english_reasons_on_page(OLD, reasons)) >= 4  # the page shows them: parsing is what translates them


def test_a_file_whose_ids_do_not_make_its_text_falls_back_to_the_text(tmp_path):
    de = translator("de")
    lies = msg(LIES, extra="", name="A1")
    data = message_data(lies)
    assert data == {"id": LIES, "params": {"name": "A1", "extra": ""}}
    assert de(recorded(str(lies), data)) == "A1 liegt auf dem Boden."
    # the English edited by hand: its own sentence is parsed, the ids are not used
    assert de(recorded("A2 lies on the ground.", data)) == "A2 liegt auf dem Boden."
    # an id this version has no template for (older wording), a template reaching into its values,
    # wrong types, unknown keys: not used
    for bad in (
        {"id": "{name} lay on the ground{extra}.", "params": {"name": "A1", "extra": ""}},
        {"id": "{name.__class__}", "params": {"name": "A1"}},
        {"id": "{p0.__class__}", "params": {"p0": "A1"}},
        {"id": LIES, "params": {"name": ["A1"], "extra": ""}},
        {"id": LIES, "params": {"name": "A1", "extra": ""}, "more": 1},
        {"id": LIES, "params": {"name": "A1"}},
        {"id": 3},
        LIES,
    ):
        assert from_data(str(lies), bad) is None, bad
    assert de(recorded(str(lies), {"id": "{name.__class__}", "params": {"name": "A1"}})) == "A1 liegt auf dem Boden."


@pytest.mark.parametrize(
    "message",
    [
        msg(LIES, extra="", name=names(["A1", "king"])),
        join([msg(LIES, extra="", name="A1"), "B2"]),
        nmsg(GLITCHES[0], GLITCHES[1], 2, n=2),
        msg(LIES, extra="", name=piece_object("king")),
    ],
    ids=["nested", "join", "plural", "context"],
)
def test_message_data_rebuilds_the_message_through_json(message):
    data = json.loads(json.dumps(message_data(message)))
    made = from_data(str(message), data)
    assert made is not None and str(made) == str(message)
    de = translator("de")
    assert de(made) == de(message)
    assert message_data(made) == data


def test_no_message_data_for_what_json_cannot_keep():
    assert message_data("A1 lies on the ground.") is None  # a plain string
    assert message_data(recorded("A1 lies on the ground.")) is None
    assert message_data(msg("{x:.2f} m", x=float("nan"))) is None
    assert message_data(msg("{x} m", x=True)) is None


def test_docs_give_what_the_ids_add_to_a_replay(replays, root):
    # docs/viewer.md quotes the share the key adds to the DM match's file (held loosely: physics moves the bytes)
    def without(value):
        if isinstance(value, dict):
            return {k: without(v) for k, v in value.items() if k != "reason_msg"}
        return [without(v) for v in value] if isinstance(value, list) else value

    lines = replays[0].read_text(encoding="utf-8").splitlines()
    written = [json.dumps(without(json.loads(line)), separators=(",", ":"), ensure_ascii=False) for line in lines]
    before = sum(len(line.encode("utf-8")) + 1 for line in written)
    now = sum(len(line.encode("utf-8")) + 1 for line in lines)
    doc = " ".join((root / "docs" / "viewer.md").read_text(encoding="utf-8").split())
    quoted = re.search(
        r"The key makes a replay larger: by (\d+) % in the test's DM match \(`kubb3d match (.*?) --replay`", doc
    )
    assert quoted and quoted.group(2).split() == list(REPLAYS[0])
    assert abs(100 * (now / before - 1) - int(quoted.group(1))) <= 4, now / before


def test_a_foul_s_reason_keeps_its_message_too():
    # the seeded matches' computer players throw no foul: a release past the line and beyond a
    # sideline, tilted and turning like a helicopter, judged by the throw check of DM and WS
    import math

    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.match.records import with_message_ids
    from kubb3d.pitch import Pitch
    from kubb3d.throw import FlightMetrics, Release, check_legality

    metrics = FlightMetrics(max_tilt=math.radians(41.3), helicopter=math.radians(212.6), flight_time=None)
    release = Release((-3.62, 2.71, 1.0), (6.0, 0.0, 2.0), (0.0, 5.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    de = translator("de")
    reasons = {}
    for ruleset in ("dm", "ws"):
        rules = get_rulebook(ruleset).throw_rules
        assert rules is not None
        fouls = check_legality(metrics, release, rules, Pitch(8.0, 5.0), "A", None)
        rec = {"type": "action", "throws": [{"violations": [{"rule": v.rule, "reason": v.reason} for v in fouls]}]}
        for row in json.loads(json.dumps(with_message_ids(rec)))["throws"][0]["violations"]:
            reasons[row["reason"]] = de(recorded(row["reason"], row["reason_msg"]))
    assert len(reasons) == 4  # tilt (DM), helicopter (WS), the line and the sideline (both)
    for english, german in reasons.items():
        assert german == de(parse(english)) and german != english, english
