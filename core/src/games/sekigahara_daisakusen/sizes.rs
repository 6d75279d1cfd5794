//! Buffer sizes for frontends ([`crate::GameInfo`]), with a 25% margin over what
//! `KASSEN_SOAK_ONLY=sekigahara_daisakusen KASSEN_SOAK_GAMES_PER_CONFIG=20000 cargo test
//! --release -p kassen-core --test soak` saw (every covered config: at most 61 legal actions;
//! 15,990 B views at every step and 67,966 B of events at the end of the 20 sampled games per
//! config). The game has not had a `make soak` run (1,000,000 games per config) yet.
//! `core/tests/soak.rs` fails if a soak run exceeds them.

use crate::game::BufferSizes;

pub const BUFFER_SIZES: BufferSizes = BufferSizes { max_legal_actions: 77, max_view_bytes: 19_988, max_events_bytes: 84_958 };
