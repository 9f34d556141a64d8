"""Challenge mode of ``kubb3d play --challenge NAME``: a drill of :mod:`kubb3d.challenges` in the
free-throw view. The drill's :class:`~kubb3d.challenges.ChallengeRun` owns the world, the error
and the score; this session only plays its throws back and puts its score on the HUD (the
viewer owns no rules). The best score is kept when a run ends (:class:`~kubb3d.challenges.BestScores`).
"""

from __future__ import annotations

from typing import Any

from kubb3d.challenges import BestScores, ChallengeRun, RING_CENTRE, RING_RADIUS, get_challenge
from kubb3d.judge.messages import concat, msg
from kubb3d.rules.practice import PracticeRound
from kubb3d.viewer.app import PlaySession
from kubb3d.viewer.camera import camera_name
from kubb3d.viewer.controls import Controller
from kubb3d.viewer.hud import Hud
from kubb3d.viewer.hud import mode_tags as _modes
from kubb3d.viewer.scene import PieceView, Scene, segment_from_throw


class ChallengeSession(PlaySession):
    """A drill as a viewer session.

    Args:
        name: the drill (:data:`kubb3d.challenges.CHALLENGES`).
        difficulty: the person's release error.
        seed: seed of the first run's release errors (each new run, R, takes the next).
        scores: where best scores are kept (None: the user's data folder).

    Raises:
        UnknownNameError: unknown drill or difficulty. ChallengeError: an unreadable best-score file.
    """

    def __init__(self, name: str, difficulty: str = "club", seed: int = 0, scores: BestScores | None = None) -> None:
        self.challenge = get_challenge(name)
        self.difficulty, self.seed = difficulty, seed
        self.scores = BestScores() if scores is None else scores
        self.run: ChallengeRun | None = None
        self.new_best = False
        self.keep_best = True  # False while the computer throws (a screenshot's --after)
        super().__init__("standard", "dm", batons=self.challenge.throws)
        if self.challenge.piece == "kubb":  # lobbed kubbs: the match mode's inkast settings
            from kubb3d.viewer.match_mode import KUBB_DEFAULTS, MatchControls

            self.controls = MatchControls(self.pitch, "A")
            for k, v in KUBB_DEFAULTS.items():
                setattr(self.controls, k, v)
            self.scene.throwing_line = self.controls.line

    def new_round(self) -> None:
        """A new run of the drill (the next seed after the first)."""
        if self.run is not None:
            self.run.close()
            self.seed += 1
        self.run = ChallengeRun(self.challenge.name, self.difficulty, self.seed)
        self.world = self.run.world  # type: ignore[assignment]
        self.scene = Scene.from_world(self.world)
        self.scene.throwing_line = self.controls.line
        if self.challenge.piece == "kubb":  # the ring the kubbs are lobbed at, painted on the grass
            self.scene.rings = [(RING_CENTRE, RING_RADIUS)]
        self.round = self.run.round if self.run.round is not None else PracticeRound("dm", "A", {})
        self.thrown = 0
        self.gone = frozenset()
        self.segment = None
        self.t = 0.0
        self.result = None
        self.judgement = None
        self.message = ""
        self.game_over = False
        self.new_best = False

    @property
    def felled(self) -> frozenset[str]:
        return self.run.round.felled if self.run is not None and self.run.round is not None else frozenset()

    def throw(self, params) -> Any:
        """Throw the drill's next piece with the person's intended ``params``; its playback
        starts at once. Raises RuntimeError when the run is over, ValueError for bad parameters."""
        from kubb3d.viewer.replay import throw_facts

        run = self.run
        assert run is not None
        if not self.can_throw:
            raise RuntimeError("the run is over: R for a new one")
        start = self.scene.poses()
        row = run.throw(params)
        result = run.last_result
        self.thrown += 1
        self.result = result
        rulings = run.last_rulings
        label = f"{row.piece} ({self.thrown}/{self.batons})"
        self.segment = segment_from_throw(result, start, label, rulings, {})
        self.segment.info["felled"] = list(row.felled)  # the card: this throw's, not the round's
        record = {"piece": row.piece, "legal": result.legal, "violations": [{"rule": v.rule} for v in result.violations], "release": {"velocity_mps": list(result.release.velocity)}}
        self.segment.info["throw"] = throw_facts(record, self.segment.times, self.segment.poses, self.segment.start)
        if row.piece not in self.scene.pieces:
            kind = "kubb" if self.challenge.piece == "kubb" else "baton"
            self.scene.pieces[row.piece] = PieceView(kind, self.segment.start[row.piece].copy(), side="B" if kind == "kubb" else None)
        self.scene.clear_status()
        self.t = 0.0
        self.message = row.text
        if run.over:
            self.game_over = True
            self.new_best = self.keep_best and self.scores.record(run)
        return result

    def hud(self, ctl: Controller) -> Hud:
        h = super().hud(ctl)
        run = self.run
        assert run is not None
        c = self.challenge
        h.title = concat(msg("kubb3d: challenge {title} ({difficulty}), camera {camera}", title=msg(c.title), difficulty=self.difficulty, camera=camera_name(ctl.camera_mode)), *_modes(ctl))
        best = self.scores.get(c.name, self.difficulty)
        # what changes from throw to throw first: a small window's panel keeps the lines that fit
        head = [run.status()]
        if run.throws:
            last = run.throws[-1]
            head.append(msg("intended {speed_in:.2f} m/s {azimuth_in:+.1f}°, released {speed_out:.2f} m/s {azimuth_out:+.1f}°", speed_in=last.intended["speed"], azimuth_in=last.intended["azimuth_deg"], speed_out=last.released["speed"], azimuth_out=last.released["azimuth_deg"]))
        if run.round is not None:  # the baseline drill: the kubbs felled so far (a round's)
            head += h.lines
        head.append(msg("best score: {best}", best=best) if best is not None else msg("best score: none yet"))
        if c.piece == "kubb":
            head.append(msg("the ring: centre x {x:+.2f} m, y {y:+.2f} m, radius {r:.2f} m", x=RING_CENTRE[0], y=RING_CENTRE[1], r=RING_RADIUS))
        h.lines = [*head, msg(c.goal)]
        if run.over:
            done = msg("NEW BEST: {score} points (R: again)", score=run.score) if self.new_best else msg("run over: {score} points (R: again)", score=run.score)
            h.message = concat(self.message, "   ", done) if self.message else done
        elif self.message:
            h.message = self.message
        return h

    def close(self) -> None:
        if self.run is not None:
            self.run.close()
            self.run = None
        self.world = None


def challenge_session(name: str, difficulty: str, seed: int = 0, scores: BestScores | None = None) -> ChallengeSession:
    """The session of ``kubb3d play --challenge NAME`` (errors as :class:`ChallengeSession`)."""
    return ChallengeSession(name, difficulty, seed, scores)
