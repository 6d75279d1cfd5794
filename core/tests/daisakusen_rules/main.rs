//! Rule tests for 関ヶ原大作戦 (sekigahara_daisakusen), named after the rulebook sections
//! (shared/rules/sekigahara_hex.zh.txt) and the 16 cards.

mod cards;
mod combat;
mod common;
mod data;
mod movement;
mod perft;

use common::*;
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::{Events, Game, CHANCE, TERMINAL};

#[test]
fn random_games_end_with_a_result() {
    let g = game();
    for seed in 0..30u64 {
        let (s, steps) = random_game(&g, seed);
        assert_eq!(g.current_player(&s), TERMINAL, "seed {seed}");
        let r = g.returns(&s);
        assert!(r == vec![1.0, -1.0] || r == vec![-1.0, 1.0] || r == vec![0.0, 0.0], "seed {seed}: {r:?}");
        assert!(steps <= g.info().max_game_length as usize);
    }
}

#[test]
fn r3_setup_places_every_counter() {
    let g = game();
    let s = g.new_initial_state(1);
    assert_eq!(s.pending, Pending::Setup { next: 0 });
    let d = g.data();
    // 20 fixed stacks, 12 on the entry tracks, 17 外様主力 waiting for the East player.
    let on_map = s.units.iter().filter(|x| x.loc < TRACK).count();
    let on_track = s.units.iter().filter(|x| x.loc >= TRACK && x.loc != DEAD).count();
    assert_eq!(on_track, 12);
    assert_eq!(d.tozama_units.len(), 17);
    assert_eq!(on_map + on_track + 17, 84);
    // R 3.0(4): 14 cards, without 家康出馬 and 秀頼出陣.
    assert_eq!(s.deck.count_ones(), 14);
    let _ = CHANCE;
    let _ = Events::off();
}

#[test]
#[ignore]
fn print_outcomes() {
    let g = game();
    for seed in 0..20u64 {
        let (s, steps) = random_game(&g, seed);
        println!("seed {seed}: winner {} turn {} steps {steps} chouryaku {}", s.winner, s.turn, s.chouryaku);
    }
}

/// The shared conformance suite on every covered config (plain and explicit_chance).
#[test]
fn conformance_every_covered_config() {
    let configs = kassen_core::covered_configs("sekigahara_daisakusen");
    // The default config (one rules variant, two seats) and its explicit_chance twin.
    assert_eq!(configs.len(), 2);
    for cfg in configs {
        let game = kassen_core::load_game("sekigahara_daisakusen", Some(&cfg)).unwrap();
        let report = game.conformance(&[1, 2]).unwrap_or_else(|e| panic!("{cfg}: {e}"));
        assert_eq!(report.games, 2);
        assert!(report.illegal_actions_rejected > 0 && report.legal_actions_applied > 0);
        // No hidden past: determinizations replay the same history (only the future deck
        // order and dice differ under the fresh seed).
        assert_eq!(report.hidden_variants, 0);
    }
}

/// Throughput probe (no assertion on time): `cargo test --release -p kassen-core --test
/// daisakusen_rules throughput -- --ignored --nocapture`.
#[test]
#[ignore]
fn throughput() {
    let g = game();
    let t = std::time::Instant::now();
    let (mut steps, mut player, mut games) = (0usize, 0usize, 0usize);
    while t.elapsed().as_secs_f64() < 3.0 {
        let (_, n, p) = random_game_counted(&g, games as u64);
        steps += n;
        player += p;
        games += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{games} games, {steps} steps ({player} player steps): {:.0} steps/s, {:.0} player steps/s, {:.3} ms/game",
        steps as f64 / secs,
        player as f64 / secs,
        secs * 1000.0 / games as f64
    );
}
