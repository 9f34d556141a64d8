"""Same throw, two separate processes: bit-identical final poses."""

import subprocess
import sys

SCRIPT = """
from kubb3d.physics.world import World
from kubb3d.throw import ThrowParams, aim, throw
with World.standard() as w:
    r = throw(w, aim(w, "B2", ThrowParams(spin_rps=2.0, tilt_deg=10.0)).params)
    for pid, p in sorted(r.final.pieces.items()):
        print(pid, [x.hex() for x in p.position], [x.hex() for x in p.quat_xyzw])
    print(r.rest_time.hex(), r.touched)
# a second world in the same process (a reused PyBullet client) must not change anything
with World.standard() as w:
    r2 = throw(w, aim(w, "B2", ThrowParams(spin_rps=2.0, tilt_deg=10.0)).params)
    assert all(r2.final[p].position == r.final[p].position for p in r.final.pieces), "client reuse changed the result"
"""


def _run():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_same_throw_in_two_processes_is_bit_identical():
    a, b = _run(), _run()
    assert "B2" in a
    assert a == b
