//! `kassen_state`: one position of a game, with its RNG and action log.

use std::ffi::c_char;

use kassen_core::engine::StateHandle;

use crate::boundary::{arg_mut, arg_ref, arg_str, arg_str_n, ffi_boundary, write_slice, Failure, Out};
use crate::buf::{give, kassen_buf, out_buf};
use crate::game::kassen_game;
use crate::status::kassen_status;

/// One state of a game: the position, its random number generator and its action log.
/// Opaque.
///
/// Created by `kassen_state_new`, `kassen_state_clone`, `kassen_state_apply` or
/// `kassen_state_from_json`, released by `kassen_state_free`. A state keeps its game alive.
/// Functions taking `const kassen_state *` may run concurrently on one state; a function
/// taking `kassen_state *` needs exclusive access to it.
#[allow(non_camel_case_types)]
pub struct kassen_state {
    pub(crate) inner: StateHandle,
}

impl kassen_state {
    pub(crate) fn boxed(inner: StateHandle) -> *mut kassen_state {
        Box::into_raw(Box::new(kassen_state { inner }))
    }
}

/// Creates the initial state of `game`, its random number generator seeded by `seed`.
/// (seed, config, action ids) determine a game exactly, on every platform.
///
/// Unless the game was created with `"explicit_chance": true`, opening chance nodes are
/// already resolved from the seed.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_new(game: *const kassen_game, seed: u64, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let out = Out::new(out, "out")?;
        let state = game.inner.new_initial_state(seed);
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// Releases a state. `state == NULL` is a no-op. The state must not be used after this
/// call. This function cannot fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_free(state: *mut kassen_state) {
    ffi_boundary! { or ();
        if !state.is_null() {
            // SAFETY: a non-NULL `state` was created by `kassen_state::boxed` and is
            // released once (the caller's promise).
            drop(unsafe { Box::from_raw(state) });
        }
    }
}

/// Copies a state (position, RNG and action log); the copy evolves independently.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_clone(state: *const kassen_state, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(kassen_state::boxed(state.inner.clone())) };
        Ok(())
    }
}

/// Gives the game of a state (useful after `kassen_state_from_json`).
///
/// On success, `*out` receives a new game handle that the caller owns and must release
/// with `kassen_game_free` (the state is not affected). Returns
/// `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_game(state: *const kassen_state, out: *mut *mut kassen_game) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(kassen_game::boxed(state.inner.game())) };
        Ok(())
    }
}

/// Writes the player to act to `*out`: a seat (>= 0), -1 at a chance node (only with
/// `"explicit_chance": true`) or -4 when the game is over.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_current_player(state: *const kassen_state, out: *mut i32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(state.inner.current_player()) };
        Ok(())
    }
}

/// Writes whether the game is over to `*out`: 1 if it is, 0 if not (a `uint8_t`, not a C
/// `bool`, so that every binding reads it the same way).
///
/// Returns `KASSEN_STATUS_OK`, `KASSEN_STATUS_NULL_POINTER` (an argument is NULL),
/// `KASSEN_STATUS_INVALID_ARGUMENT` or `KASSEN_STATUS_PANIC`; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_is_terminal(state: *const kassen_state, out: *mut u8) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(u8::from(state.inner.is_terminal())) };
        Ok(())
    }
}

thread_local! {
    static LEGAL_SCRATCH: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Copies the legal action ids (the outcome ids at a chance node), ascending and without
/// duplicates, into the caller's array `buf` of `cap` elements, and their number into
/// `*out_len`. Empty when the game is over.
///
/// If they do not fit, nothing is copied, the required number is written to `*out_len`
/// and `KASSEN_STATUS_BUFFER_TOO_SMALL` is returned; `buf` may be NULL when `cap` is 0 to
/// ask for the number. Returns `KASSEN_STATUS_NULL_POINTER` if `state` or `out_len` is
/// NULL, or `buf` is NULL while `cap > 0`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_legal_actions(
    state: *const kassen_state,
    buf: *mut u32,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        // A per-thread scratch vector: no allocation per call on the playout hot path.
        LEGAL_SCRATCH.with(|scratch| {
            let mut actions = scratch.borrow_mut();
            actions.clear();
            state.inner.legal_actions_into(&mut actions);
            unsafe { write_slice(&actions, buf, cap, out_len, "buf") }
        })
    }
}

/// Copies one flag per action id (1 = legal, 0 = not) into the caller's array `buf` of
/// `cap` bytes, and the number of flags (`kassen_game_num_distinct_actions`) into
/// `*out_len`.
///
/// Buffer rules as for `kassen_state_legal_actions`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out_len` is NULL, or `buf` is NULL while
/// `cap > 0`), `KASSEN_STATUS_BUFFER_TOO_SMALL`, `KASSEN_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer) or `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_legal_actions_mask(
    state: *const kassen_state,
    buf: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        let mask: Vec<u8> = state.inner.legal_actions_mask().into_iter().map(u8::from).collect();
        unsafe { write_slice(&mask, buf, cap, out_len, "buf") }
    }
}

/// The pure transition: a new state that is `state` after `action`; `state` itself is not
/// changed.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_GAME_OVER`,
/// `KASSEN_STATUS_ACTION_OUT_OF_RANGE` or `KASSEN_STATUS_ILLEGAL_ACTION`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_apply(state: *const kassen_state, action: u32, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        let next = state.inner.child(action)?;
        unsafe { out.write(kassen_state::boxed(next)) };
        Ok(())
    }
}

/// Applies `action` to `state` in place (for whoever is to act, chance included).
///
/// On failure the state is exactly as it was and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_GAME_OVER`,
/// `KASSEN_STATUS_ACTION_OUT_OF_RANGE`, `KASSEN_STATUS_ILLEGAL_ACTION` or
/// `KASSEN_STATUS_PANIC` (a bug in the rules; the state is still as it was).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_apply_in_place(state: *mut kassen_state, action: u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a state it does not share during the call.
        let state = unsafe { arg_mut(state, "state") }?;
        state.inner.apply_in_place_guarded(action)?;
        Ok(())
    }
}

/// Applies `action` in place on behalf of `player`, who must be the one to act (use it
/// where actions arrive from several seats, e.g. a server); `player` -1 (CHANCE) applies a
/// chance outcome.
///
/// On failure the state is exactly as it was and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_PLAYER` (no such seat),
/// `KASSEN_STATUS_GAME_OVER`, `KASSEN_STATUS_NOT_CHANCE_NODE` (-1 where a seat is to act),
/// `KASSEN_STATUS_NOT_YOUR_TURN`, `KASSEN_STATUS_ACTION_OUT_OF_RANGE`,
/// `KASSEN_STATUS_ILLEGAL_ACTION` or `KASSEN_STATUS_PANIC` (a bug in the rules; the state is
/// still as it was).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_apply_as(state: *mut kassen_state, player: i32, action: u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a state it does not share during the call.
        let state = unsafe { arg_mut(state, "state") }?;
        state.inner.apply_as_guarded(player, action)?;
        Ok(())
    }
}

/// One call per step: applies `action` in place (as `kassen_state_apply_in_place`), then
/// writes the player to act next to `*next_player` (a seat, -1 at a chance node, -4 when the
/// game is over) and the legal actions of the new state to the caller's array `legal_buf` of
/// `legal_cap` elements, their number to `*legal_len` (as `kassen_state_legal_actions`).
///
/// Size `legal_buf` by `max_legal_actions` from `kassen_game_info_json` (it fitted every
/// game of the soak run), or by `kassen_game_num_distinct_actions` to be sure. If the legal
/// actions do not fit, the state is put back as it was, `*legal_len` receives the required
/// number and `KASSEN_STATUS_BUFFER_TOO_SMALL` is returned.
///
/// Returns `KASSEN_STATUS_OK`, `KASSEN_STATUS_NULL_POINTER` (`state`, `next_player` or
/// `legal_len` is NULL, or `legal_buf` is NULL while `legal_cap > 0`),
/// `KASSEN_STATUS_INVALID_ARGUMENT` (a misaligned pointer), `KASSEN_STATUS_BUFFER_TOO_SMALL`,
/// `KASSEN_STATUS_GAME_OVER`, `KASSEN_STATUS_ACTION_OUT_OF_RANGE`,
/// `KASSEN_STATUS_ILLEGAL_ACTION` or `KASSEN_STATUS_PANIC`. On any failure the state is
/// exactly as it was and only `*legal_len` may be written (with `BUFFER_TOO_SMALL`).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_apply_step(
    state: *mut kassen_state,
    action: u32,
    next_player: *mut i32,
    legal_buf: *mut u32,
    legal_cap: usize,
    legal_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers (`legal_buf` for `legal_cap`
        // elements) and does not share `state` during the call.
        let state = unsafe { arg_mut(state, "state") }?;
        let next_player = Out::new(next_player, "next_player")?;
        let count = Out::new(legal_len, "legal_len")?;
        if legal_buf.is_null() && legal_cap > 0 {
            return Err(Failure::null("legal_buf"));
        }
        if !legal_buf.is_aligned() {
            return Err(Failure::new(kassen_status::InvalidArgument, "argument `legal_buf` is misaligned"));
        }
        let before = state.inner.history().len();
        state.inner.apply_in_place_guarded(action)?;
        LEGAL_SCRATCH.with(|scratch| {
            let mut actions = scratch.borrow_mut();
            actions.clear();
            state.inner.legal_actions_into(&mut actions);
            if actions.len() > legal_cap {
                state.inner.rollback(before);
                unsafe { count.write(actions.len()) };
                return Err(Failure::new(
                    kassen_status::BufferTooSmall,
                    format!("{} legal actions do not fit in legal_cap = {legal_cap}; the action was taken back", actions.len()),
                ));
            }
            // SAFETY: `legal_buf` is valid for `legal_cap >= actions.len()` elements.
            unsafe {
                if !actions.is_empty() {
                    std::ptr::copy_nonoverlapping(actions.as_ptr(), legal_buf, actions.len());
                }
                count.write(actions.len());
                next_player.write(state.inner.current_player());
            }
            Ok(())
        })
    }
}

/// Copies the outcomes of a chance node into the caller's arrays `ids` and `probs` (both
/// of `cap` elements; the probabilities sum to 1), and their number into `*out_len`.
/// Zero outcomes when the state is not a chance node.
/// Not for players' eyes: at a hidden draw the outcomes list what is left in a deck.
///
/// If they do not fit, nothing is copied, the required number is written to `*out_len`
/// and `KASSEN_STATUS_BUFFER_TOO_SMALL` is returned; `ids` and `probs` may be NULL when
/// `cap` is 0. Returns `KASSEN_STATUS_NULL_POINTER` if `state` or `out_len` is NULL, or an
/// array is NULL while `cap > 0`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_chance_outcomes(
    state: *const kassen_state,
    ids: *mut u32,
    probs: *mut f64,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, arrays valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        let outcomes = state.inner.chance_outcomes();
        let id_list: Vec<u32> = outcomes.iter().map(|o| o.0).collect();
        let p_list: Vec<f64> = outcomes.iter().map(|o| o.1).collect();
        // Check `probs` first so that nothing is written on its failure.
        let mut probe = 0usize;
        unsafe { write_slice::<f64>(&[], probs, cap, &mut probe, "probs") }?;
        unsafe { write_slice(&id_list, ids, cap, out_len, "ids") }?;
        unsafe { write_slice(&p_list, probs, cap, out_len, "probs") }
    }
}

/// Copies the return of every seat (all 0 until the game is over) into the caller's array
/// `buf` of `cap` doubles, and the number of seats into `*out_len`.
///
/// Buffer rules as for `kassen_state_legal_actions`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out_len` is NULL, or `buf` is NULL while
/// `cap > 0`), `KASSEN_STATUS_BUFFER_TOO_SMALL`, `KASSEN_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer) or `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_returns(state: *const kassen_state, buf: *mut f64, cap: usize, out_len: *mut usize) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        let returns = state.inner.returns();
        unsafe { write_slice(&returns, buf, cap, out_len, "buf") }
    }
}

/// Copies the action log (every player action and chance outcome since the initial
/// state) into the caller's array `buf` of `cap` elements, and its length into `*out_len`.
///
/// Buffer rules as for `kassen_state_legal_actions`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out_len` is NULL, or `buf` is NULL while
/// `cap > 0`), `KASSEN_STATUS_BUFFER_TOO_SMALL`, `KASSEN_STATUS_INVALID_ARGUMENT` (a
/// misaligned pointer) or `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_history(state: *const kassen_state, buf: *mut u32, cap: usize, out_len: *mut usize) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        unsafe { write_slice(state.inner.history(), buf, cap, out_len, "buf") }
    }
}

/// Describes `action` in this state as a short human-readable string.
///
/// Not for other seats' eyes: the description of an action another seat chose, or of a chance
/// outcome, can name what is hidden (the token drawn, the block moved). Show a seat its own
/// legal actions; describe other seats' moves with their events (`kassen_state_events_json`).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_ACTION_OUT_OF_RANGE`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_action_to_string(state: *const kassen_state, action: u32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let text = state.inner.action_to_string(action)?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// Describes `action` in this state as a JSON object for frontends
/// (`{"id": ..., "verb": ..., ...}`).
///
/// Not for other seats' eyes: the description of an action another seat chose, or of a chance
/// outcome, can name what is hidden (the token drawn, the block moved). Show a seat its own
/// legal actions; describe other seats' moves with their events (`kassen_state_events_json`).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_ACTION_OUT_OF_RANGE`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_action_to_json(state: *const kassen_state, action: u32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let v = state.inner.action_to_json(action)?;
        unsafe { give(out, v.to_string()) };
        Ok(())
    }
}

/// What `player` may know of the state, as a JSON object (including the pending decision):
/// `player` is a seat, or -1 for the spectator (public information only). It never
/// contains information hidden from that player.
///
/// Every game's view has the same envelope (`schema/view.schema.json`), so a frontend needs
/// no per-game code to show whose turn it is, what is asked, what just happened and who won:
///
/// - `"schema"`: `"kassen.view/2"`; `"game"`: the game id; `"rules_version"`: a string;
/// - `"observer"`: the observing seat, or `null` for the spectator;
/// - `"seats"`: `[{"seat": 0, "name": "..."}, ...]`, one entry per seat;
/// - `"to_act"`: `{"kind": "player" | "chance" | "terminal", "seat": s or null, "decision":
///   {"kind": "<snake_case>", "prompt": "<short text>", ...game fields} or null}` (the
///   seat only when `kind` is `"player"`, the decision `null` once the game is over);
/// - `"terminal"`: true once the game is over; `"returns"`: one number per seat once over,
///   else `null`; `"winners"`: the winning seats once over (`[]` on a draw), else `null`;
/// - `"last_action"`: `null` before the first action, `{"seat": s or null, "id": a, "text":
///   "...", "sentences": [...]}` (seat `null` for a chance outcome), or `{"seat": s or null,
///   "hidden": true, "sentences": [...]}` when the observer may not see which action it was;
///   `sentences` are the sentences of that move's events the observer was shown (how a
///   frontend tells the move; empty when it was told nothing);
/// - `"body"`: the game's own view, an object whose shape is per game.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_view_json(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let text = state.inner.view_json(player)?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// Writes the perfect-recall information-state key of `player` to `*out`: a stable 64-bit
/// hash of the seat, every event it has seen and the player to act (-1: public information
/// only). Two states give the seat the same key exactly when they give it the same events
/// and player to act, so a determinization for the seat has its key. A repeated call on the
/// same state is a cached read; after a step it costs only the new events.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL or
/// `KASSEN_STATUS_INVALID_PLAYER`; on failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_info_state_hash(state: *const kassen_state, player: i32, out: *mut u64) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        let key = state.inner.info_state_hash(player)?;
        unsafe { out.write(key) };
        Ok(())
    }
}

/// The information state behind `kassen_state_info_state_hash` as a JSON object
/// `{"player", "current_player", "events"}` (the events as `kassen_state_events_json`).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_info_state_json(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let text = state.inner.info_state_string(player)?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// The events `player` has seen since the initial state (their perfect-recall history),
/// as a JSON array of objects `{"step": ..., "audience": ..., "kind": ..., ...}`; -1 gives
/// the public events only.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` or
/// `KASSEN_STATUS_INVALID_PLAYER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_events_json(state: *const kassen_state, player: i32, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let events = state.inner.events(player)?;
        unsafe { give(out, kassen_core::events::to_json(&events)) };
        Ok(())
    }
}

/// The events of `player` from its `from_index`-th event on: the tail of
/// `kassen_state_events_json`, for a frontend that polls after each step (keep the number of
/// events received so far and pass it as `from_index`; an index past the end gives `[]`).
/// The state builds its event history once and extends it, so each call costs only what is
/// new.
///
/// Ownership as for `kassen_state_events_json`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out` is NULL), `KASSEN_STATUS_INVALID_PLAYER`
/// (neither a seat nor -1), `KASSEN_STATUS_INVALID_ARGUMENT` or `KASSEN_STATUS_PANIC`; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_events_since_json(
    state: *const kassen_state,
    player: i32,
    from_index: u64,
    out: *mut kassen_buf,
) -> kassen_status {
    // SAFETY: forwarded from the caller.
    unsafe { events_tail(state, from_index, out, |s, from| Ok(kassen_core::events::to_json(&s.events_since(player, from)?))) }
}

/// The body of the two event-tail functions: `text` gives the JSON of the events from an index.
unsafe fn events_tail(
    state: *const kassen_state,
    from_index: u64,
    out: *mut kassen_buf,
    text: impl FnOnce(&kassen_core::StateHandle, usize) -> Result<String, kassen_core::RuleError>,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        let from = usize::try_from(from_index).unwrap_or(usize::MAX);
        let json = text(&state.inner, from)?;
        unsafe { give(out, json) };
        Ok(())
    }
}

/// `kassen_state_events_since_json` with a sentence in each event: every object also has a
/// `"text"` field, a short human description from the game ("Ishida moves 3 blocks from Ueda
/// to Arato") or null where the game has none. The JSON fields stay the machine format; the
/// sentence tells `player` no more than its event does.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`,
/// `KASSEN_STATUS_INVALID_PLAYER` or `KASSEN_STATUS_INVALID_ARGUMENT` (as for
/// `kassen_state_events_since_json`).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_events_text_json(
    state: *const kassen_state,
    player: i32,
    from_index: u64,
    out: *mut kassen_buf,
) -> kassen_status {
    // SAFETY: forwarded from the caller.
    unsafe { events_tail(state, from_index, out, |s, from| s.events_with_text_json(player, from)) }
}

/// Copies the observation tensor of `player` (a seat, or -1 for the spectator) into the
/// caller's array `buf` of `cap` floats, and its length (`kassen_game_observation_len`)
/// into `*out_len`.
///
/// Buffer rules as for `kassen_state_legal_actions`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out_len` is NULL, or `buf` is NULL while
/// `cap > 0`), `KASSEN_STATUS_BUFFER_TOO_SMALL`, `KASSEN_STATUS_INVALID_PLAYER`,
/// `KASSEN_STATUS_INVALID_ARGUMENT` or `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_observation_tensor(
    state: *const kassen_state,
    player: i32,
    buf: *mut f32,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        let tensor = state.inner.observation_tensor(player)?;
        unsafe { write_slice(&tensor, buf, cap, out_len, "buf") }
    }
}

/// Copies the compact observation of `player` (a seat, or -1 for the spectator) into the
/// caller's array `buf` of `cap` bytes, and its length (`kassen_game_compact_len`) into
/// `*out_len`. The bytes are laid out as `compact_layout` in the info JSON says (field name,
/// offset, bytes, dtype, shape, range; see `docs/observations/<game>.md`).
///
/// Buffer rules as for `kassen_state_legal_actions`. Returns `KASSEN_STATUS_OK`,
/// `KASSEN_STATUS_NULL_POINTER` (`state` or `out_len` is NULL, or `buf` is NULL while
/// `cap > 0`), `KASSEN_STATUS_BUFFER_TOO_SMALL`, `KASSEN_STATUS_INVALID_PLAYER` or
/// `KASSEN_STATUS_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_compact_observation(
    state: *const kassen_state,
    player: i32,
    buf: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers, `buf` valid for `cap` bytes.
        let state = unsafe { arg_ref(state, "state") }?;
        let obs = state.inner.compact_observation(player)?;
        unsafe { write_slice(&obs, buf, cap, out_len, "buf") }
    }
}

/// Saves the state as JSON text (format `kassen.state/1`: game, rules version, config,
/// seed and action log, plus a snapshot). Contains the hidden information of every seat:
/// do not show it to players.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on
/// failure `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_to_json(state: *const kassen_state, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = out_buf(out)?;
        unsafe { give(out, state.inner.to_json_string()) };
        Ok(())
    }
}

/// Loads a state saved by `kassen_state_to_json` (NUL-terminated UTF-8), finding its game
/// in the registry. The action log is replayed and checked against the snapshot.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_UTF8`,
/// `KASSEN_STATUS_MALFORMED_JSON`, `KASSEN_STATUS_UNSUPPORTED_FORMAT`,
/// `KASSEN_STATUS_LOAD_UNKNOWN_GAME`, `KASSEN_STATUS_RULES_VERSION_MISMATCH`,
/// `KASSEN_STATUS_INVALID_STATE` (also for a saved config that
/// is not a JSON object or does not set up the game: the save is invalid, not the call),
/// `KASSEN_STATUS_INVALID_DATA` or `KASSEN_STATUS_DOCUMENT_TOO_LARGE` (text longer than
/// 16 MiB, or an array or a count of values longer than the named game's saves can hold:
/// refused before it is parsed, so no text can exhaust memory).
#[no_mangle]
pub unsafe extern "C" fn kassen_state_from_json(json: *const c_char, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let text = unsafe { arg_str(json, "json") }?;
        let out = Out::new(out, "out")?;
        let state = StateHandle::from_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// `kassen_state_from_json` with the text given as (pointer, length in bytes) of UTF-8,
/// without a NUL terminator. A NUL byte inside is rejected with
/// `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
///
/// On success, `*out` receives a new state that the caller owns and must release with
/// `kassen_state_free`. On failure `*out` is not written. Returns the statuses of
/// `kassen_state_from_json` (`KASSEN_STATUS_NULL_POINTER` when `out` is NULL or `json` is
/// NULL with a non-zero length) and `KASSEN_STATUS_INVALID_ARGUMENT` for a NUL inside.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_from_json_n(json: *const u8, len: usize, out: *mut *mut kassen_state) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or pointers valid for the given length.
        let text = unsafe { arg_str_n(json, len, "json") }?;
        let out = Out::new(out, "out")?;
        let state = StateHandle::from_json(text)?;
        unsafe { out.write(kassen_state::boxed(state)) };
        Ok(())
    }
}

/// Writes a hash of the whole state (game, config, seed, action log, position) to `*out`.
/// It is identical on every run, platform and surface (C, Rust, Python).
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_hash(state: *const kassen_state, out: *mut u64) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(state.inner.stable_hash()) };
        Ok(())
    }
}

/// Writes whether two states are equal (same game, config, seed, action log and position)
/// to `*out`: 1 if they are, 0 if not (a `uint8_t`). States of different games are unequal.
///
/// Returns `KASSEN_STATUS_OK`, `KASSEN_STATUS_NULL_POINTER` (an argument is NULL),
/// `KASSEN_STATUS_INVALID_ARGUMENT` or `KASSEN_STATUS_PANIC`; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_equal(a: *const kassen_state, b: *const kassen_state, out: *mut u8) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let a = unsafe { arg_ref(a, "a") }?;
        let b = unsafe { arg_ref(b, "b") }?;
        let out = Out::new(out, "out")?;
        unsafe { out.write(u8::from(a.inner == b.inner)) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! A game whose rules panic on one action: the boundary must report the panic and leave
    //! the state exactly as it was (the header's promise for every in-place apply).
    use std::sync::Arc;

    use kassen_core::engine::Instance;
    use kassen_core::{ActionId, Events, Game, GameInfo, Player, SetupError, CHANCE, TERMINAL};
    use serde_json::{json, Map, Value};

    use std::ffi::CStr;

    use super::*;

    struct Boom;

    impl Game for Boom {
        /// The actions taken so far and a counter the panicking action bumps before it panics.
        type State = (Vec<ActionId>, u32);
        const ID: &'static str = "boom";

        fn setup(_: &Map<String, Value>) -> Result<Self, SetupError> {
            Ok(Boom)
        }
        fn info(&self) -> GameInfo {
            GameInfo {
                id: "boom".into(),
                name: "Boom".into(),
                min_players: 1,
                max_players: 1,
                num_players: 1,
                num_distinct_actions: 3,
                max_chance_outcomes: 2,
                observation_shape: vec![1],
                observation_layout: kassen_core::layout::LayoutBuilder::new().unit("zero", 1, "always 0").build(),
                compact_layout: kassen_core::compact::CompactBuilder::new().u8("zero", &[1], 0, "always 0").build(),
                max_game_length: 10,
                rules_version: "boom/1".into(),
                rulebook: "none".into(),
                config: json!({}),
                provenance: json!({}),
                hidden_information: false,
                buffer_sizes: kassen_core::BufferSizes { max_legal_actions: 3, max_view_bytes: 1024, max_events_bytes: 1024 },
                utility: kassen_core::Utility::general_sum(0.0, 0.0),
                chance_outcome_block: kassen_core::ChanceBlock { offset: 0, count: 2 },
            }
        }
        fn num_players(&self) -> usize {
            1
        }
        fn num_distinct_actions(&self) -> u32 {
            3
        }
        fn new_initial_state(&self, _: u64) -> Self::State {
            (Vec::new(), 0)
        }
        fn current_player(&self, s: &Self::State) -> Player {
            match s.0.len() {
                n if n >= 6 => TERMINAL,
                n if n % 2 == 1 => CHANCE,
                _ => 0,
            }
        }
        fn legal_actions(&self, s: &Self::State, out: &mut Vec<ActionId>) {
            match self.current_player(s) {
                CHANCE => out.extend([0, 1]),
                0 => out.extend([0, 1, 2]),
                _ => {}
            }
        }
        fn chance_outcomes(&self, _: &Self::State, out: &mut Vec<(ActionId, f64)>) {
            out.extend([(0, 0.5), (1, 0.5)]);
        }
        fn sample_chance(&self, _: &mut Self::State) -> ActionId {
            0
        }
        fn apply(&self, s: &mut Self::State, a: ActionId, _: &mut Events) {
            s.1 += 1;
            if a == 2 {
                panic!("the rules of this game break on action 2");
            }
            s.0.push(a);
        }
        fn returns(&self, _: &Self::State) -> Vec<f64> {
            vec![0.0]
        }
        fn action_to_string(&self, _: &Self::State, a: ActionId) -> String {
            a.to_string()
        }
        fn action_to_json(&self, _: &Self::State, a: ActionId) -> Value {
            json!({ "id": a })
        }
        fn view_body<'a>(&'a self, s: &'a Self::State, _: Player) -> impl serde::Serialize + 'a {
            json!({ "taken": s.0 })
        }
        fn compact_observation(&self, _: &Self::State, _: Player, out: &mut [u8]) {
            out.fill(0);
        }

        fn observation_tensor(&self, _: &Self::State, _: Player, out: &mut [f32]) {
            out.fill(0.0);
        }
    }

    #[test]
    fn a_panic_inside_an_apply_leaves_the_state_as_it_was() {
        let game: Arc<dyn kassen_core::DynGame> = Instance::new_shared(Boom, false, json!({}));
        let mut handle = game.new_initial_state(7);
        handle.apply_in_place(0).unwrap();
        let state = kassen_state::boxed(handle);
        // SAFETY: `state` is a live state this test owns until kassen_state_free.
        unsafe {
            let before = (*state).inner.to_json();
            assert_eq!(kassen_state_apply_in_place(state, 2), kassen_status::Panic);
            assert_eq!((*state).inner.to_json(), before);
            assert_eq!(kassen_state_apply_as(state, 0, 2), kassen_status::Panic);
            assert_eq!((*state).inner.to_json(), before);
            let message = CStr::from_ptr(crate::boundary::last_error_ptr()).to_str().unwrap();
            assert!(message.contains("action 2"), "{message}");
            // The state still plays on.
            assert_eq!(kassen_state_apply_as(state, 0, 1), kassen_status::Ok);
            assert_eq!((*state).inner.history(), &[0, 0, 1, 0]);
            kassen_state_free(state);
        }
    }
}
