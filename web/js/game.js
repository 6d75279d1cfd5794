// The page of one online game (/g/<id>, docs/server.md): the seat page when the address holds
// an invite link's fragment (#seat=N&token=...) or names a seat this browser remembers
// (#seat=N), otherwise the spectator page. It shows the seat's snapshot (the board drawn for
// the seat, its legal moves, its event sentences), keeps a WebSocket open for the changes,
// fetches the new picture after each one, and plays a click as a move that names the step it
// answers. body[data-state]: loading, ready (the seat is to move), busy (a move is on its way),
// updating (a change was heard of, its picture is on its way), waiting (another seat is to
// move), watching (spectator), over, error; body[data-step] is the step of the board shown,
// body[data-version] counts the renders, body[data-conn] is the connection state.

import { makeApi, ApiError } from "./api.js";
import { showBoard, fitSideLists } from "./board.js";
import { appendEvents, MoveSentences } from "./log.js";
import { showMoves, markCandidates } from "./moves.js";
import { GameStream } from "./stream.js";
import { rememberSeat, findSeat, seatsOf, parseFragment } from "./seats.js";

const $ = (id) => document.getElementById(id);
const board = $("board"), actions = $("actions"), log = $("log"), status = $("status");
const gameId = (location.pathname.match(/^\/g\/([0-9a-f]{16})\/?$/) || [])[1] || null;

let api = makeApi();
let token = null;     // this seat's token, null for a spectator
let snap = null;      // the last snapshot shown
let latest = null;    // the newest position of play heard of (snapshot or stream message)
let eventsTotal = 0;  // events shown in the log (the next `since`)
const sentences = new MoveSentences();  // the seat's event sentences by step: the last move
let progress = null;  // the thinking bot's search so far ({seat, step, iterations, elapsed_ms})
let busy = false;
let endShown = false;
let botNames = new Map();
let stream = null;
let refreshing = null, refreshAgain = false;
let poller = null;
const POLL_MS = 5000;

function cap(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
function bumpVersion() { document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1); }
function open(id, yes) { $(id).classList.toggle("open", yes); }
function mine() { return snap && snap.seat !== null && snap.seat !== undefined; }
function seatName(p) {
  if (p === null || p === undefined || !snap) return "?";
  return cap((snap.seat_names && snap.seat_names[p]) || `seat ${p + 1}`);
}
function seatKind(p) { return snap && snap.seats && snap.seats[p] ? snap.seats[p].kind : "human"; }
function isBot(p) { return seatKind(p) !== "human"; }
function botName(spec) { return botNames.get(spec) || spec; }
function playedBy(p) {
  if (mine() && p === snap.seat) return "you (this browser)";
  return isBot(p) ? "bot: " + botName(seatKind(p)) : "person";
}

function notice(text, kind = "info") {
  const n = $("notice");
  n.hidden = !text;
  n.className = kind;
  n.textContent = text || "";
}

// Appends the events numbered from `from` on, skipping those already shown; a gap (events
// the page has not got) is filled by the next snapshot.
function addEvents(from, events) {
  if (!events || from > eventsTotal) return from > eventsTotal;
  const fresh = events.slice(eventsTotal - from);
  if (fresh.length) {
    appendEvents(log, fresh);
    sentences.add(fresh);
    eventsTotal += fresh.length;
  }
  return false;
}

function resultText(r, winners) {
  const w = winners || (r && r.winners) || [];
  let text = !w.length ? "a draw" : w.map(seatName).join(" and ") + (w.length > 1 ? " win" : " wins");
  if (r && r.reason === "resigned" && r.resigned !== null && r.resigned !== undefined) {
    text = seatName(r.resigned) + " resigned: " + text;
  }
  return text;
}

// How far the thinking bot has searched: " (12,400 iterations, 1.3 s)", or nothing.
function searched(s) {
  const p = progress;
  if (!p || p.seat !== s.thinking || p.step !== s.step || typeof p.iterations !== "number") return "";
  return " (" + p.iterations.toLocaleString("en") + " iterations, " + (p.elapsed_ms / 1000).toFixed(1) + " s)";
}

// The status line, the seats list and body[data-state] from `latest`.
function showStatus() {
  const s = latest;
  const over = s.terminal || s.status !== "active";
  const me = mine() ? snap.seat : null;
  const thinking = s.thinking !== null && s.thinking !== undefined && !over
    ? seatName(s.thinking) + " (" + botName(seatKind(s.thinking)) + ") is thinking" + searched(s) : null;
  let state, text, wait = false;
  if (s.status === "unsupported_rules") {
    state = "over"; text = "this game was played under rules this server no longer plays";
  } else if (busy) {
    // A bot that thinks already has the move (its turn came after it).
    state = "busy"; text = thinking || "sending your move"; wait = true;
  } else if (snap.step < s.step) {
    state = "updating"; text = thinking || "a move was played: updating the board"; wait = true;
  } else if (over) {
    state = "over"; text = "Game over: " + resultText(s.result, s.winners);
  } else if (me !== null && s.to_act === me && snap.step === s.step && snap.legal.length) {
    state = "ready"; text = "Your move, " + seatName(me);
  } else {
    state = me === null ? "watching" : "waiting";
    const who = seatName(s.to_act);
    wait = true;
    if (thinking) text = thinking;
    else if (s.to_act === null || s.to_act === undefined) text = "waiting for the server";
    else if (isBot(s.to_act)) text = who + " (" + botName(seatKind(s.to_act)) + ") is about to move";
    else text = me === null ? who + " to move" : "waiting for " + who + " to move";
  }
  const who = state === "over" ? "" : me === null ? "You are watching: " : (state !== "ready" ? "You are " + seatName(me) + ": " : "");
  status.textContent = who + text + (wait ? "..." : "");
  // A tab in the background tells its player that it is their turn.
  document.title = (state === "ready" ? "Your move: " : "") + "kassen: " + snap.game_name +
    (me !== null ? " (" + seatName(me) + ")" : " (watching)");
  status.classList.toggle("thinking", wait);
  document.body.dataset.state = state;
  document.body.dataset.step = String(snap.step);
  $("btn-resign").hidden = me === null || over;
  const replay = $("replay-link");
  replay.hidden = !(s.status === "finished");
  replay.href = `/api/games/${gameId}/replay.html`;
  showSeats();
}

function showSeats() {
  const box = $("seats");
  box.textContent = "";
  if (!snap) return;
  (snap.seat_names || []).forEach((_, p) => {
    const row = document.createElement("div");
    row.className = "seat";
    if (latest.to_act === p && !latest.terminal) row.classList.add("to-act");
    if (latest.thinking === p) row.classList.add("thinking");
    if (mine() && snap.seat === p) row.classList.add("me");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seatName(p);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = playedBy(p);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = latest.thinking === p ? "thinking" : (latest.to_act === p && !latest.terminal ? "to move" : "");
    row.append(name, who, mark);
    box.appendChild(row);
  });
}

function showEnd() {
  const s = snap;
  $("end-title").textContent = "Game over: " + resultText(s.result, s.winners);
  const r = s.result || {};
  const how = r.reason === "resigned" ? "The game ended by resignation." : "The game was played to its end.";
  const you = mine() ? ((s.winners || []).includes(s.seat) ? "You won. " : "You lost. ") : "";
  $("end-reason").textContent = you + how;
  const t = $("end-table");
  t.textContent = "";
  const head = t.insertRow();
  for (const h of ["Seat", "Played by", "Result"]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
  (s.seat_names || []).forEach((_, p) => {
    const row = t.insertRow();
    const won = (s.winners || []).includes(p);
    const score = s.returns && s.returns[p] !== undefined && s.returns[p] !== null ? " (" + s.returns[p] + ")" : "";
    for (const v of [seatName(p), playedBy(p), (won ? "won" : "lost") + score]) row.insertCell().textContent = v;
    if (won) row.classList.add("winner");
  });
  $("end-replay").href = `/api/games/${gameId}/replay.html`;
  open("end", true);
}

function render(s) {
  if (snap && s.step < snap.step) return;
  // The same position again (two refreshes crossed): the board and the buttons stay as they
  // are, so a click under way is not lost on an element being replaced.
  const same = snap && s.step === snap.step && s.svg === snap.svg && s.terminal === snap.terminal &&
    JSON.stringify(s.legal) === JSON.stringify(snap.legal);
  snap = s;
  $("title").textContent = s.game_name;
  if (addEvents(s.events_from, s.events)) refresh();
  const legal = mine() && !s.terminal ? s.legal : [];
  if (!same) {
    showBoard(board, s.svg, {
      legal,
      lastTarget: s.last_move ? s.last_move.target : null,
      onAct: play,
      onChoose: (ids) => markCandidates(actions, ids),
      panel: $("panel"),
    });
    showMoves(actions, legal, play);
    actions.scrollTop = 0;  // a new list starts at its top, whatever was clicked in the last one
  }
  if (!latest || s.step >= latest.step) {
    latest = { step: s.step, to_act: s.to_act, thinking: s.thinking, terminal: s.terminal, status: s.status,
               result: s.result, winners: s.winners };
  }
  $("prompt").textContent = legal.length ? cap(s.prompt || "choose a move") : "";
  $("prompt").hidden = !legal.length;
  $("moves-title").textContent = legal.length ? "Your moves (click one, or a highlighted place on the board)" : "Your moves: none until it is your turn";
  $("moves-title").hidden = !mine() || s.terminal;
  actions.hidden = !mine() || s.terminal || !legal.length;
  $("lastmove").textContent = sentences.lastMove(s.last_move, seatName);
  showStatus();
  if (s.terminal && !endShown) {
    endShown = true;
    showEnd();
  }
  bumpVersion();
}

// Fetches the snapshot (the picture and the moves) until it is as new as the newest step
// heard of; one request at a time.
async function refresh() {
  if (refreshing) { refreshAgain = true; return refreshing; }
  refreshing = (async () => {
    try {
      do {
        refreshAgain = false;
        const s = await api.get(`/api/games/${gameId}/snapshot?since=${eventsTotal}`);
        render(s);
        if (latest && latest.step > s.step) refreshAgain = true;
      } while (refreshAgain);
    } catch (err) {
      // Refusals that a later try mends (rate limit, timeouts, storage, no network) are retried.
      if (err instanceof ApiError && err.status < 500 && err.code !== 1006) notice("The server refused: " + err.message, "error");
      else setTimeout(refresh, 2000);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function onMessage(m) {
  if (m.type === "events") {
    if (addEvents(m.events_from, m.events)) refresh();
    const before = latest;
    latest = { step: m.step, to_act: m.to_act, thinking: m.thinking, terminal: m.terminal, status: m.status,
               result: m.result, winners: m.result ? m.result.winners : null };
    if (!snap || m.step !== snap.step || m.terminal !== snap.terminal || m.status !== snap.status) refresh();
    if (snap && (!before || before.thinking !== m.thinking || before.step !== m.step)) { showStatus(); bumpVersion(); }
  } else if (m.type === "progress") {
    progress = m;
    if (snap && latest) showStatus();
  } else if (m.type === "error" && m.ref === undefined) {
    notice("The live connection was refused: " + m.error, "error");
  }
}

function onConnection(state, detail) {
  document.body.dataset.conn = state;
  const text = {
    connecting: "connecting",
    connected: "connected",
    reconnecting: `reconnecting in ${detail} s`,
    offline: "offline",
    closed: "disconnected",
  }[state];
  $("conn-text").textContent = text;
  $("conn").className = state;
  // While the stream is down the page polls, so it stays current if the socket cannot return.
  clearInterval(poller);
  poller = state === "connected" || state === "connecting" ? null : setInterval(refresh, POLL_MS);
}

async function send(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.post(path, body);
    } catch (err) {
      // No answer (network loss), too many requests, or a server error: nothing was
      // acknowledged, and the same move with the same step again is safe.
      const again = !(err instanceof ApiError) || err.code === 1006 || err.status >= 500;
      if (!again || attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
    }
  }
}

async function play(action) {
  if (busy || !snap || !mine()) return;
  busy = true;
  showStatus();
  try {
    const r = await send(`/api/games/${gameId}/moves`, { action, step: snap.step });
    if (latest.step < r.step) latest = Object.assign({}, latest, { step: r.step, to_act: r.to_act, status: r.status });
    notice("");
  } catch (err) {
    if (err instanceof ApiError && err.code === 1007) notice("The game had moved on; here is the board as it is now.", "info");
    else notice("Your move was not played: " + err.message, "error");
  } finally {
    busy = false;
  }
  await refresh();
}

async function resign() {
  open("resign", false);
  try {
    await send(`/api/games/${gameId}/resign`, {});
  } catch (err) {
    notice("Could not resign: " + err.message, "error");
  }
  await refresh();
}

async function start() {
  if (!gameId) {
    document.body.dataset.state = "error";
    status.textContent = "This address names no game.";
    return;
  }
  const frag = parseFragment(location.hash);
  let fromInvite = false;
  if (frag.token) {
    token = frag.token;
    fromInvite = true;
  } else if (frag.seat !== null) {
    const held = findSeat(gameId, frag.seat);
    if (held) token = held.token;
    else notice(`This browser does not hold seat ${frag.seat + 1} of this game: you are watching.`, "info");
  }
  api = makeApi({ headers: token ? { Authorization: "Bearer " + token } : {} });
  fetch("/api/catalog").then((r) => r.json()).then((c) => {
    botNames = new Map((c.bots || []).map((b) => [b.spec, b.name]));
    if (snap) showStatus();
  }).catch(() => {});
  let s;
  try {
    s = await api.get(`/api/games/${gameId}/snapshot?since=0`);
  } catch (err) {
    if (token && err instanceof ApiError && err.code === 1004) {
      // A wrong token: the page shows the game to a spectator and says so.
      token = null;
      api = makeApi();
      history.replaceState(null, "", `/g/${gameId}`);
      notice("This invite link is not valid for this game: you are watching.", "error");
      s = await api.get(`/api/games/${gameId}/snapshot?since=0`).catch((e) => e);
    } else {
      s = err;
    }
    if (s instanceof Error) {
      document.body.dataset.state = "error";
      status.textContent = s.code === 1003 ? "There is no such game." : "The game could not be loaded: " + s.message;
      return;
    }
  }
  if (token && s.seat !== null && s.seat !== undefined) {
    if (fromInvite) rememberSeat({ game_id: gameId, seat: s.seat, token, game_name: s.game_name,
                                  seat_name: cap((s.seat_names || [])[s.seat] || "") });
    // The token leaves the address bar (and the history); the seat number stays, so a
    // reload finds the token in this browser.
    history.replaceState(null, "", `/g/${gameId}#seat=${s.seat}`);
  } else if (!token) {
    const held = seatsOf(gameId);
    if (held.length && !frag.seat) {
      notice("This browser holds a seat of this game.", "info");
      const n = $("notice");
      for (const h of held) {
        const a = document.createElement("a");
        a.href = `/g/${gameId}#seat=${h.seat}`;
        a.textContent = " Play seat " + (h.seat + 1);
        n.appendChild(a);
      }
    }
  }
  render(s);
  stream = new GameStream({ gameId, token, since: () => eventsTotal, onMessage, onConnection });
  stream.start();
}

// The board at its drawn size (the engine's text is never under 11 px there; the box scrolls)
// or scaled to fit its box; the choice is kept in this browser.
function zoom(full) {
  board.classList.toggle("natural", full);
  $("btn-zoom").textContent = full ? "Fit the board" : "Full-size board";
  localStorage.setItem("kassen.board-zoom", full ? "full" : "fit");
}
zoom(localStorage.getItem("kassen.board-zoom") !== "fit");
$("btn-zoom").onclick = () => zoom(!board.classList.contains("natural"));
// The side lists are sized for their box when it opens (a closed box has no width).
$("legend-box").addEventListener("toggle", () => fitSideLists($("panel")));
$("btn-resign").onclick = () => open("resign", true);
$("resign-cancel").onclick = () => open("resign", false);
$("resign-ok").onclick = resign;
$("end-board").onclick = () => open("end", false);
$("conn").onclick = () => { if (stream) stream.retryNow(); };
window.addEventListener("hashchange", () => location.reload());
start();
