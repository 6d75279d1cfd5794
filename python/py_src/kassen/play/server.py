"""The local web page: a standard-library HTTP server bound to 127.0.0.1 only.

Routes: ``GET /`` the page; ``GET /api/state?since=N`` the seat's snapshot (events from its
N-th on); ``POST /api/act`` with ``{"action": id, "since": N}`` plays an action for the seat
and the bots after it. Game client routes: ``POST /api/ready`` (the next person takes the
screen after a hand-off), ``POST /api/new`` with ``{"game", "players", "seed"}``, ``GET
/api/saves``, ``POST /api/save`` and ``POST /api/load`` with ``{"name"}`` (games are saved
on the server's side, never sent to the page). Errors are ``{"error": message, "code":
number}`` with status 400."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, urlparse

from kassen.exceptions import KassenError
from kassen.play.page import PAGE
from kassen.play.session import Session

#: Called with (path, response body) for every response; tests record what leaves the server.
Recorder = Callable[[str, bytes], None]

HOST = "127.0.0.1"
CLIENT_ROUTES = ("/api/ready", "/api/new", "/api/save", "/api/load")
MAX_BODY = 1 << 16


def make_server(session: Session, port: int = 0, record: Optional[Recorder] = None) -> ThreadingHTTPServer:
    """A server for ``session`` on 127.0.0.1:``port`` (0: any free port); call
    ``serve_forever`` on it."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            if record is not None:
                record(self.path, body)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, value: Any) -> None:
            self._send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

        def _since(self, query: dict[str, list[str]]) -> int:
            try:
                return max(0, int(query.get("since", ["0"])[0]))
            except ValueError:
                return 0

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            if url.path == "/":
                self._send(200, PAGE.encode("utf-8"), "text/html; charset=utf-8")
            elif url.path == "/api/state":
                self._json(200, session.snapshot(self._since(parse_qs(url.query))))
            elif url.path == "/api/saves":
                self._json(200, {"saves": session.saves()})
            else:
                self._json(404, {"error": "not found", "code": 5})

        def do_POST(self) -> None:  # noqa: N802
            url = urlparse(self.path)
            if url.path in CLIENT_ROUTES:
                self._client(url.path)
                return
            if url.path != "/api/act":
                self._json(404, {"error": "not found", "code": 5})
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
                if not 0 < length <= MAX_BODY:
                    raise ValueError("request body missing or too large")
                req = json.loads(self.rfile.read(length))
                action = req["action"]
                if not isinstance(action, int) or isinstance(action, bool):
                    raise ValueError("action must be an integer id")
                since = req.get("since", 0)
                self._json(200, session.act(action, since if isinstance(since, int) else 0))
            except (ValueError, KeyError, TypeError) as e:
                code = getattr(e, "code", 5)
                self._json(400, {"error": str(e), "code": code})

        def _client(self, path: str) -> None:
            """The game client's routes (see the module docs)."""
            try:
                length = int(self.headers.get("Content-Length", "0"))
                if not 0 <= length <= MAX_BODY:
                    raise ValueError("request body too large")
                req = json.loads(self.rfile.read(length)) if length else {}
                if not isinstance(req, dict):
                    raise ValueError("the request body must be a JSON object")
                if path == "/api/ready":
                    self._json(200, session.take_over())
                elif path == "/api/new":
                    players, seed, game = req.get("players"), req.get("seed", 0), req.get("game")
                    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                        raise ValueError("players must be a list of 'human' or bot specs")
                    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                        raise ValueError("seed must be a non-negative integer")
                    if game is not None and not isinstance(game, str):
                        raise ValueError("game must be a game id")
                    self._json(200, session.new_game(game, players, seed))
                elif path == "/api/save":
                    self._json(200, session.save(req.get("name")))
                else:
                    self._json(200, session.load(req.get("name")))
            except (ValueError, KeyError, TypeError, OSError, KassenError) as e:
                self._json(400, {"error": str(e), "code": getattr(e, "code", 5)})

    return ThreadingHTTPServer((HOST, port), Handler)
