"""PettingZoo-Parallel-style env over the AEC env, for libraries that only take parallel envs."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from kassen._kassen import Game, State
from kassen.envs.aec import KassenAECEnv, _pz

_Base: Any = _pz.ParallelEnv if _pz is not None else object

__all__ = ["KassenParallelEnv"]

Obs = Dict[str, Dict[str, np.ndarray]]


class KassenParallelEnv(_Base):  # type: ignore[misc]
    """A kassen game as a PettingZoo parallel env: every live agent submits an action each step,
    and the action of the agent to act is applied; the others' are ignored (their
    ``"action_mask"`` is all zeros, so a masked sampler gives them any id).

    Observations, rewards, ``illegal_action``, ``max_episode_steps``, ``state()`` and
    ``state_space`` are those of :class:`KassenAECEnv` (same arguments). All agents finish
    together, and ``agents`` is then empty.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "kassen_parallel_v0"}

    def __init__(self, game: Union[str, Game] = "samurai", config: Optional[Mapping[str, Any]] = None,
                 **kwargs: Any) -> None:
        self.aec = KassenAECEnv(game, config, **kwargs)
        self.game = self.aec.game
        self.render_mode = self.aec.render_mode
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: List[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Optional[State]:
        return self.aec.game_state

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[Obs, Dict[str, Dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._observe(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> Tuple[
            Obs, Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Dict[str, Any]]]:
        aec = self.aec
        agent = aec.agent_selection
        if agent not in actions:
            raise KeyError(f"{agent} is to act and has no action")
        aec.step(actions[agent])
        rewards = {a: float(aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(aec.truncations[a]) for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        observations = self._observe()
        if all(terminations[a] or truncations[a] for a in self.agents):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> Optional[str]:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def _observe(self) -> Obs:
        return {a: self.aec.observe(a) for a in self.agents}
