//! Buffer sizes for frontends ([`crate::GameInfo`]), with a 25% margin over what
//! `KASSEN_SOAK_ONLY=three_kingdoms_redux KASSEN_SOAK_GAMES_PER_CONFIG=20000 cargo test --release
//! -p kassen-core --test soak` saw (every covered config: at most 22 legal actions; 11,639 B
//! views at every step and 71,682 B of events at the end of the 20 sampled games per config).
//! The game has not had a `make soak` run (1,000,000 games per config) yet.
//! `core/tests/soak.rs` fails if a soak run exceeds them.

use crate::game::BufferSizes;

pub const BUFFER_SIZES: BufferSizes = BufferSizes { max_legal_actions: 28, max_view_bytes: 14_549, max_events_bytes: 89_603 };
