"""The landing measure and the first contact's position: where the baton first touched
something, where it came to rest and how far it went on in between."""

import math

from kubb3d.experiment import read_rows, run, validate

SPEC = {
    "schema": 1, "title": "landing", "seed": 4, "trials_per_point": 1,
    "measures": ["first_contact", "landing"],
    "setup": {"layout": "empty"},
    "throw": {"speed": {"grid": [7.0, 9.0]}, "elevation_deg": 20.0},
}


def test_landing_columns(tmp_path):
    loaded = validate(SPEC)
    run(loaded, tmp_path / "r.sqlite", workers=1, backend="serial", progress=False)
    rows = read_rows(tmp_path / "r.sqlite")
    assert [r["speed"] for r in rows] == [7.0, 9.0]
    for r in rows:
        assert r["ok"], r["error"]
        assert r["first_contact"] == "ground"  # an empty pitch: the baton lands on the grass
        # thrown from side A's baseline (x = -4 m) straight ahead: it lands and rests ahead of it
        assert -4.0 < r["first_contact_x_m"] < r["baton_rest_x_m"]
        assert abs(r["first_contact_y_m"]) < 0.3 and abs(r["baton_rest_y_m"]) < 0.5
        slide = math.hypot(r["baton_rest_x_m"] - r["first_contact_x_m"], r["baton_rest_y_m"] - r["first_contact_y_m"])
        assert r["slide_m"] == slide and 0.0 < slide < 5.0
    # faster: lands farther
    assert rows[1]["first_contact_x_m"] > rows[0]["first_contact_x_m"] + 1.0


def test_factors_relative_to_the_aimed_throw(tmp_path):
    import pytest

    from kubb3d.experiment import SpecError

    spec = {
        "schema": 1, "title": "offsets", "seed": 3, "trials_per_point": 1, "measures": ["hit"],
        "throw": {"target": "B3", "aim": True, "elevation_deg": 20.0,
                  "speed_offset": {"grid": [-1.0, 0.0, 1.0]}, "azimuth_offset_deg": 0.5},
    }
    loaded = validate(spec)
    assert [f.name for f in loaded.factors] == ["speed_offset"]
    run(loaded, tmp_path / "r.sqlite", workers=1, backend="serial", progress=False)
    rows = read_rows(tmp_path / "r.sqlite")
    speeds = [r["thrown_speed"] for r in rows]
    assert speeds[1] - speeds[0] == pytest.approx(1.0) and speeds[2] - speeds[1] == pytest.approx(1.0)
    assert all(r["thrown_azimuth_deg"] == pytest.approx(0.5, abs=1e-9) for r in rows)  # B3 is straight ahead
    # an offset without aiming is refused; unset offsets leave the hash of older specs alone
    with pytest.raises(SpecError, match="needs aim = true"):
        validate({**spec, "throw": {"target": "B3", "speed": 10.0, "speed_offset": 1.0}})
    assert "speed_offset" not in validate({**spec, "throw": {"target": "B3", "aim": True}}).normalised()["throw"]
