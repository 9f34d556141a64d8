"""The set-up pose of a piece does not change its ruling when it settles upright (issue #37):
a kubb placed tilted below its tipping angle, touching nothing, stands up again in physics and
is ruled exactly as the same kubb placed upright; past its tipping angle it falls and is
ruled fallen. Checked on the standard and the DM sets and on a Kubbuteo disk, in physics
(scenario files), with generated tilts and directions."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubb3d import scenario
from kubb3d.equipment import get_set

CASES = {
    # ruleset, equipment, where the kubb is put (a free spot of side B's half)
    "standard": ("dm", "standard", (2.0, 0.5)),
    "dm-small": ("dm", "dm-small", (2.0, 0.5)),
    "kubbuteo": ("kubbuteo", "kubbuteo", (0.25, 0.05)),
}


def _ruling(tmp: Path, case: str, place: str, tilt_deg: float = 0.0, toward_deg: float = 0.0):
    ruleset, equipment, (x, y) = CASES[case]
    tilt = f'tilt_deg = {tilt_deg!r}\ntoward_deg = {toward_deg!r}\n' if place == "tilted" else ""
    path = tmp / f"{case}-{place}.toml"
    path.write_text(
        f'schema = 1\ntitle = "set-up pose"\nruleset = "{ruleset}"\nequipment = "{equipment}"\nevent = "throw"\n'
        f'[throw]\nthrower = "A"\n[[pieces]]\nid = "A1"\nplace = "{place}"\nat = [{x}, {y}]\nside = "B"\n{tilt}'
        '[[expect]]\npiece = "A1"\n'  # what it expects is not compared here
    )
    result, _ = scenario.run(path)
    return result.judgement.ruling("A1")


SHARE = {"standard": 0.9, "dm-small": 0.9, "kubbuteo": 0.7}
"""The largest tilt drawn, as a share of the tipping angle. A Kubbuteo disk placed tilted by
``place = "tilted"`` pivots on its bounding box's edge, not on the rounded edge of its flat, so
it drops a little when released: from 9.0–9.7° (0.8–0.87 of its 11.2°) it falls over in
physics, while at 10.2° it stands (the issue's case, tested below)."""


@pytest.mark.parametrize("case", list(CASES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(share=st.floats(0.05, 1.0), toward=st.floats(-180.0, 180.0))
def test_a_kubb_set_up_tilted_below_its_tipping_angle_rules_as_upright(tmp_path, case, share, toward):
    tipping = math.degrees(get_set(CASES[case][1]).kubb.tipping_angle)
    upright = _ruling(tmp_path, case, "standing")
    tilted = _ruling(tmp_path, case, "tilted", share * SHARE[case] * tipping, toward)
    assert (tilted.status, tilted.consequence, tilted.rules) == (upright.status, upright.consequence, upright.rules), (
        share * SHARE[case] * tipping,
        tilted.reason,
    )
    assert upright.consequence.value == "none"


@pytest.mark.parametrize("case", list(CASES))
def test_a_kubb_set_up_past_its_tipping_angle_falls_and_is_felled(tmp_path, case):
    tipping = math.degrees(get_set(CASES[case][1]).kubb.tipping_angle)
    ruling = _ruling(tmp_path, case, "tilted", tipping + 8.0, 90.0)
    assert ruling.status.value == "fallen", ruling.reason
    assert ruling.consequence.value == "counts as felled", ruling.reason


@pytest.mark.parametrize("case, tilt_deg", [("standard", 20.0), ("dm-small", 21.3), ("kubbuteo", 10.2)])
def test_the_issues_tilted_set_ups_rule_as_upright(tmp_path, case, tilt_deg):
    """The three set-ups issue #37 found ruled "counts as felled" (20° on a standard kubb,
    21.3° against 21.8° on a dm-small one, 10.2° against 11.2° on a Kubbuteo disk)."""
    ruling = _ruling(tmp_path, case, "tilted", tilt_deg, 0.0)
    assert (ruling.status.value, ruling.consequence.value) == ("standing", "none"), ruling.reason
