"""The online client (web/lobby.html, web/game.html) against a running kassen-server, in
headless Chromium with three separate browser profiles (one chromedriver session each):

- the creator's browser creates a 2-player Samurai game on the lobby page by clicking, reads
  the two invite links and then watches the game as spectator;
- two players' browsers open one invite link each and play the game to its end by clicking:
  on the board wherever the move has a board target (a click the page intercepts fails the
  test), on the move's button only where it has none; one of them reloads its page mid-game
  and goes on;
- after every move each seat's page must have received exactly what the server gives that
  seat (the server's snapshot with the seat's token is the reference: views, pictures, legal
  moves and events of every snapshot and stream message the page got), never the other seat's
  hidden tiles (Samurai 4.2: the hand behind the screen) nor its token, and the spectator's
  page must show the move;
- at the end both seats show the end screen with the result and the replay opens.

Screenshots of the lobby, the seat page, the waiting state, the spectator page and the end
screen at 1280x800 and 1024x768 go to $KASSEN_BROWSER_ARTIFACTS; no HTML text on those pages
is smaller than 11 CSS px. The server binary is $KASSEN_SERVER_BIN (tests/browser/online.sh
builds it), started on a free loopback port with a temp SQLite file and $KASSEN_WEB.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Optional

import pytest

from paths import ARTIFACTS, ROOT
from webdriver import Browser, WebDriverError, free_port

SERVER_BIN = Path(os.environ.get("KASSEN_SERVER_BIN", ROOT / "target" / "debug" / "kassen-server"))
WEB = Path(os.environ.get("KASSEN_WEB", ROOT / "web"))
SIZES = [(1280, 800), (1024, 768)]
MAX_MOVES = 600
RELOAD_AT = 12
DROP_AT = 18
TIMEOUT_S = 60

#: Records, in the page, the body of every fetch answer and every WebSocket message it gets
#: (installed before the page's own scripts run, on every load).
WIRE = """
(() => {
  const wire = [];
  window.__kassenWire = wire;
  const f = window.fetch;
  window.fetch = async (...a) => {
    const r = await f(...a);
    r.clone().text().then((t) => wire.push(t), () => {});
    return r;
  };
  const W = window.WebSocket;
  window.__kassenSockets = [];
  window.WebSocket = class extends W {
    constructor(...a) {
      super(...a);
      window.__kassenSockets.push(this);
      this.addEventListener("message", (m) => wire.push(String(m.data)));
    }
  };
})();
"""

#: The smallest font size of visible text, in CSS px: HTML text by its computed size, the
#: board's SVG text by its size times the picture's scale (arguments[0]: whether to measure it).
SMALLEST_TEXT = """
let min = 1e9, where = "";
if (arguments[0]) {
  for (const t of document.querySelectorAll("#board svg text")) {
    const m = t.getScreenCTM();
    if (!m || !t.getClientRects().length || !t.textContent.trim()) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < min) { min = px; where = "svg text " + t.textContent; }
  }
}
for (const e of document.querySelectorAll("body *")) {
  if (e.closest("svg") || !e.getClientRects().length) continue;
  const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own && !["INPUT", "SELECT", "BUTTON"].includes(e.tagName)) continue;
  const st = getComputedStyle(e);
  if (st.visibility === "hidden" || st.display === "none") continue;
  const px = parseFloat(st.fontSize);
  if (px < min) { min = px; where = e.tagName + "#" + e.id + "." + e.className; }
}
return [min, where];
"""


class Server:
    def __init__(self) -> None:
        if not SERVER_BIN.exists():
            raise RuntimeError(f"{SERVER_BIN} is missing (tests/browser/online.sh builds it)")
        self.dir = tempfile.TemporaryDirectory(prefix="kassen-online-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Three browsers and this test's reference requests share one client address: the
        # per-address rate limit is raised so that it never paces the game.
        self.proc = subprocess.Popen(
            [str(SERVER_BIN), "--listen", f"127.0.0.1:{self.port}",
             "--database", f"sqlite://{self.dir.name}/games.db", "--web", str(WEB),
             "--rate", "1000", "--burst", "2000", "--creates-per-minute", "100"],
            stdout=subprocess.DEVNULL, stderr=open(Path(self.dir.name) / "server.log", "wb"))
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.get("/healthz")["ok"]:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("kassen-server did not start: " + (Path(self.dir.name) / "server.log").read_text())
            time.sleep(0.1)

    def get(self, path: str, token: Optional[str] = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with urllib.request.urlopen(urllib.request.Request(self.base + path, headers=headers), timeout=30) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.dir.cleanup()


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


def browser() -> Browser:
    try:
        b = Browser(*SIZES[0])
    except WebDriverError as e:
        pytest.fail(str(e))
    b.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE})
    viewport(b, *SIZES[0])
    return b


def viewport(b: Browser, width: int, height: int) -> None:
    b.cdp("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def wait_for(b: Browser, script: str, what: str, *args: Any) -> Any:
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        v = b.run(script, *args)
        if v:
            return v
        time.sleep(0.02)
    state = b.run("return [document.body.dataset.state, document.body.dataset.step, document.getElementById('status') && document.getElementById('status').textContent];")
    raise AssertionError(f"timed out waiting for {what} (page: {state})")


def page_at(b: Browser, step: int, states: tuple[str, ...]) -> str:
    """Waits until the game page shows step `step` in one of `states`; the state."""
    return wait_for(b, "const d = document.body.dataset; return Number(d.step) === arguments[0] && arguments[1].includes(d.state) ? d.state : null;",
                    f"step {step} in {states}", step, list(states))


def shots(b: Browser, name: str, restore: tuple[int, int] = SIZES[0], board: bool = True) -> None:
    """Screenshots at both sizes, each checked to have no text under 11 px (`board`: the
    board's text too; the replay page is the engine's own)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        viewport(b, w, h)
        time.sleep(0.15)
        png = b.screenshot()
        (ARTIFACTS / f"online_{name}_{w}x{h}.png").write_bytes(base64.b64decode(png))
        empty = b.run("return Array.from(document.styleSheets).filter((s) => !s.cssRules.length).map((s) => s.href);")
        assert not empty, f"{name}: style sheets without rules {empty}"
        size, where = b.run(SMALLEST_TEXT, board)
        assert size >= 11, f"{name} at {w}x{h}: text of {size}px ({where})"
    viewport(b, *restore)


def legend_box(b: Browser) -> None:
    """The picture's side lists (legend, seats' notes) are in the 'Seats and legend' box below
    the map, closed (the moves keep their room) until opened, then readable (screenshots)."""
    found = b.run("const p = document.getElementById('panel'), d = document.getElementById('legend-box');"
                  "return [d.open, p.querySelectorAll('svg.side-list').length,"
                  " document.querySelectorAll('#board svg > g.panel').length];")
    assert found[0] is False and found[1] >= 1 and found[2] == 0, f"side lists: {found}"
    b.run("document.querySelector('#legend-box summary').click();")
    time.sleep(0.2)
    widths = b.run("return Array.from(document.querySelectorAll('#panel svg.side-list')).map((e) => e.getBoundingClientRect().width);")
    assert all(w > 100 for w in widths), f"side lists drawn {widths} px wide"
    shots(b, "seat_legend_open")
    b.run("document.querySelector('#legend-box summary').click();")


def take_wire(b: Browser) -> list[Any]:
    raw = b.run("return window.__kassenWire ? window.__kassenWire.splice(0) : [];")
    out = []
    for t in raw:
        try:
            out.append(json.loads(t))
        except ValueError:
            out.append(t)
    return out


def legal_ids(snap: dict[str, Any]) -> list[int]:
    return sorted(a["id"] for a in snap["legal"])


class Seat:
    def __init__(self, b: Browser, seat: int, token: str) -> None:
        self.b, self.seat, self.token = b, seat, token
        self.refs: dict[int, dict[str, Any]] = {}  # step -> the server's snapshot for this seat
        self.raw: list[str] = []  # everything the page received, as text

    def reference(self, server: Server, game_id: str) -> dict[str, Any]:
        ref = server.get(f"/api/games/{game_id}/snapshot?since=0", self.token)
        self.refs[ref["step"]] = ref
        return ref

    def check_wire(self) -> int:
        """Every snapshot and stream message the page got equals the server's answer to this
        seat at that step; the number of messages checked."""
        n = 0
        for m in take_wire(self.b):
            self.raw.append(json.dumps(m) if not isinstance(m, str) else m)
            if not isinstance(m, dict):
                continue
            if "svg" in m:
                ref = self.refs.get(m["step"])
                assert ref is not None, f"seat {self.seat}: a snapshot of step {m['step']} the test never saw settle"
                assert m["seat"] == self.seat
                assert m["view"] == ref["view"], f"seat {self.seat}: the page's view differs from the seat's at step {m['step']}"
                assert m["svg"] == ref["svg"], f"seat {self.seat}: the page's picture differs from the seat's at step {m['step']}"
                assert m["legal"] == ref["legal"]
                assert m["events"] == ref["events"][m["events_from"]:m["events_total"]]
                n += 1
            elif m.get("type") == "events":
                ref = self.refs.get(m["step"])
                if ref is not None:
                    assert m["events"] == ref["events"][m["events_from"]:m["events_total"]], f"seat {self.seat}: stream events differ"
                else:  # a message of a step between two the test saw settle: its events exist by then
                    later = self.refs[max(self.refs)]
                    assert m["events"] == later["events"][m["events_from"]:m["events_total"]]
                n += 1
        return n


def last_move_is_told(s: Seat, ref: dict[str, Any]) -> int:
    """The seat page's last-move line is the seat's event sentences of that move, as the local
    play page tells it ("Last move (Tokugawa): ..."), never the move's action string; nothing
    when the seat saw no event of it. 1 when a sentence was shown."""
    line = s.b.run("return document.getElementById('lastmove').textContent;")
    lm = ref.get("last_move")
    if lm is None or lm.get("seat") is None:
        assert line == "", f"seat {s.seat}: a last-move line {line!r} with no last move"
        return 0
    said = [e.get("text") for e in ref["events"] if e["step"] == lm["step"]]
    if lm.get("text"):
        assert lm["text"] not in line, f"seat {s.seat}: the last-move line shows the action string: {line!r}"
    if not said:
        assert line == "", f"seat {s.seat}: a last-move line {line!r} for a move it saw no event of"
        return 0
    assert all(said), f"seat {s.seat}: an event of step {lm['step']} without a sentence"
    name = ref["seat_names"][lm["seat"]]
    expected = f"Last move ({name[:1].upper() + name[1:]}): " + "; ".join(said)
    assert line == expected, f"seat {s.seat}: the last-move line is {line!r}, not {expected!r}"
    return 1


def test_two_browsers_play_samurai_by_invite_links_and_a_third_watches(server):
    rng = random.Random(5)
    creator = browser()
    players: list[Browser] = []
    try:
        # --- the lobby: create a 2-player Samurai game by clicking -----------------------
        creator.get(server.base + "/")
        wait_for(creator, "return document.body.dataset.state === 'ready';", "the lobby")
        creator.click(creator.find("#create-game option[value='samurai']")[0])
        creator.click(creator.find("#create-config select[data-key='players'] option[value='2']")[0])
        kinds = creator.run("return Array.from(document.querySelectorAll('#seat-rows .seat-kind')).map((s) => s.value);")
        assert kinds == ["human", "human"], f"seat rows {kinds}"
        creator.click(creator.find("#create-more summary")[0])
        creator.type(creator.find("#create-seed")[0], "7")
        shots(creator, "lobby")
        creator.click(creator.find("#create-btn")[0])
        wait_for(creator, "return document.body.dataset.state === 'created';", "the invite links")
        game_id = creator.run("return document.body.dataset.game;")
        invites = creator.run("return Array.from(document.querySelectorAll('#invites .invite input')).map((i) => i.value);")
        watch = creator.run("return document.getElementById('watch-link').value;")
        assert len(invites) == 2 and watch == f"{server.base}/g/{game_id}"
        shots(creator, "lobby_created")
        summary = server.get(f"/api/games/{game_id}")
        assert summary["game"] == "samurai" and [s["kind"] for s in summary["seats"]] == ["human", "human"]
        tokens = [i.split("token=")[1] for i in invites]

        # --- two players open their invite links, the creator watches ----------------------
        seats = []
        for p, link in enumerate(invites):
            b = browser()
            players.append(b)
            b.get(link)
            seats.append(Seat(b, p, tokens[p]))
        for s in seats:
            s.reference(server, game_id)
        for s in seats:
            page_at(s.b, 0, ("ready", "waiting"))
            href = s.b.run("return location.href;")
            assert "token" not in href and href.endswith(f"#seat={s.seat}"), f"the token stayed in the address: {href}"
            held = json.loads(s.b.run("return localStorage.getItem('kassen.seats');"))
            assert [(h["game_id"], h["seat"], h["token"]) for h in held] == [(game_id, s.seat, s.token)]
        creator.get(watch)
        page_at(creator, 0, ("watching",))
        spectator_refs: dict[int, dict[str, Any]] = {}

        # --- play to the end ----------------------------------------------------------------
        moves = board_clicks = button_moves = checked = told = 0
        step = 0
        shot_waiting = False
        dropped: Optional[Seat] = None
        while True:
            refs = [s.reference(server, game_id) for s in seats]
            spectator_refs[step] = server.get(f"/api/games/{game_id}/snapshot?since=0")
            assert all(r["step"] == step for r in refs)
            over = refs[0]["terminal"]
            for s, ref in zip(seats, refs):
                page_at(s.b, step, ("over",) if over else ("ready", "waiting"))
                checked += s.check_wire()
                shown = s.b.run("return document.querySelectorAll('#log > div').length;")
                assert shown == ref["events_total"], f"seat {s.seat}: {shown} events shown, the seat has {ref['events_total']}"
                texts = s.b.run("return Array.from(document.querySelectorAll('#log > div')).map((d) => d.lastChild.textContent);")
                for text, e in zip(texts, ref["events"]):
                    assert not e.get("text") or text == e["text"], f"seat {s.seat}: the log shows {text!r}, the event says {e['text']!r}"
                told += last_move_is_told(s, ref)
            if dropped is not None:
                wait_for(dropped.b, "return document.body.dataset.conn === 'connected';", "the connection again")
                dropped = None
            page_at(creator, step, ("over",) if over else ("watching",))
            assert creator.run("return document.querySelectorAll('#log > div').length;") == spectator_refs[step]["events_total"]
            assert creator.run("return document.querySelectorAll('#actions button, #board .clickable').length;") == 0
            if over:
                break
            to_act = refs[0]["to_act"]
            mover, other = seats[to_act], seats[1 - to_act]
            assert mover.b.run("return document.body.dataset.state;") == "ready"
            assert other.b.run("return document.body.dataset.state;") == "waiting"
            assert "waiting for" in other.b.run("return document.getElementById('status').textContent;")
            if not shot_waiting and moves >= 6:
                shots(other.b, "seat_waiting")
                shots(mover.b, "seat_to_move")
                shots(creator, "spectator")
                legend_box(mover.b)
                shot_waiting = True
            if moves == RELOAD_AT:
                # A player reloads mid-game: the page finds its seat again in this browser.
                other.b.run("location.reload();")
                page_at(other.b, step, ("waiting",))
                assert other.b.run("return location.href;").endswith(f"#seat={other.seat}")
            if moves == DROP_AT:
                # The waiting player's connection drops: the page reconnects by itself and
                # resumes from the events it has (the log checks above find any gap or repeat).
                other.b.run("window.__kassenSockets.forEach((w) => w.close());")
                wait_for(other.b, "return document.body.dataset.conn === 'reconnecting';", "the reconnecting state")
                assert "reconnecting" in other.b.run("return document.getElementById('conn').textContent;")
                shots(other.b, "seat_reconnecting")
                dropped = other  # the move below is played while it is away
            ref = refs[to_act]
            ids = [int(x) for x in mover.b.run("return Array.from(document.querySelectorAll('#actions button.action')).map((b) => b.dataset.action);")]
            assert sorted(ids) == legal_ids(ref), "the page's moves are not the seat's legal moves"
            move = rng.choice(ref["legal"])
            if move["target"]:
                place = f"#board .clickable[data-target='{move['target']}']"
                assert mover.b.find(place), f"the move {move['text']!r} names {move['target']!r}, which the board does not offer"
                single = mover.b.find(place + "[data-action]")
                # The last element naming the place is drawn on top (a piece on its hex). A
                # WebDriverError here (the click went to another element) fails the test.
                mover.b.click(single[-1] if single else mover.b.find(place)[-1])
                board_clicks += 1
                if not single:
                    # Several moves share this place: the click marked them; pick ours.
                    marked = mover.b.run("return Array.from(document.querySelectorAll('#actions button.candidate')).map((b) => Number(b.dataset.action));")
                    assert move["id"] in marked, f"the board click marked {marked}, not {move['id']}"
                    mover.b.click(mover.b.find(f"#actions button[data-action='{move['id']}']")[0])
            else:
                mover.b.click(mover.b.find(f"#actions button[data-action='{move['id']}']")[0])
                button_moves += 1
            moves += 1
            assert moves < MAX_MOVES, "no end"
            deadline = time.monotonic() + TIMEOUT_S
            while server.get(f"/api/games/{game_id}")["step"] == step:
                assert time.monotonic() < deadline, "the move did not reach the server"
                time.sleep(0.02)
            step = server.get(f"/api/games/{game_id}")["step"]

        # --- the end ------------------------------------------------------------------------
        result = server.get(f"/api/games/{game_id}")
        assert result["status"] == "finished" and result["finished"]
        for s in seats:
            assert s.b.run("return document.getElementById('end').classList.contains('open');"), f"seat {s.seat}: no end screen"
            assert s.b.run("return document.getElementById('end-title').textContent;").startswith("Game over: ")
            rows = s.b.run("return Array.from(document.querySelectorAll('#end-table tr')).length;")
            assert rows == 3
        shots(seats[0].b, "end")
        shots(creator, "spectator_end")

        # --- secrets: each seat's page never got the other's hand or token -----------------
        final = [s.reference(server, game_id) for s in seats]
        for s in seats:
            o = 1 - s.seat
            everything = "\n".join(s.raw) + s.b.run("return document.documentElement.outerHTML + JSON.stringify(localStorage);")
            assert seats[o].token not in everything, f"seat {o}'s token reached seat {s.seat}'s page"
            for text in s.raw:
                try:
                    m = json.loads(text)
                except ValueError:
                    continue
                if isinstance(m, dict) and "view" in m and not m["terminal"]:
                    theirs = m["view"]["body"]["players"][o]
                    assert theirs["hand"] is None and theirs["stack"] is None, f"seat {o}'s tiles reached seat {s.seat}"
        assert final[0]["terminal"] and final[1]["terminal"]
        assert told > 0, "no last move was ever told by its sentences"

        # --- my games in the lobby, and the replay -------------------------------------------
        seats[0].b.get(server.base + "/")
        wait_for(seats[0].b, f"return document.querySelector(\"#my-games tr[data-game='{game_id}']\") !== null;", "my games")
        now = seats[0].b.run(f"return document.querySelector(\"#my-games tr[data-game='{game_id}'] .now\").textContent;")
        won = 0 in result["result"]["winners"]
        assert now == ("over: you won" if won else "over: you lost")
        shots(seats[0].b, "lobby_my_games")
        seats[1].b.click(seats[1].b.find("#end-board")[0])
        replay = seats[1].b.run("return document.getElementById('replay-link').href;")
        assert replay == f"{server.base}/api/games/{game_id}/replay.html"
        seats[1].b.get(replay)
        wait_for(seats[1].b, "return document.querySelector('#board svg') !== null;", "the replay's board")
        shots(seats[1].b, "replay", board=False)
        print(f"online: {moves} moves ({board_clicks} by clicking the board, {button_moves} by buttons), "
              f"{checked} messages checked against the seats' snapshots, {told} last-move lines checked, reload at move {RELOAD_AT}")
    finally:
        for b in [creator] + players:
            b.quit()


def post(server: Server, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(server.base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


#: Records every text the status line shows (installed once the page has loaded).
STATUS_LOG = """
window.__statusLog = [document.getElementById('status').textContent];
new MutationObserver(() => window.__statusLog.push(document.getElementById('status').textContent))
  .observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true});
"""


def test_the_seat_page_names_the_bot_that_is_thinking_and_resigns_after_confirmation(server):
    created = post(server, "/api/games", {"game": "samurai", "config": {"players": 2}, "seed": 3,
                                          "seats": ["human", "ismcts:normal"]})
    game_id, invite = created["game_id"], created["seats"][0]["invite"]
    bot = next(b["name"] for b in server.get("/api/catalog")["bots"] if b["spec"] == "ismcts:normal")
    rng = random.Random(1)
    b = browser()
    try:
        b.get(server.base + invite)
        wait_for(b, "return document.body.dataset.state === 'ready';", "the seat's first move")
        b.run(STATUS_LOG)
        # Samurai opens with each seat keeping its tokens in turn (4.2): the bot's turns come
        # after the person's first ones. Play until the bot has answered a few times.
        bot_moves = 0
        for _ in range(40):
            if bot_moves >= 3:
                break
            step = int(b.run("return document.body.dataset.step;"))
            ids = b.run("return Array.from(document.querySelectorAll('#actions button.action')).map((x) => x.dataset.action);")
            b.click(b.find(f"#actions button[data-action='{rng.choice(ids)}']")[0])
            # The bot answers on the server; the page comes back to the seat's turn after it.
            after = int(wait_for(b, "const d = document.body.dataset; return d.state === 'ready' && Number(d.step) > arguments[0] && d.step;",
                                 "the seat's turn again", step))
            bot_moves += after - step - 1
        shown = b.run("return window.__statusLog;")
        assert any(f"({bot}) is thinking" in t for t in shown), f"the page never named the thinking bot: {shown}"
        # While it searches, the page shows how far it has got (the stream's progress messages).
        progress = re.compile(re.escape(f"({bot}) is thinking (") + r"[\d,]+ iterations, \d+\.\d s\)")
        assert any(progress.search(t) for t in shown), f"the page never showed the bot's search progress: {shown}"
        assert b.run("return document.querySelector('.seats .seat:nth-child(2) .who').textContent;") == "bot: " + bot
        # Resigning asks first; "keep playing" changes nothing.
        b.click(b.find("#btn-resign")[0])
        assert b.run("return document.getElementById('resign').classList.contains('open');")
        b.click(b.find("#resign-cancel")[0])
        assert server.get(f"/api/games/{game_id}")["status"] == "active"
        b.click(b.find("#btn-resign")[0])
        b.click(b.find("#resign-ok")[0])
        wait_for(b, "return document.body.dataset.state === 'over' && document.getElementById('end').classList.contains('open');", "the end screen")
        summary = server.get(f"/api/games/{game_id}")
        assert summary["result"]["reason"] == "resigned" and summary["result"]["resigned"] == 0
        assert b.run("return document.getElementById('end-reason').textContent;").startswith("You lost.")
        shots(b, "end_resigned")
    finally:
        b.quit()


def test_my_games_shows_whose_turn_and_a_wrong_invite_link_only_watches(server):
    created = post(server, "/api/games", {"game": "samurai", "config": {"players": 2}, "seats": ["human", "human"]})
    game_id = created["game_id"]
    b = browser()
    try:
        # A link with a token of no seat of this game: the page says so, watches, stores nothing.
        b.get(f"{server.base}/g/{game_id}#seat=1&token={'0' * 40}")
        wait_for(b, "return document.body.dataset.state === 'watching';", "the spectator page")
        assert "not valid" in b.run("return document.getElementById('notice').textContent;")
        assert b.run("return localStorage.getItem('kassen.seats');") is None
        assert b.run("return location.href;") == f"{server.base}/g/{game_id}"
        # The real link of seat 0 (to move first): my games says it is this browser's turn.
        b.get(server.base + created["seats"][0]["invite"])
        wait_for(b, "return document.body.dataset.state === 'ready';", "the seat page")
        b.get(server.base + "/")
        row = f"#my-games tr[data-game='{game_id}']"
        wait_for(b, f"return document.querySelector(\"{row}\") !== null;", "my games")
        assert b.run(f"return document.querySelector(\"{row} .now\").textContent;") == "your turn"
        assert b.run(f"return document.querySelector(\"{row}\").classList.contains('your-turn');")
        # Its link opens the seat again from this browser's memory (no token in the link).
        b.click(b.find(f"{row} a.button")[0])
        wait_for(b, "return document.body.dataset.state === 'ready';", "the seat page from my games")
        assert b.run("return location.href;") == f"{server.base}/g/{game_id}#seat=0"
    finally:
        b.quit()
