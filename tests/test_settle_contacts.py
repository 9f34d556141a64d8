"""The snapshot after :meth:`World.settle_forces` holds the ground contacts of pieces that were put
down by hand and never moved since (a raised kubb, a kubb set up again): found by the referee audit,
WS seed 106 action 120 (docs/physics.md "The contact forces the judge reads")."""

import pybullet as pb

from kubb3d.judge.rulings import Status
from kubb3d.judge.status import analyse
from kubb3d.physics.world import World
from kubb3d.snapshot import GROUND_ID

# the two kubbs of the audit: B2 set up again on its spot after an inkast knocked it over (WS basic
# rule 14), A4 raised against that spot (their bases overlap by 0.47 mm: touching, JudgeParams.block_tol)
B2 = (
    (2.0522865242165853, 1.0672228118510179, 0.074987773798776),
    (-1.1453e-05, 3.7065e-05, 0.364589856742124, 0.9311682097536379),
)
A4 = ((2.142847027658169, 1.0781166432268905, 0.075), (0.0, 0.0, 0.5790685922206896, 0.8152788268460973))


def _settled(pieces) -> World:
    w = World("standard", stakes=True)
    for pid, (pos, q) in pieces.items():
        w.add_piece(pid, "kubb", pos, q, side="B")
    w.sleep_all()
    w.settle_forces()
    return w


def test_a_kubb_put_down_exactly_on_the_ground_has_its_ground_contacts_after_settle_forces():
    # its base exactly on the ground: Bullet makes no contact point at zero distance in the first
    # step after waking, so a single step after waking left it with none
    with _settled({"A4": A4}) as w:
        body = w.engine.body_of("A4")
        assert len(pb.getContactPoints(body, w.engine.ground_body, physicsClientId=w.engine.client)) >= 3
        snap = w.snapshot()
    assert any(GROUND_ID in (c.a, c.b) and "A4" in (c.a, c.b) for c in snap.contacts)


def test_a_raised_kubb_touching_a_neighbour_is_ruled_standing_not_a_stossel():
    with _settled({"B2": B2, "A4": A4}) as w:
        snap = w.snapshot()
    for pid in ("A4", "B2"):
        a = analyse(snap, pid)
        assert a.status is Status.STANDING, (pid, a.reason)
        assert a.grounded
