"""Play a seat of any registered game in the browser against bots.

``python -m kassen.play GAME [CONFIG_JSON] [--seat N] [--port P] [--seed S]`` serves a page
on 127.0.0.1 where legal moves are clickable on the board (elements whose ``data-target``
an action names) or in a list built from ``action_to_json``, and the seat's events appear
in a log as they come. The other seats are played by bots choosing random legal moves. The
page only ever receives the seat's own view, picture, events and legal actions."""

from __future__ import annotations

from kassen.play.server import make_server
from kassen.play.session import RandomBot, Session

__all__ = ["Session", "RandomBot", "make_server"]
