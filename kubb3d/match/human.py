"""The human-input protocol: a person's throws in a match. For a player named in ``human``
the match does not draw a release: it asks with a :class:`~kubb3d.match.HumanRequest` (yielded
by the step generator, or passed to the player's callable) and simulates the parameters it
gets verbatim (no release noise, no strategy)."""

from __future__ import annotations

from typing import Callable, Generator, Sequence

import numpy as np

from kubb3d.match.flow import Make, Params
from kubb3d.match.protocol import Current, HumanRequest, ThrowAnswer
from kubb3d.match.throwing import Maker, Throwing
from kubb3d.physics.world import World
from kubb3d.throw import FlickParams, ThrowParams


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

        def ask(_rng: np.random.Generator) -> Generator[HumanRequest, ThrowAnswer, tuple[Params, Params]]:
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
            return p, p

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
