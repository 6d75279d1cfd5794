//! The HTTP routes of docs/server.md section 3.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::extract::{query_number, query_value, JsonBody, Token};
use crate::app::{unsupported, App};
use crate::error::{ApiError, Code};
use crate::game::{self, Live};
use crate::hub::Slot;
use crate::settings::MAX_MY_GAMES;
use crate::store::{GameRow, SeatRow};
use crate::tokens;

type AppState = State<Arc<App>>;

pub async fn healthz(State(app): AppState) -> Json<Value> {
    Json(json!({"ok": true, "version": kassen_core::VERSION, "database": app.store.kind(), "bots": app.bots.figures()}))
}

pub async fn catalog(State(app): AppState) -> Json<Value> {
    Json(app.catalog.clone())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    game: String,
    #[serde(default)]
    config: Option<Value>,
    #[serde(default)]
    seed: Option<u64>,
    seats: Vec<String>,
}

pub async fn create(
    State(app): AppState,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<Response, ApiError> {
    app.limits.create(addr.ip())?;
    if req.seats.len() > 16 {
        return Err(ApiError::new(Code::BadSeats, "too many seats"));
    }
    let config = req.config.unwrap_or_else(|| json!({}));
    let out = app.create(&req.game, config, req.seed, req.seats).await?;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// The summary of a stored row (games not in memory).
fn row_summary(app: &App, row: &GameRow, seats: &[SeatRow]) -> Value {
    let meta = game::meta_of(row, seats);
    let supported = app.rules_supported(row);
    let finished = row.status == "finished";
    json!({
        "game_id": row.id, "game": row.game, "game_name": meta.game_name, "config": meta.config,
        "rules_version": row.rules_version, "seats": meta.seats.iter().map(game::Seat::public).collect::<Vec<_>>(),
        "status": if !supported { "unsupported_rules" } else if finished { "finished" } else { "active" },
        "finished": finished, "to_act": row.to_act, "thinking": null, "thinking_progress": null, "step": row.step,
        "result": row.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
        "created_at": row.created_at, "updated_at": row.updated_at,
    })
}

pub async fn list(State(app): AppState, RawQuery(q): RawQuery) -> Result<Json<Value>, ApiError> {
    let status = match query_value(q.as_deref(), "status") {
        None => None,
        Some(s @ ("active" | "finished")) => Some(s),
        Some(_) => return Err(ApiError::new(Code::BadRequest, "status must be active or finished")),
    };
    let limit = query_number(q.as_deref(), "limit", 50, 100)?.max(1);
    let rows = app.store.list(status, limit as i64).await.map_err(ApiError::storage)?;
    let mut games = Vec::new();
    for row in rows {
        if let Some(slot) = app.hub.cached(&row.id) {
            games.push(slot.live.lock().await.summary());
        } else if let Some((row, seats)) = app.store.game(&row.id).await.map_err(ApiError::storage)? {
            games.push(row_summary(&app, &row, &seats));
        }
    }
    Ok(Json(json!({"games": games})))
}

pub async fn summary(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id).await?;
    let live = slot.live.lock().await;
    Ok(Json(live.summary()))
}

/// The token's seat (None without a token; 1004 for a wrong one).
fn seat_of(slot: &Slot, token: &Token) -> Result<Option<i32>, ApiError> {
    match &token.0 {
        None => Ok(None),
        Some(t) => slot.meta.seat_of(t).map(Some).ok_or_else(ApiError::bad_token),
    }
}

fn required_seat(slot: &Slot, token: &Token) -> Result<i32, ApiError> {
    seat_of(slot, token)?.ok_or_else(ApiError::bad_token)
}

/// A copy of the live game to read without its lock.
async fn copy(slot: &Slot) -> Result<Live, ApiError> {
    let live = slot.live.lock().await;
    if !live.supported() {
        return Err(unsupported());
    }
    Ok(live.clone())
}

pub async fn snapshot(State(_app): AppState, Path(id): Path<String>, token: Token, RawQuery(q): RawQuery) -> Result<Json<Value>, ApiError> {
    let slot = _app.slot(&id).await?;
    let seat = seat_of(&slot, &token)?;
    let since = query_number(q.as_deref(), "since", 0, u32::MAX as u64)? as usize;
    let live = copy(&slot).await?;
    let snap = tokio::task::spawn_blocking(move || game::snapshot(&live, seat, since))
        .await
        .map_err(|e| ApiError::storage(format!("snapshot: {e}")))?;
    Ok(Json(snap))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    action: i64,
    step: i64,
}

pub async fn play(
    State(app): AppState,
    Path(id): Path<String>,
    token: Token,
    JsonBody(m): JsonBody<Move>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id).await?;
    let seat = required_seat(&slot, &token)?;
    app.play(&slot, seat, m.action, m.step).await.map(Json)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

pub async fn resign(
    State(app): AppState,
    Path(id): Path<String>,
    token: Token,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id).await?;
    let seat = required_seat(&slot, &token)?;
    app.resign(&slot, seat).await.map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MySeat {
    game_id: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MyGames {
    seats: Vec<MySeat>,
}

pub async fn my_games(State(app): AppState, JsonBody(req): JsonBody<MyGames>) -> Result<Json<Value>, ApiError> {
    if req.seats.len() > MAX_MY_GAMES {
        return Err(ApiError::new(Code::BadRequest, format!("at most {MAX_MY_GAMES} seats per request")));
    }
    let mut out = Vec::new();
    for s in &req.seats {
        let bad = || json!({"game_id": s.game_id, "error": "unknown game or seat token", "code": Code::BadToken as i32});
        let valid_id = s.game_id.len() == 16 && s.game_id.bytes().all(|b| b.is_ascii_hexdigit());
        let found = if valid_id { app.store.game(&s.game_id).await.map_err(ApiError::storage)? } else { None };
        let Some((row, seats)) = found else {
            out.push(bad());
            continue;
        };
        let hashes: Vec<(i32, Option<[u8; 32]>)> =
            seats.iter().map(|x| (x.seat, x.token_hash.as_deref().and_then(tokens::parse_hash))).collect();
        let Some(seat) = tokens::find_seat(&s.token, hashes.iter().map(|(n, h)| (*n, h.as_ref()))) else {
            out.push(bad());
            continue;
        };
        let mut summary = row_summary(&app, &row, &seats);
        let active = summary["status"] == "active";
        let o = json!({
            "game_id": row.id, "seat": seat, "game": row.game, "game_name": summary["game_name"].take(),
            "status": summary["status"].take(), "finished": summary["finished"].take(), "to_act": row.to_act,
            "your_turn": active && row.to_act == Some(seat), "step": row.step, "result": summary["result"].take(),
            "updated_at": row.updated_at,
        });
        out.push(o);
    }
    Ok(Json(json!({"games": out})))
}

/// The record of a finished game.
pub async fn replay(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id).await?;
    let live = slot.live.lock().await;
    if !live.finished {
        return Err(ApiError::new(Code::NotFinished, "the replay is shown once the game is finished"));
    }
    let moves = app.store.moves_from(&id, 0).await.map_err(ApiError::storage)?;
    let m = &slot.meta;
    let mut out = json!({
        "format": "kassen.server.record/1", "game_id": m.id, "game": m.game, "config": m.config, "seed": m.seed,
        "rules_version": m.rules_version, "seats": m.seats.iter().map(game::Seat::public).collect::<Vec<_>>(),
        "moves": moves.iter().map(|x| json!({"step": x.step, "seat": x.seat, "action": x.action, "at": x.at})).collect::<Vec<_>>(),
        "result": live.result, "created_at": m.created_at, "updated_at": live.updated_at,
    });
    if let Some(state) = &live.state {
        out["save"] = state.to_json();
    }
    Ok(Json(out))
}

pub async fn replay_html(State(app): AppState, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let live = copy(&slot).await?;
    if !live.finished {
        return Err(ApiError::new(Code::NotFinished, "the replay is shown once the game is finished"));
    }
    let html = tokio::task::spawn_blocking(move || App::replay_html(&live))
        .await
        .ok()
        .flatten()
        .ok_or_else(|| ApiError::storage("the replay could not be drawn"))?;
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}
