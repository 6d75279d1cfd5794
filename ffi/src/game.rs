//! `kassen_game`: a game under one configuration.

use std::ffi::c_char;

use kassen_core::engine::{self, GameHandle};
use serde_json::json;

use crate::boundary::{arg_ref, arg_str, arg_str_n, ffi_boundary, Out};
use crate::buf::{give, kassen_buf, out_buf};
use crate::status::kassen_status;

/// A game under one configuration (the immutable rules object). Opaque.
///
/// Created by `kassen_game_new` (or `kassen_state_game`), released by `kassen_game_free`.
/// A game is immutable and may be used from several threads at once. States keep their
/// game alive on their own: a game may be freed while states created from it live on.
#[allow(non_camel_case_types)]
pub struct kassen_game {
    pub(crate) inner: GameHandle,
}

impl kassen_game {
    pub(crate) fn boxed(inner: GameHandle) -> *mut kassen_game {
        Box::into_raw(Box::new(kassen_game { inner }))
    }
}

/// Lists the registered games as a JSON array `[{"id": "...", "name": "...", "configs":
/// [...]}, ...]`; `configs` are the configurations the project's tests cover (every player
/// count and rules variant; each is a valid `config_json` for `kassen_game_new`).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if `out` is NULL; on failure
/// `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_games_json(out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        let out = out_buf(out)?;
        let list: Vec<_> = engine::games().into_iter().map(|(id, name)| json!({"id": id, "name": name, "configs": engine::covered_configs(id)})).collect();
        // SAFETY: `out` is checked.
        unsafe { give(out, serde_json::Value::Array(list).to_string()) };
        Ok(())
    }
}

/// Creates the game `id` under the configuration `config_json`.
///
/// `id` is a NUL-terminated UTF-8 game id (see `kassen_games_json`). `config_json` is a
/// NUL-terminated UTF-8 JSON object of game options, or NULL (or `""`) for the defaults;
/// every game also accepts `"explicit_chance": true`, which makes chance nodes visible
/// (`current_player` returns -1 and the caller applies chance outcomes).
///
/// On success, `*out` receives a new game that the caller owns and must release with
/// `kassen_game_free`. On failure `*out` is not written and the status says why:
/// `KASSEN_STATUS_NULL_POINTER` (`id` or `out` is NULL), `KASSEN_STATUS_INVALID_UTF8`,
/// `KASSEN_STATUS_UNKNOWN_GAME`, `KASSEN_STATUS_INVALID_CONFIG` (including malformed JSON),
/// `KASSEN_STATUS_CONFIG_OUT_OF_RANGE`, `KASSEN_STATUS_UNKNOWN_CONFIG_KEY` or
/// `KASSEN_STATUS_INVALID_DATA` (a replacement component file `"data"` fails validation).
#[no_mangle]
pub unsafe extern "C" fn kassen_game_new(id: *const c_char, config_json: *const c_char, out: *mut *mut kassen_game) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or valid pointers.
        let id = unsafe { arg_str(id, "id") }?;
        let config = if config_json.is_null() { None } else { Some(unsafe { arg_str(config_json, "config_json") }?) };
        let out = Out::new(out, "out")?;
        let game = engine::load_game_str(id, config)?;
        unsafe { out.write(kassen_game::boxed(game)) };
        Ok(())
    }
}

/// `kassen_game_new` with both strings given as (pointer, length in bytes) of UTF-8, without
/// a NUL terminator: for bindings whose strings carry their length (C#, Rust, Go). A NUL byte
/// inside either string is rejected with `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
/// `config_json` may be NULL with `config_len` 0 for the defaults.
///
/// On success, `*out` receives a new game that the caller owns and must release with
/// `kassen_game_free`. On failure `*out` is not written. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`out` is NULL, or a string pointer is NULL with a non-zero
/// length), `KASSEN_STATUS_INVALID_ARGUMENT` (a NUL byte inside a string),
/// `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_UNKNOWN_GAME`, `KASSEN_STATUS_INVALID_CONFIG`,
/// `KASSEN_STATUS_CONFIG_OUT_OF_RANGE`, `KASSEN_STATUS_UNKNOWN_CONFIG_KEY`,
/// `KASSEN_STATUS_INVALID_DATA` or `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_new_n(
    id: *const u8,
    id_len: usize,
    config_json: *const u8,
    config_len: usize,
    out: *mut *mut kassen_game,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all three): the caller passes NULL or pointers valid for the given lengths.
        let id = unsafe { arg_str_n(id, id_len, "id") }?;
        let config = unsafe { arg_str_n(config_json, config_len, "config_json") }?;
        let out = Out::new(out, "out")?;
        let game = engine::load_game_str(id, Some(config))?;
        unsafe { out.write(kassen_game::boxed(game)) };
        Ok(())
    }
}

/// Releases a game created by `kassen_game_new` or `kassen_state_game`.
///
/// `game == NULL` is a no-op. States created from the game stay valid. The game must not
/// be used after this call. This function cannot fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_free(game: *mut kassen_game) {
    ffi_boundary! { or ();
        if !game.is_null() {
            // SAFETY: a non-NULL `game` was created by `kassen_game::boxed` and is released
            // once (the caller's promise).
            drop(unsafe { Box::from_raw(game) });
        }
    }
}

/// Describes the game as a JSON object: id, name, player counts, `num_distinct_actions`,
/// `max_chance_outcomes`, `observation_shape`, `max_game_length`, rules version, rulebook,
/// the normalized config, the provenance of the component data, `hidden_information`, the
/// buffer sizes seen in the soak run: `max_legal_actions` (a legal-actions buffer that fitted
/// every soak game), `max_view_bytes` and `max_events_bytes` (largest view and event list
/// JSON), `utility` (`{"type": "zero_sum" | "constant_sum" | "general_sum", "min", "max"}` plus
/// `"sum"` unless general-sum), `chance_outcome_block` (`{"offset", "count"}`: every chance
/// outcome id minus `offset` is below `count`) and `observation_layout` (an array of
/// `{"name", "offset", "length", "low", "high", "description"}`: named ranges that tile the
/// flat observation tensor in order; every value lies in `[low, high]`, which is `[0, 1]`).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_info_json(game: *const kassen_game, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a live game.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = out_buf(out)?;
        unsafe { give(out, game.inner.info_json().to_string()) };
        Ok(())
    }
}

/// Writes the number of seats of this configuration to `*out`.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_num_players(game: *const kassen_game, out: *mut u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(game.inner.info().num_players) };
        Ok(())
    }
}

/// Writes the number of distinct action ids to `*out`: every action and chance outcome id
/// is below it, and it is the length of a legal-actions mask.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_num_distinct_actions(game: *const kassen_game, out: *mut u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(game.inner.info().num_distinct_actions) };
        Ok(())
    }
}

/// Writes the number of bytes of a compact observation to `*out` (the end of the last field
/// of `compact_layout` in the info JSON).
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_compact_len(game: *const kassen_game, out: *mut usize) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(game.inner.info().compact_len()) };
        Ok(())
    }
}

/// Writes the number of floats of an observation tensor to `*out` (the product of
/// `observation_shape` in the info JSON).
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_game_observation_len(game: *const kassen_game, out: *mut usize) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(game.inner.info().observation_len()) };
        Ok(())
    }
}
