//! Coded JSON errors (docs/server.md section 6): the engine's `ErrorCode` where the engine
//! refused, the server's own codes (1000 and up) otherwise.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use kassen_core::{ErrorCode, RuleError, SetupError};
use serde_json::{json, Map, Value};

/// The server's codes. Stable: never renumber, add at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Code {
    BadRequest = 1000,
    TooDeep = 1001,
    TooLarge = 1002,
    NotFound = 1003,
    BadToken = 1004,
    Origin = 1005,
    RateLimited = 1006,
    StaleStep = 1007,
    MethodNotAllowed = 1008,
    GamesCap = 1010,
    ConnectionsCap = 1011,
    UnsupportedRules = 1012,
    NotFinished = 1013,
    BadSeats = 1014,
    Timeout = 1015,
    Storage = 1016,
    MediaType = 1019,
    HelloTimeout = 1020,
    MessageTooLarge = 1021,
}

/// An error answer: HTTP status, code, message and optional extra fields.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: i32,
    pub message: String,
    pub extra: Map<String, Value>,
}

impl ApiError {
    pub fn new(code: Code, message: impl Into<String>) -> ApiError {
        let status = match code {
            Code::BadRequest | Code::TooDeep | Code::BadSeats => StatusCode::BAD_REQUEST,
            Code::TooLarge | Code::MessageTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::BadToken => StatusCode::UNAUTHORIZED,
            Code::Origin => StatusCode::FORBIDDEN,
            Code::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Code::StaleStep | Code::NotFinished => StatusCode::CONFLICT,
            Code::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Code::GamesCap | Code::ConnectionsCap | Code::Timeout => StatusCode::SERVICE_UNAVAILABLE,
            Code::UnsupportedRules => StatusCode::GONE,
            Code::Storage => StatusCode::INTERNAL_SERVER_ERROR,
            Code::MediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::HelloTimeout => StatusCode::REQUEST_TIMEOUT,
        };
        ApiError { status, code: code as i32, message: message.into(), extra: Map::new() }
    }

    /// An engine refusal with the engine's code.
    pub fn engine(code: ErrorCode, message: impl Into<String>) -> ApiError {
        let status = match code {
            ErrorCode::NotYourTurn | ErrorCode::GameOver => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError { status, code: code.as_i32(), message: message.into(), extra: Map::new() }
    }

    pub fn with(mut self, key: &str, value: Value) -> ApiError {
        self.extra.insert(key.into(), value);
        self
    }

    pub fn not_found() -> ApiError {
        ApiError::new(Code::NotFound, "no such game")
    }

    pub fn bad_token() -> ApiError {
        ApiError::new(Code::BadToken, "unknown game or seat token")
    }

    pub fn storage(e: impl std::fmt::Display) -> ApiError {
        eprintln!("kassen-server: {e}");
        ApiError::new(Code::Storage, "storage error: nothing was acknowledged; retry with the same step")
    }

    /// The JSON body: `{"error", "code", ...extra}`.
    pub fn body(&self) -> Value {
        let mut m = self.extra.clone();
        m.insert("error".into(), json!(self.message));
        m.insert("code".into(), json!(self.code));
        Value::Object(m)
    }
}

impl From<RuleError> for ApiError {
    fn from(e: RuleError) -> Self {
        ApiError::engine(e.code(), e.to_string())
    }
}

impl From<SetupError> for ApiError {
    fn from(e: SetupError) -> Self {
        ApiError::engine(e.code(), e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
