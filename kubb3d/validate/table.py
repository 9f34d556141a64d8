"""``table`` rows of ``kubb3d validate``: the Kubbuteo table top (rule book ``KT``), disks
sliding on the board against v²/(2 μ g) and their time to rest, and a disk dropped flat onto it
against e²·h."""

from __future__ import annotations

from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.world import GRAVITY, TABLE_SETTLE_S, World
from kubb3d.validate.rebound import DROP_HEIGHT, rise_after_drop
from kubb3d.validate.rows import Row, rel_row

TABLE_TOLERANCE = 0.05
"""Kubbuteo disks on the board: slide and rebound against their formulas."""


def table_slide(kind: str, v: float) -> tuple[float, float]:
    """(distance m, time to rest s) of a Kubbuteo disk (``baton`` or ``kubb``) lying flat on the
    board and given ``v`` m/s."""
    from kubb3d.equipment import LYING_DISK_KUBB

    with World("kubbuteo") as w:
        eq = w.equipment
        # a disk lies on a face: its centre half its thickness (``width``) above the board
        q, z = ((0.0, 0.0, 0.0, 1.0), eq.baton.length / 2) if kind == "baton" else (LYING_DISK_KUBB, eq.kubb.width / 2)
        w.add_piece("p", kind, (-0.3, 0.0, z), q, sleeping=False)
        w.step(w.steps_for(0.1))
        p0, q0 = w.pose("p")
        t0 = w.time
        w.set_pose("p", p0, q0, linear_velocity=(v, 0.0, 0.0))
        stats = w.run_until_rest(5.0)
        return float(w.pose("p")[0][0] - p0[0]), stats.time - t0


def table_drop_rebound(height: float = DROP_HEIGHT) -> float:
    """Highest rise, m, after the first bounce of a Kubbuteo baton disk dropped lying flat from
    ``height`` m onto the board."""
    with World("kubbuteo") as w:
        return rise_after_drop(w, "baton", (0.0, 0.0, 0.0, 1.0), w.equipment.baton.length / 2, height)[0]


def check_table() -> list[Row]:
    """Kubbuteo (rule book ``KT``): disks sliding on the board and a disk dropped onto it."""
    board = GROUNDS["board"]
    mu, e = board.friction, board.restitution
    rows = []
    for kind, v in (("baton", 1.5), ("kubb", 1.0)):
        d, t = table_slide(kind, v)
        what = f"Kubbuteo {'baton' if kind == 'baton' else 'kubb'} disk lying flat, sliding from {v:g} m/s on the board"
        rows.append(
            rel_row(
                "table",
                what,
                f"v² / (2 μ g), μ = {mu:g}",
                "ground 'board' friction (kubb3d/physics/ground.py)",
                v * v / (2 * mu * GRAVITY),
                d,
                "m",
                TABLE_TOLERANCE,
                kind="plumbing",
            )
        )
        rows.append(
            rel_row(
                "table",
                "time until that disk is at rest",
                "v / (μ g) + settle window",
                "Coulomb friction; kubb3d/physics/rest.py TABLE_SETTLE_S",
                v / (mu * GRAVITY) + TABLE_SETTLE_S,
                t,
                "s",
                0.0,
                2 / 30,
                kind="plumbing",
            )
        )
    rows.append(
        rel_row(
            "table",
            "Kubbuteo baton disk dropped lying flat from 1 m onto the board",
            f"e² h, e = {e:g}",
            "ground 'board' restitution (kubb3d/physics/ground.py)",
            e * e * DROP_HEIGHT * 100,
            table_drop_rebound() * 100,
            "cm",
            TABLE_TOLERANCE,
            kind="plumbing",
        )
    )
    return rows
