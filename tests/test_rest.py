"""Rest always comes (issue 29): a world whose pieces have stopped moving is declared at rest
within the settle window, and never while a piece is fast.

The throws below reached the 15 s time limit before the fix: a baton came down leaning on a kubb
with one end on the grass, and the rolling resistance about its own axis (applied by kubb3d before
each step) and the contacts' answer to it took turns, rolling it along the kubb at 4.5 mm/s; on
terrain a kubb stood still on a crest, balanced on an edge for the rest test, and a king rocked
by 0.02 mm at a speed just over the rest speed (docs/physics.md "A baton that never came to
rest")."""

import math

from pathlib import Path

import numpy as np
import pytest

from kubb3d.calibrate import baton_trial
from kubb3d.physics.engine import REST_SPEED
from kubb3d.physics.poses import long_axis
from kubb3d.physics.rest import HELD_S, SAMPLE_INTERVAL, Rest
from kubb3d.physics.world import DT, SETTLE_S, World
from kubb3d.pitch import PITCHES
from kubb3d.throw import simulation
from kubb3d.validate import FAST_AT_REST

# the throws that never came to rest at 1/960 s (skill, set, seed, throw, of n, terrain cm): seed 7,
# 1,000 elite and 500 club throws at 8 m, dm-small, grass (the validation's 300 throws include
# elite 240); seed 29, novice, standard set, 1 cm terrain: a kubb standing still on a crest
# (throw 19), the king rocking by 0.02 mm (throw 38) and a kubb balanced on an edge creeping at
# 0.1 mm/s (throw 89, with the first rule for a held world, which asked a balanced block to stay
# within 0.01 mm); seed 29, club throw 145, a baton rolling in a turn cycle (below)
NEVER_AT_REST = [
    ("elite", "dm-small", 7, 240, 1000, 0.0),
    ("elite", "dm-small", 7, 742, 1000, 0.0),
    ("elite", "dm-small", 7, 803, 1000, 0.0),
    ("club", "dm-small", 7, 395, 500, 0.0),
    ("novice", "standard", 29, 19, 60, 1.0),
    ("novice", "standard", 29, 38, 60, 1.0),
    ("novice", "standard", 29, 89, 209, 1.0),
    # seed 29, club, 209 throws (benchmarks/rest_always.py): the baton across B1 lying, one end on
    # the grass, rolled along it at 1 mm/s in a cycle of three steps, the resistance withheld in two
    ("club", "dm-small", 29, 145, 209, 0.0),
]


def _corner_speeds(samples):
    """For each consecutive pair of (time, {piece: corners (8, 3)}): the fastest corner's mean
    speed between them, m/s (measured from the poses, not from the engine's velocities)."""
    out = []
    for (t0, a), (t1, b) in zip(samples, samples[1:]):
        fastest = max(float(np.linalg.norm(b[k] - a[k], axis=1).max()) for k in a if k in b)
        out.append((t1, fastest / (t1 - t0)))
    return out


def _still_from(speeds) -> float | None:
    """The time from which every later corner speed is below REST_SPEED (None: never)."""
    still = None
    for t, v in speeds:
        if v >= REST_SPEED:
            still = None
        elif still is None:
            still = t
    return still


@pytest.mark.parametrize("skill,set_name,seed,trial,n,terrain_cm", NEVER_AT_REST)
def test_a_throw_is_at_rest_soon_after_every_piece_stopped(monkeypatch, skill, set_name, seed, trial, n, terrain_cm):
    samples = []
    sample = Rest.sample

    def recording(self):
        poses = sample(self)
        engine = self._engine
        corners = {pid: self.box_corners(engine.pieces[pid], com, quat) for pid, (com, quat) in poses.items()}
        samples.append((engine.time, corners))
        return poses

    monkeypatch.setattr(Rest, "sample", recording)
    run_init = simulation._Run.__init__

    def at_release(self, *args):
        samples.clear()  # on terrain the set-up's settle samples too: keep the throw's, from its release
        run_init(self, *args)

    monkeypatch.setattr(simulation._Run, "__init__", at_release)
    r = baton_trial((trial, n, seed, DT, skill, set_name, "grass", 8.0, terrain_cm))
    assert r["at_rest"], f"{skill} throw {trial} reached the time limit"
    assert r["fastest"] < FAST_AT_REST
    # the samples of the throw up to its rest (the first is taken at the release)
    release = samples[0][0]
    rest = release + r["rest_time"]
    speeds = _corner_speeds([s for s in samples if s[0] <= rest + 1e-9])
    still = _still_from(speeds)
    assert still is not None
    # declared at rest at most the held window (and the samples around it) after every corner of
    # every piece went below the rest speed: the settle window if the velocities and the balance
    # test agree, else once nothing has moved 2 mm in 2 s (Rest.iter_until_rest; club 395's
    # baton, steep against a kubb, jitters above 0.1 rad/s for 1.1 s after it stopped)
    assert rest <= still + HELD_S + 3 * SAMPLE_INTERVAL


B1_LYING = ((4.10709, -1.68696, 0.029986), (0.093428, 0.700927, -0.093426, 0.700889))
BATON_LEANING = ((4.3129, -1.6943, 0.05039), (0.75414, -0.20789, 0.60580, -0.14509))


@pytest.mark.parametrize("spin", [0.0, 0.6])
@pytest.mark.parametrize("halve", [1, 2])
def test_a_baton_leaning_on_a_lying_kubb_stops_at_once(spin, halve):
    # the pose of elite throw 240 at 2 s: the baton's far end on the grass, its near end against
    # B1 lying on its side, axis 13° down. Before the fix it rolled along B1 until it fell off
    # (12.9 s, 7 cm at 1/960 s) or for ever (1/1920 s); let go still or rolling slowly about its
    # axis it must be at rest after one settle window (and a few samples), having hardly moved
    with World.standard("dm-small", PITCHES["dm"], "grass", dt=DT / halve) as w:
        w.set_pose("B1", *B1_LYING)
        w.add_piece("baton1", "baton", *BATON_LEANING, sleeping=False)
        axis = long_axis(BATON_LEANING[1])
        w.set_pose("baton1", *BATON_LEANING, angular_velocity=tuple(spin * a for a in axis))
        start = np.array(w.com_pose("baton1")[0])
        stats = w.run_until_rest(15.0)
        moved = float(np.linalg.norm(np.array(w.com_pose("baton1")[0]) - start))
    assert stats.at_rest
    assert stats.time <= SETTLE_S + 3 * SAMPLE_INTERVAL
    # rolling from 0.6 rad/s it could roll r·ω²/(2 α) at most; it is held within a millimetre
    assert moved < 0.001


def test_the_relation_sees_a_throw_that_creeps():
    # the relation above fails on motion: corner speeds above the rest speed until the end
    # give no still time, and one slow stretch followed by motion restarts it
    assert _still_from([(0.1, 0.0), (0.2, 0.02)]) is None
    assert _still_from([(0.1, 0.0), (0.2, 0.02), (0.3, 0.001)]) == 0.3
    a = {"p": np.zeros((8, 3))}
    b = {"p": np.full((8, 3), 0.001)}
    assert _corner_speeds([(0.0, a), (0.1, b)])[0][1] == pytest.approx(math.sqrt(3) * 0.01)


def test_a_held_window_without_its_quarter_marks_is_held_again():
    """The held window on terrain checks that a balanced block does not move ever faster, from
    the poses at each quarter of the window (kubb3d/physics/rest.py `_tipping`). When a sample
    came more than a quarter window after the last, no quarter mark was taken and the check
    raised "expected 3, got 2" (seen once in 400 terrain throws of a trial physics): with fewer
    than three marks nothing tells, and the window is held again rather than rest declared."""
    from kubb3d.physics.world import Terrain, World

    with World.standard(terrain=Terrain(0.01, seed=3)) as world:
        start, end = world.rest.sample(), world.rest.sample()
        assert world.rest._tipping([start, end], {"king"}) is True
        assert world.rest._tipping([start, start, end], {"king"}) is False  # three still marks: not tipping


def test_club_145_rests_where_its_turn_cycle_began():
    # the throw that rolled on in a turn cycle of the rolling resistance (docs/physics.md "A baton
    # that never came to rest"): with the resistance withheld only at the first turn back it is at
    # rest within about 2 s, where the cycle began, and the page quotes these figures
    r = baton_trial((145, 209, 29, DT, "club", "dm-small", "grass", 8.0))
    assert r["at_rest"] and r["felled"] == 1 and r["touched"] == ["B1"]
    where = ", ".join(f"{v:.3f}".replace("-", "−") for v in r["baton_rest"])
    physics = " ".join((Path(__file__).parents[1] / "docs" / "physics.md").read_text(encoding="utf-8").split())
    assert f"The throw is at rest after {r['rest_time']:.2f} s, the baton at ({where}) m" in physics
