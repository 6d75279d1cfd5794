// The local play page (served by `python -m kassen.play`): one game at one screen against
// bots or between people (hot seat), with a new-game dialog, save and load, and an end screen.
// Routes: GET /api/state, /api/saves, /api/hint; POST /api/act, /api/ready, /api/new, /api/save,
// /api/load, /api/hint. The hint button asks the server's search for the seat's top three
// moves; the page polls for them like for a bot's moves and drops them when the game moves on.
// Bots play on the server in the background: while one is to act (the snapshot's `thinking`),
// the page says who is thinking and how far it has got, and asks for the state every POLL_MS,
// so the bot's moves appear one by one; every button keeps working meanwhile.

import { makeApi, pageToken } from "./api.js";
import { showBoard, clearBoard, panByDragging } from "./board.js";
import { appendEvents, clearLog, MoveSentences } from "./log.js";
import { showMoves, markCandidates } from "./moves.js";
import { configChoices, seatNames, words } from "./config.js";

const $ = (id) => document.getElementById(id);
const board = $("board"), actions = $("actions"), log = $("log"), status = $("status");
// The session's secret, sent with every API request (the server refuses requests without it).
const api = makeApi({ headers: { "X-Kassen-Token": pageToken() } });
const POLL_MS = 300;
let since = 0, busy = false, seat = null, snap = null, step = 0;
// Bumped when the page asks for another game (new, load, a move): an answer to an older
// request for the state is dropped.
let epoch = 0, poll = null, shownSvg = null;
// The seat's event sentences by step, which tell the last move. The board's zoom (1: as wide as
// its box, never with text under 11 px).
let sentences = new MoveSentences(), zoom = 1;
const ZOOMS = [1, 1.25, 1.5, 2, 3];

function open(id, yes) { $(id).classList.toggle("open", yes); }
function bumpVersion() { document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1); }
function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
function seatName(s, p) { return (p !== null && p !== undefined && s.seat_names[p]) ? cap(s.seat_names[p]) : "?"; }

function showHandoff(s) {
  clearHint();
  clearBoard(board); clearBoard($("panel")); actions.textContent = ""; clearLog(log);
  $("prompt").textContent = ""; $("lastmove").textContent = "";
  $("handoff-title").textContent = "Pass the screen to " + cap(s.handoff.name);
  $("handoff-text").textContent = cap(s.handoff.name) + ", click when the other players are not looking.";
  status.textContent = "waiting for " + cap(s.handoff.name);
  open("handoff", true); open("end", false);
  document.body.dataset.state = "handoff";
}

// "Ishida is thinking... (3 moves so far this turn; 1,200 positions searched)".
function thinkingText(s) {
  const t = s.thinking;
  const bits = [];
  if (t.moves) bits.push(t.moves + (t.moves === 1 ? " move" : " moves") + " so far this turn");
  if (t.iterations) bits.push(t.iterations.toLocaleString("en") + " search iterations");
  return seatName(s, t.seat) + " is thinking..." + (bits.length ? " (" + bits.join("; ") + ")" : "");
}

// The step the hint on screen (or being thought about) is for (null: none), and the epoch it
// was asked in (another game, a move or a hand-off drops it).
let hintFor = null, hintEpoch = 0, hintTimer = null;

function clearHint() {
  hintFor = null;
  clearTimeout(hintTimer);
  hintTimer = null;
  $("hint").textContent = "";
}

async function askHint() {
  if (!snap || !snap.legal.length) return;
  const mine = epoch, at = step;
  clearHint();
  hintFor = at;
  hintEpoch = mine;
  $("hint").textContent = "Thinking about a hint...";
  try { showHint(await api.post("/api/hint"), mine, at); }
  catch (err) { if (hintFor === at) $("hint").textContent = "No hint: " + err.message; }
}

// A hint answer: still thinking (asked again after POLL_MS), or the top moves, each with its
// win estimate and the search's reason.
function showHint(h, mine, at) {
  if (mine !== epoch || at !== step || hintFor !== at) return;
  const box = $("hint");
  if (h.state === "thinking") {
    box.textContent = "Thinking about a hint... (" + h.iterations.toLocaleString("en") + " search iterations)";
    hintTimer = setTimeout(async () => {
      try { showHint(await api.get("/api/hint"), mine, at); }
      catch (err) { if (hintFor === at) box.textContent = "No hint: " + err.message; }
    }, POLL_MS);
    return;
  }
  box.textContent = "";
  if (h.state !== "done") return;
  const title = document.createElement("div");
  title.textContent = "The search's top moves for you:";
  const list = document.createElement("ol");
  for (const m of h.moves) {
    const item = document.createElement("li");
    item.dataset.action = String(m.id);
    const name = document.createElement("b");
    name.textContent = m.text;
    const win = m.win === null ? "not tried" : "win " + Math.round(m.win * 100) + "%";
    item.append(name, " (" + win + ")" + (m.reason ? ": " + m.reason : ""));
    list.appendChild(item);
  }
  box.append(title, list);
  document.body.dataset.hint = String(at);
}

function schedulePoll() {
  if (poll !== null) return;
  const mine = epoch;
  poll = setTimeout(async () => {
    poll = null;
    if (mine !== epoch) return;
    try {
      const s = await api.get("/api/state?since=" + since);
      if (mine === epoch) show(s);
    } catch (err) {
      status.textContent = "no answer from the server: " + err.message;
      if (mine === epoch) schedulePoll();
    }
  }, POLL_MS);
}

function show(s) {
  snap = s;
  $("title").textContent = s.game_name;
  document.title = "kassen: " + s.game_name;
  if (s.handoff) { seat = null; since = 0; showHandoff(s); bumpVersion(); return; }
  open("handoff", false);
  if (s.seat !== seat) { clearLog(log); sentences = new MoveSentences(); seat = s.seat; shownSvg = null; }
  // The same picture with no moves to click (a bot still thinking) is not drawn again.
  if (s.svg !== shownSvg || s.legal.length) drawBoard(s);
  if (s.events.length || !log.childElementCount) appendEvents(log, s.events, { merge: true });
  sentences.add(s.events);
  since = s.events_total;
  step = s.step;
  if (hintFor !== null && (hintFor !== step || hintEpoch !== epoch)) clearHint();
  $("btn-hint").disabled = !s.legal.length || Boolean(s.thinking) || s.terminal;
  showMoves(actions, s.legal, act);
  const me = s.spectating ? "watching" : seatName(s, s.seat);
  $("speed").hidden = !s.spectating;
  if (s.spectating) $("speed-ms").value = String(s.delay_ms);
  status.classList.toggle("thinking", Boolean(s.thinking) && !s.terminal);
  $("lastmove").textContent = sentences.lastMove(s.last_move, (p) => seatName(s, p));
  if (s.terminal) {
    status.textContent = "game over: " + result(s);
    $("prompt").textContent = "The game is over.";
    showEnd(s);
    document.body.dataset.state = "over";
  } else if (s.thinking) {
    status.textContent = thinkingText(s);
    $("prompt").textContent = (s.spectating ? "You are watching the bots play (as a spectator: no seat's secrets). "
      : "You are " + me + ". ") + seatName(s, s.thinking.seat) +
      " is playing its turn; its moves appear here and on the board as it makes them.";
    const note = document.createElement("p");
    note.className = "small";
    note.textContent = (s.spectating ? "Only bots play this game: " : "No moves for you now: ") +
      seatName(s, s.thinking.seat) + " is to act.";
    actions.appendChild(note);
    document.body.dataset.state = "thinking";
    schedulePoll();
  } else if (s.bot_error) {
    status.textContent = "You are " + me + ": " + s.bot_error;
    $("prompt").textContent = "The bot stopped; start a new game or load one.";
    document.body.dataset.state = "ready";
  } else if (s.legal.length) {
    // The header names the decision (Sekigahara's bid for initiative, a battle's choice).
    status.textContent = "You are " + me + ": your move" + (s.prompt ? " (" + s.prompt + ")" : "");
    $("prompt").textContent = cap(s.prompt || "choose a move");
    document.body.dataset.state = "ready";
  } else {
    status.textContent = "You are " + me + ": waiting for " + seatName(s, s.to_act);
    $("prompt").textContent = "";
    document.body.dataset.state = "ready";
  }
  bumpVersion();
}

function drawBoard(s) {
  showBoard(board, s.svg, {
    legal: s.legal,
    lastTarget: s.last_move ? s.last_move.target : null,
    onAct: act,
    onChoose: (ids) => markCandidates(actions, ids),
    readable: true,
    zoom,
    panel: $("panel"),
  });
  shownSvg = s.svg;
}

function result(s) {
  const w = s.winners || [];
  if (!w.length) return "a draw";
  return w.map((p) => seatName(s, p)).join(" and ") + (w.length > 1 ? " win" : " wins");
}

function showEnd(s) {
  $("end-title").textContent = "Game over: " + result(s);
  // Why the game ended, with the score: the sentence of the game's last event.
  $("end-reason").textContent = s.end_text || "";
  const t = $("end-table");
  t.textContent = "";
  const head = t.insertRow();
  for (const h of ["Seat", "Played by", "Result"]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
  s.seat_names.forEach((name, p) => {
    const r = t.insertRow();
    const who = s.players[p] === "human" ? "person" : ((s.bots.find((b) => b.spec === s.players[p]) || {}).name || s.players[p]);
    const won = (s.winners || []).includes(p) ? " (winner)" : "";
    for (const v of [cap(name), who, String(s.returns[p]) + won]) r.insertCell().textContent = v;
  });
  open("end", true);
}

async function act(id) {
  if (busy) return;
  busy = true;
  document.body.dataset.state = "busy";
  const mine = ++epoch;
  try {
    const s = await api.post("/api/act", { action: id, since: since, step: step });
    if (mine === epoch) show(s);
  } catch (err) {
    status.textContent = "refused: " + err.message; document.body.dataset.state = "ready";
  } finally {
    busy = false;
  }
}

$("handoff-ok").onclick = async () => {
  const mine = ++epoch;
  const s = await api.post("/api/ready");
  if (mine === epoch) show(s);
};
$("end-board").onclick = () => open("end", false);
$("end-replay").onclick = () => openReplay(null);
$("btn-replay").onclick = () => openReplay(null);
$("end-new").onclick = () => { open("end", false); openNewGame(); };

// The new-game dialog: the game, its config choices (players, rule switches, limits; those of
// the game on screen preset), a row per seat of the chosen config, the seed.
function configFields(gameId) {
  const g = snap.games[gameId];
  const box = $("ng-config");
  box.textContent = "";
  const current = gameId === snap.game ? (snap.config || {}) : {};
  for (const c of configChoices(g)) {
    let input;
    const value = c.key in current ? current[c.key] : c.def;
    const label = document.createElement("label");
    if (c.kind === "switch") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(value);
      label.append(input, " " + words(c.key));
    } else if (c.kind === "number") {
      input = document.createElement("input");
      input.type = "number"; input.step = "1"; input.value = String(value);
      label.append(words(c.key) + " ", input);
    } else {
      input = document.createElement("select");
      for (const v of c.values) input.add(new Option(String(v), JSON.stringify(v)));
      if (value !== undefined) input.value = JSON.stringify(value);
      label.append(words(c.key) + " ", input);
    }
    input.className = "ng-config";
    input.dataset.key = c.key;
    input.dataset.kind = c.kind;
    input.onchange = () => seatRows(gameId);
    box.appendChild(label);
  }
  seatRows(gameId);
}

function configValue() {
  const config = {};
  for (const input of document.querySelectorAll(".ng-config")) {
    const k = input.dataset.key;
    if (input.dataset.kind === "switch") config[k] = input.checked;
    else if (input.dataset.kind === "number") config[k] = Number(input.value);
    else config[k] = JSON.parse(input.value);
  }
  return config;
}

function seatRows(gameId) {
  const box = $("ng-seats");
  const before = Array.from(box.querySelectorAll(".ng-seat")).map((s) => s.value);
  box.textContent = "";
  const config = configValue();
  const names = seatNames(snap.games[gameId], config);
  const same = gameId === snap.game && names.length === snap.players.length;
  names.forEach((name, p) => {
    const label = document.createElement("label");
    label.textContent = cap(name) + " ";
    const sel = document.createElement("select");
    sel.className = "ng-seat";
    sel.add(new Option("Person at this screen", "human"));
    for (const b of snap.bots) { const o = new Option("Bot: " + b.name, b.spec); o.title = b.description; sel.add(o); }
    sel.value = before[p] || (same ? snap.players[p] : (p === 0 ? "human" : snap.bots[0].spec));
    label.appendChild(sel);
    box.appendChild(label);
  });
}

function openNewGame() {
  const g = $("ng-game");
  g.textContent = "";
  for (const [id, info] of Object.entries(snap.games)) g.add(new Option(info.name, id));
  g.value = snap.game;
  g.onchange = () => { $("ng-seats").textContent = ""; configFields(g.value); };
  $("ng-seats").textContent = "";
  configFields(snap.game);
  $("ng-seed").value = String(Math.floor(Math.random() * 1e6));
  $("ng-msg").textContent = "";
  open("newgame", true);
}
$("btn-new").onclick = openNewGame;
$("ng-cancel").onclick = () => open("newgame", false);
$("ng-start").onclick = async () => {
  const body = { game: $("ng-game").value, config: configValue(), seed: Number($("ng-seed").value) || 0,
                 players: Array.from(document.querySelectorAll(".ng-seat")).map((x) => x.value) };
  try {
    const mine = ++epoch;
    const s = await api.post("/api/new", body);
    open("newgame", false);
    if (mine !== epoch) return;
    seat = null;
    show(s);
  } catch (err) {
    $("ng-msg").textContent = "Not started: " + err.message;
  }
};

// Opens the replay page of the game on screen (name null) or of a save in a new tab: it is
// fetched with the session's token and shown from the browser's memory.
async function openReplay(name) {
  const tab = window.open("", "_blank");
  try {
    const r = await fetch("/api/replay" + (name ? "?name=" + encodeURIComponent(name) : ""),
                          { headers: { "X-Kassen-Token": pageToken() } });
    if (!r.ok) throw new Error((await r.json()).error || "refused");
    const url = URL.createObjectURL(new Blob([await r.text()], { type: "text/html" }));
    if (tab) tab.location = url; else window.open(url, "_blank");
  } catch (err) {
    if (tab) tab.close();
    status.textContent = "no replay: " + err.message;
  }
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

async function openSaveLoad(saving) {
  $("sl-title").textContent = saving ? "Save this game" : "Load a saved game";
  $("sl-save").style.display = saving ? "" : "none";
  $("sl-ok").style.display = saving ? "" : "none";
  $("sl-msg").textContent = "";
  const list = $("sl-list");
  list.textContent = "";
  const answer = await api.get("/api/saves");
  const saves = answer.saves || [];
  if (!saving) {
    if (!saves.length) list.textContent = "No saved games yet.";
    // One row per save: its name, game, when it was saved, how far it has got, whose move.
    const t = document.createElement("table");
    t.className = "saves";
    const head = t.insertRow();
    for (const h of ["Name", "Game", "Saved", "Turn", "Whose move", ""]) {
      const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
    }
    for (const g of answer.games || saves.map((name) => ({ name }))) {
      const r = t.insertRow();
      const turn = g.error ? "" : (g.turn !== null && g.turn !== undefined ? "turn " + g.turn + ", " : "") + "step " + g.step;
      const who = g.error ? "cannot be read" : (g.over ? "game over" : cap(g.to_act || ""));
      for (const v of [g.name, g.game || "", g.saved ? when(g.saved) : "", turn, who]) r.insertCell().textContent = v;
      const cell = r.insertCell();
      const b = document.createElement("button");
      b.textContent = "Open"; b.className = "load"; b.dataset.name = g.name;
      b.onclick = async () => {
        try {
          const mine = ++epoch;
          const s = await api.post("/api/load", { name: g.name });
          if (mine === epoch) { seat = null; show(s); }
          open("saveload", false);
        }
        catch (err) { $("sl-msg").textContent = err.message; }
      };
      const rb = document.createElement("button");
      rb.textContent = "Replay"; rb.className = "replay"; rb.dataset.name = g.name;
      rb.onclick = () => openReplay(g.name);
      cell.append(b, " ", rb);
    }
    if (saves.length) list.appendChild(t);
  } else if (saves.length) {
    list.textContent = "Saved games: " + saves.join(", ");
  }
  open("saveload", true);
}
$("btn-save").onclick = () => openSaveLoad(true);
$("btn-load").onclick = () => openSaveLoad(false);
$("sl-cancel").onclick = () => open("saveload", false);
$("sl-ok").onclick = async () => {
  try { const r = await api.post("/api/save", { name: $("sl-name").value }); $("sl-msg").textContent = "Saved as " + r.saved + "."; }
  catch (err) { $("sl-msg").textContent = err.message; }
};

$("btn-hint").onclick = askHint;

$("speed-ms").onchange = async () => {
  try { show(await api.post("/api/speed", { delay_ms: Number($("speed-ms").value) })); }
  catch (err) { status.textContent = "refused: " + err.message; }
};

function setZoom(z) {
  zoom = z;
  $("zoom-level").textContent = Math.round(z * 100) + "%";
  if (snap && snap.svg) drawBoard(snap);
}
$("zoom-in").onclick = () => setZoom(ZOOMS.find((z) => z > zoom) || zoom);
$("zoom-out").onclick = () => setZoom(ZOOMS.slice().reverse().find((z) => z < zoom) || zoom);
panByDragging(board);
let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => { if (snap && snap.svg) drawBoard(snap); }, 150);
});

api.get("/api/state?since=0").then(show);
