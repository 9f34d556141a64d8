"""HUD contents as plain data (no OpenGL): the text and bars the app draws over the 3D view.

Angles are shown in degrees and spins in rev/s (the edge of the program, README "The model").
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from kubb3d.viewer.controls import SPEED_MAX, SPEED_MIN, ThrowControls
from kubb3d.viewer.scene import STATUS_COLORS


@dataclass
class Hud:
    """What the overlay shows.

    Attributes:
        title: first line, top left.
        lines: the status panel under it (top left).
        power: power-bar fill in [0, 1] or None (no bar).
        power_label: text under the bar.
        flags: red banners (illegal throws with their rules), top centre.
        rulings: the side panel (top right), one entry per line.
        legend: show the status colour legend (bottom left).
        timeline: playback position in [0, 1] or None; ``marks``: segment starts in [0, 1].
        help: help lines (shown centred when not empty).
        message: a one-line message (bottom centre).
    """

    title: str = ""
    lines: list[str] = field(default_factory=list)
    power: float | None = None
    power_label: str = ""
    flags: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    legend: bool = False
    timeline: float | None = None
    marks: list[float] = field(default_factory=list)
    help: list[str] = field(default_factory=list)
    message: str = ""


HELP_PLAY = [
    "mouse: aim    hold left button or SPACE: power, release to throw",
    "wheel / UP DOWN: elevation    Q E: spin    Z X: tilt    H: helicopter",
    "LEFT RIGHT: release point along the line    W S: step forward / back",
    "1 thrower  2 orbit  3 top  4 follow  C cycle    right drag: orbit   SHIFT drag: pan   +/-: zoom",
    "M: slow motion    P: pause    N: skip to rest    R: new round    F1: help    ESC: quit",
]
HELP_VIEW = [
    "SPACE: play / pause    RIGHT LEFT: next / previous throw    UP DOWN: speed",
    "HOME END: start / end    click the timeline: seek",
    "1 thrower  2 orbit  3 top  4 follow  C cycle    right drag: orbit   SHIFT drag: pan   +/-: zoom",
    "M: slow motion    F1: help    ESC: quit",
]


def font_size(width: int) -> int:
    """HUD text size, pt, for a window ``width`` px wide: 12 from 1100 px up, smaller in
    proportion below, never under 7."""
    return int(max(7, min(12, round(12 * width / 1100))))


def throw_lines(c: ThrowControls) -> list[str]:
    """The current throw settings, one item per line."""
    where = "behind" if c.behind_line >= 0 else "PAST"
    return [
        f"elevation {c.elevation_deg:+.0f}°   azimuth {c.azimuth_deg:+.1f}°",
        f"spin {c.spin_rps:+.2f} rev/s   tilt {c.tilt_deg:+.0f}°   helicopter {'ON' if c.helicopter else 'off'}",
        f"release y {c.lateral:+.2f} m, {abs(c.behind_line):.2f} m {where} the line (x {c.line:+.2f} m)",
    ]


def power_label(c: ThrowControls) -> str:
    return f"power {c.power * 100:3.0f} %  →  {c.speed:.1f} m/s  ({SPEED_MIN:.0f}–{SPEED_MAX:.0f})"


def violation_lines(violations) -> list[str]:
    """``ILLEGAL (rule): reason`` for each :class:`kubb3d.throw.Violation`."""
    return [f"ILLEGAL ({v.rule}): {v.reason}" for v in violations]


def ruling_lines(rulings, width: int = 64) -> list[str]:
    """The side panel: one header line per ruling (piece, status, consequence, citations);
    the reason, wrapped to ``width`` characters and indented, follows for every ruling with
    a consequence (a kubb that simply still stands needs no explanation)."""
    out = []
    for r in rulings:
        status = getattr(r.status, "value", r.status)
        consequence = getattr(r.consequence, "value", r.consequence)
        cites = ", ".join(r.rules)
        out.append(f"{r.piece}: {status}" + (f", {consequence}" if consequence != "none" else "") + f"  [{cites}]")
        if consequence != "none" or r.piece == "king" and status != "standing":
            for part in textwrap.wrap(r.reason, width):
                out.append("   " + part)
    return out


def legend_items() -> list[tuple[str, tuple[float, float, float]]]:
    """(label, colour) of each status overlay."""
    return list(STATUS_COLORS.items())
