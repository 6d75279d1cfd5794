//! The text face for language-model agents (docs/text.md), per registered game and covered
//! configuration: the length of a seat's text observation in tokens (characters / 4) at the
//! start, the middle and the end of seeded random games (the seat to act, the last seat to
//! act at the end), and the time to write one (`text_observation` of the seat to act at every
//! decision of live games, as an agent's state is asked) and to read a move back from its string
//! (`parse_move`); beside them the first text of a fresh copy (a loaded save), which replays the
//! game once to build its event log.
//! `cargo bench -p kassen-core --bench text`.
//!
//! Prints a table and writes JSON to `KASSEN_BENCH_TEXT_OUT` (default
//! `bench-results/text.json` at the workspace root). Goals: a typical decision at most 3,000
//! tokens, a text at most 100 µs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kassen_core::{covered_configs, games, load_game, Player, StateHandle};
use serde_json::{json, Value};

/// Random games per configuration.
const GAMES: u64 = 6;

fn tokens(text: &str) -> f64 {
    text.chars().count() as f64 / 4.0
}

/// The states of one seeded random game where a seat is to act, with that seat, and the end.
fn play(game: &kassen_core::GameHandle, seed: u64) -> (Vec<(StateHandle, Player)>, StateHandle, Player) {
    let mut rng = kassen_core::rng::Rng::from_seed(seed ^ 0x7e47);
    let mut s = game.new_initial_state(seed);
    let mut out = Vec::new();
    let mut last = 0;
    while !s.is_terminal() {
        let cp = s.current_player();
        if cp >= 0 {
            out.push((s.clone(), cp));
            last = cp;
        }
        let legal = s.legal_actions();
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("legal");
    }
    (out, s, last)
}

/// (text µs, parse µs, first text on a copy µs) over seeded random games played until `budget`
/// is spent: at every decision, `text_observation` of the seat to act on the live state (the
/// state an agent holds, whose event log extends one step at a time) and `parse_move` of one
/// legal move's string; and, once per game at its tenth decision, the first text of a fresh
/// copy of the state (which replays the game to build its own event log).
fn timings(game: &kassen_core::GameHandle, budget: Duration) -> (f64, f64, f64) {
    let (mut text, mut texts, mut parse, mut parses, mut first, mut firsts) =
        (Duration::ZERO, 0u32, Duration::ZERO, 0u32, Duration::ZERO, 0u32);
    let begun = Instant::now();
    let mut seed = 1000;
    while begun.elapsed() < budget || firsts == 0 {
        let mut rng = kassen_core::rng::Rng::from_seed(seed ^ 0x7e47);
        let mut s = game.new_initial_state(seed);
        seed += 1;
        let mut decisions = 0;
        while !s.is_terminal() {
            let p = s.current_player();
            if p >= 0 {
                let t = Instant::now();
                black_box(s.text_observation(p).expect("text"));
                text += t.elapsed();
                texts += 1;
                let legal = s.legal_actions();
                let name = s.action_to_string(legal[legal.len() / 2]).expect("string");
                let t = Instant::now();
                black_box(s.parse_move(p, &name).expect("parses"));
                parse += t.elapsed();
                parses += 1;
                decisions += 1;
                if decisions == 10 {
                    let copy = StateHandle::from_json(&s.to_json_string()).expect("a save loads");
                    let t = Instant::now();
                    black_box(copy.text_observation(p).expect("text"));
                    first += t.elapsed();
                    firsts += 1;
                }
            }
            let legal = s.legal_actions();
            s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("legal");
        }
    }
    let us = |d: Duration, n: u32| d.as_secs_f64() * 1e6 / f64::from(n.max(1));
    (us(text, texts), us(parse, parses), us(first, firsts))
}

fn main() {
    let seconds: f64 = std::env::var("KASSEN_BENCH_SECONDS").ok().and_then(|x| x.parse().ok()).unwrap_or(1.0);
    let mut rows = Vec::new();
    println!(
        "{:<24} {:<44} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>11}",
        "game", "config", "start", "middle", "end", "mean", "max", "text µs", "parse µs", "copy 1st µs"
    );
    for (id, _) in games() {
        for config in covered_configs(id) {
            let game = load_game(id, Some(&config)).expect("covered config loads");
            let (mut start, mut middle, mut end) = (0.0, 0.0, 0.0);
            let mut all = Vec::new();
            for seed in 0..GAMES {
                let (states, last, seat) = play(&game, seed);
                let len = |s: &StateHandle, p| tokens(&s.text_observation(p).expect("text"));
                start += len(&states[0].0, states[0].1);
                let (m, mp) = &states[states.len() / 2];
                middle += len(m, *mp);
                end += len(&last, seat);
                all.extend(states);
            }
            let n = GAMES as f64;
            let sizes: Vec<f64> = all.iter().map(|(s, p)| tokens(&s.text_observation(*p).expect("text"))).collect();
            let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
            let max = sizes.iter().copied().fold(0.0, f64::max);
            let (text_us, parse_us, first_us) = timings(&game, Duration::from_secs_f64(seconds));
            let cfg = config.to_string();
            println!(
                "{id:<24} {cfg:<44} {:>8.0} {:>8.0} {:>8.0} {mean:>8.0} {max:>9.0} {text_us:>9.1} {parse_us:>9.1} {first_us:>11.1}",
                start / n,
                middle / n,
                end / n
            );
            rows.push(json!({
                "game": id, "config": config, "tokens": {"start": start / n, "middle": middle / n, "end": end / n, "mean": mean, "max": max},
                "decisions": sizes.len(), "text_us": text_us, "parse_us": parse_us, "first_text_on_a_copy_us": first_us,
            }));
        }
    }
    let out =
        std::env::var("KASSEN_BENCH_TEXT_OUT").unwrap_or_else(|_| format!("{}/../bench-results/text.json", env!("CARGO_MANIFEST_DIR")));
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let doc: Value = json!({"bench": "text", "rows": rows});
    std::fs::write(&out, serde_json::to_string_pretty(&doc).expect("json")).expect("writes the results");
    println!("wrote {out}");
}
