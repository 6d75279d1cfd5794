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

What a trajectory carries is chosen per worker, to keep what crosses the network small:
``obs_dtype="uint8"`` ships observations as bytes (``round(v × 255)``, a quarter of float32),
and ``legal="ids"`` ships each step's legal actions as lists (``legal_count`` ``(T, N)`` and
``legal_ids`` ``(T, N, max_legal_actions)``, uint32) instead of the dense ``masks`` ``(T, N,
num_distinct_actions)``. The policy is still called with the dense masks, which the batch
holds anyway; the default random policy samples from the lists.

:func:`make_workers` waits until every actor has started (``timeout`` seconds); actors that a
cluster without enough free CPUs cannot place (e.g. a second set of workers while the first
still holds every CPU) make it raise ``RuntimeError`` naming the CPUs needed and free,
instead of leaving :func:`collect` waiting forever.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional

import numpy as np

from kassen._kassen import Batch, load_game
from kassen.envs.common import sample_legal_actions, sample_legal_ids

__all__ = ["RolloutWorker", "make_workers", "collect", "random_legal_policy", "worker_seeds", "LEGAL_FORMS"]

#: How a trajectory gives each step's legal actions: ``"mask"`` (dense int8 ``masks``) or
#: ``"ids"`` (``legal_count`` and ``legal_ids`` lists).
LEGAL_FORMS = ("mask", "ids")

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
                 max_episode_steps: Optional[int] = None, policy: Optional[Policy] = None,
                 obs_dtype: str = "float32", legal: str = "mask") -> None:
        if legal not in LEGAL_FORMS:
            raise ValueError(f"legal must be one of {LEGAL_FORMS}, not {legal!r}")
        game = load_game(game_id, dict(config or {}))
        self.batch = Batch(game, num_envs, seed, threads=threads, opponent=opponent, learner_seat=agent,
                           max_episode_steps=max_episode_steps, obs_dtype=obs_dtype)
        self.agent = agent
        self.multi_agent = opponent is None
        self.legal = legal
        self.policy: Optional[Policy] = policy
        self.rng = np.random.default_rng(seed)
        self.batch.reset()

    def ready(self) -> bool:
        """True once the worker exists (what :func:`make_workers` waits for)."""
        return True

    def set_policy(self, policy: Policy) -> None:
        self.policy = policy

    def _act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.policy is not None:
            return self.policy(obs, masks, self.rng)
        b = self.batch  # the random policy, from the lists: O(num_envs)
        return sample_legal_ids(b.legal_count, b.legal_ids, self.rng, masks=b.mask)

    def rollout(self, steps: int) -> Dict[str, Any]:
        """``steps`` steps of every env; returns the trajectory (arrays with a leading time axis)
        and the games that ended in it. Goes on from where the previous call stopped."""
        b = self.batch
        n = b.num_envs
        ids = self.legal == "ids"
        obs = np.empty((steps, *b.obs.shape), b.obs.dtype)
        if ids:
            legal_count = np.empty((steps, n), np.uint32)
            legal_ids = np.empty((steps, *b.legal_ids.shape), np.uint32)
        else:
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
            if ids:
                legal_count[t] = b.legal_count
                legal_ids[t] = b.legal_ids
                actions[t] = self._act(obs[t], b.mask)
            else:
                masks[t] = b.mask
                actions[t] = self._act(obs[t], masks[t])
            players[t] = b.current_player
            b.step(actions[t])
            rewards[t] = b.rewards
            terminated[t] = b.terminated
            truncated[t] = b.truncated
            for i in np.flatnonzero(terminated[t] | truncated[t]):
                episode_returns.append(b.final_returns[i].tolist())
                episode_lengths.append(int(b.episode_lengths[i]))
        out: Dict[str, Any] = {
            "obs": obs, "players": players, "actions": actions, "rewards": rewards,
            "terminated": terminated, "truncated": truncated,
            "episode_returns": episode_returns, "episode_lengths": episode_lengths,
        }
        if ids:
            out["legal_count"], out["legal_ids"] = legal_count, legal_ids
        else:
            out["masks"] = masks
        return out


def make_workers(game_id: str, config: Optional[Mapping[str, Any]] = None, *, num_workers: int = 2,
                 num_envs: int = 64, seed: int = 0, num_cpus: float = 1, timeout: Optional[float] = 120.0,
                 **options: Any) -> List[Any]:
    """``num_workers`` Ray actors (``ray.init`` first), each a :class:`RolloutWorker` with
    ``num_envs`` games and the seed :func:`worker_seeds` gives it; ``options`` go to
    :class:`RolloutWorker` (``agent``, ``opponent``, ``obs_dtype``, ``legal``, ...).

    Returns once every actor has started. If they have not within ``timeout`` seconds (None:
    wait for ever, e.g. for an autoscaler), the actors are killed and ``RuntimeError`` says
    how many CPUs they need and how many the cluster has free: Ray does not place an actor
    until ``num_cpus`` CPUs are free, which the actors of an earlier ``make_workers`` may hold
    until they are released (``del workers`` or ``ray.kill``)."""
    import ray

    actor = ray.remote(num_cpus=num_cpus)(RolloutWorker)
    workers = [actor.remote(game_id, dict(config or {}), num_envs, s, **options)
               for s in worker_seeds(seed, num_workers)]
    pending = [w.ready.remote() for w in workers]
    started, waiting = ray.wait(pending, num_returns=len(pending), timeout=timeout)
    if waiting:
        free = ray.available_resources().get("CPU", 0.0)
        total = ray.cluster_resources().get("CPU", 0.0)
        for w in workers:
            ray.kill(w)
        raise RuntimeError(
            f"make_workers: {len(waiting)} of {num_workers} rollout workers did not start within {timeout} s: "
            f"they need {num_workers * num_cpus:g} CPUs ({num_cpus:g} each) and the Ray cluster has "
            f"{free:g} of {total:g} CPUs free. Release earlier workers (del workers, ray.kill), "
            f"ask for fewer CPUs per worker (num_cpus=...) or add nodes.")
    ray.get(started)  # a worker whose constructor failed raises its error here
    return workers


def collect(workers: List[Any], steps: int) -> List[Dict[str, Any]]:
    """One rollout of ``steps`` steps from every worker, in parallel; one trajectory per worker."""
    import ray

    return ray.get([w.rollout.remote(steps) for w in workers])
