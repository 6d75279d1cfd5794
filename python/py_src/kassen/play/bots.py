"""The bots of a play session, playing in the background: one thread per run of bot turns,
one move at a time. A bot thinks on a copy of the state, outside the session's lock, so the
page's requests (the state, save, a new game) are answered while it thinks; its move is
applied under the lock only if the game is still the one it thought about.

The IS-MCTS levels search with :class:`kassen.Search`, which reports its progress (iterations
so far) and stops at once when the game it searches is replaced."""

from __future__ import annotations

import random
import threading
from typing import Any, Callable, Optional

from kassen._kassen import Search, State
from kassen.bots import make_bot

#: How often a running search's progress is read (seconds).
POLL = 0.05
SEARCH_PREFIX = "ismcts:"
LEVELS = ("instant", "easy", "normal", "hard")


class SeatBot:
    """The bot ``spec`` of one seat, seeded ``seed``: ``decide(state, cancelled, progress)``
    returns its action for ``state`` (a copy it may keep), or None when ``cancelled`` is set
    before it decides. ``progress`` is called with ``{"iterations", "elapsed_ms"}`` while an
    IS-MCTS level searches."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self._bot = make_bot(spec, seed)  # checks the spec
        self._seeds = random.Random(seed)
        level = spec[len(SEARCH_PREFIX):] if spec.startswith(SEARCH_PREFIX) else None
        self._level = level if level in LEVELS else None

    def decide(self, state: State, cancelled: threading.Event,
               progress: Callable[[dict[str, Any]], None]) -> Optional[int]:
        if self._level is None:
            action = int(self._bot.choose(state))
            return None if cancelled.is_set() else action
        search = Search(state, {"level": self._level}, self._seeds.getrandbits(63))
        try:
            while not search.done:
                if cancelled.wait(POLL):
                    search.stop()
                    return None
                p = search.progress()
                progress({"iterations": p["iterations"], "elapsed_ms": round(p["elapsed_ms"])})
            return None if cancelled.is_set() else int(search.result()["action"])
        finally:
            search.stop()


__all__ = ["SeatBot"]
