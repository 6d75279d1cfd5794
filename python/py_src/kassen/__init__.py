"""kassen: rules engine for historical board games.

OpenSpiel-style API over a Rust core::

    import kassen
    game = kassen.load_game("samurai", players=3)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

``Game`` and ``State`` are the native classes (no Python wrapper, so calls stay fast).
Bots: ``kassen.Bot("ismcts:hard", seed=1).choose(state)`` (any built-in bot by name, listed by
``bot_specs()``), ``kassen.analyze(state, {"level": "normal"})`` for a decision with its
statistics, and ``kassen.Search(state, params)`` for a search on worker threads that a user
interface polls and stops. Errors are :mod:`kassen.exceptions` classes carrying ``.code``. A ``State`` may be shared
between threads: calls on it are serialized by a lock inside it (see the README). Optional extras:
:mod:`kassen.envs` (Gymnasium / PettingZoo style environments) and :mod:`kassen.testing`.
When Gymnasium is installed, an id for every game and config is registered with it
(``gymnasium.make("kassen/samurai-p2-v0")``, ``gymnasium.make_vec(..., num_envs=64)``): at once
if Gymnasium is already imported, else right after it is imported, so ``import kassen`` itself
never imports Gymnasium (see :mod:`kassen.envs.registration`).
"""

from __future__ import annotations

from importlib.util import find_spec as _find_spec

from kassen import exceptions
from kassen._kassen import (
    CHANCE,
    NAMED_POSITION_FORMAT,
    POSITION_FORMAT,
    SPECTATOR,
    STATE_FORMAT,
    TERMINAL,
    Batch,
    Bot,
    Game,
    MonteCarloBot,
    RandomBot,
    Search,
    State,
    __version__,
    analyze,
    bot_specs,
    covered_configs,
    games,
    load_game,
)
from kassen.view import View
from kassen.replay import replay_html
from kassen.exceptions import (
    ArgumentTypeError,
    GameOverError,
    IllegalActionError,
    InvalidArgumentError,
    KassenError,
    LoadError,
    NotYourTurnError,
    RuleError,
    SetupError,
    UnreadableMoveError,
)

if _find_spec("gymnasium") is not None:
    from kassen.envs.registration import register_when_gymnasium_imports as _register_lazily

    _register_lazily()

__all__ = [
    "CHANCE",
    "NAMED_POSITION_FORMAT",
    "POSITION_FORMAT",
    "SPECTATOR",
    "STATE_FORMAT",
    "TERMINAL",
    "Batch",
    "Bot",
    "Game",
    "MonteCarloBot",
    "RandomBot",
    "Search",
    "State",
    "analyze",
    "bot_specs",
    "__version__",
    "covered_configs",
    "games",
    "load_game",
    "View",
    "replay_html",
    "exceptions",
    "KassenError",
    "SetupError",
    "RuleError",
    "LoadError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "InvalidArgumentError",
    "ArgumentTypeError",
    "UnreadableMoveError",
]
