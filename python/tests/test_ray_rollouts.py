"""Rollout workers as Ray actors (kassen.ray_rollouts) on a local Ray cluster: complete episode
bookkeeping and trajectories reproducible from the seed, and equal to the same workers run
without Ray."""

from __future__ import annotations

import numpy as np
import pytest

ray = pytest.importorskip("ray")
from kassen.ray_rollouts import RolloutWorker, collect, make_workers, worker_seeds  # noqa: E402

GAME, CONFIG = "samurai", {"players": 2}
STEPS, ENVS, WORKERS = 120, 8, 2


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def check_bookkeeping(traj, agent=0):
    """Each ended game's rewards add up to its reported return, its steps to its length, and
    every ended game is reported once."""
    done = traj["terminated"] | traj["truncated"]
    assert int(done.sum()) == len(traj["episode_returns"]) == len(traj["episode_lengths"])
    reported = iter(zip(traj["episode_returns"], traj["episode_lengths"]))
    start = np.zeros(done.shape[1], dtype=int)
    running = np.zeros(traj["rewards"].shape[1:], dtype=np.float64)
    for t in range(done.shape[0]):
        running += traj["rewards"][t]
        for i in np.flatnonzero(done[t]):
            returns, length = next(reported)
            np.testing.assert_allclose(running[i], returns, atol=1e-5)
            assert length == t + 1 - start[i]  # every env starts a game at step 0
            running[i] = 0
            start[i] = t + 1
    assert (traj["masks"][np.arange(done.shape[0])[:, None], np.arange(done.shape[1]), traj["actions"]] == 1).all()


def test_workers_collect_complete_reproducible_trajectories(cluster):
    a = collect(make_workers(GAME, CONFIG, num_workers=WORKERS, num_envs=ENVS, seed=11), STEPS)
    b = collect(make_workers(GAME, CONFIG, num_workers=WORKERS, num_envs=ENVS, seed=11), STEPS)
    c = collect(make_workers(GAME, CONFIG, num_workers=WORKERS, num_envs=ENVS, seed=12), STEPS)
    assert len(a) == WORKERS
    for traj in a:
        assert traj["obs"].shape[:2] == (STEPS, ENVS) and traj["episode_returns"]
        check_bookkeeping(traj)
    for x, y in zip(a, b):
        for key in ("obs", "actions", "rewards", "masks", "terminated", "truncated"):
            np.testing.assert_array_equal(x[key], y[key])
        assert x["episode_returns"] == y["episode_returns"]
    assert not np.array_equal(a[0]["actions"], c[0]["actions"])
    assert not np.array_equal(a[0]["actions"], a[1]["actions"]), "workers draw different seeds"
    # Ray changes nothing: the same worker run in this process gives the same trajectory.
    local = RolloutWorker(GAME, CONFIG, ENVS, worker_seeds(11, WORKERS)[1]).rollout(STEPS)
    np.testing.assert_array_equal(local["actions"], a[1]["actions"])
    np.testing.assert_array_equal(local["rewards"], a[1]["rewards"])


def test_multi_agent_workers_record_every_seat(cluster):
    (traj,) = collect(make_workers(GAME, CONFIG, num_workers=1, num_envs=4, seed=3, opponent=None), 80)
    assert set(np.unique(traj["players"])) == {0, 1}
    check_bookkeeping(traj)


def test_compact_trajectories_through_ray(cluster):
    (traj,) = collect(make_workers(GAME, CONFIG, num_workers=1, num_envs=4, seed=3,
                                   obs_dtype="uint8", legal="ids"), 40)
    assert traj["obs"].dtype == np.uint8 and "masks" not in traj
    assert traj["legal_ids"].shape[:2] == (40, 4) and (traj["legal_count"] > 0).all()


def test_workers_that_cannot_get_cpus_are_reported_not_waited_for(cluster):
    held = make_workers(GAME, CONFIG, num_workers=2, num_envs=2, seed=1)  # every CPU of the cluster
    with pytest.raises(RuntimeError, match=r"need 2 CPUs \(1 each\) and the Ray cluster has 0 of 2 CPUs free"):
        make_workers(GAME, CONFIG, num_workers=2, num_envs=2, seed=2, timeout=5)
    assert len(collect(held, 5)) == 2  # the first workers are untouched
    del held
