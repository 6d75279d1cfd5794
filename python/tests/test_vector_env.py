"""kassen.envs.KassenVectorEnv over the native batch, and the Gymnasium ids registered on import."""

from __future__ import annotations

import numpy as np
import pytest

import kassen
from conftest import CONFIGS, config_id

gym = pytest.importorskip("gymnasium")
from gymnasium.vector import AutoresetMode  # noqa: E402

from kassen.envs import MASK_DTYPE, KassenEnv, KassenVectorEnv  # noqa: E402
from kassen.envs.registration import env_id, env_ids  # noqa: E402

ENVS = 6


def random_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def run(env, steps, seed=0):
    """``steps`` random legal steps; returns everything observed, and checks the bookkeeping."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    running = np.zeros(env.num_envs)
    length = np.zeros(env.num_envs, dtype=int)
    seen = []
    for _ in range(steps):
        assert env.observation_space.contains(obs)
        masks = info["action_mask"]
        assert masks.dtype == MASK_DTYPE and masks.any(axis=1).all()
        np.testing.assert_array_equal(masks, env.action_masks())
        actions = random_actions(masks, rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        running += reward
        length += 1
        ended = terminated | truncated
        np.testing.assert_array_equal(info["_episode_return"], ended)
        for i in np.flatnonzero(ended):
            assert abs(running[i] - info["episode_return"][i]) < 1e-5
            assert length[i] == info["episode_length"][i]
            assert info["final_returns"][i][env.agent] == info["episode_return"][i]
        running[ended] = 0
        length[ended] = 0
        seen.append((obs.copy(), reward.copy(), terminated.copy(), truncated.copy(), actions))
    return seen


def same(a, b):
    return len(a) == len(b) and all(all(np.array_equal(x, y) for x, y in zip(p, q)) for p, q in zip(a, b))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_make_vec_gives_the_vector_env(config):
    envs = gym.make_vec(env_id(*config), num_envs=ENVS)
    env = envs.unwrapped
    assert isinstance(env, KassenVectorEnv) and env.num_envs == ENVS
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_action_space.n == kassen.load_game(*config).num_distinct_actions()
    bounded = np.isfinite(env.single_observation_space.low).all() and np.isfinite(env.single_observation_space.high).all()
    assert bounded == ("observation_layout" in env.game.info())  # finite once the game declares its layout
    seen = run(envs, 60)
    assert any(t.any() for _, _, t, _, _ in seen) or config[0] != "samurai", "Samurai games end within 60 steps"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_make_gives_the_single_env(config):
    env = gym.make(env_id(*config), max_episode_steps=None)
    assert isinstance(env.unwrapped, KassenEnv)
    assert env.unwrapped.game == kassen.load_game(*config)


def test_every_game_and_config_has_an_id():
    ids = env_ids()
    assert len(ids) == len(CONFIGS)
    assert {(gid, tuple(sorted(cfg.items()))) for gid, cfg in ids.values()} == {
        (gid, tuple(sorted(cfg.items()))) for gid, cfg in CONFIGS}
    assert set(ids) <= set(gym.registry)
    assert "kassen/samurai-p2-v0" in ids and "kassen/sekigahara-p2-v0" in ids


def test_seeded_and_thread_independent():
    a = run(KassenVectorEnv("samurai", {"players": 3}, ENVS, agent=1, threads=1), 80, seed=4)
    b = run(KassenVectorEnv("samurai", {"players": 3}, ENVS, agent=1, threads=2), 80, seed=4)
    c = run(KassenVectorEnv("samurai", {"players": 3}, ENVS, agent=1, threads=1), 80, seed=5)
    assert same(a, b) and not same(a, c)
    env = KassenVectorEnv("samurai", {"players": 3}, ENVS, agent=1, threads=1)
    env.threads = 2
    assert env.threads == 2 and same(run(env, 80, seed=4), a)


def test_matches_the_raw_batch():
    game = kassen.load_game("samurai", players=2)
    env = KassenVectorEnv(game, num_envs=ENVS, seed=9)
    batch = kassen._kassen.Batch(game, ENVS, 9, opponent="random")
    obs, info = env.reset()
    batch.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        np.testing.assert_array_equal(obs, batch.obs)
        np.testing.assert_array_equal(info["action_mask"], batch.mask)
        counts, ids = env.legal_actions()
        for i in range(ENVS):
            np.testing.assert_array_equal(ids[i, : counts[i]], np.flatnonzero(info["action_mask"][i]))
        actions = random_actions(info["action_mask"], rng)
        obs, reward, terminated, _, info = env.step(actions)
        batch.step(actions)
        np.testing.assert_array_equal(reward, batch.rewards[:, 0])
        np.testing.assert_array_equal(terminated, batch.terminated.astype(bool))


def test_copy_option():
    fresh = KassenVectorEnv("samurai", num_envs=2)
    obs, info = fresh.reset(seed=0)
    assert not np.shares_memory(obs, fresh.batch.obs) and not np.shares_memory(info["action_mask"], fresh.batch.mask)
    # copy=True: every step's arrays are new; those returned before stay as they were.
    kept = [(obs, obs.copy())]
    rng = np.random.default_rng(0)
    for _ in range(10):
        obs, _, _, _, info = fresh.step(random_actions(info["action_mask"], rng))
        assert not any(np.shares_memory(obs, old) for old, _ in kept)
        kept.append((obs, obs.copy()))
    assert all(np.array_equal(a, b) for a, b in kept)
    # Masks too, and views of what was returned keep it from being written.
    obs, info = fresh.reset(seed=1)
    kept_masks = [(info["action_mask"][:1], info["action_mask"].copy()[:1])]
    obs_view = obs[1:]
    kept_obs = obs_view.copy()
    for _ in range(10):
        obs, _, _, _, info = fresh.step(random_actions(info["action_mask"], rng))
        kept_masks.append((info["action_mask"][:1], info["action_mask"].copy()[:1]))
    assert all(np.array_equal(a, b) for a, b in kept_masks) and np.array_equal(obs_view, kept_obs)
    # Arrays nobody holds any more are reused rather than allocated anew.
    del kept, kept_masks, obs_view
    seen = set()
    for _ in range(20):
        obs, _, _, _, info = fresh.step(random_actions(info["action_mask"], rng))
        seen.add(obs.__array_interface__["data"][0])
    assert len(seen) <= 2
    views = KassenVectorEnv("samurai", num_envs=2, copy=False)
    obs, info = views.reset(seed=0)
    assert np.shares_memory(obs, views.batch.obs) and np.shares_memory(info["action_mask"], views.batch.mask)
    assert info["action_mask"].dtype == MASK_DTYPE


def test_illegal_action_raises_and_nothing_moves():
    env = KassenVectorEnv("samurai", num_envs=3)
    obs, info = env.reset(seed=2)
    actions = random_actions(info["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(kassen.IllegalActionError):
        env.step(actions)
    with pytest.raises(kassen.KassenError):
        env.step(actions[:2])
    # Nothing moved: a legal step now gives what it gives in an env that saw no bad step.
    twin = KassenVectorEnv("samurai", num_envs=3)
    twin_obs, _ = twin.reset(seed=2)
    np.testing.assert_array_equal(twin_obs, obs)
    actions = random_actions(info["action_mask"], np.random.default_rng(1))
    after, twin_after = env.step(actions), twin.step(actions)
    for mine, theirs in zip(after[:4], twin_after[:4]):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(after[4]["action_mask"], twin_after[4]["action_mask"])


def test_truncation_and_uint8_observations():
    env = KassenVectorEnv("sekigahara", num_envs=2, max_episode_steps=5, obs_dtype="uint8")
    assert env.single_observation_space.dtype == np.uint8
    seen = run(env, 5)
    obs, _, terminated, truncated, _ = seen[-1]
    assert obs.dtype == np.uint8 and (truncated | terminated).all()
    assert not any(u.any() for _, _, _, u, _ in seen[:-1])


def test_bad_agent_rejected():
    with pytest.raises(ValueError, match="agent"):
        KassenVectorEnv("samurai", {"players": 2}, 2, agent=2)
