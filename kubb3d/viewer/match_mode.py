"""Match mode of ``kubb3d play --opponent SKILL``: a whole match against a simulated player.

Seam: the match engine (:mod:`kubb3d.match`) plays whole matches on its own; the viewer
needs it to hand over the person's throws (baton throws and inkasts with the play
controls) and to report each simulated throw as it happens. Until that hook exists,
:func:`match_session` raises :class:`MatchUnavailable`.
"""

from __future__ import annotations


class MatchUnavailable(RuntimeError):
    """Match mode cannot run (the match engine offers no interactive hook yet)."""


def match_session(ruleset: str, opponent: str, equipment: str, seed: int):
    """The session for ``kubb3d play --opponent``.

    Raises:
        MatchUnavailable: see the module doc.
        ValueError: unknown skill.
    """
    from kubb3d.players import get_skill

    get_skill(opponent)
    raise MatchUnavailable("match mode (--opponent) is not available yet: the match engine has no hook for a person's throws; use `kubb3d match --replay FILE` and `kubb3d view FILE`")
