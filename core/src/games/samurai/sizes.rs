//! Buffer sizes for frontends ([`crate::GameInfo`]), per player count, with a 25% margin over
//! what soak runs saw. Legal actions and event lists: `make soak` (1,000,000 games per
//! config: 178, 257 and 336 legal actions; 16,452, 23,334 and 29,481 B of events for 2, 3
//! and 4 players). Views: the larger of `make soak`'s final views (4,912, 7,042 and 8,991 B)
//! plus 600 B for the view envelope, and the views at every step of the sampled games of
//! `KASSEN_SOAK_GAMES=400 cargo test -p kassen-core --test soak` (4,961, 7,071 and 8,117 B).
//! `core/tests/soak.rs` fails if a soak run exceeds them.

use crate::game::BufferSizes;

pub fn buffer_sizes(players: usize) -> BufferSizes {
    match players {
        2 => BufferSizes { max_legal_actions: 223, max_view_bytes: 6_890, max_events_bytes: 20_565 },
        3 => BufferSizes { max_legal_actions: 322, max_view_bytes: 9_553, max_events_bytes: 29_168 },
        _ => BufferSizes { max_legal_actions: 420, max_view_bytes: 11_989, max_events_bytes: 36_852 },
    }
}
