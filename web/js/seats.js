// The seats this browser holds ("my games"): {game_id, seat, token, game_name, seat_name,
// added} kept in localStorage under one key. A seat's token is the secret of its invite link; it never leaves
// the browser except in the Authorization header or the WebSocket hello to the game's server.

const KEY = "kassen.seats";

function read(storage) {
  try {
    const v = JSON.parse(storage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v.filter((e) => e && typeof e.game_id === "string" && typeof e.token === "string") : [];
  } catch (err) {
    return [];
  }
}

function write(storage, seats) {
  storage.setItem(KEY, JSON.stringify(seats));
}

// Every remembered seat, newest first.
export function loadSeats(storage = localStorage) {
  return read(storage).sort((a, b) => (b.added || 0) - (a.added || 0));
}

// Remembers a seat (replacing an older entry for the same game and seat).
export function rememberSeat(entry, storage = localStorage) {
  const seats = read(storage).filter((e) => !(e.game_id === entry.game_id && e.seat === entry.seat));
  seats.push(Object.assign({ added: Date.now() }, entry));
  write(storage, seats);
}

// Forgets one seat of a game.
export function forgetSeat(gameId, seat, storage = localStorage) {
  write(storage, read(storage).filter((e) => !(e.game_id === gameId && e.seat === seat)));
}

// The remembered seat `seat` of game `gameId`, or null.
export function findSeat(gameId, seat, storage = localStorage) {
  return read(storage).find((e) => e.game_id === gameId && e.seat === seat) || null;
}

// Every remembered seat of game `gameId`.
export function seatsOf(gameId, storage = localStorage) {
  return read(storage).filter((e) => e.game_id === gameId);
}

// Reads an invite link's fragment ("#seat=0&token=<40 hex>"): {seat, token}; token is null
// when the fragment names only the seat (the page's own address after it stored the token).
export function parseFragment(hash) {
  const p = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const seat = p.has("seat") ? Number(p.get("seat")) : null;
  const token = p.get("token");
  return {
    seat: Number.isInteger(seat) && seat >= 0 ? seat : null,
    token: token && /^[0-9a-f]{40}$/.test(token) ? token : null,
  };
}
