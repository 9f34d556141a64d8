"""An independent Kubbuteo referee, written from the KT rule book's words only.

It rules on the positions of simulated play that kt_play_positions.py records (the snapshot
at rest after each flick or return, the match engine's context, the replay's record of the
action) without kubb3d's judge: it reads the poses, nothing of kubb3d's rulings. What it
decides, with the rule book's words it rests on (docs/examinations/2026-12-07-kubbuteo-play.md
has the table and the readings where KT is silent):

* KT Equipment: "The board is 4 foot by 2 foot"; "Baselines are marked 3.5 inches from each
  of the narrow ends and a centre point is marked in the middle"; kubbs and batons are
  "smooth wooden disks 1.25 inches in diameter, 0.3 inches in height. The kubbs need to be
  stood up, so are sanded on the edge to provide a flat surface"; the king is "a wooden
  mushroom shaped object 1.25 inches in diameter and 2 inches in height".
* KT Setup: "The king is placed upright in the centre of the board, and 5 kubbs are placed
  equidistant on each baseline."
* KT rules, phase 1: "Player A flicks the six batons from their baseline at their opponent's kubbs,
  trying to knock them over. After each flick, keep the playing area clear by removing the
  baton and any knocked over kubbs."
* KT rules, phase 2: knocked kubbs "are then flicked by Player B back into Player A's half of the
  board and stood up where they come to rest. These are called 'Field Kubbs'"; "1 misflick
  [when the kubb has not gone far enough to reach the opponent's half, or has gone off the
  board] is allowed and the kubb is returned to Player B for reflicking. Subsequent
  misflicked kubbs will be placed by Player A anywhere in their own half, but at least
  2 inches from the King."
* KT rules: "they must first knock down any standing Field Kubbs before they can go for
  Baseline Kubbs. Any Baseline Kubbs knocked over while there are still Field Kubbs upright
  are simply stood up again."
* KT rules: "If either player leaves Field Kubbs standing, the kubb closest to the King now
  represents that player's baseline, and players now flick at their opponent's kubbs from
  that point. This rule applies when flicking at Field and Baseline Kubbs only; fallen kubbs
  are returned from the original baseline, and attempts to knock over the King also happen
  from the baseline. Knocking over the King from anywhere but the baseline will result in
  losing the game."
* KT rules: "Play continues in this fashion until a player has knocked down all kubbs in the
  other player's half. They may then attempt to knock over the King from the baseline using
  remaining batons. If a player successfully topples the King, they have won the game.
  However, if at any time during the game the King is knocked down by a poorly flicked
  baton, the offending player immediately loses the game."; the opening paragraph: "if a
  player knocks over the king before achieving their objectives, that player immediately
  loses the game."

Readings where KT is silent or open (each named where it is applied):

* *upright*: a kubb stands if it rests on its sanded flat on the board and its centre of
  mass lies, seen from above, over that flat, so that it would stay there with every other
  piece taken away. A disk lying on a face, on its round rim, held up by another piece, or
  off the board is knocked over. Judged at rest after the flick (KT rules, phase 1: "After each
  flick ... removing ... any knocked over kubbs"): a disk that rocked and came back onto
  its flat stands; one that turned over on the way (past 90°) has been knocked over, even if
  it lands on its flat. kubb3d's disk has its edges rounded by 1 mm, so "over that flat" is
  over the inner flat (:func:`disk_upright`).
* *while there are still Field Kubbs upright*: at the start of the flick (a snapshot at rest
  has no order of falls); a flick that fells the half's last field kubbs and a baseline kubb
  is counted apart (``(same flick)``).
* *reach the opponent's half* / *gone off the board*: where the kubb comes to rest (it is
  stood up there): its centre beyond the centre line, and the kubb still on the board's top
  (one that overhangs the edge, held there by another piece, has not gone off); within one
  disk radius of the centre line or an edge it is counted apart (borderline).
* *own kubbs* a flick disturbs: never counted for the flicker (KT: "at their opponent's
  kubbs"); what happens to them is not compared (KT is silent).
* *1 misflick is allowed*: one per return (the first misflicked kubb of a player's return is
  flicked again; every later one, the reflicked kubb too, is placed).
* *the kubb closest to the King*: the standing field kubb of the flicker's own half whose
  centre is nearest the king's; the flicking line runs across the board through its centre.

Pure functions of plain dicts (the JSON positions); numpy only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

INCH = 0.0254
BOARD_LENGTH = 48 * INCH  # KT Equipment: "4 foot by 2 foot"
BOARD_WIDTH = 24 * INCH
BASELINE_X = BOARD_LENGTH / 2 - 3.5 * INCH  # KT Equipment: "3.5 inches from each of the narrow ends"
DISK_RADIUS = 1.25 * INCH / 2  # KT Equipment: "1.25 inches in diameter"
PLACE_FROM_KING = 2 * INCH  # KT rules: "at least 2 inches from the King"
GROUND_TOL = 0.0015  # m: a flat (or foot) this close to the board's top rests on it
LINE_TOL = 0.001  # m: a flicking line within 1 mm of the expected one is that line


def baseline_x(side: str) -> float:
    """x of a side's baseline: end A at x < 0 (kubb3d's board frame)."""
    return -BASELINE_X if side == "A" else BASELINE_X


def half_of(x: float) -> str:
    return "A" if x < 0 else "B"


def other(side: str) -> str:
    return "B" if side == "A" else "A"


# ---------------------------------------------------------------------------- geometry
def _rot(quat_xyzw) -> np.ndarray:
    x, y, z, w = quat_xyzw
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def on_board(piece: dict[str, Any]) -> bool:
    """The piece's centre of mass lies over the board and not below its top."""
    x, y, z = piece["position"]
    return abs(x) <= BOARD_LENGTH / 2 and abs(y) <= BOARD_WIDTH / 2 and z > -GROUND_TOL


def gone_off(piece: dict[str, Any]) -> bool:
    """KT rules, phase 2 "has gone off the board": the kubb left the board's top (it rests below it),
    or no part of it is over the board. A kubb at rest on the board that overhangs its edge,
    held by another piece, has not gone off."""
    x, y, z = piece["position"]
    r = piece["half_extents"][1]
    over = abs(x) <= BOARD_LENGTH / 2 + r and abs(y) <= BOARD_WIDTH / 2 + r
    return not (over and z > -GROUND_TOL)


def _inside(point: np.ndarray, poly: np.ndarray) -> bool:
    """Point (2,) inside the convex polygon (n, 2), either winding."""
    sign = 0.0
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        cross = (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
        if abs(cross) < 1e-12:
            continue
        if sign == 0.0:
            sign = cross
        elif sign * cross < 0:
            return False
    return True


EDGE_ROUNDING = 0.001  # m: kubb3d's disks have every edge rounded by 1 mm (docs/physics.md "Tipping a Kubbuteo kubb")


def disk_upright(piece: dict[str, Any]) -> dict[str, Any]:
    """Whether a disk kubb stands on its flat by itself (the *upright* reading above).

    The piece's box (kubb3d's snapshot): local x across the disk (its thickness, KT
    "0.3 inches"), y and z in its plane; the sanded flat is the box face at local z = -hz, the
    chord of the rim 2 hz - r below the disk's centre. kubb3d's disk has its edges rounded by
    :data:`EDGE_ROUNDING` (the physics' shape, not a rule): tilted, it rests on the rounding
    under the edge of the inner flat (the flat moved ρ inwards), so it falls back onto its flat
    while the vertical through its centre of mass meets that inner flat. It stands when its
    flat faces the board, touches it, and that vertical meets the inner flat; with every
    other piece taken away it would settle there."""
    hx, r, hz = piece["half_extents"]
    rho = EDGE_ROUNDING
    rot = _rot(piece["quat_xyzw"])
    centre = np.asarray(piece["position"], float)
    depth = 2 * hz - r - rho  # from the disk's centre down to the inner flat
    half_len = math.sqrt(max((r - rho) ** 2 - depth * depth, 0.0))
    corners = np.array([[sx * (hx - rho), sy * half_len, -hz + rho] for sx in (-1, 1) for sy in (-1, 1)])
    world = centre + corners @ rot.T
    com = centre + rot @ np.asarray(piece.get("com_local", (0, 0, 0)), float)
    lowest = float(world[:, 2].min()) - rho  # the rounding below the inner flat's lowest edge
    flat_down = float(rot[2, 2]) > 0.5  # the flat faces the board
    poly = world[[0, 1, 3, 2], :2]
    over = _inside(com[:2], poly)
    touching = lowest < GROUND_TOL
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, float(rot[2, 2])))))
    standing = bool(on_board(piece) and flat_down and touching and over)
    return {"standing": standing, "tilt_deg": tilt, "on_board": on_board(piece)}


def turned_over(piece: dict[str, Any]) -> bool:
    """The kubb went over during the flick: its axis passed 90° from the upright it was set up
    in (the snapshot's ``max_tilt``, the world's record since the kubb was last set up). A disk
    that turned over has been knocked over, even if it comes to rest on its flat again."""
    return float(piece.get("max_tilt", 0.0)) > math.pi / 2


def king_upright(piece: dict[str, Any]) -> dict[str, Any]:
    """Whether the king stands on its foot (KT Setup "placed upright"; KT rules "knocked
    down", "topples"): its axis within 45° of the vertical and its foot on the board. At rest a
    king is either upright (tilt near 0°) or lying (tilt far past its tipping angle); kings
    tilted 5°–45° are flagged as borderline."""
    rot = _rot(piece["quat_xyzw"])
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, float(rot[2, 2])))))
    hz = piece["half_extents"][2]
    foot = np.asarray(piece["position"], float) + rot @ np.array([0.0, 0.0, -hz])
    standing = bool(on_board(piece) and tilt < 45.0 and foot[2] < GROUND_TOL + 0.003)
    return {"standing": standing, "tilt_deg": tilt, "borderline": 5.0 < tilt < 45.0}


def flat_upright(pose: dict[str, Any], half_extents) -> bool:
    """A pose kubb3d stands a kubb up in: upright (tilt under 1°) with its flat on the board
    (within 1 mm), as KT's "stood up" asks."""
    rot = _rot(pose["quat_xyzw"])
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, float(rot[2, 2])))))
    bottom = float(pose["position"][2]) - half_extents[2] * float(rot[2, 2])
    return tilt < 1.0 and abs(bottom) < 0.001


# ---------------------------------------------------------------------------- the referee
def _pieces(pos: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in pos["snapshot"]["pieces"]}


def _start_poses(pos: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return pos["ctx"].get("round_start") or pos["ctx"].get("before") or {}


def expected_line(field: set[str], standing_own: dict[str, tuple[float, float]], side: str) -> float:
    """The flicking line for flicks at kubbs (KT rules: "the kubb closest to the King now
    represents that player's baseline"): x of the centre of the standing field kubb of the
    flicker's own half nearest the king (at the board's centre point, KT Setup); else the
    baseline."""
    mine = {k: xy for k, xy in standing_own.items() if k in field and half_of(xy[0]) == side}
    if not mine:
        return baseline_x(side)
    k = min(mine, key=lambda k: (math.hypot(*mine[k]), k))
    return mine[k][0]


def centre_line_nearest(field: set[str], standing_own: dict[str, tuple[float, float]], side: str) -> float:
    """The line Kubb on grass would use (the field kubb nearest the centre line, not the king):
    recorded beside :func:`expected_line` to count the flicks where KT's words decide."""
    mine = {k: xy for k, xy in standing_own.items() if k in field and half_of(xy[0]) == side}
    if not mine:
        return baseline_x(side)
    return min((xy[0] for xy in mine.values()), key=abs)


def referee_flick(pos: dict[str, Any], prior: dict[str, Any]) -> dict[str, Any]:
    """Rule on a flick (a baton at kubbs or a king attempt).

    ``prior`` is what the referee knows from the match so far (:class:`MatchWalk`):
    ``targets`` the kubbs of the target half standing at the start of this flick,
    ``field`` every kubb returned so far (a field kubb, KT rules, phase 2), ``own`` the kubbs
    standing in the flicker's own half, ``line`` the flicking line for flicks at kubbs.

    Returns per piece ``standing`` and ``ruling`` (``stands``, ``counts``, ``stood up
    again``), the king, the verdict and the checks of procedure (line, batons removed)."""
    ctx, pieces = pos["ctx"], _pieces(pos)
    thrower = ctx["thrower"]
    target = other(thrower)
    targets = set(prior["targets"])
    field_up = sorted(k for k in targets if k in prior["field"])
    out: dict[str, Any] = {"pieces": {}, "field_standing_at_start": field_up}
    fell_field = False
    downs = {}
    for k in sorted(targets):
        p = pieces.get(k)
        st = disk_upright(p) if p else {"standing": False, "tilt_deg": 90.0, "on_board": False}
        st["turned_over"] = bool(p and turned_over(p))
        # knocked over: not upright at rest, or turned over on the way (whatever its pose now)
        st["knocked"] = not st["standing"] or st["turned_over"]
        downs[k] = st
        if st["knocked"] and k in prior["field"]:
            fell_field = True
    for k, st in downs.items():
        if not st["knocked"]:
            ruling = "stands"
        elif k in prior["field"] or not field_up:
            # KT rules: field kubbs first; a baseline kubb counts once no field kubb stands
            ruling = "counts"
        else:
            # KT rules: "Any Baseline Kubbs knocked over while there are still Field Kubbs
            # upright are simply stood up again"
            ruling = "stood up again"
        same_flick = bool(ruling == "stood up again" and fell_field and all(downs[f]["knocked"] for f in field_up))
        out["pieces"][k] = {**st, "ruling": ruling, "same_flick": same_flick, "half": target}
    for k in sorted(prior["own"]):
        p = pieces.get(k)
        st = disk_upright(p) if p else {"standing": False, "tilt_deg": 90.0, "on_board": False}
        out["pieces"][k] = {**st, "ruling": "own half", "same_flick": False, "half": thrower}
    king = king_upright(pieces["king"])
    out["king"] = king
    kubbs_left = bool(targets)
    line = (pos.get("action") or {}).get("line_x")
    king_attempt = (pos.get("action") or {}).get("type") == "KingThrow"
    # "from the baseline": the line the flick itself names (its record's parameters; a line not
    # given is the baseline), not the one the match asked for: a person may name one nearer the
    # centre. READING: on the baseline or behind it (within LINE_TOL)
    flicked = _flick_line(pos, line)
    fwd = 1.0 if thrower == "A" else -1.0
    from_baseline = flicked is not None and fwd * (flicked - baseline_x(thrower)) <= LINE_TOL
    winner = loser = None
    if not king["standing"]:
        # KT rules: the King toppled from the baseline once every kubb of the other half is
        # down wins; knocked down before, or from anywhere but the baseline, loses
        if not kubbs_left and from_baseline:
            winner, loser = thrower, target
        else:
            winner, loser = target, thrower
    out["winner_side"], out["loser_side"] = winner, loser
    expect = baseline_x(thrower) if king_attempt else prior["line"]
    out["line"] = {"actual": line, "expected": expect, "king_attempt": king_attempt}
    batons = [p for p in pieces.values() if p["kind"] == "baton" and on_board(p)]
    out["batons_on_board"] = len(batons)
    return out


def _flick_line(pos: dict[str, Any], line: float | None) -> float | None:
    """The flicking line the flick's record names (parameters without a line: the baseline);
    no record: ``line``, the match's."""
    throws = (pos.get("action") or {}).get("throws") or []
    params = (throws[0].get("params") if throws else None) or {}
    if not params:
        return line
    if params.get("line_x") is None:
        return baseline_x(params.get("side") or pos["ctx"]["thrower"])
    return float(params["line_x"])


def referee_return(pos: dict[str, Any], prior: dict[str, Any]) -> dict[str, Any]:
    """Rule on a return (kubb3d's *inkast*): every kubb flicked back, and what it disturbed.

    ``prior``: ``misflicks`` misflicked kubbs earlier in this player's return (KT rules, phase 2:
    "1 misflick ... is allowed"), ``objectives_met`` whether the returning player has
    already knocked down every kubb of the other half (never, while returning)."""
    ctx, pieces = pos["ctx"], _pieces(pos)
    side = ctx["inkasting_side"]
    into = other(side)
    out: dict[str, Any] = {"returned": {}, "others": {}}
    misflicks = prior["misflicks"]
    for k in ctx["inkasted"]:
        p = pieces[k]
        x, y, _ = p["position"]
        ob = not gone_off(p)
        in_half = half_of(x) == into
        valid = ob and in_half
        margin = min(abs(x), BOARD_LENGTH / 2 - abs(x), BOARD_WIDTH / 2 - abs(y))
        borderline = margin < DISK_RADIUS
        if valid:
            consequence = "stood up here"
        else:
            # KT rules, phase 2: the first misflick is flicked again, later ones are placed
            consequence = "reflick" if misflicks == 0 and ctx["attempt"] == 1 else "placed"
            misflicks += 1
        out["returned"][k] = {
            "valid": valid,
            "on_board": ob,
            "in_half": in_half,
            "margin": margin,
            "borderline": borderline,
            "consequence": consequence,
            "rest_xy": (x, y),
        }
    start = ctx.get("before") or {}
    for k, pose in start.items():
        p = pieces.get(k)
        if p is None or k in ctx["inkasted"] or p["kind"] not in ("kubb", "king"):
            continue
        was_up = (king_upright if p["kind"] == "king" else disk_upright)({**p, **pose})["standing"]
        now = (king_upright if p["kind"] == "king" else disk_upright)(p)
        shift = float(np.linalg.norm(np.subtract(p["position"], pose["position"])))
        out["others"][k] = {"was_up": was_up, "standing": now["standing"], "shift": shift}
    king = king_upright(pieces["king"])
    out["king"] = king
    # KT opening: "if a player knocks over the king before achieving their objectives, that
    # player immediately loses the game" (a returned kubb is flicked by the returning player)
    flicker = ctx.get("thrower") or side
    out["loser_side"] = None if king["standing"] else flicker
    out["release_behind_baseline"] = _behind(pos, side)
    return out


def _behind(pos: dict[str, Any], side: str) -> list[bool]:
    """KT rules: "fallen kubbs are returned from the original baseline": each release is on
    or behind the returning side's baseline."""
    out = []
    for t in (pos.get("action") or {}).get("throws", []):
        x = t["release"]["position_m"][0]
        out.append(x <= baseline_x(side) + LINE_TOL if side == "A" else x >= baseline_x(side) - LINE_TOL)
    return out


class MatchWalk:
    """Walk one match's positions in order, keeping what the referee knows.

    Its state comes from the poses and from the referee's own rulings, never from kubb3d's:
    field kubbs are the kubbs returned so far (KT rules, phase 2), the targets of a turn are the
    kubbs standing in the target half at its first flick (the poses of the turn's start),
    and a kubb this referee ruled knocked (counted) is no longer a target in that turn."""

    def __init__(self) -> None:
        self.field: set[str] = set()
        self.turn_key: tuple[str, int] | None = None
        self.targets: set[str] = set()
        self.own: set[str] = set()
        self.line = 0.0
        self.line_centre = 0.0
        self.counted: list[str] = []
        self.return_key: tuple[str, int] | None = None
        self.misflicks = 0
        self.last_turn_counted: list[str] = []
        self.first_of_return = False

    def _turn_start(self, pos: dict[str, Any]) -> None:
        thrower = pos["ctx"]["thrower"]
        start = _start_poses(pos)
        standing: dict[str, tuple[float, float]] = {}
        for k, pose in start.items():
            if k == "king" or k[:1] not in "AB":
                continue
            piece = {**_pieces(pos)[k], **pose}
            if disk_upright(piece)["standing"]:
                standing[k] = (pose["position"][0], pose["position"][1])
        self.targets = {k for k, xy in standing.items() if half_of(xy[0]) == other(thrower)}
        self.own = {k for k, xy in standing.items() if half_of(xy[0]) == thrower}
        self.line = expected_line(self.field, standing, thrower)
        self.line_centre = centre_line_nearest(self.field, standing, thrower)
        self.counted = []

    def prior(self, pos: dict[str, Any], new_turn: bool) -> dict[str, Any]:
        if pos["kind"] == "throw":
            if new_turn:
                self._turn_start(pos)
            return {
                "targets": sorted(self.targets),
                "field": sorted(self.field),
                "own": sorted(self.own),
                "line": self.line,
                "line_centre": self.line_centre,
                "counted_before": sorted(self.counted),
            }
        return {
            "misflicks": self.misflicks,
            "last_turn_counted": sorted(self.last_turn_counted),
            "first_of_return": self.first_of_return,
        }

    def after(self, pos: dict[str, Any], mine: dict[str, Any]) -> None:
        if pos["kind"] == "throw":
            for k, m in mine["pieces"].items():
                if m["ruling"] == "counts":
                    self.targets.discard(k)
                    self.counted.append(k)
            self.last_turn_counted = list(self.counted)
            self.misflicks = 0
        else:
            for k, m in mine["returned"].items():
                self.field.add(k)
                if not m["valid"]:
                    self.misflicks += 1


def walk(positions: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(position, prior, ruling) for every position of one match, in order. A turn starts at
    a flick whose thrower differs from the last flick's, or after a return."""
    w = MatchWalk()
    out = []
    last_kind, last_thrower = None, None
    for pos in positions:
        new_turn = pos["kind"] == "throw" and (last_kind != "throw" or pos["ctx"]["thrower"] != last_thrower)
        if pos["kind"] == "inkast":
            w.first_of_return = last_kind == "throw"
            if w.first_of_return:
                w.misflicks = 0
        prior = w.prior(pos, new_turn)
        mine = referee_flick(pos, prior) if pos["kind"] == "throw" else referee_return(pos, prior)
        w.after(pos, mine)
        out.append((pos, prior, mine))
        last_kind = pos["kind"]
        if pos["kind"] == "throw":
            last_thrower = pos["ctx"]["thrower"]
    return out
