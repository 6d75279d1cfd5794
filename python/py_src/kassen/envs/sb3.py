"""Stable-Baselines3 over kassen's vector env: :class:`Sb3VecEnv` speaks SB3's ``VecEnv``
interface over a :class:`~kassen.envs.vector.KassenVectorEnv` (many games per native call, the
other seats played inside Rust), and ``env_method("action_masks")`` serves sb3-contrib's
MaskablePPO::

    from sb3_contrib import MaskablePPO
    from kassen.envs.sb3 import make_sb3_vec_env

    venv = make_sb3_vec_env("samurai", {"players": 2}, num_envs=16, opponent="random", seed=0)
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)

Stable-Baselines3 (and so torch) is imported only by :func:`sb3_vec_env` and
:func:`make_sb3_vec_env`, which subclass SB3's ``VecEnv``; :class:`Sb3VecEnv` itself needs
only numpy and gymnasium, and works wherever SB3 takes a duck-typed VecEnv.

What SB3 expects, and what it gets:

- ``reset()`` returns the observations; ``seed(s)`` makes the next ``reset`` restart every
  env's seed stream from ``s``;
- ``step_wait()`` returns ``(obs, rewards float32, dones bool, infos)``; an env whose episode
  ended in the step is already reset (both reset within the step), its ``infos[i]`` holds
  ``"episode"`` (``{"r": return, "l": length, "t": 0.0}``, as SB3's ``Monitor`` writes it) and
  ``"TimeLimit.truncated"``. The last observation of an ended episode is not available from
  the native batch, so there is no ``"terminal_observation"`` (SB3 then skips bootstrapping
  from a truncated episode's last value);
- ``action_masks()`` and ``env_method("action_masks")``: bool masks, one row per env.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np

from kassen.envs.vector import KassenVectorEnv

__all__ = ["Sb3VecEnv", "sb3_vec_env", "make_sb3_vec_env"]


class Sb3VecEnv:
    """Stable-Baselines3's VecEnv interface over :class:`KassenVectorEnv` (see the module
    docstring). Subclassed from SB3's ``VecEnv`` by :func:`sb3_vec_env` when SB3 is there."""

    def __init__(self, env: KassenVectorEnv) -> None:
        self.env = env
        self.num_envs = env.num_envs
        self.observation_space = env.single_observation_space
        self.action_space = env.single_action_space
        self.render_mode = None
        self._actions: Optional[np.ndarray] = None
        self._seed: Optional[int] = None

    def reset(self) -> np.ndarray:
        obs, _ = self.env.reset(seed=self._seed)
        self._seed = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["episode"] = {"r": float(info["episode_return"][i]), "l": int(info["episode_length"][i]), "t": 0.0}
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, reward.astype(np.float32), dones, infos

    def step(self, actions: np.ndarray) -> tuple:
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env, bool ``(num_envs, num_actions)``."""
        return self.env.action_masks().astype(bool)

    def env_method(self, name: str, *args: Any, indices: Any = None, **kwargs: Any) -> List[Any]:
        if name != "action_masks":
            raise AttributeError(f"the kassen vector env has no per-env method {name!r}")
        return list(self.action_masks()[list(self._indices(indices))])

    def get_attr(self, name: str, indices: Any = None) -> List[Any]:
        return [getattr(self.env, name) for _ in self._indices(indices)]

    def set_attr(self, name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, name, value)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        self._seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        self.env.close()

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, (int, np.integer)) else list(indices)


def sb3_vec_env(env: KassenVectorEnv) -> Any:
    """:class:`Sb3VecEnv` as a real ``stable_baselines3`` VecEnv (imports SB3, hence torch)."""
    from stable_baselines3.common.vec_env import VecEnv

    class KassenSb3VecEnv(Sb3VecEnv, VecEnv):  # type: ignore[misc]
        def __init__(self, env: KassenVectorEnv) -> None:
            self.render_mode = None  # before VecEnv's constructor, which warns if it is missing
            VecEnv.__init__(self, env.num_envs, env.single_observation_space, env.single_action_space)
            Sb3VecEnv.__init__(self, env)

    return KassenSb3VecEnv(env)


def make_sb3_vec_env(game: str = "samurai", config: Optional[Mapping[str, Any]] = None, num_envs: int = 8,
                     **options: Any) -> Any:
    """``sb3_vec_env(KassenVectorEnv(game, config, num_envs, **options))``: the options are the
    vector env's (``agent``, ``opponent``, ``threads``, ``max_episode_steps``, ``seed``, ...)."""
    return sb3_vec_env(KassenVectorEnv(game, config, num_envs, **options))
