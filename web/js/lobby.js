// The lobby (/, docs/server.md): creates a game (game, config, who sits where, seed) and shows
// its invite links, lists the seats this browser holds ("my games", with whose turn it is) and
// the recent public games to watch. body[data-state]: loading, ready, created, error.

import { makeApi } from "./api.js";
import { loadSeats, forgetSeat } from "./seats.js";
import { configChoices, seatNames, words } from "./config.js";

const $ = (id) => document.getElementById(id);
const api = makeApi();
const REFRESH_MS = 15000;
let catalog = null;

function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "data") Object.assign(e.dataset, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}
function botName(spec) {
  const b = catalog && catalog.bots.find((x) => x.spec === spec);
  return b ? b.name : spec;
}
// When the last move was made, or "no move yet".
function lastMove(g) {
  if (!g.updated_at) return "";
  return g.step ? `${ago(g.updated_at)} (step ${g.step})` : "no move yet";
}
function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  if (s < 86400) return Math.round(s / 3600) + " h ago";
  return Math.round(s / 86400) + " days ago";
}

// --- creating a game -------------------------------------------------------------------

function gameInfo() {
  return catalog.games.find((g) => g.id === $("create-game").value);
}

function showConfig() {
  const g = gameInfo();
  const box = $("create-config");
  box.textContent = "";
  for (const c of configChoices(g)) {
    let input;
    if (c.kind === "switch") {
      input = el("input", { type: "checkbox", checked: !!c.def });
      box.appendChild(el("label", { class: "field switch" }, input, " " + words(c.key)));
    } else if (c.kind === "number") {
      input = el("input", { type: "number", value: String(c.def), step: "1" });
      box.appendChild(el("label", { class: "field" }, words(c.key) + " ", input));
    } else {
      input = el("select");
      for (const v of c.values) input.add(new Option(String(v), JSON.stringify(v)));
      if (c.def !== undefined) input.value = JSON.stringify(c.def);
      box.appendChild(el("label", { class: "field" }, words(c.key) + " ", input));
    }
    input.className = "config";
    input.dataset.key = c.key;
    input.dataset.kind = c.kind;
    input.onchange = showSeatRows;
  }
  showSeatRows();
}

function configValue() {
  const config = {};
  for (const input of document.querySelectorAll("#create-config .config")) {
    const k = input.dataset.key;
    if (input.dataset.kind === "switch") {
      if (input.checked) config[k] = true;
    } else if (input.dataset.kind === "number") {
      config[k] = Number(input.value);
    } else {
      config[k] = JSON.parse(input.value);
    }
  }
  return config;
}

function showSeatRows() {
  const g = gameInfo();
  const names = seatNames(g, configValue());
  const box = $("seat-rows");
  const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.textContent = "";
  names.forEach((name, p) => {
    const sel = el("select", { class: "seat-kind", data: { seat: String(p) } });
    sel.add(new Option("a person (invite link)", "human"));
    for (const b of catalog.bots) {
      const o = new Option("bot: " + b.name, b.spec);
      o.title = b.description || "";
      sel.add(o);
    }
    sel.value = before[p] || "human";
    box.appendChild(el("label", { class: "field seat" }, el("span", { class: "name" }, cap(name)), sel));
  });
}

async function create(ev) {
  ev.preventDefault();
  const msg = $("create-msg");
  msg.textContent = "";
  let config;
  try {
    const extra = JSON.parse($("create-extra").value.trim() || "{}");
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) throw new Error("not an object");
    config = Object.assign(extra, configValue());
  } catch (err) {
    msg.textContent = "Other config keys: write a JSON object, like {\"max_turns\": 3}.";
    return;
  }
  const body = { game: $("create-game").value, config,
                 seats: Array.from(document.querySelectorAll("#seat-rows .seat-kind")).map((s) => s.value) };
  const seed = $("create-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  $("create-btn").disabled = true;
  try {
    showCreated(await api.post("/api/games", body));
  } catch (err) {
    msg.textContent = "Not created: " + err.message + (err.code ? ` (code ${err.code})` : "");
  } finally {
    $("create-btn").disabled = false;
  }
}

function showCreated(r) {
  const box = $("invites");
  box.textContent = "";
  for (const s of r.seats) {
    const who = el("span", { class: "who" }, cap(s.name));
    if (s.kind === "human") {
      const input = el("input", { readOnly: true, value: location.origin + s.invite, id: `invite-${s.seat}` });
      input.onfocus = () => input.select();
      box.appendChild(el("div", { class: "invite", data: { seat: String(s.seat) } }, who, input,
        el("button", { type: "button", class: "copy", data: { for: input.id } }, "Copy"),
        el("a", { class: "button", href: s.invite, target: "_blank", rel: "noopener", title: "Play this seat in this browser (a new tab)" }, "Play here")));
    } else {
      box.appendChild(el("div", { class: "invite bot", data: { seat: String(s.seat) } }, who,
        el("span", { class: "botname" }, "played by the bot " + botName(s.kind))));
    }
  }
  $("watch-link").value = location.origin + r.watch;
  $("created-title").textContent = "Game created: " + (catalog.games.find((g) => g.id === $("create-game").value) || {}).name;
  $("create-form").hidden = true;
  $("created").hidden = false;
  document.body.dataset.state = "created";
  document.body.dataset.game = r.game_id;
  loadRecent();
}

async function copy(button) {
  const input = $(button.dataset.for);
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (err) {
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}

// --- my games and recent games ------------------------------------------------------------

async function loadMine() {
  const held = loadSeats().slice(0, (catalog && catalog.limits && catalog.limits.max_my_games) || 100);
  const table = $("my-games");
  $("my-empty").hidden = held.length > 0;
  if (!held.length) { table.textContent = ""; return; }
  let answer;
  try {
    answer = await api.post("/api/my-games", { seats: held.map((h) => ({ game_id: h.game_id, token: h.token })) });
  } catch (err) {
    return;
  }
  table.textContent = "";
  const head = table.insertRow();
  for (const h of ["Game", "Your seat", "Now", "Last move", ""]) head.appendChild(el("th", {}, h));
  answer.games.forEach((g, i) => {
    const h = held[i];
    const row = table.insertRow();
    row.dataset.game = h.game_id;
    const link = `/g/${h.game_id}#seat=${h.seat}`;
    let now;
    if (g.error) now = "unknown game or link";
    else if (g.status === "unsupported_rules") now = "rules no longer played";
    else if (g.finished) now = g.result && (g.result.winners || []).includes(g.seat) ? "over: you won" : "over: you lost";
    else if (g.your_turn) { now = "your turn"; row.classList.add("your-turn"); }
    else now = "waiting for the others";
    row.insertCell().append(el("a", { href: link }, g.game_name || h.game_name || "game"), el("span", { class: "id" }, " " + h.game_id));
    row.insertCell().textContent = h.seat_name || `seat ${h.seat + 1}`;
    row.insertCell().append(el("span", { class: "now" }, now));
    row.insertCell().textContent = lastMove(g);
    const forget = el("button", { type: "button", class: "forget", title: "Forget this seat in this browser (the link is lost)" }, "Forget");
    forget.onclick = () => {
      if (confirm("Forget this seat? Without its invite link you cannot play it again.")) { forgetSeat(h.game_id, h.seat); loadMine(); }
    };
    row.insertCell().append(el("a", { class: "button", href: link }, g.your_turn ? "Play" : "Open"), " ", forget);
  });
}

function seatsText(seats) {
  return (seats || []).map((s) => (s.kind === "human" ? "person" : botName(s.kind))).join(" vs ");
}

async function loadRecent() {
  let answer;
  try {
    answer = await api.get("/api/games?limit=20");
  } catch (err) {
    return;
  }
  const table = $("recent-games");
  table.textContent = "";
  $("recent-empty").hidden = answer.games.length > 0;
  if (!answer.games.length) return;
  const head = table.insertRow();
  for (const h of ["Game", "Players", "Now", "Last move", ""]) head.appendChild(el("th", {}, h));
  for (const g of answer.games) {
    const row = table.insertRow();
    row.dataset.game = g.game_id;
    const names = (g.seats || []).map((s) => cap(s.name));
    let now;
    if (g.status === "finished") {
      const w = (g.result && g.result.winners) || [];
      now = "over: " + (w.length ? w.map((p) => names[p] || `seat ${p + 1}`).join(" and ") + (w.length > 1 ? " won" : " won") : "a draw");
    } else if (g.status === "unsupported_rules") now = "rules no longer played";
    else now = (names[g.to_act] || "?") + (g.thinking !== null && g.thinking !== undefined ? " is thinking" : " to move");
    row.insertCell().append(el("a", { href: `/g/${g.game_id}` }, g.game_name || g.game), el("span", { class: "id" }, " " + g.game_id));
    row.insertCell().textContent = seatsText(g.seats);
    row.insertCell().textContent = now;
    row.insertCell().textContent = lastMove(g);
    const cell = row.insertCell();
    cell.append(el("a", { class: "button", href: `/g/${g.game_id}` }, "Watch"));
    if (g.status === "finished") cell.append(" ", el("a", { class: "button", href: `/api/games/${g.game_id}/replay.html`, target: "_blank", rel: "noopener" }, "Replay"));
  }
}

async function start() {
  try {
    catalog = await api.get("/api/catalog");
  } catch (err) {
    document.body.dataset.state = "error";
    $("create-msg").textContent = "The server did not answer: " + err.message;
    return;
  }
  const sel = $("create-game");
  for (const g of catalog.games) sel.add(new Option(g.name, g.id));
  sel.onchange = showConfig;
  showConfig();
  $("create-form").onsubmit = create;
  $("create-another").onclick = () => { $("created").hidden = true; $("create-form").hidden = false; document.body.dataset.state = "ready"; };
  document.addEventListener("click", (ev) => { if (ev.target.classList && ev.target.classList.contains("copy")) copy(ev.target); });
  document.body.dataset.state = "ready";
  await Promise.all([loadMine(), loadRecent()]);
  setInterval(() => { if (!document.hidden) { loadMine(); loadRecent(); } }, REFRESH_MS);
  window.addEventListener("storage", loadMine);
}

start();
