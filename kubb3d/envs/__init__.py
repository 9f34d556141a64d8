"""Gymnasium environments: ``kubb3d/Throw-v0`` (one baton) and ``kubb3d/Turn-v0`` (a turn of
six batons), refereed by the judge.

Both play the DM ruleset (German championship duel) on the standard set-up of a 5×8 m
pitch: side A throws from its baseline (x = −4 m) at side B's five baseline kubbs
``B1``…``B5`` and the king. Importing this module registers both ids with Gymnasium;
``import kubb3d`` imports it when Gymnasium is already imported, so
``import gymnasium, kubb3d; gymnasium.make("kubb3d/Throw-v0")`` works (otherwise
``import kubb3d.envs`` or ``gymnasium.make("kubb3d.envs:kubb3d/Throw-v0")``). A whole match for two
agents is the PettingZoo environment of :mod:`kubb3d.envs.match_env` (docs/envs.md).

Action (both), a float32 vector of shape (5,). By default (``actions="normalized"``) each
value lies in [−1, 1] and is mapped linearly onto the physical range below
(``low + (a + 1) / 2 · (high − low)``, :func:`physical_action`; :func:`normalized_action`
is the inverse); ``actions="physical"`` takes the physical units
(:class:`kubb3d.throw.ThrowParams`) directly. Values outside the box are clipped.

====  ==================  ===========  ==========================================
0     release speed       2 … 20       m/s
1     elevation           0 … 60       deg above the horizontal
2     azimuth             −30 … 30     deg from straight ahead, positive left
3     end-over-end spin   −5 … 5       rev/s, positive turns the top forward
4     tilt                −30 … 30     deg out of the flight plane (DM §5 limit)
====  ==================  ===========  ==========================================

The release point is fixed (5 cm behind the baseline, on the centre line, 0.5 m high).
With ``skill=`` one of the simulated players' presets (``novice``, ``club``, ``elite``,
:data:`kubb3d.players.SKILLS`) the action is the intended throw and the baton is released with
that player's Gaussian release noise (:meth:`kubb3d.players.Skill.perturb`, drawn from
:attr:`np_random`); ``skill=None`` (the default) releases exactly the action. Legality is
measured from the simulated flight, as everywhere in kubb3d: a baton released near the 30° tilt
limit can still break DM §5.

Observation: float32 vector. ``Throw-v0``, shape (45,): for each of ``B1``…``B5`` and the
king its bounding-box centre x, y, z (m) and orientation quaternion x, y, z, w (pieces
6 × 7 = 42 values), then the target kubb's centre x, y, z (m) at the start of the episode.
Positions are clipped to x, y in [−10, 10] m and z in [−1, 3] m.
``Turn-v0``, shape (43,): the same 42 values, then the batons left in the turn divided by six.

Rewards. Let *lost* be "the throw felled the king while B kubbs still stood" (the game is
lost, DM §10), *legal* "the throw broke no throwing rule" (DM §5; the rules raise the kubbs an
illegal throw felled), *n* the number of B kubbs the throw felled that count as felled and
*hit* "the target kubb counts as felled":

* ``Throw-v0``, ``reward="target"`` (the default): :data:`KING_PENALTY` if *lost*, else
  :data:`ILLEGAL_PENALTY` if not *legal*, else 1 if *hit*, else 0 (felling another kubb
  earns nothing).
* ``reward="any"`` (``Throw-v0``'s former reward; ``Turn-v0``'s only one): the same penalties,
  else *n*.
* ``dense=w`` (``Throw-v0``, w ≥ 0, default 0) adds −w · d to either, where d (m,
  ``info["closest_m"]``) is the closest 3D approach of the baton to the target during the
  flight: the smallest distance from the target's starting centre to the baton's long axis
  (a segment of the baton's length), from the release to the baton's first contact (or the
  end of the throw if it touched nothing), the 30 Hz samples interpolated linearly in 16
  steps. A baton that touches the kubb's face has d of several centimetres (at least the
  kubb's half-width plus the baton's radius), not 0.

A physics failure scores 0, with no dense term.

Episodes. ``Throw-v0`` ends after its one throw; ``Turn-v0`` after six throws, when every
B kubb is down, or when the king is lost. These ends are ``terminated`` (the episode's state
is final). The registrations set no ``max_episode_steps``: the rules bound both episodes (one
and :data:`BATONS` steps), so no step limit applies (Gymnasium's ``TimeLimit`` wrapper would
mark those natural ends ``truncated`` as well). An episode is ``truncated`` (not terminated)
when the simulation failed (``info["glitch"]``) or when the throw's time limit
(``max_time`` of :func:`kubb3d.throw.throw`, 15 s of simulated time) ended it before
everything was at rest (``info["at_rest"]`` False; the judge rules on that state).

``info`` after a step: ``legal``, ``violations`` (rule, reason), ``felled`` (kubbs this throw
felled that count), ``kubbs_felled`` (``B1``…``B5`` → whether it counts as felled now),
``first_contact`` (piece id or ``ground``), ``rulings`` (the judge's, as dicts),
``game_lost``, the throw's facts ``release`` (the released speed, elevation, azimuth, spin
and tilt in the action's physical units, after any release noise), ``at_rest`` and
``rest_time_s``; ``Throw-v0`` adds ``target``, ``hit``, ``closest_m`` (above) and ``miss_m``
(closest horizontal approach of the baton's centre to the target's centre over the whole
throw, m); ``Turn-v0`` adds ``batons_left`` and ``felled_total``. After a physics failure:
``glitch`` (the message), ``legal`` True and empty lists.

Set-up. Constructor options (both): ``equipment`` (``standard`` or ``dm-small``),
``ground`` (:data:`kubb3d.physics.ground.GROUNDS` but ``board``), ``terrain_cm`` (bump
amplitude of uneven ground, cm; the bumps follow the seed), ``skill``, ``layout``
(``standard``: B's kubbs on their DM §2 spots; ``jitter``: each moved by up to
:data:`JITTER_ALONG_M` along the baseline and :data:`JITTER_ACROSS_M` across it and turned
by up to :data:`JITTER_YAW_DEG` about the vertical, uniformly, from :attr:`np_random`).
``reset(options=…)`` takes ``layout`` (both) and ``target`` (``Throw-v0``) for that episode;
an unknown option raises :class:`~kubb3d.errors.MatchSetupError` (a ValueError).

Seeding follows Gymnasium: ``reset(seed=s)`` seeds :attr:`np_random`, which draws, in this
order, the target of ``Throw-v0`` (unless one is given), the terrain's bumps, the layout's
moves and each step's release noise; the same seed and actions give the same episode, bit
for bit.

Vector environments: one-step episodes need Gymnasium's ``SAME_STEP`` autoreset
(``gymnasium.make_vec(..., vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP})``);
with the default ``NEXT_STEP`` every other step of ``Throw-v0`` is a reset that ignores its
action.

``render_mode="rgb_array"`` draws the position with the viewer's headless OpenGL renderer
(imported only then), an array of shape (height, width, 3), uint8. ``render_mode="rgb_array_list"``
draws the flight: ``render()`` returns the frames since the last ``reset`` or ``render``, a list
of such arrays: the position at the reset, then for every throw one frame per sample of its
trajectory (:data:`FLIGHT_FPS` a second of simulated time: release, flight, bounces, the
pieces coming to rest) and the position after the judge's rulings (what ``rgb_array``
shows). ``metadata["render_fps"]`` is :data:`FLIGHT_FPS`, so a video of the list plays in real
time.
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

from kubb3d.errors import MatchSetupError, ThrowError
from kubb3d.pitch import KING_ID
from kubb3d.ranges import did_you_mean, listed

if TYPE_CHECKING:
    from kubb3d.judge import Pose
    from kubb3d.physics.world import World
    from kubb3d.players import Skill
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
REWARDS = ("target", "any")
"""``Throw-v0``'s rewards (module docstring)."""
ACTIONS = ("normalized", "physical")
"""Action conventions: values in [−1, 1] or in physical units."""
LAYOUTS = ("standard", "jitter")
"""Set-ups of side B's baseline kubbs."""
JITTER_ALONG_M = 0.10
"""``layout="jitter"``: largest move of a B kubb along the baseline (y), m."""
JITTER_ACROSS_M = 0.03
"""``layout="jitter"``: largest move of a B kubb across the baseline (x), m."""
JITTER_YAW_DEG = 20.0
"""``layout="jitter"``: largest turn of a B kubb about the vertical, deg."""
EQUIPMENT = ("standard", "dm-small")
"""Equipment sets with batons (Kubbuteo's disks are flicked, not thrown)."""

ACTION_LOW = np.array((2.0, 0.0, -30.0, -5.0, -30.0), dtype=np.float32)
ACTION_HIGH = np.array((20.0, 60.0, 30.0, 5.0, 30.0), dtype=np.float32)
ACTION_NAMES = ("speed", "elevation_deg", "azimuth_deg", "spin_rps", "tilt_deg")

POSITION_LOW = (-10.0, -10.0, -1.0)
POSITION_HIGH = (10.0, 10.0, 3.0)
"""Bounds of an observed position, m (a piece outside them is reported at the bound)."""

FLIGHT_FPS = 30
"""Frames per second of simulated time in ``rgb_array_list`` (a throw's trajectory samples,
:data:`kubb3d.physics.rest.SAMPLE_INTERVAL`)."""

_SUBSTEPS = 16
"""Linear interpolation steps between two trajectory samples for ``closest_m``."""


def physical_action(normalized) -> np.ndarray:
    """The physical action (5,) float64 (units of the module table) of a normalized one in
    [−1, 1] (clipped to it): ``low + (a + 1) / 2 · (high − low)``."""
    a = np.clip(np.asarray(normalized, dtype=np.float64), -1.0, 1.0)
    low, high = ACTION_LOW.astype(np.float64), ACTION_HIGH.astype(np.float64)
    return low + (a + 1.0) / 2.0 * (high - low)


def normalized_action(physical) -> np.ndarray:
    """The normalized action (5,) float32 in [−1, 1] of a physical one (clipped to the
    physical box); the inverse of :func:`physical_action`."""
    low, high = ACTION_LOW.astype(np.float64), ACTION_HIGH.astype(np.float64)
    p = np.clip(np.asarray(physical, dtype=np.float64), low, high)
    return (2.0 * (p - low) / (high - low) - 1.0).astype(np.float32)


def _pose_bounds(n: int) -> tuple[np.ndarray, np.ndarray]:
    one_lo = np.array(POSITION_LOW + (-1.0,) * 4, dtype=np.float32)
    one_hi = np.array(POSITION_HIGH + (1.0,) * 4, dtype=np.float32)
    return np.tile(one_lo, n), np.tile(one_hi, n)


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise MatchSetupError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def _yawed(q, yaw: float) -> tuple[float, float, float, float]:
    """``q`` (xyzw) turned by ``yaw`` rad about the world vertical."""
    x, y, z, w = q
    s, c = math.sin(yaw / 2.0), math.cos(yaw / 2.0)
    # (0, 0, s, c) ⊗ (x, y, z, w)
    return (c * x - s * y, c * y + s * x, c * z + s * w, c * w - s * z)


def closest_approach(result: ThrowResult, point, baton_length: float) -> float | None:
    """Closest 3D distance, m, from ``point`` (x, y, z) to the thrown baton's long axis (a
    segment of ``baton_length``) from the release to its first contact (the whole throw if
    it touched nothing), the trajectory samples interpolated linearly (centre and axis) in
    16 steps; None without samples."""
    from kubb3d.snapshot import body_axis

    poses = result.trajectory.poses.get(result.piece)
    if poses is None or len(poses) == 0:
        return None
    times = np.asarray(result.trajectory.times, dtype=np.float64)
    centres = poses[:, :3].astype(np.float64)
    axes = np.array([body_axis(q) for q in poses[:, 3:7]], dtype=np.float64)
    if len(poses) > 1:
        f = np.linspace(0.0, 1.0, _SUBSTEPS, endpoint=False)[None, :, None]
        centres = np.concatenate(((centres[:-1, None] * (1 - f) + centres[1:, None] * f).reshape(-1, 3), centres[-1:]))
        axes = np.concatenate(((axes[:-1, None] * (1 - f) + axes[1:, None] * f).reshape(-1, 3), axes[-1:]))
        times = np.concatenate(((times[:-1, None] * (1 - f[..., 0]) + times[1:, None] * f[..., 0]).ravel(), times[-1:]))
    if result.first_contact is not None:
        keep = times <= result.first_contact.time + 1e-9
        keep[0] = True
        centres, axes = centres[keep], axes[keep]
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    rel = np.asarray(point, dtype=np.float64)[None, :] - centres
    along = np.clip(np.einsum("ij,ij->i", rel, axes), -baton_length / 2.0, baton_length / 2.0)
    return float(np.min(np.linalg.norm(rel - along[:, None] * axes, axis=1)))


class _KubbEnv(gym.Env):
    """What both environments share: the world, the throw, the judge and the renderer."""

    metadata = {"render_modes": ["rgb_array", "rgb_array_list"], "render_fps": FLIGHT_FPS}
    _reset_options: tuple[str, ...] = ("layout",)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        ruleset: str = "dm",
        equipment: str = "standard",
        ground: str = "grass",
        terrain_cm: float = 0.0,
        skill: str | None = None,
        layout: str = "standard",
        actions: str = "normalized",
        width: int = 480,
        height: int = 360,
    ) -> None:
        from kubb3d.physics.ground import GROUNDS
        from kubb3d.players import SKILLS

        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MatchSetupError(f"render_mode must be None, 'rgb_array' or 'rgb_array_list', got {render_mode!r}")
        if ruleset != "dm":
            raise MatchSetupError(f"only the dm ruleset is available in the environments, got {ruleset!r}")
        if not (isinstance(terrain_cm, (int, float)) and math.isfinite(terrain_cm) and terrain_cm >= 0):
            raise MatchSetupError(f"terrain_cm must be a number >= 0, got {terrain_cm!r}")
        self.render_mode = render_mode
        self.ruleset = ruleset
        self.equipment = _choice("equipment", equipment, EQUIPMENT)
        self.ground = _choice("ground", ground, tuple(g for g in GROUNDS if g != "board"))
        self.terrain_cm = float(terrain_cm)
        self.skill: Skill | None = None
        if skill is not None:
            self.skill = SKILLS[_choice("skill", skill, (*SKILLS,))]
        self.layout = _choice("layout", layout, LAYOUTS)
        self.actions = _choice("actions", actions, ACTIONS)
        self.size = (int(width), int(height))
        if self.actions == "normalized":
            self.action_space = spaces.Box(-1.0, 1.0, shape=(5,), dtype=np.float32)
        else:
            self.action_space = spaces.Box(ACTION_LOW, ACTION_HIGH, dtype=np.float32)
        self.world: World | None = None
        self.last_result: ThrowResult | None = None
        self._renderer: Any = None
        self._frames: list[np.ndarray] = []
        self._over = True

    # ------------------------------------------------------------------ helpers
    @property
    def _w(self) -> World:
        """The episode's world (RuntimeError before the first ``reset``)."""
        if self.world is None:
            raise RuntimeError("call reset() before step()")
        return self.world

    def _options(self, options: dict | None) -> dict:
        """The reset options, checked (MatchSetupError naming an unknown one)."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self._reset_options))
        if unknown:
            raise MatchSetupError(
                f"unknown reset option(s) {listed(unknown)}{did_you_mean(unknown[0], self._reset_options)}"
                f"; expected some of {listed(list(self._reset_options))}"
            )
        if "layout" in options:
            _choice("layout", options["layout"], LAYOUTS)
        if "target" in options and options["target"] is not None:
            _choice("target", options["target"], TARGETS)
        return options

    def _new_world(self, layout: str) -> None:
        from kubb3d.physics.world import Terrain, World, settle_setup

        if self.world is not None:
            self.world.close()
        terrain = None
        if self.terrain_cm > 0:
            terrain = Terrain(self.terrain_cm / 100.0, seed=int(self.np_random.integers(0, 2**31 - 1)))
        self.world = World.standard(self.equipment, ground=self.ground, terrain=terrain)
        if layout == "jitter":
            for pid in TARGETS:
                pos, q = self.world.pose(pid)
                dx, dy, yaw = self.np_random.uniform(-1.0, 1.0, 3) * (
                    JITTER_ACROSS_M,
                    JITTER_ALONG_M,
                    math.radians(JITTER_YAW_DEG),
                )
                x, y = float(pos[0] + dx), float(pos[1] + dy)
                if terrain is not None:  # set flush into the ground (docs/physics.md "Setting up on uneven ground")
                    turn = (0.0, 0.0, math.sin(float(yaw) / 2), math.cos(float(yaw) / 2))
                    position, quat = self.world.engine.surface.standing_pose("kubb", x, y, turn)
                    self.world.set_pose(pid, position, quat, wake=False)
                    continue
                quat = _yawed(q, float(yaw))
                self.world.set_pose(pid, (x, y, self.world.height_on_ground("kubb", x, y, quat)), quat, wake=False)
            if terrain is not None:
                settle_setup(self.world)
        self.thrown = 0
        self.felled: set[str] = set()
        self.round_start = {pid: self._pose(pid) for pid in self._w.piece_ids("kubb", "king")}
        self._over = False
        self._frames = []
        if self.render_mode == "rgb_array_list":
            self._frames.append(self._draw(self._w.snapshot()))

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

    def _throw(self, action: np.ndarray) -> tuple[dict[str, Any], bool]:
        """Throw the next baton; returns (info, truncated). ``info`` holds the module's step
        keys and ``_new``, the number of B kubbs newly counted as felled."""
        from kubb3d.judge import ThrowContext, judge_throw
        from kubb3d.physics.world import PhysicsGlitch
        from kubb3d.throw import ThrowParams, throw

        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        a = np.asarray(action, dtype=np.float64).reshape(-1)
        if a.shape != (5,) or not np.all(np.isfinite(a)):
            raise ThrowError(f"action must be 5 finite numbers {ACTION_NAMES}, got {action!r}")
        a = physical_action(a) if self.actions == "normalized" else np.clip(a, ACTION_LOW, ACTION_HIGH)
        params = ThrowParams(
            side="A",
            speed=float(a[0]),
            elevation_deg=float(a[1]),
            azimuth_deg=float(a[2]),
            spin_rps=float(a[3]),
            tilt_deg=float(a[4]),
        )
        if self.skill is not None:
            params = self.skill.perturb(params, self.np_random)
        release = {name: float(getattr(params, name)) for name in ACTION_NAMES}
        self.thrown += 1
        baton = f"baton{self.thrown}"
        self.last_result = None  # the ThrowResult of the last step (kubb3d.throw.ThrowResult)
        try:
            res = throw(self._w, params, baton=baton, ruleset=self.ruleset)
            self.last_result = res
        except PhysicsGlitch as exc:
            # a physics failure is nobody's throw: no reward, the episode is cut short
            return {
                "glitch": str(exc),
                "legal": True,
                "violations": [],
                "felled": [],
                "kubbs_felled": {pid: pid in self.felled for pid in TARGETS},
                "first_contact": None,
                "rulings": [],
                "game_lost": False,
                "release": release,
                "at_rest": False,
                "rest_time_s": None,
                "_new": 0,
            }, True
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
        if self.render_mode == "rgb_array_list":
            self._draw_flight(res)
        info = {
            "legal": res.legal,
            "violations": [{"rule": v.rule, "reason": v.reason} for v in res.violations],
            "felled": sorted(new),
            "kubbs_felled": {pid: pid in self.felled for pid in TARGETS},
            "first_contact": None if res.first_contact is None else res.first_contact.piece,
            "rulings": [r.to_dict() for r in j.rulings],
            "game_lost": j.loser == "A",
            "release": release,
            "at_rest": bool(res.at_rest),
            "rest_time_s": float(res.rest_time),
            "_new": len(new & set(TARGETS)),
        }
        return info, not res.at_rest

    @staticmethod
    def _penalty(info: dict[str, Any]) -> float | None:
        """The penalty of the throw (module docstring), None if it earned none."""
        if info["game_lost"]:
            return KING_PENALTY
        return None if info["legal"] else ILLEGAL_PENALTY

    # ------------------------------------------------------------------ Gymnasium API
    def render(self):
        """``rgb_array``: the current position as an RGB array (height, width, 3), uint8;
        ``rgb_array_list``: the frames since the last reset or render, a list of such arrays
        (module docstring); None without a render mode."""
        if self.render_mode == "rgb_array_list":
            frames, self._frames = self._frames, []
            return frames
        if self.render_mode != "rgb_array" or self.world is None:
            return None
        return self._draw(self.world.snapshot())

    def _draw(self, snap) -> np.ndarray:
        if self._renderer is None:
            from kubb3d.viewer.still import StillRenderer

            self._renderer = StillRenderer(snap, self._w.equipment.name, *self.size, camera="orbit", focus=PIECES)
        return self._renderer.render(snap)

    def _draw_flight(self, result: ThrowResult) -> None:
        """Add a frame per trajectory sample of ``result`` (the pieces that did not move where
        they rest) and one of the position now to the ``rgb_array_list`` frames."""
        from dataclasses import replace

        traj = result.trajectory
        final = result.final
        for i in range(len(traj.times)):
            pieces = dict(final.pieces)
            for pid, arr in traj.poses.items():
                if pid in pieces and len(arr):
                    row = arr[min(i, len(arr) - 1)]
                    pieces[pid] = replace(
                        pieces[pid],
                        position=(float(row[0]), float(row[1]), float(row[2])),
                        quat_xyzw=(float(row[3]), float(row[4]), float(row[5]), float(row[6])),
                    )
            self._frames.append(self._draw(replace(final, pieces=pieces)))
        self._frames.append(self._draw(self._w.snapshot()))

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
        render_mode: None, ``"rgb_array"`` or ``"rgb_array_list"`` (the flight, module docstring).
        target: the kubb to aim at (``B1``…``B5``); None: drawn by :attr:`np_random` at
            each reset (``reset(options={"target": …})`` overrides it for one episode).
        reward: ``"target"`` or ``"any"``; dense: the weight w ≥ 0 of the dense term
            (formulas in the module docstring).
        ruleset, equipment, ground, terrain_cm, skill, layout, actions: the game (only
            ``dm``) and the set-up (module docstring).
        width, height: rendered image size, px.

    Raises:
        MatchSetupError: an unknown value of any of them.
    """

    _reset_options = ("layout", "target")

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        target: str | None = None,
        reward: str = "target",
        dense: float = 0.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(render_mode, **kwargs)
        if target is not None:
            _choice("target", target, TARGETS)
        self.reward = _choice("reward", reward, REWARDS)
        if not (isinstance(dense, (int, float)) and math.isfinite(dense) and dense >= 0):
            raise MatchSetupError(f"dense must be a number >= 0, got {dense!r}")
        self.dense = float(dense)
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
        opts = self._options(options)
        target = opts.get("target") or self.fixed_target
        self.target = target or TARGETS[int(self.np_random.integers(len(TARGETS)))]
        self._new_world(opts.get("layout", self.layout))
        self._target_xyz = np.asarray(self._w.pose(self.target)[0], dtype=np.float32)
        return self._obs(), {"target": self.target}

    def step(self, action):
        info, truncated = self._throw(action)
        self._over = True
        new = info.pop("_new")
        hit = self.target in info["felled"]
        closest = None
        if self.last_result is not None:
            closest = closest_approach(self.last_result, self._target_xyz, self._w.equipment.baton.length)
        penalty = self._penalty(info)
        if "glitch" in info:
            reward = 0.0
        else:
            if penalty is not None:
                reward = penalty
            else:
                reward = float(hit) if self.reward == "target" else float(new)
            if self.dense > 0 and closest is not None:
                reward -= self.dense * closest
        info.update(target=self.target, hit=hit, closest_m=closest, miss_m=self._miss())
        return self._obs(), float(reward), not truncated, truncated, info


class TurnEnv(_KubbEnv):
    """``kubb3d/Turn-v0``: a whole turn, six batons against side B's five baseline kubbs and
    the king; each step throws one baton, the judge's rulings decide its reward (``"any"``).

    Batons stay where they came to rest (as on a real pitch until the turn ends); kubbs the
    judge rules felled stay down, pieces it says to raise at once are stood up again at
    their spot.

    Args:
        render_mode, ruleset, equipment, ground, terrain_cm, skill, layout, actions, width,
            height: as :class:`ThrowEnv`.
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
        opts = self._options(options)
        self._new_world(opts.get("layout", self.layout))
        return self._obs(), {"batons_left": BATONS}

    def step(self, action):
        info, truncated = self._throw(action)
        new = info.pop("_new")
        penalty = self._penalty(info)
        reward = 0.0 if "glitch" in info else (penalty if penalty is not None else float(new))
        cleared = set(TARGETS) <= self.felled
        terminated = info["game_lost"] or cleared or self.thrown >= BATONS
        self._over = terminated or truncated
        info["batons_left"] = BATONS - self.thrown
        info["felled_total"] = sorted(self.felled)
        return self._obs(), float(reward), bool(terminated), truncated, info


def register_envs() -> None:
    """Register ``kubb3d/Throw-v0`` and ``kubb3d/Turn-v0`` with Gymnasium (idempotent)."""
    registry = gym.envs.registration.registry
    if "kubb3d/Throw-v0" not in registry:
        gym.register(id="kubb3d/Throw-v0", entry_point="kubb3d.envs:ThrowEnv")
    if "kubb3d/Turn-v0" not in registry:
        gym.register(id="kubb3d/Turn-v0", entry_point="kubb3d.envs:TurnEnv")


register_envs()
