"""A command that writes a file the user named says so: every file that appears in the folder is
named by a ``wrote PATH`` line (stdout or stderr).

`kubb3d analyse REPLAY --png curve.png`, `notation --out`, and the `--png` / `--markdown` of
`validate` (and of `calibrate`, which writes through the same code) once wrote without a word,
where `export`, `experiment plot` and `play --screenshot` say "wrote ...": a new user could not
tell from the output whether the picture had been made.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def _kubb3d(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run(
        [sys.executable, "-m", "kubb3d", *args], cwd=folder, capture_output=True, text=True, timeout=600, env=env
    )
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return done


@pytest.fixture(scope="module")
def replay_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wrote")
    _kubb3d(folder, "match", "--round-cap", "3", "--replay", "m.jsonl", "-q")
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ("analyse", "m.jsonl", "--samples", "1", "--every", "100", "--png", "curve.png"),
        ("analyse", "m.jsonl", "--samples", "1", "--every", "100", "--png", "curve-json.png", "--json"),
        ("notation", "m.jsonl", "--out", "m.txt"),
        ("validate", "--quick", "--png", "v.png", "--markdown", "v.md"),
        ("export", "m.jsonl", "--html", "m.html", "--gltf", "m.glb"),
    ],
    ids=lambda args: " ".join(args[:1] + args[-2:]),
)
def test_every_file_written_is_named(replay_folder, args):
    before = set(os.listdir(replay_folder))
    done = _kubb3d(replay_folder, *args)
    made = set(os.listdir(replay_folder)) - before
    assert made, args
    named = {Path(m).name for m in re.findall(r"^wrote (\S+)", done.stdout + "\n" + done.stderr, re.M)}
    assert made == named, (args, made, named)
    if "--json" in args:  # the document alone on stdout
        assert not done.stdout.startswith("wrote") and done.stdout.lstrip().startswith("{")
