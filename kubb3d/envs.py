"""Gymnasium environments: ``kubb3d/Throw-v0`` (one baton) and ``kubb3d/Turn-v0`` (a turn of
six batons), refereed by the judge.

Both play the DM ruleset (German championship duel) on the standard set-up of a 5×8 m grass
pitch: side A throws from its baseline (x = −4 m) at side B's five baseline kubbs
``B1``…``B5`` and the king. Importing this module registers both ids with Gymnasium;
``import kubb3d`` imports it when Gymnasium is already imported, so
``import gymnasium, kubb3d; gymnasium.make("kubb3d/Throw-v0")`` works (otherwise
``import kubb3d.envs`` or ``gymnasium.make("kubb3d.envs:kubb3d/Throw-v0")``).

Action (both), a float32 vector of shape (5,) in physical units (:class:`kubb3d.throw.ThrowParams`):

====  ==================  ===========  ==========================================
0     release speed       2 … 20       m/s
1     elevation           0 … 60       deg above the horizontal
2     azimuth             −30 … 30     deg from straight ahead, positive left
3     end-over-end spin   −5 … 5       rev/s, positive turns the top forward
4     tilt                −30 … 30     deg out of the flight plane (DM §5 limit)
====  ==================  ===========  ==========================================

The release point is fixed (5 cm behind the baseline, on the centre line, 0.5 m high).
Legality is measured from the simulated flight, as everywhere in kubb3d: a baton released
near the 30° tilt limit can still break DM §5.

Observation: float32 vector. ``Throw-v0``, shape (45,): for each of ``B1``…``B5`` and the
king its bounding-box centre x, y, z (m) and orientation quaternion x, y, z, w (pieces
6 × 7 = 42 values), then the target kubb's centre x, y, z (m) at the start of the episode.
Positions are clipped to x, y in [−10, 10] m and z in [−1, 3] m.
``Turn-v0``, shape (43,): the same 42 values, then the batons left in the turn divided by six.

Reward (from :func:`kubb3d.judge.judge_throw`): the number of B kubbs the throw felled that
count as felled; an illegal throw gives :data:`ILLEGAL_PENALTY` (its felled kubbs are raised
again by the rules); felling the king before the kubbs loses the game (DM §10) and gives
:data:`KING_PENALTY` and ends the episode. ``Throw-v0`` ends after its one throw; ``Turn-v0``
after six throws or when every B kubb is down.

``info`` after a step: ``legal``, ``violations`` (rule, reason), ``felled`` (kubbs this throw
felled that count), ``first_contact`` (piece id or ``ground``), ``rulings`` (the judge's, as
dicts), ``game_lost``; ``Throw-v0`` adds ``target``, ``hit`` (the target counts as felled) and
``miss_m`` (closest horizontal approach of the baton's centre to the target's centre, m: a
smooth signal for search methods); ``Turn-v0`` adds ``batons_left`` and ``felled_total``.

Seeding follows Gymnasium: ``reset(seed=s)`` seeds :attr:`np_random`, which picks the target
of ``Throw-v0`` (unless ``target=`` is given) and the bumps of uneven ground
(``terrain_cm > 0``); the same seed and actions give the same episode. ``render_mode=
"rgb_array"`` draws the position with the viewer's headless OpenGL renderer (imported only
then), an array of shape (height, width, 3), uint8.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
except ModuleNotFoundError as missing:  # pragma: no cover - exercised in a subprocess by the tests
    raise ModuleNotFoundError(
        "kubb3d.envs needs Gymnasium, which kubb3d's 'gym' extra installs: pip install 'kubb3d[gym]'",
        name=missing.name,
    ) from None

from kubb3d.pitch import KING_ID

if TYPE_CHECKING:
    from kubb3d.judge import Pose
    from kubb3d.physics.world import World
    from kubb3d.throw import ThrowResult

TARGETS = ("B1", "B2", "B3", "B4", "B5")
"""The kubbs thrown at: side B's baseline kubbs."""
PIECES = (*TARGETS, KING_ID)
"""The pieces of the target half, in observation order."""
ILLEGAL_PENALTY = -1.0
"""Reward of a throw that broke a throwing rule (DM §5)."""
KING_PENALTY = -5.0
"""Reward of a throw that felled the king while B kubbs still stood (game lost, DM §10)."""
BATONS = 6
"""Batons in a turn."""

ACTION_LOW = np.array((2.0, 0.0, -30.0, -5.0, -30.0), dtype=np.float32)
ACTION_HIGH = np.array((20.0, 60.0, 30.0, 5.0, 30.0), dtype=np.float32)
ACTION_NAMES = ("speed", "elevation_deg", "azimuth_deg", "spin_rps", "tilt_deg")


POSITION_LOW = (-10.0, -10.0, -1.0)
POSITION_HIGH = (10.0, 10.0, 3.0)
"""Bounds of an observed position, m (a piece outside them is reported at the bound)."""


def _pose_bounds(n: int) -> tuple[np.ndarray, np.ndarray]:
    one_lo = np.array(POSITION_LOW + (-1.0,) * 4, dtype=np.float32)
    one_hi = np.array(POSITION_HIGH + (1.0,) * 4, dtype=np.float32)
    return np.tile(one_lo, n), np.tile(one_hi, n)


class _KubbEnv(gym.Env):
    """What both environments share: the world, the throw, the judge and the renderer."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        ruleset: str = "dm",
        equipment: str = "standard",
        ground: str = "grass",
        terrain_cm: float = 0.0,
        width: int = 480,
        height: int = 360,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if ruleset != "dm":
            raise ValueError(f"only the dm ruleset is available in the environments, got {ruleset!r}")
        if not (math.isfinite(terrain_cm) and terrain_cm >= 0):
            raise ValueError(f"terrain_cm must be a number >= 0, got {terrain_cm}")
        self.render_mode = render_mode
        self.ruleset = ruleset
        self.equipment = equipment
        self.ground = ground
        self.terrain_cm = float(terrain_cm)
        self.size = (int(width), int(height))
        self.action_space = spaces.Box(ACTION_LOW, ACTION_HIGH, dtype=np.float32)
        self.world: World | None = None
        self.last_result: ThrowResult | None = None
        self._renderer = None
        self._over = True

    # ------------------------------------------------------------------ helpers
    @property
    def _w(self) -> World:
        """The episode's world (RuntimeError before the first ``reset``)."""
        if self.world is None:
            raise RuntimeError("call reset() before step()")
        return self.world

    def _new_world(self) -> None:
        from kubb3d.physics.world import Terrain, World

        if self.world is not None:
            self.world.close()
        terrain = None
        if self.terrain_cm > 0:
            terrain = Terrain(self.terrain_cm / 100.0, seed=int(self.np_random.integers(0, 2**31 - 1)))
        self.world = World.standard(self.equipment, ground=self.ground, terrain=terrain)
        self.thrown = 0
        self.felled: set[str] = set()
        self.round_start = {pid: self._pose(pid) for pid in self._w.piece_ids("kubb", "king")}
        self._over = False

    def _pose(self, pid: str) -> Pose:
        from kubb3d.judge import Pose

        pos, q = self._w.pose(pid)
        return Pose((float(pos[0]), float(pos[1]), float(pos[2])), q)

    def _poses(self) -> np.ndarray:
        out = []
        for pid in PIECES:
            pos, q = self._w.pose(pid)
            out += [*pos, *q]
        return np.clip(np.asarray(out, dtype=np.float32), *_pose_bounds(len(PIECES)))

    def _throw(self, action: np.ndarray) -> tuple[float, bool, dict[str, Any]]:
        """Throw the next baton; returns (reward, game over, info)."""
        from kubb3d.judge import ThrowContext, judge_throw
        from kubb3d.physics.world import PhysicsGlitch
        from kubb3d.throw import ThrowParams, throw

        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        a = np.clip(np.asarray(action, dtype=np.float64).reshape(-1), ACTION_LOW, ACTION_HIGH)
        if a.shape != (5,) or not np.all(np.isfinite(a)):
            raise ValueError(f"action must be 5 finite numbers {ACTION_NAMES}, got {action!r}")
        params = ThrowParams(
            side="A",
            speed=float(a[0]),
            elevation_deg=float(a[1]),
            azimuth_deg=float(a[2]),
            spin_rps=float(a[3]),
            tilt_deg=float(a[4]),
        )
        self.thrown += 1
        baton = f"baton{self.thrown}"
        self.last_result = None  # the ThrowResult of the last step (kubb3d.throw.ThrowResult)
        try:
            res = throw(self._w, params, baton=baton, ruleset=self.ruleset)
            self.last_result = res
        except PhysicsGlitch as exc:
            # a physics failure is nobody's throw: no reward, the episode stops
            self._over = True
            return 0.0, True, {"glitch": str(exc), "legal": True, "felled": [], "violations": [], "rulings": []}
        ctx = ThrowContext(
            ruleset=self.ruleset,
            thrower="A",
            legal=res.legal,
            violations=tuple(res.violations),
            round_start=dict(self.round_start),
            already_felled=frozenset(self.felled),
        )
        j = judge_throw(res.final, ctx)
        for pid in sorted(j.raise_now):
            if pid in self.round_start and self._w.has_piece(pid):
                p = self.round_start[pid]
                self._w.set_pose(pid, p.position, p.quat_xyzw, wake=False)
        new = set(j.felled) - self.felled
        self.felled |= new
        lost = j.loser == "A"
        reward = KING_PENALTY if lost else (float(len(new)) if res.legal else ILLEGAL_PENALTY)
        info = {
            "legal": res.legal,
            "violations": [{"rule": v.rule, "reason": v.reason} for v in res.violations],
            "felled": sorted(new),
            "first_contact": None if res.first_contact is None else res.first_contact.piece,
            "rulings": [r.to_dict() for r in j.rulings],
            "game_lost": lost,
        }
        return reward, lost, info

    # ------------------------------------------------------------------ Gymnasium API
    def render(self):
        """The current position as an RGB array (height, width, 3), uint8; None without
        ``render_mode="rgb_array"``."""
        if self.render_mode != "rgb_array" or self.world is None:
            return None
        snap = self.world.snapshot()
        if self._renderer is None:
            from kubb3d.viewer.still import StillRenderer

            self._renderer = StillRenderer(snap, self.world.equipment.name, *self.size, camera="orbit", focus=PIECES)
        return self._renderer.render(snap)

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
        if self.world is not None:
            self.world.close()
            self.world = None


class ThrowEnv(_KubbEnv):
    """``kubb3d/Throw-v0``: one baton thrown at one target kubb of side B's baseline.

    Args:
        render_mode: None or ``"rgb_array"``.
        target: the kubb to aim at (``B1``…``B5``); None: drawn by :attr:`np_random` at
            each reset.
        ruleset, equipment, ground: the game (only ``dm``), the equipment set and the surface.
        terrain_cm: bump amplitude of uneven ground, cm (0: flat; the bumps follow the seed).
        width, height: rendered image size, px.
    """

    def __init__(self, render_mode: str | None = None, *, target: str | None = None, **kwargs: Any) -> None:
        super().__init__(render_mode, **kwargs)
        if target is not None and target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS} or None, got {target!r}")
        self.fixed_target = target
        lo, hi = _pose_bounds(len(PIECES))
        self.observation_space = spaces.Box(
            np.concatenate((lo, lo[:3])), np.concatenate((hi, hi[:3])), dtype=np.float32
        )
        self.target = target or TARGETS[2]
        self._target_xyz = np.zeros(3, dtype=np.float32)

    def _obs(self) -> np.ndarray:
        return np.concatenate((self._poses(), self._target_xyz))

    def _miss(self) -> float | None:
        """Closest horizontal approach of the baton's centre to the target's starting centre
        during the throw, m (None after a physics failure)."""
        res = self.last_result
        if res is None or res.piece not in res.trajectory.poses:
            return None
        path = res.trajectory.poses[res.piece][:, :2]
        return float(np.min(np.hypot(path[:, 0] - self._target_xyz[0], path[:, 1] - self._target_xyz[1])))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.target = self.fixed_target or TARGETS[int(self.np_random.integers(len(TARGETS)))]
        self._new_world()
        self._target_xyz = np.asarray(self._w.pose(self.target)[0], dtype=np.float32)
        return self._obs(), {"target": self.target}

    def step(self, action):
        reward, _, info = self._throw(action)
        self._over = True
        info["target"] = self.target
        info["hit"] = self.target in info["felled"]
        info["miss_m"] = self._miss()
        return self._obs(), reward, True, False, info


class TurnEnv(_KubbEnv):
    """``kubb3d/Turn-v0``: a whole turn, six batons against side B's five baseline kubbs and
    the king; each step throws one baton, the judge's rulings decide its reward.

    Batons stay where they came to rest (as on a real pitch until the turn ends); kubbs the
    judge rules felled stay down, pieces it says to raise at once are stood up again at
    their spot.

    Args:
        render_mode, ruleset, equipment, ground, terrain_cm, width, height: as :class:`ThrowEnv`.
    """

    def __init__(self, render_mode: str | None = None, **kwargs: Any) -> None:
        super().__init__(render_mode, **kwargs)
        lo, hi = _pose_bounds(len(PIECES))
        self.observation_space = spaces.Box(
            np.append(lo, 0.0).astype(np.float32), np.append(hi, 1.0).astype(np.float32), dtype=np.float32
        )

    def _obs(self) -> np.ndarray:
        return np.append(self._poses(), np.float32((BATONS - self.thrown) / BATONS)).astype(np.float32)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._new_world()
        return self._obs(), {"batons_left": BATONS}

    def step(self, action):
        reward, lost, info = self._throw(action)
        cleared = set(TARGETS) <= self.felled
        terminated = lost or cleared or self.thrown >= BATONS or "glitch" in info
        self._over = terminated
        info["batons_left"] = BATONS - self.thrown
        info["felled_total"] = sorted(self.felled)
        return self._obs(), reward, terminated, False, info


def register_envs() -> None:
    """Register ``kubb3d/Throw-v0`` and ``kubb3d/Turn-v0`` with Gymnasium (idempotent)."""
    registry = gym.envs.registration.registry
    if "kubb3d/Throw-v0" not in registry:
        gym.register(id="kubb3d/Throw-v0", entry_point="kubb3d.envs:ThrowEnv")
    if "kubb3d/Turn-v0" not in registry:
        gym.register(id="kubb3d/Turn-v0", entry_point="kubb3d.envs:TurnEnv")


register_envs()
