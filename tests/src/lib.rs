//! Shared helpers of the cross-surface tests: the golden playthrough format, its generator,
//! and one replay routine run against two surfaces (the core API and the C ABI).
//!
//! Golden file format (`tests/golden/<game>_p<N>_seed<S>.json`, also replayed by pytest):
//! ```json
//! {"game": id, "config": {...}, "seed": u64,
//!  "player_actions": [ids applied by players; chance resolved automatically],
//!  "history": [full action log incl. chance outcomes],
//!  "final": {"returns": [...], "current_player": -4, "hash": "<u64 as decimal string>",
//!            "views": {"-1": view, "0": view, ...}, "state_json": <to_json value>,
//!            "events_since": {"-1": {"from": k, "events": [the seat's events from its k-th on,
//!                            k = half their number]}, "0": ..., ...}},
//!  "checkpoints": [{"step": i, "current_player": p, "legal_actions": [...],
//!                   "view": view of p} every 25 player actions (step = index into
//!                   player_actions of the action about to be chosen); "view" only every
//!                   `golden::spacing(info).view` actions (every checkpoint, or every
//!                   150 actions for games whose views exceed 12 kB)]}
//! ```
//!
//! One file per registered game, golden config (`golden::configs`) and seed 1, 2, 3; the
//! number of players in the name is the config's.

pub mod capi;
pub mod golden;
pub mod json;
