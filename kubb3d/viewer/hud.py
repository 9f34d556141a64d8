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
        last_throw: the last-throw panel (what the throw did), shown once it is at rest.
        summary: the end-of-match panel (shown centred when not empty).
        labels: piece labels, (text, x px, y px from the top-left) where each is drawn.
        avoid: screen rectangles (x0, y0, x1, y1) px from the top-left that panels must not
            cover (the pieces in view).
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
    last_throw: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    labels: list[tuple[str, float, float]] = field(default_factory=list)
    avoid: list[tuple[float, float, float, float]] = field(default_factory=list)


HELP_PLAY = [
    "mouse: aim    hold left button or SPACE: power, release to throw",
    "wheel / UP DOWN: elevation    Q E: spin    Z X: tilt    H: helicopter",
    "LEFT RIGHT: release point along the line    W S: step forward / back",
    "1 thrower  2 orbit  3 top  4 follow  C cycle  0 reset camera    right drag: orbit   SHIFT drag: pan   +/-: zoom",
    "M: slow motion    P: pause    N: skip to rest    R: new round (after a match: rematch)",
    "L: piece labels    F12: save a screenshot    F1: help    ESC: quit",
]
HELP_FLICK = [
    "mouse: direction of the flick    hold left button or SPACE: power, release to flick",
    "Q E: spin    LEFT RIGHT: disk along the line (SHIFT: 5 cm)    W S: forward / back",
    *HELP_PLAY[3:],
]
HELP_VIEW = [
    "SPACE: play / pause    RIGHT LEFT: next / previous throw    UP DOWN: speed",
    "HOME END: start / end    click the timeline: seek",
    "1 thrower  2 orbit  3 top  4 follow  C cycle  0 reset camera    right drag: orbit   SHIFT drag: pan   +/-: zoom",
    "M: slow motion    L: piece labels    F12: save a screenshot    F1: help    ESC: quit",
]


def font_size(width: int) -> int:
    """HUD text size, pt, for a window ``width`` px wide: 12 from 1100 px up, smaller in
    proportion below, never under 7."""
    return int(max(7, min(12, round(12 * width / 1100))))


def throw_lines(c: ThrowControls) -> list[str]:
    """The current throw (or flick) settings, one item per line."""
    where = "behind" if c.behind_line >= 0 else "PAST"
    if getattr(c, "flick", False):
        return [
            f"flick: azimuth {c.azimuth_deg:+.1f}°   spin {c.spin_rps:+.1f} rev/s",
            f"disk at y {c.lateral * 100:+.1f} cm, {c.behind_line * 100:.1f} cm behind the line (x {c.line * 100:+.1f} cm)",
        ]
    return [
        f"elevation {c.elevation_deg:+.0f}°   azimuth {c.azimuth_deg:+.1f}°",
        f"spin {c.spin_rps:+.2f} rev/s   tilt {c.tilt_deg:+.0f}°   helicopter {'ON' if c.helicopter else 'off'}",
        f"release y {c.lateral:+.2f} m, {abs(c.behind_line):.2f} m {where} the line (x {c.line:+.2f} m)",
    ]


def power_label(c: ThrowControls) -> str:
    """Power, the release speed it gives and the speed range of the piece in hand, m/s."""
    lo, hi = getattr(c, "speed_range", (SPEED_MIN, SPEED_MAX))
    digits = 1 if hi < 5 else 0  # a flick's range is a few m/s
    return f"power {c.power * 100:3.0f} %  →  {c.speed:.1f} m/s  ({lo:.{digits}f}–{hi:.{digits}f} m/s)"


def outcome_line(winner: str | None, reason: str, person: str | None = None) -> str:
    """The one human-worded line for the end of a match: who won and why (the rules engine's
    reason, which cites its rule)."""
    who = "draw" if winner is None else ("you win" if winner == person else f"{winner} wins")
    return f"match over: {who}: {reason}" if reason else f"match over: {who}"


def violation_lines(violations) -> list[str]:
    """``ILLEGAL (rule): reason`` for each :class:`kubb3d.throw.Violation`."""
    return [f"ILLEGAL ({v.rule}): {v.reason}" for v in violations]


def ruling_lines(rulings, width: int = 48) -> list[str]:
    """The side panel: one header line per ruling with a consequence (piece, status,
    consequence, citations) followed by its reason wrapped to ``width`` characters and
    indented; the pieces that simply still stand share one line per citation."""
    out = []
    standing: dict[str, list[str]] = {}
    for r in rulings:
        status = getattr(r.status, "value", r.status)
        consequence = str(getattr(r.consequence, "value", r.consequence))
        cites = ", ".join(r.rules)
        if consequence == "none" and status == "standing":
            standing.setdefault(cites, []).append(r.piece)
            continue
        out.append(f"{r.piece}: {status}" + (f", {consequence}" if consequence != "none" else "") + f"  [{cites}]")
        for part in textwrap.wrap(r.reason, width):
            out.append("   " + part)
    for cites, pieces in standing.items():
        out.append(f"still standing: {', '.join(pieces)}  [{cites}]")
    return out


def legend_items() -> list[tuple[str, tuple[float, float, float]]]:
    """(label, colour) of each status overlay."""
    return list(STATUS_COLORS.items())


def last_throw_lines(seg) -> list[str]:
    """The last-throw panel of a played-back :class:`~kubb3d.viewer.scene.Segment` at rest:
    the piece and its release speed (m/s), where it came down (m), the first piece it hit,
    legal or not (with the rules broken) and what the judge counts as felled."""
    f = seg.info.get("throw") if seg is not None else None
    if not f:
        return []
    land = f["landing"]
    felled = [r.piece for r in seg.rulings if str(getattr(r.consequence, "value", r.consequence)) == "counts as felled"]
    if f.get("slid"):  # a flick: where the disk stopped, in cm on the board
        rest = f.get("rest")
        where = "stopped at " + (f"x {rest[0] * 100:+.1f} cm, y {rest[1] * 100:+.1f} cm" if rest else "-")
    else:
        where = "came down at " + (f"x {land[0]:+.2f} m, y {land[1]:+.2f} m" if land else "-")
    return [
        f"last {'flick' if f.get('slid') else 'throw'}: {f['piece']} at {f['speed_mps']:.1f} m/s",
        where + f"   first hit: {f['first_hit'] or 'nothing'}",
        ("legal" if f["legal"] else "ILLEGAL (" + ", ".join(f["violations"]) + ")") + f"   felled: {', '.join(felled) if felled else 'nothing'}",
    ]
