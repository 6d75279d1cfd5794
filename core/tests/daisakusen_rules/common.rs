//! Shared helpers of the 関ヶ原大作戦 rule tests.
#![allow(dead_code)]

use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::rng::Rng;
use kassen_core::{ActionId, Events, Game, TERMINAL};
use serde_json::{Map, Value};

pub fn game() -> Daisakusen {
    Daisakusen::setup(&Map::new()).unwrap()
}

pub fn game_with(cfg: Value) -> Daisakusen {
    Daisakusen::setup(cfg.as_object().unwrap()).unwrap()
}

pub fn legal(g: &Daisakusen, s: &State) -> Vec<ActionId> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

pub fn random_game(g: &Daisakusen, seed: u64) -> (State, usize) {
    let (s, steps, _) = random_game_counted(g, seed);
    (s, steps)
}

/// A random game: the final state, all steps, player steps.
pub fn random_game_counted(g: &Daisakusen, seed: u64) -> (State, usize, usize) {
    let mut player = 0;
    let mut s = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed ^ 0xabc);
    let mut v = Vec::new();
    let mut steps = 0;
    let mut ev = Events::off();
    while g.current_player(&s) != TERMINAL {
        if g.current_player(&s) == kassen_core::CHANCE {
            let a = g.sample_chance(&mut s);
            g.apply(&mut s, a, &mut ev);
        } else {
            v.clear();
            g.legal_actions(&s, &mut v);
            assert!(!v.is_empty(), "dead end at {:?}", s.pending);
            let a = v[rng.below(v.len() as u32) as usize];
            g.apply(&mut s, a, &mut ev);
            player += 1;
        }
        steps += 1;
        assert!(steps < 2_000_000, "runaway game");
    }
    (s, steps, player)
}

/// Applies an action checked for legality.
pub fn act(g: &Daisakusen, s: &mut State, a: Action) {
    let id = g.encode(a);
    let mut ev = Events::off();
    g.step(s, id, &mut ev).unwrap_or_else(|e| {
        panic!("{a:?} in {:?}: {e}; legal {:?}", s.pending, legal(g, s).iter().map(|&x| g.decode(x)).collect::<Vec<_>>())
    });
}

pub fn act_ev(g: &Daisakusen, s: &mut State, a: Action) -> Vec<Value> {
    let id = g.encode(a);
    let mut ev = Events::recording();
    g.step(s, id, &mut ev).unwrap_or_else(|e| {
        panic!("{a:?} in {:?}: {e}; legal {:?}", s.pending, legal(g, s).iter().map(|&x| g.decode(x)).collect::<Vec<_>>())
    });
    ev.into_vec().into_iter().map(|e| e.body.to_value()).collect()
}

pub fn is_legal(g: &Daisakusen, s: &State, a: Action) -> bool {
    g.is_legal(s, g.encode(a))
}

pub fn hex(g: &Daisakusen, id: &str) -> u16 {
    g.data().hex_index(id).unwrap_or_else(|| panic!("hex {id}"))
}

pub fn unit(g: &Daisakusen, name: &str) -> u8 {
    g.data().counter_index(name).unwrap_or_else(|| panic!("counter {name}"))
}

pub fn card(g: &Daisakusen, id: &str) -> u8 {
    g.data().cards.iter().position(|c| c.id == id).unwrap() as u8
}

/// The initial state after the suggested 外様主力 placement.
pub fn after_setup(g: &Daisakusen, seed: u64) -> State {
    let mut s = g.new_initial_state(seed);
    while let Pending::Setup { next } = s.pending {
        let u = g.data().tozama_units[next as usize];
        let want = suggested_hex(g, u);
        let k = g.data().tozama_hexes.iter().position(|t| t.0 == want).unwrap();
        act(g, &mut s, Action::Place(k as u8));
    }
    s
}

fn suggested_hex(g: &Daisakusen, u: u8) -> u16 {
    let v: Value = serde_json::from_str(kassen_core::games::sekigahara_daisakusen::data::EMBEDDED).unwrap();
    let id = &g.data().counters[u as usize].id;
    for (h, ids) in v["setup"]["tozama_suggested_placement"].as_object().unwrap() {
        if ids.as_array().unwrap().iter().any(|x| x == id.as_str()) {
            return hex(g, h);
        }
    }
    panic!("no suggested hex for {id}")
}

/// Puts a counter somewhere (test set-up only), keeping the occupancy consistent.
pub fn put(g: &Daisakusen, s: &mut State, u: u8, loc: u16) {
    s.units[u as usize].loc = loc;
    g.rebuild(s);
}

/// Empties the map of every counter except `keep`.
pub fn clear_map(g: &Daisakusen, s: &mut State, keep: &[u8]) {
    for u in 0..s.units.len() as u8 {
        if !keep.contains(&u) {
            s.units[u as usize].loc = DEAD;
        }
    }
    g.rebuild(s);
}

/// Starts card `c` (drawn from the deck) in state `s`.
pub fn draw(g: &Daisakusen, s: &mut State, id: &str) -> Vec<Value> {
    let c = card(g, id);
    s.deck |= 1 << c;
    s.pending = Pending::Draw;
    s.first_draw = false;
    act_ev(g, s, Action::Draw(c))
}
