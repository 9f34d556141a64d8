"""Write or check digests of seeded club-vs-club matches (``tests/data/match_digests.json``).

A speed change that keeps results bit-identical must leave every seeded match as it was. Per
match this records a SHA-256 digest of every snapshot the match took (its time, the engine's
step count, every piece's position, quaternion, velocities and history and every contact's
points, normal, force and distance, all as exact hexadecimal floats), so that a change in the
last bit of any judged state shows, and how the match ended (the ending, the winner, the
turns). Not the replay file itself: its wording and fields change with the messages and the
replay format, not with the physics (``--replays`` prints their digests, to compare two codes
side by side). ``tests/test_match_digests.py`` compares the current code with the stored file,
which was written by the code before the thirteenth round of issue #32 (docs/speed.md) and
again after the plowing came to act also where the ground touches (docs/physics.md "Plowing").

Usage::

    .venv/bin/python benchmarks/match_digests.py           # compare; exit 1 on a difference
    .venv/bin/python benchmarks/match_digests.py --write   # after a deliberate physics change
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "tests" / "data" / "match_digests.json"

MATCHES = (("dm", 1), ("dm", 2), ("dm", 3), ("kubbuteo", 3))
"""(ruleset, seed) of the matches recorded: three DM matches (6 to 13 turns) and a short
Kubbuteo match (its flicks slide at the long step)."""


def _hex(values) -> bytes:
    return ",".join(float(v).hex() for v in values).encode()


def snapshot_bytes(snapshot, steps: int) -> bytes:
    """The exact bytes of a snapshot that the digest hashes (see the module doc)."""
    parts = [float(snapshot.time).hex().encode(), str(steps).encode()]
    for pid, p in snapshot.pieces.items():
        parts += [pid.encode(), _hex((*p.position, *p.quat_xyzw, *p.linear_velocity, *p.angular_velocity))]
        parts.append(_hex((p.max_tilt, *(p.max_lean or ()))))
    for c in snapshot.contacts:
        values = (*c.position_on_a, *c.position_on_b, *c.normal_on_b, c.normal_force, c.distance)
        parts += [f"{c.a}|{c.b}".encode(), _hex(values)]
    return b";".join(parts)


def match_digest(ruleset: str, seed: int, *, replay: bool = False) -> dict:
    """{"snapshots": digest of every snapshot taken, "count": how many, "turns": the match's
    turns, "ending": the termination's name, "winner": its winner} of one club-vs-club match
    played in this process; with ``replay``, "replay" too: the digest of its replay file."""
    import kubb3d.physics.world as world_module
    from kubb3d.match import Match, MatchConfig

    states = hashlib.sha256()
    count = 0
    original = world_module.export_snapshot

    def recorded(engine, window, contacts=True):
        nonlocal count
        snapshot = original(engine, window, contacts)
        states.update(snapshot_bytes(snapshot, engine.tick))
        count += 1
        return snapshot

    world_module.export_snapshot = recorded
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "replay.jsonl"
            match = Match(MatchConfig(ruleset=ruleset, skills=("club", "club"), seed=seed), replay=path)
            outcome = match.run()
            match.close()
            replay_digest = hashlib.sha256(path.read_bytes()).hexdigest()
    finally:
        world_module.export_snapshot = original
    row = {
        "snapshots": states.hexdigest(),
        "count": count,
        "turns": match.state.total_turns,
        "ending": None if outcome is None else outcome.termination.name,
        "winner": None if outcome is None else str(outcome.winner),
    }
    if replay:
        row["replay"] = replay_digest
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="store the digests instead of comparing")
    ap.add_argument("--replays", action="store_true", help="print each match's digests and its replay's, and stop")
    a = ap.parse_args()
    if a.replays:
        for ruleset, seed in MATCHES:
            print(ruleset, seed, json.dumps(match_digest(ruleset, seed, replay=True), sort_keys=True))
        return 0
    rows = {f"{ruleset} {seed}": match_digest(ruleset, seed) for ruleset, seed in MATCHES}
    if a.write:
        PATH.write_text(json.dumps(rows, indent=1) + "\n")
        print(f"wrote {len(rows)} match digests to {PATH.name}")
        return 0
    stored = json.loads(PATH.read_text())
    same = [key for key, row in rows.items() if stored.get(key) == row]
    print(f"{len(same)} of {len(rows)} matches identical to the stored digests")
    return 0 if len(same) == len(rows) == len(stored) else 1


if __name__ == "__main__":
    sys.exit(main())
