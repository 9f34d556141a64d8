"""The human-input protocol: a person's throws in a match. For a player named in ``human``
the match asks with a :class:`~kubb3d.match.HumanRequest` (yielded by the step generator, or
passed to the player's callable) and takes the parameters it gets as the person's *intended*
release; the release simulated is that one with the person's release error
(:func:`person_release`, chosen by :attr:`MatchConfig.difficulty`; ``exact``: none).

The error model (kubb3d's choice, docs/viewer.md "Difficulty"): the release noise of the
simulated players' preset of the same level (:data:`DIFFICULTIES`: ``easy`` is ``novice``'s
noise, ``club`` and ``elite`` their own; Kubbuteo flicks the flick presets), every standard
deviation scaled by the power factor :func:`power_factor`: the person's release speed over the
speed the simulated strategy would give the same throw, clipped to :data:`POWER_FACTOR_RANGE`.
A throw as hard as the computer's gets the computer's noise; a harder one more, a softer one
less. The error is drawn from the action's own generator (seeded from the match seed, attempt
and kubb, :mod:`kubb3d.match`), so a replay's intended releases give its actual ones again."""

from __future__ import annotations

from typing import Callable, Generator, Sequence

import numpy as np

from kubb3d.errors import UnknownNameError
from kubb3d.match.flow import Make, Params
from kubb3d.match.protocol import Current, HumanRequest, ThrowAnswer
from kubb3d.match.throwing import Maker, Throwing
from kubb3d.physics.world import World
from kubb3d.throw import FlickParams, ThrowParams


DIFFICULTIES: dict[str, str | None] = {"exact": None, "easy": "novice", "club": "club", "elite": "elite"}
"""``--difficulty`` → the simulated players' noise preset the person's release error follows
(:data:`kubb3d.players.SKILLS`, :data:`kubb3d.players.FLICK_SKILLS`); ``exact``: no error (practice)."""

POWER_FACTOR_RANGE = (0.5, 2.0)
"""The least and largest scale of the person's release error (:func:`power_factor`)."""


def check_difficulty(name: str) -> str:
    """``name`` if it is a difficulty (:data:`DIFFICULTIES`); else UnknownNameError listing them."""
    if name not in DIFFICULTIES:
        raise UnknownNameError(f"unknown difficulty {name!r}; expected one of {', '.join(DIFFICULTIES)}")
    return name


def power_factor(speed: float, reference_speed: float) -> float:
    """Scale of the release error for a release at ``speed`` (m/s) where the simulated strategy
    would release at ``reference_speed`` (m/s): their ratio, clipped to :data:`POWER_FACTOR_RANGE`."""
    lo, hi = POWER_FACTOR_RANGE
    if not reference_speed > 0:
        return hi
    return float(min(hi, max(lo, speed / reference_speed)))


def person_release(intended: Params, rng: np.random.Generator, difficulty: str, reference_speed: float) -> Params:
    """The person's actual release for the ``intended`` one (module doc): the noise of the
    difficulty's preset, each standard deviation times :func:`power_factor`. ``exact`` returns
    ``intended`` and draws nothing; otherwise 5 normals (a throw) or 3 (a flick) from ``rng``.

    Raises:
        UnknownNameError: an unknown difficulty.
    """
    from dataclasses import replace

    from kubb3d.players import FLICK_SKILLS, SKILLS

    preset = DIFFICULTIES[check_difficulty(difficulty)]
    if preset is None:
        return intended
    f = power_factor(intended.speed, reference_speed)
    if isinstance(intended, FlickParams):
        fs = FLICK_SKILLS[preset]
        scaled = replace(
            fs, speed_rel_sd=fs.speed_rel_sd * f, azimuth_sd_deg=fs.azimuth_sd_deg * f, spin_sd_rps=fs.spin_sd_rps * f
        )
        return scaled.perturb(intended, rng)
    sk = SKILLS[preset]
    skill = replace(
        sk,
        speed_rel_sd=sk.speed_rel_sd * f,
        elevation_sd_deg=sk.elevation_sd_deg * f,
        azimuth_sd_deg=sk.azimuth_sd_deg * f,
        spin_sd_rps=sk.spin_sd_rps * f,
        tilt_sd_deg=sk.tilt_sd_deg * f,
    )
    return skill.perturb(intended, rng)


def strategy_person(match, name: str) -> Callable[[HumanRequest], ThrowAnswer]:
    """A stand-in for the person ``name`` (a player of ``match`` named in its ``human``): answers
    every :class:`HumanRequest` with the noise-free release the simulated strategy of that player
    intends for it, as the match's own flows aim (lag short of the king, a king flick firmly,
    returns to stop at the target). The match then adds the person's release error, so this plays
    the person's side through the person's code path (``benchmarks/difficulty.py``).
    Deterministic: the same request gives the same parameters."""
    from kubb3d.pitch import opponent

    player = match.players[name]

    def answer(req: HumanRequest) -> ThrowAnswer:
        world, eq, pitch = req.world, req.world.equipment, req.world.pitch
        rng = np.random.default_rng(0)  # only feeds the noisy release, which is discarded
        assert req.target is not None
        kubb = req.kind in ("inkast", "penalty")
        if req.flick:
            if req.kind == "lag":
                return player.lag_flick(world, req.side, rng)[0]
            if kubb:
                from_side = opponent(req.into)  # type: ignore[arg-type]
                aim = req.target[:2]
                return player.baton_flick(world, from_side, req.line_x, aim, rng, arrive_speed=0.0, kind="kubb")[0]
            arrive = player.strategy.king_arrive_mps if req.kind == "king" else 0.7
            return player.baton_flick(world, req.side, req.line_x, req.target[:2], rng, arrive_speed=arrive)[0]
        if req.kind == "lag":
            return player.lag_throw(eq, pitch, req.side, rng, dt=world.quiet_dt)[0]
        if kubb:
            return player.kubb_throw(eq, pitch, opponent(req.into), req.target[:2], rng, dt=world.quiet_dt)[0]  # type: ignore[arg-type]
        return player.baton_throw(eq, pitch, req.side, req.line_x, req.target, rng, dt=world.quiet_dt)[0]

    return answer


def is_params(x: object) -> bool:
    """Whether ``x`` is a person's throw (``ThrowParams`` or ``FlickParams``) rather than an action."""
    return isinstance(x, (ThrowParams, FlickParams))


class HumanInput(Throwing):
    """Asks a person for the throws of the players in :attr:`human`."""

    def _maker(
        self,
        side: str,
        make: Make,
        kind: str,
        piece: str,
        line_x: float,
        into: str | None,
        target: Sequence[float] | None,
        world: Callable[[], World] | None = None,
    ) -> Maker:
        """The release maker for ``side``'s player: ``make`` for a simulated player, else a
        generator function that yields the :class:`HumanRequest` and receives the person's
        parameters (sent by :meth:`~kubb3d.match.Match.step`, already type-checked)."""
        name = self.state.player_at(side)  # type: ignore[arg-type]
        if name not in self.human:
            return make
        calls = [0]
        flick = self.flow.flicks
        difficulty = self.config.difficulty

        def ask(rng: np.random.Generator) -> Generator[HumanRequest, ThrowAnswer, tuple[Params, Params]]:
            req = HumanRequest(
                kind,
                name,
                side,
                piece,
                float(line_x),
                into,
                None if target is None else tuple(float(v) for v in target),
                calls[0],
                self.state,
                world() if world is not None else self._w,
                flick,
            )
            calls[0] += 1
            p = yield req
            if DIFFICULTIES[difficulty] is None:
                return p, p
            # the speed the simulated strategy gives this very throw (its noise-free intention;
            # the generator only feeds the noisy release it discards)
            reference = make(np.random.default_rng(0))[0].speed
            return p, person_release(p, rng, difficulty, reference)

        return ask

    def _answer(self, c: Current, answer: ThrowAnswer | None) -> ThrowAnswer:
        """The person's parameters for the request ``c`` waits on, checked.

        Raises:
            RuntimeError: no parameters and no callable for the person.
            TypeError: parameters of the wrong kind (``FlickParams`` on a board, else ``ThrowParams``).
        """
        req = c.request
        assert req is not None
        if answer is None:
            fn = self.human.get(c.player)
            if fn is None:
                raise RuntimeError(
                    f"{c.player}'s {req.kind} throw of {req.piece} is due: pass its parameters to step()"
                )
            answer = fn(req)
        want = FlickParams if req.flick else ThrowParams
        if not isinstance(answer, want):
            raise TypeError(f"the throw of {c.player} must be a {want.__name__}, got {type(answer).__name__}")
        c.request = None
        return answer
