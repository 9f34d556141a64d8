"""The figure of ``kubb3d validate --png`` (docs/images/validation.png): rebounds and slide and
roll distances against their formulas, and kubbs felled per baton against the time step."""

from __future__ import annotations

import re

import numpy as np

from kubb3d.physics.world import DT
from kubb3d.validate.rows import Report, Row


def short_label(quantity: str) -> str:
    """A figure's short name of a rebound, slide or roll row: the piece, the speed of a slide
    or roll, the ground, ``hf`` for a flat heightfield and the heading or angle, e.g.
    ``"baton, wet-grass hf"``, ``"kubb 2 m/s, grass hf 30°"``, ``"baton roll 3 m/s, grass 45°"``."""
    piece = "kubb" if quantity.split()[0] == "kubb" or quantity.startswith("lying kubb") else "baton"
    speed = re.search(r"from (\d+(?:\.\d+)?) m/s", quantity)
    grounds = re.findall(r" on ([\w-]+)", quantity)  # the last: "on its end from 1 m on grass"
    angle = re.search(r"(?:heading|at) (\d+)°", quantity)
    words = [piece + (" roll" if "rolling" in quantity else "") + (f" {speed.group(1)} m/s" if speed else "")]
    place = (grounds[-1] if grounds else "?") + (" hf" if "heightfield" in quantity else "")
    return f"{words[0]}, {place}" + (f" {angle.group(1)}°" if angle else "")


def figure(report: Report):
    """The figure of :func:`write_figure` (a matplotlib ``Figure``): horizontal bars, one row a
    quantity under its short name (:func:`short_label`), so that no two labels overlap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.transforms import offset_copy

    def formula(group: str, row: Row) -> bool:  # the rows against a formula, not a halved step
        halved = row.reference.startswith("the same at")
        return row.group in group.split() and not halved and "slope" not in row.quantity

    rebound = "e² h + e √(2 g h) dt / 2"
    slide = "v² / (2 μ g); rolling: (1 + ½) v² / (2 c_rr g)"
    panels = [
        ([r for r in report.rows if formula("rebound", r)], rebound, "rebound, cm", "Rebound after a 1 m drop",
         ("#9bb", "#386")),
        ([r for r in report.rows if formula("slide roll", r)], slide, "distance, m", "Slide and roll distances",
         ("#bb9", "#a63")),
    ]
    tallest = max(len(rows) for rows, *_ in panels)
    fig, axes = plt.subplots(1, 3, figsize=(16, max(4.5, 1.6 + 0.26 * tallest)), width_ratios=(1, 1, 1.1))
    for ax, (rows, reference, unit, title, (c_ref, c_sim)) in zip(axes, panels):
        ys = np.arange(len(rows))[::-1]  # the first row on top
        ax.barh(ys + 0.2, [r.expected for r in rows], 0.4, label=reference, color=c_ref)
        ax.barh(ys - 0.2, [r.simulated for r in rows], 0.4, label="simulated", color=c_sim)
        ax.set_yticks(ys, [short_label(r.quantity) for r in rows], fontsize=8)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(unit)
        ax.set_title(title)
        # under the bars, 34 points below the axes whatever their height: at -0.09 of the axes'
        # height, the short panels of --quick put it over the tick labels and the axis label
        below = offset_copy(ax.transAxes, fig=fig, y=-34, units="points")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, frameon=False)
    ax = axes[2]
    if report.felled_vs_dt:
        dts = [1 / d for d, *_ in report.felled_vs_dt]
        ax.errorbar(
            dts,
            [p for _, p, _, _ in report.felled_vs_dt],
            yerr=[c for _, _, c, _ in report.felled_vs_dt],
            fmt="o-",
            capsize=4,
        )
        ax.set_xscale("log", base=2)
        ax.set_xticks(dts, [f"1/{round(d)}" for d in dts])
        ax.minorticks_off()
        ax.axvline(1 / DT, color="grey", ls=":", label="default step")
        ax.legend(fontsize=8)
    else:  # --quick plays no throws: say so rather than leave an empty frame
        ax.set_xticks([])
        ax.set_yticks([])
        ax.text(0.5, 0.5, "not run: --quick plays no player throws", ha="center", va="center", fontsize=9,
                transform=ax.transAxes)
    ax.set_xlabel("time step, s")
    ax.set_ylabel("kubbs felled per baton (elite, 8 m)")
    ax.set_title("Hit rate against the time step")
    fig.text(0.005, 0.005, "hf: flat heightfield", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def write_figure(report: Report, path) -> None:
    """A PNG: rebound per piece and ground (the formula against the simulation), slide and roll
    distance per piece and ground, and kubbs felled per baton against the time step (with 95 %
    intervals)."""
    import matplotlib.pyplot as plt

    fig = figure(report)
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
