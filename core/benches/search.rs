//! IS-MCTS iterations per second for every registered game (release, one core; and two threads):
//! the search from five mid-game positions of a random game per game, each for
//! KASSEN_BENCH_SEARCH_MS milliseconds (default 1000); and the longest decision of the `normal`
//! level (one core) over the same positions; and, per level, the thinking time per decision and
//! per whole turn (median and worst) of a game played by that level in every seat from the
//! start, for its first KASSEN_BENCH_TURNS turns (default 12; `hard` a quarter of them), whose
//! goals are `easy` <= 1 s, `normal` <= 5 s and `hard` <= 20 s per turn. Prints a table and
//! writes the JSON to KASSEN_BENCH_SEARCH_OUT (default the workspace's bench-results/search.json,
//! like the other benches). KASSEN_BENCH_GAMES=id,id measures only those games.

use std::time::Duration;

use std::time::Instant;

use kassen_core::bots::{analyze, Bot, IsmctsBot, Level, SearchParams};
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

/// The median and worst of `v` (ms), rounded.
fn median_worst(v: &mut [f64]) -> serde_json::Value {
    v.sort_by(f64::total_cmp);
    let r = |x: f64| (x * 10.0).round() / 10.0;
    json!({"median": v.get(v.len() / 2).copied().map(r), "worst": v.last().copied().map(r), "n": v.len()})
}

/// Thinking time per decision and per whole turn (a seat's decisions until another seat is to
/// act; chance does not end a turn) of `level` in every seat, over the first `turns` turns of a
/// game from seed 5.
fn turn_times(id: &str, level: Level, turns: usize) -> serde_json::Value {
    let game = load_game(id, None).expect("a registered game");
    let mut bots: Vec<IsmctsBot> = (0..game.num_players()).map(|p| IsmctsBot::new(level, 11 + p as u64)).collect();
    let mut s = game.new_initial_state(5);
    let (mut decisions, mut done) = (Vec::new(), Vec::new());
    let mut turn: Option<(i32, f64)> = None;
    while !s.is_terminal() && done.len() < turns {
        let p = s.current_player();
        if p >= 0 && turn.is_some_and(|(q, _)| q != p) {
            done.push(turn.take().expect("a turn").1);
        }
        let clock = Instant::now();
        let a = bots[p as usize].choose(&s);
        let ms = clock.elapsed().as_secs_f64() * 1000.0;
        if s.legal_actions().len() > 1 {
            decisions.push(ms);
        }
        turn = Some((p, turn.map_or(0.0, |t| t.1) + ms));
        s.apply_in_place(a).expect("a bot's choice is legal");
    }
    json!({"decision_ms": median_worst(&mut decisions), "turn_ms": median_worst(&mut done)})
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
        let turns: usize = std::env::var("KASSEN_BENCH_TURNS").ok().and_then(|v| v.parse().ok()).unwrap_or(12);
        let mut levels = serde_json::Map::new();
        for level in [Level::Instant, Level::Easy, Level::Normal, Level::Hard] {
            let t = turn_times(id, level, if level == Level::Hard { turns.div_ceil(4) } else { turns });
            println!(
                "{:<24}   {:<8} per decision median {:>7} ms worst {:>7} ms; per turn median {:>7} ms worst {:>7} ms",
                "",
                level.name(),
                t["decision_ms"]["median"],
                t["decision_ms"]["worst"],
                t["turn_ms"]["median"],
                t["turn_ms"]["worst"]
            );
            levels.insert(level.name().into(), t);
        }
        rows.push(json!({"game": id, "iterations_per_sec_1_thread": rate[0], "iterations_per_sec_2_threads": rate[1],
            "normal_longest_decision_ms": normal_ms, "positions": states.len(), "ms_per_position": ms, "levels": levels}));
    }
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&out, serde_json::to_string_pretty(&json!({"rows": rows})).expect("json")).expect("write the results");
    println!("wrote {out}");
}
