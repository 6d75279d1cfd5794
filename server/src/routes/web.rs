//! The browser client: `/` is web/lobby.html, `/g/<id>` web/game.html, `/web/<path>` the
//! folder's other files. Only plain relative names under the folder are served.

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::app::App;
use crate::error::{ApiError, Code};

fn content_type(path: &FsPath) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn missing() -> ApiError {
    ApiError::new(Code::NotFound, "no such page")
}

async fn serve(root: Option<&PathBuf>, rel: &str) -> Result<Response, ApiError> {
    let root = root.ok_or_else(missing)?;
    let clean = !rel.is_empty()
        && rel
            .split('/')
            .all(|seg| !seg.is_empty() && !seg.starts_with('.') && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)));
    if !clean {
        return Err(missing());
    }
    let path = root.join(rel);
    let bytes = tokio::fs::read(&path).await.map_err(|_| missing())?;
    Ok(([(header::CONTENT_TYPE, content_type(&path)), (header::CACHE_CONTROL, "no-cache")], bytes).into_response())
}

pub async fn lobby(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    serve(app.settings.web.as_ref(), "lobby.html").await
}

pub async fn game_page(State(app): State<Arc<App>>, Path(_id): Path<String>) -> Result<Response, ApiError> {
    serve(app.settings.web.as_ref(), "game.html").await
}

pub async fn file(State(app): State<Arc<App>>, Path(rel): Path<String>) -> Result<Response, ApiError> {
    serve(app.settings.web.as_ref(), &rel).await
}
