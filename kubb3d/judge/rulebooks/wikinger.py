"""``WS``: the Wikinger-Schach tournament rules for teams (rule book WS)."""

from kubb3d.judge import citations as C
from kubb3d.judge.rulebook import JudgeCitations, Rulebook, ThrowRules, register_rulebook

WIKINGER = register_rulebook(
    Rulebook(
        name="wikinger",
        title="Wikinger-Schach",
        summary="Wikinger-Schach teams",
        seed="WS",
        cites=JudgeCitations(
            felled=(C.WS_ORDER,),
            leaning=(C.WS_LEANING,),
            stossel=(C.WS_INKAST, C.DM_RAISING),
            turned_over=(C.WS_ORDER, C.DM_THROWING),
            foul=(C.WS_FOOT,),
            accident=(C.WS_NOTES,),
            standing_outside=(C.WS_LINE, C.KUBB3D_OUTSIDE),
            own_half=(C.WS_DISTURBED, C.KUBB3D_OWN_HALF),
            game_end=(C.WS_END,),
            king_throw_won=(C.WS_END,),
            king_throw_invalid=(C.WS_NOTES,),
            inkast_disturbed=(C.WS_DISTURBED,),
            raising=(C.WS_INKAST, C.WS_LINE),
            inkast_invalid=(C.WS_REPEAT, C.WS_LINE),
            penalty_kubb=(C.WS_REPEAT,),
            warning=(C.DM_THROWING,),  # WS has no warning clause: DM §5's, by analogy
        ),
        events={
            "lag": "WS Sequence of Play",
            "sets": "WS Sequence of Play",
            "schedule": "WS basic rule 2",
            "throw": "WS basic rule 8",
            "early_baseline": "WS basic rule 8",
            "inkast": "WS basic rule 11",
            "penalty": "WS basic rule 11",
            "penalty_place": "WS basic rule 11",
            "place": "WS basic rule 11",
            "raise": "WS basic rule 12",
            "stossel": "WS basic rule 13",
            "advance": "WS basic rule 6",
            "time": "WS End of the Game",
            "king": "WS End of the Game",
            "early_king": "WS End of the Game",
            "tiebreak": "WS End of the Game",
            "tiebreak_decider": "WS End of the Game",
        },
        glitch=C.WS_DISTURBED,
        block_building=False,
        penalty="place",
        on_line="tip in",  # WS basic rule 13
        # WS basic rule 5: no helicopter throws; basic rule 7: the toe behind the line; basic
        # rule 6: "Throws are made from the baseline", so not from beyond the sidelines (no tilt
        # limit; the option max_tilt_deg can set one, cited as basic rule 5)
        throw_rules=ThrowRules(max_tilt_deg=None, tilt_rule="WS basic rule 5", forbid_helicopter=True,
                               helicopter_rule="WS basic rule 5", foot_rule=C.WS_FOOT,
                               side_rule=C.WS_FROM_LINE),
    )
)
