//! Bots by name (`kassen_bot_new`), their last decision, and `kassen_search`: an IS-MCTS
//! search on worker threads that a user interface starts, polls and stops without blocking.

use std::ffi::c_char;

use kassen_core::bots::{from_spec, specs, Search, SearchParams};

use crate::bots::{boxed_bot, kassen_bot};
use crate::boundary::{arg_ref, arg_str, arg_str_n, ffi_boundary, Failure, Out};
use crate::buf::{give, kassen_buf, out_buf};
use crate::state::kassen_state;
use crate::status::kassen_status;

fn new_bot(spec: &str, seed: u64, out: *mut *mut kassen_bot) -> Result<(), Failure> {
    let out = Out::new(out, "out")?;
    let bot = from_spec(spec, seed)?;
    // SAFETY: `out` is checked.
    unsafe { out.write(boxed_bot(bot)) };
    Ok(())
}

/// Creates the bot that `spec` names, seeded with `seed`: `"random"`, `"monte_carlo"`,
/// `"monte_carlo:P"` (P playouts per decision), `"ismcts:easy"`, `"ismcts:normal"`,
/// `"ismcts:hard"` (the IS-MCTS levels: see `kassen_bots_json`), `"ismcts:N"` (N iterations
/// per decision, no time limit: the same decision on every machine); a suffix `"@<T>ms"`
/// gives a search bot T milliseconds per decision instead (`"ismcts@500ms"`). A search bot's
/// `kassen_bot_choose` blocks the calling thread for its budget; a user interface uses
/// `kassen_search_start` instead. N is at most 1,000,000,000 and T at most 86,400,000 (24 h),
/// the caps of `kassen_search_start`.
///
/// On success, `*out` receives a new bot that the caller owns and must release with
/// `kassen_bot_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`,
/// `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_INVALID_CONFIG` (an unknown spec) or
/// `KASSEN_STATUS_CONFIG_OUT_OF_RANGE` (N or T above its cap).
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_new(spec: *const c_char, seed: u64, out: *mut *mut kassen_bot) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let spec = unsafe { arg_str(spec, "spec") }?;
        new_bot(spec, seed, out)
    }
}

/// `kassen_bot_new` with the spec given as `(spec, spec_len)` bytes of UTF-8 without a NUL
/// terminator. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER` (`out` NULL, or
/// `spec` NULL with a non-zero length), `KASSEN_STATUS_INVALID_ARGUMENT` (a NUL byte inside),
/// `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_INVALID_CONFIG` (an unknown spec) or
/// `KASSEN_STATUS_CONFIG_OUT_OF_RANGE`.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_new_n(spec: *const u8, spec_len: usize, seed: u64, out: *mut *mut kassen_bot) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a pointer valid for `spec_len` bytes.
        let spec = unsafe { arg_str_n(spec, spec_len, "spec") }?;
        new_bot(spec, seed, out)
    }
}

/// The built-in bots a frontend may offer, weakest first, as a JSON array of
/// `{"spec", "name", "description"}` (`spec` is what `kassen_bot_new` takes).
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. Returns `KASSEN_STATUS_NULL_POINTER` if `out` is NULL.
#[no_mangle]
pub unsafe extern "C" fn kassen_bots_json(out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        let out = out_buf(out)?;
        let text = serde_json::to_string(&specs()).map_err(|e| Failure::new(kassen_status::Panic, e.to_string()))?;
        // SAFETY: `out` is checked.
        unsafe { give(out, text) };
        Ok(())
    }
}

/// The statistics of the bot's last decision, as JSON: `{"seat", "action", "iterations",
/// "elapsed_ms", "candidates": [{"action", "visits", "value", "line", "reason"}]}` (`value`: the
/// searching seat's mean return after the action, null if never tried; `line` and `reason`
/// are empty and null for a bot's own decisions, see `kassen_search_result_json`), or `null`
/// for a bot that does not search a tree, or before its first decision.
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_last_decision_json(bot: *const kassen_bot, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a valid bot.
        let bot = unsafe { arg_ref(bot, "bot") }?;
        let out = out_buf(out)?;
        let text = serde_json::to_string(&bot.inner.last_decision()).map_err(|e| Failure::new(kassen_status::Panic, e.to_string()))?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// An IS-MCTS search running on worker threads. Opaque.
///
/// Created by `kassen_search_start`, released by `kassen_search_free` (which stops it and
/// waits for its threads). The search works on its own copy of the state: the caller may
/// change or free the state while it runs.
///
/// Threads: `kassen_search_poll`, `kassen_search_stop`, `kassen_search_wait` and
/// `kassen_search_result_json` may be called from any threads at the same time (a user
/// interface polls and stops from its own thread while another thread waits). A poll during a
/// wait never fails: it answers "running" (`done` 0) or "done" with the chosen action, and
/// every waiter gets the same decision. Only `kassen_search_free` needs the search to itself:
/// no other call on it may be running or follow.
#[allow(non_camel_case_types)]
pub struct kassen_search {
    inner: Search,
}

/// The progress of a search (`kassen_search_poll`).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct kassen_search_progress {
    /// Iterations done so far, over every thread.
    pub iterations: u64,
    /// The most visited action so far, or -1 before the first is known.
    pub best_action: i64,
    /// 1 once the search has ended (its budget spent, stopped, or nothing to search), else 0.
    pub done: u8,
    /// Wall time since the start, in milliseconds.
    pub elapsed_ms: f64,
}

fn start(state: &kassen_state, params: &str, seed: u64, out: *mut *mut kassen_search) -> Result<(), Failure> {
    let out = Out::new(out, "out")?;
    let params = SearchParams::from_json_text(params, seed)?;
    let search = Search::start(&state.inner, params)?;
    // SAFETY: `out` is checked.
    unsafe { out.write(Box::into_raw(Box::new(kassen_search { inner: search }))) };
    Ok(())
}

/// Starts an IS-MCTS search for the player to act in `state` and returns at once.
///
/// `params_json` (NULL or empty: the `normal` level) is a JSON object:
/// `{"level": "easy" | "normal" | "hard"}` (the level's budget; see `kassen_bots_json`),
/// overridden by any of `"iterations"` (null: none; at most 1,000,000,000), `"time_ms"`
/// (null: none; at most 86,400,000, 24 h), `"threads"`, `"determinizations"`,
/// `"exploration"` (UCB1's constant; by default the game's own, 0.7 in most games),
/// `"max_nodes"` (the most tree nodes over all threads, 1 to 1,000,000,000;
/// default 1,000,000, about 80 MB), `"explain"` (true or false, default true: each
/// candidate's line and reason, see `kassen_search_result_json`). A tree at its node budget
/// stops growing and the search goes on within it; the decision's `"nodes"` and `"tree_full"` say so. A search without an
/// iteration budget also ends at 1,000,000,000 iterations. With an iteration budget and no
/// time limit, the result is the same on every machine for the same `seed` and thread count.
///
/// On success, `*out` receives a new search that the caller owns and must release with
/// `kassen_search_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`,
/// `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_INVALID_CONFIG` (malformed parameters, an
/// unknown key, a key given twice, a value of the wrong kind), `KASSEN_STATUS_CONFIG_OUT_OF_RANGE`
/// (an iteration budget, time limit or node budget above its largest),
/// `KASSEN_STATUS_GAME_OVER`, `KASSEN_STATUS_POSITION_NOT_SUPPORTED` (`state` started at a
/// constructed position whose hidden parts the game cannot sample),
/// `KASSEN_STATUS_THREADS_UNAVAILABLE` (the system refused the search's thread).
#[no_mangle]
pub unsafe extern "C" fn kassen_search_start(
    state: *const kassen_state,
    params_json: *const c_char,
    seed: u64,
    out: *mut *mut kassen_search,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (both): the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let params = if params_json.is_null() { "" } else { unsafe { arg_str(params_json, "params_json") }? };
        start(state, params, seed, out)
    }
}

/// `kassen_search_start` with the parameters given as `(params_json, params_len)` bytes of
/// UTF-8 without a NUL terminator (NULL with length 0: the `normal` level). On failure `*out`
/// is not written: `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_ARGUMENT` (a NUL byte
/// inside), `KASSEN_STATUS_INVALID_UTF8`, or a status of `kassen_search_start`.
#[no_mangle]
pub unsafe extern "C" fn kassen_search_start_n(
    state: *const kassen_state,
    params_json: *const u8,
    params_len: usize,
    seed: u64,
    out: *mut *mut kassen_search,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (both): the caller passes NULL or valid pointers.
        let state = unsafe { arg_ref(state, "state") }?;
        let params = unsafe { arg_str_n(params_json, params_len, "params_json") }?;
        start(state, params, seed, out)
    }
}

/// Writes the search's progress to `*out`; never blocks. May be called from any thread, also
/// while others wait for the search (see `kassen_search`).
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL (`*out` is not written then).
#[no_mangle]
pub unsafe extern "C" fn kassen_search_poll(search: *const kassen_search, out: *mut kassen_search_progress) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let search = unsafe { arg_ref(search, "search") }?;
        let out = Out::new(out, "out")?;
        let p = search.inner.progress();
        let progress = kassen_search_progress {
            iterations: p.iterations,
            best_action: p.best.map_or(-1, i64::from),
            done: u8::from(p.done),
            elapsed_ms: p.elapsed_ms,
        };
        unsafe { out.write(progress) };
        Ok(())
    }
}

/// Asks the search to end after its current iteration; never blocks. Stopping a search that
/// has ended is a no-op. Returns `KASSEN_STATUS_NULL_POINTER` if `search` is NULL.
#[no_mangle]
pub unsafe extern "C" fn kassen_search_stop(search: *const kassen_search) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a valid search.
        let search = unsafe { arg_ref(search, "search") }?;
        search.inner.stop();
        Ok(())
    }
}

/// Waits until the search ends (its budget spent, or `kassen_search_stop` called) and writes
/// the chosen action to `*action`. Several threads may wait at once, and poll or stop while
/// others wait (see `kassen_search`); every waiter gets the same decision.
///
/// On failure `*action` is not written: `KASSEN_STATUS_NULL_POINTER`,
/// `KASSEN_STATUS_THREADS_UNAVAILABLE` (the system refused one of the search's threads; the
/// others were stopped), `KASSEN_STATUS_OUT_OF_MEMORY` (a tree's memory was refused).
#[no_mangle]
pub unsafe extern "C" fn kassen_search_wait(search: *mut kassen_search, action: *mut u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a valid search (shared with other threads: every
        // method of `Search` takes `&self`) and a valid `action`.
        let search = unsafe { arg_ref(search.cast_const(), "search") }?;
        let action = Out::new(action, "action")?;
        let d = search.inner.wait()?;
        unsafe { action.write(d.action) };
        Ok(())
    }
}

/// Waits until the search ends (as `kassen_search_wait`) and gives its decision as JSON, in the
/// form of `kassen_bot_last_decision_json` with `"nodes"` (tree nodes used, over every thread)
/// and `"tree_full"` (whether a tree reached its share of `max_nodes`). Unless the parameters
/// say `"explain": false`, each candidate has `"line"`, the seat's own moves the search
/// expects after it in the same turn (action ids, at most 3), and `"reason"`, a short text
/// from the game's event sentences of the candidate and its line as the searching seat would
/// be told them, played on determinizations of what the seat knows (never the hidden truth):
/// e.g. "Tokugawa moves 1 block from Edo to Hakone".
///
/// On success, `*out` receives a buffer that the caller owns and must release with
/// `kassen_buf_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`, or a
/// status of `kassen_search_wait`.
#[no_mangle]
pub unsafe extern "C" fn kassen_search_result_json(search: *mut kassen_search, out: *mut kassen_buf) -> kassen_status {
    ffi_boundary! {
        // SAFETY: as `kassen_search_wait`.
        let search = unsafe { arg_ref(search.cast_const(), "search") }?;
        let out = out_buf(out)?;
        let d = search.inner.wait()?;
        let text = serde_json::to_string(&d).map_err(|e| Failure::new(kassen_status::Panic, e.to_string()))?;
        unsafe { give(out, text) };
        Ok(())
    }
}

/// Stops the search, waits for its threads and releases it. `search == NULL` is a no-op.
/// No other call on the search may be running (see `kassen_search`). This function cannot
/// fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_search_free(search: *mut kassen_search) {
    ffi_boundary! { or ();
        if !search.is_null() {
            // SAFETY: a non-NULL `search` came from `kassen_search_start` and is released once.
            drop(unsafe { Box::from_raw(search) });
        }
    }
}
