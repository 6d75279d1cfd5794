//! Request pieces read with the server's own coded errors: JSON bodies (type, size and depth
//! checked), the seat token of the `Authorization` header, query values.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, Code};
use crate::limits::check_depth;
use crate::settings::MAX_BODY;

/// A JSON body: `application/json`, at most [`MAX_BODY`] bytes, nested at most 32 levels.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let ct = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        if !ct.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("application/json") {
            return Err(ApiError::new(Code::MediaType, "the body must be json with content-type application/json"));
        }
        let bytes = axum::body::to_bytes(req.into_body(), MAX_BODY)
            .await
            .map_err(|_| ApiError::new(Code::TooLarge, format!("the body is over {MAX_BODY} bytes")))?;
        parse(&bytes).map(JsonBody)
    }
}

/// Parses JSON text with the depth check first.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    check_depth(bytes)?;
    serde_json::from_slice(bytes).map_err(|e| ApiError::new(Code::BadRequest, format!("malformed request: {e}")))
}

/// The bearer token of the `Authorization` header, if any.
pub struct Token(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Token {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(v) = parts.headers.get(AUTHORIZATION) else { return Ok(Token(None)) };
        let text = v.to_str().map_err(|_| ApiError::bad_token())?;
        match text.strip_prefix("Bearer ").or_else(|| text.strip_prefix("bearer ")) {
            Some(t) if !t.trim().is_empty() => Ok(Token(Some(t.trim().to_string()))),
            _ => Err(ApiError::bad_token()),
        }
    }
}

/// The value of `key` in a query string (no percent-decoding: the server's query values are
/// numbers and words).
pub fn query_value<'a>(query: Option<&'a str>, key: &str) -> Option<&'a str> {
    query?.split('&').find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
}

/// A query number within `max`, or 1000.
pub fn query_number(query: Option<&str>, key: &str, default: u64, max: u64) -> Result<u64, ApiError> {
    match query_value(query, key) {
        None => Ok(default),
        Some(v) => v
            .parse::<u64>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| ApiError::new(Code::BadRequest, format!("query value {key} must be a whole number up to {max}"))),
    }
}
