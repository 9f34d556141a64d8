"""`kubb3d calibrate` prints on the terminal what its help and the README promise, the same
figures its --markdown writes.

The help and the README say calibrate measures the hit rate against distance; the terminal
report once had no such table (only --json, --png and --markdown held it), so a user who ran
the command as written never saw the figures at 4 to 7 m that the run spent most of its
throws on.
"""

from __future__ import annotations

import os
import re

from cli_process import run_kubb3d


def test_terminal_report_has_the_markdown_distance_table(tmp_path):
    page = tmp_path / "cal.md"
    tiny = ["--throws", "10", "--turns", "10", "--distance-throws", "10", "--inkasts", "10", "--flicks", "10"]
    done = run_kubb3d("calibrate", *tiny, "--workers", "1", "--markdown", str(page), timeout=600,
                      env={**os.environ, "COLUMNS": "200"})
    assert done.returncode in (0, 1), done.stderr  # 1: a figure out of its band at 10 throws
    text = page.read_text(encoding="utf-8")
    head = re.search(r"^\| preset \| (.+) \|$", text, re.M)
    assert head, "docs' calibration page has no distance table"
    distances = head.group(1).split(" | ")
    rows = re.findall(r"^\| (novice|club|elite) \| (\d.+) \|$", text, re.M)
    assert [skill for skill, _ in rows] == ["novice", "club", "elite"]
    lines = done.stdout.splitlines()
    header = [line for line in lines if all(d in line for d in distances) and "preset" in line]
    assert header, done.stdout
    for skill, cells in rows:
        values = cells.split(" | ")
        assert len(values) == len(distances)
        shown = [line for line in lines if line.split("│")[1:2] and skill in line.split("│")[1]]
        assert any(all(v in line for v in values) for line in shown), (skill, values, done.stdout)
