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
use crate::frames::{self, Frame, Position, Update};
use crate::hub::Slot;
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
        let mut frames = self.slot.frames.subscribe();
        let mut progress = self.slot.progress.subscribe();
        self.send(&json!({"type": "welcome", "game_id": self.slot.meta.id, "seat": seat, "status": status})).await?;
        let mut last = None;
        let first = frames.borrow_and_update().clone();
        match first {
            Some(f) if f.of(seat).events_from == next => self.deliver(&f, seat, &mut next, &mut last).await?,
            _ => self.own_message(seat, &mut next, &mut last, true).await?,
        }
        progress.mark_changed();
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        let mut heard = Instant::now();
        let mut bucket = Bucket::full(WS_BURST);
        loop {
            tokio::select! {
                changed = frames.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let frame = frames.borrow_and_update().clone();
                    if let Some(f) = frame {
                        self.deliver(&f, seat, &mut next, &mut last).await?;
                    }
                }
                changed = progress.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let text = progress.borrow_and_update().clone();
                    if let Some(t) = text {
                        self.socket.send(Message::Text(t)).await.map_err(|_| End::Quiet)?;
                    }
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

    /// Sends the seat's message of a newly built frame: the shared bytes when the message starts
    /// at the client's next event, nothing when the client has this position already, else a
    /// message of its own.
    async fn deliver(&mut self, frame: &Frame, seat: Option<i32>, next: &mut usize, last: &mut Option<Position>) -> Result<(), End> {
        let update = frame.of(seat);
        if update.events_from == *next {
            let send = update.fresh() || *last != Some(frame.at);
            *last = Some(frame.at);
            *next = update.events_total;
            if send {
                self.socket.send(Message::Text(update.text.clone())).await.map_err(|_| End::Quiet)?;
            }
            return Ok(());
        }
        if update.events_total == *next && *last == Some(frame.at) {
            return Ok(());
        }
        self.own_message(seat, next, last, false).await
    }

    /// Sends the seat's new events from the client's next one and the position of play, when
    /// anything changed since the last message (always when `force`): built for this
    /// connection alone (at its start, or when it missed a frame) from a copy of the game, on
    /// the blocking pool.
    async fn own_message(&mut self, seat: Option<i32>, next: &mut usize, last: &mut Option<Position>, force: bool) -> Result<(), End> {
        let since = *next;
        let copy = {
            let live = self.slot.live.lock().await;
            if !live.supported() {
                return Err(crate::app::unsupported().into());
            }
            live.clone()
        };
        let at = copy.position();
        let built = frames::on_builder(move || frames::message(&copy, seat, since)).await;
        let update: Update = built.ok_or_else(|| End::Error(ApiError::storage("the message failed")))?;
        if !force && !update.fresh() && *last == Some(at) {
            return Ok(());
        }
        *last = Some(at);
        *next = update.events_total;
        self.socket.send(Message::Text(update.text)).await.map_err(|_| End::Quiet)
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
