"""Language-model agents playing kassen from text: one game against the built-in bots
(:class:`Match`), a chat-completions client (:class:`ChatEndpoint`) and the benchmark harness
(:func:`run`, ``python -m kassen.agents``; docs/agents.md)."""

from __future__ import annotations

from kassen.agents.endpoint import ChatEndpoint, EndpointError, Reply
from kassen.agents.harness import GameSpec, estimate_tokens, play_game, run, summarize
from kassen.agents.match import DEFAULT_BOT, Match

__all__ = [
    "ChatEndpoint",
    "DEFAULT_BOT",
    "EndpointError",
    "GameSpec",
    "Match",
    "Reply",
    "estimate_tokens",
    "play_game",
    "run",
    "summarize",
]
