"""Kubbuteo, the tabletop Kubb played by flicking wooden disks on a board (rule book ``KT``,
section "Rules"; equipment ``KT`` "Equipment" and "Setup").

========================  ====================================================  =========
rule                      kubb3d                                                source
========================  ====================================================  =========
equipment, board          ``kubbuteo`` set: 4 × 2 ft board, baselines 3.5 in    KT Equipment
                          from the ends, five kubbs per baseline, king centre   KT Setup
turns                     six batons every turn, flicked from the baseline      KT rules
after each flick          the baton and the knocked kubbs leave the board       KT rules
returning kubbs           the other player flicks them from his original        KT rules
                          baseline into the thrower's half; stood up where
                          they come to rest
misflicks                 the first misflick of a return is flicked again;      KT rules
                          every later one is placed by the receiving player
                          anywhere in his half, at least 2 in from the king
field before baseline     baseline kubbs knocked while field kubbs stand are    KT rules
                          stood up again at once (they count as standing and
                          are targets again)
advance line              the own standing field kubb closest to the king,      KT rules
                          also one behind the baseline (returns and king
                          attempts stay at the baseline)
king                      from the baseline once the opponent's half is clear,  KT rules
                          with every remaining baton; a king knocked at any
                          other time loses the game for the flicker
========================  ====================================================  =========

Decisions where ``KT`` is silent (kubb3d's choices):

* **Who starts**: ``KT`` says nothing; as in the parent game (``DM §3``) each player
  flicks one baton at the king from his baseline (a lag flick); the disk resting nearer
  the king wins and opens; a player who knocks the king loses the lag; ties are repeated.
* **A misflick** is a returned kubb that rests with its centre short of the centre line
  (not in the receiving half) or that touches the floor or rests below the board top (off
  the board): the two misflicks ``KT`` names. A kubb resting on another piece without
  touching the board is neither, so it is valid and stood up where it rests
  (:func:`kubb3d.judge.kubbuteo.judge_return`; scenario ``kt_return_resting_on_a_kubb``).
  "1 misflick is allowed" is counted per return phase: only the first misflicked kubb (in
  flicking order) is flicked again; every later misflick, the reflick included, is placed
  by hand.
* **The receiving half** reaches from the centre line to the end of the board, so a kubb
  that slides behind the receiver's baseline but stays on the board is valid.
* **Standing a returned kubb up**: the judge stands it on its flat at the spot where the
  centre of the lying disk rests, its faces towards the ends of the board, moved sideways
  just enough not to overlap another standing piece (:mod:`kubb3d.judge.kubbuteo`).
* **Pieces disturbed by a return** (a standing kubb knocked by a returned kubb) are stood
  up again where they stood; the king knocked by a returned kubb loses the game for the
  returning player (``KT rules``: "if at any time during the game the King is knocked down").
* **Own kubbs knocked by one's own flick** are stood up again where they stood, after the flick
  (they were never the target; :func:`after_flick`).
* **The advance line** is the line across the board through the chosen field kubb (the
  flicker may move along it). ``KT``'s words make no exception for a field kubb that stands
  between the baseline and the end of the board: it moves the line back to it (decided on
  7 December 2026, docs/examinations/2026-12-07-kubbuteo-play.md finding 3).
* **Where a flick starts** on a line near the end of the board: the disk's centre starts
  2.5 cm behind the line, or as far behind it as keeps the whole disk on the board, and on
  the line itself (the disk overhanging the end) where not even that is left
  (:func:`kubb3d.throw.params.flick_behind`): a disk laid down behind the board's end would
  fall off it before it is flicked.
* **A baton that stops on the board** is removed after the flick like every baton.
* Points are the sets won; one set by default; no clock.
* **The 60-turn cap is kubb3d's, not** ``KT``'s (``KT`` has no limit: play goes on "until a
  player has knocked down all kubbs in the other player's half" and then the king). The
  engine's round cap (:data:`kubb3d.rules.core.DEFAULT_ROUND_CAP`, ``--round-cap``) only makes
  every simulated match end. A capped match won no set, so both players score 0 points; its
  ``winner`` is the player with more of his own baseline kubbs still standing (a draw if
  equal), which says who was ahead, not who won by ``KT``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Collection, Mapping, Sequence

from kubb3d.judge.messages import Nn_, msg
from kubb3d.equipment import INCH, DiskPiece, get_set
from kubb3d.judge.citations import KT_RULES
from kubb3d.judge.rulings import Pose
from kubb3d.pitch import Pitch, Side
from kubb3d.rules.core import MatchState, Ruleset, TimeModel, own_field_kubbs, register_ruleset
from kubb3d.snapshot import tilt_from_vertical


KING_CLEARANCE_M = 2.0 * INCH
"""A placed misflicked kubb stands at least 2 in from the king (``KT rules``), m."""


def kubbuteo_pitch() -> Pitch:
    """The board as a pitch: 4 × 2 ft, baselines 3.5 in from the ends (``KT`` "Equipment")."""
    eq = get_set("kubbuteo")
    assert eq.board is not None
    return Pitch(eq.board.length, eq.board.width, eq.baseline_inset)


OWN_KUBB_MOVED_M = 0.002
"""An own kubb whose centre moved more than this during a flick was disturbed by it, m
(kubb3d's choice: the judge's rest tolerances are finer; a kubb merely brushed stays put)."""

OWN_KUBB_TILTED_RAD = math.radians(3.0)
"""An own kubb tilted more than this after a flick was disturbed by it, rad (kubb3d's choice)."""


@dataclass(frozen=True)
class AfterFlick:
    """What happens on the board after one flick (``KT rules``: "after each flick, keep the
    playing area clear by removing the baton and any knocked over kubbs").

    Attributes:
        remove: the flicked baton (it leaves the board wherever it stopped).
        pick_up: the kubbs knocked over by the flick, in id order (out of play).
        stand_again: id → pose for kubbs stood up again at once, in the order to apply:
            baseline kubbs knocked while field kubbs stand, at their spot at the start of the
            turn (``KT rules``: "simply stood up again"), then the flicker's own kubbs his
            flick disturbed, where they stood (kubb3d's choice, module doc).
    """

    remove: tuple[str, ...]
    pick_up: tuple[str, ...]
    stand_again: dict[str, Pose]


def after_flick(
    baton: str,
    felled: Collection[str],
    raise_again: Collection[str],
    round_start: Mapping[str, Pose],
    own_before: Mapping[str, Pose],
    own_now: Mapping[str, Pose],
) -> AfterFlick:
    """Clear the board after a flick (``KT rules``; pure: the caller moves the pieces).

    Args:
        baton: the flicked baton's id.
        felled: kubbs the judge counts as knocked over by this flick.
        raise_again: kubbs the judge stands up again (their round-start spot).
        round_start: id → pose at the start of the turn.
        own_before: the flicker's own standing kubbs before the flick, id → pose.
        own_now: the same kubbs' poses now (a missing id is not checked).

    Returns:
        :class:`AfterFlick`; a disturbed own kubb is one moved more than
        :data:`OWN_KUBB_MOVED_M` or tilted more than :data:`OWN_KUBB_TILTED_RAD`.
    """
    stand = {kid: round_start[kid] for kid in sorted(raise_again) if kid in round_start}
    for kid, p in own_before.items():
        now = own_now.get(kid)
        if now is None:
            continue
        moved = math.dist(now.position, p.position) > OWN_KUBB_MOVED_M
        if moved or tilt_from_vertical(now.quat_xyzw) > OWN_KUBB_TILTED_RAD:
            stand[kid] = p
    return AfterFlick((baton,), tuple(sorted(felled)), stand)


@register_ruleset
@dataclass(frozen=True)
class Kubbuteo(Ruleset):
    """``KT``: one-on-one on a board, six flicks a turn, one reflick of a misflicked return."""

    name: str = "kubbuteo"
    equipment: str = "kubbuteo"
    pitch: Pitch = field(default_factory=kubbuteo_pitch)
    ground: str = "board"
    team_size: int = 1
    sets: int = 1
    time_limit_s: float | None = None
    lag_choice: bool = False
    king_throws_per_turn: int | None = None
    penalty: str = "place"
    min_king_distance_m: float = KING_CLEARANCE_M
    time: TimeModel = field(
        default_factory=lambda: TimeModel(
            lag_throw_s=8.0,
            choose_s=5.0,
            baton_throw_s=4.0,
            change_ends_s=10.0,
            inkast_per_kubb_s=4.0,
            penalty_throw_s=4.0,
            raise_per_kubb_s=2.0,
            place_s=4.0,
            tiebreak_removal_s=3.0,
            set_break_s=30.0,
        )
    )
    flicks: bool = True
    opening: str = "6-6-6"  # KT rules: "the six batons" every turn (no 2-4-6 opening)
    penalty_words: tuple[str, str] = Nn_(
        "{kubbs} misflicked after the one allowed misflick: placed by the receiving player",
        "{kubbs} misflicked after the one allowed misflick: placed by the receiving player",
    )

    def split_misses(self, missed: Sequence[str], attempt: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``KT rules``: "1 misflick is allowed … Subsequent misflicked kubbs will be placed":
        the first misflicked kubb (flicking order) of the first attempt is flicked again, every
        other one is placed by the receiving player."""
        missed = tuple(missed)
        if attempt == 1:
            return missed[:1], missed[1:]
        return (), missed

    def throwing_line(self, state: MatchState, side: Side) -> float:
        """``KT rules``: with own field kubbs standing, "the kubb closest to the King now
        represents that player's baseline, and players now flick at their opponent's kubbs from
        that point": the line through it, in front of the baseline or behind it (module doc), m."""
        field_kubbs = own_field_kubbs(state, side)
        if not field_kubbs:
            return state.pitch.baseline_x(side)
        k = min(field_kubbs, key=lambda k: (math.hypot(k.pose.position[0], k.pose.position[1]), k.id))
        return k.pose.position[0]

    def placement_error(self, state: MatchState, kubb: str, half: Side, position: tuple[float, float]) -> str | None:
        """``KT rules``: a misflicked kubb is placed "anywhere in their own half, but at least 2
        inches from the King": the standing disk (thickness along x, its diameter across)
        on the board inside ``half``, its centre at least 2 in from the king's centre."""
        x, y = position
        disk = get_set(self.equipment).kubb
        assert isinstance(disk, DiskPiece)
        hx, hy = disk.thickness / 2, disk.radius
        p = self.pitch
        lo, hi = (-p.length / 2, 0.0) if half == "A" else (0.0, p.length / 2)
        if not (lo + hx <= x <= hi - hx and abs(y) <= p.half_width - hy):
            return msg("the kubb must stand on the board inside half {half} ({rule})", half=half, rule=KT_RULES)
        if math.hypot(x, y) < self.min_king_distance_m:
            return msg(
                "the kubb must stand at least 2 in ({need_cm:.2f} cm) from the king ({rule})",
                need_cm=self.min_king_distance_m * 100,
                rule=KT_RULES,
            )
        for oid, k in sorted(state.kubbs.items()):
            # a free spot: the standing disk overlaps no other standing disk
            if oid != kubb and k.standing and not k.removed:
                ox, oy = k.pose.position[0], k.pose.position[1]
                if abs(x - ox) < 2 * hx and abs(y - oy) < 2 * hy:
                    return msg("the kubb would overlap {other} ({rule})", other=oid, rule=KT_RULES)
        return None
