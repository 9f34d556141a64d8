"""Per-player statistics of a match from its replay (``kubb3d stats REPLAY``, the end of a match in
``kubb3d play``; issue 34, item 5). Pure: the replay's records and the rules engine (to know who
threw from which end: players change ends between sets, ``DM §3``), no physics.

Definitions (kubb3d's choices):

* **Batons**: the player's baton throws at kubbs (``BatonThrow``; not lag or king throws). A
  baton **hits** when the judge counts at least one kubb as felled by it.
* **Distance** of a baton: horizontal, m, from its release to the start of the first other piece
  it moved (more than :data:`MOVED_M`), or, when it moved nothing, to where it first came down
  (within 3 cm of its resting height) or, for a flicked disk, to where it stopped. Binned by
  :func:`distance_bins`: below half the pitch length, to three quarters, to the whole length,
  beyond (DM: 0–4, 4–6, 6–8, 8+ m).
* **Kubbs per turn**: kubbs the judge counts as felled by the player's batons (king throws
  included), over the turns in which he threw (a turn starts with ``baton1``).
* **Inkast spread**: for each inkast attempt of two or more kubbs (``Inkast``; penalty kubbs
  not), the root mean square distance, m, of the kubbs at rest from their centroid, pooled
  over the attempts; and the share of inkasted kubbs ruled invalid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubb3d.errors import ReplayError
from kubb3d.judge.messages import concat, join, msg, nmsg

MOVED_M = 0.005
"""m: a piece that moved this far during a throw was touched (the first such is the first hit)."""


@dataclass
class PlayerStats:
    """One player's figures (module doc). ``bins``: (lower edge m, upper edge m or None, batons,
    hits) per distance bin."""

    player: str
    batons: int = 0
    hits: int = 0
    bins: list[list[Any]] = field(default_factory=list)
    turns: int = 0
    kubbs_felled: int = 0
    inkasts: int = 0
    inkast_kubbs: int = 0
    inkast_invalid: int = 0
    spread_sq: float = 0.0
    spread_n: int = 0

    @property
    def hit_rate(self) -> float | None:
        return self.hits / self.batons if self.batons else None

    @property
    def kubbs_per_turn(self) -> float | None:
        return self.kubbs_felled / self.turns if self.turns else None

    @property
    def inkast_spread_m(self) -> float | None:
        return math.sqrt(self.spread_sq / self.spread_n) if self.spread_n else None

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "batons": self.batons,
            "hits": self.hits,
            "hit_rate": self.hit_rate,
            "by_distance": [
                {"from_m": lo, "to_m": hi, "batons": n, "hits": h, "hit_rate": h / n if n else None}
                for lo, hi, n, h in self.bins
            ],
            "turns": self.turns,
            "kubbs_felled": self.kubbs_felled,
            "kubbs_per_turn": self.kubbs_per_turn,
            "inkast_attempts": self.inkasts,
            "inkast_kubbs": self.inkast_kubbs,
            "inkast_invalid": self.inkast_invalid,
            "inkast_spread_m": self.inkast_spread_m,
        }


def distance_bins(pitch_length: float) -> list[tuple[float, float | None]]:
    """(lower, upper) edges, m, of the distance bins: 0, L/2, 3L/4, L, beyond (module doc)."""
    edges = [0.0, pitch_length / 2, 0.75 * pitch_length, pitch_length]
    return [(edges[i], edges[i + 1]) for i in range(3)] + [(pitch_length, None)]


def throw_distance(th: dict) -> float | None:
    """Distance of a thrown piece, m (module doc), from its replay record; None without a trajectory."""
    piece = th.get("piece")
    poses = (th.get("trajectory") or {}).get("poses") or {}
    arr = poses.get(piece)
    if not arr:
        return None
    x0, y0, z0 = arr[0][:3]
    first, first_i = None, None
    for pid in sorted(poses):
        rows = poses[pid]
        if pid == piece or not rows:
            continue
        sx, sy, sz = rows[0][:3]
        for i, row in enumerate(rows):
            if math.dist(row[:3], (sx, sy, sz)) > MOVED_M:
                if first_i is None or i < first_i:
                    first, first_i = (sx, sy), i
                break
    if first is not None:
        return math.hypot(first[0] - x0, first[1] - y0)
    if z0 < 0.03:  # a flicked disk: where it stopped
        end = arr[-1]
        return math.hypot(end[0] - x0, end[1] - y0)
    rest_z = arr[-1][2]
    for row in arr[1:]:
        if row[2] <= rest_z + 0.03:
            return math.hypot(row[0] - x0, row[1] - y0)
    return math.hypot(arr[-1][0] - x0, arr[-1][1] - y0)


def match_stats(header: dict, actions: list[dict]) -> dict[str, PlayerStats]:
    """Every player's :class:`PlayerStats` from a replay's header (with its ``config``) and its
    action records in order (as dicts).

    Raises:
        ReplayError: no configuration in the header, or records that do not fit the rules.
    """
    from kubb3d.match.config import MatchConfig
    from kubb3d.rules import action_from_dict, get_ruleset, outcome_from_dict

    cfg_d = header.get("config")
    if not cfg_d:
        raise ReplayError("the header has no config: stats need the match's players")
    cfg = MatchConfig.from_dict(cfg_d)
    ruleset = get_ruleset(cfg.ruleset)
    names = cfg.player_names()
    state = cfg.new_state(ruleset)
    bins = distance_bins(ruleset.pitch.length)
    stats = {n: PlayerStats(n, bins=[[lo, hi, 0, 0] for lo, hi in bins]) for n in names}
    for rec in actions:
        action_d, outcome_d = rec.get("action") or {}, rec.get("outcome")
        kind = action_d.get("type")
        side = action_d.get("side")
        player = state.player_at(side) if side in ("A", "B") and state.set_no else None
        throws = rec.get("throws") or []
        if player is not None and kind in ("BatonThrow", "KingThrow") and outcome_d is not None:
            ps = stats[player]
            felled = len(outcome_d.get("felled") or [])
            ps.kubbs_felled += felled if kind == "BatonThrow" else 0
            if action_d.get("baton") == "baton1":
                ps.turns += 1
            if kind == "BatonThrow":
                ps.batons += 1
                ps.hits += felled > 0
                d = throw_distance(throws[0]) if throws else None
                if d is not None:
                    for b in ps.bins:
                        if d >= b[0] and (b[1] is None or d < b[1]):
                            b[2] += 1
                            b[3] += felled > 0
                            break
        if player is not None and kind == "Inkast" and outcome_d is not None:
            ps = stats[player]
            ps.inkasts += 1
            ps.inkast_kubbs += len(throws)
            ps.inkast_invalid += len(outcome_d.get("invalid") or [])
            ends = []
            for th in throws:
                arr = ((th.get("trajectory") or {}).get("poses") or {}).get(th.get("piece"))
                if arr:
                    ends.append(arr[-1][:2])
            if len(ends) >= 2:
                cx = sum(e[0] for e in ends) / len(ends)
                cy = sum(e[1] for e in ends) / len(ends)
                ps.spread_sq += sum((e[0] - cx) ** 2 + (e[1] - cy) ** 2 for e in ends)
                ps.spread_n += len(ends)
        try:
            state.push(action_from_dict(action_d), outcome_from_dict(outcome_d))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            why = " ".join(str(exc).split())[:200]
            raise ReplayError(f"action {rec.get('i')}: does not fit the match: {why}") from None
    return stats


def replay_stats(path: str | Path) -> dict[str, PlayerStats]:
    """:func:`match_stats` of a replay file (read and validated by :func:`kubb3d.replay.read_replay`).

    Raises:
        ReplayError: unreadable file, a record that fails the schema, no configuration.
    """
    from kubb3d.replay import read_replay

    rp = read_replay(path)
    actions = [raw for _, r, raw in rp.records if r.type == "action"]
    try:
        return match_stats(rp.header_dict, actions)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f} %"


def stats_lines(stats: dict[str, PlayerStats]) -> list[str]:
    """The figures as lines of text (messages, for ``kubb3d stats`` and the end-of-match summary)."""
    lines: list[str] = []
    for ps in stats.values():
        # a figure with no value is left out, never printed as "-" ("inkast spread - m")
        figures: list[str] = [
            nmsg(
                "{player}: {hits}/{batons} baton hit",
                "{player}: {hits}/{batons} batons hit",
                ps.batons,
                player=ps.player,
                hits=ps.hits,
                batons=ps.batons,
            )
        ]
        if ps.hit_rate is not None:
            figures.append(msg(" ({rate})", rate=_pct(ps.hit_rate)))
        if ps.kubbs_per_turn is not None:
            # numbers as message parameters, so that German writes its decimal comma (2,43)
            figures.append(msg(", {per_turn} kubbs a turn", per_turn=msg("{value:.2f}", value=ps.kubbs_per_turn)))
        if ps.inkast_spread_m is not None:
            figures.append(msg(", inkast spread {spread} m", spread=msg("{value:.2f}", value=ps.inkast_spread_m)))
        if ps.inkast_kubbs:  # the share ruled invalid (the help promised it; only --json gave it)
            figures.append(
                nmsg(
                    ", {invalid} of {kubbs} inkasted kubb invalid",
                    ", {invalid} of {kubbs} inkasted kubbs invalid",
                    ps.inkast_kubbs,
                    invalid=ps.inkast_invalid,
                    kubbs=ps.inkast_kubbs,
                )
            )
        lines.append(concat(*figures))
        parts = []
        for lo, hi, n, h in ps.bins:
            if n:
                span = msg("{lo:.1f}–{hi:.1f} m", lo=lo, hi=hi) if hi is not None else msg("≥ {lo:.1f} m", lo=lo)
                parts.append(concat(span, f" {h}/{n}"))
        if parts:
            lines.append(msg("   hits by distance: {bins}", bins=join(parts)))
    return lines
