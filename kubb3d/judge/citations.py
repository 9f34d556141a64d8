"""Rule citations, one place for every string the judge cites (the short names and sections
of the rule documents, docs/sources.md)."""

DM_AIM = "DM §1"
"""Aim of the game; the king felled early loses the game."""
DM_THROWING = "DM §5"
"""Throwing at kubbs: leaning kubbs, the hand check, standing again, early baseline kubbs,
fouls, accidents."""
DM_INKAST = "DM §6"
"""Inkasting: one rethrow, then penalty kubbs thrown by the opponent."""
DM_RAISING = "DM §7"
"""Raising: tipping over a short edge, validity, block building, leaning kubbs, stößel, the king."""
DM_KING_THROW = "DM §10"
"""The king throw from the baseline."""
WS_FROM_LINE = "WS basic rule 6"
"""Throws are made from the baseline (or the front line): not from beyond the sidelines."""
WS_FOOT = "WS basic rule 7"
WS_ORDER = "WS basic rule 8"
WS_LEANING = "WS basic rule 9"
WS_INKAST = "WS basic rule 10"
WS_REPEAT = "WS basic rule 11"
WS_RAISE_AFTER = "WS basic rule 12"
WS_LINE = "WS basic rule 13"
WS_DISTURBED = "WS basic rule 14"
WS_END = "WS End of the Game"
WS_NOTES = "WS Tie-Break After the Group Stage"
"""The notes under that heading: a kubb knocked over with the foot is set up again; the king
not thrown at from the baseline is set up again."""

KT_RULES = "KT rules"
"""Kubbuteo (rule book KT, section "Rules"): every ruling at table scale cites it."""

KUBB3D = "kubb3d decision"
"""Prefix of kubb3d's own documented decisions where the rule books are silent (see docs/rules.md):
``kubb3d decision: <name>``."""
KUBB3D_OUTSIDE = "kubb3d decision: standing outside"
"""A kubb pushed across a sideline by a throw that still stands (a field kubb also across the baseline
behind its half) is set back just inside."""
KUBB3D_KT_LAG = "kubb3d decision: Kubbuteo lag"
"""KT does not say who flicks first: a lag flick at the king decides, as the lag throw of DM §3."""
KUBB3D_KT_TIME = "kubb3d decision: Kubbuteo time limit"
"""KT has no time limit or tie-break: a limit set by option ends the match by DM §9's tie-break."""
KUBB3D_OWN_HALF = "kubb3d decision: own half"
"""A kubb of the thrower's own half moved by his throw is stood up again where it stood."""
KUBB3D_PENALTY_CAP = "kubb3d decision: penalty cap"
"""DM §6 alternates penalty throws "until the kubb lands validly" („Bis der Kubb gültig im Feld
landet“), without a limit: kubb3d has the receiving side place the kubb by hand after
:data:`kubb3d.rules.core.PENALTY_ALTERNATION_CAP` failed penalty throws (as WS basic rule 11)."""

def known_citations() -> frozenset[str]:
    """Every citation string the judge and the rules engine may give: the constants of this
    module, the other section and rule names of the rule books (DM §1–§11, WS basic rules 1–14 and
    its headings, KT rules), and every ``kubb3d decision: …``."""
    out = {v for k, v in globals().items() if k.isupper() and isinstance(v, str) and k != "KUBB3D"}
    out |= {f"DM §{n}" for n in range(1, 12)}
    out |= {f"WS basic rule {n}" for n in range(1, 15)}
    out |= {
        "WS The Playing Field",
        "WS Sequence of Play",
        "WS Start of Play",
        "WS End of the Game",
        "WS Tie-Break After the Group Stage",
        "KT rules",
        "KT Setup",
        "KT Equipment",
    }
    return frozenset(out)


OPTION = "option"
"""Prefix of a referee option set to another value than the rule book's default:
``option opening=4-6-6`` (:func:`kubb3d.judge.options.option_cite`)."""


def is_known(citation: str) -> bool:
    """True for a citation of :func:`known_citations`, a ``kubb3d decision: …`` or a referee
    option at another value than its default (``option NAME=VALUE``)."""
    if citation.startswith(OPTION + " "):
        from kubb3d.judge.options import BY_NAME

        return citation[len(OPTION) + 1:].partition("=")[0] in BY_NAME
    return citation in known_citations() or citation.startswith(KUBB3D + ":")
