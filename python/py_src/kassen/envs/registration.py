"""Gymnasium ids for every registered game and config: ``kassen/<game>-p<players>[-<key>_<value>...]-v0``
(keys of the config other than ``players``, sorted; ``explicit_chance`` configs are left out,
the envs resolve chance themselves). ``gymnasium.make(id)`` builds a :class:`KassenEnv`,
``gymnasium.make_vec(id, num_envs=N)`` a :class:`KassenVectorEnv`; keyword arguments go to
their constructors (``agent``, ``max_episode_steps``, ...).

The ids are registered lazily: ``import kassen`` does not import Gymnasium (about a second).
If Gymnasium is already imported, ``import kassen`` registers the ids at once; otherwise it
leaves a hook (:func:`register_when_gymnasium_imports`) that registers them right after
``import gymnasium`` runs, whichever module imports it (Stable-Baselines3's ``make_vec_env``,
RLlib, ...). Gymnasium 1.x has no plugin entry points, so this hook is what makes
``import kassen`` enough in either import order. :func:`register_envs` registers them
explicitly.
"""

from __future__ import annotations

import importlib.abc
import sys
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from kassen._kassen import covered_configs, games, load_game

__all__ = ["env_id", "env_ids", "register_envs", "register_when_gymnasium_imports"]

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


class _AfterGymnasiumImport(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` with the other finders and makes its loader call
    :func:`register_envs` once the module has run; then leaves ``sys.meta_path``."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]], target: Any = None) -> Any:
        if fullname != "gymnasium":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            _remove_hook()
            try:
                register_envs()
            except Exception as e:  # never break `import gymnasium` itself
                warnings.warn(f"kassen could not register its Gymnasium ids: {e!r}", RuntimeWarning, stacklevel=2)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AfterGymnasiumImport)]


def register_when_gymnasium_imports() -> None:
    """Registers the ids now if Gymnasium is imported, else right after it is (see the module
    docstring); never imports Gymnasium itself. ``import kassen`` calls it."""
    if "gymnasium" in sys.modules:
        register_envs()
    elif not any(isinstance(f, _AfterGymnasiumImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasiumImport())
