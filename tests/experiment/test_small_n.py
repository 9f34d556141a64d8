"""`experiment summary` and `experiment plot` at one and two trials per group: a mean of one trial
has no interval (it printed ``0.000 – 0.000``, a zero-width interval), a mean of two has Student's
t interval with one degree of freedom (12.706 standard errors, where 1.96 was printed), and the
interval of a count never goes below 0 (kubb3d/experiment/stats.py)."""

from __future__ import annotations

import json
import math
import statistics

import pytest
from experiment_helpers import write_tiny
from typer.testing import CliRunner

from kubb3d.cli import _register_subapps, app
from kubb3d.experiment import load_spec, read_rows, run
from kubb3d.experiment.stats import ALIKE

T1 = 12.706204736174707  # Student's t, 0.975 quantile, one degree of freedom: tan(0.475 π)


@pytest.fixture(scope="module", params=[1, 2], ids=["n1", "n2"])
def small(request, tmp_path_factory):
    """(trials per grid point, results file) of the tiny spec (2 × 2 grid points)."""
    folder = tmp_path_factory.mktemp(f"small{request.param}")
    out = folder / "r.sqlite"
    run(load_spec(write_tiny(folder, trials_per_point=request.param)), out, backend="serial", progress=False)
    return request.param, out


def _summary(results, *args: str):
    _register_subapps()
    res = CliRunner().invoke(app, ["experiment", "summary", str(results), *args])
    assert res.exit_code == 0, res.output
    return res


@pytest.mark.parametrize("measure", ["n_felled", "flight_time_s", "first_contact_x_m"])
def test_summary_json_at_one_and_two_trials(small, measure):
    n, results = small
    doc = json.loads(_summary(results, "--by", "speed", "--by", "elevation", "--measure", measure, "--json").stdout)
    assert doc["interval"] == "student t 95 %" and len(doc["groups"]) == 4
    rows = read_rows(results)
    for g in doc["groups"]:
        values = [r[measure] for r in rows if r["speed"] == g["key"]["speed"]
                  and r["elevation_deg"] == g["key"]["elevation_deg"] and r[measure] is not None]
        assert g["n"] == len(values) == n and g["value"] == pytest.approx(statistics.fmean(values))
        if n == 1 or statistics.stdev(values) <= ALIKE * max(map(abs, values)):  # one, or two alike: none
            assert g["lo"] is None and g["hi"] is None
            continue
        half = T1 * statistics.stdev(values) / math.sqrt(2)
        assert g["hi"] == pytest.approx(g["value"] + half)
        assert g["lo"] <= g["value"] <= g["hi"]
        if measure == "first_contact_x_m":  # a position: no floor
            assert g["lo"] == pytest.approx(g["value"] - half)
        else:  # a count, a time: clipped at 0 only
            assert g["lo"] == pytest.approx(max(0.0, g["value"] - half)) and g["lo"] >= 0.0


def test_summary_table_says_there_is_no_interval_at_one_trial(small):
    n, results = small
    out = _summary(results, "--by", "speed", "--by", "elevation", "--measure", "n_felled").stdout
    rows = read_rows(results)
    keys = {(r["speed"], r["elevation_deg"]) for r in rows}
    alike = sum(1 for key in keys if len({r["n_felled"] for r in rows if (r["speed"], r["elevation_deg"]) == key}) == 1)
    if n == 1:
        assert out.count("n = 1: no interval") == 4
    else:
        assert out.count("no spread in n = 2: no interval") == alike
    assert "0.000 – 0.000" not in out  # what one trial, or two alike, printed as its interval


def test_summary_rates_keep_wilson_at_one_trial(small):
    n, results = small
    doc = json.loads(_summary(results, "--by", "speed", "--by", "elevation", "--measure", "hit", "--json").stdout)
    assert doc["interval"] == "wilson 95 %"
    for g in doc["groups"]:
        assert g["n"] == n and 0.0 <= g["lo"] < g["hi"] <= 1.0


def test_plot_draws_no_bar_for_one_trial(small, tmp_path, monkeypatch):
    import matplotlib.axes

    from kubb3d.experiment.plot import plot

    bars, titles = [], []
    errorbar, set_title = matplotlib.axes.Axes.errorbar, matplotlib.axes.Axes.set_title

    def spy_bar(self, *args, **kwargs):
        bars.append(kwargs["yerr"])
        return errorbar(self, *args, **kwargs)

    def spy_title(self, text, *args, **kwargs):
        titles.append(text)
        return set_title(self, text, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "errorbar", spy_bar)
    monkeypatch.setattr(matplotlib.axes.Axes, "set_title", spy_title)
    n, results = small
    rows = read_rows(results)
    plot(rows, tmp_path / "c.png", x="speed", group_by="elevation", measure="first_contact_x_m")
    lows = [x for yerr in bars for x in yerr[0]]
    assert len(lows) == 4
    if n == 1:
        assert all(math.isnan(x) for x in lows)
        assert "hollow: 4 points without an interval (one trial, or no spread)" in titles[-1]
    else:  # two throws of a grid point fly apart (drawn azimuth and tilt): a bar each
        assert not any(math.isnan(x) for x in lows) and "hollow" not in titles[-1]
    # no zero-length bar, whatever n
    assert all(x > 0 for yerr in bars for side in yerr for x in side if not math.isnan(x))


def test_summary_by_takes_a_comma_list_as_repeated_by(small):
    # `--by ground,spin_rps` was one column name: "no column 'ground,spin_rps'"
    n, results = small
    repeated = json.loads(_summary(results, "--by", "speed", "--by", "elevation", "--json").stdout)
    listed = json.loads(_summary(results, "--by", "speed,elevation", "--json").stdout)
    spaced = json.loads(_summary(results, "--by", "speed, elevation", "--json").stdout)
    assert listed == repeated == spaced and len(listed["groups"]) == 4
    assert set(listed["groups"][0]["key"]) == {"speed", "elevation_deg"}
