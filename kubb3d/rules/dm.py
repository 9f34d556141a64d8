"""The German championship rules for the duel (rule book ``DM``, sections 1–11).

========================  ===================================================  ========
rule                      kubb3d                                               source
========================  ===================================================  ========
equipment, pitch          ``dm-small`` set, 5 × 8 m                            DM §2
lag throw                 both at the king; nearer wins; a felled king loses   DM §3
                          the lag; tie or both felled: repeated
choice                    lag winner picks end *or* opener, the loser the rest DM §3
sets                      best of ``sets``; ends and opener change every set   DM §3
baton schedule            2, 4, then 6 per turn                                DM §4
throwing rules            underhand, tilt ≤ 30°, line (judge / throw.py)       DM §5
field before baseline     early baseline kubbs raised at the end of the turn   DM §5
inkast                    one rethrow; then penalty kubbs thrown alternately   DM §6
                          (first by the opponent) from the same baseline
raising                   by the opponent, poses decided by the judge          DM §7
stößel                    placed freely by the inkaster after raising          DM §7
advance line              through the own field kubb nearest the centre line   DM §8
tie-break                 after the organiser's time limit                     DM §9
king throw                from the baseline, one per turn, all kubbs down      DM §10
early king                the other player wins the set                        DM §1
========================  ===================================================  ========

Decisions where DM is silent (see also :mod:`kubb3d.rules.core`):

* Default: one set (``--sets 3`` for best of three); no time limit (``--time-limit``).
* Tie-break (``DM §9``): the advantage player removes the first tie-break kubb in his
  next own turn, after the raising; from the following turn on, the side whose turn it
  is removes one tie-break kubb from the opponent's half after the raising of every turn
  (also when nothing was inkasted, so that the tie-break always shortens the set).
  In a deciding set in tie-break the advantage holder removes the first tie-break kubb
  at the end of turn 3 (the first six-baton turn), then as above.
* A penalty kubb after :data:`~kubb3d.rules.core.PENALTY_ALTERNATION_CAP` failed throws
  is placed by the receiving side in its own half (DM §6 alternates until the kubb is valid,
  without a limit), cited ``kubb3d decision: penalty cap``.
* Points of a DM match are the sets won.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubb3d.pitch import PITCHES, Pitch
from kubb3d.rules.core import Ruleset, register_ruleset



@register_ruleset
@dataclass(frozen=True)
class DM(Ruleset):
    """``DM``: duel, small set, 2-4-6 opening, tie-break after a time limit."""

    name: str = "dm"
    equipment: str = "dm-small"
    pitch: Pitch = field(default_factory=lambda: PITCHES["dm"])
    team_size: int = 1
    sets: int = 1
    time_limit_s: float | None = None
    lag_choice: bool = True
    king_throws_per_turn: int | None = 1
    penalty: str = "throw"
    opening: str = "2-4-6"  # DM §4: the opener throws 2, the other 4, then 6 each
