"""ThrowParams refuses at construction what ``kubb3d throw`` refuses, and nothing else: one
table of bounds (kubb3d/throw_bounds.py) for the Python API, the command line and an
experiment spec's [throw]. The command line is stopped before it builds a world."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.errors import Kubb3dError, ThrowError
from kubb3d.experiment.spec import ThrowSpec
from kubb3d.physics.world import World
from kubb3d.throw import ThrowParams
from kubb3d.throw_bounds import THROW_RANGES


class _Accepted(Exception):
    """Raised where the command would build its world: every option was accepted."""


def _values(lo: float, hi: float) -> list[float]:
    """Both bounds, the floats next to them on either side, a value inside, and the wild ones."""
    out = [lo, hi, math.nextafter(lo, -math.inf), math.nextafter(lo, math.inf), math.nextafter(hi, -math.inf),
           math.nextafter(hi, math.inf), (lo + hi) / 2, 0.0, -1e9, 1e9, math.nan, math.inf, -math.inf]
    return sorted(set(out), key=repr)


CASES = [(name, v) for name, rng in THROW_RANGES.items() for v in _values(rng.lo, rng.hi)]
CASES += [("step_after", v) for v in (-1.0, -1e-12, 0.0, 0.3, 2.0, math.nextafter(2.0, 3.0), 1e9, math.nan, math.inf)]
CASES += [("foot_behind_line", v) for v in (-1.0, 0.0, 0.45, 1.04, 1.06, -0.96, math.nan, -math.inf)]


@pytest.fixture(scope="module")
def cli_refuses():
    _register_subapps()
    mp = pytest.MonkeyPatch()

    def standard(*args, **kwargs):
        raise _Accepted

    mp.setattr(World, "standard", standard)

    def refuses(name: str, value: float) -> tuple[bool, str]:
        res = CliRunner().invoke(app, ["throw", f"--{name.replace('_', '-')}={value!r}"])
        if isinstance(res.exception, _Accepted):
            return False, ""
        assert res.exit_code == 2, (name, value, res.output, res.exception)
        return True, res.stderr.strip()

    yield refuses
    mp.undo()


@pytest.mark.parametrize(("name", "value"), CASES, ids=[f"{n}={v!r}" for n, v in CASES])
def test_throw_params_refuses_exactly_what_the_command_line_refuses(cli_refuses, name, value):
    refused, line = cli_refuses(name, value)
    try:
        ThrowParams(**{name: value})
        made = True
    except ThrowError as exc:
        made = False
        text = str(exc)
        assert "\n" not in text and isinstance(exc, Kubb3dError)
        assert name in text or "arm's reach" in text, text
    assert refused == (not made), (name, value, line)
    if refused:  # the line names the option the user typed, not the field behind it
        assert line.startswith("error: ") and "\n" not in line
        assert f"--{name.replace('_', '-')}" in line, line


def test_the_reported_tilt_is_refused_naming_the_field_and_every_reader_shares_one_table():
    with pytest.raises(ThrowError) as exc:
        ThrowParams(speed=10, tilt_deg=200)
    assert str(exc.value) == "tilt_deg: expected from -90 to 90 degrees, got 200"
    with pytest.raises(ThrowError) as exc:  # the value shown is rounded, but never into the range
        ThrowParams(speed=47.54774231411415)
    assert str(exc.value) == "speed: expected more than 0 and at most 40 m/s, got 47.55"
    with pytest.raises(ThrowError, match=r"got 40\.00001$"):
        ThrowParams(speed=40.00001)
    for name, rng in THROW_RANGES.items():  # the spec's [throw] reads the same objects
        assert rng in ThrowSpec.model_fields[name].metadata, name
