//! The soak run over every registered game and covered config: random games on every core,
//! none may panic, reach a dead end or run past `max_game_length`; every 1000th seed also runs
//! the whole conformance suite.
//!
//! `cargo test` plays `KASSEN_SOAK_GAMES` games per config (default 5,000, so 10,000 or more
//! per game; `KASSEN_SOAK_ONLY=<id>` limits it to one game); `make soak` runs it in release with 1,000,000 games per config and writes
//! the figures to `KASSEN_SOAK_OUT` (JSON).

use kassen_core::testing::soak;
use kassen_core::{covered_configs, games, load_game};

#[test]
fn soak_every_game_and_config() {
    let per_config: u64 = std::env::var("KASSEN_SOAK_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000);
    let only = std::env::var("KASSEN_SOAK_ONLY").ok();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut rows = Vec::new();
    for (id, _) in games().into_iter().filter(|(id, _)| only.as_deref().is_none_or(|o| o == *id)) {
        let mut per_game = 0;
        for cfg in covered_configs(id) {
            let game = load_game(id, Some(&cfg)).unwrap();
            let r = soak(&game, per_config, threads, 1000).unwrap_or_else(|e| panic!("soak failed: {e}"));
            assert_eq!(r.games, per_config);
            assert!(r.conformance_games >= 1 && r.longest_game > 0 && r.max_legal_actions > 0);
            println!(
                "soak {id} {cfg}: {} games, {} actions, longest {}, at most {} legal actions, largest final view {} B, events {} B, {:.1} s",
                r.games, r.actions, r.longest_game, r.max_legal_actions, r.max_view_bytes, r.max_events_bytes, r.seconds
            );
            per_game += r.games;
            rows.push(serde_json::json!({"game": id, "config": cfg, "report": r}));
        }
        assert!(per_game >= 10_000.min(2 * per_config), "{id}: only {per_game} games");
    }
    if let Ok(path) = std::env::var("KASSEN_SOAK_OUT") {
        std::fs::write(&path, serde_json::to_string_pretty(&rows).unwrap()).unwrap();
        println!("soak: figures written to {path}");
    }
}
