"""`kubb3d whatif`, `analyse` and `match --resume` refuse a match a person played (`kubb3d play
--opponent`), before any rollout or throw, naming the person.

A what-if replays the recorded actions with the simulated players. The person's throws are
nobody's of those, so on the replay of `kubb3d play --opponent club --replay p.jsonl` a what-if
from action 3 stopped with "action 0 does not play as recorded (the replay was made with other
physics or rules)": the wrong cause, after the work had begun; from action 0 it ran and gave the
person's side the simulated player's chances without a word.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_process import run_kubb3d

pytestmark = pytest.mark.gl


def _kubb3d(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return run_kubb3d(*args, cwd=folder, timeout=600, env=env)


@pytest.fixture(scope="module")
def person_replay(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("person")
    made = _kubb3d(
        folder, "play", "--opponent", "club", "--seed", "2", "--after", "6", "--screenshot", "p.png",
        "--replay", "p.jsonl", "--width", "320", "--height", "180",
    )
    assert made.returncode == 0, made.stderr
    return folder / "p.jsonl"


@pytest.mark.parametrize(
    "args",
    [
        ("whatif", "--at", "3", "--samples", "2"),
        ("whatif", "--at", "0", "--samples", "2"),
        ("analyse", "--samples", "1"),
        ("match", "--resume"),
    ],
)
def test_a_person_s_match_is_refused_before_any_rollout(person_replay, args):
    before = person_replay.read_bytes()
    done = _kubb3d(person_replay.parent, *args, person_replay.name)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    header = json.loads(person_replay.read_text(encoding="utf-8").splitlines()[0])
    assert lines[0].startswith(f"error: {person_replay.name}:1: people: ")
    assert all(name in lines[0] for name in header["people"]) and "kubb3d play" in lines[0]
    assert person_replay.read_bytes() == before  # match --resume rewrites the file it resumes


def test_why_the_person_s_actions_do_not_replay(person_replay, tmp_path):
    """The same file without its people line reads, and its first action by the person does
    not play as recorded: the refusal above is the what-if's limit, not the file's fault."""
    from kubb3d.whatif import WhatIfError, continue_match, read_recorded

    lines = person_replay.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    del header["people"]
    bare = tmp_path / "bare.jsonl"
    bare.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    recorded = read_recorded(bare)
    with pytest.raises(WhatIfError, match="does not play as recorded"):
        continue_match(recorded, 3, seed=1)
