"""The figure of ``kubb3d validate --png`` (docs/images/validation.png) drawn from the rows of
docs/validation.md: no two of its texts overlap and all lie inside the picture. Its bar
labels, the rows' whole quantities turned 60°, once piled into each other over the rebound
and slide panels, and the convergence rows were drawn as if they were the formula's."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from kubb3d.validate import Report, Row, figure, short_label

DOC = Path(__file__).resolve().parents[1] / "docs" / "validation.md"


def _doc_report() -> Report:
    """The rows of docs/validation.md's tables (group, quantity, reference, source, expected,
    simulated, tolerance, passed) and four time steps, as a :class:`Report`."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 8 or cells[0] not in ("rebound", "slide", "roll"):
            continue
        group, quantity, reference, source, expected, simulated, tolerance, passed = cells
        number = re.compile(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?) ?(.*)")
        (e, unit), (s, _) = number.fullmatch(expected).groups(), number.fullmatch(simulated).groups()  # type: ignore[union-attr]
        rows.append(Row(group, quantity, reference, source, float(e), float(s), unit, tolerance, passed == "yes"))
    return Report(rows=rows, felled_vs_dt=[(1 / n, 0.38 + n / 1e5, 0.02, 2000) for n in (240, 480, 960, 1920)])


def test_the_doc_has_the_rows_the_figure_draws():
    report = _doc_report()
    assert sum(r.group == "rebound" and not r.reference.startswith("the same at") for r in report.rows) == 12
    assert sum(r.group == "slide" for r in report.rows) >= 20


QUICK_LABELS = {"baton, grass", "baton, grass hf", "kubb, grass", "kubb, grass hf", "kubb 2 m/s, grass",
                "baton 6 m/s, grass", "kubb 2 m/s, grass hf 0°", "baton roll 3 m/s, turf"}
"""The rows `kubb3d validate --quick --png` draws (no player throws: no time-step panel)."""


def _quick_report() -> Report:
    """docs/validation.md's rows of a `--quick` run: four bars a panel, no hit rates."""
    rows = [r for r in _doc_report().rows if short_label(r.quantity) in QUICK_LABELS]
    return Report(rows=rows, felled_vs_dt=[])


@pytest.mark.parametrize("quick", [False, True])
def test_no_two_texts_of_the_figure_overlap_and_all_lie_inside_it(quick):
    """`kubb3d validate --quick --png` drew its two legends over the tick labels and the axis
    labels of the short panels (placed at -0.09 of the axes' height) and an empty time-step
    panel: the figure of a --quick run is checked as the full one is, and its time-step panel
    says why it is empty."""
    fig = figure(_quick_report() if quick else _doc_report())
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    page = fig.bbox
    texts = [*fig.texts]
    for ax in fig.axes:
        texts += ax.texts  # the tick labels drawn (those of ticks within the axis' view), titles, legends
        x0, x1 = sorted(ax.get_xlim())
        y0, y1 = sorted(ax.get_ylim())
        texts += [t for t in ax.get_xticklabels() if x0 <= t.get_position()[0] <= x1]
        texts += [t for t in ax.get_yticklabels() if y0 <= t.get_position()[1] <= y1]
        texts += [ax.title, ax.xaxis.label, ax.yaxis.label]
        legend = ax.get_legend()
        texts += legend.get_texts() if legend else []
    texts = [t for t in texts if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    labels = [name for name, _ in boxes]
    if quick:
        assert set(labels) >= QUICK_LABELS and "baton, wet-grass hf" not in labels
        assert "not run: --quick plays no player throws" in labels
    else:
        assert "baton, wet-grass hf" in labels and "kubb 2 m/s, grass hf 30°" in labels
        assert not any(name.startswith("not run") for name in labels)
    for name, box in boxes:
        assert page.x0 - 0.5 <= box.x0 and box.x1 <= page.x1 + 0.5, name
        assert page.y0 - 0.5 <= box.y0 and box.y1 <= page.y1 + 0.5, name
    overlaps = [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
                if box_a.overlaps(box_b) and box_a.width > 0 and box_b.width > 0]
    assert not overlaps, overlaps[:5]
    for ax in fig.axes:  # no legend over a bar
        legend = ax.get_legend()
        if legend is not None:
            box = legend.get_window_extent(renderer)
            assert not any(box.overlaps(bar.get_window_extent(renderer)) for bar in ax.patches), ax.get_title()


@pytest.mark.parametrize("quantity, label", [
    ("baton dropped lying flat from 1 m on grass (flat ground), worst of 4 drops over one step's fall", "baton, grass"),
    ("kubb dropped on its end from 1 m on wet-grass (flat heightfield), worst of 4 drops over one step's fall",
     "kubb, wet-grass hf"),
    ("lying baton sliding along its axis from 6 m/s on grass (flat heightfield, heading 45°)",
     "baton 6 m/s, grass hf 45°"),
    ("baton rolling from 3 m/s on grass, rolling at 45° to the ground's axes", "baton roll 3 m/s, grass 45°"),
])
def test_short_labels(quantity, label):
    assert short_label(quantity) == label


def test_every_drawn_row_has_its_own_label():
    report = _doc_report()
    drawn = [r for r in report.rows if not r.reference.startswith("the same at") and "slope" not in r.quantity]
    for group in (("rebound",), ("slide", "roll")):
        names = [short_label(r.quantity) for r in drawn if r.group in group]
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
