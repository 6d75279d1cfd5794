//! The router: the API, the live stream, the browser client, and the layers every request
//! passes (rate limit, timeout, headers).

mod api;
mod extract;
mod web;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::app::App;
use crate::error::{ApiError, Code};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/healthz", get(api::healthz))
        .route("/api/catalog", get(api::catalog))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/games/{id}", get(api::summary))
        .route("/api/games/{id}/snapshot", get(api::snapshot))
        .route("/api/games/{id}/moves", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/replay", get(api::replay))
        .route("/api/games/{id}/replay.html", get(api::replay_html))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/my-games", post(api::my_games))
        .route("/", get(web::lobby))
        .route("/g/{id}", get(web::game_page))
        .route("/web/{*path}", get(web::file))
        .fallback(|| async { ApiError::new(Code::NotFound, "no such route") })
        .method_not_allowed_fallback(|| async { ApiError::new(Code::MethodNotAllowed, "method not allowed") })
        .layer(middleware::from_fn(headers))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// The per-client rate limit and the request timeout.
async fn guard(State(app): State<Arc<App>>, ConnectInfo(addr): ConnectInfo<SocketAddr>, req: Request, next: Next) -> Response {
    if let Err(e) = app.limits.request(addr.ip()) {
        return e.into_response();
    }
    match tokio::time::timeout(Duration::from_millis(app.settings.request_timeout_ms), next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::new(Code::Timeout, "the request took too long").into_response(),
    }
}

/// Headers on every answer.
async fn headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if api {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    r
}
