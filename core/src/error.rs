//! Errors of every layer, and the one table of stable numeric codes.
//!
//! The numbers are part of the public contract: the C ABI returns them as
//! `kassen_status`, the Python exceptions carry them as `.code`. Never renumber;
//! only append. Ranges: 0 ok; 1-99 boundary (C/Python calling errors);
//! 100s setup; 200s rules; 300s load.

use thiserror::Error;

/// Stable numeric error codes shared by the core, the C ABI and Python.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    Ok = 0,
    // --- boundary (1-99): raised by the C and Python layers ---
    NullPointer = 1,
    InvalidUtf8 = 2,
    BufferTooSmall = 3,
    Panic = 4,
    InvalidArgument = 5,
    WrongGame = 6,
    /// Memory for a caller's request could not be allocated (an error, never an abort).
    OutOfMemory = 7,
    /// The system refused to start a thread the request needs (its limit of threads or of
    /// memory for their stacks): an error, never an abort.
    ThreadsUnavailable = 8,
    // --- setup (100s) ---
    UnknownGame = 100,
    InvalidConfig = 101,
    ConfigOutOfRange = 102,
    UnknownConfigKey = 103,
    // --- rules (200s) ---
    IllegalAction = 200,
    ActionOutOfRange = 201,
    NotYourTurn = 202,
    GameOver = 203,
    NotChanceNode = 204,
    InvalidPlayer = 205,
    /// A move given as text ([`crate::DynState::parse_move`]) names no legal move, or more
    /// than one.
    UnreadableMove = 206,
    // --- load (300s) ---
    MalformedJson = 300,
    UnsupportedFormat = 301,
    LoadUnknownGame = 302,
    RulesVersionMismatch = 303,
    InvalidState = 304,
    InvalidData = 305,
    /// A constructed position breaks a bound or an invariant of the rules (docs/positions.md).
    InvalidPosition = 306,
    /// An operation a state started from a constructed position cannot support (a
    /// determinization of a game that cannot sample the position's hidden parts).
    PositionNotSupported = 307,
    /// A document (a saved state, a position, a config) is longer, or holds a longer array or
    /// more values, than its game can hold (crate::input::Limits); refused before it is parsed.
    DocumentTooLarge = 308,
}

impl ErrorCode {
    /// The number used by every surface.
    pub fn as_i32(self) -> i32 {
        self as i32
    }

    /// Every code, in numeric order (for documentation and binding tables).
    pub const ALL: [ErrorCode; 29] = [
        ErrorCode::Ok,
        ErrorCode::NullPointer,
        ErrorCode::InvalidUtf8,
        ErrorCode::BufferTooSmall,
        ErrorCode::Panic,
        ErrorCode::InvalidArgument,
        ErrorCode::WrongGame,
        ErrorCode::OutOfMemory,
        ErrorCode::ThreadsUnavailable,
        ErrorCode::UnknownGame,
        ErrorCode::InvalidConfig,
        ErrorCode::ConfigOutOfRange,
        ErrorCode::UnknownConfigKey,
        ErrorCode::IllegalAction,
        ErrorCode::ActionOutOfRange,
        ErrorCode::NotYourTurn,
        ErrorCode::GameOver,
        ErrorCode::NotChanceNode,
        ErrorCode::InvalidPlayer,
        ErrorCode::UnreadableMove,
        ErrorCode::MalformedJson,
        ErrorCode::UnsupportedFormat,
        ErrorCode::LoadUnknownGame,
        ErrorCode::RulesVersionMismatch,
        ErrorCode::InvalidState,
        ErrorCode::InvalidData,
        ErrorCode::InvalidPosition,
        ErrorCode::PositionNotSupported,
        ErrorCode::DocumentTooLarge,
    ];
}

/// A game could not be created from the given id and configuration.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum SetupError {
    #[error("unknown game id {0:?}")]
    UnknownGame(String),
    #[error("invalid config: {0}")]
    InvalidConfig(String),
    #[error("config value out of range: {0}")]
    OutOfRange(String),
    #[error("unknown config key {0:?}")]
    UnknownKey(String),
    #[error("invalid component data: {0}")]
    InvalidData(String),
    #[error("out of memory: {0}")]
    OutOfMemory(String),
    #[error("no thread could be started: {0}")]
    ThreadsUnavailable(String),
}

impl SetupError {
    pub fn code(&self) -> ErrorCode {
        match self {
            SetupError::UnknownGame(_) => ErrorCode::UnknownGame,
            SetupError::InvalidConfig(_) => ErrorCode::InvalidConfig,
            SetupError::OutOfRange(_) => ErrorCode::ConfigOutOfRange,
            SetupError::UnknownKey(_) => ErrorCode::UnknownConfigKey,
            SetupError::InvalidData(_) => ErrorCode::InvalidData,
            SetupError::OutOfMemory(_) => ErrorCode::OutOfMemory,
            SetupError::ThreadsUnavailable(_) => ErrorCode::ThreadsUnavailable,
        }
    }
}

/// An action was rejected. The state it was applied to is unchanged.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum RuleError {
    #[error("action {action} is not legal here")]
    IllegalAction { action: u32 },
    #[error("action {action} is out of range (the game has {num_actions} distinct actions)")]
    ActionOutOfRange { action: u32, num_actions: u32 },
    #[error("it is not seat {player}'s turn (current player is {current})")]
    NotYourTurn { player: i32, current: i32 },
    #[error("the game is over")]
    GameOver,
    #[error("the state is not a chance node")]
    NotChanceNode,
    #[error("player {player} does not exist in this game ({num_players} seats)")]
    InvalidPlayer { player: i32, num_players: u32 },
    #[error("output buffer has {got} elements, {expected} are needed")]
    BadBuffer { expected: u32, got: u32 },
    /// The state started at a constructed position and the operation needs what the position
    /// leaves out (a determinization of a game that cannot sample a position's hidden parts).
    #[error("{0} is not supported on a state that started at a constructed position")]
    PositionNotSupported(&'static str),
    /// The text of a move ([`crate::DynState::parse_move`]) means no legal move or several.
    #[error("{0}")]
    UnreadableMove(String),
}

impl RuleError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RuleError::IllegalAction { .. } => ErrorCode::IllegalAction,
            RuleError::ActionOutOfRange { .. } => ErrorCode::ActionOutOfRange,
            RuleError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            RuleError::GameOver => ErrorCode::GameOver,
            RuleError::NotChanceNode => ErrorCode::NotChanceNode,
            RuleError::InvalidPlayer { .. } => ErrorCode::InvalidPlayer,
            RuleError::BadBuffer { .. } => ErrorCode::BufferTooSmall,
            RuleError::PositionNotSupported(_) => ErrorCode::PositionNotSupported,
            RuleError::UnreadableMove(_) => ErrorCode::UnreadableMove,
        }
    }
}

/// A serialized state (or component data file) could not be loaded.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum LoadError {
    #[error("malformed json: {0}")]
    MalformedJson(String),
    #[error("unsupported state format {found:?} (expected {expected:?})")]
    UnsupportedFormat { found: String, expected: String },
    #[error("unknown game id {0:?} in saved state")]
    UnknownGame(String),
    #[error("saved state is for game {found:?}, not {expected:?}")]
    WrongGame { found: String, expected: String },
    #[error("saved state has rules version {found:?}, this build has {expected:?}")]
    RulesVersion { found: String, expected: String },
    #[error("invalid state: {0}")]
    InvalidState(String),
    #[error("invalid config in saved state: {0}")]
    Setup(#[from] SetupError),
    /// A constructed position (docs/positions.md) that does not match its game's schema or
    /// breaks a bound or an invariant of the rules; the message names the field and the rule.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// A document longer, or holding a longer array or more values, than its game can hold.
    #[error("document too large: {0}")]
    TooLarge(String),
}

impl LoadError {
    pub fn code(&self) -> ErrorCode {
        match self {
            LoadError::MalformedJson(_) => ErrorCode::MalformedJson,
            LoadError::UnsupportedFormat { .. } => ErrorCode::UnsupportedFormat,
            LoadError::UnknownGame(_) => ErrorCode::LoadUnknownGame,
            LoadError::WrongGame { .. } => ErrorCode::WrongGame,
            LoadError::RulesVersion { .. } => ErrorCode::RulesVersionMismatch,
            LoadError::InvalidState(_) => ErrorCode::InvalidState,
            // A save whose config no longer sets up a game is an invalid save (a load error,
            // so `except LoadError` catches it); a bad component file keeps its own code.
            LoadError::Setup(SetupError::InvalidData(_)) => ErrorCode::InvalidData,
            LoadError::Setup(_) => ErrorCode::InvalidState,
            LoadError::InvalidPosition(_) => ErrorCode::InvalidPosition,
            LoadError::TooLarge(_) => ErrorCode::DocumentTooLarge,
        }
    }
}

/// The text of a caught panic payload, for the C and Python boundaries that turn panics into
/// `ErrorCode::Panic` errors.
pub fn describe_panic(payload: &(dyn std::any::Any + Send)) -> String {
    let what = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    };
    format!("internal error in the rules engine (a bug in kassen, please report it): {what}")
}

/// Any error of the core, for callers that handle all layers alike.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum Error {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Load(#[from] LoadError),
}

impl Error {
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Setup(e) => e.code(),
            Error::Rule(e) => e.code(),
            Error::Load(e) => e.code(),
        }
    }
}
