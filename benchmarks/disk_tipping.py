"""Critical tilt of a Kubbuteo kubb in the physics, by direction: a single disk kubb released
at rest on the board, tilted by an angle towards a direction, bisection on the angle between
"falls back onto its flat" and "tips on" (:func:`kubb3d.validate.measured_disk_tipping`;
docs/physics.md "Tipping a Kubbuteo kubb").

Directions are in the disk's own frame: 0° sideways (towards its +x face), 90° in its own
plane (rolling along its rim towards +y), 180° and 270° the other ways, anything between mixed.
Each line gives the measured angle (the middle of the last bracket), the bracket, and the
analytic angle of :meth:`kubb3d.equipment.DiskPiece.tipping_angle_towards` (the vertical through
the centre of mass leaves the flat shrunk by the 1 mm edge rounding).

Usage::

    .venv/bin/python benchmarks/disk_tipping.py [--dt 960,1920] [--directions 0,30,45,60,90,180,225,270]
        [--resolution 0.1] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

from kubb3d.equipment import kubbuteo_disk
from kubb3d.validate import measured_disk_tipping


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dt", default="960,1920", help="steps per second, comma separated")
    ap.add_argument("--directions", default="0,30,45,60,75,90,180,225,270", help="degrees, comma separated")
    ap.add_argument("--resolution", type=float, default=0.1, help="bracket width, degrees")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    disk = kubbuteo_disk()
    rows = []
    for rate in (int(v) for v in a.dt.split(",")):
        for d in (float(v) for v in a.directions.split(",")):
            t = time.perf_counter()
            lo, hi = (
                math.degrees(v) for v in measured_disk_tipping(math.radians(d), 1.0 / rate, math.radians(a.resolution))
            )
            row = {
                "dt": f"1/{rate}",
                "direction_deg": d,
                "measured_deg": (lo + hi) / 2,
                "bracket_deg": [lo, hi],
                "analytic_deg": math.degrees(disk.tipping_angle_towards(math.radians(d))),
                "wall_s": time.perf_counter() - t,
                "load": os.getloadavg()[0],
            }
            rows.append(row)
            if not a.json:
                print(
                    f"dt {row['dt']} s, direction {d:5.1f}°: tips at {row['measured_deg']:.2f}° "
                    f"({lo:.2f}–{hi:.2f}°), analytic {row['analytic_deg']:.2f}° "
                    f"(wall {row['wall_s']:.1f} s, load {row['load']:.1f})",
                    flush=True,
                )
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
