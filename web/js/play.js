// The local play page (served by `python -m kassen.play`): one game at one screen against
// bots or between people (hot seat), with a new-game dialog, save and load, and an end screen.
// Routes: GET /api/state, /api/saves; POST /api/act, /api/ready, /api/new, /api/save, /api/load.
// Bots play on the server in the background: while one is to act (the snapshot's `thinking`),
// the page says who is thinking and how far it has got, and asks for the state every POLL_MS,
// so the bot's moves appear one by one; every button keeps working meanwhile.

import { makeApi, pageToken } from "./api.js";
import { showBoard, clearBoard } from "./board.js";
import { appendEvents, clearLog } from "./log.js";
import { showMoves, markCandidates } from "./moves.js";

const $ = (id) => document.getElementById(id);
const board = $("board"), actions = $("actions"), log = $("log"), status = $("status");
// The session's secret, sent with every API request (the server refuses requests without it).
const api = makeApi({ headers: { "X-Kassen-Token": pageToken() } });
const POLL_MS = 300;
let since = 0, busy = false, seat = null, snap = null, step = 0;
// Bumped when the page asks for another game (new, load, a move): an answer to an older
// request for the state is dropped.
let epoch = 0, poll = null, shownSvg = null;

function open(id, yes) { $(id).classList.toggle("open", yes); }
function bumpVersion() { document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1); }
function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
function seatName(s, p) { return (p !== null && p !== undefined && s.seat_names[p]) ? cap(s.seat_names[p]) : "?"; }

function showHandoff(s) {
  clearBoard(board); actions.textContent = ""; clearLog(log);
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
  if (s.seat !== seat) { clearLog(log); seat = s.seat; shownSvg = null; }
  // The same picture with no moves to click (a bot still thinking) is not drawn again.
  if (s.svg !== shownSvg || s.legal.length) {
    showBoard(board, s.svg, {
      legal: s.legal,
      lastTarget: s.last_move ? s.last_move.target : null,
      onAct: act,
      onChoose: (ids) => markCandidates(actions, ids),
    });
    shownSvg = s.svg;
  }
  if (s.events.length || !log.childElementCount) appendEvents(log, s.events);
  since = s.events_total;
  step = s.step;
  showMoves(actions, s.legal, act);
  const me = seatName(s, s.seat);
  status.classList.toggle("thinking", Boolean(s.thinking) && !s.terminal);
  $("lastmove").textContent = s.last_move && s.last_move.text ? "Last move (" + seatName(s, s.last_move.seat) + "): " + s.last_move.text : "";
  if (s.terminal) {
    status.textContent = "game over: " + result(s);
    $("prompt").textContent = "The game is over.";
    showEnd(s);
    document.body.dataset.state = "over";
  } else if (s.thinking) {
    status.textContent = thinkingText(s);
    $("prompt").textContent = "You are " + me + ". " + seatName(s, s.thinking.seat) +
      " is playing its turn; its moves appear here and on the board as it makes them.";
    const note = document.createElement("p");
    note.className = "small";
    note.textContent = "No moves for you now: " + seatName(s, s.thinking.seat) + " is to act.";
    actions.appendChild(note);
    document.body.dataset.state = "thinking";
    schedulePoll();
  } else if (s.bot_error) {
    status.textContent = "You are " + me + ": " + s.bot_error;
    $("prompt").textContent = "The bot stopped; start a new game or load one.";
    document.body.dataset.state = "ready";
  } else if (s.legal.length) {
    status.textContent = "You are " + me + ": your move";
    $("prompt").textContent = cap(s.prompt || "choose a move");
    document.body.dataset.state = "ready";
  } else {
    status.textContent = "You are " + me + ": waiting for " + seatName(s, s.to_act);
    $("prompt").textContent = "";
    document.body.dataset.state = "ready";
  }
  bumpVersion();
}

function result(s) {
  const w = s.winners || [];
  if (!w.length) return "a draw";
  return w.map((p) => seatName(s, p)).join(" and ") + (w.length > 1 ? " win" : " wins");
}

function showEnd(s) {
  $("end-title").textContent = "Game over: " + result(s);
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
$("end-new").onclick = () => { open("end", false); openNewGame(); };

function seatRows(gameId) {
  const box = $("ng-seats");
  box.textContent = "";
  const names = snap.games[gameId].seats;
  names.forEach((name, p) => {
    const label = document.createElement("label");
    label.textContent = cap(name) + " ";
    const sel = document.createElement("select");
    sel.className = "ng-seat";
    sel.add(new Option("Person at this screen", "human"));
    for (const b of snap.bots) { const o = new Option("Bot: " + b.name, b.spec); o.title = b.description; sel.add(o); }
    sel.value = gameId === snap.game ? snap.players[p] : (p === 0 ? "human" : snap.bots[0].spec);
    label.appendChild(sel);
    box.appendChild(label);
  });
}

function openNewGame() {
  const g = $("ng-game");
  g.textContent = "";
  for (const [id, info] of Object.entries(snap.games)) g.add(new Option(info.name, id));
  g.value = snap.game;
  g.onchange = () => seatRows(g.value);
  seatRows(snap.game);
  $("ng-seed").value = String(Math.floor(Math.random() * 1e6));
  open("newgame", true);
}
$("btn-new").onclick = openNewGame;
$("ng-cancel").onclick = () => open("newgame", false);
$("ng-start").onclick = async () => {
  const body = { game: $("ng-game").value, seed: Number($("ng-seed").value) || 0,
                 players: Array.from(document.querySelectorAll(".ng-seat")).map((x) => x.value) };
  try {
    open("newgame", false);
    const mine = ++epoch;
    const s = await api.post("/api/new", body);
    if (mine !== epoch) return;
    seat = null;
    show(s);
  } catch (err) {
    status.textContent = "refused: " + err.message;
  }
};

async function openSaveLoad(saving) {
  $("sl-title").textContent = saving ? "Save this game" : "Load a saved game";
  $("sl-save").style.display = saving ? "" : "none";
  $("sl-ok").style.display = saving ? "" : "none";
  $("sl-msg").textContent = "";
  const list = $("sl-list");
  list.textContent = "";
  const saves = (await api.get("/api/saves")).saves || [];
  if (!saving) {
    if (!saves.length) list.textContent = "No saved games yet.";
    for (const name of saves) {
      const b = document.createElement("button");
      b.textContent = name; b.className = "load"; b.style.display = "block"; b.style.margin = "3px 0";
      b.onclick = async () => {
        try {
          const mine = ++epoch;
          const s = await api.post("/api/load", { name: name });
          if (mine === epoch) { seat = null; show(s); }
          open("saveload", false);
        }
        catch (err) { $("sl-msg").textContent = err.message; }
      };
      list.appendChild(b);
    }
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

api.get("/api/state?since=0").then(show);
