//! The text face for language-model agents (docs/text.md): a seat's text observation, moves
//! read from free text and the rules primer of a game.

use std::ffi::c_char;

use crate::boundary::{arg_ref, arg_str, arg_str_n, ffi_boundary, Out};
use crate::buf::{give, kassen_buf, out_buf};
use crate::game::kassen_game;
use crate::state::kassen_state;
use crate::status::kassen_status;

/// What `player` (a seat, or -1 for the spectator) knows of the state as one UTF-8 text for
/// a language-model agent: the game and seat, what is being decided, the board and the
/// seat's own holdings, its events since its last decision as sentences and, where it is to
/// act, its legal moves as a numbered list of their move strings. It never contains
/// information hidden from that player.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_text_observation(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let text = state.inner.text_observation(player)?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// Writes to `*out` the legal action of `player` that the NUL-terminated UTF-8 `text` means:
/// a move string of `kassen_state_text_observation`, its number in the list, or a JSON action
/// (`{"id": n}` or fields of the action's JSON), in any case, quoted, in a code fence or
/// inside a sentence, as long as exactly one legal move is meant. The state is never changed.
///
/// Returns `KASSEN_STATUS_UNREADABLE_MOVE` when the text names no legal move or several (the
/// message of `kassen_last_error_message` names the problem and the legal moves),
/// `KASSEN_STATUS_NOT_YOUR_TURN`, `KASSEN_STATUS_GAME_OVER`, `KASSEN_STATUS_INVALID_PLAYER`,
/// `KASSEN_STATUS_INVALID_UTF8` or `KASSEN_STATUS_NULL_POINTER`; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_parse_move(
    state: *const kassen_state,
    player: i32,
    text: *const c_char,
    out: *mut u32,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let text = unsafe { arg_str(text, "text") }?;
        let out = Out::new(out, "out")?;
        let a = state.inner.parse_move(player, text)?;
        unsafe { out.write(a) };
        Ok(())
    }
}

/// `kassen_state_parse_move` with the text given as (pointer, length in bytes) of UTF-8,
/// without a NUL terminator. A NUL byte inside is rejected with
/// `KASSEN_STATUS_INVALID_ARGUMENT`.
///
/// Returns the statuses of `kassen_state_parse_move` (`KASSEN_STATUS_NULL_POINTER` also when
/// `text` is NULL with a non-zero length); on failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_parse_move_n(
    state: *const kassen_state,
    player: i32,
    text: *const u8,
    len: usize,
    out: *mut u32,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or pointers valid for the given length.
        let state = unsafe { arg_ref(state, "state") }?;
        let text = unsafe { arg_str_n(text, len, "text") }?;
        let out = Out::new(out, "out")?;
        let a = state.inner.parse_move(player, text)?;
        unsafe { out.write(a) };
        Ok(())
    }
}

/// A short primer on the rules of `game` for a language model's system prompt (UTF-8
/// markdown, at most about 2,000 words), condensed from the game's rules page.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_rules_primer(game: *const kassen_game, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a live game.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = out_buf(out)?;
        unsafe { give(out, game.inner.rules_primer().to_string()) };
        Ok(())
    }
}
