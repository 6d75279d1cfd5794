//! The cost of a view for a frontend, on one core: `view_json` (the envelope and the game's
//! body as JSON text, what `kassen_state_view_json` and Python `view_json` return) and the
//! event history as JSON text, for every registered game and covered configuration.
//! `cargo bench -p kassen-core --bench views`.
//!
//! States are sampled along seeded random games (up to `SAMPLED_STATES` per configuration,
//! evenly spread over each game). Each pass over the sample times, at every state, the view of
//! a seat (the one to act, or seat 0 when no seat is to act), the spectator's view and that
//! seat's `events_json`; passes repeat for `KASSEN_BENCH_SECONDS` (default 1) seconds, after
//! one untimed pass (the first view of a state made without views on pays a replay of its
//! history once, to describe the last action; a frontend stepping with views pays it never).
//! The mean microseconds per call and bytes per result are reported.
//!
//! Prints a table and writes JSON to `KASSEN_BENCH_VIEWS_OUT` (default
//! `bench-results/views.json` at the workspace root); `bench/summarize.py` checks the goal.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kassen_core::{covered_configs, games, load_game, Player, StateHandle, SPECTATOR};
use serde_json::{json, Value};

/// Random games recorded per configuration.
const RECORDED_GAMES: u64 = 8;
/// States kept per recorded game (evenly spaced along it, the last state included).
const STATES_PER_GAME: usize = 40;

/// Mean cost and size of one kind of call over the sample.
#[derive(Default)]
struct Cost {
    time: Duration,
    calls: u64,
    bytes: u64,
}

impl Cost {
    fn time(&mut self, f: impl FnOnce() -> String) {
        let t = Instant::now();
        let text = black_box(f());
        self.time += t.elapsed();
        self.calls += 1;
        self.bytes += text.len() as u64;
    }

    fn us(&self) -> f64 {
        self.time.as_secs_f64() * 1e6 / self.calls.max(1) as f64
    }

    fn mean_bytes(&self) -> f64 {
        self.bytes as f64 / self.calls.max(1) as f64
    }

    fn json(&self) -> Value {
        json!({"us_per_call": self.us(), "mean_bytes": self.mean_bytes(), "calls": self.calls})
    }
}

/// States along `RECORDED_GAMES` random games of `game`, with the seat whose view is timed.
fn sample(game: &kassen_core::GameHandle) -> Vec<(StateHandle, Player)> {
    let mut out = Vec::new();
    for g in 0..RECORDED_GAMES {
        let (_, actions) = kassen_core::testing::random_playout(&**game, 7_000 + g);
        let stride = (actions.len() / STATES_PER_GAME).max(1);
        let mut s = game.new_initial_state(7_000 + g);
        for (i, &a) in actions.iter().enumerate() {
            if i % stride == 0 {
                out.push(s.clone());
            }
            s.apply_in_place(a).expect("recorded actions apply");
        }
        out.push(s);
    }
    out.into_iter()
        .map(|s| {
            let seat = s.current_player().max(0);
            (s, seat)
        })
        .collect()
}

fn main() {
    let budget = std::env::var("KASSEN_BENCH_SECONDS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(1.0);
    let out_path = std::env::var("KASSEN_BENCH_VIEWS_OUT")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../bench-results/views.json").into());
    println!("kassen {} view and event JSON cost, Rust, one core ({budget} s per configuration)", kassen_core::VERSION);
    println!(
        "{:<22} {:<40} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "game", "config", "states", "seat us", "seat B", "spect us", "spect B", "events us", "events B"
    );
    let mut rows = Vec::new();
    for (id, _) in games() {
        for config in covered_configs(id) {
            let game = load_game(id, Some(&config)).expect("covered configs load");
            let states = sample(&game);
            // Warm-up, not timed: the first view of a state that was not stepped to through the
            // engine with views on replays its history once, to describe the last action.
            for (s, p) in &states {
                black_box(s.view_json(*p).expect("a seat views"));
            }
            let (mut seat, mut spectator, mut events) = (Cost::default(), Cost::default(), Cost::default());
            let start = Instant::now();
            while start.elapsed().as_secs_f64() < budget || seat.calls == 0 {
                for (s, p) in &states {
                    seat.time(|| s.view_json(*p).expect("a seat views"));
                    spectator.time(|| s.view_json(SPECTATOR).expect("the spectator views"));
                    events.time(|| kassen_core::events::to_json(&s.events(*p).expect("a seat has events")));
                }
            }
            println!(
                "{id:<22} {:<40} {:>7} {:>9.2} {:>9.0} {:>9.2} {:>9.0} {:>9.2} {:>9.0}",
                config.to_string(),
                states.len(),
                seat.us(),
                seat.mean_bytes(),
                spectator.us(),
                spectator.mean_bytes(),
                events.us(),
                events.mean_bytes()
            );
            rows.push(json!({
                "game": id,
                "config": config,
                "states": states.len(),
                "view_json_seat": seat.json(),
                "view_json_spectator": spectator.json(),
                "events_json_seat": events.json(),
            }));
        }
    }
    let report = json!({
        "surface": "rust",
        "kassen_version": kassen_core::VERSION,
        "threads": 1,
        "seconds_per_config": budget,
        "method": "states sampled along seeded random games; per state: view_json of the seat to act (seat 0 at chance and terminal states), of the spectator, and kassen_core::events::to_json of that seat's events; mean over repeated passes",
        "results": rows,
    });
    if let Some(dir) = std::path::Path::new(&out_path).parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).expect("create the output directory");
    }
    std::fs::write(&out_path, serde_json::to_string_pretty(&report).expect("json prints") + "\n").expect("write the bench json");
    println!("wrote {out_path}");
}
