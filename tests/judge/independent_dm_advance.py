"""Where DM's advance line lies, written from the rule book's words, to check kubb3d's match engine.

kubb3d's own code for the throwing line was not read to write this module (see
docs/examinations/2026-12-07-dm-advance-line.md for what was read).

The clause, DM §8 „Nicht umgeworfene Feldkubbs - "Vorrücken"“:

    „Bleiben Kubbs in der eigenen Feldhälfte stehen, so darf man zum Werfen der Wurfhölzer bis
    zu einer parallel zur Grundlinie gedachten Linie durch den zur Mittellinie am nächsten
    stehenden Kubb vorgehen.“

and the clauses it leans on: DM §2 (the pitch, 5 m × 8 m, „auf dessen Grundlinien jeweils 5
Kubbs stehen. In der Mitte des Spielfeldes steht der König“), DM §5 („Überschreiten der
Grundlinie bzw. vorverlegten Wurflinie“: the advanced line is a throwing line like the
baseline) and DM §10 (the king throw „von der eigenen Grundlinie aus“).

What the words decide, and how :func:`dm_advance_line` reads them:

* Whose half: „in der eigenen Feldhälfte“ and „darf man … vorgehen“: the thrower's own half.
  Field kubbs standing in the half the thrower throws at do not move his line.
* Which kubbs: the heading says „Feldkubbs“, and DM §5 says „Kubbs“ in the same sense („Fällt
  ein Grundlinienkubb, während in der dazugehörigen Feldhälfte noch Kubbs stehen“). So the
  standing *field* kubbs count. A baseline kubb standing on its baseline puts the line on the
  baseline anyway; one pushed forward off its baseline and still standing, in front of every
  field kubb, is a case where heading („Feldkubbs“) and sentence („Kubbs“) part: SILENT.
* The king is no kubb (DM §1 „alle Kubbs … und anschließend den König“, DM §2 „Kubbs“ beside
  „König“): it never sets the line.
* None standing in the own half: no „Vorrücken“; the line is the baseline (DM §5 „Grundlinie
  bzw. vorverlegten Wurflinie“).
* The line: „parallel zur Grundlinie“ and „durch den … Kubb“: a line at a fixed distance from
  the baseline that passes through that kubb. DM does not say through which point (its
  centre, its face nearest the centre line, its back face): every line that crosses the
  kubb's base is „durch den Kubb“. The answer is that range of distances from the baseline;
  a line anywhere in it agrees. „darf … bis zu … vorgehen“: the thrower *may* go up to the
  line; the match engine's line is compared with the furthest line allowed.
* „zur Mittellinie am nächsten“: DM does not say from which point of a kubb the distance is
  measured. The kubb nearest by its base's nearest corner and the one nearest by its centre
  are taken; if they are different kubbs: SILENT.
* A kubb on the centre line (its base crossing or touching the line): DM says neither that it
  is in the own half nor that it is not: SILENT. A base wholly past the centre line: not in
  the own half, not counted.
* A kubb standing out over a sideline („im Aus“, which DM §7 allows for a kubb raised against
  others): whether it is in the „Feldhälfte“ DM does not say. It is left out of the
  comparison only where it would change the answer (the line with it and without it differ):
  SILENT.
* A kubb whose base lies partly behind the baseline would give a line behind it, no
  „vorgehen“: SILENT (it does not happen in play: a field kubb is raised inside the field,
  DM §7).
* The king throw (DM §10 „von der eigenen Grundlinie aus der König abzuwerfen“): from the
  baseline, whatever stands in the own half.
* Only baton throws („zum Werfen der Wurfhölzer“); where a kubb is inkasted from is not §8's
  subject (DM §6 names the baseline for penalty kubbs only): not compared.
* When: „Bleiben Kubbs … stehen“ — the kubbs the opponent left standing, i.e. those standing
  in the own half when the thrower's turn of baton throws begins. They are not his targets,
  so the line is the same for all his throws of that turn (a kubb his own baton knocks by
  accident is set up again, DM §5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

EDGE_TOL = 1e-4  # m: a base this close to the centre line touches it; ties within this are ties


@dataclass(frozen=True)
class AdvanceLine:
    """DM §8's answer for one turn.

    ``depth``: (nearest, furthest) allowed distance of the throwing line from the thrower's own
    baseline towards the centre line, in m; (0, 0) is the baseline itself. None when DM is
    silent (``silent`` says why). ``kubb``: the field kubb the line passes through (None: the
    baseline)."""

    depth: tuple[float, float] | None
    kubb: str | None = None
    silent: str | None = None

    def allows(self, depth: float, tol: float = 1e-3) -> bool:
        """A line ``depth`` m in front of the baseline agrees with DM §8 (within ``tol``)."""
        if self.depth is None:
            raise ValueError("DM is silent here: " + str(self.silent))
        lo, hi = self.depth
        return lo - tol <= depth <= hi + tol


def depth_of(x, side: str, pitch: Mapping[str, float]):
    """Distance in front of end ``side``'s baseline (end A at x = -length/2, B at +length/2)."""
    half = pitch["length"] / 2
    return np.asarray(x, float) + half if side == "A" else half - np.asarray(x, float)


def _nearest(bases: Mapping[str, np.ndarray], side: str, pitch: Mapping[str, float]) -> AdvanceLine:
    if not bases:
        return AdvanceLine((0.0, 0.0))
    d = {k: depth_of(v[:, 0], side, pitch) for k, v in bases.items()}
    front = max(float(v.max()) for v in d.values())
    by_front = {k for k, v in d.items() if float(v.max()) >= front - EDGE_TOL}
    centre = {k: float(depth_of(bases[k][:, 0].mean(), side, pitch)) for k in bases}
    best_centre = max(centre.values())
    by_centre = {k for k, c in centre.items() if c >= best_centre - EDGE_TOL}
    both = sorted(by_front & by_centre)
    if not both:
        return AdvanceLine(
            None,
            silent=f"nearest kubb by corner {sorted(by_front)}, by centre {sorted(by_centre)} (DM §8 names no point)",
        )
    k = both[0]
    lo, hi = float(d[k].min()), float(d[k].max())
    if lo < -EDGE_TOL:
        return AdvanceLine(None, kubb=k, silent=f"{k} stands partly behind the baseline")
    return AdvanceLine((lo, hi), kubb=k)


def dm_advance_line(
    field: Mapping[str, np.ndarray],
    side: str,
    pitch: Mapping[str, float],
    baseline: Mapping[str, np.ndarray] | None = None,
    king_throw: bool = False,
) -> AdvanceLine:
    """DM §8: the throwing line of end ``side``'s baton throws (module doc for the readings).

    ``field``: the standing field kubbs anywhere on the ground, id → the four corners (x, y) of
    the base each stands on; ``baseline``: the standing baseline kubbs of the thrower's own
    end, the same way (only to find the one case where DM is silent about them); ``pitch``:
    {"length", "width"} (DM §2: 8 m, 5 m), end A at x < 0; ``king_throw``: a king throw
    (DM §10: from the baseline)."""
    if king_throw:
        return AdvanceLine((0.0, 0.0))
    half = pitch["length"] / 2
    hw = pitch["width"] / 2
    inside: dict[str, np.ndarray] = {}
    out_side: dict[str, np.ndarray] = {}
    for k, base in field.items():
        base = np.asarray(base, float)
        d = depth_of(base[:, 0], side, pitch)
        if float(d.min()) > half + EDGE_TOL:
            continue  # wholly in the other half
        if float(d.max()) >= half - EDGE_TOL:
            return AdvanceLine(None, kubb=k, silent=f"{k} stands on the centre line (DM §8 'eigene Feldhälfte')")
        if float(np.abs(base[:, 1]).max()) > hw:
            out_side[k] = base
        else:
            inside[k] = base
    line = _nearest(inside, side, pitch)
    if out_side and line.depth is not None:
        with_out = _nearest({**inside, **out_side}, side, pitch)
        if with_out.kubb != line.kubb:
            return AdvanceLine(
                None, kubb=with_out.kubb, silent=f"{with_out.kubb} stands over a sideline ('Feldhälfte'?)"
            )
    if line.depth is None:
        return line
    for k, base in (baseline or {}).items():
        d = depth_of(np.asarray(base, float)[:, 0], side, pitch)
        if float(d.min()) > EDGE_TOL and float(d.max()) > line.depth[1] + EDGE_TOL:
            return AdvanceLine(
                None, kubb=k, silent=f"baseline kubb {k} stands off its baseline in front of the line ('Feldkubbs')"
            )
    return line
