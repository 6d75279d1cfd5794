"""The RL environments, with and without gymnasium / pettingzoo installed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kassen
from kassen.envs import KassenAECEnv, KassenEnv


def run_single(env, seed):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    rng = np.random.default_rng(seed)
    while True:
        assert obs.shape == env.game.observation_shape() and obs.dtype == np.float32
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.any()
        np.testing.assert_array_equal(mask, env.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not truncated
        if terminated:
            break
    assert total == env.state.returns()[env.agent]
    return steps, total


@pytest.mark.parametrize("gid,config,agent", [
    ("samurai", {"players": 2}, 0), ("samurai", {"players": 3}, 2), ("samurai", {"players": 4}, 1),
    ("sekigahara", {}, 0), ("sekigahara", {}, 1),
])
def test_single_agent_env(gid, config, agent):
    env = KassenEnv(gid, config, agent=agent)
    a = run_single(env, 7)
    b = run_single(env, 7)
    assert a == b, "same seed, same episode"


@pytest.mark.parametrize("gid", ["samurai", "sekigahara"])
def test_single_agent_env_illegal_action_rejected(gid):
    env = KassenEnv(gid)
    env.reset(seed=0)
    before = env.state.clone()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(kassen.IllegalActionError):
        env.step(illegal)
    assert env.state == before


@pytest.mark.parametrize("gid,config", [("samurai", {"players": 2}), ("sekigahara", {})])
def test_single_agent_env_explicit_chance(gid, config):
    env = KassenEnv(gid, {**config, "explicit_chance": True}, agent=1)
    steps, _ = run_single(env, 3)
    assert steps > 0


def run_aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert set(obs) == {"observation", "action_mask"}
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert env.agents == []
    return steps, env.state.returns()


@pytest.mark.parametrize("gid,config", [
    ("samurai", {"players": 2}), ("samurai", {"players": 3}), ("samurai", {"players": 4}), ("sekigahara", {}),
])
def test_aec_env(gid, config):
    env = KassenAECEnv(gid, config)
    players = env.game.num_players()
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    steps, returns = run_aec(env, 1)
    assert steps > 0 and len(returns) == players
    assert run_aec(env, 1) == (steps, returns)


@pytest.mark.parametrize("gid,config", [("samurai", {"players": 3}), ("sekigahara", {})])
def test_aec_rewards_sum_to_returns(gid, config):
    env = KassenAECEnv(gid, config)
    env.reset(seed=4)
    got = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [got[a] for a in env.possible_agents] == env.state.returns()


@pytest.mark.parametrize("gid", ["samurai", "sekigahara"])
def test_gymnasium_check_env(gid):
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    class FoldsIllegal(KassenEnv):
        # check_env steps with action_space.sample(), some drawn before it resets the env; an
        # env with masks rejects illegal ids (IllegalActionError), so this one maps an illegal
        # id onto a legal one, deterministically.
        def step(self, action):
            mask = self.action_masks()
            if not mask[action]:
                legal = np.flatnonzero(mask)
                action = int(legal[int(action) % len(legal)])
            return super().step(action)

    env = FoldsIllegal(gid)
    assert isinstance(env, gym.Env)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("gid,config", [("samurai", {"players": 3}), ("sekigahara", {})])
def test_pettingzoo_api_test(gid, config):
    pz = pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    env = KassenAECEnv(gid, config)
    assert isinstance(env, pz.AECEnv)
    api_test(env, num_cycles=200)


def test_envs_work_without_gymnasium_and_pettingzoo():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["gymnasium"] = None    # make `import gymnasium` fail
        sys.modules["pettingzoo"] = None
        import numpy as np
        from kassen.envs import KassenEnv, KassenAECEnv, spaces
        assert not spaces.HAVE_GYMNASIUM
        env = KassenEnv("samurai", {"players": 3}, agent=1)
        assert type(env).__mro__[1] is object
        obs, info = env.reset(seed=2)
        assert env.observation_space.contains(obs) and env.action_space.n > 0
        done = False
        while not done:
            a = env.action_space.sample(mask=info["action_mask"])
            obs, r, done, trunc, info = env.step(a)
        aec = KassenAECEnv("sekigahara")
        aec.reset(seed=1)
        for agent in aec.agent_iter():
            obs, r, term, trunc, info = aec.last()
            assert aec.observation_space(agent).contains(obs)
            aec.step(None if term or trunc else aec.action_space(agent).sample(mask=obs["action_mask"]))
        assert aec.agents == []
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout + out.stderr
