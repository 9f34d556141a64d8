"""Challenges (``kubb3d play --challenge NAME``): short drills with a score and a best score kept
between sessions (issue 34, item 5). The rules of each drill live here; the viewer only shows
them (:class:`ChallengeRun` is driven throw by throw, by a person's releases or by a scripted
answer such as :func:`auto_answer`).

Drills (:data:`CHALLENGES`, kubb3d's choices; DM pitch and set, grass):

* ``baseline``: six batons from your baseline at the five baseline kubbs of half B, the king
  standing (``DM §10``: a king felled before the kubbs loses): 10 points a kubb the judge counts
  as felled, 5 for each baton left when the fifth falls; a felled king ends the drill with 0.
* ``inkast``: five kubbs lobbed from your baseline at a ring of radius :data:`RING_RADIUS`
  centred at :data:`RING_CENTRE` in half B: a kubb at rest scores
  ``max(0, 10 - floor(10 d / (2 r)))`` for its distance ``d`` from the centre (10 at the
  centre, 5 on the ring, 0 from twice the radius on).
* ``king``: the king alone, three batons from your baseline (``DM §10``: the king is thrown at
  from the baseline): 10, 6 or 3 points as the first, second or third baton fells it
  (:data:`KING_POINTS`); an illegal throw (``DM §5``) scores nothing.

Every release gets the person's error of the chosen difficulty
(:func:`kubb3d.match.human.person_release`, the power factor measured against the simulated
strategy's own throw at the drill's target); the error of throw *n* is drawn from
``default_rng(SeedSequence(seed, spawn_key=(n,)))``, so a run is reproducible from its seed and
its intended releases.

Best scores (:class:`BestScores`): one JSON file ``challenges.json`` in the user's data folder
(``platformdirs.user_data_dir("kubb3d")``, or the folder named by ``KUBB3D_DATA_DIR``), the best
score per drill and difficulty.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from kubb3d.errors import ChallengeError, UnknownNameError
from kubb3d.judge.messages import N_, msg, nmsg

RING_CENTRE = (2.0, 1.0)
"""(x, y) m of the inkast ring's centre: 2 m past the centre line into half B, 1 m to the side
(6 m from A's baseline on the DM pitch)."""
RING_RADIUS = 0.5
"""m: radius of the inkast ring."""
KING_POINTS = (10, 6, 3)
"""Points for a king felled by the first, second, third baton."""
DATA_DIR_ENV = "KUBB3D_DATA_DIR"
"""Environment variable naming the folder of the best scores instead of the user's data folder."""


@dataclass(frozen=True)
class Challenge:
    """A drill (module doc).

    Attributes:
        name: the ``--challenge`` name.
        title: a line naming it (a translatable message template).
        goal: how it scores (a translatable message template).
        throws: pieces thrown.
        piece: ``baton`` or ``kubb``.
        max_score: the best score possible (the baseline drill: all five kubbs felled by the
            first baton, 50 + 5 × 5; five batons, one a kubb, make 55).
    """

    name: str
    title: str
    goal: str
    throws: int
    piece: str
    max_score: int


CHALLENGES: dict[str, Challenge] = {
    c.name: c
    for c in (
        Challenge(
            "baseline",
            N_("Clear the baseline"),
            N_("fell the five kubbs on B's baseline with six batons: 10 a kubb, 5 a baton left; the king must stand"),
            6,
            "baton",
            75,
        ),
        Challenge(
            "inkast",
            N_("Inkast into the ring"),
            N_("lob five kubbs into the ring in half B: 10 at its centre, 5 on the ring, 0 twice as far out"),
            5,
            "kubb",
            50,
        ),
        Challenge(
            "king",
            N_("The king shot"),
            N_("fell the king from your baseline with three batons: 10, 6 or 3 points by the baton that fells it"),
            3,
            "baton",
            10,
        ),
    )
}


def get_challenge(name: str) -> Challenge:
    """A drill by name; UnknownNameError listing them."""
    try:
        return CHALLENGES[name]
    except KeyError:
        raise UnknownNameError(f"unknown challenge {name!r}; expected one of {', '.join(CHALLENGES)}") from None


def ring_points(x: float, y: float) -> int:
    """Points of an inkasted kubb at rest at (x, y) m (module doc)."""
    d = math.hypot(x - RING_CENTRE[0], y - RING_CENTRE[1])
    return max(0, 10 - math.floor(10 * d / (2 * RING_RADIUS)))


@dataclass
class ThrowScore:
    """What one throw of a drill did: the piece, its intended and actual release (dicts of the
    parameters), the points it made, a line saying why and the pieces this throw felled (the
    kubbs the judge counts as felled by it, not by an earlier baton, and the king if it fell)."""

    piece: str
    intended: dict
    released: dict
    points: int
    text: str
    felled: tuple[str, ...] = ()


@dataclass
class ChallengeRun:
    """One run of a drill in its own physics world (pure Python; the viewer draws its world).

    Args:
        name: the drill (:data:`CHALLENGES`).
        difficulty: the person's release error (:data:`kubb3d.match.human.DIFFICULTIES`).
        seed: root seed of the release errors.

    Attributes:
        score: points so far; ``over``: the drill has ended; ``throws``: the :class:`ThrowScore`
        of every throw; ``last_result``: the last :class:`~kubb3d.throw.ThrowResult`;
        ``last_rulings``: the judge's rulings on it (the ``baseline`` drill; else empty).

    Raises:
        UnknownNameError: unknown drill or difficulty.
    """

    name: str
    difficulty: str = "club"
    seed: int = 0
    throws: list[ThrowScore] = field(default_factory=list)
    score: int = 0
    over: bool = False
    last_result: Any = None
    last_rulings: tuple = ()

    def __post_init__(self) -> None:
        from kubb3d.match.human import check_difficulty
        from kubb3d.physics.world import World
        from kubb3d.pitch import PITCHES, baseline_ids
        from kubb3d.players import SKILLS, Player
        from kubb3d.rules.practice import PracticeRound

        self.challenge = get_challenge(self.name)
        check_difficulty(self.difficulty)
        self.pitch = PITCHES["dm"]
        self.world = World.standard("standard", self.pitch, "grass")
        self.targets = baseline_ids("B")
        self.kubbs = baseline_ids("A")  # the inkast drill throws these
        if self.name == "king":
            for kid in self.targets:
                self.world.remove_piece(kid)
        if self.name == "inkast":
            for kid in self.kubbs:
                self.world.remove_piece(kid)
        start = {pid: self._pose(pid) for pid in self.world.piece_ids("kubb", "king")}
        self.round = PracticeRound("dm", "A", start) if self.name == "baseline" else None
        self.player = Player("you", SKILLS["club"])  # its strategy: the auto player's aim, the power reference

    def _pose(self, pid: str):
        from kubb3d.judge.rulings import Pose

        pos, q = self.world.pose(pid)
        return Pose((float(pos[0]), float(pos[1]), float(pos[2])), (float(q[0]), float(q[1]), float(q[2]), float(q[3])))

    # ------------------------------------------------------------ what is due
    @property
    def thrown(self) -> int:
        return len(self.throws)

    def piece(self) -> str:
        """Id of the next piece thrown (``baton1`` …, or the kubb ``A1`` … in the inkast drill)."""
        return self.kubbs[self.thrown] if self.challenge.piece == "kubb" else f"baton{self.thrown + 1}"

    def target(self) -> tuple[float, float, float]:
        """Where the simulated strategy aims the next throw, (x, y, z) m: the standing B kubb nearest
        the pitch's long axis (then in id order), the king, or the ring's centre on the ground."""
        from kubb3d.pitch import KING_ID
        from kubb3d.throw import aim_point

        if self.name == "inkast":
            return (RING_CENTRE[0], RING_CENTRE[1], self.world.equipment.kubb.width / 2)
        if self.name == "baseline":
            standing = [k for k in self.targets if self.round is not None and k not in self.round.felled]
            if standing:
                return aim_point(self.world, min(standing, key=lambda k: (abs(self.world.pose(k)[0][1]), k)))
        return aim_point(self.world, KING_ID)

    def strategy_throw(self):
        """The simulated strategy's noise-free release for the next throw (``ThrowParams``)."""
        rng = np.random.default_rng(0)  # feeds only the noisy release, which is discarded
        eq = self.world.equipment
        if self.challenge.piece == "kubb":
            return self.player.kubb_throw(eq, self.pitch, "A", self.target()[:2], rng, dt=self.world.quiet_dt)[0]
        line = self.pitch.baseline_x("A")
        return self.player.baton_throw(eq, self.pitch, "A", line, self.target(), rng, dt=self.world.quiet_dt)[0]

    # ------------------------------------------------------------ throwing
    def throw(self, intended) -> ThrowScore:
        """Throw the next piece with the person's ``intended`` release (``ThrowParams``, thrown from
        end A): the release error is added, the throw simulated and scored.

        Raises:
            ChallengeError: the drill is over.
            ThrowError: bad parameters.
        """
        from dataclasses import asdict, replace

        from kubb3d.match.human import person_release
        from kubb3d.throw import ThrowParams, release_from_params, simulate, throw

        if self.over:
            raise ChallengeError(f"the {self.name} challenge is over (score {self.score}); start a new one")
        if self.challenge.piece == "kubb":
            intended = replace(intended, line_x=None, release_angle_deg=0.0)
        intended.validate()
        n = self.thrown
        reference = self.strategy_throw().speed
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(n,)))
        released = person_release(intended, rng, self.difficulty, reference)
        assert isinstance(released, ThrowParams)
        piece = self.piece()
        if self.challenge.piece == "kubb":
            self.world.add_piece(piece, "kubb", (0.0, 0.0, -10.0), side="B", sleeping=False)
            res = simulate(self.world, piece, release_from_params(released, self.pitch), kind="kubb", params=released)
        else:
            res = throw(self.world, released, baton=piece, ruleset="dm")
        self.last_result = res
        points, text, felled = self._score(res)
        row = ThrowScore(piece, asdict(intended), asdict(released), points, text, felled)
        self.throws.append(row)
        self.score += points
        if self.thrown >= self.challenge.throws:
            self.over = True
        return row

    def _score(self, res) -> tuple[int, str, tuple[str, ...]]:
        from kubb3d.judge import judge_throw
        from kubb3d.match.flow import KING_FELLED_TILT
        from kubb3d.pitch import KING_ID

        if self.name == "inkast":
            x, y = (float(v) for v in res.final[res.piece].position[:2])
            pts = ring_points(x, y)
            d = math.hypot(x - RING_CENTRE[0], y - RING_CENTRE[1])
            text = nmsg(
                "{piece} rests {d:.2f} m from the ring's centre: {points} point",
                "{piece} rests {d:.2f} m from the ring's centre: {points} points",
                pts,
                piece=res.piece,
                d=d,
                points=pts,
            )
            return pts, text, ()
        king_down = res.final_tilt.get(KING_ID, 0.0) > KING_FELLED_TILT
        if self.name == "king":
            if king_down and res.legal:
                self.over = True
                pts = KING_POINTS[self.thrown]
                return pts, msg("the king falls: {points} points", points=pts), (KING_ID,)
            if king_down:
                self.over = True
                rules = ", ".join(v.rule for v in res.violations)
                return 0, msg("the king falls to an illegal throw ({rules}): 0 points", rules=rules), (KING_ID,)
            return 0, msg("the king stands"), ()
        assert self.round is not None
        before = self.round.felled
        j = judge_throw(res.final, self.round.context(res.legal, tuple(res.violations), res.final.pieces))
        self.round.record(j)
        self.last_rulings = tuple(j.rulings)
        new = sorted(set(self.round.felled & set(self.targets)) - set(before))
        if self.round.winner is not None or king_down:
            self.over = True
            self.score = 0
            return 0, msg("the king fell before the kubbs: the drill is lost, 0 points"), (*new, KING_ID)
        pts = 10 * len(new)
        if set(self.targets) <= self.round.felled:
            self.over = True
            left = self.challenge.throws - self.thrown - 1
            pts += 5 * left
            text = nmsg(
                "all five down with {left} baton left: {points} points",
                "all five down with {left} batons left: {points} points",
                left,
                left=left,
                points=pts,
            )
            return pts, text, tuple(new)
        down = ", ".join(new) if new else msg("nothing")
        return pts, msg("felled {felled}: {points} points", felled=down, points=pts), tuple(new)

    def status(self) -> str:
        """One line for the HUD: the drill, the score and the throws left."""
        c = self.challenge
        return nmsg(
            "{title}: {score} point, {left} of {n} throws left",
            "{title}: {score} points, {left} of {n} throws left",
            self.score,
            title=msg(c.title),
            score=self.score,
            left=0 if self.over else c.throws - self.thrown,
            n=c.throws,
        )

    def close(self) -> None:
        self.world.close()


def auto_answer(run: ChallengeRun):
    """The computer's intended release for the next throw (the strategy's noise-free aim; the run
    adds the person's error to it): the ``--auto`` player."""
    return run.strategy_throw()


def play_challenge(
    name: str, answer: Callable[[ChallengeRun], Any] = auto_answer, *, difficulty: str = "club", seed: int = 0
) -> ChallengeRun:
    """A whole run of drill ``name`` with each intended release from ``answer(run)`` (closed; its
    :attr:`~ChallengeRun.throws` and :attr:`~ChallengeRun.score` stay readable)."""
    run = ChallengeRun(name, difficulty, seed)
    try:
        while not run.over:
            run.throw(answer(run))
    finally:
        run.close()
    return run


# ---------------------------------------------------------------- best scores
def data_dir() -> Path:
    """The folder of the best scores: ``KUBB3D_DATA_DIR`` if set, else the user's data folder."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("kubb3d", appauthor=False))


@dataclass
class BestScores:
    """The best score per drill and difficulty, kept in ``folder/challenges.json``.

    Raises:
        ChallengeError: a file that is not a best-score file (file, what was expected).
    """

    folder: Path | None = None
    best: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.folder = data_dir() if self.folder is None else Path(self.folder)
        path = self.path
        if not path.exists():
            return
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ChallengeError(f"{path}: cannot read the best scores: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ChallengeError(f"{path}: not a best-score file (not UTF-8 text); move it away") from None
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            raise ChallengeError(f"{path}: not a best-score file (not JSON: {where}); move it away") from None
        best = doc.get("best") if isinstance(doc, dict) else None
        if not isinstance(best, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in best.values()):
            raise ChallengeError(f"{path}: best: expected an object of whole numbers (challenge/difficulty: score)")
        self.best = dict(best)

    @property
    def path(self) -> Path:
        assert self.folder is not None
        return self.folder / "challenges.json"

    @staticmethod
    def key(name: str, difficulty: str) -> str:
        return f"{name}/{difficulty}"

    def get(self, name: str, difficulty: str) -> int | None:
        """The best score of drill ``name`` at ``difficulty``, or None."""
        return self.best.get(self.key(name, difficulty))

    def record(self, run: ChallengeRun) -> bool:
        """Keep ``run``'s score if it beats the best (written at once, atomically); True if it did."""
        k = self.key(run.name, run.difficulty)
        if k in self.best and self.best[k] >= run.score:
            return False
        self.best[k] = run.score
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"best": self.best}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)
        return True
