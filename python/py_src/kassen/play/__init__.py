"""Play any registered game in the browser, against bots or with several people at one screen.

``python -m kassen.play GAME [CONFIG_JSON] [--seat N | --players human,monte_carlo,...]
[--port P] [--seed S] [--save-dir DIR]`` serves a page on 127.0.0.1 where legal moves are
named as sentences and clickable on the board (elements whose ``data-target`` an action
names), the seat's events appear as sentences in a log, and the last move is highlighted.
Each seat is played by a person or a built-in bot (:func:`kassen.bots.bot_specs`); between
two people a hand-off screen hides the previous seat. The page can start a new game, save and
load games (files on the server's side) and ends with a result screen. It only ever receives
the seat on screen's own view, picture, events and legal actions."""

from __future__ import annotations

from kassen.play.server import make_server
from kassen.play.session import RandomBot, Session, action_sentence

__all__ = ["Session", "RandomBot", "action_sentence", "make_server"]
