"""Kubbuteo flick choices that keep a player's own king standing (issue #15, seed ``KT``)."""

from __future__ import annotations

import math

from kubb3d.physics.world import World
from kubb3d.players import FLICK_SKILLS, STRATEGIES, Player, _path_clearance, get_skill


def _club() -> Player:
    return Player("P", get_skill("club"), flick=FLICK_SKILLS["club"], strategy=STRATEGIES["default"])


def test_a_flick_behind_the_king_starts_from_the_gap_that_gives_it_a_berth():
    player = _club()
    with World.standard("kubbuteo") as w:
        line = w.pitch.baseline_x("A")
        start_x = line - 0.025
        b3 = tuple(float(v) for v in w.pose("B3")[0][:2])  # straight behind the king
        y0 = player.flick_start(w, "A", line, b3)
        # the nearest gaps (±5 cm) would pass the king 2.5 cm off its centre: the outer gap is taken
        assert abs(y0) > 0.2
        assert _path_clearance((start_x, y0), b3, (0.0, 0.0)) > 0.1
        # a target off to the side keeps its nearest gap: that path already clears the king
        b1 = tuple(float(v) for v in w.pose("B1")[0][:2])
        y1 = player.flick_start(w, "A", line, b1)
        assert abs(y1 - b1[1]) < w.pitch.width / 6
        assert _path_clearance((start_x, y1), b1, (0.0, 0.0)) >= player._king_berth(w, start_x)
        # a throw at the king itself (or a lag flick short of it) is not turned away from it
        assert abs(player.flick_start(w, "A", line, (0.0, 0.0))) < 0.06


def test_returned_kubbs_go_down_a_lane_clear_of_the_king():
    player = _club()
    with World.standard("kubbuteo") as w:
        line = w.pitch.baseline_x("B")
        start_x = line + 0.025
        need = player._king_berth(w, start_x)
        for i in range(10):
            tx, ty = player.return_target(w.pitch, "B", i)
            assert tx < 0 and abs(ty) >= STRATEGIES["default"].return_side_m - 1e-12
            assert abs(ty) < w.pitch.half_width - 0.02
            y0 = player.flick_start(w, "B", line, (tx, ty))
            assert _path_clearance((start_x, y0), (tx, ty), (0.0, 0.0)) >= need


def test_a_flick_from_an_advance_line_does_not_run_into_a_piece_standing_on_that_line():
    # seed 1 of the first version: B2 stood on A's advance line beside the path, every baton
    # flicked from that line knocked it (raised again), and the match ran into the 60-turn cap
    player = _club()
    with World.standard("kubbuteo") as w:
        line = -0.3
        w.set_pose("B2", (line, 0.0746, w.equipment.kubb.height / 2))
        target = tuple(float(v) for v in w.pose("B4")[0][:2])
        y0 = player.flick_start(w, "A", line, target)
        r = w.equipment.baton.radius + w.equipment.kubb.radius
        assert _path_clearance((line - 0.025, y0), target, (line, 0.0746)) > r
        assert math.isfinite(y0) and abs(y0) < w.pitch.half_width
