"""The ninth round's cuts of a match's Python are bit-identical to what they replaced (issue #16;
docs/speed.md "Ninth round: a match's Python")."""

from __future__ import annotations

from kubb3d.bench import _throws, snapshot_digest
from kubb3d.physics.forces import Forces
from kubb3d.physics.world import World
from kubb3d.throw import FlickParams, ThrowParams, aim, aim_flick, flick, throw


class _WatchFromParts:
    """The thrown piece's watch as it was before Forces.contact_watch: Forces.touching_now, then
    one com_velocity and com_pose read for apply_drag (until the piece first drops below
    ``drag_until``) and apply_plowing (while its ground contacts carry a force)."""

    made = 0

    def __init__(self, forces: Forces, piece: str, drag_until: float) -> None:
        _WatchFromParts.made += 1
        engine = forces.engine
        self.touched: set[str] = set()
        self.first = None
        self.drag = engine.air_drag and forces.has_drag(piece)
        self.plow = engine.ground.plowing > 0
        self.active = self.drag or self.plow

        def hook() -> None:
            normal, others = forces.touching_now(piece)
            for other, pos in others:
                if self.first is None:
                    self.first = (other, engine.time, pos)
                self.touched.add(other)
            plow = self.plow and normal > 0.0
            if not (self.drag or plow):
                return
            v, spin = engine.com_velocity(piece)
            com, q = engine.com_pose(piece)
            if self.drag:
                vx, vy, vz = v
                if vx * vx + vy * vy + vz * vz < drag_until**2:
                    self.drag = False
                    self.active = self.plow
                else:
                    forces.apply_drag(piece, (com, q, v))
            if plow:
                forces.apply_plowing(piece, normal, (com, q, v, spin))

        self.hook = hook


def _outcome(r) -> tuple:
    first = None if r.first_contact is None else (r.first_contact.piece, r.first_contact.time.hex())
    return r.toppled, r.touched, first, snapshot_digest(r.final), r.rest_time.hex(), r.at_rest


def _thrown(make) -> list[tuple]:
    out = []
    for run in make:
        out.append(_outcome(run()))
    return out


def _runs():
    """Throws whose watch matters: 10 bench throws at the baseline kubbs (drag after the first
    contact, plowing on grass, kubbs struck), one on hard ground (``plane``: no plowing),
    one without air drag (the watch only watches), and two Kubbuteo flicks (a sliding piece: the
    watch from the release, no drag, the board)."""
    runs = []
    for params, _ in _throws(10, seed=3):

        def run(params=params):
            with World.standard() as w:
                return throw(w, params)

        runs.append(run)
    params = _throws(1, seed=4)[0][0]

    def hard():
        with World.standard(ground="plane") as w:
            return throw(w, params)

    def still_air():
        with World.standard(air_drag=False) as w:
            return throw(w, params)

    runs += [hard, still_air]
    for target in ("B2", "B4"):

        def flicked(target=target):
            with World.standard("kubbuteo") as w:
                a = w.pitch.baseline_kubb_positions("A")
                gap = (a["A2"][1] + a["A3"][1]) / 2
                return flick(w, "baton1", aim_flick(w, target, FlickParams(side="A", lateral=gap)))

        runs.append(flicked)
    return runs


def test_the_thrown_pieces_watch_in_one_call_gives_the_same_bits_as_its_parts(monkeypatch):
    runs = _runs()
    fused = _thrown(runs)
    monkeypatch.setattr(
        Forces, "contact_watch", lambda self, piece_id, *, drag_until: _WatchFromParts(self, piece_id, drag_until)
    )
    made = _WatchFromParts.made
    parts = _thrown(runs)
    assert _WatchFromParts.made == made + len(runs)
    assert fused == parts
    # not trivial: kubbs felled, pieces touched, first contacts with kubbs and the ground
    assert sum(len(o[0]) for o in fused) >= 5
    assert any(o[2] is not None and o[2][0] != "ground" for o in fused)
    assert len({o[3] for o in fused}) == len(fused)


def test_a_kubb_that_falls_onto_a_lying_baton_gives_the_same_bits_with_either_watch(monkeypatch):
    # a baton lying on the field is not the thrown piece: Forces.resist_rolling reads it itself
    # whenever it moved at the last check, while the thrown baton's reads come from the watch
    def run():
        with World.standard() as w:
            w.add_piece("baton2", "baton", (5.0, 0.25, 0.03), (0.0, 0.7071068, 0.0, 0.7071068))
            w.add_piece("baton3", "baton", (4.75, -1.0, 0.03), (0.7071068, 0.0, 0.0, 0.7071068))
            r = throw(w, aim(w, "B3", ThrowParams(spin_rps=1.5)).params)
            return r, w.steps

    fused, steps = run()
    monkeypatch.setattr(
        Forces, "contact_watch", lambda self, piece_id, *, drag_until: _WatchFromParts(self, piece_id, drag_until)
    )
    parts, steps_parts = run()
    assert _outcome(fused) == _outcome(parts)
    assert steps == steps_parts
    moved = {pid for pid in ("baton2", "baton3") if pid in fused.touched}
    assert "B3" in fused.toppled and moved
