"""Seeded matches in which the throwers now and then throw invalidly or at the king on purpose.

Simulated play never throws a helicopter, never steps over the line and never aims at the king
before the kubbs are down (docs/examinations/2026-12-07-ws-play.md, "What simulated play did
not exercise"), so those rulings were never compared. Here both teams are played through the
match's public input for a person's throws (``Match(..., human={name: callable})``, the
viewer's match mode): each throw asked for is answered with the noise-free release the team's
own simulated strategy intends (:func:`kubb3d.match.human.strategy_person`), and the match
adds the release error of :attr:`MatchConfig.difficulty` (``club``) as for any person. A
:class:`Saboteur` with a generator seeded from the match seed changes some of those releases
before they are returned:

* ``helicopter``: a rotation about the vertical of 2.5–4 rev/s (``helicopter_rps``; WS basic
  rule 5 "no 'helicopter throw', i.e. no horizontal rotation"), half of them without the
  end-over-end spin;
* ``tilt``: the baton rolled 35–70° out of its flight plane (``tilt_deg``; WS names no limit);
* ``foot``: the toe of the front foot 5–30 cm past the throwing line at the release
  (``foot_behind_line`` < 0; WS basic rule 7 "The tip of the foot must stay behind the frontmost
  pawn");
* ``step``: the front foot steps 5–30 cm past the line after the release (``step_after``);
* ``line``: thrown from a line 0.3–1.0 m nearer the centre line than the one the match gave
  (``line_x``), aimed again from there (basic rules 6, 7; for a king throw End of the Game
  "thrown from its own baseline");
* ``king``: a baton thrown at the king instead of the kubb the strategy chose (End of the Game
  "A team loses if it knocks over the king before it has knocked over all kubbs ...");
* an inkasted kubb aimed at the king (``inkast-king``);
* with ``inkast_foul_rate`` (0 by default: the runs of 2026-12-07-ws-invalid.md draw nothing
  for it), a kubb thrown back with the toe 5-30 cm past the baseline at the release, the hand
  0.4 m in front of it (``inkast-foot``), or from a line 0.3-1.0 m nearer the centre than the
  baseline, aimed again from there (``inkast-line``): WS basic rule 10 "thrown from the
  baseline or front line"; DM names no line for an inkast.

The match engine, the players and the judge are kubb3d's own and unchanged; kubb3d's seeded
matches (tests/test_match_digests.py) do not pass through here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from kubb3d.match.human import strategy_person
from kubb3d.throw import ThrowParams

KINDS = ("helicopter", "tilt", "foot", "step", "line", "king")
WEIGHTS = (1.0, 1.0, 1.0, 1.0, 1.0, 0.4)
"""How often each change is drawn (a baton at the king mostly ends the match: drawn less)."""
NAMES = ("T1", "T2")


@dataclass
class Saboteur:
    """Answers a team's throws as its strategy would, changing some (module doc).

    Args:
        match: the match (its players' strategies aim the throws).
        name: the team's name.
        rng: the saboteur's own generator.
        rate: the share of baton throws changed.
        inkast_rate: the share of inkasted kubbs aimed at the king.
        inkast_foul_rate: the share of inkasted kubbs thrown from past the line (module doc).
        kinds: the changes drawn from (:data:`WEIGHTS`).
    """

    match: Any
    name: str
    rng: np.random.Generator
    rate: float = 0.2
    inkast_rate: float = 0.05
    kinds: tuple[str, ...] = KINDS
    inkast_foul_rate: float = 0.0
    done: list[tuple[str, str]] = field(default_factory=list)

    def __call__(self, req) -> ThrowParams:
        plain = strategy_person(self.match, self.name)
        p = plain(req)
        u = float(self.rng.random())
        if req.kind == "inkast":
            if u < self.inkast_rate:
                self.done.append((req.piece, "inkast-king"))
                return self._kubb_at_king(req)
            if u < self.inkast_rate + self.inkast_foul_rate:
                return self._inkast_foul(req, p)
            return p
        if req.kind not in ("baton", "king") or u >= self.rate:
            return p
        w = np.array([WEIGHTS[KINDS.index(k)] for k in self.kinds])
        kind = self.kinds[int(self.rng.choice(len(self.kinds), p=w / w.sum()))]
        if kind == "king" and req.kind == "king":
            kind = "line"
        self.done.append((req.piece, kind))
        r = self.rng
        sign = 1.0 if r.random() < 0.5 else -1.0
        if kind == "helicopter":
            # half of them flat (no end-over-end spin), half on top of the strategy's spin
            spin = 0.0 if r.random() < 0.5 else p.spin_rps
            return replace(p, helicopter_rps=sign * float(r.uniform(2.5, 4.0)), spin_rps=spin)
        if kind == "tilt":
            return replace(p, tilt_deg=sign * float(r.uniform(35.0, 70.0)))
        if kind == "foot":
            past = float(r.uniform(0.05, 0.30))
            # the hand 0.4 m in front of the toe, as a stance of one step
            return replace(p, foot_behind_line=-past, behind_line=-past - 0.40)
        if kind == "step":
            foot, _ = p.stance()
            return replace(p, step_after=foot + float(r.uniform(0.05, 0.30)))
        if kind == "line":
            f = req.world.pitch.forward(req.side)
            return self._aimed(req, req.line_x + f * float(r.uniform(0.3, 1.0)), req.target)
        # king: at the king, from the line the match gave
        kp, _ = req.world.pose("king")
        return self._aimed(req, req.line_x, (float(kp[0]), float(kp[1]), float(kp[2])))

    def _aimed(self, req, line_x: float, target) -> ThrowParams:
        player = self.match.players[self.name]
        w = req.world
        rng = np.random.default_rng(0)  # feeds only the noisy release, which is discarded
        return player.baton_throw(w.equipment, w.pitch, req.side, float(line_x), tuple(target), rng, dt=w.quiet_dt)[0]

    def _inkast_foul(self, req, p: ThrowParams) -> ThrowParams:
        """A kubb thrown back from past the baseline: the toe over it, or a line nearer the
        centre (module doc)."""
        from kubb3d.players import fast_aim

        r = self.rng
        if r.random() < 0.5:
            self.done.append((req.piece, "inkast-foot"))
            past = float(r.uniform(0.05, 0.30))
            return replace(p, foot_behind_line=-past, behind_line=-past - 0.40)
        self.done.append((req.piece, "inkast-line"))
        w = req.world
        base = w.pitch.baseline_x(p.side)
        line = base + w.pitch.forward(p.side) * float(r.uniform(0.3, 1.0))
        target = (float(req.target[0]), float(req.target[1]), w.equipment.kubb.width / 2)
        return fast_aim(w.equipment, w.pitch, target, replace(p, line_x=line), kind="kubb", dt=w.quiet_dt)

    def _kubb_at_king(self, req) -> ThrowParams:
        from kubb3d.pitch import opponent

        player = self.match.players[self.name]
        w = req.world
        kp, _ = w.pose("king")
        rng = np.random.default_rng(0)
        return player.kubb_throw(
            w.equipment, w.pitch, opponent(req.into), (float(kp[0]), float(kp[1])), rng, dt=w.quiet_dt
        )[0]


def saboteurs(
    seed: int,
    rate: float = 0.2,
    inkast_rate: float = 0.05,
    kinds: tuple[str, ...] = KINDS,
    inkast_foul_rate: float = 0.0,
):
    """(human mapping for ``Match``, a function to call with the match once it is made, the
    saboteurs): both teams played by a :class:`Saboteur` with generators from ``seed``."""
    holder: dict[str, Saboteur] = {}
    streams = np.random.SeedSequence([seed, 16]).spawn(2)

    def attach(match) -> None:
        for name, ss in zip(NAMES, streams):
            holder[name] = Saboteur(match, name, np.random.default_rng(ss), rate, inkast_rate, kinds, inkast_foul_rate)

    human = {name: (lambda req, name=name: holder[name](req)) for name in NAMES}
    return human, attach, holder


def invalid_config(**config: Any) -> dict[str, Any]:
    """The match configuration of a sabotaged match: the teams named, a person's release error
    of ``club``."""
    return {"names": NAMES, "difficulty": "club", **config}


def record_invalid_match(
    seed: int,
    ruleset: str = "wikinger",
    rate: float = 0.2,
    inkast_rate: float = 0.05,
    inkast_foul_rate: float = 0.0,
    **config: Any,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play one seeded sabotaged match: (positions, records) as :mod:`ws_play_positions` gives
    them (a DM match: the same format), with one record more at the end, ``{"type":
    "sabotage", "done": {team: [[piece, change], ...]}}``: what each saboteur changed."""
    from play_positions import record_with_actions

    human, attach, holder = saboteurs(seed, rate, inkast_rate, inkast_foul_rate=inkast_foul_rate)
    positions, records = record_with_actions(ruleset, seed, (human, attach), **invalid_config(**config))
    kept = []
    for r in records:
        if r.get("type") == "action" and (r.get("outcome") or {}).get("kind") in ("throw", "inkast"):
            kept.append({"type": "action", "i": r["i"], "action": r["action"], "judged": True})
        else:
            kept.append(r)
    kept.append({"type": "sabotage", "done": {n: [list(d) for d in s.done] for n, s in holder.items()}})
    return positions, kept
