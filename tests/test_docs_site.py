"""The documentation site builds from docs/ and the README with ``mkdocs build --strict`` (a
broken link, a missing page or a docstring the API page cannot read fails it), and every page
of docs/ is in its navigation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=config.parent,
        timeout=300,
    )


def _nav_pages(nav) -> set[str]:
    pages: set[str] = set()
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages |= _nav_pages(value) if isinstance(value, list) else {value}
    return pages


def test_the_site_builds_strictly(tmp_path):
    build = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert build.returncode == 0, build.stderr[-3000:]
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="physics/"' in home and 'href="docs/' not in home  # the README's links re-pointed
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("kubb3d.physics.world.World", "kubb3d.judge.judge_throw", "kubb3d.match.Match"):
        assert name in api, name


def test_every_page_is_in_the_navigation():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    pages = _nav_pages(config["nav"])
    assert pages == {"index.md"} | {path.name for path in (ROOT / "docs").glob("*.md")}


def test_a_broken_link_fails_the_build(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the rules](rules.md).\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: broken\nstrict: true\n", encoding="utf-8")
    build = _build(config, tmp_path / "site")
    assert build.returncode != 0
    assert "rules.md" in build.stderr
