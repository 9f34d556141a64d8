"""Experiment specs: the shipped files validate, bad files are refused with file, field and
reason, grids expand in file order, the hash ignores cosmetic fields, child seeds come from
SeedSequence.spawn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kubb3d.experiment import SpecError, load_spec
from kubb3d.experiment.trial import child_seed

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "scenarios" / "experiments").glob("*.toml"))


def test_shipped_specs_validate():
    names = {p.name for p in SHIPPED}
    assert {"hit-8m.toml", "tilt-limit.toml", "skill-calibration.toml", "leaning-survival.toml"} <= names
    sizes = {p.name: (load_spec(p).n_points, load_spec(p).n_trials) for p in SHIPPED}
    assert sizes["hit-8m.toml"] == (25 * 7, 25 * 7 * 6)
    assert sizes["skill-calibration.toml"] == (15, 1200)
    assert sizes["leaning-survival.toml"] == (6, 120)


def test_grid_points_in_file_order(tmp_path):
    from experiment_helpers import write_tiny

    s = load_spec(write_tiny(tmp_path))
    assert [f.name for f in s.factors] == ["speed", "elevation_deg"]
    assert [d.name for d in s.draws] == ["azimuth_deg", "tilt_deg"]
    assert s.points() == [
        {"speed": 9.6, "elevation_deg": 26.0},
        {"speed": 9.6, "elevation_deg": 34.0},
        {"speed": 10.4, "elevation_deg": 26.0},
        {"speed": 10.4, "elevation_deg": 34.0},
    ]
    assert [s.point(i) for i in range(4)] == s.points()
    assert s.n_trials == 16


def test_hash_ignores_title_and_trials_but_not_seed(tmp_path):
    from experiment_helpers import TINY

    base = load_spec(_write(tmp_path, "a.toml", TINY.format(tpp=4)))
    renamed = load_spec(_write(tmp_path, "b.toml", TINY.format(tpp=9).replace('title = "tiny"', 'title = "other"')))
    reseeded = load_spec(_write(tmp_path, "c.toml", TINY.format(tpp=4).replace("seed = 7", "seed = 8")))
    assert base.sha256 == renamed.sha256
    assert base.sha256 != reseeded.sha256


def test_child_seed_is_spawned_child():
    from experiment_helpers import TINY
    from kubb3d.experiment.spec import validate
    import tomllib

    s = validate(tomllib.loads(TINY.format(tpp=4)))
    kids = np.random.SeedSequence(7).spawn(16)
    for i in (0, 5, 15):
        a = np.random.default_rng(kids[i]).random(3)
        b = np.random.default_rng(child_seed(s, i)).random(3)
        assert a.tolist() == b.tolist()


def _write(folder: Path, name: str, text: str) -> Path:
    p = folder / name
    p.write_text(text)
    return p


BAD = [
    ("speed = { grid = [9.6, 10.4] }", 'speed = "fast"', "throw.speed"),
    ('measures = ["hit"', 'measures = ["hit", "fun"', "measures[1]"),
    ("seed = 7", "seed = -1", "seed"),
    ("trials_per_point = 4", "trials_per_point = 0", "trials_per_point"),
    ('ground = "grass"', 'ground = "ice"', "setup.ground"),
    ('target = "B2"', 'target = "B9"', "throw.target"),
    ('target = "B2"', 'target = "B2"\naim = true', "throw"),
    ("schema = 1", "schema = 2", "schema"),
    ('watch = ["B2", "king"]', 'watch = ["Q"]', "watch"),
    ("elevation_deg = { grid = [26.0, 34.0] }", "elevation_deg = { uniform = [34.0, 26.0] }", "throw.elevation_deg"),
    ("[throw]", "[throw]\nskill = \"pro\"", "throw.skill"),
    ("[throw]", "[throw]\nwobble = 3", "throw.wobble"),
]


@pytest.mark.parametrize("old,new,field", BAD, ids=[b[2] + ":" + b[1][:20] for b in BAD])
def test_bad_spec_names_file_field_and_reason(tmp_path, old, new, field):
    from experiment_helpers import TINY

    text = TINY.format(tpp=4)
    assert old in text
    path = _write(tmp_path, "bad.toml", text.replace(old, new, 1))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    msg = str(info.value)
    # the field, or a part of it (throw.elevation_deg.uniform: …)
    assert msg.startswith((f"{path}: {field}:", f"{path}: {field}.", f"{path}: {field}[")), msg
    assert "\n" not in msg
    assert len(msg.split(": ", 2)[2]) > 5  # a reason follows


def test_bad_toml_and_missing_file(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "nope.toml")
    p = _write(tmp_path, "broken.toml", "schema = 1\ntitle = \n")
    with pytest.raises(SpecError, match="not valid TOML"):
        load_spec(p)


def test_leaning_piece_needs_a_supporter_placed_before(tmp_path):
    text = """
schema = 1
title = "x"
seed = 1
trials_per_point = 1
measures = ["status"]
watch = ["L"]
[setup]
layout = "empty"
[[setup.pieces]]
id = "L"
place = "leaning"
on = "S"
tilt_deg = 30
[disturb]
piece = "L"
"""
    with pytest.raises(SpecError, match=r"setup: .*leans on 'S', which is not placed before it"):
        load_spec(_write(tmp_path, "lean.toml", text))
