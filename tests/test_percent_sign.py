"""A percentage has a space before its sign in the generated pages ("0.1 % faster", "≈ 42 %"), as
everywhere else in the docs: `kubb3d validate`, `kubb3d calibrate` and the studies page printed
some without it ("a release 0.1% faster", "≈ 42%", "83% to 142%")."""

from __future__ import annotations

import re

import pytest

PAGES = ("validation", "calibration", "studies", "sensitivity")
"""docs/NAME.md written by a command (the header of each names it)."""

WRITERS = ("validate", "calibrate.py", "experiment/studies.py", "sensitivity.py")
"""The code that writes them (kubb3d/…; a package: each of its modules)."""


@pytest.mark.parametrize("name", PAGES)
def test_the_generated_pages_put_a_space_before_the_percent_sign(root, name):
    text = (root / "docs" / f"{name}.md").read_text(encoding="utf-8")
    assert "do not edit by hand" in text  # a generated page
    assert not re.findall(r".{0,40}\d%", text)


@pytest.mark.parametrize("path", WRITERS)
def test_their_writers_format_no_percentage_without_the_space(root, path):
    where = root / "kubb3d" / path
    files = sorted(where.glob("*.py")) if where.is_dir() else [where]
    assert files and all(f.is_file() for f in files)
    source = "\n".join(f.read_text(encoding="utf-8") for f in files)
    # a format spec ending in % ("{share:.0%}") or a sign right after a value ("{x:.1f}%")
    assert not re.findall(r".{0,40}(?:\{[^{}]*:[^{}]*%\}|\}%)", source)
