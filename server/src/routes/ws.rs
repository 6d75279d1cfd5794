//! The live stream of docs/server.md section 5: a hello with the seat token and the number of
//! events the client has, then one `events` message per change of the game, from exactly
//! where the client stood.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};

use super::extract::parse;
use crate::app::App;
use crate::error::{ApiError, Code};
use crate::game::Live;
use crate::hub::{Position, Slot, Update};
use crate::limits::{Bucket, ConnectionPermit};
use crate::settings::{MAX_WS_MESSAGE, WS_BURST, WS_RATE};

const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
const PING_EVERY: Duration = Duration::from_secs(20);
const SILENCE: Duration = Duration::from_secs(60);

/// Browsers send `Origin`: it must be the server's own (the request's `Host`) or allowed.
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("").trim_end_matches('/');
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let same = !host.is_empty() && (origin == format!("http://{host}") || origin == format!("https://{host}"));
    if same || allowed.iter().any(|a| a == origin) {
        Ok(())
    } else {
        Err(ApiError::new(Code::Origin, "websocket origin not allowed"))
    }
}

pub async fn upgrade(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    check_origin(&headers, &app.settings.allow_origins)?;
    let slot = app.slot(&id).await?;
    let ws = ws.map_err(|e| ApiError::new(Code::BadRequest, format!("not a websocket upgrade: {}", e.body_text().to_lowercase())))?;
    let permit = app.limits.connect(addr.ip())?;
    Ok(ws
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| async move { Stream { app, slot, socket, _permit: permit }.run().await }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hello {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    since: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    action: Option<i64>,
    #[serde(default)]
    step: Option<i64>,
    #[serde(default, rename = "ref")]
    reference: Value,
}

struct Stream {
    app: Arc<App>,
    slot: Arc<Slot>,
    socket: WebSocket,
    _permit: ConnectionPermit,
}

/// Why a connection ends.
enum End {
    Quiet,
    Error(ApiError),
}

impl From<ApiError> for End {
    fn from(e: ApiError) -> Self {
        End::Error(e)
    }
}

fn error_message(e: &ApiError, reference: Option<&Value>) -> Value {
    let mut v = e.body();
    v["type"] = json!("error");
    if let Some(r) = reference {
        v["ref"] = r.clone();
    }
    v
}

impl Stream {
    async fn send(&mut self, v: &Value) -> Result<(), End> {
        self.socket.send(Message::Text(v.to_string().into())).await.map_err(|_| End::Quiet)
    }

    async fn run(mut self) {
        if let End::Error(e) = self.serve().await {
            let _ = self.socket.send(Message::Text(error_message(&e, None).to_string().into())).await;
            let frame = CloseFrame { code: 1008, reason: e.message.chars().take(100).collect::<String>().into() };
            let _ = self.socket.send(Message::Close(Some(frame))).await;
        }
    }

    async fn hello(&mut self) -> Result<Hello, End> {
        loop {
            let msg = match tokio::time::timeout(HELLO_TIMEOUT, self.socket.recv()).await {
                Err(_) => return Err(ApiError::new(Code::HelloTimeout, "no hello within 10 s").into()),
                Ok(None) | Ok(Some(Err(_))) => return Err(End::Quiet),
                Ok(Some(Ok(m))) => m,
            };
            match msg {
                Message::Text(t) => return Ok(parse::<Hello>(t.as_bytes())?),
                Message::Binary(_) => return Err(ApiError::new(Code::BadRequest, "messages are json text").into()),
                Message::Close(_) => return Err(End::Quiet),
                _ => {}
            }
        }
    }

    async fn serve(&mut self) -> End {
        match self.session().await {
            Ok(()) => End::Quiet,
            Err(e) => e,
        }
    }

    async fn session(&mut self) -> Result<(), End> {
        let hello = self.hello().await?;
        if hello.kind.as_deref().is_some_and(|k| k != "hello") {
            return Err(ApiError::new(Code::BadRequest, "the first message is the hello").into());
        }
        let seat = match &hello.token {
            None => None,
            Some(t) => Some(self.slot.meta.seat_of(t).ok_or_else(ApiError::bad_token)?),
        };
        let mut next = usize::try_from(hello.since.unwrap_or(0)).unwrap_or(usize::MAX);
        let status = self.slot.live.lock().await.status();
        if status == "unsupported_rules" {
            return Err(crate::app::unsupported().into());
        }
        let mut changes = self.slot.changed.subscribe();
        self.send(&json!({"type": "welcome", "game_id": self.slot.meta.id, "seat": seat, "status": status})).await?;
        let mut last = None;
        self.update(seat, &mut next, &mut last, true).await?;
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        let mut heard = Instant::now();
        let mut bucket = Bucket::full(WS_BURST);
        loop {
            tokio::select! {
                changed = changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    self.update(seat, &mut next, &mut last, false).await?;
                }
                msg = self.socket.recv() => {
                    heard = Instant::now();
                    match msg {
                        None | Some(Ok(Message::Close(_))) => return Ok(()),
                        Some(Err(e)) => {
                            let text = e.to_string();
                            if text.contains("too long") || text.contains("Space limit") || text.contains("size") {
                                return Err(ApiError::new(Code::MessageTooLarge, "message over 16 KiB").into());
                            }
                            return Ok(());
                        }
                        Some(Ok(Message::Text(t))) => {
                            if bucket.take(WS_RATE, WS_BURST).is_err() {
                                return Err(ApiError::new(Code::RateLimited, "too many messages on this connection").into());
                            }
                            self.client_message(seat, t.as_bytes()).await?;
                        }
                        Some(Ok(Message::Binary(_))) => {
                            let e = ApiError::new(Code::BadRequest, "messages are json text");
                            self.send(&error_message(&e, None)).await?;
                        }
                        Some(Ok(_)) => {}
                    }
                }
                _ = ping.tick() => {
                    if heard.elapsed() > SILENCE {
                        return Ok(());
                    }
                    self.socket.send(Message::Ping(Vec::new().into())).await.map_err(|_| End::Quiet)?;
                }
            }
        }
    }

    /// Sends the seat's new events and the position of play when anything changed since the
    /// last message (always when `force`). The message is built once per position, seat and
    /// first event and shared by every connection that needs it; it is serialized and sent
    /// without the game's lock.
    async fn update(&mut self, seat: Option<i32>, next: &mut usize, last: &mut Option<Position>, force: bool) -> Result<(), End> {
        let since = *next;
        let (at, update) = {
            let live = self.slot.live.lock().await;
            if !live.supported() {
                return Err(crate::app::unsupported().into());
            }
            let at: Position = (live.step, live.thinking, live.finished);
            match self.slot.update(at, seat, since) {
                Some(u) => (at, Ok(u)),
                None => (at, Err(events_message(&live, seat, since))),
            }
        };
        let update = match update {
            Ok(u) => u,
            Err(msg) => {
                let events_total = msg["events_total"].as_u64().unwrap_or(0) as usize;
                let fresh = events_total > since;
                let u = Arc::new(Update { text: msg.to_string().into(), events_total, fresh });
                self.slot.keep_update(at, seat, since, u.clone());
                u
            }
        };
        if !force && !update.fresh && *last == Some(at) {
            return Ok(());
        }
        *last = Some(at);
        *next = update.events_total;
        self.socket.send(Message::Text(update.text.clone())).await.map_err(|_| End::Quiet)
    }

    async fn client_message(&mut self, seat: Option<i32>, text: &[u8]) -> Result<(), End> {
        let m: ClientMessage = match parse(text) {
            Ok(m) => m,
            Err(e) => return self.send(&error_message(&e, None)).await,
        };
        let reference = m.reference.clone();
        let answer = match (m.kind.as_str(), seat) {
            ("ping", _) => Ok(json!({"type": "pong"})),
            ("move" | "resign", None) => Err(ApiError::bad_token()),
            ("move", Some(seat)) => match (m.action, m.step) {
                (Some(action), Some(step)) => self.app.play(&self.slot, seat, action, step).await,
                _ => Err(ApiError::new(Code::BadRequest, "a move has an action and a step")),
            },
            ("resign", Some(seat)) => self.app.resign(&self.slot, seat).await,
            (other, _) => Err(ApiError::new(Code::BadRequest, format!("unknown message type {other:?}"))),
        };
        let out = match answer {
            Ok(v) if v["type"] == "pong" => v,
            Ok(v) => json!({"type": "ack", "ref": reference, "step": v.get("step").cloned().unwrap_or(Value::Null)}),
            Err(e) => error_message(&e, Some(&reference)),
        };
        self.send(&out).await
    }
}

/// The stream's `events` message for `seat` (None: a spectator) from event `since`.
fn events_message(live: &Live, seat: Option<i32>, since: usize) -> Value {
    let mut msg = live.seat_message(seat, since);
    let player = seat.unwrap_or(kassen_core::SPECTATOR);
    let view = live.state.as_ref().and_then(|s| s.view(player).ok()).unwrap_or(Value::Null);
    msg["type"] = json!("events");
    msg["last_move"] = live.last_move(&view);
    if seat.is_some() && live.to_act() == seat {
        msg["legal"] = json!(live.legal(seat));
    }
    msg
}
