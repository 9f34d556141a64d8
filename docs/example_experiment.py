"""kubb3d from a script: one throw by hand, then a small experiment.

Run it from the repository root::

    python docs/example_experiment.py [OUT_DIR]

It writes OUT_DIR/example.sqlite (the results), example.csv and example-hit.png
(OUT_DIR defaults to a temporary folder) and prints what it found.
"""

import sys
import tempfile
from pathlib import Path

import numpy as np

import kubb3d
from kubb3d.experiment import read_rows, run, validate
from kubb3d.experiment.export import export
from kubb3d.experiment.plot import plot
from kubb3d.experiment.stats import wilson
from kubb3d.throw import throw  # `kubb3d.throw` is also the submodule's name: import the function


def one_throw() -> None:
    """Build the standard pitch, aim a baton at B3 and read what happened."""
    with kubb3d.World.standard("standard", kubb3d.Pitch(8.0, 5.0), "grass") as world:
        params = kubb3d.aim(world, "B3", kubb3d.ThrowParams(elevation_deg=25.0, spin_rps=1.5)).params
        result = throw(world, params)
        print(
            f"aimed throw at B3: {params.speed:.2f} m/s, first contact {result.first_contact.piece}, toppled "
            f"{result.toppled}"
        )


def hand_made_batch(n: int = 20) -> None:
    """The same, twenty times with release noise: every draw from its own child seed."""
    hits = 0
    for seq in np.random.SeedSequence(2024).spawn(n):
        rng = np.random.default_rng(seq)
        with kubb3d.World.standard() as world:
            params = kubb3d.ThrowParams(
                lateral=-0.8333,
                speed=10.6,
                elevation_deg=22.0,
                azimuth_deg=rng.normal(0.0, 1.0),
                tilt_deg=rng.normal(0.0, 5.0),
            )
            hits += "B2" in throw(world, params).toppled
    lo, hi = wilson(hits, n)
    print(f"by hand: B2 felled {hits}/{n} times (95 % interval {lo:.2f}-{hi:.2f})")


SPEC = {
    "schema": 1,
    "title": "Example: hit rate against elevation",
    "seed": 1,
    "trials_per_point": 4,
    "measures": ["hit", "first_contact"],
    "throw": {"target": "B2", "aim": True, "skill": "club", "elevation_deg": {"grid": [15.0, 25.0, 35.0]}},
}


def experiment(out_dir: Path) -> None:
    """A spec (here a dict; usually a TOML file) run on two worker processes, then read back,
    exported and plotted."""
    loaded = validate(SPEC)
    report = run(loaded, out_dir / "example.sqlite", workers=2, progress=False)
    rows = read_rows(out_dir / "example.sqlite")
    print(f"experiment: {report.ran} trials in {report.seconds:.1f} s, {len(rows)} rows stored")
    for elev in (15.0, 25.0, 35.0):
        sel = [r for r in rows if r["ok"] and r["elevation_deg"] == elev]
        k = sum(r["hit"] for r in sel)
        print(f"  elevation {elev:4.0f}°: hit {k}/{len(sel)}")
    export(out_dir / "example.sqlite", "csv")
    plot(rows, out_dir / "example-hit.png", x="elevation", measure="hit", title=SPEC["title"])
    print(f"wrote {out_dir / 'example.csv'} and {out_dir / 'example-hit.png'}")


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="kubb3d-example-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    one_throw()
    hand_made_batch()
    experiment(out_dir)


if __name__ == "__main__":  # needed: worker processes re-import this file
    main()
