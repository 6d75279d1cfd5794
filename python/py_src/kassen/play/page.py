"""The page served by :mod:`kassen.play.server` (one file: HTML, CSS and script): the board
scaled to the window, the seat's legal moves as sentences, its events as a log of sentences,
the last move highlighted, a hand-off screen between the people of a hot-seat game, dialogs
for a new game (who plays each seat: a person or one of the built-in bots) and for saving and
loading games, and an end screen with the result."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kassen: play</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="kassen-token" content="%TOKEN%">
<style>
html, body { height: 100%; margin: 0; }
body { font-family: 'Noto Sans', 'Noto Sans CJK JP', sans-serif; display: flex; flex-direction: column; color: #222; }
header { display: flex; gap: 8px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #bbb; background: #f4f1ea; }
header h1 { font-size: 16px; margin: 0 8px 0 0; white-space: nowrap; }
#status { font-weight: bold; flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header button { font-size: 13px; }
#wrap { flex: 1; min-height: 0; display: flex; gap: 8px; padding: 8px; }
#board { flex: 1; min-width: 0; min-height: 0; display: flex; justify-content: center; align-items: flex-start; }
#board svg { width: 100%; height: 100%; max-height: calc(100vh - 60px); }
#side { width: 380px; flex: none; display: flex; flex-direction: column; gap: 6px; min-height: 0; }
#prompt { font-size: 14px; background: #fff7cc; border: 1px solid #d9c56b; padding: 4px 6px; }
#lastmove { font-size: 12px; color: #555; }
#actions { flex: 1 1 40%; overflow-y: auto; border: 1px solid #999; padding: 4px; min-height: 60px; }
#actions button { display: block; width: 100%; text-align: left; margin: 1px 0; font-size: 13px; padding: 3px 6px; }
#actions button.candidate { background: #F0E442; }
#log { flex: 1 1 60%; overflow-y: auto; border: 1px solid #999; padding: 4px; font-size: 13px; min-height: 60px; }
#log div { padding: 1px 2px; border-bottom: 1px solid #eee; }
#log div.new { background: #fff3b0; }
#log span.n { color: #888; font-size: 11px; margin-right: 4px; }
h2 { font-size: 13px; margin: 2px 0; }
.clickable { cursor: pointer; }
.clickable polygon, .clickable rect, .clickable circle, .clickable path { stroke: #CC79A7; stroke-width: 3; }
.last-move polygon, .last-move rect, .last-move circle, .last-move path { stroke: #D55E00 !important; stroke-width: 5 !important; }
.overlay { position: fixed; inset: 0; background: rgba(40, 40, 40, 0.55); display: none; align-items: center; justify-content: center; z-index: 10; }
.overlay.open { display: flex; }
.card { background: #fff; padding: 18px 22px; border-radius: 8px; min-width: 320px; max-width: 640px; max-height: 85vh; overflow-y: auto; box-shadow: 0 4px 20px rgba(0,0,0,.35); }
.card h2 { font-size: 20px; margin: 0 0 10px 0; }
.card table { border-collapse: collapse; margin: 8px 0; }
.card td, .card th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
.card label { display: block; margin: 6px 0; }
.card .row { display: flex; gap: 8px; margin-top: 12px; justify-content: flex-end; }
#handoff { background: #2b2b2b; }
#handoff .card { text-align: center; }
#handoff .card p { font-size: 16px; }
.small { font-size: 12px; color: #666; }
</style></head>
<body data-state="loading">
<header><h1 id="title">kassen</h1><div id="status">loading...</div>
<button id="btn-new">New game</button><button id="btn-save">Save</button><button id="btn-load">Load</button></header>
<div id="wrap"><div id="board"></div>
<div id="side"><div id="prompt"></div><div id="lastmove"></div>
<h2>Your moves (click one, or a highlighted place on the board)</h2><div id="actions"></div>
<h2>What happened</h2><div id="log"></div></div></div>

<div id="handoff" class="overlay"><div class="card"><h2 id="handoff-title"></h2>
<p id="handoff-text"></p><button id="handoff-ok">I am ready: show my seat</button></div></div>

<div id="end" class="overlay"><div class="card"><h2 id="end-title"></h2><table id="end-table"></table>
<div class="row"><button id="end-board">Look at the board</button><button id="end-new">New game</button></div></div></div>

<div id="newgame" class="overlay"><div class="card"><h2>New game</h2>
<label>Game <select id="ng-game"></select></label><div id="ng-seats"></div>
<label>Seed <input id="ng-seed" type="number" min="0" value="0"></label>
<p class="small">Several seats played by a person share this screen: a hand-off screen hides each seat's secrets from the next.</p>
<div class="row"><button id="ng-cancel">Cancel</button><button id="ng-start">Start</button></div></div></div>

<div id="saveload" class="overlay"><div class="card"><h2 id="sl-title"></h2>
<div id="sl-save"><label>Name <input id="sl-name" value="game1" pattern="[A-Za-z0-9_-]{1,64}"></label></div>
<div id="sl-list"></div><p class="small">Games are saved as files where the server runs, never in the page.</p><p id="sl-msg" class="small"></p>
<div class="row"><button id="sl-cancel">Close</button><button id="sl-ok">Save</button></div></div></div>
<script>
"use strict";
let since = 0, busy = false, seat = null, snap = null;
const $ = (id) => document.getElementById(id);
const board = $("board"), actions = $("actions"), log = $("log"), status = $("status");
let step = 0;
// The session's secret, sent with every API request (the server refuses requests without it).
const token = document.querySelector('meta[name="kassen-token"]').content;
const api = {"X-Kassen-Token": token};

function open(id, yes) { $(id).classList.toggle("open", yes); }
function bumpVersion() { document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1); }
function seatName(s, p) { return (p !== null && p !== undefined && s.seat_names[p]) ? cap(s.seat_names[p]) : "?"; }
function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
function fallbackText(e) {
  const rest = Object.assign({}, e);
  delete rest.step; delete rest.audience; delete rest.kind; delete rest.text;
  return e.kind.replace(/_/g, " ") + " " + JSON.stringify(rest);
}

function showHandoff(s) {
  board.textContent = ""; actions.textContent = ""; log.textContent = "";
  $("prompt").textContent = ""; $("lastmove").textContent = "";
  $("handoff-title").textContent = "Pass the screen to " + cap(s.handoff.name);
  $("handoff-text").textContent = cap(s.handoff.name) + ", click when the other players are not looking.";
  status.textContent = "waiting for " + cap(s.handoff.name);
  open("handoff", true); open("end", false);
  document.body.dataset.state = "handoff";
}

function show(s) {
  snap = s;
  $("title").textContent = s.game_name;
  document.title = "kassen: " + s.game_name;
  if (s.handoff) { seat = null; since = 0; showHandoff(s); bumpVersion(); return; }
  open("handoff", false);
  if (s.seat !== seat) { log.textContent = ""; seat = s.seat; }
  board.innerHTML = s.svg;
  const svg = board.querySelector("svg");
  if (svg) svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  const fresh = log.childElementCount > 0;
  for (const old of log.querySelectorAll("div.new")) old.classList.remove("new");
  for (const e of s.events) {
    const div = document.createElement("div");
    if (fresh) div.className = "new";
    const n = document.createElement("span");
    n.className = "n"; n.textContent = String(e.step);
    div.append(n, e.text || fallbackText(e));
    log.appendChild(div);
  }
  log.scrollTop = log.scrollHeight;
  since = s.events_total;
  step = s.step;
  actions.textContent = "";
  const byTarget = new Map();
  for (const a of s.legal) {
    const b = document.createElement("button");
    b.className = "action";
    b.dataset.action = String(a.id);
    b.textContent = a.sentence;
    b.title = a.text;
    b.onclick = () => act(a.id);
    actions.appendChild(b);
    if (a.target) {
      if (!byTarget.has(a.target)) byTarget.set(a.target, []);
      byTarget.get(a.target).push(a.id);
    }
  }
  for (const el of board.querySelectorAll("[data-target]")) {
    const t = el.getAttribute("data-target");
    if (s.last_move && s.last_move.target === t) el.classList.add("last-move");
    const ids = byTarget.get(t);
    if (!ids) continue;
    el.classList.add("clickable");
    if (ids.length === 1) el.dataset.action = String(ids[0]);
    el.addEventListener("click", () => {
      if (ids.length === 1) { act(ids[0]); return; }
      for (const b of actions.children) b.classList.toggle("candidate", ids.includes(Number(b.dataset.action)));
    });
  }
  const me = seatName(s, s.seat);
  $("lastmove").textContent = s.last_move && s.last_move.text ? "Last move (" + seatName(s, s.last_move.seat) + "): " + s.last_move.text : "";
  if (s.terminal) {
    status.textContent = "game over: " + result(s);
    $("prompt").textContent = "The game is over.";
    showEnd(s);
    document.body.dataset.state = "over";
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

async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: Object.assign({"Content-Type": "application/json"}, api),
                               body: JSON.stringify(body || {})});
  const v = await r.json();
  if (!r.ok) throw new Error(v.error || "refused");
  return v;
}

async function act(id) {
  if (busy) return;
  busy = true;
  document.body.dataset.state = "busy";
  try {
    show(await post("/api/act", {action: id, since: since, step: step}));
  } catch (err) {
    status.textContent = "refused: " + err.message; document.body.dataset.state = "ready";
  } finally {
    busy = false;
  }
}

$("handoff-ok").onclick = async () => { show(await post("/api/ready")); };
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
  const body = {game: $("ng-game").value, seed: Number($("ng-seed").value) || 0,
                players: Array.from(document.querySelectorAll(".ng-seat")).map((x) => x.value)};
  try {
    open("newgame", false);
    seat = null;
    show(await post("/api/new", body));
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
  const saves = (await (await fetch("/api/saves", {headers: api})).json()).saves || [];
  if (!saving) {
    if (!saves.length) list.textContent = "No saved games yet.";
    for (const name of saves) {
      const b = document.createElement("button");
      b.textContent = name; b.className = "load"; b.style.display = "block"; b.style.margin = "3px 0";
      b.onclick = async () => {
        try { seat = null; show(await post("/api/load", {name: name})); open("saveload", false); }
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
  try { const r = await post("/api/save", {name: $("sl-name").value}); $("sl-msg").textContent = "Saved as " + r.saved + "."; }
  catch (err) { $("sl-msg").textContent = err.message; }
};

fetch("/api/state?since=0", {headers: api}).then((r) => r.json()).then(show);
</script></body></html>
"""
