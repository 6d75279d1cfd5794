"""The data path of examples/python/train_maskable_ppo.py (vector env, masks, rewards, episode
bookkeeping, the SB3 VecEnv adapter) with a random masked policy in place of the model: no torch."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from conftest import REPO

pytest.importorskip("gymnasium")


@pytest.fixture(scope="module")
def example():
    path = REPO / "examples" / "python" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "torch" not in sys.modules, "the data path must not import torch"
    return module


def test_evaluate_random_policy(example):
    env = example.make_env(num_envs=8, seed=3)
    result = example.evaluate(env, example.random_masked_policy(0), games=40)
    assert result["games"] == 40 and 0 <= result["wins"] <= 40
    assert result["mean_length"] > 1 and result["steps"] >= 40
    # A fixed seed gives the same games.
    again = example.evaluate(example.make_env(num_envs=8, seed=3), example.random_masked_policy(0), games=40)
    assert again == result


def test_sb3_adapter_masks_and_episodes(example):
    vec = example.Sb3VecEnv(example.make_env(num_envs=4, seed=1))
    vec.seed(5)
    obs = vec.reset()
    assert obs.shape == (4, *vec.observation_space.shape)
    policy = example.random_masked_policy(2)
    episodes = 0
    for _ in range(300):
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.dtype == bool and masks.shape == (4, vec.action_space.n) and masks.any(axis=1).all()
        vec.step_async(policy(obs, masks))
        obs, rewards, dones, infos = vec.step_wait()
        assert rewards.shape == (4,) and dones.shape == (4,)
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["l"] > 0
            episodes += 1
        assert all("episode" not in infos[i] for i in np.flatnonzero(~dones))
    assert episodes > 0
