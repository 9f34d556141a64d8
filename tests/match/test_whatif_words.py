"""The words of ``kubb3d whatif``'s refusals of a choice the action does not offer: a new user's
``whatif --at 10 --target B5`` at an inkast said "action 10 is Inkast, expected BatonThrow" (the
names of the classes)."""

from __future__ import annotations

import re

import pytest

from kubb3d.match import Match, MatchConfig
from kubb3d.rules.actions import ACTION_TYPES
from kubb3d.whatif import ACTION_WORDS, Choice, WhatIfError, check_choice, read_recorded


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("whatif") / "capped.jsonl"
    Match(MatchConfig(ruleset="dm", seed=2, round_cap=4), replay=path).run()
    return read_recorded(path)


def test_every_action_type_has_words_without_a_class_name():
    assert set(ACTION_WORDS) == set(ACTION_TYPES)
    for kind, words in ACTION_WORDS.items():
        assert re.fullmatch(r"an? [a-z -]+", words) and kind not in words, (kind, words)


def test_every_other_kind_of_action_is_refused_in_words(recorded):
    kinds = {}
    for at, (_, action, _) in sorted(recorded.actions.items()):
        kinds.setdefault(action["type"], at)
    assert {"BatonThrow", "Inkast", "Raise"} <= set(kinds), kinds
    for kind, at in kinds.items():
        for choice, offered in ((Choice(target="B1"), "BatonThrow"), (Choice(inkast_at=(1.0, 1.0)), "Inkast")):
            if kind == offered:
                continue
            with pytest.raises(WhatIfError) as refused:
                check_choice(recorded, at, choice)
            line = str(refused.value)
            assert f"action {at} is {ACTION_WORDS[kind]}, not {ACTION_WORDS[offered]}" in line, line
            assert not any(name in line for name in ACTION_TYPES), line
