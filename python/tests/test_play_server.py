"""The play server's web defences (issue 24.8, 37.6): a per-session token and a Host/Origin
check on every API request (exactly one Host header), bounded bodies and JSON depth, idle and
trickling connections timed out, a large listen backlog, moves that name the step they answer
so a repeated request plays once, bots that think in the background, and only the offered
bots."""

from __future__ import annotations

import http.client
import json
import re
import select
import socket
import threading
import time

import pytest

import kassen
from kassen.play import Session, make_server
from kassen.play import files as files_mod
from kassen.play import server as server_mod


@pytest.fixture()
def served(monkeypatch):
    monkeypatch.setattr(server_mod, "IDLE_TIMEOUT", 1.0)
    session = Session("samurai", {"players": 2}, seat=0, seed=5)
    srv = make_server(session, 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield session, srv
    session.close()
    srv.shutdown()
    srv.server_close()


def request(srv, method, path, body=None, headers=None, token=True, timeout=10):
    port = srv.server_address[1]
    h = {"Host": f"127.0.0.1:{port}"}
    if token:
        h["X-Kassen-Token"] = srv.token
    h.update(headers or {})
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    c.request(method, path, body=data, headers=h)
    r = c.getresponse()
    out = r.status, r.read()
    c.close()
    return out


def test_the_page_carries_the_token_and_the_api_needs_it(served):
    session, srv = served
    status, page = request(srv, "GET", "/", token=False)
    assert status == 200
    assert re.search(rb'name="kassen-token" content="([^"]+)"', page).group(1) == srv.token.encode()
    assert request(srv, "GET", "/api/state", token=False)[0] == 403
    assert request(srv, "GET", "/api/state", headers={"X-Kassen-Token": "guess"}, token=False)[0] == 403
    status, body = request(srv, "GET", "/api/state")
    assert status == 200 and json.loads(body)["seat"] == 0


def test_a_cross_origin_text_plain_post_plays_nothing(served):
    session, srv = served
    before = list(session.state.history())
    snap = session.snapshot()
    move = {"action": snap["legal"][0]["id"], "since": 0, "step": snap["step"]}
    # What a form or fetch of another site can send: no token (CSRF).
    status, _ = request(srv, "POST", "/api/act", json.dumps(move).encode(), {"Content-Type": "text/plain", "Origin": "http://evil.example"}, token=False)
    assert status == 403
    # Even with the token, another Origin is refused.
    status, _ = request(srv, "POST", "/api/act", move, {"Origin": "http://evil.example"})
    assert status == 403
    assert list(session.state.history()) == before


def test_a_rebound_host_name_is_refused(served):
    _, srv = served
    port = srv.server_address[1]
    assert request(srv, "GET", "/api/state", headers={"Host": f"attacker.example:{port}"})[0] == 421
    assert request(srv, "GET", "/", headers={"Host": f"attacker.example:{port}"})[0] == 421
    assert request(srv, "GET", "/api/state", headers={"Host": f"localhost:{port}"})[0] == 200


def test_deep_or_large_bodies_get_an_answer(served):
    session, srv = served
    status, body = request(srv, "POST", "/api/act", b"[" * 100000 + b"]" * 100000)
    assert status == 413
    status, body = request(srv, "POST", "/api/act", b"[" * 30000)
    assert status == 400 and json.loads(body)["code"] == 5
    status, body = request(srv, "POST", "/api/act", b'{"action": [[[[[[[[[[1]]]]]]]]]], "step": 0}')
    assert status == 400 and "deeper" in json.loads(body)["error"]
    status, body = request(srv, "POST", "/api/act", b'{"action": "x", "step": 0}')
    assert status == 400


def test_a_duplicated_move_is_played_once(served):
    session, srv = served
    snap = session.snapshot()
    move = {"action": snap["legal"][0]["id"], "since": snap["events_total"], "step": snap["step"]}
    status, first = request(srv, "POST", "/api/act", move)
    assert status == 200 and json.loads(first)["applied"] is True
    after = list(session.state.history())
    status, again = request(srv, "POST", "/api/act", move)
    assert status == 200 and json.loads(again)["applied"] is False
    assert list(session.state.history()) == after
    # A move must name its step.
    assert request(srv, "POST", "/api/act", {"action": move["action"]})[0] == 400


def test_idle_connections_are_closed_and_the_backlog_is_large(served):
    _, srv = served
    assert srv.request_queue_size >= 128
    s = socket.create_connection(srv.server_address, timeout=10)
    start = time.monotonic()
    s.sendall(b"GET / HTTP/1.1\r\n")  # and then nothing more
    assert s.recv(100) == b""  # closed by the server
    assert time.monotonic() - start < 8
    s.close()


def test_the_client_files_are_served_read_only_with_their_types(served):
    _, srv = served
    # The installed package carries the web client (kassen/web, the repository's web/).
    for name in ("play.html", "js/play.js", "js/board.js", "js/log.js", "js/moves.js", "js/api.js", "css/board.css"):
        assert (files_mod.WEB_DIR / name).is_file(), name
    status, page = request(srv, "GET", "/", token=False)
    assert status == 200 and b'<script type="module" src="js/play.js">' in page
    for path, kind in (("/js/play.js", "text/javascript"), ("/js/board.js", "text/javascript"), ("/css/board.css", "text/css")):
        port = srv.server_address[1]
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        r = c.getresponse()
        body = r.read()
        c.close()
        assert r.status == 200 and r.getheader("Content-Type").startswith(kind), path
        assert body == (files_mod.WEB_DIR / path[1:]).read_bytes()
    # The token is filled in when the page is served, never written into the files.
    assert srv.token.encode() not in (files_mod.WEB_DIR / "play.html").read_bytes()
    for path in ("/../pyproject.toml", "/js/../../kassen/__init__.py", "/%2e%2e/play/server.py", "/js/%2e%2e/play.html",
                 "/js/", "/css/../js/play.js", "//etc/passwd", "/web/play.html", "/js/nope.js"):
        assert request(srv, "GET", path, token=False)[0] == 404, path
    # Files are checked for Host like the API.
    assert request(srv, "GET", "/js/play.js", headers={"Host": "attacker.example"}, token=False)[0] == 421


def _raw(srv, data: bytes) -> bytes:
    """Sends ``data`` as it is and returns everything the server answers."""
    s = socket.create_connection(srv.server_address, timeout=30)
    s.sendall(data)
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
    s.close()
    return out


def test_every_host_header_is_checked(served):
    _, srv = served
    port = srv.server_address[1]
    for hosts in ([f"127.0.0.1:{port}", "attacker.example"], ["attacker.example", f"127.0.0.1:{port}"],
                  [f"127.0.0.1:{port}", f"127.0.0.1:{port}"], []):
        head = "".join(f"Host: {h}\r\n" for h in hosts)
        answer = _raw(srv, f"GET /api/state HTTP/1.1\r\n{head}X-Kassen-Token: {srv.token}\r\n\r\n".encode())
        assert answer.split(b" ", 2)[1] in (b"400", b"421"), (hosts, answer[:80])
        assert b'"seat"' not in answer
    answer = _raw(srv, f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Kassen-Token: {srv.token}\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.0 200")


def test_a_client_trickling_its_headers_is_cut_off(monkeypatch):
    # Each byte comes well within the idle timeout; the whole request never ends.
    monkeypatch.setattr(server_mod, "IDLE_TIMEOUT", 3.0)
    monkeypatch.setattr(server_mod, "REQUEST_TIMEOUT", 4.0)
    srv = make_server(Session("samurai", {"players": 2}, seat=0, seed=5), 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        s = socket.create_connection(srv.server_address, timeout=30)
        stream = f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{srv.server_address[1]}\r\nX-Pad: ".encode() + b"a" * 1000
        closed = False
        for byte in stream[:60]:  # a minute at one byte a second: the server must end it first
            try:
                s.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            readable, _, _ = select.select([s], [], [], 1.0)
            if readable:
                try:
                    closed = s.recv(100) == b""
                except OSError:
                    closed = True
                break
        s.close()
        assert closed, "a trickling client held the connection open"
    finally:
        srv.shutdown()
        srv.server_close()


def _first_to_act(game_id: str, seed: int) -> int:
    state = kassen.load_game(game_id).new_initial_state(seed)
    while state.current_player() == kassen.CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    return state.current_player()


def test_the_state_is_answered_while_a_bot_thinks(served, tmp_path):
    session, srv = served
    session.save_dir = tmp_path
    first = _first_to_act("sekigahara", 1)
    players = ["human", "human"]
    players[first] = "ismcts:hard"  # up to 4 s a move, many moves a turn
    try:
        status, body = request(srv, "POST", "/api/new", {"game": "sekigahara", "players": players, "seed": 1}, timeout=60)
        assert status == 200 and json.loads(body)["thinking"]["seat"] == first
        status, body = request(srv, "GET", "/api/state", timeout=60)
        assert status == 200
        snap = json.loads(body)
        assert snap["thinking"]["seat"] == first and snap["legal"] == []
        assert request(srv, "POST", "/api/save", {"name": "mid-turn"}, timeout=60)[0] == 200
        # A new game during the bot's turn is answered and ends that turn.
        status, body = request(srv, "POST", "/api/new", {"game": "samurai", "players": ["human", "random"], "seed": 2}, timeout=60)
        assert status == 200 and json.loads(body)["game"] == "samurai"
        assert session.wait(60)
    finally:
        session.close()


def test_only_the_offered_bots_may_play(served):
    session, srv = served
    before = session.state.history()
    offered = {b["spec"] for b in session.snapshot()["bots"]}
    assert {"random", "monte_carlo", "ismcts:easy", "ismcts:normal", "ismcts:hard"} <= offered
    for players in (["ismcts@20000ms", "human"], ["human", "ismcts:easy@4294967295ms"], ["human", "monte_carlo:100000"],
                    ["human", "x" * 10000]):
        status, body = request(srv, "POST", "/api/new", {"players": players, "seed": 1})
        answer = json.loads(body)
        assert status == 400 and answer["code"] == 101, players
        assert len(answer["error"]) < 1000
    assert session.state.history() == before and session.players == ["human", "random"]
    status, body = request(srv, "POST", "/api/new", {"players": ["ismcts:easy", "human"], "seed": 1})
    assert status == 200 and json.loads(body)["players"] == ["ismcts:easy", "human"]
    session.close()


def test_new_game_config_speed_saves_and_replay_routes(served, tmp_path):
    session, srv = served
    session.save_dir = tmp_path
    status, body = request(srv, "POST", "/api/new", {"game": "samurai", "config": {"players": 3},
                                                     "players": ["human", "random", "random"], "seed": 1})
    assert status == 200 and len(json.loads(body)["seat_names"]) == 3
    for bad in ([1], "x", 3):
        assert request(srv, "POST", "/api/new", {"config": bad, "players": ["human", "random", "random"]})[0] == 400
    assert request(srv, "POST", "/api/save", {"name": "three"})[0] == 200
    status, body = request(srv, "GET", "/api/saves")
    listed = json.loads(body)
    assert listed["saves"] == ["three"] and listed["games"][0]["name"] == "three" and listed["games"][0]["game"] == "Samurai"
    status, body = request(srv, "GET", "/api/replay?name=three", timeout=60)
    assert status == 200 and body.decode("utf-8") == session.state.replay_html(0)
    assert request(srv, "GET", "/api/replay", timeout=60)[0] == 200
    assert request(srv, "GET", "/api/replay", token=False)[0] == 403
    assert request(srv, "GET", "/api/replay?name=../x")[0] == 400
    assert request(srv, "POST", "/api/speed", {"delay_ms": 100})[0] == 200 and session.delay_ms == 100
    assert request(srv, "POST", "/api/speed", {"delay_ms": -5})[0] == 400 and session.delay_ms == 100
