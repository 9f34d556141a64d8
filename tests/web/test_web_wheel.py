"""Issue #35's "done means": ``kubb3d export m.jsonl --html m.html`` and ``kubb3d quiz --html quiz/``
work from the wheel outside the checkout, with three.js and its licence shipped in the wheel; the
pages open in headless Chromium without errors when it is installed."""

from __future__ import annotations

import subprocess
import zipfile

import pytest
from cdp_browser import Browser, find_chromium


def _run(venv, *args, cwd):
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_wheel_ships_three_js_and_its_licence(built_wheel):
    names = set(zipfile.ZipFile(built_wheel).namelist())
    wanted = {"three.module.min.js", "three.LICENSE", "player.js", "replay.html", "quiz.html"}
    assert {f"kubb3d/web/{name}" for name in wanted} <= names
    licence = zipfile.ZipFile(built_wheel).read("kubb3d/web/three.LICENSE").decode()
    assert licence.startswith("The MIT License") and "three.js authors" in licence


def test_export_and_quiz_pages_from_the_wheel(wheel_venv, tmp_path):
    r = _run(wheel_venv, "kubb3d", "match", "--seed", "4", "--replay", "m.jsonl", "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = _run(wheel_venv, "kubb3d", "export", "m.jsonl", "--html", "m.html", "--gltf", "m.glb", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("wrote m.html (") and "wrote m.glb (" in r.stdout
    r = _run(wheel_venv, "kubb3d", "quiz", "--html", "quiz", "--count", "3", "--lang", "de", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("quiz/index.html geschrieben (")
    page = (tmp_path / "m.html").read_text(encoding="utf-8")
    assert 'id="three-src"' in page and "Copyright 2010-2024 Three.js Authors" in page
    assert (tmp_path / "m.glb").read_bytes()[:4] == b"glTF"
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no chromium here to open the pages (.ci/run installs Debian's package)")
    with Browser(chromium) as browser:
        for path in (tmp_path / "m.html", tmp_path / "quiz" / "index.html"):
            browser.open(path)
            browser.wait_for("window.kubb3dPage && window.kubb3dPage.ready && window.kubb3dPage.webgl")
        assert browser.errors == []
