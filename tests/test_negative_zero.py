"""No "-0.00" in what the program prints: a negative coordinate or figure that rounds to zero is
printed as zero, in English and German messages alike (kubb3d/judge/messages.py number_text,
the formatter of every Msg and of kubb3d/i18n.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubb3d.i18n import translator
from kubb3d.judge.messages import msg, number_text

SPECS = [".0f", ".1f", ".2f", ".3f", "+.1f", "+.2f", "6.2f", ".1%"]
NEG_ZERO = re.compile(r"-0(?:[.,]0*)?(?![0-9.,]*[1-9])")


@pytest.mark.parametrize(
    "value, spec, printed",
    [
        (-0.0, ".2f", "0.00"),
        (-0.004, ".2f", "0.00"),
        (-0.0049, "+.2f", "+0.00"),
        (-0.006, ".2f", "-0.01"),  # a value that shows is kept negative
        (-0.04, ".1f", "0.0"),
        (-0.4, ".0f", "0"),
        (-0.5001, ".0f", "-1"),
        (-1e-12, "6.2f", "  0.00"),
        (-1e-9, ".2e", "-1.00e-09"),
        (-3.0, ".2f", "-3.00"),
        (float("-inf"), ".2f", "-inf"),
    ],
)
def test_a_negative_that_rounds_to_zero_prints_as_zero(value, spec, printed):
    assert number_text(value, spec) == printed


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-0.05, max_value=0.0, allow_nan=False), st.sampled_from(SPECS))
def test_no_small_negative_prints_a_negative_zero(value, spec):
    text = number_text(value, spec)
    assert not NEG_ZERO.search(text), (value, spec, text)
    assert float(text.rstrip("%")) == pytest.approx(float(format(value, spec).rstrip("%")), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=-0.0049, max_value=-0.0), st.floats(min_value=-0.0049, max_value=-0.0))
def test_coordinates_in_messages_print_no_negative_zero_in_either_language(x, y):
    """The judge's raising sentence (kubb3d/judge/raising.py), as `kubb3d judge` and the quiz print it."""
    raised = msg("{piece} is valid and is raised over its short edge at ({x:.2f}, {y:.2f}) m.", piece="B2", x=x, y=y)
    assert str(raised) == "B2 is valid and is raised over its short edge at (0.00, 0.00) m."
    german = translator("de")(raised)
    assert "(0,00, 0,00) m" in german and "-0" not in german
