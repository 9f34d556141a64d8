"""JudgeParams refuses tolerances it cannot work with, in one line naming the field, and takes
every value at the edges of what it allows."""

from __future__ import annotations

import math

import pytest

from kubb3d.errors import JudgeInputError
from kubb3d.judge import JudgeParams


@pytest.mark.parametrize("value", [-0.001, -math.inf, math.inf, math.nan])
def test_a_negative_or_infinite_tolerance_is_refused_naming_it(value):
    """Every field is "a finite number >= 0": a negative number, either infinity and NaN are refused."""
    with pytest.raises(JudgeInputError) as refused:
        JudgeParams(tip_margin=value)
    assert str(refused.value) == f"JudgeParams.tip_margin must be a finite number >= 0, got {value!r}"


def test_zero_is_a_tolerance_but_not_a_lying_tilt():
    """A tolerance of 0 is allowed; lying_tilt must be in (0, π/2] rad: 0 and a float step above
    π/2 are refused, the smallest positive float, 0.5 and π/2 itself are taken."""
    assert JudgeParams(tip_margin=0.0).tip_margin == 0.0
    for tilt in (0.0, math.nextafter(math.pi / 2, 4.0)):
        with pytest.raises(JudgeInputError) as refused:
            JudgeParams(lying_tilt=tilt)
        assert str(refused.value) == f"JudgeParams.lying_tilt must be in (0, π/2] rad, got {tilt}"
    for tilt in (math.nextafter(0.0, 1.0), 0.5, math.pi / 2):
        assert JudgeParams(lying_tilt=tilt).lying_tilt == tilt
