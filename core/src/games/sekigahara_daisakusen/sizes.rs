//! Buffer sizes for frontends ([`crate::GameInfo`]), with a 25% margin over what
//! `KASSEN_SOAK_GAMES=400 cargo test -p kassen-core --test soak` saw (every covered config:
//! at most 51 legal actions, 15,968 B views at every step of the sampled games, 67,668 B of
//! events). The game has not had a `make soak` run yet. `core/tests/soak.rs` fails if a soak
//! run exceeds them.

use crate::game::BufferSizes;

pub const BUFFER_SIZES: BufferSizes = BufferSizes { max_legal_actions: 64, max_view_bytes: 19_960, max_events_bytes: 84_585 };
