//! Buffer sizes for frontends ([`crate::GameInfo`]), with a 25% margin over what
//! `KASSEN_SOAK_GAMES=400 cargo test -p kassen-core --test soak` saw (every covered config:
//! at most 22 legal actions, 11,398 B views at every step of the sampled games, 69,178 B of
//! events). The game has not had a `make soak` run yet. `core/tests/soak.rs` fails if a soak
//! run exceeds them.

use crate::game::BufferSizes;

pub const BUFFER_SIZES: BufferSizes = BufferSizes { max_legal_actions: 28, max_view_bytes: 14_248, max_events_bytes: 86_473 };
