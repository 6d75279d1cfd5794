//! SVG boards and view envelopes over the C ABI.

use std::ffi::c_char;

use kassen_core::render::RenderError;

use crate::boundary::{arg_ref, arg_str, arg_str_n, ffi_boundary, Failure};
use crate::buf::{give, kassen_buf, out_buf};
use crate::game::kassen_game;
use crate::state::kassen_state;
use crate::status::kassen_status;

impl From<RenderError> for Failure {
    fn from(e: RenderError) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

/// The board as `player` sees it, as an SVG document (UTF-8 text): `player` is a seat, or -1
/// for the spectator. It is drawn from that player's view alone, so it never shows
/// information hidden from that player.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free` (do not call free()). On failure `*out` is not written:
/// `KASSEN_STATUS_NULL_POINTER` or `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_render_svg(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let svg = state.inner.render_svg(player)?;
        unsafe { give(out, svg) };
        Ok(())
    }
}

/// Draws a view of this game (JSON text, as `kassen_state_view_json` writes it) as an SVG
/// document.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`,
/// `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_MALFORMED_JSON`, `KASSEN_STATUS_WRONG_GAME`
/// (a view of another game) or `KASSEN_STATUS_INVALID_ARGUMENT` (not a view).
#[no_mangle]
pub unsafe extern "C" fn kassen_game_render_view_svg(
    game: *const kassen_game,
    view_json: *const c_char,
    out: *mut kassen_buf,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let text = unsafe { arg_str(view_json, "view_json") }?;
        let out = out_buf(out)?;
        let svg = render_view(game, text)?;
        unsafe { give(out, svg) };
        Ok(())
    }
}

/// `kassen_game_render_view_svg` with `view_json` given as (pointer, length in bytes) of
/// UTF-8, without a NUL terminator: for bindings whose strings carry their length. A NUL byte
/// inside the string is rejected with `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written; the statuses are those of
/// `kassen_game_render_view_svg` (`KASSEN_STATUS_INVALID_ARGUMENT` also for a NUL byte
/// inside the string, `KASSEN_STATUS_NULL_POINTER` also for a NULL `view_json` with a
/// non-zero length).
#[no_mangle]
pub unsafe extern "C" fn kassen_game_render_view_svg_n(
    game: *const kassen_game,
    view_json: *const u8,
    view_len: usize,
    out: *mut kassen_buf,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers (`view_json` for `view_len` bytes).
        let game = unsafe { arg_ref(game, "game") }?;
        let text = unsafe { arg_str_n(view_json, view_len, "view_json") }?;
        let out = out_buf(out)?;
        let svg = render_view(game, text)?;
        unsafe { give(out, svg) };
        Ok(())
    }
}

/// The SVG of `kassen_game_render_view_svg` and its `_n` variant.
fn render_view(game: &kassen_game, view_json: &str) -> Result<String, Failure> {
    // Bounded like any document (16 MiB, a million values): DOCUMENT_TOO_LARGE past that.
    let view = kassen_core::input::parse(view_json, &kassen_core::input::Limits::ANY).map_err(|e| match e {
        kassen_core::LoadError::MalformedJson(m) => Failure::new(kassen_status::MalformedJson, format!("malformed view json: {m}")),
        other => Failure::from(other),
    })?;
    Ok(game.inner.render_svg(&view)?)
}

/// A self-contained HTML page replaying the game of `state` as `player` saw it (a seat, or -1
/// for the spectator): the board after every action, a slider over them and `player`'s event
/// log. Only `player`'s views and events go into the page.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_replay_html(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let page = kassen_core::render::replay::replay_html(&state.inner, player)?;
        unsafe { give(out, page) };
        Ok(())
    }
}
