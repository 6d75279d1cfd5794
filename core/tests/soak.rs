//! The soak run over every registered game and covered config: random games on every core,
//! none may panic, reach a dead end or run past `max_game_length`; every 1000th seed (at most
//! about 100 seeds per config) also runs the whole conformance suite.
//!
//! `cargo test` plays 10,000 games per game, spread over its covered configs
//! (`KASSEN_SOAK_GAMES` sets the number per game); `make soak` runs it in release with
//! `KASSEN_SOAK_GAMES_PER_CONFIG=1000000` and writes the figures to `KASSEN_SOAK_OUT` (JSON).
//! `KASSEN_SOAK_ONLY=<id>` limits the run to one game.

use kassen_core::testing::soak;
use kassen_core::{covered_configs, games, load_game};

fn env_u64(key: &str) -> Option<u64> {
    std::env::var(key).ok().and_then(|v| v.parse().ok())
}

#[test]
fn soak_every_game_and_config() {
    let per_game = env_u64("KASSEN_SOAK_GAMES").unwrap_or(10_000);
    let per_config_fixed = env_u64("KASSEN_SOAK_GAMES_PER_CONFIG");
    let only = std::env::var("KASSEN_SOAK_ONLY").ok();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut rows = Vec::new();
    for (id, _) in games().into_iter().filter(|(id, _)| only.as_deref().is_none_or(|o| o == *id)) {
        let configs = covered_configs(id);
        let per_config = per_config_fixed.unwrap_or_else(|| per_game.div_ceil(configs.len() as u64));
        let mut played = 0;
        for cfg in configs {
            let game = load_game(id, Some(&cfg)).unwrap();
            // The whole conformance suite on every 1000th seed, at most about 100 per config.
            let every = (per_config / 100).max(1000);
            let r = soak(&game, per_config, threads, every).unwrap_or_else(|e| panic!("soak failed: {e}"));
            assert_eq!(r.games, per_config);
            assert!(r.conformance_games >= 1 && r.longest_game > 0 && r.max_legal_actions > 0);
            println!(
                "soak {id} {cfg}: {} games, {} actions, longest {}, at most {} legal actions, largest view {} B, events {} B, {:.1} s",
                r.games, r.actions, r.longest_game, r.max_legal_actions, r.max_view_bytes, r.max_events_bytes, r.seconds
            );
            // The buffer sizes a frontend reads from the game info hold for every soak game.
            let info = game.info();
            assert!(
                r.max_legal_actions <= info.buffer_sizes.max_legal_actions
                    && r.max_view_bytes <= info.buffer_sizes.max_view_bytes as u64
                    && r.max_events_bytes <= info.buffer_sizes.max_events_bytes as u64,
                "{id} {cfg}: the soak run exceeds the sizes in the game info ({} legal actions, {} B view, {} B events)",
                info.buffer_sizes.max_legal_actions,
                info.buffer_sizes.max_view_bytes,
                info.buffer_sizes.max_events_bytes
            );
            played += r.games;
            rows.push(serde_json::json!({"game": id, "config": cfg, "report": r}));
        }
        assert!(played >= per_game.min(per_config_fixed.unwrap_or(u64::MAX)), "{id}: only {played} games");
    }
    if let Ok(path) = std::env::var("KASSEN_SOAK_OUT") {
        std::fs::write(&path, serde_json::to_string_pretty(&rows).unwrap()).unwrap();
        println!("soak: figures written to {path}");
    }
}
