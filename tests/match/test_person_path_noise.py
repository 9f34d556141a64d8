"""The person's side of ``benchmarks/difficulty.py`` gets the simulated player's own release
error (docs/viewer.md "Measured: the person's side against the computer at the same level"):
``strategy_person`` answers with the simulated strategy's noise-free intention, the match
computes the reference speed from that same intention, so the power factor is 1 and
``person_release`` at ``--difficulty club`` draws the ``club`` preset's five normals from the
action's generator, as :meth:`~kubb3d.players.Skill.perturb` does for a simulated player. For
every kind of throw the two paths give the same release from the same generator, hence the same
error distribution; and a whole match played through the person path is the simulated match."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kubb3d.match import Match, MatchConfig
from kubb3d.match.human import person_release, power_factor, strategy_person
from kubb3d.physics.world import World
from kubb3d.pitch import KING_ID
from kubb3d.throw.aim import aim_point

KINDS = (
    "baton at a field kubb from the baseline",
    "baton at a field kubb from an advance line",
    "baton at a baseline kubb",
    "king throw",
    "inkast",
    "penalty kubb (receiving side)",
    "lag throw",
)
FIELDS = ("speed", "elevation_deg", "azimuth_deg", "spin_rps", "tilt_deg")
PERTURBED = {"speed", "elevation_deg", "azimuth_deg", "spin_rps", "tilt_deg"}


@pytest.fixture(scope="module")
def makers():
    """kind → the simulated player's release maker (rng → (intended, released)), built as the
    match's flows build them (:mod:`kubb3d.match.flow`), for A's club player on a DM pitch."""
    m = Match(MatchConfig(ruleset="dm", skills=("club", "club"), seed=1, difficulty="club"), human=["P1"])
    player, pitch = m.players["P1"], m.pitch
    w = World(m.ruleset.equipment, pitch, m.config.ground)
    w.setup_standard()
    eq, dt = w.equipment, w.quiet_dt
    kz = aim_point(w, "B1")[2]
    bx = pitch.baseline_x("A")
    out = {
        KINDS[0]: lambda r: player.baton_throw(eq, pitch, "A", bx, (1.4, 0.9, kz), r, dt=dt),
        KINDS[1]: lambda r: player.baton_throw(eq, pitch, "A", -1.2, (1.6, -0.6, kz), r, dt=dt),
        KINDS[2]: lambda r: player.baton_throw(eq, pitch, "A", bx, aim_point(w, "B3"), r, dt=dt),
        KINDS[3]: lambda r: player.baton_throw(eq, pitch, "A", bx, aim_point(w, KING_ID), r, dt=dt),
        KINDS[4]: lambda r: player.kubb_throw(eq, pitch, "A", player.inkast_target(pitch, "A", 0), r, dt=dt),
        KINDS[5]: lambda r: player.kubb_throw(eq, pitch, "A", player.penalty_target(pitch, "A", True, 0), r, dt=dt),
        KINDS[6]: lambda r: player.lag_throw(eq, pitch, "A", r, dt=dt),
    }
    yield out
    w.close()
    m.close()


@pytest.mark.parametrize("kind", KINDS)
def test_the_person_path_gives_the_simulated_players_release_error(makers, kind):
    make = makers[kind]
    # strategy_person's answer: the intention, its noisy release (drawn with default_rng(0)) discarded
    intended = make(np.random.default_rng(0))[0]
    # HumanInput's reference: the speed the simulated strategy gives this very throw
    reference = make(np.random.default_rng(0))[0].speed
    assert power_factor(intended.speed, reference) == 1.0
    # the same generator: the same release, bit for bit
    for seed in range(200):
        person = person_release(intended, np.random.default_rng(seed), "club", reference)
        simulated, released = make(np.random.default_rng(seed))
        assert simulated == intended and person == released
    # independent generators: the same error distribution within sampling error
    n = 1500
    person = [person_release(intended, np.random.default_rng([1, i]), "club", reference) for i in range(n)]
    simulated = [make(np.random.default_rng([2, i]))[1] for i in range(n)]
    for f in FIELDS:
        a = np.array([getattr(p, f) for p in person]) - getattr(intended, f)
        b = np.array([getattr(p, f) for p in simulated]) - getattr(intended, f)
        sd_a, sd_b = a.std(ddof=1), b.std(ddof=1)
        assert sd_a > 0 and sd_b > 0, f  # every one of the five is perturbed on both paths
        assert sd_a / sd_b == pytest.approx(1.0, abs=0.12), f  # 2 % SE per SD at n = 1500
        assert abs(a.mean() - b.mean()) < 4 * np.hypot(sd_a, sd_b) / np.sqrt(n), f
    # nothing else is perturbed on either path (release point, height, foot, style)
    for p in (*person[:50], *simulated[:50]):
        for f, v in vars(intended).items():
            if f not in PERTURBED:
                assert getattr(p, f) == v, f


def _throws(seed: int, person: bool) -> tuple[str | None, int, list[str]]:
    cfg = MatchConfig(ruleset="dm", skills=("club", "club"), seed=seed, difficulty="club" if person else "exact")
    m = Match(cfg, human=["P1"]) if person else Match(cfg)
    if person:
        m.human["P1"] = strategy_person(m, "P1")
    records: list[str] = []
    record = m._throw_record

    def keep(res, intended=None):
        d = record(res, intended)
        records.append(json.dumps(d, sort_keys=True))
        return d

    m._throw_record = keep  # type: ignore[method-assign]
    out = m.run()
    m.close()
    assert out is not None
    return out.winner, m.action_index, records


def test_a_dm_match_through_the_person_path_is_the_simulated_match():
    # seed 72 of benchmarks/difficulty.py (22 actions, P2 wins): P1 through strategy_person and
    # person_release throws exactly what a simulated club P1 throws, every throw record alike
    person, simulated = _throws(72, True), _throws(72, False)
    assert person[:2] == simulated[:2] == ("P2", 22)
    assert len(person[2]) == 19 and person[2] == simulated[2]
