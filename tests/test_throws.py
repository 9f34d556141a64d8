"""Single throws: aim solver, felling, legality from the simulated flight."""

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubb3d.physics.world import World
from kubb3d.pitch import Pitch
from kubb3d.throw import ThrowParams, aim, release_from_params, throw


@pytest.mark.parametrize("target", ["B1", "B2", "B3", "B4", "B5"])
def test_aimed_8m_throw_fells_the_target(target):
    with World.standard() as w:
        sol = aim(w, target, ThrowParams())
        r = throw(w, sol.params)
    assert r.first_contact is not None and r.first_contact.piece == target
    assert target in r.toppled
    assert r.legal
    assert r.at_rest


def test_release_puts_the_baton_in_the_flight_plane_with_the_asked_spin():
    p = ThrowParams(side="B", speed=9.0, elevation_deg=30.0, azimuth_deg=10.0, spin_rps=2.0)
    rel = release_from_params(p, Pitch())
    assert rel.position == pytest.approx((4.0 + 0.05, 0.0, 0.5))
    vx, vy, vz = rel.velocity
    assert math.hypot(vx, vy, vz) == pytest.approx(9.0)
    assert math.degrees(math.atan2(vz, math.hypot(vx, vy))) == pytest.approx(30.0)
    assert vx < 0  # side B throws towards -x
    assert math.hypot(*rel.angular_velocity) == pytest.approx(2 * math.pi * 2.0)
    # spin axis horizontal and perpendicular to the flight
    assert rel.angular_velocity[2] == pytest.approx(0.0, abs=1e-12)
    assert rel.angular_velocity[0] * vx + rel.angular_velocity[1] * vy == pytest.approx(0.0, abs=1e-9)


def test_40_degree_tilt_is_illegal_under_dm_with_citation():
    # DM §5 technique (applied): „eine Schieflage von mehr als 30 ° ist dagegen verboten“
    with World.standard() as w:
        sol = aim(w, "B3", ThrowParams(tilt_deg=40.0))
        r = throw(w, sol.params, ruleset="dm")
    assert not r.legal
    assert [v.rule for v in r.violations] == ["DM §5"]
    assert math.degrees(r.metrics.max_tilt) == pytest.approx(40.0, abs=1.0)


def test_25_degree_tilt_is_legal_under_dm():
    # DM §5 technique (boundary): „eine Schieflage von mehr als 30 ° ist dagegen verboten“
    with World.standard() as w:
        r = throw(w, aim(w, "B3", ThrowParams(tilt_deg=25.0)).params, ruleset="dm")
    assert r.legal
    assert math.degrees(r.metrics.max_tilt) == pytest.approx(25.0, abs=1.0)


@pytest.mark.parametrize("helicopter_rps", [0.05, 0.1, 0.2, 0.5])
def test_dm_holds_a_horizontal_rotation_to_its_tilt_limit(helicopter_rps):
    # DM §5: „Rückwärts oder vorwärts gerichtete Rotationen sind dabei erlaubt, eine Schieflage von
    # mehr als 30 ° ist dagegen verboten“. A baton turning flat (no end-over-end spin) leaves the
    # flight plane by the angle it has turned, up to 90°: DM needs no helicopter angle of its own,
    # the tilt limit rules a flat turn of more than 30° a foul, whatever helicopter_limit says.
    with World.standard() as w:
        params = aim(w, "B3", ThrowParams(spin_rps=0.0, release_angle_deg=0.0, helicopter_rps=helicopter_rps)).params
        result = throw(w, params, ruleset="dm", helicopter_limit=360.0)
    turn, tilt = math.degrees(result.metrics.helicopter), math.degrees(result.metrics.max_tilt)
    assert tilt == pytest.approx(min(turn, 90.0), abs=0.2)
    assert result.legal is (tilt <= 30.0)
    assert [v.rule for v in result.violations] == ([] if tilt <= 30.0 else ["DM §5"])


def test_helicopter_throw_is_illegal_under_ws():
    # WS basic rule 5 (applied): "no horizontal rotation"
    with World.standard("standard", Pitch(7.5, 5.0)) as w:
        p = aim(w, "B3", ThrowParams(spin_rps=0.0, helicopter_rps=2.0, release_angle_deg=0.0)).params
        r = throw(w, p, ruleset="wikinger")
    assert "WS basic rule 5" in [v.rule for v in r.violations]
    assert math.degrees(r.metrics.helicopter) > 90


def test_end_over_end_throw_is_not_a_helicopter_even_tilted():
    # WS basic rule 5 (boundary): "no horizontal rotation"
    with World.standard("standard", Pitch(7.5, 5.0)) as w:
        r = throw(w, aim(w, "B2", ThrowParams(tilt_deg=30.0, spin_rps=2.5)).params, ruleset="wikinger")
    assert r.metrics.helicopter == pytest.approx(0.0, abs=1e-9)
    assert r.legal


def test_foot_faults_past_the_line_and_outside_the_sidelines():
    # DM §5 stance (applied): „mit beiden Füßen innerhalb der imaginär verlängerten Seitenlinien“
    with World.standard() as w:
        r = throw(w, ThrowParams(behind_line=-0.2, foot_behind_line=-0.05, speed=6.0), ruleset="dm")
        assert [v.rule for v in r.violations] == ["DM §5"]
        assert "front foot is 0.05 m past the throwing line" in r.violations[0].reason
    with World.standard() as w:
        r = throw(w, ThrowParams(lateral=2.7, speed=6.0), ruleset="wikinger")
        assert [v.rule for v in r.violations] == ["WS basic rule 6"]
        assert "sidelines" in r.violations[0].reason


def test_ws_a_throw_from_beyond_the_sideline_is_not_from_the_baseline():
    # WS basic rule 6 throwing position (applied): „Throws are made from the baseline“: a thrower
    # beyond the extended sideline is not on it; the foot over the line breaks basic rule 7 besides
    with World.standard() as w:
        r = throw(w, ThrowParams(lateral=2.7, foot_behind_line=-0.05, speed=6.0), ruleset="wikinger")
        assert [v.rule for v in r.violations] == ["WS basic rule 7", "WS basic rule 6"]
        assert not r.legal
    with World.standard() as w:  # the same stance under DM §5, one clause for both
        r = throw(w, ThrowParams(lateral=2.7, foot_behind_line=-0.05, speed=6.0), ruleset="dm")
        assert [v.rule for v in r.violations] == ["DM §5", "DM §5"]


def test_ws_a_throw_from_the_baseline_near_the_sideline_is_legal():
    # WS basic rule 6 throwing position (boundary): „Throws are made from the baseline“: 0.1 m inside
    # the sideline the thrower stands on the baseline
    with World.standard() as w:
        r = throw(w, ThrowParams(lateral=2.4, speed=6.0), ruleset="wikinger")
        assert r.violations == [] and r.legal


@pytest.mark.parametrize(
    "field, value", [("speed", -1.0), ("speed", float("nan")), ("height", 0.0), ("side", "C"), ("elevation_deg", 95.0)]
)
def test_bad_params_raise_value_error_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field if field != "side" else "side"):
        release_from_params(replace(ThrowParams(), **{field: value}), Pitch())


def test_aim_rejects_unknown_target_listing_the_valid_ones():
    with World.standard() as w:
        for wrong in ("Z9", "b3", "B9"):
            with pytest.raises(ValueError) as raised:
                aim(w, wrong, ThrowParams())
            message = str(raised.value)
            named = message.split("expected one of ")[1].split(", ")
            assert named == w.piece_ids("kubb", "king") and "B3" in named and "king" in named
            assert ("did you mean B3?" in message) == (wrong == "b3")


@pytest.mark.parametrize("elevation", [89.0, 88.0, -30.0])
def test_aim_past_the_release_speeds_says_out_of_reach(elevation):
    # the drag-free guess at 89° is 47.5 m/s: it used to reach the speed check ("speed must be ...")
    with World.standard() as w, pytest.raises(ValueError) as raised:
        aim(w, "B3", ThrowParams(elevation_deg=elevation))
    assert str(raised.value) == f"target out of reach at elevation {elevation:g}° (needs more than 40 m/s)"


def test_json_has_the_documented_fields():
    with World.standard() as w:
        doc = throw(w, aim(w, "B3", ThrowParams()).params).to_json()
    for key in (
        "legal",
        "violations",
        "flight_time_s",
        "first_contact",
        "touched",
        "upright",
        "toppled",
        "rest_time_s",
    ):
        assert key in doc
    assert doc["first_contact"]["piece"] == "B3"
    assert set(doc["first_contact"]) == {"piece", "time_s", "position_m"}
    assert "B3" in doc["toppled"] and "B3" not in doc["upright"]
    assert "king" in doc["upright"]


def test_lobbed_inkast_lands_near_its_target():
    from kubb3d.throw import inkast

    with World.standard() as w:
        r = inkast(w, "N1", (2.0, 0.5), ThrowParams(elevation_deg=60.0, spin_rps=0.0, release_angle_deg=0.0))
    assert r.first_contact.piece == "ground"
    assert r.first_contact.position[0] == pytest.approx(2.0, abs=0.1)
    x, y, _ = r.final["N1"].position
    assert math.hypot(x - 2.0, y - 0.5) < 0.3
    assert r.final["N1"].side == "B"


def test_distance_to_king_counts_the_whole_baton():
    from kubb3d.snapshot import PieceState, Snapshot
    from kubb3d.throw import distance_to_king

    king = PieceState("king", "king", "box", (0.045, 0.045, 0.15), (0.0, 0.0, 0.15))
    # a baton lying along y, its axis 0.30 m from the king's centre in x: surface gap 0.30-0.045-0.022
    lying = (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))  # body z -> world -y
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (0.30, 0.0, 0.022), lying)
    snap = Snapshot(0.0, {"king": king, "baton1": baton})
    assert distance_to_king(snap, "baton1") == pytest.approx(0.30 - 0.045 - 0.022, abs=1e-9)
    # end-on towards the king: the end face counts (DM §3 "Deckelfläche")
    end_on = (0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4))  # body z -> world x
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (0.40, 0.0, 0.022), end_on)
    snap = Snapshot(0.0, {"king": king, "baton1": baton})
    assert distance_to_king(snap, "baton1") == pytest.approx(0.40 - 0.15 - 0.045, abs=1e-4)
    # 5 mm short of the king, end on: a capsule (axis widened by the radius) read 0 here, and a
    # lag baton that never touched the king was recorded at 0.000 m (issue #37 procedure audit)
    baton = PieceState("baton1", "baton", "cylinder", (0.022, 0.022, 0.15), (0.045 + 0.005 + 0.15, 0.0, 0.022), end_on)
    snap = Snapshot(0.0, {"king": king, "baton1": baton})
    assert distance_to_king(snap, "baton1") == pytest.approx(0.005, abs=5e-5)


def test_the_foot_is_judged_not_the_hand():
    # issue #12: a hand in front of the feet is normal; the stance decides (DM §5, WS basic rule 7)
    # DM §5 line (boundary): „Das Überschreiten der Grundlinie bzw. vorverlegten Wurflinie“
    with World.standard() as w:
        r = throw(w, ThrowParams(behind_line=-0.10, speed=6.0), ruleset="dm")  # foot 0.30 m behind
        assert r.violations == [] and r.legal
    with World.standard() as w:
        # the foot crosses the line after the release, as a consequence of the throw (DM §5)
        r = throw(w, ThrowParams(behind_line=-0.10, foot_behind_line=0.10, step_after=0.25, speed=6.0), ruleset="dm")
        assert [v.rule for v in r.violations] == ["DM §5"]
        assert "steps 0.15 m past the throwing line after the release" in r.violations[0].reason
    with World.standard() as w:
        # WS basic rule 7 measures the foot against the frontmost own kubb: the advance line
        r = throw(w, ThrowParams(line_x=-2.0, behind_line=0.0, foot_behind_line=-0.03, speed=6.0), ruleset="wikinger")
        assert [v.rule for v in r.violations] == ["WS basic rule 7"]
    with pytest.raises(ValueError, match="arm's reach"):
        ThrowParams(behind_line=-0.5, foot_behind_line=0.8).validate()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    release_angle=st.floats(0.0, 90.0),
    spin=st.floats(-3.0, 3.0),
    tilt=st.floats(0.0, 40.0),
)
def test_helicopter_measure_does_not_depend_on_the_release_angle(release_angle, spin, tilt):
    # issue #12: the same throw with or without 2 rev/s about the vertical, at any release
    # angle, spin and tilt: without it nothing accumulates, with it the throw is a helicopter
    from kubb3d.pitch import Pitch
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.throw import simulate

    base = ThrowParams(
        speed=6.0, elevation_deg=45.0, height=0.6, release_angle_deg=release_angle, spin_rps=spin, tilt_deg=tilt
    )
    for heli, illegal in ((0.0, False), (2.0, True)):
        p = replace(base, helicopter_rps=heli)
        with World("standard", stakes=False) as w:
            r = simulate(
                w,
                "baton1",
                release_from_params(p, Pitch()),
                params=p,
                rules=get_rulebook("wikinger").throw_rules,
                max_time=1.5,
            )
        assert r.metrics.flight_time is not None and r.metrics.flight_time > 0.5
        if illegal:
            assert math.degrees(r.metrics.helicopter) > 150.0
            assert "WS basic rule 5" in [v.rule for v in r.violations]
        else:
            assert math.degrees(r.metrics.helicopter) < 2.0
            assert r.violations == []


def test_max_tilt_option_sets_the_tilt_limit_of_either_ruleset():
    # referee option max_tilt_deg: a 40° tilted throw is legal under DM without a limit, and a
    # foul under WS with a 30° limit, cited as the option (WS basic rule 5 gives no number)
    with World.standard() as w:
        p = aim(w, "B3", ThrowParams(tilt_deg=40.0)).params
        assert throw(w, p, ruleset="dm", max_tilt_deg=None).legal
    with World.standard("standard", Pitch(7.5, 5.0)) as w:
        p = aim(w, "B3", ThrowParams(tilt_deg=40.0)).params
        r = throw(w, p, ruleset="wikinger", max_tilt_deg=30.0)
    assert [v.rule for v in r.violations] == ["option max_tilt_deg=30"]
    with World.standard() as w, pytest.raises(ValueError, match="max_tilt_deg"):
        throw(w, p, ruleset="dm", max_tilt_deg=120.0)


def test_streamed_frames_are_the_trajectory_and_end_at_the_result():
    """Issue 18 (live throws): ``throw_iter`` yields the throw as it is simulated; reading the
    frames changes nothing (same result bit for bit as ``throw``), every 30 Hz frame is the
    recorded trajectory sample, and the last frame is the result's rest snapshot."""
    import numpy as np

    from kubb3d.throw import throw_iter

    params = ThrowParams(side="A", speed=9.5, elevation_deg=22.0, azimuth_deg=-1.5, spin_rps=1.5)
    with World.standard("standard") as w1, World.standard("standard") as w2:
        plain = throw(w1, params, baton="baton1")
        run = throw_iter(w2, params, baton="baton1")
        frames = []
        while True:
            try:
                frames.append(next(run))
            except StopIteration as stop:
                streamed = stop.value
                break
        poses = [f.poses() for f in frames]  # read like a view does, between the steps
    assert streamed.to_json() == plain.to_json() and streamed.rest_time == plain.rest_time
    for pid, p in plain.final.pieces.items():
        q = streamed.final.pieces[pid]
        assert (p.position, p.quat_xyzw) == (q.position, q.quat_xyzw)
    assert [f.final for f in frames] == [False] * (len(frames) - 1) + [True]
    assert frames[0].time_s == 0.0 and all(b.time_s >= a.time_s for a, b in zip(frames, frames[1:]))
    traj = streamed.trajectory
    assert len(frames) == len(traj.times) + 1
    for i, t in enumerate(traj.times):
        assert frames[i].time_s == t
        for pid, arr in traj.poses.items():
            if pid in poses[i]:
                assert np.array_equal(poses[i][pid], arr[i]), (i, pid)
    assert set(frames[1].samples) == {"baton1"}  # in free flight only the baton can move
    last = poses[-1]
    assert frames[-1].time_s == streamed.rest_time
    for pid, p in streamed.final.pieces.items():
        assert np.array_equal(last[pid], np.array((*p.position, *p.quat_xyzw)))


def test_simulation_options_and_their_keyword_shorthand_are_the_same_throw():
    """Issue 31: ``simulate`` takes a ``SimulationOptions``; its fields by keyword replace the
    object's (the same result bit for bit), and a field it does not have is refused."""
    from kubb3d.judge.rulebook import get_rulebook
    from kubb3d.throw import SimulationOptions, simulate

    params = ThrowParams(speed=9.5, elevation_deg=22.0, tilt_deg=40.0)
    options = SimulationOptions(params=params, rules=get_rulebook("dm").throw_rules, side="A")
    results = []
    cut_short = replace(options, max_time=0.3)
    for args, fields in (((options,), {}), ((), vars(options)), ((cut_short,), {"max_time": 15.0})):
        with World.standard("standard") as w:
            results.append(simulate(w, "baton1", release_from_params(params, w.pitch), *args, **fields))
    assert results[0].to_json() == results[1].to_json() == results[2].to_json()
    assert [v.rule for v in results[0].violations] == ["DM §5"] and results[0].rest_time > 0.3
    with World.standard("standard") as w:
        cut = simulate(w, "baton1", release_from_params(params, w.pitch), options, max_time=0.3)
        assert cut.rest_time <= 0.3 + 1e-6 and not cut.at_rest
        with pytest.raises(TypeError, match="spin"):
            simulate(w, "baton1", release_from_params(params, w.pitch), spin=1.0)
