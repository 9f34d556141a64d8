"""Intervals printed for rates and counts stay where the quantity can be: Wilson's interval
within [0, 1] for a share, a count's mean never below 0 (``kubb3d calibrate``, ``experiment
summary``)."""

from __future__ import annotations

import math

import pytest

from kubb3d.calibrate import mean_ci, wilson
from kubb3d.experiment import stats


def test_a_count_mean_interval_does_not_go_below_zero():
    # one kubb felled in ten throws: mean 0.1, standard error 0.1, so 0.1 - 1.96 * 0.1 < 0
    m, lo, hi = mean_ci([1] + [0] * 9)
    assert m == pytest.approx(0.1)
    assert lo == 0.0
    assert hi == pytest.approx(0.1 + 1.96 * math.sqrt(0.1) / math.sqrt(10))


def test_a_well_away_from_zero_interval_is_unchanged():
    x = [0, 1] * 200
    m, lo, hi = mean_ci(x)
    h = 1.96 * 0.5 * math.sqrt(400 / 399) / 20
    assert (lo, hi) == (pytest.approx(0.5 - h), pytest.approx(0.5 + h))


@pytest.mark.parametrize("n", [1, 2, 5, 10, 40])
def test_wilson_stays_in_zero_one_and_holds_the_share(n):
    for k in range(n + 1):
        p, lo, hi = wilson(k, n)
        assert 0.0 <= lo <= p <= hi <= 1.0, (k, n, lo, p, hi)
    assert wilson(0, n)[1] == 0.0 and wilson(n, n)[2] == 1.0


def test_wilson_known_value():
    # 8 of 10: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.7168, half 1.96 √(0.016 + 1.96²/400) / 1.3842 = 0.2266
    lo, hi = stats.wilson(8, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.490, 0.943)


def test_summary_rates_are_wilson_intervals_in_zero_one():
    rows = [{"ok": True, "trial": i, "hit": i == 0} for i in range(5)]
    (cell,) = stats.group(rows, [], lambda r: r["hit"])
    assert cell.k == 1 and 0.0 <= cell.lo < 0.2 < cell.hi <= 1.0
