"""``DM``: the German championship rules for the duel (rule book DM, sections 1–11)."""

from kubb3d.judge import citations as C
from kubb3d.judge.rulebook import JudgeCitations, Rulebook, ThrowRules, register_rulebook

DM = register_rulebook(
    Rulebook(
        name="dm",
        title="DM",
        summary="German championship duel",
        seed="DM",
        cites=JudgeCitations(
            felled=(C.DM_THROWING,),
            leaning=(C.DM_THROWING,),
            stossel=(C.DM_RAISING,),
            turned_over=(C.DM_THROWING,),
            foul=(C.DM_THROWING,),
            accident=(C.DM_THROWING,),
            standing_outside=(C.DM_THROWING, C.KUBB3D_OUTSIDE),
            own_half=(C.DM_THROWING, C.KUBB3D_OWN_HALF),
            game_end=(C.DM_AIM,),
            king_throw_won=(C.DM_KING_THROW, C.DM_AIM),
            king_throw_invalid=(C.DM_KING_THROW,),
            inkast_disturbed=(C.DM_THROWING,),
            raising=(C.DM_RAISING,),
            inkast_invalid=(C.DM_INKAST, C.DM_RAISING),
            penalty_kubb=(C.DM_INKAST,),
            warning=(C.DM_THROWING,),
        ),
        events={
            "lag": "DM §3",
            "sets": "DM §3",
            "schedule": "DM §4",
            "throw": "DM §5",
            "early_baseline": "DM §5",
            "inkast": "DM §6",
            "penalty": "DM §6",
            # DM §6 has no placement: a penalty kubb is placed only after the cap (kubb3d's)
            "penalty_place": C.KUBB3D_PENALTY_CAP,
            "raise": "DM §7",
            "stossel": "DM §7",
            "place": "DM §7",
            "advance": "DM §8",
            "tiebreak": "DM §9",
            "tiebreak_decider": "DM §9",
            "time": "DM §9",
            "king": "DM §10",
            "early_king": "DM §1",
        },
        glitch=C.DM_THROWING,
        block_building=True,
        penalty="throw",
        # DM §5: underhand, at most 30° out of the vertical plane, from behind the line
        throw_rules=ThrowRules(max_tilt_deg=30.0, tilt_rule=C.DM_THROWING, forbid_helicopter=False,
                               foot_rule=C.DM_THROWING),
    )
)
