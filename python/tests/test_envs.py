"""The RL environments on every registered game and config, with and without gymnasium /
pettingzoo installed (the third-party checkers are in test_env_checkers.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kassen
from conftest import CONFIGS, config_id
from kassen.envs import MASK_DTYPE, KassenAECEnv, KassenEnv, KassenParallelEnv
from kassen.envs.common import FALLBACK_PENALTY

#: Long enough for whole games of most configs, short enough to bound the slow ones.
STEP_LIMIT = 400


def learner_seat(config) -> int:
    """A seat that is not always 0: the last one."""
    return kassen.load_game(*config).num_players() - 1


def worst_return(game) -> float:
    """The default illegal-action penalty: the game's minimum utility, if it declares one."""
    utility = game.info().get("utility")
    return FALLBACK_PENALTY if utility is None else utility["min"]


def illegal_id(mask) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def run_single(env, seed):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    rng = np.random.default_rng(seed)
    while True:
        assert env.observation_space.contains(obs), "observation outside its declared bounds"
        mask = info["action_mask"]
        assert mask.dtype == MASK_DTYPE and mask.any()
        np.testing.assert_array_equal(mask, env.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert terminated == env.state.is_terminal()
    assert total == env.state.returns()[env.agent]
    return steps, total, terminated


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_single_agent_env(config):
    env = KassenEnv(*config, agent=learner_seat(config), max_episode_steps=STEP_LIMIT)
    a = run_single(env, 7)
    assert a == run_single(env, 7), "same seed, same episode"
    steps, _, terminated = a
    assert terminated or steps == STEP_LIMIT


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_single_agent_env_truncates(config):
    env = KassenEnv(*config, max_episode_steps=3)
    steps, _, terminated = run_single(env, 1)
    assert steps == 3 and not terminated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_single_agent_env_illegal_action_raises(config):
    env = KassenEnv(*config, illegal_action="raise")
    env.reset(seed=0)
    before = env.state.clone()
    with pytest.raises(kassen.IllegalActionError) as e:
        env.step(illegal_id(env.action_masks()))
    assert e.value.code == 200 and env.state == before


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_single_agent_env_illegal_action_penalized(config):
    env = KassenEnv(*config)
    assert env.illegal_action == "penalize"
    env.reset(seed=0)
    before = env.state.clone()
    obs, reward, terminated, truncated, info = env.step(illegal_id(env.action_masks()))
    assert (reward, terminated, truncated, info["illegal_action"]) == (
        worst_return(kassen.load_game(*config)), True, False, True)
    assert env.state == before and env.observation_space.contains(obs)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    custom = KassenEnv(*config, illegal_action_penalty=-7.5)
    custom.reset(seed=0)
    assert custom.step(illegal_id(custom.action_masks()))[1] == -7.5


def test_env_options_are_checked():
    with pytest.raises(ValueError, match="illegal_action"):
        KassenEnv("samurai", illegal_action="ignore")
    with pytest.raises(ValueError, match="max_episode_steps"):
        KassenAECEnv("samurai", max_episode_steps=0)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_single_agent_env_explicit_chance(config):
    gid, cfg = config
    env = KassenEnv(gid, {**cfg, "explicit_chance": True}, agent=learner_seat(config),
                    max_episode_steps=STEP_LIMIT)
    steps, _, _ = run_single(env, 3)
    assert steps > 0


def run_aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    got = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        got[agent] += reward
        assert env.observation_space(agent).contains(obs)
        assert env.state_space.contains(env.state())
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == MASK_DTYPE and obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert env.agents == []
    if env.game_state.is_terminal():
        assert [got[a] for a in env.possible_agents] == env.game_state.returns()
    return steps, env.game_state.returns()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_env(config):
    env = KassenAECEnv(*config, max_episode_steps=STEP_LIMIT)
    players = env.game.num_players()
    assert env.possible_agents == [f"player_{i}" for i in range(players)]
    steps, returns = run_aec(env, 1)
    assert 0 < steps <= STEP_LIMIT and len(returns) == players
    assert run_aec(env, 1) == (steps, returns)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_state_is_every_seat_observation(config):
    env = KassenAECEnv(*config)
    env.reset(seed=2)
    s = env.game_state
    expected = np.concatenate([s.compact_observation(p) for p in range(env.game.num_players())])
    np.testing.assert_array_equal(env.state(), expected)
    assert env.state().shape == env.state_space.shape


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_illegal_action_penalized(config):
    env = KassenAECEnv(*config)
    env.reset(seed=0)
    before = env.game_state.clone()
    offender = env.agent_selection
    env.step(illegal_id(env.observe(offender)["action_mask"]))
    assert env.game_state == before
    assert all(env.terminations.values())
    penalty = worst_return(env.game)
    assert env._cumulative_rewards == {a: penalty if a == offender else 0.0 for a in env.possible_agents}
    assert env.infos[offender]["illegal_action"] is True
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_illegal_action_raises(config):
    env = KassenAECEnv(*config, illegal_action="raise")
    env.reset(seed=0)
    before = env.game_state.clone()
    with pytest.raises(kassen.IllegalActionError):
        env.step(illegal_id(env.observe(env.agent_selection)["action_mask"]))
    assert env.game_state == before and not any(env.terminations.values())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_aec_truncates(config):
    env = KassenAECEnv(*config, max_episode_steps=5)
    steps, _ = run_aec(env, 3)
    assert steps == 5


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_parallel_env_matches_aec(config):
    par = KassenParallelEnv(*config, max_episode_steps=STEP_LIMIT)
    aec = KassenAECEnv(*config, max_episode_steps=STEP_LIMIT)
    aec_steps, aec_returns = run_aec(aec, 5)
    obs, _ = par.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while par.agents:
        # The same draw as run_aec: one per decision, from the mover's mask.
        mover = next(a for a in par.agents if obs[a]["action_mask"].any())
        actions = {a: 0 for a in par.agents}
        actions[mover] = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        obs, rewards, terms, truncs, infos = par.step(actions)
        steps += 1
    assert (steps, par.game_state.returns()) == (aec_steps, aec_returns)


def test_envs_work_without_gymnasium_and_pettingzoo():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["gymnasium"] = None    # make `import gymnasium` fail
        sys.modules["pettingzoo"] = None
        import numpy as np
        import kassen
        from kassen.envs import KassenEnv, KassenAECEnv, KassenParallelEnv, spaces
        assert not spaces.HAVE_GYMNASIUM
        for gid in sorted(kassen.games()):
            env = KassenEnv(gid, agent=1, max_episode_steps=200)
            assert type(env).__mro__[1] is object
            obs, info = env.reset(seed=2)
            assert env.observation_space.contains(obs) and env.action_space.n > 0
            done = False
            while not done:
                a = env.action_space.sample(mask=info["action_mask"])
                obs, r, term, trunc, info = env.step(a)
                assert env.observation_space.contains(obs)
                done = term or trunc
            aec = KassenAECEnv(gid, max_episode_steps=200)
            aec.reset(seed=1)
            for agent in aec.agent_iter():
                obs, r, term, trunc, info = aec.last()
                assert aec.observation_space(agent).contains(obs)
                assert aec.state_space.contains(aec.state())
                aec.step(None if term or trunc else aec.action_space(agent).sample(mask=obs["action_mask"]))
            assert aec.agents == []
            par = KassenParallelEnv(gid, max_episode_steps=50)
            obs, _ = par.reset(seed=3)
            while par.agents:
                obs, *_ = par.step({a: int(np.argmax(obs[a]["action_mask"])) for a in par.agents})
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout + out.stderr
