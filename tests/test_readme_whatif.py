"""The README's `kubb3d whatif` choices work on the match the README records.

The README plays `kubb3d match ... --replay m.jsonl` and then asks `kubb3d whatif m.jsonl` for
another choice at a named action: `--target KUBB` at a baton throw and `--at N --inkast-at X,Y`
at an inkast. It once gave both for action 40 of that match, a baton throw at the one kubb
still standing in its target half, so a reader's `--target B3` and `--inkast-at 2.0,0.5` were both
refused ("B3 does not stand in half B at action 40", "action 40 is BatonThrow, expected Inkast").
This test plays the README's own match command and puts each choice the prose names to the
check `kubb3d whatif` makes before any sample (kubb3d.whatif.check_choice).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_process import run_kubb3d

ROOT = Path(__file__).resolve().parents[1]


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The replay of the README's `kubb3d match ... --replay m.jsonl` line, read for what-ifs."""
    from kubb3d.whatif import read_recorded

    line = re.search(r"^\s+(kubb3d match [^#\n]*--replay m\.jsonl)", _readme(), re.M)
    assert line, "README.md no longer records m.jsonl with kubb3d match"
    args = shlex.split(line.group(1))[1:]
    folder = tmp_path_factory.mktemp("readme-whatif")
    done = run_kubb3d(*args, "-q", cwd=folder, timeout=600)
    assert done.returncode == 0, done.stderr
    return read_recorded(folder / "m.jsonl")


def test_readme_target_choice_is_offered_at_its_action(recorded):
    from kubb3d.whatif import Choice, check_choice

    text = _one_line(_readme())
    found = re.search(r"`--target (\w+)` makes the baton of action (\d+) aim at (\w+)", text)
    assert found, "README.md no longer shows a --target example"
    target, at, named = found.group(1), int(found.group(2)), found.group(3)
    assert named == target
    command = re.search(r"`kubb3d whatif m\.jsonl --at (\d+)", text)
    assert command and int(command.group(1)) == at, "the --target example is not at the whatif command's action"
    assert recorded.actions[at][1]["type"] == "BatonThrow"
    check_choice(recorded, at, Choice(target=target))  # WhatIfError if the kubb does not stand there


def test_readme_inkast_choice_is_offered_at_its_action(recorded):
    from kubb3d.whatif import Choice, check_choice

    text = _one_line(_readme())
    found = re.search(
        r"`--at (\d+) --inkast-at (-?[\d.]+),(-?[\d.]+)` aims the inkast of action (\d+) there", text
    )
    assert found, "README.md no longer shows an --at N --inkast-at X,Y example"
    at, x, y, named = int(found.group(1)), float(found.group(2)), float(found.group(3)), int(found.group(4))
    assert named == at
    assert recorded.actions[at][1]["type"] == "Inkast"
    check_choice(recorded, at, Choice(inkast_at=(x, y)))  # WhatIfError outside the half thrown into


def test_check_choice_refuses_what_the_readme_once_said(recorded):
    """The old example is refused, so the two tests above can fail."""
    from kubb3d.whatif import Choice, WhatIfError, check_choice

    with pytest.raises(WhatIfError, match="is a baton throw, not an inkast"):
        check_choice(recorded, 40, Choice(inkast_at=(2.0, 0.5)))
