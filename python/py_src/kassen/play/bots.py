"""The bots of a play session, playing in the background: one thread per run of bot turns,
one move at a time. A bot thinks on a copy of the state, outside the session's lock, so the
page's requests (the state, save, a new game) are answered while it thinks; its move is
applied under the lock only if the game is still the one it thought about.

The search bots search with :class:`kassen.Search`, which reports its progress (iterations so
far) and stops at once when the game it searches is replaced; each spends its share of its
level's budget per whole turn."""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from kassen._kassen import State
from kassen.bots import make_bot

#: How often a running search's progress is read (seconds).
POLL = 0.05


class SeatBot:
    """The bot ``spec`` of one seat, seeded ``seed``: ``decide(state, cancelled, progress)``
    returns its action for ``state`` (a copy it may keep), or None when ``cancelled`` is set
    before it decides. ``progress`` is called with ``{"iterations", "elapsed_ms"}`` while a
    search bot searches.

    A search bot searches in the background (:meth:`kassen.Bot.start_search`) with its own
    budget: the levels' and ``ismcts:N/turn``'s budget per whole turn, shared among the turn's
    decisions (each search is handed back with :meth:`kassen.Bot.record`)."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self._bot = make_bot(spec, seed)  # checks the spec

    def decide(self, state: State, cancelled: threading.Event,
               progress: Callable[[dict[str, Any]], None]) -> Optional[int]:
        search = self._bot.start_search(state)
        if search is None:
            action = int(self._bot.choose(state))
            return None if cancelled.is_set() else action
        try:
            while not search.done:
                if cancelled.wait(POLL):
                    search.stop()
                    return None
                p = search.progress()
                progress({"iterations": p["iterations"], "elapsed_ms": round(p["elapsed_ms"])})
            self._bot.record(state, search)
            return None if cancelled.is_set() else int(search.result()["action"])
        finally:
            search.stop()

    def last_decision(self) -> Optional[dict[str, Any]]:
        """The statistics of the bot's last searched decision (see :meth:`kassen.Bot.last_decision`)."""
        return self._bot.last_decision()


__all__ = ["SeatBot"]
