"""The local web page: a standard-library HTTP server bound to 127.0.0.1 only.

Routes: ``GET /`` the page (``web/play.html`` with the session's token filled in; the
client's scripts and styles under ``/js/`` and ``/css/``, see :mod:`kassen.play.files`);
``GET /api/state?since=N`` the seat's snapshot (events from its N-th on; ``thinking`` names
the bot to act, if any, and its progress); ``POST /api/act`` with ``{"action": id, "since": N,
"step": K}`` plays an action for the seat, and the bots after it start playing in the
background. ``step`` is the snapshot's ``step`` the move answers: a move for any other step (a
repeated or stale request) is not played, and the answer is the current snapshot with
``"applied": false``. Game client routes: ``POST /api/ready`` (the next person takes the
screen after a hand-off), ``POST /api/new`` with ``{"game", "config", "players", "seed"}`` (players:
``"human"`` or a bot the snapshot's ``bots`` offers; others are refused with code 101),
``POST /api/speed`` with ``{"delay_ms"}`` (the pause after each bot move while only bots
play and the page watches as the spectator), ``GET /api/saves`` (names, and per save its game, time, step, turn and whose move),
``GET /api/replay`` (``?name=`` a save; without it the game on screen: the replay page as the
seat saw it), ``POST /api/hint`` (starts the search's hint for the seat on screen, at its own
move: top three moves with win estimates and reasons) and ``GET /api/hint`` (how far it is;
see :meth:`kassen.play.session.Session.hint`), ``POST /api/save`` and ``POST /api/load`` with ``{"name"}`` (games are saved
on the server's side, never sent to the page). Errors are ``{"error": message, "code":
number}`` with a 4xx status.

Defences, as a local server reachable by any page the browser opens must have:

- every ``/api/`` request carries the session's secret token (``X-Kassen-Token``), which only
  the served page holds: another site cannot forge a move (CSRF) nor read the seat's view;
- a request carries exactly one ``Host`` header, naming this server (``127.0.0.1:port`` or
  ``localhost:port``), and an ``Origin`` header, if sent, the same: a DNS-rebound name is
  refused;
- request bodies are at most ``MAX_BODY`` bytes of JSON at most ``MAX_DEPTH`` deep; an idle
  connection is closed after ``IDLE_TIMEOUT`` seconds, and one whose request (line, headers
  and body) has not arrived ``REQUEST_TIMEOUT`` seconds after it connected, however slowly it
  trickles in; the listen backlog is ``BACKLOG``;
- bots think in the background (:class:`kassen.play.session.Session`), so no request waits
  for a bot.
"""

from __future__ import annotations

import hmac
import io
import json
import secrets
import socket
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, urlparse

from kassen.exceptions import KassenError
from kassen.play.files import load_files, with_token
from kassen.play.session import Session

#: Called with (path, response body) for every response; tests record what leaves the server.
Recorder = Callable[[str, bytes], None]

HOST = "127.0.0.1"
MAX_BODY = 1 << 16
MAX_DEPTH = 8
IDLE_TIMEOUT = 15.0
REQUEST_TIMEOUT = 30.0
BACKLOG = 1024
TOKEN_HEADER = "X-Kassen-Token"
CLIENT_ROUTES = ("/api/ready", "/api/new", "/api/save", "/api/load", "/api/speed", "/api/hint")


class RequestError(ValueError):
    """A request the server refuses: ``status`` is the HTTP status, ``code`` the kassen code."""

    def __init__(self, message: str, status: int = 400, code: int = 5) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def parse_body(raw: bytes) -> Any:
    """The JSON of a request body, refusing deep nesting before the parser recurses into it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RequestError("request body is not UTF-8") from e
    if json_depth(text) > MAX_DEPTH:
        raise RequestError(f"request body nests deeper than {MAX_DEPTH}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RequestError(f"request body is not JSON: {e}") from e


class DeadlineReader(io.RawIOBase):
    """A socket's reading end that ends at ``deadline`` (``time.monotonic()``): every read
    waits at most until then (and at most ``idle`` seconds), so a client that sends its request
    a byte at a time cannot hold the server's thread past the deadline."""

    def __init__(self, sock: socket.socket, deadline: float, idle: float) -> None:
        super().__init__()
        self._sock, self._deadline, self._idle = sock, deadline, idle

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("the request took too long to arrive")
        self._sock.settimeout(min(left, self._idle))
        return self._sock.recv_into(buffer)


class PlayServer(ThreadingHTTPServer):
    """The play server: a larger listen backlog than http.server's 5, one secret per server."""

    request_queue_size = BACKLOG
    daemon_threads = True
    token: str


def make_server(session: Session, port: int = 0, record: Optional[Recorder] = None) -> PlayServer:
    """A server for ``session`` on 127.0.0.1:``port`` (0: any free port); call
    ``serve_forever`` on it. Its page carries ``server.token``, the secret every API request
    must send."""
    token = secrets.token_urlsafe(32)
    files = load_files()
    page = with_token(files["/play.html"][0], token)

    class Handler(BaseHTTPRequestHandler):
        timeout = IDLE_TIMEOUT

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def setup(self) -> None:
            super().setup()
            deadline = time.monotonic() + REQUEST_TIMEOUT
            self.rfile = io.BufferedReader(DeadlineReader(self.connection, deadline, IDLE_TIMEOUT))

        def _send(self, status: int, body: bytes, kind: str) -> None:
            if record is not None:
                record(self.path, body)
            self.connection.settimeout(IDLE_TIMEOUT)  # the answer has its own time to leave
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, value: Any) -> None:
            self._send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

        def _since(self, query: dict[str, list[str]]) -> int:
            try:
                return max(0, int(query.get("since", ["0"])[0]))
            except ValueError:
                return 0

        def _check_host(self) -> None:
            port = self.server.server_address[1]
            ours = {f"127.0.0.1:{port}", f"localhost:{port}"}
            hosts = self.headers.get_all("Host") or []
            if len(hosts) != 1:
                raise RequestError("a request must carry exactly one Host header", 400)
            if hosts[0] not in ours:
                raise RequestError("the Host header does not name this server", 421)
            origins = self.headers.get_all("Origin") or []
            if len(origins) > 1:
                raise RequestError("a request may carry one Origin header at most", 400)
            origin = origins[0] if origins else None
            if origin is not None and origin not in {f"http://{h}" for h in ours}:
                raise RequestError("cross-origin requests are refused", 403)

        def _check_token(self) -> None:
            sent = self.headers.get(TOKEN_HEADER, "")
            if not hmac.compare_digest(sent.encode("utf-8", "replace"), token.encode("ascii")):
                raise RequestError(f"missing or wrong {TOKEN_HEADER}", 403)

        def _answer(self, route: Callable[[], None]) -> None:
            try:
                self._check_host()
                route()
            except RequestError as e:
                self._json(e.status, {"error": str(e), "code": e.code})
            except (ValueError, KeyError, TypeError, RecursionError, OSError, KassenError) as e:
                self._json(400, {"error": str(e), "code": getattr(e, "code", 5)})

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._answer(self._get)

        def do_POST(self) -> None:  # noqa: N802
            self._answer(self._post)

        def _get(self) -> None:
            url = urlparse(self.path)
            if url.path in ("/", "/play.html"):
                self._send(200, page, "text/html; charset=utf-8")
            elif url.path in files:
                self._send(200, *files[url.path])
            elif url.path == "/api/state":
                self._check_token()
                self._json(200, session.snapshot(self._since(parse_qs(url.query))))
            elif url.path == "/api/replay":
                self._check_token()
                names = parse_qs(url.query).get("name")
                self._send(200, session.replay(names[0] if names else None).encode("utf-8"), "text/html; charset=utf-8")
            elif url.path == "/api/hint":
                self._check_token()
                self._json(200, session.hint(start=False))
            elif url.path == "/api/saves":
                self._check_token()
                self._json(200, {"saves": session.saves(), "games": session.save_list()})
            else:
                raise RequestError("not found", 404)

        def _body(self, required: bool) -> dict[str, Any]:
            """The request's JSON object (an empty body is ``{}`` where one is not required)."""
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError as e:
                raise RequestError("bad Content-Length") from e
            if length > MAX_BODY or length < 0 or (required and length == 0):
                raise RequestError("request body missing or too large", 413 if length > MAX_BODY else 400)
            req = parse_body(self.rfile.read(length)) if length else {}
            if not isinstance(req, dict):
                raise RequestError("request body must be a JSON object")
            return req

        def _post(self) -> None:
            url = urlparse(self.path)
            if url.path in CLIENT_ROUTES:
                self._check_token()
                self._client(url.path, self._body(required=False))
                return
            if url.path != "/api/act":
                raise RequestError("not found", 404)
            self._check_token()
            req = self._body(required=True)
            action, step = req.get("action"), req.get("step")
            for name, v in (("action", action), ("step", step)):
                if not isinstance(v, int) or isinstance(v, bool):
                    raise RequestError(f"{name} must be an integer")
            since = req.get("since", 0)
            self._json(200, session.act(action, since if isinstance(since, int) else 0, step=step))

        def _client(self, path: str, req: dict[str, Any]) -> None:
            """The game client's routes (see the module docs)."""
            if path == "/api/ready":
                self._json(200, session.take_over())
            elif path == "/api/new":
                players, seed, game = req.get("players"), req.get("seed", 0), req.get("game")
                if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                    raise RequestError("players must be a list of 'human' or bot specs")
                if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                    raise RequestError("seed must be a non-negative integer")
                if game is not None and not isinstance(game, str):
                    raise RequestError("game must be a game id")
                config = req.get("config")
                if config is not None and not isinstance(config, dict):
                    raise RequestError("config must be a JSON object")
                self._json(200, session.new_game(game, players, seed, config))
            elif path == "/api/speed":
                self._json(200, session.set_delay(req.get("delay_ms")))
            elif path == "/api/save":
                self._json(200, session.save(req.get("name")))
            elif path == "/api/hint":
                self._json(200, session.hint(start=True))
            else:
                self._json(200, session.load(req.get("name")))

    server = PlayServer((HOST, port), Handler)
    server.token = token
    return server
