"""Distributed experience collection on Ray: rollout workers as Ray actors, each owning a native
batch (``num_envs`` games stepped with the GIL released), returning trajectories to a learner.

    import ray
    from kassen.ray_rollouts import make_workers, collect

    ray.init()                      # or ray.init(address="auto") on a cluster
    workers = make_workers("samurai", {"players": 2}, num_workers=4, num_envs=64, seed=7)
    for trajectory in collect(workers, steps=128):
        ...                         # obs (T, N, ...), actions, rewards, masks, dones, ...

The same code runs on a multi-node cluster: start Ray on each node (``ray start --head`` on
one, ``ray start --address=HEAD:6379`` on the others), install kassen on every node, and call
``ray.init(address="auto")``; Ray places the actors on the nodes' CPUs (``num_cpus`` per
worker). Worker ``i``'s batch seed is drawn from ``numpy.random.SeedSequence(seed)`` (its
``i``-th child), so the trajectories depend only on ``seed``, the worker count and the policy,
not on where the actors run.

The workers here act with a uniformly random legal policy (seeded); a learner with a model
passes ``policy``: a picklable callable ``(obs, masks, rng) -> actions``, shipped to each actor
(or call :meth:`RolloutWorker.set_policy` with new weights between rounds).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional

import numpy as np

from kassen._kassen import Batch, load_game
from kassen.envs.common import sample_legal_actions

__all__ = ["RolloutWorker", "make_workers", "collect", "random_legal_policy", "worker_seeds"]

#: (obs, masks, rng) -> one action id per env.
Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray]


def random_legal_policy(obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per env."""
    return sample_legal_actions(masks, rng)


def worker_seeds(seed: int, num_workers: int) -> List[int]:
    """The batch seed of each worker."""
    return [int(s.generate_state(1, np.uint64)[0]) for s in np.random.SeedSequence(seed).spawn(num_workers)]


class RolloutWorker:
    """One batch of ``num_envs`` games: the learner plays ``agent`` against ``opponent`` (a bot
    inside Rust), or every seat when ``opponent`` is None. Plain class; :func:`make_workers`
    turns it into Ray actors."""

    def __init__(self, game_id: str, config: Optional[Mapping[str, Any]], num_envs: int, seed: int, *,
                 agent: int = 0, opponent: Optional[str] = "random", threads: int = 1,
                 max_episode_steps: Optional[int] = None, policy: Optional[Policy] = None) -> None:
        game = load_game(game_id, dict(config or {}))
        self.batch = Batch(game, num_envs, seed, threads=threads, opponent=opponent, learner_seat=agent,
                           max_episode_steps=max_episode_steps)
        self.agent = agent
        self.multi_agent = opponent is None
        self.policy: Policy = policy or random_legal_policy
        self.rng = np.random.default_rng(seed)
        self.batch.reset()

    def set_policy(self, policy: Policy) -> None:
        self.policy = policy

    def rollout(self, steps: int) -> Dict[str, Any]:
        """``steps`` steps of every env; returns the trajectory (arrays with a leading time axis)
        and the games that ended in it. Goes on from where the previous call stopped."""
        b = self.batch
        n = b.num_envs
        obs = np.empty((steps, *b.obs.shape), b.obs.dtype)
        masks = np.empty((steps, *b.mask.shape), np.int8)
        players = np.empty((steps, n), np.int32)
        actions = np.empty((steps, n), np.int64)
        rewards = np.empty((steps, n, b.num_players), np.float32)
        terminated = np.empty((steps, n), bool)
        truncated = np.empty((steps, n), bool)
        episode_returns: List[List[float]] = []
        episode_lengths: List[int] = []
        for t in range(steps):
            obs[t] = b.obs
            masks[t] = b.mask
            players[t] = b.current_player
            actions[t] = self.policy(obs[t], masks[t], self.rng)
            b.step(actions[t])
            rewards[t] = b.rewards
            terminated[t] = b.terminated
            truncated[t] = b.truncated
            for i in np.flatnonzero(terminated[t] | truncated[t]):
                episode_returns.append(b.final_returns[i].tolist())
                episode_lengths.append(int(b.episode_lengths[i]))
        return {
            "obs": obs, "masks": masks, "players": players, "actions": actions, "rewards": rewards,
            "terminated": terminated, "truncated": truncated,
            "episode_returns": episode_returns, "episode_lengths": episode_lengths,
        }


def make_workers(game_id: str, config: Optional[Mapping[str, Any]] = None, *, num_workers: int = 2,
                 num_envs: int = 64, seed: int = 0, num_cpus: float = 1, **options: Any) -> List[Any]:
    """``num_workers`` Ray actors (``ray.init`` first), each a :class:`RolloutWorker` with
    ``num_envs`` games and the seed :func:`worker_seeds` gives it."""
    import ray

    actor = ray.remote(num_cpus=num_cpus)(RolloutWorker)
    return [actor.remote(game_id, dict(config or {}), num_envs, s, **options)
            for s in worker_seeds(seed, num_workers)]


def collect(workers: List[Any], steps: int) -> List[Dict[str, Any]]:
    """One rollout of ``steps`` steps from every worker, in parallel; one trajectory per worker."""
    import ray

    return ray.get([w.rollout.remote(steps) for w in workers])
