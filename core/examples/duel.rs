//! Plays games between two bots named by spec (see `kassen_core::bots::from_spec`) and prints
//! one JSON line per game and a summary: the quick tool behind bot tuning and the arena.
//!
//! `cargo run --release -p kassen-core --example duel -- GAME CONFIG_JSON SPEC_A SPEC_B GAMES [FIRST_GAME] [PARALLEL]`
//!
//! A spec is a bot's name (`ismcts:2000`) or an IS-MCTS bot's search parameters as a JSON
//! object (`{"iterations": 2000, "exploration": 0.5}`).
//!
//! Game `k` (from FIRST_GAME, default 0) is seeded `k`; bot A takes seat `k % players` and bot B
//! every other seat (seats alternate). A's score in a game is the mean, over B's seats, of 1 if
//! A's return is higher, 1/2 if equal, 0 if lower: a win or loss in a two-seat game, a pairwise
//! comparison in a larger one. With `DUEL_FIELDS=a,b` each line also shows those fields of the
//! final state's snapshot (the game's typed state in its save). With `DUEL_SEAT=s` bot A
//! keeps seat `s` in every game (to measure one side of an asymmetric game). With
//! `DUEL_CONFIG_A=JSON` bot A searches the same games under another config of the same game
//! (the same rules with other bot knowledge): it decides on a twin state of that game that
//! takes the same actions.
//!
//! Each line gives both bots' thinking times per decision and per whole turn (median, worst),
//! their iterations searched and the root visits their searches started with (kept from the
//! seat's last tree, `+reuse` bots); the summary gives both per turn.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use kassen_core::bots::ismcts::{IsmctsBot, SearchParams};
use kassen_core::bots::{from_spec, Bot};
use kassen_core::load_game;
use serde_json::{json, Value};

/// A bot by spec, or an IS-MCTS bot by its search parameters as a JSON object
/// (`{"iterations": 2000, "exploration": 0.5}`, see `SearchParams::from_json`).
fn bot(spec: &str, seed: u64) -> Box<dyn Bot + Send> {
    if spec.starts_with('{') {
        let params = SearchParams::from_json_text(spec, seed).expect("search parameters");
        return Box::new(IsmctsBot::with_params(spec.to_string(), params));
    }
    from_spec(spec, seed).expect("bot spec")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: duel GAME CONFIG_JSON SPEC_A SPEC_B GAMES [FIRST_GAME] [PARALLEL]");
        std::process::exit(2);
    }
    let config: Value = serde_json::from_str(&args[1]).expect("config json");
    let game = load_game(&args[0], Some(&config)).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (args[2].clone(), args[3].clone());
    let games: usize = args[4].parse().expect("games");
    let first: usize = args.get(5).map_or(0, |x| x.parse().expect("first game"));
    let parallel: usize = args.get(6).map_or(1, |x| x.parse().expect("parallel"));
    let players = game.num_players();
    // DUEL_FIELDS=a,b: also print these fields of each final state's snapshot (for tuning).
    let fields: Vec<String> =
        std::env::var("DUEL_FIELDS").map(|v| v.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect()).unwrap_or_default();
    let fixed_seat: Option<usize> = std::env::var("DUEL_SEAT").ok().map(|v| v.parse().expect("DUEL_SEAT: a seat"));
    if fixed_seat.is_some_and(|s| s >= players) {
        panic!("DUEL_SEAT: the game has {players} seats");
    }
    // DUEL_CONFIG_A: bot A's own view of the game (a twin that must follow the same history).
    let game_a = std::env::var("DUEL_CONFIG_A").ok().map(|c| {
        let c: Value = serde_json::from_str(&c).expect("DUEL_CONFIG_A: config json");
        load_game(&args[0], Some(&c)).unwrap_or_else(|e| panic!("DUEL_CONFIG_A: {e}"))
    });
    let next = AtomicUsize::new(first);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..parallel {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= first + games {
                    break;
                }
                let seat_a = fixed_seat.unwrap_or(k % players);
                let mut bots: Vec<_> = (0..players).map(|p| bot(if p == seat_a { &a } else { &b }, (k * 31 + p) as u64 + 7)).collect();
                let started = Instant::now();
                let mut s = game.new_initial_state(k as u64);
                let mut twin = game_a.as_ref().map(|g| g.new_initial_state(k as u64));
                let mut decisions = 0;
                // Thinking time per whole turn (a seat's decisions until another seat is to
                // act; chance does not end a turn) and per decision, in ms, of A and of B.
                let mut turns: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
                let mut per_decision: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
                let mut turn: Option<(i32, f64)> = None;
                // Iterations searched and root visits a search started with (kept from the
                // seat's last tree), of A and of B.
                let mut work = [[0u64; 2]; 2];
                while !s.is_terminal() {
                    let p = s.current_player();
                    if p >= 0 && turn.is_some_and(|(q, _)| q != p) {
                        let (q, ms) = turn.take().unwrap();
                        turns[usize::from(q as usize != seat_a)].push(ms);
                    }
                    let clock = Instant::now();
                    let act = match &twin {
                        Some(t) if p as usize == seat_a => bots[p as usize].choose(t),
                        _ => bots[p as usize].choose(&s),
                    };
                    let ms = clock.elapsed().as_secs_f64() * 1000.0;
                    if s.legal_actions().len() > 1 {
                        decisions += 1;
                        per_decision[usize::from(p as usize != seat_a)].push(ms);
                        if let Some(d) = bots[p as usize].last_decision() {
                            let w = &mut work[usize::from(p as usize != seat_a)];
                            w[0] += d.iterations;
                            w[1] += d.reused;
                        }
                    }
                    if p >= 0 {
                        turn = Some((p, turn.map_or(0.0, |t| t.1) + ms));
                    }
                    s.apply_in_place(act).expect("a bot's choice is legal");
                    if let Some(t) = &mut twin {
                        t.apply_in_place(act).expect("the twin follows the game");
                    }
                }
                if let Some(t) = &twin {
                    assert!(t.history() == s.history() && t.is_terminal(), "DUEL_CONFIG_A changed the rules");
                }
                if let Some((q, ms)) = turn {
                    turns[usize::from(q as usize != seat_a)].push(ms);
                }
                let r = s.returns();
                let others: Vec<usize> = (0..players).filter(|&p| p != seat_a).collect();
                let score = others
                    .iter()
                    .map(|&o| {
                        if r[seat_a] > r[o] {
                            1.0
                        } else if r[seat_a] == r[o] {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum::<f64>()
                    / others.len() as f64;
                let mut line = json!({"game": k, "seat_a": seat_a, "returns": r, "score_a": score, "actions": s.history().len(),
                    "decisions": decisions, "seconds": started.elapsed().as_secs_f64(),
                    "turn_ms_a": summary(&mut turns[0]), "turn_ms_b": summary(&mut turns[1]),
                    "decision_ms_a": summary(&mut per_decision[0]), "decision_ms_b": summary(&mut per_decision[1]),
                    "iterations_a": work[0][0], "reused_a": work[0][1], "iterations_b": work[1][0], "reused_b": work[1][1]});
                if !fields.is_empty() {
                    let saved: Value = serde_json::from_str(&s.to_json_string()).expect("a save is json");
                    line["final"] = fields.iter().map(|f| (f.clone(), saved["state"][f].clone())).collect();
                }
                println!("{line}");
                results.lock().unwrap().push((score, turns, per_decision, work));
            });
        }
    });
    let results = results.into_inner().unwrap();
    let n = results.len() as f64;
    let mean = results.iter().map(|r| r.0).sum::<f64>() / n;
    // The 95% Wilson interval of the score.
    let (z, p) = (1.96f64, mean);
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    let all = |i: usize, f: fn(&GameTimes) -> &[Vec<f64>; 2]| -> Value {
        let mut v: Vec<f64> = results.iter().flat_map(|r| f(r)[i].iter().copied()).collect();
        summary(&mut v)
    };
    // Per turn: the iterations searched, and the root visits the searches started with.
    let per_turn = |i: usize, k: usize| -> f64 {
        let turns: usize = results.iter().map(|r| r.1[i].len()).sum();
        (results.iter().map(|r| r.3[i][k]).sum::<u64>() as f64 / turns.max(1) as f64).round()
    };
    println!(
        "{}",
        json!({"a": a, "b": b, "games": results.len(), "score_a": mean, "ci95": [(c - h).max(0.0), (c + h).min(1.0)],
            "turn_ms_a": all(0, |r| &r.1), "turn_ms_b": all(1, |r| &r.1),
            "decision_ms_a": all(0, |r| &r.2), "decision_ms_b": all(1, |r| &r.2),
            "iterations_per_turn_a": per_turn(0, 0), "reused_per_turn_a": per_turn(0, 1),
            "iterations_per_turn_b": per_turn(1, 0), "reused_per_turn_b": per_turn(1, 1)})
    );
}

/// A game's score for A, its thinking times per turn and per decision of A and of B, and their
/// iterations searched and root visits kept from the last tree.
type GameTimes = (f64, [Vec<f64>; 2], [Vec<f64>; 2], [[u64; 2]; 2]);

/// `{"median", "worst", "n"}` of times in ms.
fn summary(v: &mut [f64]) -> Value {
    if v.is_empty() {
        return json!({"n": 0});
    }
    v.sort_by(f64::total_cmp);
    json!({"median": (v[v.len() / 2] * 10.0).round() / 10.0, "worst": (v[v.len() - 1] * 10.0).round() / 10.0, "n": v.len()})
}
