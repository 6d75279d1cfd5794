"""Self-contained HTML replays: ``replay_html(saved, seat)`` is a page with the board as
``seat`` (or the spectator, ``-1``) saw it after every action of a saved game, a slider over
the actions and that seat's event log beside the board. Only that seat's views and events go
into the page, so the hidden parts stay hidden as the seat saw them.

CLI: ``python -m kassen.replay saved.json --seat 0 -o replay.html``.
"""

from __future__ import annotations

from typing import Union

from kassen._kassen import SPECTATOR, State

__all__ = ["replay_html"]


def replay_html(saved: Union[State, str], seat: int = SPECTATOR) -> str:
    """The replay page of a saved game (a ``State`` or its ``to_json`` text) for ``seat``."""
    state = State.from_json(saved) if isinstance(saved, str) else saved
    return state.replay_html(seat)
