"""Re-simulate one throw of a seeded match at finer time steps and record one kubb at every step.

The question (issue "rock"): a Kubbuteo kubb whose 30 Hz tilt record went past its sideways
tipping angle (14.1°) and that came back onto its spot: physics or a contact artefact?
docs/physics.md "A Kubbuteo kubb rocking past its tipping angle" gives the answer and the figures from this script.

Usage::

    .venv/bin/python benchmarks/rock_check.py --factors 1,2,4 --quiet-off
    .venv/bin/python benchmarks/rock_check.py --erp 0.8 --factors 1,2,4
    .venv/bin/python benchmarks/rock_check.py --factors 1 --restart-ms 425,430,440,460,475,490,505,515
    .venv/bin/python benchmarks/rock_check.py --scan 0-29 --rock-factor 2
    .venv/bin/python benchmarks/rock_check.py --scan 0-23 --history-models OLD/models  # same boards, current models

The match (club vs club unless ``--skills``) is played up to ``--action`` at the default step
and contact ERP (``--history-erp``; the defaults are seed 30, action 247, kubb A2 of the
closing note of #12, and the world's own ERP, so the match is the one played);
that action alone is then played with contact ERP ``--erp`` and the world's step divided by
each factor (and, with ``--quiet-off``, once more at the default step without the quiet
step). For each run the
script prints the piece's largest turn, how it splits into a turn about the disk's own axis
(rolling on its rim, "in plane") and a turn towards a face ("sideways", the turn the judge's
14.1° is for), the turn at each 30 Hz sample, the normal forces the piece received from each
other body, and an energy check at the moment the turn first passed 14.1°. ``--restart-ms``
then starts the kubb alone on the board from the first run's record at those times, with its
spin about its long axis kept and removed, at contact ERP 0.08 and 0.8. ``--scan`` plays
whole matches to find every kubb a flick turned past its tipping angle that stood again
(ruled standing, counted felled by its history) and plays each of those flicks again with the
step divided by ``--rock-factor``. ``--history-models DIR`` plays every match up to the action
with the model files in DIR (e.g. an older commit's ``models/``) and the action itself from
that board with the current ones (also at the default step, for ``--scan``/``--rocks``), so
that a change of the pieces' shapes is compared on the same situations. ``--json`` prints
the runs as data (every step, for plots).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

from pathlib import Path

import numpy as np

import kubb3d.assets as assets
import kubb3d.physics.engine as engine_module
from kubb3d.match import Match, MatchConfig
from kubb3d.physics.engine import CONTACT_ERP, QUIET_DT, QUIET_STEPS
from kubb3d.physics.world import GRAVITY
from kubb3d.snapshot import quat_to_matrix
from kubb3d.assets import com_local, disk_kubb_mesh
from kubb3d.equipment import EquipmentSet


class DiskRock:
    """Heights of a Kubbuteo kubb's centre of mass above the board for a given tilt (rigid
    geometry: the lowest point of the disk with its flat, from the model's own mesh)."""

    def __init__(self, eq: EquipmentSet) -> None:
        mesh = disk_kubb_mesh(eq.kubb, sections=721)
        self.points = np.asarray(mesh.vertices) - np.asarray(com_local(eq, "kubb"))
        self.rest_com_height = self.height(np.eye(3))
        phis = np.radians(np.linspace(0.0, 60.0, 6001))
        side = [self.height(_rx(0.0) @ _ry(t)) for t in phis]
        inplane = [self.height(_rx(t)) for t in phis]
        self.side_barrier_height = max(side)
        self.side_tipping = float(phis[int(np.argmax(side))])
        # in plane the disk rolls onto its rim past the flat's end: the first maximum
        i = next(k for k in range(1, len(inplane)) if inplane[k] < inplane[k - 1] - 1e-12)
        self.inplane_barrier_height = inplane[i - 1]
        self.inplane_tipping = float(phis[i - 1])

    def height(self, rot: np.ndarray) -> float:
        """m: centre of mass above the board for orientation ``rot`` (body → world, 3×3)."""
        return float(-np.min(self.points @ rot[2]))


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rock_angles(rot: np.ndarray) -> tuple[float, float, float]:
    """(tilt of the long axis from the vertical, its part about the disk's own axis (in plane,
    rolling onto the rim), its part towards a face (sideways, the judge's 14.1°)), rad, from the
    rotation matrix (body → world); independent of the heading (a spin about the vertical)."""
    ux, uy, uz = (float(v) for v in rot[2])  # the vertical in the body frame
    return math.acos(max(-1.0, min(1.0, uz))), math.atan2(uy, uz), math.atan2(ux, uz)


def rebuild_pieces(w) -> None:
    """Every piece of ``w`` taken out and added again from the model files in use now, at the same
    pose with the same velocities (a piece at rest asleep), so that one action of a match played
    with older models can be played with the current ones from the same board."""
    for pid in list(w.piece_ids()):
        piece = w.engine.pieces[pid]
        pos, q = w.pose(pid)
        v, om = w.velocity(pid)
        w.remove_piece(pid)
        w.add_piece(pid, piece.kind, pos, q, side=piece.side, sleeping=True)
        if np.linalg.norm(v) > 0 or np.linalg.norm(om) > 0:
            w.set_pose(pid, pos, q, linear_velocity=tuple(v), angular_velocity=tuple(om))


def run_once(
    seed: int,
    action: int,
    piece: str,
    factor: float,
    quiet: bool,
    skills: tuple[str, str],
    erp: tuple[float, float],
    history_models: str = "",
) -> dict:
    use_models(history_models)
    m = Match(MatchConfig(ruleset="kubbuteo", skills=skills, seed=seed))
    try:
        engine_module.CONTACT_ERP = erp[0]  # worlds built up to the action
        while m.action_index < action:
            m.step()
        if history_models:
            use_models("")
            rebuild_pieces(m.world)
        pend = m.pending()
        engine_module.CONTACT_ERP = erp[1]
        w = m.world
        w.engine.set_contact_erp(erp[1])
        dt = w.dt / factor
        w.dt = dt
        w.quiet_dt = max(dt, min(QUIET_STEPS * dt, QUIET_DT)) if quiet else dt
        w.use_step(dt)
        shape = DiskRock(w.equipment)
        mass = w.mass_properties(piece)[0]
        inertia = np.diag(w.mass_properties(piece)[1])
        rows: list[dict] = []
        clock = [w.time]  # World.time moves once per step(n) call; the hook runs before every step

        def record() -> None:
            com, q = w.com_pose(piece)
            v, om = w.engine.com_velocity(piece)
            rot = quat_to_matrix(q)
            total, inplane, side = rock_angles(rot)
            forces: dict[str, float] = {}
            for cp in w.contacts():
                if piece not in (cp.a, cp.b) or cp.normal_force <= 0.0:
                    continue
                other = cp.b if cp.a == piece else cp.a
                forces[other] = forces.get(other, 0.0) + cp.normal_force
            ob = rot.T @ np.asarray(om)  # body-frame angular velocity
            ke = 0.5 * mass * float(np.dot(v, v)) + 0.5 * float(ob @ inertia @ ob)
            # the part that can lift the centre of mass: turning about the horizontal body axes
            # and moving up (a spin about the long axis, near vertical, lifts nothing)
            ke_tip = 0.5 * mass * v[2] ** 2 + 0.5 * (inertia[0, 0] * ob[0] ** 2 + inertia[1, 1] * ob[1] ** 2)
            rows.append(
                {
                    "t": clock[0],
                    "h": w.engine.step_dt,
                    "tilt_deg": math.degrees(total),
                    "inplane_deg": math.degrees(inplane),
                    "side_deg": math.degrees(side),
                    "omega": [float(x) for x in om],
                    "omega_body": [float(x) for x in ob],
                    "com_z": float(com[2]),
                    "com": [float(x) for x in com],
                    "quat": [float(x) for x in q],
                    "up_body": [float(x) for x in rot[2]],
                    "v": [float(x) for x in v],
                    "baton": [list(w.com_pose("baton1")[0]), list(w.engine.com_velocity("baton1")[0])]
                    if w.has_piece("baton1")
                    else None,
                    "ke": ke,
                    "ke_tip": ke_tip,
                    "forces": forces,
                }
            )
            clock[0] += w.engine.step_dt

        w.stepper.add_step_hook(record)
        res = m.step()
        rows_after = rows
        outcome = res.outcome.to_dict() if res.outcome is not None else None
        final_pos = [rows[-1]["tilt_deg"], rows[-1]["com_z"]] if rows else None
    finally:
        use_models("")
        m.close()
    t0 = rows_after[0]["t"] if rows_after else 0.0
    peak = max(rows_after, key=lambda r: r["tilt_deg"]) if rows_after else None
    tip = math.degrees(shape.side_tipping)
    cross = next((r for r in rows_after if r["tilt_deg"] > tip), None)
    energy = None
    if cross is not None:
        # energy above the upright rest at the crossing, against the two barriers: over the
        # flat's long edge (sideways, to lying) and over the flat's end (in plane, to the rim)
        u_rest = mass * GRAVITY * shape.rest_com_height
        u_now = mass * GRAVITY * shape.height(np.array([[0.0] * 3, [0.0] * 3, cross["up_body"]]))
        energy = {
            "t_ms": (cross["t"] - t0) * 1e3,
            "ke_mJ": cross["ke"] * 1e3,
            "ke_tip_mJ": cross["ke_tip"] * 1e3,
            "pe_above_rest_mJ": (u_now - u_rest) * 1e3,
            "barrier_side_mJ": mass * GRAVITY * (shape.side_barrier_height - shape.rest_com_height) * 1e3,
            "barrier_inplane_mJ": mass * GRAVITY * (shape.inplane_barrier_height - shape.rest_com_height) * 1e3,
            "omega_body": cross["omega_body"],
            "inplane_deg": cross["inplane_deg"],
            "side_deg": cross["side_deg"],
        }
    samples = []
    for k in range(1, 400):
        t = t0 + k / 30.0
        near = min(rows_after, key=lambda r: abs(r["t"] - t))
        if abs(near["t"] - t) < 0.01 and near["tilt_deg"] > 0.5:
            samples.append((round((near["t"] - t0) * 1e3, 1), round(near["tilt_deg"], 2)))
    impulses: dict[str, float] = {}
    for r in rows_after:
        for other, f in r["forces"].items():
            impulses[other] = impulses.get(other, 0.0) + f * r["h"]
    return {
        "seed": seed,
        "action": action,
        "piece": piece,
        "pending": type(pend.action).__name__ if pend else None,
        "dt": dt,
        "erp": erp,
        "quiet": quiet,
        "steps": len(rows_after),
        "peak": peak,
        "peak_t_ms": (peak["t"] - t0) * 1e3 if peak else None,
        "tipping_deg": tip,
        "inplane_tipping_deg": math.degrees(shape.inplane_tipping),
        "samples_30hz": samples,
        "energy_at_crossing": energy,
        "impulses_Ns": impulses,
        "final_com": final_pos,
        "outcome": outcome,
        "rows": rows_after,
    }


def use_models(folder: str) -> None:
    """Load pieces from the model files in ``folder`` ('' for the current ones)."""
    assets.models_dir = (lambda: Path(folder)) if folder else CURRENT_MODELS  # type: ignore[assignment]
    assets.model_path.cache_clear()


CURRENT_MODELS = assets.models_dir


def scan(seeds: list[int], skills: tuple[str, str], models: str = "") -> list[tuple[int, int, str]]:
    """(seed, action, kubb) of every kubb that a flick turned past its tipping angle and that
    stood again by itself: ruled standing but counted as felled by its history (DM §5, KT), and
    standing before the flick; the matches played with the models in ``models`` (a folder, ''
    for the current ones)."""
    found = []
    for seed in seeds:
        use_models(models)
        m = Match(MatchConfig(ruleset="kubbuteo", skills=skills, seed=seed))
        try:
            while m.state.outcome() is None:
                i = m.action_index
                standing = {k.id for side in ("A", "B") for k in m.state.standing_in(side)}
                res = m.step()
                rec = res.record or {}
                for r in (rec.get("judgement") or {}).get("rulings", []):
                    if r["status"] == "standing" and r["consequence"] == "counts as felled" and r["piece"] in standing:
                        found.append((seed, i, r["piece"]))
        finally:
            m.close()
            use_models("")
    return found


def recheck(rock: tuple[int, int, str], factor: float, skills: tuple[str, str], history_models: str = "") -> dict:
    """One rock of :func:`scan` played again with the step divided by ``factor`` (from the board
    the models in ``history_models`` left, see :func:`run_once`): the kubb's largest tilt and its
    tilt at the end, and whether the judge counted it felled."""
    seed, action, piece = rock
    r = run_once(seed, action, piece, factor, True, skills, (CONTACT_ERP, CONTACT_ERP), history_models)
    felled = (r["outcome"] or {}).get("felled", [])
    return {
        "rock": list(rock),
        "dt": r["dt"],
        "peak_deg": r["peak"]["tilt_deg"] if r["peak"] else 0.0,
        "peak_inplane_deg": r["peak"]["inplane_deg"] if r["peak"] else 0.0,
        "peak_side_deg": r["peak"]["side_deg"] if r["peak"] else 0.0,
        "final_deg": r["final_com"][0] if r["final_com"] else None,
        "felled": piece in felled,
    }


def restart(row: dict, dt: float, erp: float, spin: bool = True, seconds: float = 0.6) -> dict:
    """The kubb alone on the board from one recorded step (pose and velocities; with ``spin``
    False its turning about its long axis is removed), stepped at ``dt`` with contact ERP
    ``erp``: (largest tilt °, final tilt °). Tells apart what the kubb's own motion on the board
    does from what the flicked disk or a neighbour did."""
    from kubb3d.physics.world import World

    with World("kubbuteo", dt=dt, quiet_dt=dt, stakes=False) as w:
        w.engine.set_contact_erp(erp)
        w.add_piece("k", "kubb", (0.0, 0.0, 0.5), side="A", sleeping=False)
        rot = quat_to_matrix(row["quat"])
        om = np.asarray(row["omega"], dtype=float)
        if not spin:
            axis = rot[:, 2]
            om = om - axis * float(om @ axis)
        w.set_pose(
            "k",
            w.engine.frame_position("k", row["com"], row["quat"]),
            tuple(row["quat"]),
            linear_velocity=tuple(row["v"]),
            angular_velocity=tuple(om),
        )
        peak, tilt = 0.0, 0.0
        for _ in range(int(round(seconds / dt))):
            w.step(1)
            tilt = math.degrees(rock_angles(quat_to_matrix(w.com_pose("k")[1]))[0])
            peak = max(peak, tilt)
        return {"peak_deg": peak, "final_deg": tilt}


def rocks_main(a: argparse.Namespace, skills: tuple[str, str]) -> int:
    """``--scan``/``--rocks``: find rocks that came back and play each again at a finer step."""
    rocks = [(int(x), int(y), z) for x, y, z in (r.split(":") for r in a.rocks.split(",") if r)]
    if a.scan:
        lo, _, hi = a.scan.partition("-")
        rocks += scan(list(range(int(lo), int(hi or lo) + 1)), skills, a.history_models)
    out = []
    # from an older model's board, the current models at the default step too
    factors = [1.0, a.rock_factor] if a.history_models else [a.rock_factor]
    for rock, factor in ((rock, f) for rock in rocks for f in factors):
        t = time.perf_counter()
        r = recheck(rock, factor, skills, a.history_models)
        r["wall_s"], r["load"] = time.perf_counter() - t, os.getloadavg()[0]
        out.append(r)
        if not a.json:
            print(
                f"{rock[0]}:{rock[1]}:{rock[2]} at dt=1/{1 / r['dt']:.0f} s: peak {r['peak_deg']:.1f}° "
                f"(in plane {r['peak_inplane_deg']:+.1f}°, sideways {r['peak_side_deg']:+.1f}°), "
                f"end {r['final_deg']:.1f}°, felled {r['felled']} (wall {r['wall_s']:.0f} s, load {r['load']:.1f})",
                flush=True,
            )
    if a.json:
        json.dump(out, sys.stdout)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--action", type=int, default=247)
    ap.add_argument("--piece", default="A2")
    ap.add_argument("--factors", default="1,2,4")
    ap.add_argument("--quiet-off", action="store_true")
    ap.add_argument("--skills", default="club,club")
    ap.add_argument("--history-erp", type=float, default=CONTACT_ERP, help="contact ERP up to the action")
    ap.add_argument("--erp", type=float, default=CONTACT_ERP, help="contact ERP for the action itself")
    ap.add_argument("--restart-ms", default="", help="restart the kubb alone from these times, ms: '425,440'")
    ap.add_argument("--restart-factors", default="1,2", help="steps of the restarts: the default step over these")
    ap.add_argument("--scan", default="", help="seeds to search for rocks that came back: '0-19'")
    ap.add_argument("--rocks", default="", help="rocks to play again: 'seed:action:kubb,…' (as --scan prints)")
    ap.add_argument("--rock-factor", type=float, default=2.0, help="step divisor for --scan/--rocks")
    ap.add_argument(
        "--history-models",
        default="",
        help="play the match up to the action with the models in this folder (e.g. an older commit's models/), "
        "then the action with the current ones from the same board",
    )
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    skills = tuple(a.skills.split(","))
    if a.scan or a.rocks:
        return rocks_main(a, skills)  # type: ignore[arg-type]
    runs = [(float(f), True) for f in a.factors.split(",")]
    if a.quiet_off:
        runs.append((1.0, False))
    out = []
    for factor, quiet in runs:
        t = time.perf_counter()
        r = run_once(
            a.seed, a.action, a.piece, factor, quiet, skills, (a.history_erp, a.erp), a.history_models  # type: ignore[arg-type]
        )
        r["wall_s"] = time.perf_counter() - t
        r["load"] = os.getloadavg()[0]
        out.append(r)
        if not a.json:
            p = r["peak"]
            print(
                f"dt=1/{1 / r['dt']:.0f} s quiet={'on' if quiet else 'off'} ERP {a.erp:g}: "
                f"peak {p['tilt_deg']:.2f}° at {r['peak_t_ms']:.1f} ms "
                f"(in plane {p['inplane_deg']:+.2f}°, sideways {p['side_deg']:+.2f}°); "
                f"30 Hz {r['samples_30hz']}; felled {r['outcome'] and r['outcome'].get('felled')}",
                flush=True,
            )
            print(f"   impulses N·s { ({k: round(v, 5) for k, v in r['impulses_Ns'].items()}) }")
            print(f"   energy at the {r['tipping_deg']:.1f}° crossing: {r['energy_at_crossing']}")
            print(f"   last step (tilt °, com z m) {r['final_com']}; wall {r['wall_s']:.1f} s, load {r['load']:.1f}")
    rows = out[0]["rows"]
    out[0]["restarts"] = res = []
    for ms in (float(x) for x in a.restart_ms.split(",") if x):
        row = min(rows, key=lambda r: abs((r["t"] - rows[0]["t"]) * 1e3 - ms))
        for factor in (float(f) for f in a.restart_factors.split(",")):
            for erp in (CONTACT_ERP, 0.8):
                for spin in (True, False):
                    r = restart(row, out[0]["dt"] / factor, erp, spin)
                    res.append({"ms": ms, "dt": out[0]["dt"] / factor, "erp": erp, "spin": spin, **r})
                    if not a.json:
                        print(
                            f"restart at {ms:g} ms (tilt {row['tilt_deg']:.2f}°), dt=1/{factor / out[0]['dt']:.0f} s, "
                            f"ERP {erp:g}, spin {'kept' if spin else 'removed'}: "
                            f"peak {r['peak_deg']:.2f}°, final {r['final_deg']:.2f}°",
                            flush=True,
                        )
    if a.json:
        json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
