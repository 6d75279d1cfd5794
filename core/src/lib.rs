//! kassen-core: the rules of historical strategy board games as pure state transitions.
//!
//! Two layers:
//! - [`game::Game`]: the typed trait each game implements (typed state, fast in-place step);
//! - [`engine`]: the object-safe layer ([`engine::DynGame`], [`engine::DynState`]) and the one
//!   registry table of games, used by the C ABI and the Python module.
#![forbid(unsafe_code)]

pub mod batch;
pub mod bits;
pub mod bots;
pub mod compact;
pub mod engine;
pub mod error;
pub mod events;
pub mod game;
pub mod games;
pub mod hex;
pub mod input;
pub mod json_text;
pub mod layout;
pub mod named;
pub mod quantize;
pub mod render;
pub mod rng;
pub mod testing;
pub mod text;
pub mod view;

pub use engine::{covered_configs, games, load_game, DynGame, DynState, GameHandle, StateHandle};
pub use error::{Error, ErrorCode, LoadError, RuleError, SetupError};
pub use events::{Audience, Event, Events};
pub use game::{ActionId, BufferSizes, ChanceBlock, Game, GameInfo, Player, Utility, UtilityKind, CHANCE, SPECTATOR, TERMINAL};

/// The README's Rust example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// The crate version, which is the version of the whole workspace.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
