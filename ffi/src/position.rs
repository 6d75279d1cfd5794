//! Constructed positions: a game started at a given state instead of the initial one
//! (docs/positions.md).

use std::ffi::c_char;

use kassen_core::engine::StateHandle;

use crate::boundary::{arg_ref, arg_str, arg_str_n, ffi_boundary, Out};
use crate::buf::{give, kassen_buf, out_buf};
use crate::game::kassen_game;
use crate::state::kassen_state;
use crate::status::kassen_status;

/// Starts a game at the position of a position document (NUL-terminated UTF-8, format
/// `kassen-position-1`, see docs/positions.md), finding its game in the registry and setting
/// it up with the document's config. The position is checked against the game's schema and
/// every bound and invariant of its rules. The new state's history holds only the actions
/// applied after the position; it plays, saves (`kassen_state_to_json` records the position)
/// and draws like any other state.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_UTF8`,
/// `KASSEN_STATUS_MALFORMED_JSON`, `KASSEN_STATUS_UNSUPPORTED_FORMAT` (another `format`),
/// `KASSEN_STATUS_LOAD_UNKNOWN_GAME`, `KASSEN_STATUS_RULES_VERSION_MISMATCH`,
/// `KASSEN_STATUS_INVALID_POSITION` (an unknown field, a position that does not match the
/// game's schema, or one that breaks a rule: the message names the field and the rule),
/// `KASSEN_STATUS_INVALID_STATE` (a config that does not set up the game) or
/// `KASSEN_STATUS_DOCUMENT_TOO_LARGE` (text longer than 16 MiB, or an array or a count of
/// values longer than the named game's positions can hold: refused before it is parsed).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_from_position(json: *const c_char, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let text = unsafe { arg_str(json, "json") }?;
        let out = Out::new(out, "out")?;
        let state = StateHandle::from_position_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// `kassen_state_from_position` with the text given as (pointer, length in bytes) of UTF-8,
/// without a NUL terminator. A NUL byte inside is rejected with
/// `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written. Returns the statuses of
/// `kassen_state_from_position` (`KASSEN_STATUS_NULL_POINTER` when `out` is NULL or `json`
/// is NULL with a non-zero length) and `KASSEN_STATUS_INVALID_ARGUMENT` for a NUL inside.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_from_position_n(json: *const u8, len: usize, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or pointers valid for the given length.
        let text = unsafe { arg_str_n(json, len, "json") }?;
        let out = Out::new(out, "out")?;
        let state = StateHandle::from_position_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// `kassen_state_from_position` for this very game and config: a document of another game
/// fails with `KASSEN_STATUS_WRONG_GAME`, one with another config with
/// `KASSEN_STATUS_INVALID_POSITION`.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written. Returns the statuses of
/// `kassen_state_from_position` (`KASSEN_STATUS_NULL_POINTER` when `game`, `json` or `out` is
/// NULL) and `KASSEN_STATUS_WRONG_GAME`.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_load_position(
    game: *const kassen_game,
    json: *const c_char,
    out: *mut *mut kassen_state,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let text = unsafe { arg_str(json, "json") }?;
        let out = Out::new(out, "out")?;
        let state = game.inner.load_position_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// `kassen_game_load_position` with the text given as (pointer, length in bytes) of UTF-8,
/// without a NUL terminator. A NUL byte inside is rejected with
/// `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written. Returns the statuses of
/// `kassen_game_load_position` (`KASSEN_STATUS_NULL_POINTER` when `game` or `out` is NULL, or
/// `json` is NULL with a non-zero length) and `KASSEN_STATUS_INVALID_ARGUMENT` for a NUL
/// inside.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_load_position_n(
    game: *const kassen_game,
    json: *const u8,
    len: usize,
    out: *mut *mut kassen_state,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or pointers valid for the given length.
        let game = unsafe { arg_ref(game, "game") }?;
        let text = unsafe { arg_str_n(json, len, "json") }?;
        let out = Out::new(out, "out")?;
        let state = game.inner.load_position_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// Writes the current state as a position document (format `kassen-position-1`: game,
/// rules version, config, seed and the typed state without its history), which
/// `kassen_state_from_position` loads. Like a save it contains the hidden information of
/// every seat: do not show it to players.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_to_position_json(state: *const kassen_state, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        unsafe { give(out, state.inner.position_json()) };
        Ok(())
    }
}

/// Writes the current state as a position document written by name (format
/// `kassen-position-named-1`: places, pieces, cards and seats as the rulebook names them,
/// docs/positions.md), which `kassen_state_from_position` loads back to the same state. Like
/// a save it contains the hidden information of every seat: do not show it to players.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL, and
/// `KASSEN_STATUS_UNSUPPORTED_FORMAT` for a game without named positions (it writes
/// `kassen_state_to_position_json` documents only); on failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_to_named_position_json(state: *const kassen_state, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let text = state.inner.named_position_json()?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// Writes 1 to `*out` if the game of `state` started at a constructed position
/// (`kassen_state_from_position`, or a save of such a game), 0 if it started at the initial
/// state of its seed.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_started_at_position(state: *const kassen_state, out: *mut u8) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(u8::from(state.inner.started_at_position())) };
        Ok(())
    }
}
