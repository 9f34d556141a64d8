"""The PettingZoo match environment (kubb3d.envs.match_env, docs/envs.md): PettingZoo's own
API test, whole DM matches between random and baseline agents, bit for bit for a seed, and
the baseline agents' match against the match ``kubb3d match`` plays."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from kubb3d.envs import match_env as M  # noqa: E402
from kubb3d.errors import IllegalAction, MatchSetupError, UnknownNameError  # noqa: E402

# What api_test says about any environment with action masks (PettingZoo's own chess gets
# the same): Dict spaces, a dict observation, and agents named like players rather than
# "player_0". Anything else it says is a defect of ours (docs/envs.md "Checks").
KNOWN_API_WARNINGS = {
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Action space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    'We recommend agents to be named in the format <descriptor>_<number>, like "player_0"',
    "Observation is not a NumPy array",
    "the match environment takes no reset options; ignored options",
}


def _play(env, agent, seed, max_steps=None):
    """Play the match of ``seed`` with ``agent(observation)`` for both players (the whole match,
    or ``max_steps`` steps); returns the observations and rewards seen (in order), the env and
    the throw records of every step."""
    env.reset(seed=seed)
    seen, throws = [], []
    for name in env.agent_iter(max_steps or 2**63):
        obs, reward, terminated, truncated, info = env.last()
        seen.append((name, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        env.step(None if terminated or truncated else agent(obs))
        if not (terminated or truncated):
            throws.append(env.infos[name]["throws"])  # trajectories, releases, legality
    return seen, env, throws


def test_api_test_passes_with_only_the_known_warnings():
    env = M.KubbMatchEnv()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=10)
    env.close()
    assert {str(w.message) for w in caught} <= KNOWN_API_WARNINGS


def test_baseline_agents_play_the_match_kubb3d_match_plays(match_app):
    """aim 0 and the player's own target: the simulated players' match of the same seed, action
    for action and outcome for outcome (rest poses to the bit), as ``kubb3d match --json`` says."""
    import json

    from typer.testing import CliRunner

    from kubb3d.cli.match import match_document

    env = M.KubbMatchEnv(skills=("club", "elite"))
    seen, env, _ = _play(env, M.baseline_agent, 4)
    done = CliRunner().invoke(match_app, ["match", "--players", "club,elite", "--seed", "4", "--json"])
    assert done.exit_code == 0, done.output
    cli = json.loads(done.stdout)
    ours = json.loads(json.dumps(match_document(env.match, env.match.state.outcome())))
    assert ours["actions"] == cli["actions"] and ours["events"] == cli["events"] and ours["outcome"] == cli["outcome"]
    history = env.match.state.history
    throws = [a for a, _ in history if type(a).__name__ in ("LagThrow", "BatonThrow", "KingThrow")]
    inkasts = [a for a, _ in history if type(a).__name__ in ("Inkast", "PenaltyThrow")]
    decisions = [name for name, *_ in seen[:-2]]
    # one agent decision per throw and inkast; the other actions (choices, placing) are the match's
    assert len(decisions) == len(throws) + len(inkasts) and len(history) == len(cli["actions"]) > len(decisions)
    # the last two entries are the terminated agents: +1 for the winner, -1 for the loser
    final = {name: reward for name, _, _, reward in seen[-2:]}
    winner = cli["outcome"]["winner"]
    assert final == {winner: 1.0, next(p for p in ("P1", "P2") if p != winner): -1.0}
    env.close()


def test_random_agents_play_a_whole_match_the_same_twice_and_differently_otherwise():
    def random_with(seed):
        rng = np.random.default_rng(seed)
        return lambda obs: M.random_agent(obs, rng)

    runs = []
    # match seed 4 with agent seed 5: 100 decisions (match seeds 0-5 take 100 to 368)
    for agent_seed, steps in ((5, None), (5, None), (6, 12)):
        env = M.KubbMatchEnv()
        seen, env, throws = _play(env, random_with(agent_seed), 4, steps)
        runs.append((seen, env.match.state.history, env.match.state.outcome(), throws))
        env.close()
    assert runs[0] == runs[1]
    assert runs[0][2] is not None and runs[0][2].winner in ("P1", "P2")
    assert len(runs[0][0]) > 50 and sum(len(t) for t in runs[0][3]) > 50
    # other agents, another match from their first throws on
    assert runs[2][0][:12] != runs[0][0][:12] and runs[2][1] != runs[0][1][: len(runs[2][1])]


def test_observations_are_in_the_agents_own_frame():
    """Before the first set (the lag) the pieces stand at the DM set-up: each agent's own kubbs
    on its baseline at x = -4 m, the opponent's at +4 m, the king at the centre, whichever end."""
    env = M.KubbMatchEnv()
    env.reset(seed=3)
    for agent in env.agents:
        vec = env.observe(agent)["observation"]
        slots = vec[: M.SLOTS * M.SLOT_SIZE].reshape(M.SLOTS, M.SLOT_SIZE)
        assert np.allclose(slots[:5, 0], -4.0) and np.allclose(slots[5:10, 0], 4.0)
        assert slots[10, 0] == 0.0 and np.all(slots[:5, 9] == 1) and np.all(slots[5:10, 9] == 0)
        assert np.all(slots[:, 7] == 1) and np.all(slots[:, 10] == 1)  # standing, upright
    p1, p2 = (env.observe(a)["observation"] for a in ("P1", "P2"))
    assert p1[M.OBS_SIZE - M.SCALARS + 1] == 0.0 and p2[M.OBS_SIZE - M.SCALARS + 1] == 1.0
    env.close()


def test_aim_moves_the_lag_throw_by_its_span_and_sets_the_elevation():
    """a0 = +1 moves the lag's aim point 1 m (BATON_SPAN_M) forward: the baton comes to rest
    about 1 m further on than the player's own lag of the same seed; a2 sets the elevation."""
    rest = {}
    for a0, a2 in ((0.0, 0.0), (1.0, 0.5)):
        env = M.KubbMatchEnv(skills=("elite", "elite"))
        env.reset(seed=4)
        env.step({"target": M.KING_SLOT, "aim": np.array([a0, 0.0, a2], dtype=np.float32)})
        info = env.infos["P1"]
        assert info["decision"] == "lag" and not info["aim_clamped"]
        throw = info["throws"][0]
        assert throw["intended"]["elevation_deg"] == pytest.approx(22.0 + 18.0 * a2)
        rest[a0] = throw["trajectory"]["poses"]["baton1"][-1][0]
        env.close()
    assert 0.6 < rest[1.0] - rest[0.0] < 1.4


def test_illegal_actions_are_refused_with_a_clear_error():
    env = M.KubbMatchEnv()
    env.reset(seed=0)
    with pytest.raises(IllegalAction, match=r"target slot 3 is not legal now; legal slots are \[10\]"):
        env.step({"target": 3, "aim": np.zeros(3)})
    with pytest.raises(IllegalAction, match="must be a dict with 'target' and 'aim'"):
        env.step(np.zeros(4))
    with pytest.raises(IllegalAction, match="aim must be 3 finite numbers"):
        env.step({"target": 10, "aim": [0.0, np.nan, 0.0]})
    with pytest.raises(MatchSetupError, match="actions must be one of"):
        M.KubbMatchEnv(actions="box")
    with pytest.raises(MatchSetupError, match="plays only"):
        M.KubbMatchEnv(ruleset="kubbuteo")
    with pytest.raises(UnknownNameError, match="unknown skill"):
        M.KubbMatchEnv(skills=("pro", "club"))
    env.close()


def test_without_pettingzoo_the_error_names_the_extra():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pettingzoo':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import kubb3d.envs.match_env\n"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: kubb3d.envs.match_env needs PettingZoo, which kubb3d's 'gym' extra installs: "
        "pip install 'kubb3d[gym]'"
    )


DOC = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs" / "envs.md"


def test_the_docs_spans_are_the_modules():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- match-env-spans")[1].split("\n\n")[0]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = float(cells[1].split()[0].rstrip("°"))
    names = ("BATON_SPAN_M", "BATON_ELEVATION_SPAN_DEG", "KUBB_SPAN_M", "KUBB_ELEVATION_SPAN_DEG", "AHEAD_M", "EDGE_M")
    assert rows == {name: getattr(M, name) for name in names}


def test_the_docs_example_plays_a_match(capsys):
    code = DOC.read_text(encoding="utf-8").split("```python\n")[1].split("```")[0]
    exec(compile(code, str(DOC), "exec"), {})
    lines = capsys.readouterr().out.split("\n")
    # both agents are told the end: +1 for one, -1 for the other
    assert sorted(lines[:2]) == ["P1 -1.0", "P2 1.0"] or sorted(lines[:2]) == ["P1 1.0", "P2 -1.0"]


def test_reset_without_a_seed_follows_the_last_seed():
    """reset(seed=s) plays MatchConfig(seed=s); later resets draw their seeds from s."""
    seeds = []
    for _ in range(2):
        env = M.KubbMatchEnv()
        env.reset(seed=3)
        first = env.match.config.seed
        env.reset()
        seeds.append((first, env.match.config.seed))
        env.close()
    assert seeds[0] == seeds[1] and seeds[0][0] == 3 and seeds[0][1] != 3
    with pytest.raises(MatchSetupError, match="seed must be an integer >= 0"):
        M.KubbMatchEnv().reset(seed=-1)


def test_rgb_array_draws_the_pitch_once_the_first_set_has_started():
    pytest.importorskip("pyglet")
    env = M.KubbMatchEnv(render_mode="rgb_array", width=64, height=48)
    env.reset(seed=4)
    assert env.render() is None  # the lag throws have worlds of their own
    while env.match.world is None:
        env.step(M.baseline_agent(env.last()[0]))
    img = env.render()
    env.close()
    assert img.shape == (48, 64, 3) and img.dtype == np.uint8
    g = img.reshape(-1, 3).astype(int)
    assert ((g[:, 1] > g[:, 0] + 15) & (g[:, 1] > g[:, 2] + 15)).mean() > 0.3  # mostly grass


def test_flat_actions_pick_the_best_scored_legal_target_and_pass_api_test():
    mask = np.zeros(M.SLOTS, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    scores = np.full(M.SLOTS + 3, -1.0)
    scores[0] = 1.0  # the best score, but not legal
    scores[5] = scores[7] = 0.5  # a tie: the lower slot
    scores[M.SLOTS :] = (0.25, -0.5, 1.0)
    action = M.flat_to_dict(scores, mask)
    assert action["target"] == 5 and np.array_equal(action["aim"], np.float32([0.25, -0.5, 1.0]))
    with pytest.raises(IllegalAction, match="14 finite numbers"):
        M.flat_to_dict(scores[:5], mask)
    # the flat env plays the match of the dict env fed the same actions converted
    rng = np.random.default_rng(1)
    flat, plain = M.KubbMatchEnv(actions="flat"), M.KubbMatchEnv()
    flat.reset(seed=4)
    plain.reset(seed=4)
    for _ in range(10):
        obs = flat.last()[0]
        vec = rng.uniform(-1.0, 1.0, M.SLOTS + 3).astype(np.float32)
        flat.step(vec)
        plain.step(M.flat_to_dict(vec, obs["action_mask"]))
    assert flat.match.state.history == plain.match.state.history and len(flat.match.state.history) >= 10
    flat.close()
    plain.close()
    env = M.KubbMatchEnv(actions="flat")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=5)
    env.close()
    assert {str(w.message) for w in caught} <= KNOWN_API_WARNINGS


def test_aim_moves_an_inkast_group_to_the_throwers_left():
    """a1 = +0.5 moves every landing spot of an inkast KUBB_SPAN_M / 2 to the thrower's left (in
    his own frame; here from end B, where that is -y): the kubbs come to rest about 1 m further
    left than the player's own group of the same seed. The player aims his group at +y from
    either end (kubb3d.players), on this thrower's right: a1 = -1 would move it 2 m beyond that
    sideline and is kept inside."""
    rest, clamped = {}, {}
    for a1 in (0.0, 0.5, -1.0):
        env = M.KubbMatchEnv(skills=("elite", "elite"))
        env.reset(seed=4)
        while True:
            obs = env.last()[0]
            kind = M.DECISIONS[int(np.argmax(obs["observation"][M.SLOTS * M.SLOT_SIZE + M.BATONS * 4 :][:5]))]
            if kind == "inkast" and env.match.state.end_of[env.agent_selection] == "B":
                break  # (end B: the frame turned by 180°)
            env.step(M.baseline_agent(obs))
        agent = env.agent_selection
        left = env.match.pitch.forward(env.match.state.end_of[agent])  # +y is A's left, -y B's
        env.step({"target": M.KING_SLOT, "aim": np.array([0.0, a1, 0.0], dtype=np.float32)})
        info = env.infos[agent]
        assert info["decision"] == "inkast"
        ys = [t["trajectory"]["poses"][t["piece"]][-1][1] for t in info["throws"]]
        rest[a1], clamped[a1] = left * np.mean(ys), info["aim_clamped"]
        env.close()
    assert 0.6 < rest[0.5] - rest[0.0] < 1.4
    assert clamped == {0.0: False, 0.5: False, -1.0: True}
