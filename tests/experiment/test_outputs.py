"""Export round trips, statistics, plots, the CLI's error handling and the README example."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from cli_process import run_kubb3d, run_python
from typer.testing import CliRunner

from kubb3d.experiment import read_rows
from kubb3d.experiment.export import columns, export
from kubb3d.experiment.stats import group, match_column, wilson

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def results(tiny_reference) -> Path:
    """The tiny spec's serial results file (read only)."""
    return tiny_reference[2]


def test_parquet_round_trip(results, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    rows = read_rows(results)
    path = export(results, "parquet", tmp_path / "t.parquet")
    back = pq.read_table(path).to_pylist()
    assert len(back) == 16
    nested = {c for c in columns(rows) if any(isinstance(r.get(c), (list, dict)) for r in rows)}
    assert {"felled", "rest_positions", "judge_status", "spawn_key"} <= nested
    for r, b in zip(rows, back):
        assert list(b) == columns(rows)
        decoded = {k: (json.loads(v) if k in nested and v is not None else v) for k, v in b.items()}
        assert decoded == {c: r.get(c) for c in columns(rows)}


def test_csv_round_trip(results, tmp_path):
    rows = read_rows(results)
    path = export(results, "csv", tmp_path / "t.csv")
    with open(path, newline="") as fh:
        back = list(csv.DictReader(fh))
    assert len(back) == 16 and list(back[0]) == columns(rows)
    for r, b in zip(rows, back):
        for c in columns(rows):
            v, cell = r.get(c), b[c]
            if v is None:
                assert cell == ""
            elif isinstance(v, bool):
                assert cell == ("true" if v else "false")
            elif isinstance(v, (int, float)):
                assert float(cell) == v  # floats are written exactly
            elif isinstance(v, (list, dict)):
                assert json.loads(cell) == v
            else:
                assert cell == v


def test_exports_carry_the_provenance_of_the_results(results, tmp_path):
    """CSV and Parquet exports carried no spec, seed or versions (only the SQLite meta table
    had them): Parquet now has them in its schema metadata, CSV with --meta beside it."""
    import sqlite3

    with sqlite3.connect(results) as con:
        meta = dict(con.execute("SELECT key, value FROM meta"))
    assert json.loads(meta["spec_json"])["spec"]["seed"] == 7
    pq = pytest.importorskip("pyarrow.parquet")
    path = export(results, "parquet", tmp_path / "t.parquet")
    got = {k.decode(): v.decode() for k, v in (pq.read_schema(path).metadata or {}).items()}
    assert got == meta
    from kubb3d.cli import _register_subapps, app

    _register_subapps()
    out = tmp_path / "t.csv"
    res = CliRunner().invoke(app, ["experiment", "export", str(results), "--out", str(out), "--meta"])
    assert res.exit_code == 0, res.output
    side = tmp_path / "t.csv.meta.json"
    assert f"wrote {side}" in res.output
    assert side.is_file(), "no provenance beside the CSV"
    assert json.loads(side.read_text(encoding="utf-8")) == meta


def test_the_sql_view_gives_true_false_columns_as_1_0(results):
    """docs/experiments.md says what a true/false column is in each output."""
    import sqlite3

    with sqlite3.connect(results) as con:
        assert {v for (v,) in con.execute("SELECT hit FROM results")} <= {0, 1}
    doc = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")
    assert "`hit` (the target, or any kubb of the target half, not upright at rest; true/false)" in doc
    assert "1/0 in SQL (the `results` view), `true`/`false` in a CSV export" in " ".join(doc.split())


def test_wilson_interval_values():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    assert wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_group_rates_and_column_matching(results):
    rows = read_rows(results)
    assert match_column("elevation", columns(rows)) == "elevation_deg"
    cells = group(rows, ["speed"], lambda r: r["hit"])
    assert [c.key for c in cells] == [(9.6,), (10.4,)]
    assert [c.n for c in cells] == [8, 8]
    assert [c.k for c in cells] == [sum(r["hit"] for r in rows if r["speed"] == s) for s in (9.6, 10.4)]
    assert all(c.lo <= c.value <= c.hi for c in cells)


def _app() -> typer.Typer:
    from kubb3d.cli.experiment import register

    app = typer.Typer()

    @app.callback()
    def _main() -> None:
        pass

    register(app)
    return app


def test_plot_writes_heatmap_and_curve_pngs(results, tmp_path):
    runner = CliRunner()
    heat, curve = tmp_path / "heat.png", tmp_path / "curve.png"
    r1 = runner.invoke(
        _app(),
        [
            "experiment",
            "plot",
            str(results),
            "--x",
            "speed",
            "--y",
            "elevation",
            "--measure",
            "hit",
            "--out",
            str(heat),
        ],
    )
    r2 = runner.invoke(
        _app(),
        [
            "experiment",
            "plot",
            str(results),
            "--x",
            "tilt",
            "--measure",
            "first_contact=B2",
            "--bins",
            "2",
            "--out",
            str(curve),
        ],
    )
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    for p in (heat, curve):
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_summary_prints_rates(results):
    r = CliRunner().invoke(_app(), ["experiment", "summary", str(results), "--by", "speed", "--measure", "hit"])
    assert r.exit_code == 0, r.output
    rows = read_rows(results)
    k = sum(r_["hit"] for r_ in rows if r_["speed"] == 9.6)
    assert f"{k / 8:.3f}" in r.output and "9.6" in r.output


def test_cli_user_errors_are_one_line_exit_2(tiny_reference, tmp_path):
    spec, _, _ = tiny_reference
    bad = tmp_path / "bad.toml"
    bad.write_text(spec.read_text().replace("trials_per_point = 4", "trials_per_point = -3"))
    code = "from kubb3d.cli.experiment import main; main()"
    out = tmp_path / "r.sqlite"
    p = subprocess.run(
        [sys.executable, "-c", code, "run", str(bad), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [
        f"error: {bad}: trials_per_point: expected 1 or more, got -3"
    ]
    assert not out.exists()  # refused before any trial ran
    p = subprocess.run(
        [sys.executable, "-c", code, "plot", str(tmp_path / "none.sqlite"), "--x", "speed"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2 and p.stderr.strip() == f"error: {tmp_path / 'none.sqlite'}: no such results file"


def test_readme_example_runs(tmp_path):
    p = run_python([str(ROOT / "docs" / "example_experiment.py"), str(tmp_path)], timeout=180, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert "experiment: 12 trials" in p.stdout
    rows = read_rows(tmp_path / "example.sqlite")
    assert [r["trial"] for r in rows] == list(range(12)) and all(r["ok"] for r in rows)
    assert (tmp_path / "example-hit.png").stat().st_size > 10_000
    with open(tmp_path / "example.csv") as fh:
        assert sum(1 for _ in fh) == 13


def test_a_curve_over_categories_draws_no_line_between_them(results, tmp_path, monkeypatch):
    # `experiment plot calibration.sqlite --x skill` joined club, elite and novice by a line, as
    # if the skills were points of a scale
    import matplotlib.axes

    from kubb3d.experiment.plot import plot

    styles: list[str | None] = []
    errorbar = matplotlib.axes.Axes.errorbar

    def spy(self, *args, **kwargs):
        styles.append(kwargs.get("linestyle"))
        return errorbar(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "errorbar", spy)
    rows = read_rows(results)
    plot(rows, tmp_path / "cat.png", x="first_contact", measure="hit")
    plot(rows, tmp_path / "num.png", x="tilt", measure="hit")
    assert styles == ["none", "-"], styles


@pytest.mark.parametrize("n_x, n_y", [(12, 7), (14, 7), (23, 7), (25, 7), (40, 17), (7, 31)])
def test_heatmap_tick_labels_do_not_overlap(tmp_path, monkeypatch, n_x, n_y):
    # `experiment plot` of a partial hit-8m run (30 trials, 23 of the 25 speeds) labelled every
    # speed, each label running into the next; the labels' drawn boxes must leave a gap
    import matplotlib.figure

    from kubb3d.experiment.plot import plot

    speeds = [8.5 + 0.25 * i for i in range(n_x)]  # labels as wide as 10.25
    elevations = [10.0 + 2.5 * j for j in range(n_y)]
    rows = [
        {"trial": k, "ok": True, "speed": s, "elevation_deg": e, "hit": (k % 3 == 0)}
        for k, (s, e) in enumerate((s, e) for s in speeds for e in elevations)
    ]
    gaps: dict[str, list[float]] = {}
    savefig = matplotlib.figure.Figure.savefig

    def spy(fig, *args, **kwargs):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]  # the heatmap (the colour bar comes after it)
        for axis, labels, lo, hi in (
            ("x", ax.get_xticklabels(), "x0", "x1"),
            ("y", ax.get_yticklabels(), "y0", "y1"),
        ):
            boxes = sorted(
                (t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()),
                key=lambda b: getattr(b, lo),
            )
            gaps[axis] = [getattr(b, lo) - getattr(a, hi) for a, b in zip(boxes, boxes[1:])]
        return savefig(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", spy)
    plot(rows, tmp_path / "heat.png", x="speed", y="elevation", measure="hit")
    assert gaps["x"] and min(gaps["x"]) > 0, (n_x, gaps["x"])
    assert gaps["y"] and min(gaps["y"]) > 0, (n_y, gaps["y"])


def test_a_results_file_without_trials_is_named_in_one_line(tmp_path):
    # `run --max-trials 0` (or a run stopped before its first trial) leaves a results file with no
    # rows; summary and plot answered "no column 'speed' (columns: )"
    empty = tmp_path / "empty.sqlite"
    made = run_kubb3d("experiment", "run", "hit-8m", "--out", str(empty), "--max-trials", "0", "--backend", "serial",
                      "-q", timeout=300)
    assert made.returncode == 0 and empty.exists(), made.stderr
    for args in (
        ["summary", str(empty), "--by", "speed"],
        ["summary", str(empty), "--json"],
        ["plot", str(empty), "--x", "speed", "--out", str(tmp_path / "e.png")],
    ):
        res = run_kubb3d("experiment", *args, timeout=300)
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert res.returncode == 2 and len(lines) == 1, (args, res.stderr)
        assert lines[0].startswith(f"error: {empty}: no trial stored yet") and "experiment run" in lines[0], lines
    assert not (tmp_path / "e.png").exists()


def test_a_partial_run_heatmap_keeps_each_cell_at_its_grid_value(tmp_path, monkeypatch):
    # a partial hit-8m run lacked some speeds, and its heatmap closed the gaps: 12.75 drawn next
    # to 13.5, each cell a column left of its value. With the spec's grid the partial picture is
    # the full one with the missing columns empty
    import matplotlib.axes
    import numpy as np

    from kubb3d.experiment.plot import plot

    speeds = [8.5 + 0.25 * i for i in range(25)]
    elevations = [10.0 + 5.0 * j for j in range(7)]
    rows = [
        {"trial": k, "ok": True, "speed": s, "elevation_deg": e, "hit": (k * 7) % 5 == 0}
        for k, (s, e) in enumerate((s, e) for s in speeds for e in elevations for _ in range(2))
    ]
    drawn: list = []
    imshow = matplotlib.axes.Axes.imshow

    def spy(self, data, *args, **kwargs):
        drawn.append(np.array(data, dtype=float))
        return imshow(self, data, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "imshow", spy)
    grid = {"speed": tuple(speeds), "elevation_deg": tuple(elevations)}
    missing = {speeds[3], speeds[18], speeds[19]}
    plot(rows, tmp_path / "full.png", x="speed", y="elevation", measure="hit", grid_values=grid)
    part = [r for r in rows if r["speed"] not in missing]
    plot(part, tmp_path / "part.png", x="speed", y="elevation", measure="hit", grid_values=grid)
    plot(part, tmp_path / "nogrid.png", x="speed", y="elevation", measure="hit")
    full, partial, closed = drawn
    assert partial.shape == full.shape == (7, 25)
    gaps = [speeds.index(s) for s in sorted(missing)]
    assert np.isnan(partial[:, gaps]).all()
    kept = [i for i in range(25) if i not in gaps]
    assert np.array_equal(partial[:, kept], full[:, kept])
    assert closed.shape == (7, 22)  # without the grid the columns close up (the old picture)


def _heatmap_words(rows, path, monkeypatch, **kwargs) -> tuple[str, list[str]]:
    """(title, legend texts) of the heatmap ``plot`` draws of ``rows``."""
    import matplotlib.figure

    from kubb3d.experiment.plot import plot

    seen: list = []
    savefig = matplotlib.figure.Figure.savefig

    def spy(self, *args, **kw):
        ax = self.axes[0]
        legend = ax.get_legend()
        seen.append((ax.get_title(), [t.get_text() for t in legend.get_texts()] if legend else []))
        return savefig(self, *args, **kw)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", spy)
    plot(rows, path, x="speed", y="elevation", measure="hit", **kwargs)
    monkeypatch.undo()
    return seen[-1]


def test_a_partial_run_heatmap_says_how_many_cells_ran(tmp_path, monkeypatch):
    # after `--max-trials 160` of a 25 × 7 grid the title said "160 trials, 1 per cell" while 15
    # cells were empty (white, in no legend)
    speeds = [8.5 + 0.25 * i for i in range(25)]
    elevations = [10.0 + 5.0 * j for j in range(7)]
    cells = [(s, e) for e in elevations for s in speeds]
    rows = [
        {"trial": k, "ok": True, "speed": s, "elevation_deg": e, "hit": k % 3 == 0} for k, (s, e) in enumerate(cells)
    ]
    grid = {"speed": tuple(speeds), "elevation_deg": tuple(elevations)}
    title, legend = _heatmap_words(rows, tmp_path / "full.png", monkeypatch, grid_values=grid)
    assert title == "hit\n175 trials, 1 per cell" and legend == []
    title, legend = _heatmap_words(rows[:160], tmp_path / "part.png", monkeypatch, grid_values=grid)
    assert title == "hit\n160 of 175 cells run, 1 trial each" and legend == ["not run (15)"]
    twice = rows[:160] + [dict(r, trial=r["trial"] + 1000) for r in rows[:10]]
    title, legend = _heatmap_words(twice, tmp_path / "uneven.png", monkeypatch, grid_values=grid)
    assert title == "hit\n160 of 175 cells run, 170 trials" and legend == ["not run (15)"]
