"""Reinforcement-learning environments over any kassen game.

- :class:`KassenEnv`: Gymnasium-style single-agent env. The learner plays one seat, the other
  seats are played by a policy (uniformly random by default).
- :class:`KassenAECEnv`: PettingZoo-AEC-style multi-agent env, one agent per seat.

Gymnasium and PettingZoo are optional. If ``gymnasium`` is installed, ``KassenEnv``
subclasses ``gymnasium.Env`` and uses ``gymnasium.spaces``; if ``pettingzoo`` is installed,
``KassenAECEnv`` subclasses ``pettingzoo.AECEnv``. Without them both classes still work (same
methods, same semantics) with the small stand-in spaces of :mod:`kassen.envs.spaces`.
"""

from kassen.envs.aec import KassenAECEnv
from kassen.envs.single import KassenEnv, random_policy

__all__ = ["KassenEnv", "KassenAECEnv", "random_policy"]
