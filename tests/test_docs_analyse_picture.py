"""docs/analysis.md's win-probability picture is what the commands written above it make.

The page shows docs/images/analyse.png under `kubb3d match --seed 1 --replay m.jsonl` and
`kubb3d analyse m.jsonl --every 21 --samples 4 --png docs/images/analyse.png`. Nothing re-made it
after the physics changed: the committed curve ran to action 97 of a match that now ends at
action 84, with other turning points. This test runs the page's commands in an empty folder
(like tests/test_readme_pictures.py for the README's pictures) and compares the picture.

The page analyses every 21st action (6 points, 20 rollouts): with every 12th (9 points, 32
rollouts) this test took 126 CPU-seconds, the suite's longest; now about half that.

The match step is the session's one run of that match (tests/shared_runs.py, SEED_ONE_MATCH: the
same command line but for the replay's name, whose bytes do not depend on it); the web page tests
and docs/web.md's export example read it too.

The analyse step runs with ``--workers 2`` added: the curve does not depend on it
(tests/match/test_analyse.py::test_workers_give_the_same_curve) and the suite's machine has two
cores, so its rollouts take about half the time.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest
from cli_process import run_kubb3d
from shared_runs import SEED_ONE_MATCH, replay_named

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "analysis.md"
PICTURE = "docs/images/analyse.png"

WORKERS = ["--workers", "2"]
"""Added to the page's analyse command (the result does not depend on it; see above)."""

MEAN_DIFF = 0.1
"""Largest mean absolute difference, 0–255 levels per channel (tests/test_readme_pictures.py's
bound; the stale picture differed from the re-made one by 9.8)."""


def _commands() -> list[list[str]]:
    """The page's indented ``kubb3d …`` lines up to the one that writes the picture."""
    steps = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("    kubb3d "):
            steps.append(shlex.split(line.strip()))
            if PICTURE in steps[-1]:
                return steps
    raise AssertionError(f"docs/analysis.md shows no command that writes {PICTURE}")


def _mean_difference(made: Path, committed: Path) -> float:
    from PIL import Image

    a = np.asarray(Image.open(made).convert("RGB"), dtype=float)
    b = np.asarray(Image.open(committed).convert("RGB"), dtype=float)
    assert a.shape == b.shape, f"{a.shape} made, {b.shape} committed"
    return float(np.abs(a - b).mean())


def test_the_page_shows_the_picture_its_command_writes():
    text = PAGE.read_text(encoding="utf-8")
    assert re.search(r"!\[[^\]]*\]\(images/analyse\.png\)", text)
    assert [step[:2] for step in _commands()] == [["kubb3d", "match"], ["kubb3d", "analyse"]]


@pytest.mark.slow
def test_the_page_commands_remake_the_picture(tmp_path, seed_one_match):
    (tmp_path / "docs" / "images").mkdir(parents=True)
    for step in _commands():
        args = [*step[1:], *(["-q"] if step[1] == "match" else WORKERS)]
        name = replay_named(args, SEED_ONE_MATCH)
        if name is None:
            done = run_kubb3d(*args, cwd=tmp_path, timeout=1800)
        else:  # the match the session played once (tests/shared_runs.py): its replay is this one's
            folder, _, done = seed_one_match
            shutil.copyfile(folder / "dm.jsonl", tmp_path / name)
        assert done.returncode == 0, f"{shlex.join(step)}: {done.stderr}"
    mean = _mean_difference(tmp_path / PICTURE, ROOT / PICTURE)
    assert mean <= MEAN_DIFF, (
        f"{PICTURE} differs from what the commands of docs/analysis.md make: mean {mean:.3f} levels; "
        "look at both, then copy the new one to docs/images"
    )
