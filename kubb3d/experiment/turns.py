"""Per-turn measures of a whole match (the ``turns`` measure): what each throwing turn faced and
left, for first-baton efficiency, advantage lines and the 8 m hit rate (docs/studies.md).

A :class:`TurnTally` watches a match step by step (:meth:`TurnTally.before` and
:meth:`TurnTally.after` around every ``Match.step``) and keeps one :class:`TurnRecord` per turn
in which batons were thrown. It reads only the rules engine's state and the judge's outcomes
(``ThrowOutcome.felled``), so it counts what the referee counted.

Terms (``DM §6``, ``§8``): a turn's side first inkasts the kubbs felled in its own half into
the opponent's half, where they stand as field kubbs, then throws its batons at that half.
Field kubbs it leaves standing there give the opponent an advance line (the "advantage line"
of US play): the opponent then throws from the line of its frontmost standing field kubb.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from kubb3d.pitch import opponent


@dataclass
class TurnRecord:
    """One throwing turn.

    Attributes:
        set_no, turn_no: 1-based, as the rules engine counts them.
        side: ``A`` (the match's first player) or ``B``: who threw.
        advance_line: thrown from an advance line (``DM §8``): the opponent had left field
            kubbs standing in this side's own half.
        field_standing: field kubbs standing in the target half at the first baton.
        field_inkasted: of those, the ones this side inkasted in this turn (the rest stood
            there from its earlier turns).
        first_baton_field_felled: field kubbs the judge counted felled by the first baton.
        batons: batons thrown in the turn (king throws included).
        eight_m_throws: batons thrown from the own baseline with no field kubb standing in the
            target half (throws at the baseline kubbs, 8 m on a DM pitch).
        eight_m_felled: baseline kubbs the judge counted felled by those throws.
        field_left: field kubbs standing in the target half after the last baton (> 0: the
            side left an advantage line); None when the set ended in the turn.
    """

    set_no: int
    turn_no: int
    side: str
    advance_line: bool
    field_standing: int
    field_inkasted: int
    first_baton_field_felled: int = 0
    batons: int = 0
    eight_m_throws: int = 0
    eight_m_felled: int = 0
    field_left: int | None = None
    _field_ids: frozenset[str] = field(default=frozenset(), repr=False)
    _target: str = field(default="", repr=False)
    _sets_done: int = field(default=0, repr=False)
    _felled: frozenset[str] = field(default=frozenset(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The record as the row's ``turns`` list keeps it (public fields only)."""
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}


class TurnTally:
    """Counts a match's turns as it is played.

    Args:
        side_of: player name → row side label (``A`` for the first player, ``B``).
    """

    def __init__(self, side_of: Mapping[str, str]) -> None:
        self.side_of = dict(side_of)
        self.records: list[TurnRecord] = []
        self._current: TurnRecord | None = None

    def before(self, state) -> None:
        """Call before each step: opens a turn's record at its first baton."""
        from kubb3d.rules import Phase

        if state.phase != Phase.THROW or state.batons_thrown != 0 or state.turn_side is None:
            return
        key = (state.set_no, state.turn_no)
        cur = self._current
        if cur is not None and (cur.set_no, cur.turn_no) == key:
            return
        side = state.turn_side
        target = opponent(side)
        field_ids = state.field_kubbs(target)
        self._current = TurnRecord(
            set_no=state.set_no,
            turn_no=state.turn_no,
            side=self.side_of[state.player_at(side)],
            advance_line=state.line_x is not None and state.line_x != state.pitch.baseline_x(side),
            field_standing=len(field_ids),
            field_inkasted=len(field_ids & set(state.inkasted_this_turn)),
            _field_ids=field_ids,
            _target=target,
            _sets_done=len(state.set_winners),
        )
        self.records.append(self._current)

    def after(self, state, action, outcome) -> None:
        """Call after each step with the step's action and outcome: counts a baton's effect."""
        from kubb3d.pitch import baseline_ids
        from kubb3d.rules import BatonThrow, KingThrow

        cur = self._current
        if cur is None or not isinstance(action, (BatonThrow, KingThrow)):
            return
        felled = frozenset(getattr(outcome, "felled", ()) or ())
        cur.batons += 1
        if cur.batons == 1:
            cur.first_baton_field_felled = len(felled & cur._field_ids)
        if isinstance(action, BatonThrow) and not cur.advance_line and not (cur._field_ids - cur._felled):
            cur.eight_m_throws += 1
            cur.eight_m_felled += len(felled & set(baseline_ids(cur._target)))
        cur._felled |= felled
        set_over = state.is_over() or len(state.set_winners) != cur._sets_done
        cur.field_left = None if set_over else len(state.field_kubbs(cur._target))

    def columns(self) -> dict[str, Any]:
        """The row's ``turns_*`` columns: the list of turn records and per-side sums, and
        ``turns_first_advantage_line`` (A, B or null: the side that left the match's first
        advantage line)."""
        out: dict[str, Any] = {"turns": [r.to_dict() for r in self.records]}
        for label in ("A", "B"):
            mine = [r for r in self.records if r.side == label]
            low = label.lower()
            out[f"turns_field_standing_{low}"] = sum(r.field_standing for r in mine)
            out[f"turns_field_inkasted_{low}"] = sum(r.field_inkasted for r in mine)
            out[f"turns_first_baton_felled_{low}"] = sum(r.first_baton_field_felled for r in mine)
            out[f"turns_advantage_lines_{low}"] = sum(1 for r in mine if r.field_left)
            out[f"turns_eight_m_throws_{low}"] = sum(r.eight_m_throws for r in mine)
            out[f"turns_eight_m_felled_{low}"] = sum(r.eight_m_felled for r in mine)
        first = next((r for r in self.records if r.field_left), None)
        out["turns_first_advantage_line"] = None if first is None else first.side
        return out
