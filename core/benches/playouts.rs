//! Random playouts of every registered game and player count through the erased interface,
//! on one core (no threads). `cargo bench -p kassen-core --bench playouts`.
//!
//! Two passes per configuration:
//! 1. throughput: uniformly random games, back to back, for `KASSEN_BENCH_SECONDS` (default 1)
//!    seconds: each step asks `is_terminal`, fills the legal actions and applies one. Steps are
//!    player actions plus the chance outcomes the engine resolves on its own (both totals are
//!    reported); games/s and the mean time of a full game follow;
//! 2. per call: the actions of 200 seeded random games are recorded, then replayed; at every
//!    state `current_player`, `legal_actions_into` and `observation_tensor_into` are timed over
//!    a block of repeated calls, and `apply_in_place` over each whole game.
//!
//! Prints a table and writes JSON to `KASSEN_BENCH_OUT` (default `bench-results/rust.json` at
//! the workspace root).
//! The C bench (bench/c/bench.c) measures the same two passes through the C ABI.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kassen_core::rng::Rng;
use kassen_core::{games, load_game, ActionId, GameHandle, StateHandle};
use serde_json::{json, Value};

/// Repetitions per state in the per-call pass (cheap calls get more, so timer cost vanishes).
const REPS_CURRENT_PLAYER: u32 = 256;
const REPS_LEGAL: u32 = 16;
const REPS_TENSOR: u32 = 4;
/// Recorded games replayed in the per-call pass.
const RECORDED_GAMES: u64 = 200;

struct Throughput {
    games: u64,
    player_steps: u64,
    total_steps: u64,
    legal_actions_seen: u64,
    seconds: f64,
}

fn throughput(game: &GameHandle, budget: Duration) -> Throughput {
    let mut rng = Rng::from_seed(0xbe9c);
    let mut legal: Vec<ActionId> = Vec::with_capacity(256);
    let (mut games, mut player_steps, mut total_steps, mut legal_seen) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut seed = 0u64;
    loop {
        let mut s = game.new_initial_state(seed);
        seed += 1;
        while !s.is_terminal() {
            legal.clear();
            s.legal_actions_into(&mut legal);
            legal_seen += legal.len() as u64;
            let a = legal[rng.below(legal.len() as u32) as usize];
            s.apply_in_place(a).expect("legal actions apply");
            player_steps += 1;
        }
        total_steps += s.history().len() as u64;
        games += 1;
        black_box(&s);
        if games % 64 == 0 && start.elapsed() >= budget {
            break;
        }
    }
    Throughput { games, player_steps, total_steps, legal_actions_seen: legal_seen, seconds: start.elapsed().as_secs_f64() }
}

struct PerCall {
    current_player: f64,
    legal_actions_into: f64,
    apply_in_place: f64,
    observation_tensor_into: f64,
    states: u64,
}

fn per_call(game: &GameHandle) -> PerCall {
    let recorded: Vec<(u64, Vec<ActionId>)> =
        (0..RECORDED_GAMES).map(|g| (1_000_000 + g, kassen_core::testing::random_playout(&**game, 1_000_000 + g).1)).collect();
    let mut legal: Vec<ActionId> = Vec::with_capacity(256);
    let mut tensor = vec![0.0f32; game.info().observation_len()];
    let (mut t_cp, mut t_legal, mut t_apply, mut t_tensor) = (Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut states = 0u64;
    let mut applies = 0u64;

    // apply_in_place: whole games, nothing else in the timed loop.
    for (seed, actions) in &recorded {
        let mut s = game.new_initial_state(*seed);
        let t = Instant::now();
        for &a in actions {
            black_box(&mut s).apply_in_place(a).expect("recorded actions apply");
        }
        t_apply += t.elapsed();
        applies += actions.len() as u64;
        black_box(&s);
    }

    // The queries: blocks of repeated calls at every state of every recorded game.
    for (seed, actions) in &recorded {
        let mut s: StateHandle = game.new_initial_state(*seed);
        for &a in actions {
            let seat = s.current_player();
            let t = Instant::now();
            for _ in 0..REPS_CURRENT_PLAYER {
                black_box(black_box(&s).current_player());
            }
            t_cp += t.elapsed();
            let t = Instant::now();
            for _ in 0..REPS_LEGAL {
                legal.clear();
                black_box(&s).legal_actions_into(&mut legal);
                black_box(&legal);
            }
            t_legal += t.elapsed();
            let t = Instant::now();
            for _ in 0..REPS_TENSOR {
                black_box(&s).observation_tensor_into(seat, &mut tensor).expect("a seat observes");
                black_box(&tensor);
            }
            t_tensor += t.elapsed();
            s.apply_in_place(a).expect("recorded actions apply");
            states += 1;
        }
    }
    let ns = |d: Duration, calls: u64| d.as_nanos() as f64 / calls.max(1) as f64;
    PerCall {
        current_player: ns(t_cp, states * REPS_CURRENT_PLAYER as u64),
        legal_actions_into: ns(t_legal, states * REPS_LEGAL as u64),
        apply_in_place: ns(t_apply, applies),
        observation_tensor_into: ns(t_tensor, states * REPS_TENSOR as u64),
        states,
    }
}

fn main() {
    let budget = std::env::var("KASSEN_BENCH_SECONDS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(1.0);
    let out_path =
        std::env::var("KASSEN_BENCH_OUT").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../bench-results/rust.json").into());
    let mut rows = Vec::new();
    println!("kassen {} random playouts, Rust, one core ({budget} s per configuration)", kassen_core::VERSION);
    println!(
        "{:<18} {:>12} {:>12} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8}",
        "game", "steps/s", "player st/s", "games/s", "us/game", "cur ns", "legal ns", "apply ns", "obs ns"
    );
    for (id, _) in games() {
        let info = load_game(id, None).expect("default config loads").info().clone();
        for players in info.min_players..=info.max_players {
            let config = (info.min_players < info.max_players).then(|| json!({ "players": players }));
            let game = load_game(id, config.as_ref()).expect("every supported player count loads");
            let tp = throughput(&game, Duration::from_secs_f64(budget));
            let pc = per_call(&game);
            let label = format!("{id} {players}p");
            let steps_per_s = tp.total_steps as f64 / tp.seconds;
            let player_steps_per_s = tp.player_steps as f64 / tp.seconds;
            let games_per_s = tp.games as f64 / tp.seconds;
            let us_per_game = 1e6 * tp.seconds / tp.games as f64;
            println!(
                "{label:<18} {steps_per_s:>12.0} {player_steps_per_s:>12.0} {games_per_s:>10.0} {us_per_game:>10.2} {:>8.1} {:>8.1} {:>8.1} {:>8.1}",
                pc.current_player, pc.legal_actions_into, pc.apply_in_place, pc.observation_tensor_into
            );
            rows.push(json!({
                "game": id,
                "players": players,
                "config": config.unwrap_or(json!({})),
                "games": tp.games,
                "seconds": tp.seconds,
                "player_steps": tp.player_steps,
                "chance_steps": tp.total_steps - tp.player_steps,
                "total_steps": tp.total_steps,
                "steps_per_sec": steps_per_s,
                "player_steps_per_sec": player_steps_per_s,
                "games_per_sec": games_per_s,
                "us_per_game": us_per_game,
                "mean_player_steps_per_game": tp.player_steps as f64 / tp.games as f64,
                "mean_legal_actions": tp.legal_actions_seen as f64 / tp.player_steps.max(1) as f64,
                "ns_per_call": {
                    "current_player": pc.current_player,
                    "legal_actions": pc.legal_actions_into,
                    "apply_action": pc.apply_in_place,
                    "observation_tensor": pc.observation_tensor_into,
                },
                "per_call_states": pc.states,
            }));
        }
    }
    let report: Value = json!({
        "surface": "rust",
        "kassen_version": kassen_core::VERSION,
        "threads": 1,
        "seconds_per_config": budget,
        "method": "steps = player actions + auto-resolved chance outcomes; throughput loop = is_terminal + legal_actions_into + uniform pick + apply_in_place; per-call ns from recorded random games (blocks of repeated calls per state; apply_in_place over whole games)",
        "results": rows,
    });
    if let Some(dir) = std::path::Path::new(&out_path).parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    std::fs::write(&out_path, serde_json::to_string_pretty(&report).expect("json prints") + "\n").expect("write the bench json");
    let shown = std::fs::canonicalize(&out_path).map(|p| p.display().to_string()).unwrap_or(out_path);
    println!("wrote {shown}");
}
