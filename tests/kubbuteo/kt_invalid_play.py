"""Seeded Kubbuteo matches in which the flickers now and then flick from the wrong place, at the
king early, or misflick a return on purpose.

As tests/judge/invalid_play.py for grass: both players are played through the match's input for
a person's flicks (``Match(..., human={name: callable})``); each flick asked for is answered
with the noise-free flick the player's strategy intends
(:func:`kubb3d.match.human.strategy_person`), and the match adds a person's release error of
``club``. A :class:`KtSaboteur` with its own generator, seeded from the match seed, changes a
share ``rate`` of them first:

* a flick at kubbs: from a line 2-10 cm nearer the centre than the one the match gives
  (``line``; KT rules "players now flick at their opponent's kubbs from that point", no
  consequence given), or aimed at the king (``king``, one in three; KT rules "if at any time
  during the game the King is knocked down by a poorly flicked baton, the offending player
  immediately loses the game");
* a king flick: from 2-10 cm in front of the baseline (``king-line``; KT rules "Knocking over the
  King from anywhere but the baseline will result in losing the game");
* a returned kubb: from 2-10 cm in front of the baseline (``return-line``; "fallen kubbs are
  returned from the original baseline", no consequence given), 40-70 % of its speed
  (``short``), or 25-45° off its aim (``wide``): misflicks when it does not reach the other
  half or leaves the board (KT rules "1 misflick ... is allowed").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))

from play_positions import record_with_actions  # noqa: E402

from kubb3d.match.human import strategy_person  # noqa: E402

NAMES = ("T1", "T2")


@dataclass
class KtSaboteur:
    """Answers a player's flicks as its strategy would, changing some (module doc)."""

    match: Any
    name: str
    rng: np.random.Generator
    rate: float = 0.2
    done: list[tuple[str, str]] = field(default_factory=list)

    def __call__(self, req):
        p = strategy_person(self.match, self.name)(req)
        if float(self.rng.random()) >= self.rate:
            return p
        r = self.rng
        f = req.world.pitch.forward(req.side)
        ahead = float(r.uniform(0.02, 0.10))
        if req.kind == "king":
            self.done.append((req.piece, "king-line"))
            return replace(p, line_x=req.line_x + f * ahead)
        if req.kind == "baton":
            if r.random() < 1 / 3:
                self.done.append((req.piece, "king"))
                kp, _ = req.world.pose("king")
                player = self.match.players[self.name]
                arrive = player.strategy.king_arrive_mps
                rng = np.random.default_rng(0)  # feeds only the noisy flick, which is discarded
                target = (float(kp[0]), float(kp[1]))
                return player.baton_flick(req.world, req.side, req.line_x, target, rng, arrive_speed=arrive)[0]
            self.done.append((req.piece, "line"))
            return replace(p, line_x=req.line_x + f * ahead)
        if req.kind in ("inkast", "penalty"):
            u = float(r.random())
            if u < 1 / 3:
                self.done.append((req.piece, "return-line"))
                line = req.world.pitch.baseline_x(p.side) if p.line_x is None else p.line_x
                return replace(p, line_x=line + req.world.pitch.forward(p.side) * ahead)
            if u < 2 / 3:
                self.done.append((req.piece, "short"))
                return replace(p, speed=p.speed * float(r.uniform(0.4, 0.7)))
            self.done.append((req.piece, "wide"))
            sign = 1.0 if r.random() < 0.5 else -1.0
            return replace(p, azimuth_deg=p.azimuth_deg + sign * float(r.uniform(25.0, 45.0)))
        return p


def record_kt_invalid_match(seed: int, rate: float = 0.2, **config: Any):
    """Play one seeded sabotaged Kubbuteo match: (positions, records) as
    tests/kubbuteo/kt_play_positions.py gives them, with one record more at the end, ``{"type":
    "sabotage", "done": {player: [[piece, change], ...]}}``."""
    holder: dict[str, KtSaboteur] = {}
    streams = np.random.SeedSequence([seed, 17]).spawn(2)

    def attach(match) -> None:
        for name, ss in zip(NAMES, streams):
            holder[name] = KtSaboteur(match, name, np.random.default_rng(ss), rate)

    human = {name: (lambda req, name=name: holder[name](req)) for name in NAMES}
    positions, records = record_with_actions(
        "kubbuteo", seed, (human, attach), names=NAMES, difficulty="club", **config
    )
    records.append({"type": "sabotage", "done": {n: [list(d) for d in s.done] for n, s in holder.items()}})
    return positions, records
