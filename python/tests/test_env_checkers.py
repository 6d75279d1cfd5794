"""The envs as shipped pass the checkers of Gymnasium and PettingZoo, with no warning, on every
registered game and config. (SB3's check_env imports torch, so it runs in
`make train-example`'s environment: examples/python/check_sb3.py.)"""

from __future__ import annotations

import warnings

import pytest

from conftest import CONFIGS, config_id
from kassen.envs import KassenAECEnv, KassenEnv, KassenParallelEnv

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

#: Truncation keeps the checkers' random games short on the long configs.
STEP_LIMIT = 300


#: What Gymnasium says of an unbounded Box: expected only of a game that declares no
#: observation layout.
UNBOUNDED = ("minimum value is -infinity", "maximum value is infinity",
             "minimum state space value is -infinity", "maximum state space value is infinity")


def no_warnings(check, game, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    messages = [str(w.message) for w in caught if not issubclass(w.category, DeprecationWarning)]
    if "observation_layout" not in game.info():
        messages = [m for m in messages if not any(u in m for u in UNBOUNDED)]
    assert messages == []


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_gymnasium_check_env(config):
    from gymnasium.utils.env_checker import check_env

    env = KassenEnv(*config, max_episode_steps=STEP_LIMIT)
    assert isinstance(env, gymnasium.Env)
    no_warnings(check_env, env.game, env, skip_render_check=True)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config):
    from pettingzoo.test import api_test

    env = KassenAECEnv(*config, max_episode_steps=STEP_LIMIT)
    assert isinstance(env, pettingzoo.AECEnv)
    api_test(env, num_cycles=STEP_LIMIT)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_seed_test(config):
    from pettingzoo.test import parallel_seed_test, seed_test

    seed_test(lambda: KassenAECEnv(*config, max_episode_steps=STEP_LIMIT), num_cycles=STEP_LIMIT)
    parallel_seed_test(lambda: KassenParallelEnv(*config, max_episode_steps=STEP_LIMIT), num_cycles=STEP_LIMIT)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_state_test(config):
    from pettingzoo.test.state_test import test_state, test_state_space

    env = KassenAECEnv(*config, max_episode_steps=STEP_LIMIT)
    no_warnings(test_state_space, env.game, env)
    no_warnings(test_state, env.game, env, num_cycles=STEP_LIMIT)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_parallel_api_test(config):
    from pettingzoo.test import parallel_api_test

    env = KassenParallelEnv(*config, max_episode_steps=STEP_LIMIT)
    assert isinstance(env, pettingzoo.ParallelEnv)
    parallel_api_test(env, num_cycles=STEP_LIMIT)
