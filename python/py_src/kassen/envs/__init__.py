"""Reinforcement-learning environments over any kassen game.

- :class:`KassenEnv`: Gymnasium-style single-agent env. The learner plays one seat, the other
  seats are played by a policy (uniformly random by default).
- :class:`KassenAECEnv`: PettingZoo-AEC-style multi-agent env, one agent per seat.
- :class:`KassenParallelEnv`: the same game as a PettingZoo parallel env (the agent to act
  moves; the others' actions are ignored).

Every env returns int8 action masks (:data:`MASK_DTYPE`), has finite observation bounds from
the game's observation layout, a ``max_episode_steps`` truncation option and an
``illegal_action`` policy (``"penalize"`` by default, or ``"raise"``; see
:mod:`kassen.envs.common`).

Gymnasium and PettingZoo are optional. If ``gymnasium`` is installed, ``KassenEnv``
subclasses ``gymnasium.Env`` and uses ``gymnasium.spaces``; if ``pettingzoo`` is installed,
``KassenAECEnv`` subclasses ``pettingzoo.AECEnv``. Without them both classes still work (same
methods, same semantics) with the small stand-in spaces of :mod:`kassen.envs.spaces`.
"""

from kassen.envs.aec import KassenAECEnv
from kassen.envs.common import ILLEGAL_ACTION_POLICIES, MASK_DTYPE
from kassen.envs.parallel import KassenParallelEnv
from kassen.envs.single import KassenEnv, random_policy

__all__ = ["KassenEnv", "KassenAECEnv", "KassenParallelEnv", "random_policy", "MASK_DTYPE",
           "ILLEGAL_ACTION_POLICIES"]
