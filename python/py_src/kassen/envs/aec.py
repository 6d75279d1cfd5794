"""PettingZoo-AEC-style multi-agent env: one agent per seat, agents act in turn."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

import numpy as np

from kassen._kassen import Game, State, load_game
from kassen.envs import common, spaces
from kassen.envs.common import (
    DEFAULT_ILLEGAL_ACTION,
    MASK_DTYPE,
    check_illegal_action,
    observation_bounds,
    sample_chance,
)

try:  # only if installed
    import pettingzoo as _pz  # type: ignore[import-untyped, import-not-found, unused-ignore]

    _Base: Any = _pz.AECEnv
except ImportError:  # pragma: no cover - exercised in a subprocess test
    _pz = None  # type: ignore[assignment]
    _Base = object

__all__ = ["KassenAECEnv"]


class _AECProtocol:
    """The AECEnv helpers PettingZoo provides, for when it is not installed (same semantics)."""

    agents: List[str]
    agent_selection: str
    rewards: Dict[str, float]
    _cumulative_rewards: Dict[str, float]
    terminations: Dict[str, bool]
    truncations: Dict[str, bool]
    infos: Dict[str, Dict[str, Any]]

    def observe(self, agent: str) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def _accumulate_rewards(self) -> None:
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def _clear_rewards(self) -> None:
        for agent in self.rewards:
            self.rewards[agent] = 0

    def _was_dead_step(self, action: Any) -> None:
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self.agent_selection = dead[0]
        self._clear_rewards()


class KassenAECEnv(_Base if _pz is not None else _AECProtocol):  # type: ignore[misc]
    """A kassen game as an AEC environment; agents are ``"player_0"``, ``"player_1"``, ...

    - ``observe(agent)``: ``{"observation": ..., "action_mask": int8}`` (the mask is all zeros
      for an agent that is not to act); the observation is ``compact_observation(seat)``
      (uint8, ``game.compact_len()`` bytes, the default) or with ``observation="tensor"``
      ``observation_tensor(seat)`` (float32);
    - ``state()``: every seat's observation, concatenated in seat order (``state_space``),
      for centralized critics; it holds exactly what the seats together may see;
    - ``step(action)``: the selected agent's action id (``None`` once the game is over);
    - an illegal id, with ``illegal_action="penalize"`` (the default, so that PettingZoo's
      ``api_test`` and ``state_test``, which step with unmasked samples, run the env as
      shipped): every agent is terminated, the offender's reward is ``illegal_action_penalty``
      (default: the game's minimum utility), the others' 0, and its info has
      ``"illegal_action": True`` (PettingZoo's ``TerminateIllegalWrapper`` convention); the
      game state is unchanged. With ``"raise"``: ``IllegalActionError`` and nothing changes;
    - rewards: the change of each seat's return (the final returns when the game ends);
    - ``max_episode_steps``: every agent is truncated after that many steps in total.
    Explicit chance nodes are resolved inside the env, from its RNG. The game state is
    ``env.game_state`` (``env.state()`` is PettingZoo's global-state method).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "kassen_aec_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: Union[str, Game] = "samurai",
        config: Optional[Mapping[str, Any]] = None,
        *,
        render_mode: Optional[str] = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        illegal_action_penalty: Optional[float] = None,
        max_episode_steps: Optional[int] = None,
        observation: str = "compact",
    ) -> None:
        if _pz is not None:
            super().__init__()
        self.game = game if isinstance(game, Game) else load_game(game, dict(config or {}))
        self.observation = common.check_observation(observation)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_action_penalty = common.illegal_action_penalty(self.game, illegal_action_penalty)
        if max_episode_steps is not None and max_episode_steps < 1:
            raise ValueError("max_episode_steps must be at least 1")
        self.max_episode_steps = max_episode_steps
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unsupported render_mode {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: List[str] = []
        num_actions = self.game.num_distinct_actions()
        if observation == "compact":
            low, high = common.compact_bounds(self.game)
            dtype: Any = np.uint8
        else:
            low, high = observation_bounds(self.game)
            dtype = np.float32
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=dtype),
            "action_mask": spaces.Box(0, 1, (num_actions,), MASK_DTYPE),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(np.tile(low.ravel(), n), np.tile(high.ravel(), n), dtype=dtype)
        self.game_state: Optional[State] = None
        self._rng = np.random.default_rng()
        self._returns = [0.0] * n
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state(int(self._rng.integers(2**63)))
        self._returns = [0.0] * self.game.num_players()
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._resolve_chance()
        self.agent_selection = self.possible_agents[max(self.game_state.current_player(), 0)]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        state = self._require_state()
        seat = self.seat(agent)
        if state.current_player() == seat:
            mask = state.legal_actions_mask().astype(MASK_DTYPE)
        else:
            mask = np.zeros(self.game.num_distinct_actions(), dtype=MASK_DTYPE)
        return {"observation": self._observation(state, seat), "action_mask": mask}

    def _observation(self, state: State, seat: int) -> np.ndarray:
        if self.observation == "compact":
            return state.compact_observation(seat)
        return state.observation_tensor(seat)

    def state(self) -> np.ndarray:
        """Every seat's observation, flattened and concatenated in seat order."""
        state = self._require_state()
        return np.concatenate([self._observation(state, seat).ravel()
                               for seat in range(self.game.num_players())])

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        if action is None:
            raise ValueError(f"{agent} is to act: None is only valid once the game is over")
        if self.illegal_action == "penalize" and not state.is_legal(int(action)):
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {a: self.illegal_action_penalty if a == agent else 0.0 for a in self.rewards}
            self.infos[agent] = {"illegal_action": True}
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
            return
        state.apply_action_as(self.seat(agent), int(action))
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        self._resolve_chance()
        returns = state.returns()
        self.rewards = {a: returns[i] - self._returns[i] for i, a in enumerate(self.possible_agents)
                        if a in self.rewards}
        self._returns = returns
        if state.is_terminal():
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            if self._steps == self.max_episode_steps:
                self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.game_state is None:
            return None
        return f"{self.game_state!r}\n{json.dumps(self.game_state.view(-1), sort_keys=True)}"

    def close(self) -> None:
        pass

    def _require_state(self) -> State:
        if self.game_state is None:
            raise RuntimeError("call reset() first")
        return self.game_state

    def _resolve_chance(self) -> None:
        state = self._require_state()
        while state.is_chance_node():
            state.apply_action(sample_chance(state, self._rng))
