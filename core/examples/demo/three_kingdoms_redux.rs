//! Three Kingdoms Redux in the demo: one complete 3-player game between the demo's bots
//! (`bots_for`: Wei searches with IS-MCTS, Wu with flat Monte Carlo, Shu plays at random), told from the
//! spectator's events (`events(-1)`) and view: bids, the alliance, winners, actions,
//! occupations, upkeep and the final scores. Development hands, drawn generals and secret
//! keeps stay hidden until they are revealed.

use std::time::Instant;

use kassen_core::{GameHandle, StateHandle, SPECTATOR};
use serde_json::Value;

const KINGDOMS: [&str; 3] = ["Wei", "Wu", "Shu"];

fn seat_name(v: &Value) -> &'static str {
    v.as_u64().and_then(|k| KINGDOMS.get(k as usize)).copied().unwrap_or("?")
}

fn line(e: &Value) -> Option<String> {
    let k = e["kind"].as_str()?;
    let who = seat_name(&e["seat"]);
    Some(match k {
        "criterion" => format!("criterion marker: Control Han Emperor bids on {}", e["control_han_emperor"].as_str()?),
        "reveal" => {
            let list: Vec<String> = e["generals"]
                .as_array()?
                .iter()
                .map(|g| format!("{} {}", seat_name(&g["seat"]), g["general"].as_str().unwrap_or("?")))
                .collect();
            format!("round {}: generals revealed: {}", e["round"], list.join(", "))
        }
        "alliance" => format!(
            "{who} puts the alliance token on {}; allies: {} + {}",
            e["action"].as_str()?,
            seat_name(&e["allies"][0]),
            seat_name(&e["allies"][1])
        ),
        "place" => {
            let mut s = format!("  {who} bids {} on {}", e["general"].as_str()?, e["action"].as_str()?);
            if e["units"].as_u64() > Some(0) {
                s += &format!(" with {} {}", e["units"], e["unit"].as_str().unwrap_or(""));
            }
            if e["gold"].as_u64() > Some(0) {
                s += &format!(" with {} gold", e["gold"]);
            }
            if e["support"].as_u64() > Some(0) {
                s += &format!(" + {} support", e["support"]);
            }
            if e["han"].as_bool() == Some(true) {
                s += " + Han token";
            }
            format!("{s} (total {})", e["total"])
        }
        "pass" => format!("  {who} passes"),
        "bid_won" => {
            format!("  won: {} by {}", e["action"].as_str()?, e["seats"].as_array()?.iter().map(seat_name).collect::<Vec<_>>().join(" + "))
        }
        "order" => format!("action order {:?}, next bid order {:?}", names(&e["action_order"]), names(&e["next_bid_order"])),
        "performed" => format!("  {who} performs {}", e["action"].as_str()?),
        "declined" => format!("  {who} declines {}", e["action"].as_str()?),
        "occupy" => format!(
            "  {who} occupies {} with {} and {} {} (token {} to the {})",
            e["region"].as_str()?,
            e["general"].as_str()?,
            e["units"],
            e["unit"].as_str()?,
            if e["flipped"].as_bool() == Some(true) { "1 VP" } else { "0 VP" },
            e["token_to"].as_str()?
        ),
        "office" => format!("    {who} rises to office rank {}", e["office"]),
        "build" => format!("    {who} builds {}", e["card"].as_str()?),
        "tribal_action" => format!("    {who} tribal relations +{} → {}", e["steps"], e["tribal"]),
        "deficit" => format!("    {who} takes a deficit token ({})", e["cause"].as_str()?),
        "upkeep" => format!(
            "  upkeep {who}: {} rice for support, {} gold + {} rice for units, {} deficit(s), military +{}",
            e["support_rice"], e["unit_gold"], e["unit_rice"], e["deficits"], e["military_gain"]
        ),
        "game_over" => format!("game over (end trigger {}), totals {}", e["reason"], e["scores"]),
        _ => return None,
    })
}

fn names(v: &Value) -> Vec<&'static str> {
    v.as_array().map(|a| a.iter().map(seat_name).collect()).unwrap_or_default()
}

pub fn play(game: &GameHandle, name: &str, seed: u64) -> StateHandle {
    let mut bots = super::bots_for(3);
    println!();
    println!("=== {name} ({}), 3 players, seed {seed} ===", game.id());
    println!("rulebook: {}", game.info().rulebook);
    for (seat, bot) in bots.iter().enumerate() {
        println!("  seat {seat} ({}): {}", KINGDOMS[seat], bot.name());
    }
    println!("  (spectator's log: hands, drawn generals and secret keeps stay hidden until revealed)");
    let mut state = game.new_initial_state(seed);
    let mut seen = 0;
    let mut round = 0;
    let started = Instant::now();
    loop {
        let events = state.events(SPECTATOR).expect("the spectator is a valid observer");
        for e in &events[seen..] {
            if let Some(l) = line(&e.body.to_value()) {
                println!("{l}");
            }
        }
        seen = events.len();
        if state.is_terminal() {
            break;
        }
        let view = state.view(SPECTATOR).expect("spectator view")["body"].take();
        let r = view["round"].as_u64().unwrap_or(0);
        if r != round {
            round = r;
            println!("--- round {r} ---");
        }
        let seat = state.current_player() as usize;
        let action = bots[seat].choose(&state);
        state.apply_in_place(action).expect("bots choose legal actions");
    }
    eprintln!("[Three Kingdoms Redux game: {:.2} s]", started.elapsed().as_secs_f64());
    let view = state.view(SPECTATOR).expect("spectator view")["body"].take();
    println!();
    println!("  final scores ({} actions incl. chance):", state.history().len());
    if let Some(scores) = view["scores"].as_array() {
        for (k, sc) in scores.iter().enumerate() {
            println!("    {:<4} {}", KINGDOMS[k], sc);
        }
    }
    let returns = state.returns();
    let shown: Vec<String> = returns.iter().enumerate().map(|(k, r)| format!("{} {r:+.3}", KINGDOMS[k])).collect();
    println!("  returns: {}", shown.join(", "));
    // The highest return wins; kingdoms that share it share the win (a tie the rulebook leaves
    // standing), and nobody wins when every kingdom has the same return.
    let best = returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let winners: Vec<String> =
        (0..returns.len()).filter(|&k| returns[k] == best).map(|k| format!("seat {k}, {} ({})", KINGDOMS[k], bots[k].name())).collect();
    match winners.len() {
        n if n == returns.len() => println!("  no winner (every kingdom ends level)"),
        1 => println!("  winner: {}", winners[0]),
        _ => println!("  winners (shared): {}", winners.join("; ")),
    }
    state
}
