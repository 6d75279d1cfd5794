//! N states of one game and config stepped by one call (the EnvPool / Pgx shape).
//!
//! A batch holds `num_envs` typed states (no action log, no events: nothing grows while it
//! runs) and writes its outputs into caller-owned contiguous buffers ([`BatchOut`]):
//!
//! | buffer          | shape                     | meaning                                           |
//! |-----------------|---------------------------|---------------------------------------------------|
//! | `obs`           | `num_envs × obs_len`      | observation of the player to act, or of `obs_seat` |
//! | `mask`          | `num_envs × num_actions`  | 1 where the action id is legal for the player to act |
//! | `player`        | `num_envs`                | seat to act (`-1`: a chance node of an explicit-chance game) |
//! | `rewards`       | `num_envs × num_players`  | change of the returns this step (the final returns at the end) |
//! | `terminated`    | `num_envs`                | 1 if the episode ended by the rules this step     |
//! | `truncated`     | `num_envs`                | 1 if it hit `max_episode_steps` this step         |
//! | `final_returns` | `num_envs × num_players`  | returns of the episode that just ended, else 0    |
//! | `episode_len`   | `num_envs`                | steps of the episode that just ended, else 0      |
//! | `legal_count`   | `num_envs`                | number of legal actions (optional output)          |
//! | `legal_ids`     | `num_envs × max_legal`    | the legal action ids, ascending (optional output)  |
//!
//! **Legal ids** (optional, [`LegalOut`]): the same legal actions as the mask, as a list, so
//! that a caller samples in O(legal) instead of O(num_actions). Row `i` holds the first
//! `min(legal_count[i], max_legal)` ids in ascending order; entries past them are not
//! written. `max_legal` is the game's `max_legal_actions` (the most seen in its soak run), so
//! `legal_count[i] > max_legal` is not expected, but if it happens the row is cut short and
//! the mask is the full answer.
//!
//! **Sparse writes.** Between calls a batch remembers which mask entries it set: when a call
//! gets the same mask buffer as the previous call, it clears only those entries instead of
//! the whole row. The caller must therefore not write into the mask between calls (reading
//! is fine); `reset` always rewrites every buffer in full. A different buffer (another
//! address or length) is rewritten in full too.
//!
//! **Same-step autoreset** (Gymnasium 1.x `AutoresetMode.SAME_STEP`, EnvPool's behaviour):
//! when a slot's episode ends during `step`, its `rewards`, `terminated`/`truncated`,
//! `final_returns` and `episode_len` describe the episode that ended, and the slot has
//! already been reset: its `obs`, `mask` and `player` are those of the first decision of the
//! next episode. The final observation is not kept.
//!
//! **Seeds.** Slot `i`'s `k`-th episode (counting from 0 at construction or at a
//! `reset(Some(seed))`) starts from `new_initial_state(episode_seed(seed, i, k))`, and the
//! built-in opponent of that episode draws from `opponent_seed(seed, i, k)`. Trajectories are
//! thus a pure function of the batch seed and the actions, whatever the thread count.
//!
//! **Steps.** One `step` call applies one action per slot, the action of the player to act
//! (a chance outcome at an explicit-chance node). Without explicit chance, chance nodes are
//! resolved from each state's own RNG. In single-agent mode (`opponent`), the learner plays
//! `learner_seat`; every other seat (and every chance node) is played inside the same call by
//! the opponent, so `player` is always the learner and `obs` is the learner's observation.
//! `episode_len` and `max_episode_steps` count `step` calls (learner decisions in
//! single-agent mode).
//!
//! All actions are checked before any is applied: on error nothing changes.
//!
//! **Allocations.** A slot's step allocates nothing until its episode ends; then the game's
//! returns and the next initial state are built, a few allocations per episode (0.02-0.04
//! per env-step along random games, which `make bench` counts as `allocs_per_step_1_thread`).
//! With two or more threads, each call also makes a handful for its parts, per call and not
//! per slot.
//!
//! **Observations** ([`ObsDtype`]): by default each env's compact observation
//! ([`crate::compact`]: `compact_len` bytes laid out as the game's `compact_layout`, every fact
//! the observed seat may know, exactly, a few hundred bytes to a few kilobytes per step); on
//! request the float tensor (`observation_len` f32 values) or its uint8 form.
//!
//! **uint8 observations** are `round(clamp(v, 0, 1) × 255)` (ties to even, as numpy rounds) of the float observation (every
//! feature of every game's observation layout has bounds `[0, 1]`, which the conformance suite checks, so
//! `(v - low) / (high - low)` is `v`): indicators are exact (0 and 255), other values are rounded to the nearest 1/255.

mod options;
mod pool;
mod seeds;
mod typed;

#[cfg(test)]
mod tests;

pub use seeds::{episode_seed, opponent_seed};

pub(crate) use typed::TypedBatch;

use crate::error::{ErrorCode, RuleError, SetupError};
use crate::game::{ActionId, Player};

/// Element type of the observation buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ObsDtype {
    /// The game's compact observation ([`crate::compact`]): bytes laid out as
    /// `GameInfo::compact_layout`, `compact_len` of them per env. The default.
    #[default]
    Compact,
    /// The float tensor (`observation_len` values per env).
    F32,
    /// The float tensor as `round(clamp(v, 0, 1) × 255)` (ties to even, as numpy rounds).
    U8,
}

impl ObsDtype {
    /// The option's name: `"compact"`, `"float32"`, `"uint8"`.
    pub fn name(self) -> &'static str {
        match self {
            ObsDtype::Compact => "compact",
            ObsDtype::F32 => "float32",
            ObsDtype::U8 => "uint8",
        }
    }

    /// Whether the observation buffer holds bytes (`ObsBuf::U8`): compact and uint8.
    pub fn bytes(self) -> bool {
        self != ObsDtype::F32
    }
}

/// Who plays the seats other than the learner in single-agent mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal action (chance outcomes by their probability).
    Random,
    /// [`crate::bots::MonteCarloBot`] with this many playouts per decision (it sees only
    /// what its seat may know). Each decision replays the env's episode into a full state
    /// for the bot, so this opponent is for training against a stronger player, not for speed.
    MonteCarlo { playouts: u32 },
    /// [`crate::bots::IsmctsBot`] at this level (the same replay per decision, then a search
    /// of the level's budget on the slot's thread): a real adversary, at search speed.
    Ismcts { level: crate::bots::Level },
}

impl Opponent {
    /// `"random"`, `"monte_carlo"` (the bot's default playouts), `"monte_carlo:N"` or
    /// `"ismcts:<level>"` (`easy`, `normal`, `hard`).
    pub fn parse(name: &str) -> Result<Opponent, SetupError> {
        let unknown = || {
            SetupError::InvalidConfig(format!(
                "unknown batch opponent {name:?} (known: \"random\", \"monte_carlo\", \"monte_carlo:N\" with N playouts >= 1, \
                 \"ismcts:easy\", \"ismcts:normal\", \"ismcts:hard\")"
            ))
        };
        match name.split_once(':') {
            None if name == "random" => Ok(Opponent::Random),
            None if name == "monte_carlo" => Ok(Opponent::MonteCarlo { playouts: crate::bots::MonteCarloBot::new(0).playouts() }),
            Some(("monte_carlo", n)) => match n.parse::<u32>() {
                Ok(playouts) if playouts >= 1 && n.bytes().all(|b| b.is_ascii_digit()) => Ok(Opponent::MonteCarlo { playouts }),
                _ => Err(unknown()),
            },
            Some(("ismcts", level)) => crate::bots::Level::parse(level).map(|level| Opponent::Ismcts { level }).ok_or_else(unknown),
            _ => Err(unknown()),
        }
    }
}

/// The most envs a batch holds (65,536: some gigabytes of observations for the largest
/// game). Larger requests are `ConfigOutOfRange` (102), before anything is allocated; memory
/// for an allowed size that cannot be had is `OutOfMemory` (7), never an abort.
pub const MAX_NUM_ENVS: usize = 1 << 16;
/// The most threads a batch runs on (the threads actually started are at most `num_envs`).
pub const MAX_THREADS: usize = 1024;

/// How a batch is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchOptions {
    pub num_envs: usize,
    pub seed: u64,
    /// Threads for `step` and `reset` (1 = the calling thread only). The batch starts
    /// `threads - 1` worker threads once and joins them when it is dropped. Each call cuts the
    /// envs into contiguous parts, a region of them per thread (a thread done early takes
    /// parts left in the others'). After a call the workers stay awake for up to 250 µs
    /// (spinning, then yielding their cores) so that the next call starts at once, then sleep.
    pub threads: usize,
    /// Observe this seat instead of the player to act (multi-agent mode only).
    pub obs_seat: Option<Player>,
    /// Single-agent mode: the other seats are played by this opponent.
    pub opponent: Option<Opponent>,
    /// The learner's seat in single-agent mode.
    pub learner_seat: usize,
    /// Truncate an episode after this many steps.
    pub max_episode_steps: Option<u32>,
    pub obs_dtype: ObsDtype,
}

impl BatchOptions {
    pub fn new(num_envs: usize, seed: u64) -> Self {
        BatchOptions {
            num_envs,
            seed,
            threads: 1,
            obs_seat: None,
            opponent: None,
            learner_seat: 0,
            max_episode_steps: None,
            obs_dtype: ObsDtype::Compact,
        }
    }
}

/// The sizes of a batch's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchDims {
    pub num_envs: usize,
    pub num_players: usize,
    pub num_actions: usize,
    /// Elements of one observation: the compact length in bytes, or the float tensor's length.
    pub obs_len: usize,
    /// Width of a `legal_ids` row: the game's `max_legal_actions` (at most `num_actions`).
    pub max_legal: usize,
}

/// The observation buffer, in the batch's dtype.
#[derive(Debug)]
pub enum ObsBuf<'a> {
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
}

/// The optional legal-id outputs (see the module docs).
#[derive(Debug)]
pub struct LegalOut<'a> {
    /// `num_envs`: the number of legal actions of each env.
    pub count: &'a mut [u32],
    /// `num_envs × max_legal`: the legal ids of each env, ascending, from the row's start.
    pub ids: &'a mut [u32],
}

/// Caller-owned output buffers of one `reset` or `step` (shapes in the module docs).
#[derive(Debug)]
pub struct BatchOut<'a> {
    pub obs: ObsBuf<'a>,
    pub mask: &'a mut [u8],
    pub player: &'a mut [i32],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
    pub final_returns: &'a mut [f32],
    pub episode_len: &'a mut [u32],
    /// The legal ids, if the caller wants them.
    pub legal: Option<LegalOut<'a>>,
}

/// Owned buffers of the right sizes, for Rust callers and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchBuffers {
    pub obs_f32: Vec<f32>,
    pub obs_u8: Vec<u8>,
    pub mask: Vec<u8>,
    pub player: Vec<i32>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<u8>,
    pub truncated: Vec<u8>,
    pub final_returns: Vec<f32>,
    pub episode_len: Vec<u32>,
    pub legal_count: Vec<u32>,
    pub legal_ids: Vec<u32>,
}

impl BatchBuffers {
    pub fn new(d: BatchDims, dtype: ObsDtype) -> Self {
        let n = d.num_envs;
        let obs = n * d.obs_len;
        BatchBuffers {
            obs_f32: vec![0.0; if dtype == ObsDtype::F32 { obs } else { 0 }],
            obs_u8: vec![0; if dtype.bytes() { obs } else { 0 }],
            mask: vec![0; n * d.num_actions],
            player: vec![0; n],
            rewards: vec![0.0; n * d.num_players],
            terminated: vec![0; n],
            truncated: vec![0; n],
            final_returns: vec![0.0; n * d.num_players],
            episode_len: vec![0; n],
            legal_count: vec![0; n],
            legal_ids: vec![0; n * d.max_legal],
        }
    }

    pub fn out(&mut self) -> BatchOut<'_> {
        BatchOut {
            obs: if self.obs_u8.is_empty() && !self.obs_f32.is_empty() {
                ObsBuf::F32(&mut self.obs_f32)
            } else {
                ObsBuf::U8(&mut self.obs_u8)
            },
            mask: &mut self.mask,
            player: &mut self.player,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_returns: &mut self.final_returns,
            episode_len: &mut self.episode_len,
            legal: Some(LegalOut { count: &mut self.legal_count, ids: &mut self.legal_ids }),
        }
    }
}

/// Why a batch call failed. On failure the batch and the buffers' meaning are unchanged.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BatchError {
    /// A buffer (or the action array) has the wrong number of elements.
    #[error("{what} has {got} elements, the batch needs {expected}")]
    WrongLength { what: &'static str, expected: usize, got: usize },
    /// The observation buffer has the other dtype.
    #[error("observation buffer is {got}, the batch writes {expected}")]
    WrongDtype { expected: &'static str, got: &'static str },
    /// The action of one slot was rejected.
    #[error("env {slot}: {error}")]
    Rule { slot: usize, error: RuleError },
    /// A size out of its documented range (threads above [`MAX_THREADS`]).
    #[error("{0}")]
    OutOfRange(String),
}

impl BatchError {
    pub fn code(&self) -> ErrorCode {
        match self {
            BatchError::WrongLength { .. } | BatchError::WrongDtype { .. } => ErrorCode::InvalidArgument,
            BatchError::Rule { error, .. } => error.code(),
            BatchError::OutOfRange(_) => ErrorCode::ConfigOutOfRange,
        }
    }
}

/// A batch of one game and config, behind the object-safe interface. Built by
/// [`crate::DynGame::new_batch`].
pub trait DynBatch: Send {
    fn dims(&self) -> BatchDims;
    fn options(&self) -> &BatchOptions;
    /// Starts a new episode in every slot and writes the first observations (`rewards`,
    /// flags, `final_returns` and `episode_len` are zeroed). With `Some(seed)` the batch seed
    /// becomes `seed` and every slot's episode counter restarts at 0; with `None` each slot
    /// goes on to its next episode (the first `reset(None)` of a new batch gives episode 0).
    fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut<'_>) -> Result<(), BatchError>;
    /// Applies `actions[i]` to slot `i` (see the module docs).
    fn step(&mut self, actions: &[ActionId], out: &mut BatchOut<'_>) -> Result<(), BatchError>;
    /// Changes the number of worker threads (results do not depend on it); 0 or more than
    /// [`MAX_THREADS`] is an error and changes nothing.
    fn set_threads(&mut self, threads: usize) -> Result<(), BatchError>;
    /// Makes the next `step` write its mask buffer in full, as for a buffer it has not seen
    /// (for callers whose buffer may hold other contents at the address of the last one).
    fn forget_mask(&mut self);
}
