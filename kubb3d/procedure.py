"""The procedure of a match against its rule book, read from the replay records alone.

The audit's other checks (:mod:`kubb3d.audit`) look at the world after each action; these look at
the order and the actors of the match's events, as a referee with the rule book in hand would,
without asking the rules engine that produced them: every expectation below is written here from
the rule book's words (the table :data:`RULES`), so a wrong branch of the engine cannot agree with
itself.

=========================  ===================================================================
check                      what must hold
=========================  ===================================================================
``lag_result``             the lag goes to the side the rule book names: DM §3 "Der Nähere
                           gewinnt den Anwurf, eine Berührung des Königs ist dabei erlaubt.
                           Fällt er jedoch, ... verliert"; WS Sequence of Play "If the king is
                           hit, the other team automatically gains the right to throw"; a tie
                           repeats (DM §3) or goes to the left team of the schedule (WS); a
                           baton at rest against the king (distance 0) hit it
``raise_after_inkasts``    the receiving side raises the inkasted kubbs, after the last inkast,
                           rethrow and penalty kubb of the turn (DM §7 "Danach stellt der
                           Gegner die Kubbs auf"; WS basic rule 12)
``penalty_actor``          a DM penalty kubb is thrown first by the opponent of the inkaster,
                           from the inkaster's baseline, then alternating (DM §6), and placed by
                           hand only after the cap of failed throws (DM §6 "Bis der Kubb gültig
                           im Feld landet" sets none: kubb3d decision: penalty cap); a penalty
                           kubb placed by hand goes into the placing side's own half (WS basic
                           rule 11, KT rules); a stößel into the opponent's half (DM §7)
``king_by_thrown_kubb``    a king felled by an inkasted or penalty kubb ends the set, lost by the
                           side that threw that kubb (DM §1 "mit Kubb oder Wurfholz"; WS End
                           of the Game; KT rules)
``line_in_own_half``       every baton is thrown from a line in the thrower's own half, never
                           beyond its baseline (DM §5, §8; WS basic rules 6, 7; KT rules)
``king_throw_line``        a king throw is thrown from the thrower's own baseline (DM §10; WS
                           End of the Game "thrown from its own baseline"; KT rules)
``king_throws_per_turn``   at most the king throws a turn allows: DM §10 "Es gibt nur einen
                           Königswurf pro Runde"; WS and KT set no limit
=========================  ===================================================================

Pure: plain dicts in, findings out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from kubb3d.errors import ReplayError, UnknownNameError
from kubb3d.judge.messages import number_text
from kubb3d.ranges import did_you_mean, listed

PROCEDURE_CHECKS: dict[str, str] = {
    "lag_result": "the lag goes to the side the rule book names (DM §3, WS Sequence of Play)",
    "raise_after_inkasts": "the receiving side raises after the turn's last inkast, rethrow and penalty (DM §7, WS 12)",
    "penalty_actor": "penalty kubbs thrown or placed by the side the rule book names (DM §6, §7; WS 11; KT)",
    "king_by_thrown_kubb": "a king felled by a thrown kubb is lost by the side that threw it (DM §1; WS; KT)",
    "line_in_own_half": "every baton thrown from a line in the thrower's own half (DM §5, §8; WS 6, 7; KT)",
    "king_throw_line": "every king throw from the thrower's own baseline (DM §10; WS End of the Game; KT)",
    "king_throws_per_turn": "no more king throws in a turn than the rule book allows (DM §10)",
}


@dataclass(frozen=True)
class Expect:
    """What one rule book says on the points the procedure checks.

    Attributes:
        lag_lost: a lag baton loses the lag when it ``felled`` the king, or already when it
            ``hit`` it.
        lag_tie: a tied lag is ``repeat``\\ ed, or won by the ``left team`` of the schedule
            (None: the rule book is silent, not checked).
        king_throws_per_turn: None for no limit.
        penalty_thrown: penalty kubbs are thrown (DM §6), not placed.
        penalty_cap: failed penalty throws of one kubb after which it is placed by hand instead
            (DM §6 alternates until it is valid: kubb3d decision: penalty cap), None: no throws.
        baseline_inset_m: how far the baselines lie inside the pitch's ends, m (KT
            "Equipment": "Baselines are marked 3.5 inches from each of the narrow ends").
    """

    lag_lost: str
    lag_tie: str | None
    king_throws_per_turn: int | None
    penalty_thrown: bool
    baseline_inset_m: float = 0.0
    penalty_cap: int | None = None


RULES: dict[str, Expect] = {
    # DM §6 has no end to the alternation; kubb3d places the kubb after 10 failed throws (the cap)
    "dm": Expect(lag_lost="felled", lag_tie="repeat", king_throws_per_turn=1, penalty_thrown=True, penalty_cap=10),
    "wikinger": Expect(lag_lost="hit", lag_tie="left team", king_throws_per_turn=None, penalty_thrown=False),
    # KT has no lag: kubb3d's lag flick follows DM §3 by analogy and leaves ties to the engine
    "kubbuteo": Expect(
        lag_lost="felled", lag_tie=None, king_throws_per_turn=None, penalty_thrown=False, baseline_inset_m=3.5 * 0.0254
    ),
}

_SET = re.compile(r"^set \d+: (\S+) at end ([AB]), (\S+) at end ([AB])")
_LAG_BY = re.compile(r"^(\S+) lag (?:throw|flick) from end ([AB])")
_LAG_WON = re.compile(r"^(\S+) wins the lag (?:throw|flick)")
_LAG_TIED = re.compile(r"^lag (?:throw|flick) tied")


@dataclass
class ProcedureReport:
    """Per check: how many cases were looked at and the findings (action index, detail)."""

    checked: dict[str, int] = field(default_factory=lambda: {k: 0 for k in PROCEDURE_CHECKS})
    findings: list[tuple[str, int, str]] = field(default_factory=list)

    def bad(self, check: str, i: int, detail: str) -> None:
        self.findings.append((check, i, detail))


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def check_procedure(records: Iterable[Mapping[str, Any]]) -> ProcedureReport:
    """Check a match's replay records (the header first, as :mod:`kubb3d.match` writes them).

    Raises:
        ReplayError, UnknownNameError: no header, or a ruleset this module has no expectations for.
    """
    records = list(records)
    if not records or records[0].get("type") != "header":
        raise ReplayError("a replay starts with its header record")
    header = records[0]
    ruleset = header["ruleset"]
    if ruleset not in RULES:
        raise UnknownNameError(f"no procedure expectations for ruleset {ruleset!r}"
                               f"{did_you_mean(ruleset, sorted(RULES))}; expected one of {listed(sorted(RULES))}")
    expect = RULES[ruleset]
    half_length = float(header["pitch"]["length"]) / 2
    names = list(header["config"].get("names") or [])
    report = ProcedureReport()
    player_at: dict[str, str] = {}
    lag: dict[str, tuple[str, Mapping[str, Any]]] = {}
    king_throws = 0
    inkast_side: str | None = None  # the side inkasting this turn (None: no inkast yet)
    raised = False
    penalty_throws: dict[str, int] = {}  # kubb -> penalty throws of it this turn
    for rec in records[1:]:
        if rec.get("type") == "outcome":
            continue
        i = int(rec.get("i", -1))
        action: Mapping[str, Any] = rec.get("action") or {}
        outcome: Mapping[str, Any] = rec.get("outcome") or {}
        kind = action.get("type")
        events = rec.get("events") or ()
        if kind == "LagThrow":
            by = next((m for e in events if (m := _LAG_BY.match(e.get("text", "")))), None)
            if by is not None:
                lag[action["side"]] = (by.group(1), outcome)
                report.checked["lag_result"] += 1
                if outcome.get("distance_m") == 0.0 and not outcome.get("king_hit"):
                    report.bad("lag_result", i, "a lag baton at rest against the king is recorded as not hitting it")
            if len(lag) == 2:
                _judge_lag(report, i, expect, lag, events, names)
                lag = {}
        elif kind in ("BatonThrow", "KingThrow"):
            side, x = action["side"], float(action["line_x"])
            own = -half_length <= x <= 0.0 if side == "A" else 0.0 <= x <= half_length
            report.checked["line_in_own_half"] += 1
            if not own:
                report.bad(
                    "line_in_own_half", i, f"side {side} threw from x = {number_text(x, '.3f')} m, outside its own half"
                )
            if kind == "KingThrow":
                baseline = (half_length - expect.baseline_inset_m) * (-1.0 if side == "A" else 1.0)
                report.checked["king_throw_line"] += 1
                if abs(x - baseline) > 1e-6:
                    report.bad(
                        "king_throw_line", i,
                        f"a king throw from x = {number_text(x, '.3f')} m, not the baseline {baseline}",
                    )
                king_throws += 1
                report.checked["king_throws_per_turn"] += 1
                limit = expect.king_throws_per_turn
                if limit is not None and king_throws > limit:
                    report.bad("king_throws_per_turn", i, f"king throw {king_throws} of a turn that allows {limit}")
            inkast_side, raised = None, False
        elif kind in ("Inkast", "PenaltyThrow"):
            thrower = action["side"]
            if kind == "Inkast":
                inkast_side = thrower
            else:
                inkast_side = action["from_side"]
                report.checked["penalty_actor"] += 1
                first = _other(action["from_side"])
                due = first if int(action["number"]) % 2 == 1 else action["from_side"]
                penalty_throws[action["kubb"]] = penalty_throws.get(action["kubb"], 0) + 1
                cap = expect.penalty_cap
                if not expect.penalty_thrown or thrower != due or (cap is not None and int(action["number"]) > cap):
                    report.bad(
                        "penalty_actor", i, f"penalty throw {action['number']} of {action['kubb']} by side {thrower}"
                    )
            report.checked["raise_after_inkasts"] += 1
            if raised:
                report.bad("raise_after_inkasts", i, f"{kind} after the kubbs of this turn were raised")
            if outcome.get("king_felled"):
                _judge_king_by_kubb(report, i, thrower, events, player_at)
        elif kind == "Raise":
            report.checked["raise_after_inkasts"] += 1
            if inkast_side is not None and action["side"] != _other(inkast_side):
                report.bad("raise_after_inkasts", i, f"side {action['side']} raised kubbs inkasted by itself")
            raised = True
        elif kind == "PlaceKubb":
            report.checked["penalty_actor"] += 1
            own_half = action.get("reason") != "stößel"
            if (action["half"] == action["side"]) != own_half:
                report.bad(
                    "penalty_actor", i, f"side {action['side']} placed {action['kubb']} ({action.get('reason')}) "
                    f"into half {action['half']}"
                )
            thrown = penalty_throws.get(action["kubb"], 0)
            if action.get("reason") == "penalty" and expect.penalty_cap is not None and thrown < expect.penalty_cap:
                report.bad(
                    "penalty_actor", i, f"penalty kubb {action['kubb']} placed by hand after {thrown} penalty throws, "
                    f"not {expect.penalty_cap}"
                )
        for e in events:
            m = _SET.match(e.get("text", "")) if e.get("kind") == "set" else None
            if m:
                player_at = {m.group(2): m.group(1), m.group(4): m.group(3)}
            if e.get("kind") == "turn":
                king_throws, inkast_side, raised = 0, None, False
                penalty_throws = {}
    return report


def _judge_lag(report: ProcedureReport, i: int, expect: Expect, lag, events, names: list[str]) -> None:
    """Who the rule book says wins a completed pair of lag throws, against the events."""

    def lost(o: Mapping[str, Any]) -> bool:
        hit = bool(o.get("king_hit")) or o.get("distance_m") == 0.0
        return bool(o.get("king_felled")) or (expect.lag_lost == "hit" and hit)

    (pa, oa), (pb, ob) = lag["A"], lag["B"]
    la, lb = lost(oa), lost(ob)
    da = float("inf") if oa.get("distance_m") is None else float(oa["distance_m"])
    db = float("inf") if ob.get("distance_m") is None else float(ob["distance_m"])
    tie = (la and lb) or (not la and not lb and da == db)
    if la != lb:
        want: str | None = pb if la else pa
    elif tie:
        if expect.lag_tie is None:
            return
        want = names[0] if expect.lag_tie == "left team" and names else None
    else:
        want = pa if da < db else pb
    won = next((m.group(1) for e in events if (m := _LAG_WON.match(e.get("text", "")))), None)
    tied = any(_LAG_TIED.match(e.get("text", "")) for e in events)
    if want is None and not tied:
        report.bad("lag_result", i, f"a tied lag must be repeated, but {won} won it")
    elif want is not None and won != want:
        report.bad("lag_result", i, f"the lag goes to {want} by the rule book, the match gave it to {won}")


_SET_WON = re.compile(r"^set \d+ to (\S+):")


def _judge_king_by_kubb(report: ProcedureReport, i: int, thrower: str, events, player_at) -> None:
    """The set ends in this action, won by the opponent of the side that threw the kubb."""
    report.checked["king_by_thrown_kubb"] += 1
    want = player_at.get(_other(thrower))
    won = next(
        (m.group(1) for e in events if e.get("kind") == "set" and (m := _SET_WON.match(e.get("text", "")))), None
    )
    if want is None or won != want:
        report.bad(
            "king_by_thrown_kubb",
            i,
            f"side {thrower} felled the king with a thrown kubb, so the set goes to {want}; the match gave it to {won}",
        )
