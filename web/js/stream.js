// The live stream of one game over its WebSocket (docs/server.md section 5): says hello with
// the seat's token (none for a spectator) and the number of events the page already has, hands
// every server message to onMessage, and reconnects after a loss with back-off (1 s, 2 s,
// 4 s ... 30 s), resuming from the events it has seen, so the page misses none and sees none
// twice. onConnection(state, detail) reports "connecting", "connected", "reconnecting"
// (detail: seconds until the next try), "offline" (the browser has no network) and "closed"
// (detail: the server's error; the stream gives up on errors that a retry cannot mend).

const FATAL = new Set([1003, 1004, 1012]);
const PING_MS = 25000;
const MAX_DELAY_S = 30;

export function streamUrl(gameId, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/api/games/${gameId}/ws`;
}

export class GameStream {
  constructor({ gameId, token = null, since = () => 0, onMessage = () => {}, onConnection = () => {},
                WebSocketImpl = WebSocket, win = window }) {
    Object.assign(this, { gameId, token, since, onMessage, onConnection, WebSocketImpl, win });
    this.ws = null;
    this.delay = 1;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.fatal = null;
    this.online = () => { if (!this.ws && !this.stopped && !this.fatal) this.connect(); };
    this.offline = () => { if (this.ws) this.ws.close(); };
    win.addEventListener("online", this.online);
    win.addEventListener("offline", this.offline);
  }

  start() {
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.win.removeEventListener("online", this.online);
    this.win.removeEventListener("offline", this.offline);
    if (this.ws) this.ws.close();
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.ws) return;
    if (this.win.navigator && this.win.navigator.onLine === false) {
      this.onConnection("offline");
      return;
    }
    this.onConnection("connecting");
    const ws = new this.WebSocketImpl(streamUrl(this.gameId, this.win.location));
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.since() }));
      this.pinger = setInterval(() => {
        if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" }));
      }, PING_MS);
    };
    ws.onmessage = (m) => {
      let msg;
      try {
        msg = JSON.parse(m.data);
      } catch (err) {
        return;
      }
      if (msg.type === "welcome") {
        this.delay = 1;
        this.onConnection("connected");
      } else if (msg.type === "error" && msg.ref === undefined && FATAL.has(msg.code)) {
        this.fatal = msg;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      this.pinger = null;
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      if (this.fatal) {
        this.onConnection("closed", this.fatal);
        return;
      }
      if (this.win.navigator && this.win.navigator.onLine === false) {
        this.onConnection("offline");
        return;
      }
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, MAX_DELAY_S);
      this.onConnection("reconnecting", wait);
      this.timer = setTimeout(() => this.connect(), wait * 1000);
    };
  }

  // Tries at once instead of waiting for the back-off (the "reconnect now" button).
  retryNow() {
    if (!this.ws && !this.stopped && !this.fatal) this.connect();
  }
}
