//! Rule tests for 関ヶ原大作戦 (sekigahara_daisakusen), named after the rulebook sections
//! (docs/rules/sekigahara_daisakusen.md lists them section by section) and the 16 cards.

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
}

/// The shared conformance suite on every covered config (plain and explicit_chance).
#[test]
fn conformance_every_covered_config() {
    let configs = kassen_core::covered_configs("sekigahara_daisakusen");
    // The default config (one rules variant, two seats) and its explicit_chance twin.
    assert_eq!(configs.len(), 2);
    kassen_core::testing::on_every_core(&configs, |cfg| {
        let game = kassen_core::load_game("sekigahara_daisakusen", Some(cfg)).unwrap();
        let report = game.conformance(&[1, 2]).unwrap_or_else(|e| panic!("{cfg}: {e}"));
        assert_eq!(report.games, 2);
        assert!(report.illegal_actions_rejected > 0 && report.legal_actions_applied > 0);
        // No hidden past: determinizations replay the same history (only the future deck
        // order and dice differ under the fresh seed).
        assert_eq!(report.hidden_variants, 0);
    });
}

#[test]
fn views_and_tensor_are_public_normalized_and_carry_the_pending_decision() {
    let g = game();
    let len = g.info().observation_len();
    for seed in 0..3u64 {
        let mut s = g.new_initial_state(seed);
        let mut rng = kassen_core::rng::Rng::from_seed(seed);
        let mut v = Vec::new();
        for _ in 0..400 {
            if g.is_terminal(&s) {
                break;
            }
            if g.current_player(&s) == CHANCE {
                let a = g.sample_chance(&mut s);
                g.apply(&mut s, a, &mut Events::off());
                continue;
            }
            for p in [-1, 0, 1] {
                let mut t = vec![0.0f32; len];
                g.observation_tensor(&s, p, &mut t);
                assert!(t.iter().all(|x| (0.0..=1.0).contains(x)));
                let view = g.view(&s, p);
                assert!(view.get("rng").is_none() && !view.to_string().contains("\"rng\""));
                assert!(view.get("pending").is_none() && serde_json::to_value(g.decision(&s, p)).unwrap()["prompt"].is_string());
            }
            v.clear();
            g.legal_actions(&s, &mut v);
            let mut texts: Vec<String> = v.iter().map(|&a| g.action_to_string(&s, a)).collect();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), v.len(), "distinct action texts");
            let a = v[rng.below(v.len() as u32) as usize];
            g.apply(&mut s, a, &mut Events::off());
        }
    }
}

#[test]
fn events_tell_every_die_and_draw() {
    let g = game();
    let mut s = g.new_initial_state(5);
    let mut ev = Events::recording();
    let mut rng = kassen_core::rng::Rng::from_seed(5);
    let mut v = Vec::new();
    let (mut draws, mut chance) = (0, 0);
    while !g.is_terminal(&s) {
        if g.current_player(&s) == CHANCE {
            let a = g.sample_chance(&mut s);
            g.apply(&mut s, a, &mut ev);
            chance += 1;
            continue;
        }
        v.clear();
        g.legal_actions(&s, &mut v);
        let a = v[rng.below(v.len() as u32) as usize];
        g.apply(&mut s, a, &mut ev);
    }
    let events: Vec<_> = ev.into_vec();
    for e in &events {
        assert!(e.audience.is_all(), "everything is public");
        if e.body["kind"] == "card_drawn" {
            draws += 1;
        }
    }
    let dice = events.iter().filter(|e| matches!(e.body["kind"].as_str(), Some("combat_die" | "chouryaku_roll" | "intimidation"))).count()
        + events.iter().filter(|e| e.body["kind"] == "move_start" && e.body.get("roll").is_some()).count();
    assert_eq!(draws + dice, chance, "one event per chance outcome");
    assert!(events.iter().any(|e| e.body["kind"] == "game_over"));
}

#[test]
fn tensor_zoc_planes_match_the_zoc_rule() {
    let g = game();
    let n = g.data().hexes.len();
    let len = g.info().observation_len();
    for seed in 0..4u64 {
        let (s, _) = random_game(&g, seed);
        let mut mid = g.new_initial_state(seed);
        let mut rng = kassen_core::rng::Rng::from_seed(seed);
        let mut v = Vec::new();
        for _ in 0..150 {
            if g.is_terminal(&mid) {
                break;
            }
            if g.current_player(&mid) == CHANCE {
                let a = g.sample_chance(&mut mid);
                g.apply(&mut mid, a, &mut Events::off());
            } else {
                v.clear();
                g.legal_actions(&mid, &mut v);
                g.apply(&mut mid, v[rng.below(v.len() as u32) as usize], &mut Events::off());
            }
        }
        for st in [&s, &mid] {
            for p in [0, 1] {
                let me = p as u8;
                let mut t = vec![0.0f32; len];
                g.observation_tensor(st, p, &mut t);
                for h in 0..n as u16 {
                    assert_eq!(t[31 * n + h as usize] == 1.0, g.enemy_zoc(st, h, me), "hex {h} seat {p}");
                    assert_eq!(t[32 * n + h as usize] == 1.0, g.enemy_zoc(st, h, 1 - me), "hex {h} seat {p}");
                }
            }
        }
    }
}

/// `is_legal` (direct checks for the frequent decisions) agrees with `legal_actions` on every
/// id at every state of random games.
#[test]
fn is_legal_agrees_with_the_legal_list() {
    let g = game();
    let n = g.num_distinct_actions();
    for seed in 0..4u64 {
        let mut s = g.new_initial_state(seed);
        let mut rng = kassen_core::rng::Rng::from_seed(seed ^ 77);
        let mut v = Vec::new();
        while !g.is_terminal(&s) {
            v.clear();
            g.legal_actions(&s, &mut v);
            for a in 0..n {
                assert_eq!(g.is_legal(&s, a), v.binary_search(&a).is_ok(), "action {a} at {:?}", s.pending);
            }
            let a = if g.current_player(&s) == CHANCE { g.sample_chance(&mut s) } else { v[rng.below(v.len() as u32) as usize] };
            g.apply(&mut s, a, &mut Events::off());
        }
    }
}

#[test]
fn a_save_with_an_unknown_state_field_is_rejected() {
    let game = kassen_core::load_game("sekigahara_daisakusen", None).unwrap();
    let mut s = game.new_initial_state(3);
    let first = s.legal_actions()[0];
    s.apply_in_place(first).unwrap();
    let mut v = s.to_json();
    assert!(kassen_core::StateHandle::from_value(&v).is_ok());
    v["state"]["unknown_field"] = serde_json::json!(1);
    assert!(kassen_core::StateHandle::from_value(&v).is_err());
}
