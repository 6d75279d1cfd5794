"""kassen.ray_rollouts.RolloutWorker without Ray: the compact trajectory forms (uint8
observations, legal-id lists) carry the same games as the dense ones, in a fraction of the
bytes."""

from __future__ import annotations

import numpy as np
import pytest

from kassen.ray_rollouts import RolloutWorker

GAME, CONFIG = "samurai", {"players": 2}


def test_uint8_observations_and_legal_ids_carry_the_same_games():
    dense = RolloutWorker(GAME, CONFIG, 6, 21).rollout(150)
    small = RolloutWorker(GAME, CONFIG, 6, 21, obs_dtype="uint8", legal="ids").rollout(150)
    assert "masks" not in small and "legal_ids" not in dense
    assert dense["obs"].dtype == np.float32 and small["obs"].dtype == np.uint8
    # The same seed and the same (random) choices: identical games.
    for key in ("actions", "players", "rewards", "terminated", "truncated"):
        np.testing.assert_array_equal(dense[key], small[key])
    assert dense["episode_returns"] == small["episode_returns"] and small["episode_returns"]
    np.testing.assert_array_equal(small["obs"], np.round(np.clip(dense["obs"], 0, 1) * 255).astype(np.uint8))
    # The lists name exactly the legal actions of the masks, ascending.
    counts, ids, masks = small["legal_count"], small["legal_ids"], dense["masks"]
    assert counts.dtype == ids.dtype == np.uint32
    for t in range(0, 150, 7):
        for i in range(6):
            np.testing.assert_array_equal(ids[t, i, : counts[t, i]], np.flatnonzero(masks[t, i]))
            assert masks[t, i, small["actions"][t, i]] == 1
    dense_bytes = dense["obs"].nbytes + dense["masks"].nbytes
    small_bytes = small["obs"].nbytes + counts.nbytes + ids.nbytes
    assert small_bytes < dense_bytes / 3, (small_bytes, dense_bytes)


def test_a_policy_still_gets_dense_masks_in_ids_form():
    seen = []

    def first_legal(obs, masks, rng):
        seen.append(masks.dtype)
        return np.argmax(masks, axis=1)

    traj = RolloutWorker(GAME, CONFIG, 3, 5, legal="ids", policy=first_legal).rollout(20)
    assert seen and all(d.itemsize == 1 for d in seen)
    np.testing.assert_array_equal(traj["actions"], traj["legal_ids"][:, :, 0])


def test_unknown_legal_form_is_rejected():
    with pytest.raises(ValueError, match="legal must be one of"):
        RolloutWorker(GAME, CONFIG, 2, 1, legal="dense")
