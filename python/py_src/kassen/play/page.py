"""The page served by :mod:`kassen.play.server` (one file: HTML, CSS and script)."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kassen: play</title>
<meta name="kassen-token" content="%TOKEN%">
<style>
body { font-family: 'Noto Sans', sans-serif; margin: 10px; }
#wrap { display: flex; gap: 12px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; }
#side { width: 360px; }
#status { font-weight: bold; margin: 6px 0; }
#actions { max-height: 40vh; overflow-y: auto; border: 1px solid #999; padding: 4px; }
#actions button { display: block; width: 100%; text-align: left; margin: 1px 0; font-size: 12px; }
#actions button.candidate { background: #F0E442; }
#log { max-height: 40vh; overflow-y: auto; border: 1px solid #999; padding: 4px; font-size: 12px; margin-top: 8px; }
#log div.new { animation: flash 1.2s ease-out; }
@keyframes flash { from { background: #F0E442; } to { background: transparent; } }
.clickable { cursor: pointer; }
.clickable polygon, .clickable rect, .clickable circle { stroke: #CC79A7; stroke-width: 3; }
</style></head>
<body data-state="loading">
<div id="status">loading...</div>
<div id="wrap"><div id="board"></div>
<div id="side"><div>Your legal moves (click one, or a highlighted board element):</div>
<div id="actions"></div><div>Your events:</div><div id="log"></div></div></div>
<script>
"use strict";
let since = 0;
let step = 0;
let busy = false;
// The session's secret, sent with every API request (the server refuses requests without it).
const token = document.querySelector('meta[name="kassen-token"]').content;
const api = {"X-Kassen-Token": token};
const board = document.getElementById("board");
const actions = document.getElementById("actions");
const log = document.getElementById("log");
const status = document.getElementById("status");

function eventText(e) {
  const rest = Object.assign({}, e);
  delete rest.step; delete rest.audience; delete rest.kind;
  return "#" + e.step + " " + e.kind + " " + JSON.stringify(rest);
}

function show(s) {
  board.innerHTML = s.svg;
  for (const old of log.querySelectorAll("div.new")) old.className = "";
  for (const e of s.events) {
    const div = document.createElement("div");
    div.className = "new";
    div.textContent = eventText(e);
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
    b.textContent = a.text;
    b.onclick = () => act(a.id);
    actions.appendChild(b);
    if (a.target) {
      if (!byTarget.has(a.target)) byTarget.set(a.target, []);
      byTarget.get(a.target).push(a.id);
    }
  }
  for (const el of board.querySelectorAll("[data-target]")) {
    const ids = byTarget.get(el.getAttribute("data-target"));
    if (!ids) continue;
    el.classList.add("clickable");
    if (ids.length === 1) el.dataset.action = String(ids[0]);
    el.addEventListener("click", () => {
      if (ids.length === 1) { act(ids[0]); return; }
      for (const b of actions.children) {
        b.classList.toggle("candidate", ids.includes(Number(b.dataset.action)));
      }
    });
  }
  document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1);
  if (s.terminal) {
    status.textContent = "game over; returns " + JSON.stringify(s.returns);
    document.body.dataset.state = "over";
  } else {
    status.textContent = s.legal.length ? "your move" : "waiting for the bots";
    document.body.dataset.state = "ready";
  }
}

async function act(id) {
  if (busy) return;
  busy = true;
  document.body.dataset.state = "busy";
  try {
    const r = await fetch("/api/act", {method: "POST", headers: Object.assign({"Content-Type": "application/json"}, api),
                                       body: JSON.stringify({action: id, since: since, step: step})});
    const s = await r.json();
    if (!r.ok) { status.textContent = "refused: " + s.error; document.body.dataset.state = "ready"; return; }
    show(s);
  } finally {
    busy = false;
  }
}

fetch("/api/state?since=0", {headers: api}).then(r => r.json()).then(show);
</script></body></html>
"""
