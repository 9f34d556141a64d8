"""``pieces`` rows of ``kubb3d validate``: mass and principal moments of inertia of every piece
the engine holds against the solid's formulas (density × volume; m(a² + b²)/12, m r²/2 …)."""

from __future__ import annotations

import math

from kubb3d.physics.world import World
from kubb3d.validate.rows import Row, rel_row


def check_pieces() -> list[Row]:
    rows = []
    for set_name in ("standard", "dm-small"):
        with World(set_name, ground="plane", stakes=False) as w:
            eq = w.equipment
            k, b = eq.kubb, eq.baton
            w.add_piece("k", "kubb", (0, 0, 1))
            w.add_piece("b", "baton", (1, 0, 1))
            w.add_piece("K", "king", (2, 0, 1))
            src = f"{set_name} set dimensions (docs/physics.md 'Reference numbers'), wood {eq.wood_density:g} kg/m³"
            m, inertia = w.mass_properties("k")
            mk = eq.wood_density * k.width**2 * k.height
            rows.append(rel_row("pieces", f"{set_name} kubb mass", "ρ w² h", src, mk, m, "kg", 0.01, kind="plumbing"))
            rows.append(
                rel_row(
                    "pieces",
                    f"{set_name} kubb I across",
                    "m (w² + h²) / 12",
                    src,
                    mk * (k.width**2 + k.height**2) / 12,
                    inertia[0],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            rows.append(
                rel_row(
                    "pieces",
                    f"{set_name} kubb I along",
                    "m w² / 6",
                    src,
                    mk * k.width**2 / 6,
                    inertia[2],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            m, inertia = w.mass_properties("b")
            mb = eq.wood_density * math.pi * b.radius**2 * b.length
            rows.append(
                rel_row("pieces", f"{set_name} baton mass", "ρ π r² L", src, mb, m, "kg", 0.01, kind="plumbing")
            )
            rows.append(
                rel_row(
                    "pieces",
                    f"{set_name} baton I across",
                    "m (3 r² + L²) / 12",
                    src,
                    mb * (3 * b.radius**2 + b.length**2) / 12,
                    inertia[0],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            rows.append(
                rel_row(
                    "pieces",
                    f"{set_name} baton I along",
                    "m r² / 2",
                    src,
                    mb * b.radius**2 / 2,
                    inertia[2],
                    "kg·m²",
                    0.01,
                    kind="plumbing",
                )
            )
            m, _ = w.mass_properties("K")
            rows.append(
                rel_row(
                    "pieces",
                    f"{set_name} king mass (with crown)",
                    "ρ × volume of the king mesh",
                    src,
                    eq.mass("king"),
                    m,
                    "kg",
                    0.01,
                    kind="plumbing",
                )
            )
    return rows
