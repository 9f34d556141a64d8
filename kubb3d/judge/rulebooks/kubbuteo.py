"""``KT``: Kubbuteo, the tabletop version (rule book KT): Kubb's rules at table scale, every ruling
cited from KT "Rules"; disks are flicked, not thrown as batons."""

from dataclasses import replace

from kubb3d.equipment import INCH, get_set
from kubb3d.judge import citations as C
from kubb3d.judge.params import DEFAULT_PARAMS, REFERENCE_KUBB_HEIGHT
from kubb3d.judge.rulebook import JudgeCitations, Rulebook, register_rulebook

_KT = (C.KT_RULES,)

KUBBUTEO = register_rulebook(
    Rulebook(
        name="kubbuteo",
        title="Kubbuteo",
        summary="tabletop flicking, rule book KT",
        seed="KT",
        cites=JudgeCitations(
            felled=_KT,
            leaning=_KT,
            stossel=_KT,
            turned_over=_KT,
            foul=_KT,
            accident=_KT,
            standing_outside=_KT,
            own_half=_KT,
            game_end=_KT,
            king_throw_won=_KT,
            king_throw_invalid=_KT,
            inkast_disturbed=_KT,
            raising=_KT,
            inkast_invalid=_KT,
            penalty_kubb=_KT,
            warning=_KT,
        ),
        events={
            **{
                key: C.KT_RULES
                for key in (
                    "sets", "schedule", "throw", "early_baseline", "inkast", "penalty", "penalty_place",
                    "raise", "stossel", "place", "advance", "king", "early_king",
                )
            },
            # the KT text is silent on who starts and on time: kubb3d's decisions (docs/rules.md)
            "lag": C.KUBB3D_KT_LAG,
            **{key: C.KUBB3D_KT_TIME for key in ("time", "tiebreak", "tiebreak_decider")},
        },
        cite_violations=False,
        glitch=C.KT_RULES,
        throw_rules=None,
        # every length scaled by kubb height / 15 cm (a 1.25 in disk: × 0.21, so a doubt margin
        # of 0.8 mm on a disk 7.6 mm thick); a placed kubb at least 2 in from the king (KT
        # rules). The tip margin is 0.01 mm, not the scaled 0.2 mm: 0.2 mm is 0.8° of tilt
        # sideways, 1° towards a corner of the flat, and the physics' tipping angle is known to
        # 0.2° in every direction (docs/physics.md "Tipping a Kubbuteo kubb")
        params=replace(
            DEFAULT_PARAMS.scaled(get_set("kubbuteo").kubb.height / REFERENCE_KUBB_HEIGHT),
            baton_length=2.0 * INCH,
            tip_margin=1e-5,
        ),
        penalty="place",
        returns_by_flick=True,
        # KT "Rules": "Knocking over the King from anywhere but the baseline will result in
        # losing the game", also after every kubb is down
        king_off_baseline="lost",
        # KT rules: after each flick remove "any knocked over kubbs": a disk standing on its flat
        # at rest after the flick is not one, unless it turned over (past 90°) on the way, DM's
        # reading of „Überschlag“ that KT shares (kubb3d.judge.status.turned_over; docs/rules.md
        # "KT ← DM §5 knocked over"). A rock past its tipping angle and back counts for no book.
        # KT "Rules": baseline kubbs knocked while field kubbs stand "are simply stood up again":
        # at once, after the flick, so they are targets again once no field kubb stands
        # (docs/examinations/2026-12-07-kubbuteo-play.md, finding 1)
        stand_again_now=True,
    )
)
