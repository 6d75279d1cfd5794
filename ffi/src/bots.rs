//! `kassen_bot`: the built-in bots, and random rollouts for search code.

use kassen_core::bots::{Bot, MonteCarloBot, RandomBot};

use crate::boundary::{arg_mut, arg_ref, ffi_boundary, write_slice, Failure, Out};
use crate::state::kassen_state;
use crate::status::kassen_status;

/// A built-in bot (random, flat Monte Carlo or IS-MCTS). Opaque.
///
/// Created by `kassen_bot_new` (any bot, by name), `kassen_bot_new_random` or
/// `kassen_bot_new_monte_carlo`, released by
/// `kassen_bot_free`. A bot carries its own random number generator, so it needs exclusive
/// access; it plays any game. Bots use only what the player to act may know.
#[allow(non_camel_case_types)]
pub struct kassen_bot {
    pub(crate) inner: Box<dyn Bot + Send>,
}

pub(crate) fn boxed_bot(inner: Box<dyn Bot + Send>) -> *mut kassen_bot {
    boxed(inner)
}

fn boxed(inner: Box<dyn Bot + Send>) -> *mut kassen_bot {
    Box::into_raw(Box::new(kassen_bot { inner }))
}

/// Creates a bot that picks a uniformly random legal action (chance outcomes by their
/// probability), deterministic given `seed`.
///
/// On success, `*out` receives a new bot that the caller owns and must release with
/// `kassen_bot_free`. Returns `KASSEN_STATUS_NULL_POINTER` if `out` is NULL; on failure
/// `*out` is not written.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_new_random(seed: u64, out: *mut *mut kassen_bot) -> kassen_status {
    ffi_boundary! {
        let out = Out::new(out, "out")?;
        // SAFETY: `out` is checked.
        unsafe { out.write(boxed(Box::new(RandomBot::new(seed)))) };
        Ok(())
    }
}

/// Creates a flat Monte Carlo bot: for each candidate action it plays `playouts` random games
/// from determinizations for the acting seat and picks the best mean return. Deterministic
/// given `seed`.
///
/// On success, `*out` receives a new bot that the caller owns and must release with
/// `kassen_bot_free`. On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`, or
/// `KASSEN_STATUS_INVALID_ARGUMENT` if `playouts` is 0.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_new_monte_carlo(seed: u64, playouts: u32, out: *mut *mut kassen_bot) -> kassen_status {
    ffi_boundary! {
        let out = Out::new(out, "out")?;
        if playouts == 0 {
            return Err(Failure::new(kassen_status::InvalidArgument, "playouts must be at least 1"));
        }
        // SAFETY: `out` is checked.
        unsafe { out.write(boxed(Box::new(MonteCarloBot::new(seed).with_playouts(playouts)))) };
        Ok(())
    }
}

/// Releases a bot. `bot == NULL` is a no-op. This function cannot fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_free(bot: *mut kassen_bot) {
    ffi_boundary! { or ();
        if !bot.is_null() {
            // SAFETY: a non-NULL `bot` came from `boxed` and is released once (the caller's promise).
            drop(unsafe { Box::from_raw(bot) });
        }
    }
}

/// Writes the bot's action for the player to act in `state` (a chance outcome at a chance
/// node of an explicit-chance game) to `*out`. The state is not changed.
///
/// On failure `*out` is not written: `KASSEN_STATUS_NULL_POINTER`, or
/// `KASSEN_STATUS_GAME_OVER` if the game is over, `KASSEN_STATUS_POSITION_NOT_SUPPORTED` if
/// the bot searches and `state` started at a constructed position whose hidden parts the
/// game cannot sample (see docs/positions.md), `KASSEN_STATUS_THREADS_UNAVAILABLE` or
/// `KASSEN_STATUS_OUT_OF_MEMORY` if a search cannot have its threads or its memory.
#[no_mangle]
pub unsafe extern "C" fn kassen_bot_choose(bot: *mut kassen_bot, state: *const kassen_state, out: *mut u32) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or valid pointers.
        let bot = unsafe { arg_mut(bot, "bot") }?;
        let state = unsafe { arg_ref(state, "state") }?;
        let out = Out::new(out, "out")?;
        let a = bot.inner.try_choose(&state.inner)?;
        unsafe { out.write(a) };
        Ok(())
    }
}

/// Plays `n` random games from `state` to the end (players uniformly among their legal
/// actions, chance outcomes by probability, all drawn from one generator seeded `seed`, not
/// from the state's own) and copies their returns, `n * num_players` doubles row by row,
/// into `buf` (`cap` elements), their number into `*out_len`. The state is not changed.
/// Deterministic given `seed`.
///
/// Buffer rules as for `kassen_state_legal_actions`: `KASSEN_STATUS_BUFFER_TOO_SMALL` with the
/// required number in `*out_len` (nothing is played then, `buf` may be NULL when `cap` is 0);
/// `KASSEN_STATUS_NULL_POINTER` if `state` or `out_len` is NULL.
#[no_mangle]
pub unsafe extern "C" fn kassen_state_random_rollouts(
    state: *const kassen_state,
    seed: u64,
    n: usize,
    buf: *mut f64,
    cap: usize,
    out_len: *mut usize,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or valid pointers, `buf` valid for `cap` elements.
        let state = unsafe { arg_ref(state, "state") }?;
        let need = n.saturating_mul(state.inner.game().num_players());
        if need > cap {
            let len = Out::new(out_len, "out_len")?;
            if buf.is_null() && cap > 0 {
                return Err(Failure::null("buf"));
            }
            unsafe { len.write(need) };
            return Err(Failure::new(kassen_status::BufferTooSmall, format!("buffer `buf` holds {cap} elements, {need} are needed")));
        }
        let returns = state.inner.random_rollouts(seed, n);
        unsafe { write_slice(&returns, buf, cap, out_len, "buf") }
    }
}
