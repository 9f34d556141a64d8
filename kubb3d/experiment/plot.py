"""Plots of experiment results (matplotlib, Agg backend, PNG).

* ``x`` and ``y`` given: a heatmap of the measure over the two columns, each cell labelled
  with its rate (or mean) and its number of trials. After a partial run (``--max-trials``) the
  title says how many cells ran (``160 of 175 cells run, 1 trial each``) and the legend names
  the grey cells no trial has reached (``not run (15)``).
* only ``x``: curves of the measure against ``x`` (one per value of ``group``) with 95 %
  intervals: Wilson for rates, Student's t for means (:mod:`kubb3d.experiment.stats`; the low end
  at 0 for a count, a time or a distance). A mean of one trial, or of trials all alike, has no
  interval: its point is drawn hollow, without a bar, and the title says so.

Continuous columns (drawn values: more than 3 × ``bins`` distinct values) are binned into
``bins`` equal bins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from kubb3d.experiment.export import columns
from kubb3d.experiment.stats import bin_column, floor_of, group, key_value, match_column, measure_fn
from kubb3d.ranges import counted

UNITS = {
    "speed": "m/s",
    "_deg": "°",
    "_rps": "rev/s",
    "_mps": "m/s",
    "_s": "s",
    "height": "m",
    "lateral": "m",
    "behind_line": "m",
    "terrain_cm": "cm",
}


NOT_RUN_COLOUR = "0.85"
"""The colour of a heatmap cell no trial has run yet (a partial run), named in the legend."""
MAX_X_LABELS = 13
"""The most tick labels a heatmap's horizontal axis carries (every k-th cell's value)."""
MAX_Y_LABELS = 16
"""The same for its vertical axis."""


def axis_label(col: str) -> str:
    """``elevation_deg`` → ``elevation (°)``; ``speed`` → ``speed (m/s)``."""
    for key, unit in UNITS.items():
        if key.startswith("_") and col.endswith(key):
            return f"{col[: -len(key)].replace('_', ' ')} ({unit})"
        if col == key:
            return f"{col.replace('_', ' ')} ({unit})"
    return col.replace("_", " ")


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def plot(
    rows: Sequence[dict],
    out: str | Path,
    *,
    x: str,
    measure: str,
    y: str | None = None,
    group_by: str | None = None,
    bins: int = 12,
    title: str | None = None,
    grid_values: Mapping[str, Sequence[Any]] | None = None,
) -> Path:
    """Draw the results and save a PNG.

    Args:
        rows: result rows (:func:`kubb3d.experiment.read_rows`).
        out: PNG path.
        x: column on the horizontal axis (``speed``; ``elevation`` finds ``elevation_deg``).
        measure: a column (``hit``, ``n_felled``) or ``column=value`` (``status_L=leaning``).
        y: second column for a heatmap.
        group_by: one curve per value of this column (curves only).
        bins: bins for continuous columns (see the module doc).
        title: figure title (default: the measure).
        grid_values: the spec's grid factors, column → its values: a heatmap axis on such a column has
            a cell for every value, an empty one where no trial has it yet (a partial run), so
            that cells stand where their values do.

    Returns:
        The PNG path.

    Raises:
        ValueError: unknown column, no ok trials, ``group_by`` with a heatmap.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cols = columns(list(rows))
    label, fn, binary = measure_fn(measure, cols)
    xc = match_column(x, cols)
    rows, xc = bin_column(rows, xc, bins)
    n_ok = sum(1 for r in rows if r.get("ok"))
    n_failed = len(rows) - n_ok
    if n_ok == 0:
        raise ValueError("no successful trials to plot")
    if y is not None and group_by is not None:
        raise ValueError("--group works with curves (no --y)")
    fig, ax = plt.subplots(figsize=(7.5, 5.5), dpi=120)
    binary_values = None if not binary else True
    note = counted(n_ok, 'trial') + (f", {n_failed} failed (left out)" if n_failed else "")
    if y is not None:
        per_cell: dict[tuple[Any, Any], int] = {}
        for r in rows:
            if r.get("ok"):
                key = (key_value(r.get(match_column(x, cols))), key_value(r.get(match_column(y, cols))))
                per_cell[key] = per_cell.get(key, 0) + 1
        uniform = per_cell and len(set(per_cell.values())) == 1
        if uniform:
            note += f", {next(iter(per_cell.values()))} per cell"
    if y is not None:
        yc = match_column(y, cols)
        rows, yc = bin_column(rows, yc, bins)
        cells = group(rows, [xc, yc], fn, binary_values)
        if not cells:
            raise ValueError(f"no values of {label!r} in the results")
        xs = _with_grid({c.key[0] for c in cells}, (grid_values or {}).get(xc))
        ys = _with_grid({c.key[1] for c in cells}, (grid_values or {}).get(yc))
        grid = np.full((len(ys), len(xs)), np.nan)
        counts = np.zeros((len(ys), len(xs)), dtype=int)
        for c in cells:
            i, j = ys.index(c.key[1]), xs.index(c.key[0])
            grid[i, j], counts[i, j] = c.value, c.n
        is_rate = all(c.k is not None for c in cells)
        ran = {(key_value(r.get(xc)), key_value(r.get(yc))) for r in rows if r.get("ok")}
        n_run, n_cells = len(ran & {(a, b) for a in xs for b in ys}), len(xs) * len(ys)
        if n_run < n_cells:  # a partial run: "1 per cell" was said of a grid with empty cells
            each = counted(next(iter(per_cell.values())), "trial") + " each" if uniform else counted(n_ok, "trial")
            note = f"{n_run} of {counted(n_cells, 'cell')} run, {each}"
            note += f", {n_failed} failed (left out)" if n_failed else ""
        cmap = matplotlib.colormaps["viridis"].with_extremes(bad=NOT_RUN_COLOUR)  # was the axes' white, in no legend
        im = ax.imshow(
            grid,
            origin="lower",
            aspect="auto",
            cmap=cmap,
            vmin=0.0 if is_rate else None,
            vmax=1.0 if is_rate else None,
        )
        heat_ticks = (ax, xs, ys)  # labelled once the layout is final (_label_cells)
        ax.set_xlabel(axis_label(xc))
        ax.set_ylabel(axis_label(yc))
        if n_run < n_cells:
            from matplotlib.patches import Patch

            ax.legend(
                handles=[Patch(facecolor=NOT_RUN_COLOUR, edgecolor="0.5", label=f"not run ({n_cells - n_run})")],
                loc="upper left",
                bbox_to_anchor=(0.0, -0.1),
                fontsize=8,
                frameon=False,
            )
        bar = fig.colorbar(im, ax=ax)
        bar.set_label(f"{label} rate" if is_rate else f"mean {label}")
        label_cells = len(xs) <= 12 and len(ys) <= 16  # room for "rate / n" in each cell
        for i in range(len(ys) if label_cells else 0):
            for j in range(len(xs)):
                if counts[i, j]:
                    v = grid[i, j]
                    text = f"{100 * v:.0f}%" if is_rate else f"{v:.3g}"
                    ax.text(
                        j,
                        i,
                        f"{text}\nn={counts[i, j]}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if (is_rate and v < 0.6) else "black",
                    )
    else:
        gc = match_column(group_by, cols) if group_by else None
        groups = sorted({key_value(r.get(gc)) for r in rows if r.get("ok")}, key=_order) if gc else [None]
        any_line = False
        singles = 0
        for g in groups:
            sub = [r for r in rows if gc is None or key_value(r.get(gc)) == g]
            cells = group(sub, [xc], fn, binary_values, floor=floor_of(label))
            if not cells:
                continue
            any_line = True
            xv = [c.key[0] for c in cells]
            numeric = all(isinstance(v, (int, float)) for v in xv)
            pos = xv if numeric else list(range(len(xv)))
            val = [c.value for c in cells]
            # no bar (NaN) where there is no interval (one trial, no spread), never a zero-length one
            err = [[np.nan if c.lo is None else max(0.0, c.value - c.lo) for c in cells],
                   [np.nan if c.hi is None else max(0.0, c.hi - c.value) for c in cells]]
            # a line only joins numbers: between categories (club, elite, novice) it would invent an order
            bars = ax.errorbar(pos, val, yerr=err, marker="o", capsize=3, linestyle="-" if numeric else "none",
                               label=None if gc is None else f"{gc} = {_fmt(g)}")
            single = [(p, c.value) for p, c in zip(pos, cells) if c.lo is None]
            if single:
                ax.plot(*zip(*single), linestyle="none", marker="o", markersize=7, markerfacecolor="white",
                        markeredgecolor=bars.lines[0].get_color())
                singles += len(single)
            if not numeric:
                ax.set_xticks(pos, [_fmt(v) for v in xv])
        if not any_line:
            raise ValueError(f"no values of {label!r} in the results")
        is_rate = binary or all(isinstance(fn(r), bool) for r in rows if r.get("ok") and fn(r) is not None)
        ax.set_xlabel(axis_label(xc))
        ax.set_ylabel(f"{label} rate (95 % Wilson interval)" if is_rate else f"mean {label} (95 % t interval)")
        if singles:
            note += f"; hollow: {counted(singles, 'point')} without an interval (one trial, or no spread)"
        if is_rate:
            ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        if gc is not None:
            ax.legend(fontsize=8)
    ax.set_title(f"{title or label}\n{note}", fontsize=10)
    fig.tight_layout()
    if y is not None:
        _label_cells(fig, *heat_ticks)
        fig.tight_layout()  # again, around the labels kept
    from kubb3d.files import write_output

    # the output rule (kubb3d.files): the folder must exist, no symlink or device followed,
    # a full disk is an error (not "wrote")
    try:
        out = write_output(out, lambda tmp: fig.savefig(tmp, format="png"), "--out")
    finally:
        plt.close(fig)
    return out


def _with_grid(present: set, values: Sequence[Any] | None) -> list:
    """An axis's values in order: those of ``present``, and all the grid factor's ``values``
    when it has every present one (a binned or another column keeps its own)."""
    if values is not None and present <= set(values):
        present = present | set(values)
    return sorted(present, key=_order)


def _label_cells(fig, ax, xs: list, ys: list) -> None:
    """Label every k-th cell of a heatmap's axes with its value: k the smallest step from
    ``len / MAX_*_LABELS`` on at which no two labels' drawn boxes touch (a partial run's 23
    speeds were once all labelled, one over the next; binned values such as 8.9875 are wide)."""
    for values, set_ticks, labels, lo, hi, most in (
        (xs, ax.set_xticks, ax.get_xticklabels, "x0", "x1", MAX_X_LABELS),
        (ys, ax.set_yticks, ax.get_yticklabels, "y0", "y1", MAX_Y_LABELS),
    ):
        step = max(1, -(-len(values) // most))
        while True:
            set_ticks(range(0, len(values), step), [_fmt(v) for v in values[::step]])
            fig.canvas.draw()
            renderer = fig.canvas.get_renderer()
            boxes = sorted(
                (text.get_window_extent(renderer) for text in labels() if text.get_text()),
                key=lambda box: getattr(box, lo),
            )
            apart = all(getattr(b, lo) > getattr(a, hi) for a, b in zip(boxes, boxes[1:]))
            if apart or step >= len(values):
                break
            step += 1


def _order(v):
    return (0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))
