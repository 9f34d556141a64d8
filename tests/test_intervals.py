"""The project's one implementation of each 95 % interval (kubb3d/experiment/stats.py): Student's t
for a mean, Wilson's for a rate. Users found intervals of means that had zero width at n = 1 and
a negative low end for a count (``experiment summary``, ``experiment plot``, ``calibrate``, the
studies): these tests hold the intervals to their definitions and to relations between cases.
"""

from __future__ import annotations

import math
import statistics

import pytest

from kubb3d.calibrate import mean_ci, wilson
from kubb3d.experiment import stats
from kubb3d.experiment.stats import NO_INTERVAL, interval_text, mean_interval, t95, t_quantile

# Two-sided 95 % (0.975 one-sided) quantiles of Student's t, three decimals, as printed in the
# standard tables (e.g. Abramowitz and Stegun 1964, table 26.10; NIST/SEMATECH e-Handbook 1.3.6.7.2)
T_TABLE = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
    10: 2.228, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 100: 1.984,
    120: 1.980,
}  # fmt: skip


@pytest.mark.parametrize("df, want", sorted(T_TABLE.items()))
def test_t_quantiles_are_the_table_s(df, want):
    assert round(t95(df), 3) == want


def test_t_quantiles_go_down_to_the_normal_one():
    values = [t95(df) for df in range(1, 400)] + [t95(10**4), t95(10**6)]
    assert all(a > b for a, b in zip(values, values[1:]))
    assert t95(10**6) == pytest.approx(stats.Z95, abs=1e-5) and t95(10**6) > stats.Z95
    # the switch from the exact sum to the expansion in 1/ν leaves no step
    exact = t_quantile(0.95, stats.T_EXACT_DF)
    past = t_quantile(0.95, stats.T_EXACT_DF + 1)
    assert 0 < exact - past < 1e-4


def test_t_quantiles_are_scipy_s_where_it_is_installed():
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in [*range(1, 60), 99, 150, 199, 200, 201, 250, 500, 1000, 5000]:
        for p in (0.8, 0.95, 0.99):
            assert t_quantile(p, df) == pytest.approx(scipy_stats.t.ppf((1 + p) / 2, df), rel=1e-9), (df, p)


def test_the_t_quantile_refuses_what_has_none():
    for df in (0, -1, 2.5):
        with pytest.raises(ValueError):
            t_quantile(0.95, df)
    for p in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError):
            t_quantile(p, 5)


def test_one_value_has_no_interval():
    assert mean_interval([0.4]) == (0.4, None, None)
    assert mean_interval([3], floor=0.0) == (3.0, None, None)
    assert mean_ci([1]) == (1.0, None, None)
    assert interval_text(None, None, n=1) == NO_INTERVAL == "n = 1: no interval"
    with pytest.raises(ValueError):
        mean_interval([])


def test_values_all_alike_have_no_interval():
    # ten throws that fell no kubb: the t interval would be 0.000–0.000, claiming certainty
    assert mean_interval([0] * 10, floor=0.0) == (0.0, None, None)
    assert mean_interval([2.5, 2.5]) == (2.5, None, None)
    # two flight times of the same steps summed in another order (tiny spec, 10.4 m/s at 26°)
    assert mean_interval([0.9833333333333354, 0.9833333333333353])[1:] == (None, None)
    # small values that do differ keep their interval
    _, lo, hi = mean_interval([1e-12, 2e-12])
    assert lo < 1e-12 < 2e-12 < hi
    assert interval_text(None, None, n=10) == "no spread in n = 10: no interval"
    assert interval_text(None, None, n=1) == NO_INTERVAL
    assert interval_text(0.1234, 0.5, 2) == "0.12–0.50"


def test_two_values_have_the_t_interval_with_one_degree_of_freedom():
    m, lo, hi = mean_interval([1.0, 2.0])
    half = 12.706 * statistics.stdev([1.0, 2.0]) / math.sqrt(2)
    assert m == 1.5 and lo == pytest.approx(1.5 - half, abs=1e-3) and hi == pytest.approx(1.5 + half, abs=1e-3)


def test_the_interval_holds_the_mean_and_shrinks_as_n_grows_for_the_same_spread():
    # the same two values k times over: the sample standard deviation falls towards 0.5 as k grows,
    # the interval must narrow every time, and always holds the mean
    widths = []
    for k in range(1, 40):
        m, lo, hi = mean_interval([0.0, 1.0] * k)
        assert lo < m == 0.5 < hi
        widths.append(hi - lo)
    assert all(a > b for a, b in zip(widths, widths[1:]))
    # with the spread held fixed, the half width over s is t(n - 1)/√n: falling in n
    ratios = []
    for n in range(2, 60):
        xs = [(-1) ** i for i in range(n)]
        _, lo, hi = mean_interval(xs)
        ratios.append((hi - lo) / 2 / statistics.stdev(xs))
        assert ratios[-1] == pytest.approx(t95(n - 1) / math.sqrt(n))
    assert all(a > b for a, b in zip(ratios, ratios[1:]))


def test_a_floor_clips_only_the_low_end_and_only_below_it():
    for xs in ([1] + [0] * 9, [0, 0, 3], [2, 5, 9, 4], [0.01, 0.02]):
        m, lo, hi = mean_interval(xs)
        mf, lof, hif = mean_interval(xs, floor=0.0)
        assert (mf, hif) == (m, hi) and lof == max(0.0, lo) and lof <= mf
    # nonnegative counts: the low end is never below 0 (one kubb felled in ten throws went to -0.096)
    m, lo, hi = mean_ci([1] + [0] * 9)
    assert m == pytest.approx(0.1) and lo == 0.0
    assert hi == pytest.approx(0.1 + t95(9) * statistics.stdev([1] + [0] * 9) / math.sqrt(10))


def test_a_well_away_from_zero_interval_is_the_plain_t_interval():
    x = [0, 1] * 200
    m, lo, hi = mean_ci(x)
    h = t95(399) * 0.5 * math.sqrt(400 / 399) / 20
    assert (lo, hi) == (pytest.approx(0.5 - h), pytest.approx(0.5 + h))


@pytest.mark.parametrize("n", [1, 2, 5, 10, 40])
def test_wilson_stays_in_zero_one_and_holds_the_share(n):
    for k in range(n + 1):
        p, lo, hi = wilson(k, n)
        assert 0.0 <= lo <= p <= hi <= 1.0, (k, n, lo, p, hi)
    assert wilson(0, n)[1] == 0.0 and wilson(n, n)[2] == 1.0


@pytest.mark.parametrize("k, n", [(8, 10), (1, 1), (1, 2), (3, 7), (50, 200)])
def test_wilson_is_its_formula(k, n):
    # Wilson (1927): the p0 at which the score test just accepts k/n, (p - p0)² = z² p0 (1 - p0) / n
    p, z = k / n, stats.Z95
    lo, hi = stats.wilson(k, n)
    for bound in (lo, hi):
        if 0.0 < bound < 1.0:
            assert (p - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / n, rel=1e-9)
    # 8 of 10: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.7168, half 1.96 √(0.016 + 1.96²/400) / 1.3842 = 0.2266
    if (k, n) == (8, 10):
        assert (round(lo, 3), round(hi, 3)) == (0.490, 0.943)


def test_summary_rates_are_wilson_intervals_in_zero_one():
    rows = [{"ok": True, "trial": i, "hit": i == 0} for i in range(5)]
    (cell,) = stats.group(rows, [], lambda r: r["hit"])
    assert cell.k == 1 and 0.0 <= cell.lo < 0.2 < cell.hi <= 1.0


def test_grouped_means_at_one_and_two_trials():
    rows = [{"ok": True, "trial": i, "g": "a" if i == 0 else "b", "n_felled": [0, 0, 1][i]} for i in range(3)]
    a, b = stats.group(rows, ["g"], lambda r: r["n_felled"], floor=stats.floor_of("n_felled"))
    assert (a.n, a.value, a.lo, a.hi) == (1, 0.0, None, None)
    assert b.n == 2 and b.lo == 0.0 and b.hi == pytest.approx(0.5 + t95(1) * math.sqrt(0.5) / math.sqrt(2))


def test_the_columns_that_cannot_be_negative():
    for col in ("n_felled", "kubbs_felled", "flight_time_s", "rest_time_s", "first_contact_time_s", "slide_m",
                "match_minutes", "match_turns", "turns_eight_m_felled_a", "wall_s"):
        assert stats.floor_of(col) == 0.0, col
    for col in ("first_contact_x_m", "baton_rest_y_m", "speed", "lateral", "turns_first_advantage_line", "hit"):
        assert stats.floor_of(col) is None, col


def test_the_ratio_interval_of_few_clusters_is_student_s():
    from kubb3d.experiment.studies import FIRST_BATON_TEAMS, ratio_interval

    pairs = [(f, i) for _, f, i in FIRST_BATON_TEAMS]
    pooled = ratio_interval(pairs)
    n, sx = len(pairs), sum(x for _, x in pairs)
    r = sum(y for y, _ in pairs) / sx
    se = math.sqrt(n / (n - 1) * sum((y - r * x) ** 2 for y, x in pairs)) / sx
    # eight teams: t with 7 degrees of freedom, 2.365, where 1.96 was 17 % too narrow
    assert pooled["clusters"] == 8 and pooled["value"] == pytest.approx(r)
    assert (pooled["low"], pooled["high"]) == (pytest.approx(r - 2.3646 * se, abs=1e-4 * se),
                                               pytest.approx(r + 2.3646 * se, abs=1e-4 * se))
    # one team: the Wilson interval of its counts (no spread to estimate the ratio's from)
    assert (ratio_interval(pairs[:1])["low"], ratio_interval(pairs[:1])["high"]) == stats.wilson(41, 87)
    # kubbs felled per baton can pass 1: no ceiling there; a share stays at or below 1
    many = [(3, 2), (4, 2), (5, 3)]
    assert ratio_interval(many, ceiling=None)["high"] > 1.0 >= ratio_interval(many)["high"]


def test_the_reliability_page_quotes_the_quantiles():
    from pathlib import Path

    page = " ".join((Path(__file__).resolve().parents[1] / "docs" / "reliability.md").read_text().split())
    assert f"{t95(4):.3f} at n = 5, {t95(1):.3f} at n = 2" in page
    assert f"`{stats.NO_INTERVAL}`, `{stats.no_interval(10)}`" in page
