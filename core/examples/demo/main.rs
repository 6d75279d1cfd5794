//! The showcase behind `make demo`: every registered game, in each of its player counts,
//! played to the end by the built-in bots, with a readable public log and the result.
//! Sekigahara, Three Kingdoms Redux and 関ヶ原大作戦 have logs of their own, told from the
//! spectator's events (`sekigahara.rs`, `three_kingdoms_redux.rs`, `daisakusen.rs`); the
//! notes below are about the generic log the other games get.
//!
//! `make demo` builds it in the debug profile the tests use (lightly optimized, see the
//! workspace's Cargo.toml) and runs it: `cargo run -p kassen-core --example demo`.
//!
//! The log shows only public information, the way a spectator sees the game:
//! - a move is printed as its `action_to_string` only when a spectator can tell it apart from
//!   every other move the seat might have made (checked by comparing spectator views after the
//!   alternatives, also in spectator determinizations); secret moves, such as tokens kept
//!   behind a screen, appear as "hidden moves";
//! - auto-resolved chance outcomes (a token drawn from the own stack) are never printed;
//! - captures, set-asides, exchanges and passes come from the spectator's events (`events(-1)`).
//!
//! Everything is seeded; the search bot of seat 0 has a time limit per decision, so its moves
//! (and the games) can differ between machines and runs (the timing goes to stderr).

mod daisakusen;
mod sekigahara;
mod three_kingdoms_redux;

use std::collections::BTreeMap;
use std::time::Instant;

use kassen_core::bots::{from_spec, Bot, MonteCarloBot, RandomBot};
use kassen_core::{games, load_game, ActionId, Event, GameHandle, Player, StateHandle, SPECTATOR};
use serde_json::{json, Value};

/// The seed of every demo game.
const GAME_SEED: u64 = 1;

/// Per-decision time of the strongest bot in the demo: the `hard` level's search (the same
/// algorithm and game knowledge) capped so that the demo's games take under 2 minutes in all
/// in the debug build `make demo` makes, on a busy 2-core machine (186 s at 150 ms and 128
/// playouts; the timing of each game goes to stderr).
const DEMO_MS_PER_DECISION: u32 = 40;

/// Playouts per legal move of the flat Monte Carlo seats.
const DEMO_PLAYOUTS: u32 = 48;

/// Seat 0 is the strongest bot (IS-MCTS, the `hard` level capped at [`DEMO_MS_PER_DECISION`]);
/// seat 1 flat Monte Carlo; the others alternate between a random player and Monte Carlo.
pub(crate) fn bots_for(players: usize) -> Vec<Box<dyn Bot>> {
    (0..players)
        .map(|seat| -> Box<dyn Bot> {
            let seed = 100 + seat as u64;
            match seat {
                0 => from_spec(&format!("ismcts:hard@{DEMO_MS_PER_DECISION}ms"), seed).expect("a built-in bot"),
                s if s % 2 == 1 => Box::new(MonteCarloBot::new(seed).with_playouts(DEMO_PLAYOUTS)),
                _ => Box::new(RandomBot::new(seed)),
            }
        })
        .collect()
}

/// One move of the log.
struct Move {
    seat: Player,
    /// The action text, or `None` when a spectator cannot tell which move it was.
    text: Option<String>,
    /// History indices of the move and of the chance outcomes resolved after it.
    steps: std::ops::Range<u32>,
}

fn main() {
    let started = Instant::now();
    println!("kassen {} demo: every registered game, every player count, built-in bots", kassen_core::VERSION);
    for (id, name) in games() {
        let default = load_game(id, None).expect("the default config loads");
        let info = default.info().clone();
        for players in info.min_players..=info.max_players {
            // Games with a choice of player counts take it as the config key "players".
            let config = (info.min_players < info.max_players).then(|| json!({ "players": players }));
            let game = load_game(id, config.as_ref()).expect("every supported player count loads");
            let t = Instant::now();
            let end = if id == "sekigahara" {
                sekigahara::play(&game, name, GAME_SEED)
            } else if id == "three_kingdoms_redux" {
                three_kingdoms_redux::play(&game, name, GAME_SEED)
            } else if id == "sekigahara_daisakusen" {
                daisakusen::play(&game, name, GAME_SEED)
            } else {
                play(&game, name, players as usize)
            };
            eprintln!("[{name} {players}p: {:.2} s]", t.elapsed().as_secs_f64());
            write_replay(&end, &format!("{id}_{players}p"));
        }
    }
    eprintln!("[demo total: {:.2} s]", started.elapsed().as_secs_f64());
}

/// Writes the game's HTML replay as the spectator saw it to `demo-output/` and says where.
fn write_replay(state: &StateHandle, stem: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo-output");
    let path = dir.join(format!("{stem}_replay_spectator.html"));
    let written = kassen_core::render::replay::replay_html(state, SPECTATOR)
        .map_err(|e| e.to_string())
        .and_then(|page| std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, page)).map_err(|e| e.to_string()));
    match written {
        Ok(()) => println!("  replay (spectator): {}", path.canonicalize().unwrap_or(path).display()),
        Err(e) => println!("  replay not written: {e}"),
    }
}

fn play(game: &GameHandle, name: &str, players: usize) -> StateHandle {
    let mut bots = bots_for(players);
    println!();
    println!("=== {name} ({}), {players} players, seed {GAME_SEED} ===", game.id());
    println!("rulebook: {}", game.info().rulebook);
    for (seat, bot) in bots.iter().enumerate() {
        println!("  seat {seat}: {}", bot.name());
    }
    println!();

    let mut state = game.new_initial_state(GAME_SEED);
    let mut moves = Vec::new();
    while !state.is_terminal() {
        let seat = state.current_player();
        let action = bots[seat as usize].choose(&state);
        let text = public_text(&state, action);
        let before = state.history().len() as u32;
        state.apply_in_place(action).expect("bots choose legal actions");
        moves.push(Move { seat, text, steps: before..state.history().len() as u32 });
    }

    let events = state.events(SPECTATOR).expect("the spectator is a valid observer");
    let view = state.view(SPECTATOR).expect("the spectator is a valid observer")["body"].take();
    let names: Vec<String> = bots.iter().map(|b| b.name()).collect();
    print_log(game, &view, &moves, &events, &names);
    print_result(game, &view, &state, &names);
    state
}

// === Which moves a spectator may see ===

/// The text of `action` if a spectator can tell it apart from every alternative: no other
/// action, from this state or from a state the spectator cannot tell apart from it, leads to
/// the same spectator view.
fn public_text(state: &StateHandle, action: ActionId) -> Option<String> {
    let after = state.child(action).ok()?.view(SPECTATOR).ok()?;
    let mut worlds = vec![state.clone()];
    for seed in 0..2 {
        worlds.extend(state.determinize(SPECTATOR, seed).ok());
    }
    for world in &worlds {
        for other in world.legal_actions() {
            if other != action && world.child(other).ok().and_then(|c| c.view(SPECTATOR).ok()).is_some_and(|v| v == after) {
                return None;
            }
        }
    }
    state.action_to_string(action).ok()
}

// === The log ===

fn print_log(game: &GameHandle, view: &Value, moves: &[Move], events: &[Event], names: &[String]) {
    let mut by_step: BTreeMap<u32, Vec<&Event>> = BTreeMap::new();
    for e in events {
        by_step.entry(e.step).or_default().push(e);
    }
    let width = names.iter().map(String::len).max().unwrap_or(0);
    let labels = hex_labels(view);
    // A turn: consecutive moves of one seat.
    let mut i = 0;
    while i < moves.len() {
        let seat = moves[i].seat;
        let mut j = i;
        while j < moves.len() && moves[j].seat == seat {
            j += 1;
        }
        let mut parts: Vec<String> = Vec::new();
        let mut hidden = 0;
        for m in &moves[i..j] {
            match &m.text {
                Some(t) => {
                    flush_hidden(&mut parts, &mut hidden);
                    parts.push(t.clone());
                }
                None => hidden += 1,
            }
        }
        flush_hidden(&mut parts, &mut hidden);
        println!("  seat {seat}  {:width$}  {}", names[seat as usize], parts.join(" · "));
        let notes: Vec<String> = moves[i..j]
            .iter()
            .flat_map(|m| m.steps.clone())
            .flat_map(|s| by_step.get(&s).into_iter().flatten())
            .filter_map(|e| describe(game, e, &labels))
            .collect();
        for n in notes {
            if n.starts_with("---") {
                println!("  {n}");
            } else {
                println!("  {:pad$}  => {n}", "", pad = 6 + width);
            }
        }
        i = j;
    }
}

fn flush_hidden(parts: &mut Vec<String>, hidden: &mut u32) {
    match *hidden {
        0 => {}
        1 => parts.push("a hidden move".into()),
        n => parts.push(format!("{n} hidden moves")),
    }
    *hidden = 0;
}

/// Printed names of board locations, where the game's view lists them (Samurai: the
/// settlements with their kind).
fn hex_labels(view: &Value) -> BTreeMap<u64, String> {
    let mut labels = BTreeMap::new();
    for s in view.pointer("/board/settlements").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(h), Some(k)) = (s["hex"].as_u64(), s["kind"].as_str()) {
            labels.insert(h, format!("{k} h{h}"));
        }
    }
    labels
}

/// One public event as a line, or `None` for events that only restate the move or the turn
/// order. Samurai's event kinds get sentences; other kinds are printed as their JSON.
fn describe(game: &GameHandle, e: &Event, labels: &BTreeMap<u64, String>) -> Option<String> {
    let b = &e.body.to_value();
    let kind = b["kind"].as_str().unwrap_or("?");
    let hex = |v: &Value| v.as_u64().map(|h| labels.get(&h).cloned().unwrap_or_else(|| format!("h{h}"))).unwrap_or_default();
    if game.id() == "samurai" {
        return match kind {
            "token_kept"
            | "token_chosen"
            | "token_placed"
            | "figure_placed"
            | "figure_exchange_played"
            | "token_exchanged"
            | "turn_ended"
            | "turn_begins"
            | "drew"
            | "game_over" => None,
            "figure_placement_begins" => Some("--- every seat has its 5 tokens: figures are placed ---".into()),
            "play_begins" => Some(format!("--- play begins with seat {} ---", b["seat"])),
            "figure_captured" => Some(match b["figure"].as_str() {
                Some(f) => format!("seat {} captures the {f} at {}", b["seat"], hex(&b["hex"])),
                None => format!("seat {} captures a figure at {} (type hidden)", b["seat"], hex(&b["hex"])),
            }),
            "figure_set_aside" => Some(format!("tie at {}: the {} is set aside", hex(&b["hex"]), b["figure"].as_str().unwrap_or("?"))),
            "figures_exchanged" => Some(format!(
                "figures exchanged: the {} from {} and the {} from {}",
                b["a"]["figure"].as_str().unwrap_or("?"),
                hex(&b["a"]["hex"]),
                b["b"]["figure"].as_str().unwrap_or("?"),
                hex(&b["b"]["hex"])
            )),
            "passed" => Some(format!("seat {} passes", b["seat"])),
            _ => Some(generic(b)),
        };
    }
    Some(generic(b))
}

fn generic(body: &Value) -> String {
    let mut rest = body.clone();
    let kind = rest.as_object_mut().and_then(|o| o.remove("kind")).unwrap_or(Value::Null);
    format!("{} {}", kind.as_str().unwrap_or("event"), rest)
}

// === The result ===

fn print_result(game: &GameHandle, view: &Value, state: &StateHandle, names: &[String]) {
    println!();
    let result = &view["result"];
    if let Some(reason) = result["reason"].as_str() {
        println!("  game over: {reason} ({} actions incl. chance)", state.history().len());
    } else {
        println!("  game over ({} actions incl. chance)", state.history().len());
    }
    let score = &result["score"];
    match (game.id(), score["figures"].as_array()) {
        ("samurai", Some(figures)) => {
            let types = ["helmet", "buddha", "rice"];
            println!("  captured figures (screens lifted):");
            for (seat, f) in figures.iter().enumerate() {
                let counts: Vec<String> = types.iter().enumerate().map(|(t, name)| format!("{name} {}", f[t])).collect();
                println!(
                    "    seat {seat}  {:width$}  {}",
                    names[seat],
                    counts.join(", "),
                    width = names.iter().map(String::len).max().unwrap_or(0)
                );
            }
            let majorities: Vec<String> = types
                .iter()
                .enumerate()
                .map(|(t, name)| match score["majorities"][t].as_u64() {
                    Some(s) => format!("{name}: seat {s}"),
                    None => format!("{name}: nobody"),
                })
                .collect();
            println!("  most of each type: {}", majorities.join(", "));
            for c in score["candidates"].as_array().into_iter().flatten() {
                println!(
                    "    candidate seat {} (most {}): {} figures of the other types, {} in all",
                    c["seat"],
                    c["majority"].as_str().unwrap_or("?"),
                    c["other_figures"],
                    c["total_figures"]
                );
            }
            println!("  decided by: {}", score["decided_by"].as_str().unwrap_or("?").replace('_', " "));
        }
        _ if !result.is_null() => println!("  result: {}", serde_json::to_string_pretty(result).expect("json prints")),
        _ => {}
    }
    let returns = state.returns();
    let shown: Vec<String> = returns.iter().enumerate().map(|(s, r)| format!("seat {s} {r:.3}")).collect();
    let best = returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let winners: Vec<String> =
        returns.iter().enumerate().filter(|(_, &r)| r == best).map(|(s, _)| format!("seat {s} ({})", names[s])).collect();
    println!("  returns: {}", shown.join(", "));
    println!("  winner{}: {}", if winners.len() > 1 { "s (shared)" } else { "" }, winners.join(", "));
}
