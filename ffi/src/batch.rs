//! `kassen_batch`: N states of one game stepped by one call into caller-owned buffers.

use std::ffi::c_char;

use kassen_core::batch::{BatchError, BatchOptions, BatchOut, DynBatch, LegalOut, ObsBuf, ObsDtype};

use crate::boundary::{arg_mut, arg_ref, arg_str, arg_str_n, ffi_boundary, Failure, Out};
use crate::game::kassen_game;
use crate::status::kassen_status;

/// N states of one game and config, stepped together by `kassen_batch_step`. Opaque.
///
/// Created by `kassen_batch_new`, released by `kassen_batch_free`. A batch keeps its game
/// alive. A batch needs exclusive access: do not call two functions on one batch at once.
#[allow(non_camel_case_types)]
pub struct kassen_batch {
    inner: Box<dyn DynBatch>,
}

/// The sizes of a batch's buffers (see `kassen_batch_out`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[allow(non_camel_case_types)]
pub struct kassen_batch_dims {
    pub num_envs: usize,
    pub num_players: usize,
    /// `num_distinct_actions` of the game: the length of one mask row.
    pub num_actions: usize,
    /// Elements of one observation (bytes of the compact observation, or values of the tensor).
    pub obs_len: usize,
    /// 1 if observations are bytes (`obs_u8`: compact or uint8), 0 if float (`obs_f32`).
    pub obs_uint8: u8,
    /// Width of one `legal_ids` row: the game's `max_legal_actions` (at most `num_actions`).
    pub max_legal_actions: usize,
    /// 1 if observations are the compact observation (the default), 0 if the tensor.
    pub obs_compact: u8,
}

/// Caller-owned output buffers of `kassen_batch_reset` and `kassen_batch_step`, each with
/// its length in elements, which must be exactly (with the sizes of `kassen_batch_dims`):
///
/// - `obs_f32` (float batches; `obs_u8` NULL) or `obs_u8` (compact and uint8 batches;
///   `obs_f32` NULL): `num_envs * obs_len`, the observation of the player to act (or of the
///   fixed seat, or of the learner in single-agent mode): the compact observation (laid out
///   as `compact_layout` in the game's info JSON), the float tensor, or the tensor as uint8
///   values round(clamp(v, 0, 1) * 255), ties to even;
/// - `mask`: `num_envs * num_actions`, 1 where the action id is legal for the player to act;
/// - `player`: `num_envs`, the seat to act (-1: a chance node of an explicit-chance game);
/// - `rewards`: `num_envs * num_players`, the change of the returns this step (the final
///   returns when the episode ended);
/// - `terminated`, `truncated`: `num_envs`, 1 if the episode ended this step by the rules or
///   at `max_episode_steps`;
/// - `final_returns`: `num_envs * num_players`, returns of an episode that just ended, else 0;
/// - `episode_len`: `num_envs`, steps of an episode that just ended, else 0;
/// - `legal_count` and `legal_ids` (optional: both NULL, or both set): `num_envs` and
///   `num_envs * max_legal_actions`; env `i` has `legal_count[i]` legal actions, and row `i`
///   of `legal_ids` starts with the first `min(legal_count[i], max_legal_actions)` of them in
///   ascending order (entries after those are not written). The game's `max_legal_actions` is
///   the most seen in its soak run, so a longer list is not expected; if it comes, the row is
///   cut short and `mask` is the full answer. Sampling from these lists costs O(legal actions)
///   instead of O(num_actions).
///
/// Between calls the batch owns the contents of `mask`: given the same mask buffer as in the
/// previous call, `kassen_batch_step` clears only the entries it set then, so do not write
/// into it between calls (reading is fine). A different buffer, and every
/// `kassen_batch_reset`, is written in full. The batch knows a buffer by its address and
/// length: a new buffer allocated where the previous one was freed counts as the same, so
/// it must start zero-filled (`calloc`), or call `kassen_batch_forget_mask` first, or keep
/// one buffer for the batch's life.
///
/// Same-step autoreset: an env whose episode ended has already been reset, and its `obs`,
/// `mask` and `player` belong to the first decision of its next episode.
#[repr(C)]
#[derive(Debug)]
#[allow(non_camel_case_types)]
pub struct kassen_batch_out {
    pub obs_f32: *mut f32,
    pub obs_u8: *mut u8,
    pub obs_len: usize,
    pub mask: *mut u8,
    pub mask_len: usize,
    pub player: *mut i32,
    pub player_len: usize,
    pub rewards: *mut f32,
    pub rewards_len: usize,
    pub terminated: *mut u8,
    pub terminated_len: usize,
    pub truncated: *mut u8,
    pub truncated_len: usize,
    pub final_returns: *mut f32,
    pub final_returns_len: usize,
    pub episode_len: *mut u32,
    pub episode_len_len: usize,
    pub legal_count: *mut u32,
    pub legal_count_len: usize,
    pub legal_ids: *mut u32,
    pub legal_ids_len: usize,
}

impl From<BatchError> for Failure {
    fn from(e: BatchError) -> Self {
        Failure::new(e.code().into(), e.to_string())
    }
}

/// The address range `[start, end)` of `len` elements of `T` at `p`, after checking that `p`
/// is non-NULL and aligned for `T` and that the range fits in the address space.
fn span<T>(p: *const T, len: usize, name: &'static str) -> Result<Span, Failure> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    if (p as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Failure::new(kassen_status::InvalidArgument, format!("{name} is not aligned to {} bytes", std::mem::align_of::<T>())));
    }
    let bytes = len
        .checked_mul(std::mem::size_of::<T>())
        .filter(|&b| b <= isize::MAX as usize && (p as usize).checked_add(b).is_some())
        .ok_or_else(|| Failure::new(kassen_status::InvalidArgument, format!("{name} has {len} elements, more than memory holds")))?;
    Ok(Span { name, start: p as usize, end: p as usize + bytes })
}

/// The bytes one buffer of a call covers.
#[derive(Clone, Copy)]
struct Span {
    name: &'static str,
    start: usize,
    end: usize,
}

/// Fails if two of the non-empty `spans` share a byte: every output is written through its
/// own exclusive slice, so one buffer passed as two outputs (or an output that overlaps the
/// actions) is refused, as `memcpy` forbids overlapping arguments.
fn disjoint(mut spans: Vec<Span>) -> Result<(), Failure> {
    spans.retain(|s| s.start < s.end);
    spans.sort_by_key(|s| s.start);
    for w in spans.windows(2) {
        if w[1].start < w[0].end {
            return Err(Failure::new(kassen_status::InvalidArgument, format!("{} and {} overlap", w[0].name, w[1].name)));
        }
    }
    Ok(())
}

/// A mutable slice of `len` elements at `p` (an empty slice for `len == 0`).
///
/// # Safety
/// `p` is valid for `len` writes and checked by `span` and `disjoint` (no other slice of the
/// call aliases it).
unsafe fn buf<'a, T>(p: *mut T, len: usize) -> &'a mut [T] {
    // SAFETY: the caller's promise; `span` checked NULL, alignment and size.
    unsafe { std::slice::from_raw_parts_mut(p, len) }
}

/// Checks the caller's buffers (NULL, alignment, size, overlap with each other and with
/// `also`, the action array) and borrows them.
///
/// # Safety
/// Every pointer in `o` is NULL or valid for its length.
unsafe fn outputs<'a>(o: &'a kassen_batch_out, dtype: ObsDtype, also: Option<Span>) -> Result<BatchOut<'a>, Failure> {
    let obs_span = match (dtype.bytes(), o.obs_f32.is_null(), o.obs_u8.is_null()) {
        (false, _, true) => span(o.obs_f32, o.obs_len, "out.obs_f32")?,
        (true, true, _) => span(o.obs_u8, o.obs_len, "out.obs_u8")?,
        (false, _, _) => {
            return Err(Failure::new(kassen_status::InvalidArgument, "a float batch needs out.obs_f32 set and out.obs_u8 NULL"))
        }
        (true, _, _) => {
            return Err(Failure::new(kassen_status::InvalidArgument, "a compact or uint8 batch needs out.obs_u8 set and out.obs_f32 NULL"))
        }
    };
    let legal = match (o.legal_count.is_null(), o.legal_ids.is_null()) {
        (true, true) => false,
        (false, false) => true,
        _ => return Err(Failure::new(kassen_status::InvalidArgument, "out.legal_count and out.legal_ids must be both set or both NULL")),
    };
    let mut spans = vec![
        obs_span,
        span(o.mask, o.mask_len, "out.mask")?,
        span(o.player, o.player_len, "out.player")?,
        span(o.rewards, o.rewards_len, "out.rewards")?,
        span(o.terminated, o.terminated_len, "out.terminated")?,
        span(o.truncated, o.truncated_len, "out.truncated")?,
        span(o.final_returns, o.final_returns_len, "out.final_returns")?,
        span(o.episode_len, o.episode_len_len, "out.episode_len")?,
    ];
    if legal {
        spans.push(span(o.legal_count, o.legal_count_len, "out.legal_count")?);
        spans.push(span(o.legal_ids, o.legal_ids_len, "out.legal_ids")?);
    }
    spans.extend(also);
    disjoint(spans)?;
    // SAFETY (all): the caller's promise that each buffer is valid for its length; checked
    // above to be non-NULL, aligned, addressable and disjoint from every other.
    Ok(BatchOut {
        obs: if dtype.bytes() {
            ObsBuf::U8(unsafe { buf(o.obs_u8, o.obs_len) })
        } else {
            ObsBuf::F32(unsafe { buf(o.obs_f32, o.obs_len) })
        },
        mask: unsafe { buf(o.mask, o.mask_len) },
        player: unsafe { buf(o.player, o.player_len) },
        rewards: unsafe { buf(o.rewards, o.rewards_len) },
        terminated: unsafe { buf(o.terminated, o.terminated_len) },
        truncated: unsafe { buf(o.truncated, o.truncated_len) },
        final_returns: unsafe { buf(o.final_returns, o.final_returns_len) },
        episode_len: unsafe { buf(o.episode_len, o.episode_len_len) },
        legal: legal.then(|| LegalOut {
            count: unsafe { buf(o.legal_count, o.legal_count_len) },
            ids: unsafe { buf(o.legal_ids, o.legal_ids_len) },
        }),
    })
}

/// Creates a batch of `game` from `options_json`, a NUL-terminated JSON object:
/// `{"num_envs": N, "seed": S, "threads": T, "obs_seat": seat or null, "opponent": "random",
/// "monte_carlo", "monte_carlo:P" or null, "learner_seat": L, "max_episode_steps": M or
/// null, "obs_dtype": "compact", "float32" or "uint8"}`; only `num_envs` is required
/// (defaults: seed 0, 1 thread, observe the player to act, no opponent, seat 0, no step
/// limit, compact).
///
/// Env `i`'s `k`-th episode starts from the seed `kassen_batch_episode_seed(S, i, k)`; results
/// do not depend on `threads`. With an opponent the batch is single-agent: the learner plays
/// `learner_seat` and `kassen_batch_step` plays the other seats and chance nodes itself, with
/// uniformly random legal actions (`"random"`) or the Monte Carlo bot's choices with P
/// playouts per decision (`"monte_carlo:P"`; `"monte_carlo"`: the bot's default, 128). The first episodes are started here; `kassen_batch_reset` writes their
/// observations. With `threads` T > 1 the batch starts T - 1 worker threads here, which stay
/// awake for up to 250 µs after each call (spinning, then yielding their cores), then sleep
/// until the next; `kassen_batch_free` stops and joins them.
///
/// On success, `*out` receives a new batch that the caller owns and must release with
/// `kassen_batch_free`. On failure `*out` is not written and the status says why:
/// `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_UTF8`, `KASSEN_STATUS_INVALID_CONFIG`
/// (malformed JSON, a missing `num_envs`, a value of the wrong type, an unknown opponent),
/// `KASSEN_STATUS_UNKNOWN_CONFIG_KEY`, `KASSEN_STATUS_CONFIG_OUT_OF_RANGE` (`num_envs`
/// outside [1, 65536], `threads` outside [1, 1024], an `obs_seat` or `learner_seat` the game
/// does not have, with or without an opponent) or `KASSEN_STATUS_OUT_OF_MEMORY`.
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_new(
    game: *const kassen_game,
    options_json: *const c_char,
    out: *mut *mut kassen_batch,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or valid pointers.
        let game = unsafe { arg_ref(game, "game") }?;
        let text = unsafe { arg_str(options_json, "options_json") }?;
        let out = Out::new(out, "out")?;
        let batch = new_batch(game, text)?;
        unsafe { out.write(batch) };
        Ok(())
    }
}

/// `kassen_batch_new` with `options_json` given as (pointer, length in bytes) of UTF-8,
/// without a NUL terminator: for bindings whose strings carry their length. A NUL byte inside
/// the string is rejected with `KASSEN_STATUS_INVALID_ARGUMENT`, never cut short.
///
/// On success, `*out` receives a new batch that the caller owns and must release with
/// `kassen_batch_free`. On failure `*out` is not written; the statuses are those of
/// `kassen_batch_new`, plus `KASSEN_STATUS_INVALID_ARGUMENT` for a NUL byte inside the string
/// (`KASSEN_STATUS_NULL_POINTER` also for a NULL `options_json` with a non-zero length).
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_new_n(
    game: *const kassen_game,
    options_json: *const u8,
    options_len: usize,
    out: *mut *mut kassen_batch,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or pointers valid for the given length.
        let game = unsafe { arg_ref(game, "game") }?;
        let text = unsafe { arg_str_n(options_json, options_len, "options_json") }?;
        let out = Out::new(out, "out")?;
        let batch = new_batch(game, text)?;
        unsafe { out.write(batch) };
        Ok(())
    }
}

/// The batch of `kassen_batch_new` and `kassen_batch_new_n`, boxed for the caller.
fn new_batch(game: &kassen_game, options_json: &str) -> Result<*mut kassen_batch, Failure> {
    let v = kassen_core::input::parse(options_json, &kassen_core::input::Limits::COMPONENTS)
        .map_err(|e| Failure::new(kassen_status::InvalidConfig, format!("batch options json: {e}")))?;
    let batch = game.inner.new_batch(BatchOptions::from_json(&v)?)?;
    Ok(Box::into_raw(Box::new(kassen_batch { inner: batch })))
}

/// Releases a batch and joins its worker threads. `batch == NULL` is a no-op. The batch
/// must not be used after this call. This function cannot fail.
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_free(batch: *mut kassen_batch) {
    ffi_boundary! { or ();
        if !batch.is_null() {
            // SAFETY: a non-NULL `batch` was created by `kassen_batch_new` and is released
            // once (the caller's promise).
            drop(unsafe { Box::from_raw(batch) });
        }
    }
}

/// Writes the sizes of the batch's buffers to `*out`.
///
/// Returns `KASSEN_STATUS_NULL_POINTER` if an argument is NULL; on failure `*out` is not
/// written.
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_get_dims(batch: *const kassen_batch, out: *mut kassen_batch_dims) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or valid pointers.
        let batch = unsafe { arg_ref(batch, "batch") }?;
        let out = Out::new(out, "out")?;
        let d = batch.inner.dims();
        let dtype = batch.inner.options().obs_dtype;
        let (obs_uint8, obs_compact) = (dtype.bytes() as u8, (dtype == ObsDtype::Compact) as u8);
        let dims = kassen_batch_dims {
            num_envs: d.num_envs,
            num_players: d.num_players,
            num_actions: d.num_actions,
            obs_len: d.obs_len,
            obs_uint8,
            max_legal_actions: d.max_legal,
            obs_compact,
        };
        unsafe { out.write(dims) };
        Ok(())
    }
}

/// Starts a new episode in every env and writes the first observations into `out` (rewards,
/// flags, final returns and episode lengths are zeroed). With `seed` non-NULL the batch seed
/// becomes `*seed` and every env's episode count restarts at 0; with `seed` NULL every env
/// goes on to its next episode (the first reset of a new batch gives episode 0).
///
/// On failure nothing changes (the buffers may be partly written only if the status is
/// `KASSEN_STATUS_PANIC`): `KASSEN_STATUS_NULL_POINTER` (`batch`, `out` or one of its
/// buffers is NULL, the observation buffer of the batch's type included),
/// `KASSEN_STATUS_INVALID_ARGUMENT` (a buffer length is not the one `kassen_batch_out` gives,
/// a buffer is not aligned for its element type, two buffers overlap, the observation buffer
/// of the other type is set, or only one of `legal_count` and `legal_ids` is set).
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_reset(batch: *mut kassen_batch, seed: *const u64, out: *const kassen_batch_out) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or valid pointers, buffers valid for their lengths.
        let batch = unsafe { arg_mut(batch, "batch") }?;
        let seed = if seed.is_null() { None } else { Some(unsafe { *seed }) };
        let o = unsafe { arg_ref(out, "out") }?;
        let mut out = unsafe { outputs(o, batch.inner.options().obs_dtype, None) }?;
        Ok(batch.inner.reset(seed, &mut out)?)
    }
}

/// Applies `actions[i]` (an action id, or a chance outcome id at an explicit-chance node) to
/// env `i`, for the `num_actions == num_envs` envs, and writes the results into `out` (see
/// `kassen_batch_out`; ended episodes are reset in the same call).
///
/// Every action is checked before any is applied: on failure nothing changes and the status
/// says why: `KASSEN_STATUS_NULL_POINTER`, `KASSEN_STATUS_INVALID_ARGUMENT` (`num_actions`
/// is not `num_envs`; a buffer has the wrong length or type, is misaligned, or overlaps
/// another buffer or `actions`), or the rule status of the
/// lowest env whose action was rejected (`KASSEN_STATUS_ILLEGAL_ACTION`,
/// `KASSEN_STATUS_ACTION_OUT_OF_RANGE`); the message names the env.
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_step(
    batch: *mut kassen_batch,
    actions: *const u32,
    num_actions: usize,
    out: *const kassen_batch_out,
) -> kassen_status {
    ffi_boundary! {
        // SAFETY (all): the caller passes NULL or valid pointers, buffers valid for their lengths.
        let batch = unsafe { arg_mut(batch, "batch") }?;
        let actions_span = span(actions, num_actions, "actions")?;
        let o = unsafe { arg_ref(out, "out") }?;
        let mut out = unsafe { outputs(o, batch.inner.options().obs_dtype, Some(actions_span)) }?;
        // Checked by `span` (NULL, alignment, size) and by `outputs` (no output overlaps it).
        let actions = unsafe { std::slice::from_raw_parts(actions, num_actions) };
        Ok(batch.inner.step(actions, &mut out)?)
    }
}

/// Makes the next `kassen_batch_step` write its mask buffer in full, as for a buffer it has
/// not seen: for a caller whose new mask buffer may sit at the address of the last one (a
/// buffer freed and allocated again) or who wrote into the mask between calls.
///
/// `KASSEN_STATUS_NULL_POINTER` if `batch` is NULL.
#[no_mangle]
pub unsafe extern "C" fn kassen_batch_forget_mask(batch: *mut kassen_batch) -> kassen_status {
    ffi_boundary! {
        // SAFETY: the caller passes NULL or a valid batch.
        let batch = unsafe { arg_mut(batch, "batch") }?;
        batch.inner.forget_mask();
        Ok(())
    }
}

/// The seed of the initial state of env `slot`'s `episode`-th episode in a batch seeded
/// `seed`: `kassen_state_new(game, kassen_batch_episode_seed(seed, slot, episode), ...)`
/// replays it. This function cannot fail.
#[no_mangle]
pub extern "C" fn kassen_batch_episode_seed(seed: u64, slot: usize, episode: u64) -> u64 {
    kassen_core::batch::episode_seed(seed, slot, episode)
}
