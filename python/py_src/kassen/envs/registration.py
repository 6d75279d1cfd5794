"""Gymnasium ids for every registered game and config: ``kassen/<game>-p<players>[-<key>_<value>...]-v0``
(keys of the config other than ``players``, sorted; ``explicit_chance`` configs are left out,
the envs resolve chance themselves). ``gymnasium.make(id)`` builds a :class:`KassenEnv`,
``gymnasium.make_vec(id, num_envs=N)`` a :class:`KassenVectorEnv`; keyword arguments go to
their constructors (``agent``, ``max_episode_steps``, ...)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Tuple

from kassen._kassen import covered_configs, games, load_game

__all__ = ["env_id", "env_ids", "register_envs"]

NAMESPACE = "kassen"
VERSION = 0


def env_id(game_id: str, config: Mapping[str, Any]) -> str:
    """The Gymnasium id of one game and config."""
    players = load_game(game_id, dict(config)).num_players()
    extra = "".join(f"-{k}_{str(v).lower()}" for k, v in sorted(config.items()) if k != "players")
    return f"{NAMESPACE}/{game_id}-p{players}{extra}-v{VERSION}"


def env_ids() -> Dict[str, Tuple[str, Dict[str, Any]]]:
    """Every id, with the (game id, config) it stands for."""
    return {
        env_id(gid, config): (gid, dict(config))
        for gid in sorted(games())
        for config in covered_configs(gid)
        if not config.get("explicit_chance")
    }


def register_envs() -> List[str]:
    """Registers every id with Gymnasium (again: replaced); returns the ids."""
    import gymnasium

    ids = env_ids()
    for name, (gid, config) in ids.items():
        if name in gymnasium.registry:
            del gymnasium.registry[name]
        gymnasium.register(
            id=name,
            entry_point="kassen.envs.single:KassenEnv",
            vector_entry_point="kassen.envs.vector:KassenVectorEnv",
            kwargs={"game": gid, "config": config},
        )
    return list(ids)
