"""Reinforcement-learning environments over any kassen game.

- :class:`KassenEnv`: Gymnasium-style single-agent env. The learner plays one seat, the other
  seats are played by a policy (uniformly random by default).
- :class:`KassenAECEnv`: PettingZoo-AEC-style multi-agent env, one agent per seat.
- :class:`KassenParallelEnv`: the same game as a PettingZoo parallel env (the agent to act
  moves; the others' actions are ignored).
- :class:`KassenVectorEnv`: a ``gymnasium.vector.VectorEnv`` over the native batch (many games
  per call, GIL released, the other seats played by a bot in Rust; needs gymnasium).
Each is imported on first use.

With Gymnasium installed, every game and config has an id (:mod:`kassen.envs.registration`;
registered once both ``kassen`` and ``gymnasium`` are imported, in either order):
``gymnasium.make("kassen/samurai-p2-v0")`` gives a :class:`KassenEnv`,
``gymnasium.make_vec("kassen/samurai-p2-v0", num_envs=64)`` a :class:`KassenVectorEnv`.
:mod:`kassen.envs.sb3` adapts the vector env to Stable-Baselines3's ``VecEnv``.

Every env returns int8 action masks (:data:`MASK_DTYPE`), has finite observation bounds from
the game's observation layout, a ``max_episode_steps`` truncation option and an
``illegal_action`` policy (``"penalize"`` by default, or ``"raise"``; see
:mod:`kassen.envs.common`).

Gymnasium and PettingZoo are optional. If ``gymnasium`` is installed, ``KassenEnv``
subclasses ``gymnasium.Env`` and uses ``gymnasium.spaces``; if ``pettingzoo`` is installed,
``KassenAECEnv`` subclasses ``pettingzoo.AECEnv``. Without them both classes still work (same
methods, same semantics) with the small stand-in spaces of :mod:`kassen.envs.spaces`.
"""

from importlib import import_module
from typing import Any

from kassen.envs.common import ILLEGAL_ACTION_POLICIES, MASK_DTYPE

#: Where each env lives; imported on first use, so that ``import kassen`` (which registers the
#: Gymnasium ids) does not import PettingZoo.
_LAZY = {
    "KassenEnv": "kassen.envs.single",
    "random_policy": "kassen.envs.single",
    "KassenAECEnv": "kassen.envs.aec",
    "KassenParallelEnv": "kassen.envs.parallel",
    "KassenVectorEnv": "kassen.envs.vector",
}

__all__ = ["KassenEnv", "KassenAECEnv", "KassenParallelEnv", "KassenVectorEnv", "random_policy",
           "MASK_DTYPE", "ILLEGAL_ACTION_POLICIES"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kassen.envs' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(__all__)
