"""Plays a complete game of every registered game by clicking in headless Chromium on the
``kassen.play`` page, and checks that neither the page nor any response of the server ever
holds what the person's seat may not know.

The hidden identities are taken from the full state on the server side: at every step, the
strings of the other seats' views that the person's seat has never been shown (in its views,
events or legal actions so far) must not appear, as whole words, in any response sent since
the last step, nor in the page's DOM (searched every ``DOM_EVERY`` steps and at the end). Screenshots of each game's board go to
``$KASSEN_BROWSER_ARTIFACTS`` (default target/browser-artifacts/) and must have many colours.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import kassen
from kassen.play import Session, make_server
from webdriver import Browser, WebDriverError

#: Configs that end quickly (関ヶ原大作戦 has no end turn of its own).
CONFIGS: dict[str, dict[str, Any]] = {"sekigahara_daisakusen": {"max_turns": 3}}
MAX_CLICKS = 1500
DOM_EVERY = 10
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("KASSEN_BROWSER_ARTIFACTS", ROOT / "target" / "browser-artifacts"))
WORD = "A-Za-z0-9_"


def strings(v: Any, out: set[str]) -> set[str]:
    if isinstance(v, str):
        if len(v) >= 5 and re.search(r"[A-Za-z]", v):
            out.add(v)
    elif isinstance(v, dict):
        for x in v.values():
            strings(x, out)
    elif isinstance(v, list):
        for x in v:
            strings(x, out)
    return out


def contains_word(text: str, word: str) -> bool:
    return re.search(f"(?<![{WORD}]){re.escape(word)}(?![{WORD}])", text) is not None


@pytest.fixture(scope="module")
def browser():
    try:
        b = Browser()
    except WebDriverError as e:
        pytest.fail(str(e))
    yield b
    b.quit()


def count_colours(browser: Browser, png_b64: str) -> int:
    """Distinct colours of a PNG, counted by decoding it in the browser."""
    return browser.run_async(
        """
        const done = arguments[arguments.length - 1];
        const img = new Image();
        img.onload = () => {
          const c = document.createElement("canvas");
          c.width = img.width; c.height = img.height;
          const ctx = c.getContext("2d");
          ctx.drawImage(img, 0, 0);
          const d = new Uint32Array(ctx.getImageData(0, 0, c.width, c.height).data.buffer);
          done(new Set(d).size);
        };
        img.onerror = () => done(-1);
        img.src = "data:image/png;base64," + arguments[0];
        """,
        png_b64,
    )


def wait_ready(browser: Browser, version: int) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state, v = browser.run("return [document.body.dataset.state, Number(document.body.dataset.version || 0)];")
        if state in ("ready", "over") and v > version:
            return state
        time.sleep(0.01)
    raise AssertionError("the page did not update")


@pytest.mark.parametrize("game_id", sorted(kassen.games()))
def test_play_a_whole_game_by_clicking(browser, game_id):
    seat = 0
    session = Session(game_id, CONFIGS.get(game_id, {}), seat=seat, seed=3)
    responses: list[str] = []
    lock = threading.Lock()

    def record(path: str, body: bytes) -> None:
        with lock:
            responses.append(body.decode("utf-8", errors="replace"))

    server = make_server(session, 0, record)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    n = session.game.num_players()
    rng = random.Random(7)
    seen: set[str] = set()
    checked = 0
    board_clicks = 0
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        state = wait_ready(browser, 0)
        clicks = 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        while True:
            # What the seat may know so far, and what the others know that it may not.
            s = session.state
            strings(s.view(seat), seen)
            strings(s.events(seat), seen)
            if not s.is_terminal() and s.current_player() == seat:
                for a in s.legal_actions():
                    strings(s.action_to_json(a), seen)
                    seen.add(s.action_to_string(a))
            hidden: set[str] = set()
            for p in range(n):
                if p != seat:
                    strings(s.view(p), hidden)
            hidden -= seen
            with lock:
                fresh = responses[:]
                responses.clear()
            # The page is built from the responses alone; its DOM is searched too, every few steps.
            if clicks % DOM_EVERY == 0 or state == "over":
                fresh.append(browser.run("return document.documentElement.outerHTML;"))
            for word in hidden:
                for text in fresh:
                    assert not contains_word(text, word), f"{game_id}: hidden {word!r} reached the page"
            checked += len(hidden)
            if clicks == 20:
                (ARTIFACTS / f"{game_id}_midgame.png").write_bytes(base64.b64decode(browser.screenshot()))
            if state == "over":
                break
            assert clicks < MAX_CLICKS, f"{game_id}: no end after {MAX_CLICKS} clicks"
            ids = [int(x) for x in browser.run(
                "return Array.from(document.querySelectorAll('#actions button.action')).map(b => b.dataset.action);")]
            assert ids, f"{game_id}: the page shows no legal move while the game goes on"
            assert sorted(ids) == session.state.legal_actions(), "the page's moves are not the legal actions"
            choice = rng.choice(ids)
            version = browser.run("return Number(document.body.dataset.version || 0);")
            on_board = browser.find(f"#board .clickable[data-action='{choice}']")
            clicked = False
            if on_board:
                try:
                    browser.click(on_board[0])
                    clicked = True
                    board_clicks += 1
                except WebDriverError:
                    clicked = False
            if not clicked:
                browser.click(browser.find(f"#actions button[data-action='{choice}']")[0])
            state = wait_ready(browser, version)
            clicks += 1
        assert session.state.is_terminal()
        assert "game over" in browser.run("return document.getElementById('status').textContent;")
        png = browser.screenshot()
        (ARTIFACTS / f"{game_id}_end.png").write_bytes(base64.b64decode(png))
        colours = count_colours(browser, png)
        assert colours > 16, f"{game_id}: the screenshot looks blank ({colours} colours)"
        print(f"{game_id}: {clicks} clicks ({board_clicks} on the board), {checked} hidden strings checked, {colours} colours")
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_listens_on_loopback_only():
    server = make_server(Session("samurai", {}, 0, 1), 0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()
