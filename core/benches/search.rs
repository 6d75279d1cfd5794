//! IS-MCTS iterations per second for every registered game (release, one core; and two threads):
//! the search from five mid-game positions of a random game per game, each for
//! KASSEN_BENCH_SEARCH_MS milliseconds (default 1000); and the longest decision of the `normal`
//! level (one core) over the same positions, whose goal is under a second. Prints a table and
//! writes the JSON to KASSEN_BENCH_SEARCH_OUT (default the workspace's bench-results/search.json,
//! like the other benches). KASSEN_BENCH_GAMES=id,id measures only those games.

use std::time::Duration;

use kassen_core::bots::{analyze, Level, SearchParams};
use kassen_core::rng::Rng;
use kassen_core::{games, load_game, StateHandle};
use serde_json::json;

/// Five positions spread over a random game, each with two or more legal actions.
fn positions(id: &str) -> Vec<StateHandle> {
    let game = load_game(id, None).expect("a registered game");
    let mut s = game.new_initial_state(17);
    let mut rng = Rng::from_seed(3);
    let mut all = Vec::new();
    while !s.is_terminal() {
        let legal = s.legal_actions();
        if legal.len() > 1 {
            all.push(s.clone());
        }
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("legal");
    }
    (0..5).map(|k| all[(k * 2 + 1) * all.len() / 10].clone()).collect()
}

fn main() {
    let ms: u64 = std::env::var("KASSEN_BENCH_SEARCH_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let out = std::env::var("KASSEN_BENCH_SEARCH_OUT")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../bench-results/search.json").into());
    let mut rows = Vec::new();
    println!("{:<24} {:>16} {:>16} {:>8}", "game", "iter/s 1 thread", "iter/s 2 threads", "ratio");
    // KASSEN_BENCH_GAMES (comma-separated ids) measures only those games, as in the batch bench.
    let only = std::env::var("KASSEN_BENCH_GAMES").ok();
    let wanted = |id: &str| only.as_deref().is_none_or(|list| list.split(',').any(|g| g == id));
    for (id, _) in games().into_iter().filter(|(id, _)| wanted(id)) {
        let states = positions(id);
        let mut rate = [0.0f64; 2];
        for (t, threads) in [1u32, 2].into_iter().enumerate() {
            let (mut its, mut secs) = (0u64, 0.0f64);
            for (k, s) in states.iter().enumerate() {
                let p = SearchParams { iterations: None, time: Some(Duration::from_millis(ms)), threads, ..Level::Hard.params(k as u64) };
                let d = analyze(s, &p).expect("a decision");
                its += d.iterations;
                secs += d.elapsed_ms / 1000.0;
            }
            rate[t] = its as f64 / secs;
        }
        let normal_ms = states.iter().map(|s| analyze(s, &Level::Normal.params(1)).expect("a decision").elapsed_ms).fold(0.0f64, f64::max);
        println!("{id:<24} {:>16.0} {:>16.0} {:>7.2}x   normal: longest decision {normal_ms:.0} ms", rate[0], rate[1], rate[1] / rate[0]);
        rows.push(json!({"game": id, "iterations_per_sec_1_thread": rate[0], "iterations_per_sec_2_threads": rate[1],
            "normal_longest_decision_ms": normal_ms, "positions": states.len(), "ms_per_position": ms}));
    }
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&out, serde_json::to_string_pretty(&json!({"rows": rows})).expect("json")).expect("write the results");
    println!("wrote {out}");
}
