//! `kassen_status`: the C face of the core's one table of stable error numbers.

use std::ffi::c_char;

use kassen_core::ErrorCode;

/// The result of every fallible kassen function.
///
/// The numbers are stable and identical to the core's `ErrorCode` and to `exc.code` of the
/// Python exceptions: 0 is success; 1-99 are calling errors at this boundary; 100s are
/// setup errors (game id, config); 200s are rule errors (a rejected action, a bad player);
/// 300s are load errors (saved states, position documents). After any status other than `KASSEN_STATUS_OK`,
/// `kassen_last_error_message()` describes the failure.
///
/// The C type is a fixed-size `int32_t`; compare it against the named constants.
#[allow(non_camel_case_types)]
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum kassen_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = 2,
    /// A caller buffer was too small; the required length was written to the length output.
    BufferTooSmall = 3,
    /// kassen panicked (a bug in kassen); the message says where. Handles passed to the
    /// failed call remain valid and unchanged.
    Panic = 4,
    /// An argument was malformed in some other way (e.g. a misaligned pointer).
    InvalidArgument = 5,
    /// A saved state or handle belongs to another game than the one expected.
    WrongGame = 6,
    /// Memory for the request could not be allocated; nothing changed. (Sizes above a
    /// documented bound are `KASSEN_STATUS_CONFIG_OUT_OF_RANGE`, before any allocation.)
    OutOfMemory = 7,
    /// The system refused to start a thread the request needs (its limit of threads, or of
    /// memory for their stacks); nothing changed. A resource error like
    /// `KASSEN_STATUS_OUT_OF_MEMORY`, never a bug report.
    ThreadsUnavailable = 8,
    /// No game with this id is registered.
    UnknownGame = 100,
    /// The config is not a valid JSON object for this game.
    InvalidConfig = 101,
    /// A config value is out of its allowed range.
    ConfigOutOfRange = 102,
    /// The config has a key this game does not know.
    UnknownConfigKey = 103,
    /// The action is not legal in this state; the state is unchanged.
    IllegalAction = 200,
    /// The action id is not below the game's number of distinct actions; the state is
    /// unchanged.
    ActionOutOfRange = 201,
    /// The player is not the one to act; the state is unchanged.
    NotYourTurn = 202,
    /// The game is over; the state is unchanged.
    GameOver = 203,
    /// The state is not a chance node.
    NotChanceNode = 204,
    /// The player id is neither a seat of this game nor the spectator (-1).
    InvalidPlayer = 205,
    /// A move given as text (`kassen_state_parse_move`) names no legal move, or more than
    /// one; the message names the problem and the legal moves; the state is unchanged.
    UnreadableMove = 206,
    /// The text is not well-formed JSON.
    MalformedJson = 300,
    /// The saved state has an unknown `format`.
    UnsupportedFormat = 301,
    /// The saved state names a game that is not registered.
    LoadUnknownGame = 302,
    /// The saved state was written by another rules version.
    RulesVersionMismatch = 303,
    /// The saved state is inconsistent (its action log does not replay, or its snapshot
    /// differs from the replay).
    InvalidState = 304,
    /// The component data of a game is invalid (a bug in kassen's data files).
    InvalidData = 305,
    /// A constructed position does not match its game's schema or breaks a bound or an
    /// invariant of the rules; the message names the field and the rule.
    InvalidPosition = 306,
    /// The operation needs what a constructed position leaves out: a determinization (and so
    /// a search bot's move) of a state that started at a position whose hidden parts the game
    /// cannot sample. The state is unchanged.
    PositionNotSupported = 307,
    /// A document (a saved state, a position) is longer than 16 MiB, or holds a longer array
    /// or more values than its game can hold; refused before it is parsed. Nothing changed.
    DocumentTooLarge = 308,
}

impl kassen_status {
    /// Every status, in numeric order. (A function, not an associated const: cbindgen
    /// would export the const to the header.)
    pub fn all() -> [kassen_status; 29] {
        [
            kassen_status::Ok,
            kassen_status::NullPointer,
            kassen_status::InvalidUtf8,
            kassen_status::BufferTooSmall,
            kassen_status::Panic,
            kassen_status::InvalidArgument,
            kassen_status::WrongGame,
            kassen_status::OutOfMemory,
            kassen_status::ThreadsUnavailable,
            kassen_status::UnknownGame,
            kassen_status::InvalidConfig,
            kassen_status::ConfigOutOfRange,
            kassen_status::UnknownConfigKey,
            kassen_status::IllegalAction,
            kassen_status::ActionOutOfRange,
            kassen_status::NotYourTurn,
            kassen_status::GameOver,
            kassen_status::NotChanceNode,
            kassen_status::InvalidPlayer,
            kassen_status::UnreadableMove,
            kassen_status::MalformedJson,
            kassen_status::UnsupportedFormat,
            kassen_status::LoadUnknownGame,
            kassen_status::RulesVersionMismatch,
            kassen_status::InvalidState,
            kassen_status::InvalidData,
            kassen_status::InvalidPosition,
            kassen_status::PositionNotSupported,
            kassen_status::DocumentTooLarge,
        ]
    }

    /// The core code with the same number. Exhaustive: a new status must name its code.
    pub fn code(self) -> ErrorCode {
        use kassen_status as S;
        match self {
            S::Ok => ErrorCode::Ok,
            S::NullPointer => ErrorCode::NullPointer,
            S::InvalidUtf8 => ErrorCode::InvalidUtf8,
            S::BufferTooSmall => ErrorCode::BufferTooSmall,
            S::Panic => ErrorCode::Panic,
            S::InvalidArgument => ErrorCode::InvalidArgument,
            S::WrongGame => ErrorCode::WrongGame,
            S::OutOfMemory => ErrorCode::OutOfMemory,
            S::ThreadsUnavailable => ErrorCode::ThreadsUnavailable,
            S::UnknownGame => ErrorCode::UnknownGame,
            S::InvalidConfig => ErrorCode::InvalidConfig,
            S::ConfigOutOfRange => ErrorCode::ConfigOutOfRange,
            S::UnknownConfigKey => ErrorCode::UnknownConfigKey,
            S::IllegalAction => ErrorCode::IllegalAction,
            S::ActionOutOfRange => ErrorCode::ActionOutOfRange,
            S::NotYourTurn => ErrorCode::NotYourTurn,
            S::GameOver => ErrorCode::GameOver,
            S::NotChanceNode => ErrorCode::NotChanceNode,
            S::InvalidPlayer => ErrorCode::InvalidPlayer,
            S::UnreadableMove => ErrorCode::UnreadableMove,
            S::MalformedJson => ErrorCode::MalformedJson,
            S::UnsupportedFormat => ErrorCode::UnsupportedFormat,
            S::LoadUnknownGame => ErrorCode::LoadUnknownGame,
            S::RulesVersionMismatch => ErrorCode::RulesVersionMismatch,
            S::InvalidState => ErrorCode::InvalidState,
            S::InvalidData => ErrorCode::InvalidData,
            S::InvalidPosition => ErrorCode::InvalidPosition,
            S::PositionNotSupported => ErrorCode::PositionNotSupported,
            S::DocumentTooLarge => ErrorCode::DocumentTooLarge,
        }
    }

    /// The status with the same number as the core code. Exhaustive: a new core code
    /// does not compile here until it has a status.
    pub fn from_code(code: ErrorCode) -> kassen_status {
        use kassen_status as S;
        match code {
            ErrorCode::Ok => S::Ok,
            ErrorCode::NullPointer => S::NullPointer,
            ErrorCode::InvalidUtf8 => S::InvalidUtf8,
            ErrorCode::BufferTooSmall => S::BufferTooSmall,
            ErrorCode::Panic => S::Panic,
            ErrorCode::InvalidArgument => S::InvalidArgument,
            ErrorCode::WrongGame => S::WrongGame,
            ErrorCode::OutOfMemory => S::OutOfMemory,
            ErrorCode::ThreadsUnavailable => S::ThreadsUnavailable,
            ErrorCode::UnknownGame => S::UnknownGame,
            ErrorCode::InvalidConfig => S::InvalidConfig,
            ErrorCode::ConfigOutOfRange => S::ConfigOutOfRange,
            ErrorCode::UnknownConfigKey => S::UnknownConfigKey,
            ErrorCode::IllegalAction => S::IllegalAction,
            ErrorCode::ActionOutOfRange => S::ActionOutOfRange,
            ErrorCode::NotYourTurn => S::NotYourTurn,
            ErrorCode::GameOver => S::GameOver,
            ErrorCode::NotChanceNode => S::NotChanceNode,
            ErrorCode::InvalidPlayer => S::InvalidPlayer,
            ErrorCode::UnreadableMove => S::UnreadableMove,
            ErrorCode::MalformedJson => S::MalformedJson,
            ErrorCode::UnsupportedFormat => S::UnsupportedFormat,
            ErrorCode::LoadUnknownGame => S::LoadUnknownGame,
            ErrorCode::RulesVersionMismatch => S::RulesVersionMismatch,
            ErrorCode::InvalidState => S::InvalidState,
            ErrorCode::InvalidData => S::InvalidData,
            ErrorCode::InvalidPosition => S::InvalidPosition,
            ErrorCode::PositionNotSupported => S::PositionNotSupported,
            ErrorCode::DocumentTooLarge => S::DocumentTooLarge,
        }
    }

    /// The status with this number, if there is one.
    pub fn from_i32(n: i32) -> Option<kassen_status> {
        kassen_status::all().iter().copied().find(|s| *s as i32 == n)
    }

    /// The C constant's name, NUL-terminated.
    fn name_c(self) -> &'static str {
        use kassen_status as S;
        match self {
            S::Ok => "KASSEN_STATUS_OK\0",
            S::NullPointer => "KASSEN_STATUS_NULL_POINTER\0",
            S::InvalidUtf8 => "KASSEN_STATUS_INVALID_UTF8\0",
            S::BufferTooSmall => "KASSEN_STATUS_BUFFER_TOO_SMALL\0",
            S::Panic => "KASSEN_STATUS_PANIC\0",
            S::InvalidArgument => "KASSEN_STATUS_INVALID_ARGUMENT\0",
            S::WrongGame => "KASSEN_STATUS_WRONG_GAME\0",
            S::OutOfMemory => "KASSEN_STATUS_OUT_OF_MEMORY\0",
            S::ThreadsUnavailable => "KASSEN_STATUS_THREADS_UNAVAILABLE\0",
            S::UnknownGame => "KASSEN_STATUS_UNKNOWN_GAME\0",
            S::InvalidConfig => "KASSEN_STATUS_INVALID_CONFIG\0",
            S::ConfigOutOfRange => "KASSEN_STATUS_CONFIG_OUT_OF_RANGE\0",
            S::UnknownConfigKey => "KASSEN_STATUS_UNKNOWN_CONFIG_KEY\0",
            S::IllegalAction => "KASSEN_STATUS_ILLEGAL_ACTION\0",
            S::ActionOutOfRange => "KASSEN_STATUS_ACTION_OUT_OF_RANGE\0",
            S::NotYourTurn => "KASSEN_STATUS_NOT_YOUR_TURN\0",
            S::GameOver => "KASSEN_STATUS_GAME_OVER\0",
            S::NotChanceNode => "KASSEN_STATUS_NOT_CHANCE_NODE\0",
            S::InvalidPlayer => "KASSEN_STATUS_INVALID_PLAYER\0",
            S::UnreadableMove => "KASSEN_STATUS_UNREADABLE_MOVE\0",
            S::MalformedJson => "KASSEN_STATUS_MALFORMED_JSON\0",
            S::UnsupportedFormat => "KASSEN_STATUS_UNSUPPORTED_FORMAT\0",
            S::LoadUnknownGame => "KASSEN_STATUS_LOAD_UNKNOWN_GAME\0",
            S::RulesVersionMismatch => "KASSEN_STATUS_RULES_VERSION_MISMATCH\0",
            S::InvalidState => "KASSEN_STATUS_INVALID_STATE\0",
            S::InvalidData => "KASSEN_STATUS_INVALID_DATA\0",
            S::InvalidPosition => "KASSEN_STATUS_INVALID_POSITION\0",
            S::PositionNotSupported => "KASSEN_STATUS_POSITION_NOT_SUPPORTED\0",
            S::DocumentTooLarge => "KASSEN_STATUS_DOCUMENT_TOO_LARGE\0",
        }
    }

    /// The C constant's name, e.g. `"KASSEN_STATUS_ILLEGAL_ACTION"`.
    pub fn name(self) -> &'static str {
        let s = self.name_c();
        &s[..s.len() - 1]
    }
}

impl From<ErrorCode> for kassen_status {
    fn from(code: ErrorCode) -> Self {
        kassen_status::from_code(code)
    }
}

/// The name of a status constant, e.g. `"KASSEN_STATUS_ILLEGAL_ACTION"` for 200.
///
/// Accepts any integer (so a value read from elsewhere is safe to pass); a number that is
/// not a status gives `"KASSEN_STATUS_UNKNOWN"`. The returned string is static: never NULL,
/// never freed by the caller. This function cannot fail.
#[no_mangle]
pub extern "C" fn kassen_status_name(status: i32) -> *const c_char {
    let name = match kassen_status::from_i32(status) {
        Some(s) => s.name_c(),
        None => "KASSEN_STATUS_UNKNOWN\0",
    };
    name.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn every_core_code_maps_to_the_status_with_the_same_number() {
        for code in ErrorCode::ALL {
            let s = kassen_status::from(code);
            assert_eq!(s as i32, code.as_i32(), "{code:?}");
            assert_eq!(s.code(), code, "{code:?} does not round-trip");
        }
    }

    #[test]
    fn every_status_maps_to_the_core_code_with_the_same_number() {
        for s in kassen_status::all() {
            assert_eq!(s.code().as_i32(), s as i32, "{s:?}");
            assert_eq!(kassen_status::from_code(s.code()), s);
        }
        // One status per code, none extra, all distinct.
        assert_eq!(kassen_status::all().len(), ErrorCode::ALL.len());
        let mut nums: Vec<i32> = kassen_status::all().iter().map(|s| *s as i32).collect();
        nums.sort();
        nums.dedup();
        assert_eq!(nums.len(), kassen_status::all().len());
    }

    #[test]
    fn names_match_the_c_constants() {
        for s in kassen_status::all() {
            let c = unsafe { CStr::from_ptr(kassen_status_name(s as i32)) }.to_str().unwrap();
            assert_eq!(c, s.name());
            assert!(c.starts_with("KASSEN_STATUS_"));
            // Derived from the variant name the way cbindgen derives the C constant.
            let mut expected = String::new();
            for (i, ch) in format!("{s:?}").chars().enumerate() {
                if ch.is_ascii_uppercase() && i > 0 {
                    expected.push('_');
                }
                expected.push(ch.to_ascii_uppercase());
            }
            assert_eq!(c, format!("KASSEN_STATUS_{expected}"));
        }
        let unknown = unsafe { CStr::from_ptr(kassen_status_name(-7)) }.to_str().unwrap();
        assert_eq!(unknown, "KASSEN_STATUS_UNKNOWN");
        assert_eq!(kassen_status::from_i32(99), None);
    }
}
