"""Gymnasium-style single-agent env: the learner plays one seat, a policy plays the others."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

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
    import gymnasium as _gym

    _Base: Any = _gym.Env
except ImportError:  # pragma: no cover - exercised in a subprocess test
    _gym = None  # type: ignore[assignment]
    _Base = object

#: A policy: (state, rng) -> action id. It is only called on a state where it is to act.
Policy = Callable[[State, np.random.Generator], int]

__all__ = ["KassenEnv", "random_policy", "svg_to_rgb", "Policy"]


#: The render modes the env accepts (see ``KassenEnv.metadata``).
RENDER_MODES = ("ansi", "rgb_array")


def _can_rasterize() -> bool:
    """Whether resvg-py and Pillow are installed (without importing them)."""
    from importlib.util import find_spec

    return find_spec("resvg_py") is not None and find_spec("PIL") is not None


def svg_to_rgb(svg: str) -> np.ndarray:
    """An SVG document as an ``(H, W, 3)`` uint8 RGB frame on white (needs ``resvg-py`` and
    ``pillow``: ``pip install "kassen[render]"``)."""
    try:
        import io

        import resvg_py
        from PIL import Image
    except ImportError as e:
        raise RuntimeError(
            "render_mode='rgb_array' draws the board's SVG with resvg and Pillow: "
            "pip install \"kassen[render]\" (resvg-py, pillow)") from e
    png = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff")
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def random_policy(state: State, rng: np.random.Generator) -> int:
    """Uniformly random legal action."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


class KassenEnv(_Base):  # type: ignore[misc]
    """One seat of a kassen game as a single-agent environment.

    - observation: with ``observation="compact"`` (the default) ``state.compact_observation(agent)``,
      a ``Box`` of uint8 of ``game.compact_len()`` bytes laid out as ``game.compact_layout()``
      (``kassen.envs.common.compact_fields`` splits it into named arrays); with
      ``observation="tensor"`` ``state.observation_tensor(agent)`` (float32,
      ``game.observation_shape()``, inside the bounds of the game's observation layout, [0, 1]);
    - action: an action id in ``Discrete(num_distinct_actions)``. The legal ids are
      ``info["action_mask"]`` and ``env.action_masks()`` (int8 0/1, for MaskablePPO);
    - an illegal id, with ``illegal_action="penalize"`` (the default, so that Gymnasium's and
      SB3's ``check_env`` can step with unmasked samples): the episode ends, ``terminated=True``,
      reward ``illegal_action_penalty`` (default: the game's minimum utility, i.e. a loss),
      ``info["illegal_action"] = True``, the game state unchanged. With ``"raise"``:
      ``IllegalActionError`` (code 200) and nothing changes;
    - reward: the change of the agent's return (the final return, given when the game ends);
    - ``max_episode_steps``: the episode is truncated (``truncated=True``) after that many
      steps of the agent (Sekigahara's random games can run to tens of thousands of steps);
    - the other seats are played by ``opponent`` (default: :func:`random_policy`), explicit
      chance nodes are drawn by their probabilities from the env's RNG.
    """

    #: ``"ansi"``: the state and the agent's view as text; ``"rgb_array"``: the board as the
    #: agent sees it (the SVG of ``state.render_svg(agent)``) as an ``(H, W, 3)`` uint8 frame,
    #: rasterized by resvg and Pillow (``pip install "kassen[render]"``). Both modes are
    #: accepted (Stable-Baselines3's ``make_vec_env`` asks every env for ``"rgb_array"``);
    #: ``"rgb_array"`` is listed here only when the rasterizer is installed, so that checkers
    #: that draw every listed mode pass without it, and ``render()`` without it raises
    #: ``RuntimeError`` saying what to install.
    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"] if _can_rasterize() else ["ansi"],
        "render_fps": 4,
    }

    def __init__(
        self,
        game: Union[str, Game] = "samurai",
        config: Optional[Mapping[str, Any]] = None,
        *,
        agent: int = 0,
        opponent: Optional[Policy] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        illegal_action_penalty: Optional[float] = None,
        max_episode_steps: Optional[int] = None,
        observation: str = "compact",
    ) -> None:
        self.game = game if isinstance(game, Game) else load_game(game, dict(config or {}))
        self.observation = common.check_observation(observation)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_action_penalty = common.illegal_action_penalty(self.game, illegal_action_penalty)
        if max_episode_steps is not None and max_episode_steps < 1:
            raise ValueError("max_episode_steps must be at least 1")
        self.max_episode_steps = max_episode_steps
        if not 0 <= agent < self.game.num_players():
            raise ValueError(f"agent must be a seat in [0, {self.game.num_players()})")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unsupported render_mode {render_mode!r} (one of {RENDER_MODES})")
        self.agent = agent
        self.opponent: Policy = opponent or random_policy
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        if observation == "compact":
            low, high = common.compact_bounds(self.game)
            self.observation_space = spaces.Box(low, high, dtype=np.uint8)
        else:
            low, high = observation_bounds(self.game)
            self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.state: Optional[State] = None
        self._return = 0.0
        self._steps = 0
        self._done = False
        if _gym is None:
            self._np_random: Optional[np.random.Generator] = None

    # --- RNG (gymnasium.Env provides these when installed) ---
    if _gym is None:

        @property
        def np_random(self) -> np.random.Generator:
            if self._np_random is None:
                self._np_random = np.random.default_rng()
            return self._np_random

    def _seed_rng(self, seed: Optional[int]) -> None:
        if _gym is not None:
            super().reset(seed=seed)
        elif seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)

    # --- the env API ---

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
              ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts a new game (its seed drawn from the env's RNG, itself seeded by ``seed``)."""
        self._seed_rng(seed)
        game_seed = int(self.np_random.integers(2**63))
        self.state = self.game.new_initial_state(game_seed)
        self._return = 0.0
        self._steps = 0
        self._done = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        state = self._require_state()
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        if self.illegal_action == "penalize" and not state.is_legal(int(action)):
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), self.illegal_action_penalty, True, False, info
        state.apply_action_as(self.agent, int(action))
        self._advance()
        self._steps += 1
        ret = state.returns()[self.agent]
        reward, self._return = ret - self._return, ret
        terminated = state.is_terminal()
        truncated = not terminated and self._steps == self.max_episode_steps
        self._done = terminated or truncated
        return self._obs(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent, int8 0/1 (all 0 when it is not to act)."""
        state = self._require_state()
        if state.current_player() != self.agent:
            return np.zeros(self.game.num_distinct_actions(), dtype=MASK_DTYPE)
        return state.legal_actions_mask().astype(MASK_DTYPE)

    def render(self) -> Union[str, np.ndarray, None]:
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return svg_to_rgb(self.state.render_svg(self.agent))
        return f"{self.state!r}\n{json.dumps(self.state.view(self.agent), sort_keys=True)}"

    def close(self) -> None:
        self.state = None

    # --- internals ---

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _advance(self) -> None:
        """Plays chance and the other seats until the agent is to act or the game is over."""
        state = self._require_state()
        rng = self.np_random
        while True:
            p = state.current_player()
            if p == self.agent or state.is_terminal():
                return
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action_as(p, int(self.opponent(state, rng)))

    def _obs(self) -> np.ndarray:
        if self.observation == "compact":
            return self._require_state().compact_observation(self.agent)
        return self._require_state().observation_tensor(self.agent)

    def _info(self) -> Dict[str, Any]:
        return {"action_mask": self.action_masks()}
