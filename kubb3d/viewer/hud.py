"""HUD contents as plain data (no OpenGL): the text and bars the app draws over the 3D view.

Angles are shown in degrees and spins in rev/s (the edge of the program, README "The model").
Texts are built as messages (:mod:`kubb3d.judge.messages`) and put into the chosen language by
:func:`translate_hud` where the app draws them (docs/german.md).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable

from kubb3d.i18n import ENGLISH, Translator
from kubb3d.judge.messages import N_, Msg, concat, ids, join, msg, piece_name
from kubb3d.viewer.controls import SPEED_MAX, SPEED_MIN, ThrowControls
from kubb3d.viewer.scene import STATUS_COLORS


@dataclass
class Hud:
    """What the overlay shows.

    Attributes:
        title: first line, top left.
        lines: the status panel under it (top left).
        power: power-bar fill in [0, 1] or None (no bar).
        power_mark: the previous release's power in [0, 1], marked on the bar, or None.
        power_label: text under the bar.
        settings: the throw being prepared (angles, spin, release point), over the power bar.
        flags: red banners (illegal throws with their rules), top centre.
        rulings: the side panel (top right), one entry per line.
        legend: show the status colour legend (bottom left).
        timeline: playback position in [0, 1] or None; ``marks``: segment starts in [0, 1].
        help: help lines (shown centred when not empty).
        message: a one-line message (bottom centre).
        last_throw: the last-throw panel (what the throw did), shown once it is at rest.
        summary: the end-of-match panel (shown centred when not empty).
        rulings_list: the rulings list (TAB): every ruling so far with its reason and rule,
            the latest first (shown centred when not empty).
        prompt: a question the person answers with a key (the lag winner's choice, ``DM §3``),
            shown centred when not empty.
        labels: piece labels, (text, x px, y px from the top-left) where each is drawn.
        avoid: screen rectangles (x0, y0, x1, y1) px from the top-left that panels must not
            cover (the pieces in view).
    """

    title: str = ""
    lines: list[str] = field(default_factory=list)
    power: float | None = None
    power_mark: float | None = None
    power_label: str = ""
    settings: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    legend: bool = False
    timeline: float | None = None
    marks: list[float] = field(default_factory=list)
    help: list[str] = field(default_factory=list)
    message: str = ""
    last_throw: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    rulings_list: list[str] = field(default_factory=list)
    prompt: list[str] = field(default_factory=list)
    labels: list[tuple[str, float, float]] = field(default_factory=list)
    avoid: list[tuple[float, float, float, float]] = field(default_factory=list)


HELP_PLAY = [
    N_("mouse: aim    hold left button or SPACE: power, release to throw    right button or ESC: cancel the charge"),
    N_("wheel / UP DOWN: elevation    Q E: spin    Z X: tilt    H: helicopter"),
    N_("LEFT RIGHT: release point along the line    W S: step forward / back"),
    N_("1 thrower  2 orbit  3 top  4 follow  C cycle  0 reset camera    right drag: orbit   SHIFT drag: pan   +/-: zoom"),
    N_("M: slow motion of your throws (SHIFT+M: of every throw)    P: pause    N: skip to rest    R: new round (after a match: rematch)"),
    N_("TAB: the rulings list (reasons and rules)    L: piece labels    F12: save a screenshot    F1: help    ESC: quit (a match asks first)"),
]
HELP_FLICK = [
    N_("mouse: direction of the flick    hold left button or SPACE: power, release to flick    right button or ESC: cancel"),
    N_("Q E: spin    LEFT RIGHT: disk along the line (SHIFT: 5 cm)    W S: forward / back"),
    *HELP_PLAY[3:],
]
HELP_VIEW = [
    N_("SPACE: play / pause    RIGHT LEFT: next / previous throw    UP DOWN: speed"),
    N_("HOME END: start / end    click the timeline: seek"),
    N_("1 thrower  2 orbit  3 top  4 follow  C cycle  0 reset camera    right drag: orbit   SHIFT drag: pan   +/-: zoom"),
    N_("M: slow motion    TAB: the rulings list    L: piece labels    F12: save a screenshot    F1: help    ESC: quit"),
]
PANEL_WORDS = (N_("rulings"), N_("raise-again"))
"""The rulings panel's heading and the legend's one entry that is not a status (translatable)."""


def mode_tags(ctl) -> list[str]:
    """The title's tail: slow motion and pause, when on (``ctl``: the controller)."""
    tags: list[str] = []
    if ctl.slow_motion:
        tags.append(msg("   SLOW MOTION"))
    if ctl.paused:
        tags.append(msg("   PAUSED"))
    return tags


def translate_hud(h: Hud, tr: Translator) -> Hud:
    """``h`` with every text in ``tr``'s language (docs/german.md), the piece labels too (the
    king and a baton are words: ``König``, ``Wurfholz 3``; a kubb's id stays); the rulings
    panel is made in that language by :func:`ruling_lines` already (the overlay wraps its
    reasons after translation)."""
    from dataclasses import replace

    if tr.lang == ENGLISH.lang:
        return h

    def each(items: list[str]) -> list[str]:
        return [tr(t) for t in items]

    return replace(
        h,
        title=tr(h.title),
        lines=each(h.lines),
        settings=each(h.settings),
        power_label=tr(h.power_label),
        flags=each(h.flags),
        help=each(h.help),
        message=tr(h.message),
        last_throw=each(h.last_throw),
        summary=each(h.summary),
        rulings_list=each(h.rulings_list),
        prompt=each(h.prompt),
        labels=[(tr(text), x, y) for text, x, y in h.labels],
    )


def font_size(width: int) -> int:
    """HUD text size, pt, for a window ``width`` px wide: 12 from 1100 px up, smaller in
    proportion below, never under 7."""
    return int(max(7, min(12, round(12 * width / 1100))))


def throw_lines(c: ThrowControls) -> list[str]:
    """The current throw (or flick) settings, one item per line."""
    if getattr(c, "flick", False):
        return [
            msg("flick: azimuth {azimuth:+.1f}°   spin {spin:+.1f} rev/s", azimuth=c.azimuth_deg, spin=c.spin_rps),
            msg(
                "disk at y {y_cm:+.1f} cm, {d_cm:.1f} cm behind the line (x {x_cm:+.1f} cm)",
                y_cm=c.lateral * 100,
                d_cm=c.behind_line * 100,
                x_cm=c.line * 100,
            ),
        ]
    at = {"y": c.lateral, "d": abs(c.behind_line), "x": c.line}
    return [
        concat(
            msg("elevation {elevation:+.0f}°   azimuth {azimuth:+.1f}°", elevation=c.elevation_deg, azimuth=c.azimuth_deg),
            "   ",
            msg(
                "spin {spin:+.2f} rev/s   tilt {tilt:+.0f}°   helicopter {helicopter}",
                spin=c.spin_rps,
                tilt=c.tilt_deg,
                helicopter=msg("ON") if c.helicopter else msg("off"),
            ),
        ),
        msg("release y {y:+.2f} m, {d:.2f} m behind the line (x {x:+.2f} m)", **at)
        if c.behind_line >= 0
        else msg("release y {y:+.2f} m, {d:.2f} m PAST the line (x {x:+.2f} m)", **at),
    ]


def power_label(c: ThrowControls) -> str:
    """Power, the release speed it gives and the speed range of the piece in hand, m/s."""
    lo, hi = getattr(c, "speed_range", (SPEED_MIN, SPEED_MAX))
    # a flick's range is a few m/s
    text = N_("power {power:3.0f} %  →  {speed:.1f} m/s  ({lo:.1f}–{hi:.1f} m/s)") if hi < 5 else N_("power {power:3.0f} %  →  {speed:.1f} m/s  ({lo:.0f}–{hi:.0f} m/s)")
    return Msg(text, power=c.power * 100, speed=c.speed, lo=lo, hi=hi)


def outcome_line(winner: str | None, reason: str, person: str | None = None) -> str:
    """The one human-worded line for the end of a match: who won and why (the rules engine's
    reason, which cites its rule)."""
    who = msg("draw") if winner is None else (msg("you win") if winner == person else msg("{player} wins", player=winner))
    return msg("match over: {who}: {reason}", who=who, reason=reason) if reason else msg("match over: {who}", who=who)


def violation_lines(violations) -> list[str]:
    """``ILLEGAL (rule): reason`` for each :class:`kubb3d.throw.Violation`."""
    return [msg("ILLEGAL ({rule}): {reason}", rule=v.rule, reason=v.reason) for v in violations]


def ruling_lines(rulings, width: int | None = 48, tr: Translator = ENGLISH, felled_now=None, grouped: bool = True) -> list[str]:
    """The side panel in ``tr``'s language: one header line per ruling with a consequence
    (piece, status, consequence, citations) followed by its reason wrapped to ``width``
    characters and indented (``width=None``: the reason on one line, for a panel that wraps
    it to its width in px: wrapped twice, a reason broke into ragged lines, "the baton" /
    "tilted" / "40° out of…", where the panel was narrower than ``width`` characters); the pieces that simply still stand share one line per citation,
    and so do (given ``felled_now``, the pieces this throw felled) the kubbs felled by an
    earlier throw of the round (``grouped=False``: those lines are left out)."""
    out = []
    standing: dict[str, list[str]] = {}
    earlier: dict[str, list[str]] = {}
    for r in rulings:
        status = getattr(r.status, "value", r.status)
        consequence = str(getattr(r.consequence, "value", r.consequence))
        cites = ", ".join(r.rules)
        if consequence == "none" and status == "standing":
            standing.setdefault(cites, []).append(r.piece)
            continue
        if felled_now is not None and consequence == "counts as felled" and r.piece not in felled_now:
            earlier.setdefault(cites, []).append(r.piece)
            continue
        out.append(f"{tr(piece_name(r.piece))}: {tr(status)}" + (f", {tr(consequence)}" if consequence != "none" else "") + f"  [{cites}]")
        for part in textwrap.wrap(tr(r.reason), width) if width is not None else [tr(r.reason)]:
            out.append("   " + part)
    if not grouped:
        return out
    for cites, pieces in earlier.items():
        out.append(tr(msg("felled by an earlier throw: {pieces}  [{rules}]", pieces=join([piece_name(p) for p in pieces]), rules=cites)))
    for cites, pieces in standing.items():
        out.append(tr(msg("still standing: {pieces}  [{rules}]", pieces=join([piece_name(p) for p in pieces]), rules=cites)))
    return out


def throw_felled(judgement) -> list[str] | None:
    """What one throw felled, from its judgement (a :class:`~kubb3d.judge.Judgement` or a
    replay's ``judgement`` dict): the kubbs it felled (``felled``: not those felled earlier in
    the round) and the king if it fell (a game won or lost); None without a judgement."""
    if judgement is None:
        return None
    get = judgement.get if isinstance(judgement, dict) else (lambda k, d=None: getattr(judgement, k, d))
    out = set(get("felled", ()) or ())
    for r in get("rulings", ()) or ():
        piece = r["piece"] if isinstance(r, dict) else r.piece
        cons = r.get("consequence") if isinstance(r, dict) else getattr(r.consequence, "value", r.consequence)
        if piece == "king" and str(cons) in ("game won", "game lost"):
            out.add(piece)
    return sorted(out)


def ruling_history(entries, tr: Translator = ENGLISH, width: int = 72) -> list[str]:
    """The rulings list (TAB) in ``tr``'s language: for each (label, rulings, felled) of the
    throws and inkasts so far, the latest first, the label and every ruling with a
    consequence (piece, status, consequence, the rules cited) with its reason wrapped to
    ``width`` characters; a kubb standing, or felled by an earlier throw, is left out."""
    out = [tr(msg("rulings so far, the latest first (TAB: close)"))]
    for label, rulings, felled in reversed(list(entries)):
        lines = ruling_lines(rulings, width, tr, felled, grouped=False)
        if lines:
            out.append(tr(label))
            out += ["   " + s for s in lines]
    if len(out) == 1:
        out.append(tr(msg("no ruling yet")))
    return out


def release_warnings(c: ThrowControls, rules) -> list[str]:
    """What would make the throw being prepared illegal, known before the release (``rules``:
    the ruleset's :class:`~kubb3d.judge.rulebook.ThrowRules`, None: no check): a tilt out of
    the flight plane above the limit (DM §5), helicopter rotation where it is forbidden (WS
    basic rule 5), the front foot past the line (DM §5). The flight decides: a tilt within
    the limit at the release may still grow, this is the warning a referee gives beforehand."""
    if rules is None or getattr(c, "flick", False):
        return []
    out: list[str] = []
    if rules.max_tilt_deg is not None and abs(c.tilt_deg) > rules.max_tilt_deg:
        out.append(msg("WARNING ({rule}): tilt {tilt:.0f}° at the release, more than {max:.0f}° out of the flight plane is illegal", rule=rules.tilt_rule, tilt=abs(c.tilt_deg), max=rules.max_tilt_deg))
    if rules.forbid_helicopter and c.helicopter:
        out.append(msg("WARNING ({rule}): helicopter rotation is illegal", rule=rules.helicopter_rule))
    if c.behind_line < 0:
        out.append(msg("WARNING ({rule}): the release is past the throwing line (a foot fault)", rule=rules.foot_rule))
    return out


def legend_items() -> list[tuple[str, tuple[float, float, float]]]:
    """(label, colour) of each status overlay."""
    return list(STATUS_COLORS.items())


LABEL_GAP_PX = 2.0
"""px: the least space between two piece labels."""


LABEL_SIDEWAYS_COST = 3.0
"""How much more a pixel sideways costs than a pixel up when a label makes room
(:func:`layout_labels`): two or three adjacent pieces' labels stack over their own columns; a
cluster's labels spread sideways rather than piling up into the labels behind them."""


def layout_labels(labels, widths, height: float, gap: float = LABEL_GAP_PX, screen_width: float | None = None) -> list[tuple[str, float, float]]:
    """Piece labels moved apart so that no two overlap.

    Args:
        labels: (text, x, y) px, top-left origin: the label's centre x and baseline y above
            its piece.
        widths: text → the label's width, px.
        height: a label's height, px.
        screen_width: the picture's width, px: a label is first moved sideways just enough to
            lie wholly in the picture (None: no limit).

    Returns:
        (text, x, y) in the order given. The labels lowest on screen (the nearest pieces in
        a perspective view) keep their place; a label that would overlap one already placed
        takes the free place nearest its own, a pixel sideways counting
        :data:`LABEL_SIDEWAYS_COST` pixels up: just above the labels it touches, or left or
        right of them with a space of a fifth of the height (searched best first from there). Ties are broken by x and text: the layout
        does not depend on the input order.
    """
    import heapq

    order = sorted(range(len(labels)), key=lambda i: (-labels[i][2], labels[i][1], labels[i][0]))
    placed: list[tuple[float, float, float, float]] = []  # x0, y0 (top), x1, y1 (baseline)
    out: dict[int, tuple[str, float, float]] = {}
    for i in order:
        text, x, y = labels[i]
        half = widths[text] / 2 + gap / 2
        space = height / 5  # a label moved beside others keeps a space from them

        def inside(x: float, w: float = widths[text]) -> float:
            return x if screen_width is None else min(max(x, w / 2), screen_width - w / 2)

        x0, y0 = inside(x), y
        todo = [(0.0, y0, x0)]
        seen = {(round(x0, 3), round(y0, 3))}
        while True:
            _, y, x = heapq.heappop(todo)
            hit = [b for b in placed if b[0] < x + half and x - half < b[2] and b[1] < y + gap / 2 and y - height - gap / 2 < b[3]]
            if not hit:
                break
            # just above the highest it touches (always free in the end), or left or right of them
            for nx, ny in ((x, min(b[1] for b in hit) - gap / 2), (inside(min(b[0] for b in hit) - half - space), y),
                           (inside(max(b[2] for b in hit) + half + space), y)):
                if (round(nx, 3), round(ny, 3)) not in seen:
                    seen.add((round(nx, 3), round(ny, 3)))
                    heapq.heappush(todo, (abs(ny - y0) + LABEL_SIDEWAYS_COST * abs(nx - x0), ny, nx))
        placed.append((x - half, y - height - gap / 2, x + half, y + gap / 2))
        out[i] = (text, x, y)
    return [out[i] for i in range(len(labels))]


def last_throw_lines(seg, person: str | None = None) -> list[str]:
    """The last-throw panel of a played-back :class:`~kubb3d.viewer.scene.Segment` at rest:
    the piece and its release speed (m/s), where it came down (m), the first piece it hit,
    legal or not (with the rules broken) and what this throw felled (the segment's
    ``info["felled"]``, :func:`throw_felled`: not the kubbs felled earlier in the round).
    ``person``: in a match against the computer, the person's player; the first line then
    names the thrower (the segment's ``info["actor"]``) in place of "last throw": ``P1 (you): …``,
    ``P2 (computer): …``."""
    f = seg.info.get("throw") if seg is not None else None
    if not f:
        return []
    land = f["landing"]
    felled = seg.info.get("felled")
    if felled is None:  # no judgement of this throw alone: what the rulings count as felled
        felled = [r.piece for r in seg.rulings if str(getattr(r.consequence, "value", r.consequence)) == "counts as felled"]
    hit = piece_name(f["first_hit"]) if f["first_hit"] else msg("nothing")
    down = ids(felled) if felled else msg("nothing")
    if f.get("slid"):  # a flick: where the disk stopped, in cm on the board
        rest = f.get("rest")
        where = msg("stopped at x {x_cm:+.1f} cm, y {y_cm:+.1f} cm", x_cm=rest[0] * 100, y_cm=rest[1] * 100) if rest else msg("stopped at -")
        last = msg("last flick: {piece} at {speed:.1f} m/s", piece=piece_name(f["piece"]), speed=f["speed_mps"])
    else:
        where = msg("came down at x {x:+.2f} m, y {y:+.2f} m", x=land[0], y=land[1]) if land else msg("came down at -")
        last = msg("last throw: {piece} at {speed:.1f} m/s", piece=piece_name(f["piece"]), speed=f["speed_mps"])
    actor = seg.info.get("actor")
    if person is not None and actor is not None:  # whose throw (the computer's looked like one's own)
        # in place of "last throw": a wider card would squeeze the settings panel beside it
        who = N_("{player} (you): {piece} at {speed:.1f} m/s") if actor == person else N_("{player} (computer): {piece} at {speed:.1f} m/s")
        last = Msg(who, player=actor, piece=piece_name(f["piece"]), speed=f["speed_mps"])
    lag = seg.info.get("lag")
    if lag is not None:  # a lag throw: how close to the king it came (DM §3)
        if lag["king_felled"]:
            result = msg("lag: the king fell")
        elif lag["distance_m"] is None:
            result = msg("lag: out, no distance")
        else:
            result = (
                msg("lag: {distance_cm:.1f} cm from the king", distance_cm=lag["distance_m"] * 100)
                if f.get("slid")  # a lag flick: on the board, in cm like the rest of the panel
                else msg("lag: {distance:.2f} m from the king", distance=lag["distance_m"])
            )
        return [last, msg("{where}   first hit: {hit}", where=where, hit=hit), result, *release_error_lines(f)]
    return [
        last,
        msg("{where}   first hit: {hit}", where=where, hit=hit),
        msg("legal   felled: {felled}", felled=down)
        if f["legal"]
        else msg("ILLEGAL ({rules})   felled: {felled}", rules=", ".join(f["violations"]), felled=down),
        *release_error_lines(f),
    ]


def release_error_lines(facts: dict) -> list[str]:
    """The intended and the actual release of a throw whose two differ (a person's error of
    ``--difficulty``, a simulated player's noise): speed, m/s, and azimuth, deg; else nothing."""
    want, got = facts.get("intended"), facts.get("released")
    if not want or not got or want == got:
        return []
    return [msg("intended {speed_in:.2f} m/s {azimuth_in:+.1f}°, released {speed_out:.2f} m/s {azimuth_out:+.1f}°", speed_in=want["speed"], azimuth_in=want["azimuth_deg"], speed_out=got["speed"], azimuth_out=got["azimuth_deg"])]


WRAP_INDENT = "   "
"""Continuation lines of a wrapped HUD line start with this."""


def wrap_text(text: str, width_of: Callable[[str], float], max_w: float) -> list[str]:
    """``text`` broken into lines at most ``max_w`` px wide (``width_of(line)`` in px) where a
    break allows, continuation lines indented by :data:`WRAP_INDENT`. Groups set apart by two
    or more spaces (the HUD's "A (P1) 5   B (P2) 4", "R: reset view   ESC: quit") are kept
    whole on a line if they fit one; a group too wide is broken at spaces, after a comma
    outside brackets rather than later on the line when that keeps the line at least
    :data:`WRAP_COMMA_FILL` full and the text on no more lines."""
    if width_of(text) <= max_w or " " not in text.strip():
        return [text]
    by_comma, filled = _wrap(text, width_of, max_w, WRAP_COMMA_FILL), _wrap(text, width_of, max_w, None)
    return by_comma if len(by_comma) <= len(filled) else filled


def _wrap(text: str, width_of: Callable[[str], float], max_w: float, comma_fill: float | None) -> list[str]:
    """:func:`wrap_text` with breaks after a comma that keep a line ``comma_fill`` full (None:
    no such breaks)."""
    import re

    lines: list[str] = []

    def fits(line: str) -> bool:
        return width_of((WRAP_INDENT if lines else "") + line.rstrip()) <= max_w

    def words(group: str) -> str:
        """Put the words of ``group`` onto lines; returns its last, unfinished line."""
        parts = re.split(r"( +)", group.strip())
        tokens = [a + b for a, b in zip(parts[::2], [*parts[1::2], ""])]
        depth, comma = 0, []
        for tok in tokens:  # the tokens after which a comma outside brackets ends
            depth += sum({"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0) for ch in tok)
            comma.append(depth <= 0 and tok.rstrip().endswith(","))
        line: list[int] = []  # token indices on the current line
        for i in range(len(tokens)):
            if not line or fits("".join(tokens[j] for j in line + [i])):
                line.append(i)
                continue
            cut = len(line)
            for k in range(len(line) - 1 if comma_fill is not None else 0, 0, -1):
                if comma[line[k - 1]] and not comma[line[-1]]:
                    head = "".join(tokens[j] for j in line[:k])
                    if comma_fill is not None and width_of((WRAP_INDENT if lines else "") + head.rstrip()) >= comma_fill * max_w:
                        cut = k
                    break
            lines.append("".join(tokens[j] for j in line[:cut]).rstrip())
            line = line[cut:] + [i]
            while len(line) > 1 and not fits("".join(tokens[j] for j in line)):
                lines.append("".join(tokens[j] for j in line[:-1]).rstrip())
                line = line[-1:]
        return "".join(tokens[j] for j in line)

    line = ""
    for group in _split(text, 0):
        sep = group[len(group.rstrip()):]
        if fits(line + group):
            line = line + group if line else group.lstrip()
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = group.strip() + sep if fits(group) else words(group) + sep
    if line.strip():
        lines.append(line.rstrip())
    return [(WRAP_INDENT if i else "") + line for i, line in enumerate(lines)]


WRAP_COMMA_FILL = 0.5
"""A wrapped line ends after a comma rather than at the last space that fits when that keeps
it at least this share of the width full (:func:`wrap_text`)."""


def _split(text: str, level: int) -> list[str]:
    """``text`` cut after its runs of two or more spaces (``level`` 0), each piece keeping its
    trailing spaces."""
    import re

    parts = re.split(r"(?<=\S)(\s{2,})", text)
    return [a + b for a, b in zip(parts[::2], [*parts[1::2], ""])]


def wrap_labels(text: str, make: Callable[[str], Any], max_w: float) -> list[Any]:
    """Labels of ``text`` (each made by ``make(line)``, which has a ``content_width`` in px and
    ``delete()``) wrapped by :func:`wrap_text` to ``max_w`` px. Labels made to measure are
    deleted."""
    widths: dict[str, float] = {}

    def width_of(line: str) -> float:
        if line not in widths:
            probe = make(line)
            widths[line] = probe.content_width
            probe.delete()
        return widths[line]

    return [make(line) for line in wrap_text(text, width_of, max_w)]
