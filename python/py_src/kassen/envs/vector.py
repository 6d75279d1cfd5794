"""A ``gymnasium.vector.VectorEnv`` over the native batch: ``num_envs`` games stepped by one call
with the GIL released, the learner's seat against a bot played inside Rust."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from kassen._kassen import Batch, Game, load_game
from kassen.envs.common import MASK_DTYPE, compact_bounds, observation_bounds

try:
    import gymnasium as _gym
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - the vector env needs gymnasium
    raise ImportError("kassen.envs.vector needs gymnasium (pip install gymnasium)") from e

__all__ = ["KassenVectorEnv"]


class KassenVectorEnv(_gym.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` copies of one game and config; the learner plays seat ``agent``, every other
    seat (and every chance node) is played by ``opponent`` inside the native batch:
    ``"random"`` (uniformly random legal actions) or ``"monte_carlo"`` / ``"monte_carlo:P"``
    (the Monte Carlo bot with its default or ``P`` playouts per decision: a stronger opponent,
    at the cost of its search).

    - observations: ``(num_envs, compact_len)`` uint8 compact observations (the default,
      ``obs_dtype="compact"``; fields in ``game.compact_layout()``), or the tensor:
      ``(num_envs, *observation_shape)`` float32 in the layout's bounds (``"float32"``) or
      uint8 ``round(v × 255)`` (``"uint8"``);
    - actions: one action id per env (``MultiDiscrete``); the legal ids are
      ``info["action_mask"]`` and ``action_masks()`` (int8 0/1, shape ``(num_envs,
      num_actions)``), and as lists ``legal_actions()`` (``(legal_count, legal_ids)``, for
      sampling in O(num_envs), see ``kassen.envs.common.sample_legal_ids``). An illegal id
      raises ``IllegalActionError`` and no env moves;
    - rewards: float32, the change of the learner's return (the final return when a game
      ends);
    - **same-step autoreset** (``metadata["autoreset_mode"]``): when a game ends, the step
      that ended it returns its reward and ``terminated``/``truncated``, and already the first
      observation and mask of the next game of that env. ``info["episode_return"]`` and
      ``info["episode_length"]`` hold the learner's return and the number of learner steps of
      the games that just ended, ``info["final_returns"]`` every seat's returns
      (``info["_episode_return"]`` etc. mark those envs, Gymnasium's convention); the last
      observation of an ended game is not returned;
    - ``max_episode_steps`` truncates a game after that many learner steps;
    - seeds: ``reset(seed=s)`` makes every env's sequence of games a pure function of ``s``
      and the actions, whatever ``threads`` is (``threads`` worker threads step the envs);
    - ``copy=True`` (default) returns arrays that no later call writes while anything refers
      to them (the batch writes into arrays nobody holds, reused once they are released); with
      ``copy=False`` the arrays are the batch's own buffers, overwritten by the next
      ``step``/``reset`` (faster; copy what you keep).
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: Union[str, Game] = "samurai",
        config: Optional[Mapping[str, Any]] = None,
        num_envs: int = 8,
        *,
        agent: int = 0,
        opponent: str = "random",
        threads: int = 1,
        max_episode_steps: Optional[int] = None,
        obs_dtype: str = "compact",
        copy: bool = True,
        seed: int = 0,
    ) -> None:
        self.game = game if isinstance(game, Game) else load_game(game, dict(config or {}))
        if not 0 <= agent < self.game.num_players():
            raise ValueError(f"agent must be a seat in [0, {self.game.num_players()})")
        self.batch = Batch(self.game, num_envs, seed, threads=threads, opponent=opponent,
                           learner_seat=agent, max_episode_steps=max_episode_steps,
                           obs_dtype=obs_dtype)
        self.num_envs = num_envs
        self.agent = agent
        self.copy = copy
        self.render_mode = None
        low, high = observation_bounds(self.game)
        if obs_dtype == "compact":
            low, high = compact_bounds(self.game)
            self.single_observation_space = _gym.spaces.Box(low, high, dtype=np.uint8)
        elif obs_dtype == "uint8":
            self.single_observation_space = _gym.spaces.Box(0, 255, low.shape, np.uint8)
        else:
            self.single_observation_space = _gym.spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = _gym.spaces.Discrete(self.game.num_distinct_actions())
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # int8 views of the batch's u8 buffers (same memory: 0/1 read the same).
        self._mask = self.batch.mask.view(MASK_DTYPE)
        self._reward = self.batch.rewards[:, agent]
        self._obs_pool = _Released(self.batch.obs)
        self._mask_pool = _Released(self.batch.mask)
        # The masks of the last reset or step (what `action_masks` returns).
        self._last_mask = self._mask

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts a new game in every env (``seed``: restart the seed streams from it)."""
        if seed is not None:
            self.action_space.seed(seed)
        if not self.copy:
            self.batch.reset(seed)
            return self.batch.obs, {"action_mask": self._mask}
        obs, mask = self._obs_pool.take(), self._mask_pool.take()
        self.batch.reset(seed, obs_out=obs, mask_out=mask)
        self._last_mask = mask.view(MASK_DTYPE)
        return obs, {"action_mask": self._last_mask}

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        batch = self.batch
        if self.copy:
            obs, mask_u8 = self._obs_pool.take(), self._mask_pool.take()
            batch.step(np.asarray(actions, dtype=np.int64), obs_out=obs, mask_out=mask_u8)
            mask = mask_u8.view(MASK_DTYPE)
        else:
            batch.step(np.asarray(actions, dtype=np.int64))
            obs, mask = batch.obs, self._mask
        terminated = batch.terminated.astype(bool)
        truncated = batch.truncated.astype(bool)
        ended = terminated | truncated
        info = {
            "action_mask": mask,
            "episode_return": np.where(ended, batch.final_returns[:, self.agent], 0.0),
            "episode_length": np.where(ended, batch.episode_lengths, 0),
            "final_returns": np.where(ended[:, None], batch.final_returns, 0.0),
            "_episode_return": ended,
            "_episode_length": ended,
            "_final_returns": ended,
        }
        self._last_mask = mask
        return obs, self._out(self._reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env, int8 ``(num_envs, num_actions)`` (for MaskablePPO)."""
        return self._out(self._last_mask)

    def legal_actions(self) -> Tuple[np.ndarray, np.ndarray]:
        """The legal actions of every env as lists: ``(legal_count, legal_ids)``, uint32 of
        shapes ``(num_envs,)`` and ``(num_envs, max_legal_actions)``; row ``i`` starts with
        env ``i``'s first ``min(legal_count[i], max_legal_actions)`` legal ids, ascending."""
        return self._out(self.batch.legal_count), self._out(self.batch.legal_ids)

    @property
    def threads(self) -> int:
        """Worker threads of ``step`` and ``reset`` (settable; results do not depend on it)."""
        return int(self.batch.threads)

    @threads.setter
    def threads(self, threads: int) -> None:
        self.batch.threads = threads

    def close_extras(self, **kwargs: Any) -> None:
        pass

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a


class _Released:
    """Output arrays shaped like ``like`` for ``copy=True``: ``take`` returns one that nothing
    outside this pool refers to (CPython's reference count; a view of an array holds a
    reference to it), so the batch may write into it without touching anything a caller
    kept, and a loop that drops what it was given reuses the same few arrays instead of
    allocating (and page-faulting) new ones every step."""

    KEEP = 4

    def __init__(self, like: np.ndarray) -> None:
        self._like = like
        self._arrays: List[np.ndarray] = [np.empty_like(like)]
        # The count of an array held by the pool alone, as `_refs` sees it.
        self._alone = self._refs(0)

    def _refs(self, i: int) -> int:
        return sys.getrefcount(self._arrays[i])

    def take(self) -> np.ndarray:
        for i in range(len(self._arrays)):
            if self._refs(i) <= self._alone:
                return self._arrays[i]
        fresh = np.empty_like(self._like)
        if len(self._arrays) < self.KEEP:
            self._arrays.append(fresh)
        return fresh
