//! 関ヶ原大作戦 in the demo: one complete game between the demo's bots (`bots_for`: the
//! IS-MCTS search, which uses the game's own playout knowledge, against flat Monte Carlo),
//! told from the spectator's events (`events(-1)`); everything in this game is public but the
//! deck order.

use std::time::Instant;

use kassen_core::{GameHandle, StateHandle, SPECTATOR};
use serde_json::Value;

const SIDES: [&str; 2] = ["East (東軍)", "West (西軍)"];

pub fn play(game: &GameHandle, name: &str, seed: u64) -> StateHandle {
    let mut bots = super::bots_for(2);
    println!();
    println!("=== {name} ({}), 2 players, seed {seed} ===", game.id());
    println!("rulebook: {}", game.info().rulebook);
    println!("  the map, most counter values and the track numbers are RECONSTRUCTED (see the provenance)");
    for (seat, bot) in bots.iter().enumerate() {
        println!("  seat {seat} ({}): {}", SIDES[seat], bot.name());
    }
    println!();
    let mut state = game.new_initial_state(seed);
    let mut seen = 0;
    let mut line = String::new();
    let started = Instant::now();
    loop {
        let events = state.events(SPECTATOR).expect("the spectator is a valid observer");
        for e in &events[seen..] {
            narrate(&e.body.to_value(), &mut line);
        }
        seen = events.len();
        if state.is_terminal() {
            break;
        }
        let seat = state.current_player() as usize;
        let action = bots[seat].choose(&state);
        state.apply_in_place(action).expect("bots choose legal actions");
    }
    flush(&mut line);
    eprintln!("[関ヶ原大作戦 game: {:.2} s]", started.elapsed().as_secs_f64());
    let view = state.view(SPECTATOR).expect("the spectator is a valid observer")["body"].take();
    println!();
    println!("  game over after turn {} ({} actions incl. chance)", view["turn"], state.history().len());
    println!("  調略 marker: {}", view["chouryaku"]["box"]);
    for side in ["east", "west"] {
        let castles = view["castles"].as_array().map_or(0, |c| c.iter().filter(|c| c["owner"] == side).count());
        let removed = view["units"].as_array().map_or(0, |u| u.iter().filter(|u| u["at"] == "removed" && u["side"] == side).count());
        println!("    {side}: {castles} castles, {removed} counters removed");
    }
    let returns = state.returns();
    println!("  returns: East {:+.0}, West {:+.0}", returns[0], returns[1]);
    match returns.iter().position(|&r| r > 0.0) {
        Some(w) => println!("  winner: seat {w}, {} ({})", SIDES[w], bots[w].name()),
        None => println!("  no winner (the max_turns cap ended a stalemate)"),
    }
    state
}

fn flush(line: &mut String) {
    if !line.is_empty() {
        println!("{line}");
        line.clear();
    }
}

fn s(v: &Value) -> String {
    match v {
        Value::String(t) => t.clone(),
        other => other.to_string(),
    }
}

fn narrate(e: &Value, line: &mut String) {
    match e["kind"].as_str().unwrap_or("") {
        "setup_place" => {}
        "card_drawn" => {
            flush(line);
            println!("turn {}: card {} {}", e["turn"], s(&e["id"]), s(&e["card"]));
        }
        "commander" => {
            flush(line);
            line.push_str(&format!("    {}", s(&e["unit"])));
        }
        "action" => line.push_str(&format!(" {}", s(&e["action"]).replace('_', " "))),
        "select" => {}
        "move_start" => {
            if let Some(r) = e["roll"].as_u64() {
                line.push_str(&format!(" (die {r})"));
            }
        }
        "step" => {
            if !line.contains('→') {
                line.push_str(&format!(": {}", s(&e["from"])));
            }
            line.push_str(&format!(" → {}", s(&e["to"])));
        }
        "move_end" if !line.contains('→') => line.push_str(&format!(", stays at {}", s(&e["hex"]))),
        "attack" => line.push_str(&format!(
            " {} from {}{} ({} vs {}, modifier {:+})",
            s(&e["target"]),
            s(&e["from"]),
            if e["siege"] == true { ", a siege" } else { "" },
            e["attackers"],
            e["defenders"],
            e["modifier"].as_i64().unwrap_or(0)
        )),
        "combat_die" => line.push_str(&format!(" {}{}", e["roll"], if e["hit"] == true { "*" } else { "" })),
        "hit" => line.push_str(&format!("; {} flipped", s(&e["unit"]))),
        "eliminated" => line.push_str(&format!("; {} removed", s(&e["unit"]))),
        "advance" => line.push_str(&format!("; advances into {}", s(&e["to"]))),
        "recovered" => line.push_str(&format!(" {}", s(&e["unit"]))),
        "march" => line.push_str(&format!(" ({} track: {})", s(&e["track"]), s(&e["box"]))),
        "arrival" => line.push_str(&format!("; arrives at {} with {} counters", s(&e["hex"]), e["units"])),
        "castle_taken" => line.push_str(&format!(
            "; {} takes {}{}",
            s(&e["by"]),
            s(&e["castle"]),
            if e["by_defection"] == true { " by defection" } else { "" }
        )),
        "kyoto_taken" => line.push_str(&format!("; {} takes 京", s(&e["by"]))),
        "chouryaku" => line.push_str(&format!("; 調略 {} → {}", s(&e["from"]), s(&e["to"]))),
        "morale" => {}
        "chouryaku_roll" | "intimidation" => {
            flush(line);
            println!(
                "    {} {} on {}: die {} (needs ≤ {}) {}",
                s(&e["by"]),
                if e["kind"] == "intimidation" { "恫喝判定" } else { "調略判定" },
                s(&e["hex"]),
                e["roll"],
                e["need"],
                if e["success"] == true { "success" } else { "failure" }
            );
        }
        "defection" => line.push_str(&format!("    {} turns {}\n", s(&e["unit"]), s(&e["to"]))),
        "defection_void" => line.push_str("    nobody there can turn\n"),
        "card_enters_deck" => {
            flush(line);
            println!("    {} enters the deck", s(&e["card"]));
        }
        "reshuffle" => {
            flush(line);
            println!("  -- end of turn {}: reshuffle --", e["turn_ended"]);
        }
        "game_over" => {
            flush(line);
            println!("  GAME OVER: {} ({})", if e["winner"].is_null() { "draw".into() } else { s(&e["winner"]) }, s(&e["why"]));
        }
        _ => {}
    }
}
