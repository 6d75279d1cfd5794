//! Buffer sizes for frontends ([`crate::GameInfo`]), with a 25% margin over what soak runs
//! saw. Legal actions and event lists: `make soak` (1,000,000 games per config: at most 34
//! legal actions, 75,278 B of events). Views: the larger of `make soak`'s final views
//! (20,621 B) plus 600 B for the view envelope, and the views at every step of the sampled
//! games of `KASSEN_SOAK_GAMES=400 cargo test -p kassen-core --test soak` (20,608 B).
//! `core/tests/soak.rs` fails if a soak run exceeds them.

use crate::game::BufferSizes;

pub const BUFFER_SIZES: BufferSizes = BufferSizes { max_legal_actions: 43, max_view_bytes: 26_527, max_events_bytes: 94_098 };
