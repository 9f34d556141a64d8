"""Every picture in docs/images is shown by README.md or a page of docs/, and a command written
there makes it (a ``kubb3d …`` line or code span naming the file). Text only: nothing rendered."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pages() -> dict[str, str]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in pages}


def _images() -> list[str]:
    return sorted(p.name for p in (ROOT / "docs" / "images").glob("*.png"))


def test_docs_images_exist():
    assert len(_images()) >= 8


def test_every_picture_is_shown_by_a_page():
    shown = set()
    for text in _pages().values():
        shown |= {Path(m).name for m in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)}
    missing = [n for n in _images() if n not in shown]
    assert missing == [], f"pictures no page shows (![..](docs/images/NAME) in README.md or docs/*.md): {missing}"


def test_every_picture_is_made_by_a_written_command():
    commands = []
    for text in _pages().values():
        commands += re.findall(r"`(kubb3d [^`]+)`", text)  # code spans
        commands += [ln.strip() for ln in text.splitlines() if ln.strip().startswith("kubb3d ")]  # command blocks
    named = {Path(w).name for c in commands for w in c.split() if w.endswith(".png")}
    missing = [n for n in _images() if n not in named]
    assert missing == [], f"pictures no written `kubb3d …` command makes: {missing}"


def test_every_image_link_points_at_a_file():
    for page, text in _pages().items():
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text):
            assert (ROOT / page).parent.joinpath(target).is_file(), f"{page}: {target} does not exist"
