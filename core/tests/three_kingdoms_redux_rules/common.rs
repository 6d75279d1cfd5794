//! Shared helpers: the embedded data, positions built from it, random play.

#![allow(dead_code)]

use kassen_core::events::Events;
use kassen_core::game::{ActionId, Game, CHANCE, TERMINAL};
use kassen_core::games::three_kingdoms_redux::{Action, Tkr};
use kassen_core::rng::Rng;
use serde_json::{json, Map, Value};

pub fn game(cfg: Value) -> Tkr {
    let Value::Object(m) = cfg else { panic!("config object") };
    Tkr::setup(&m).expect("config is valid")
}

pub fn plain() -> Tkr {
    Tkr::setup(&Map::new()).unwrap()
}

/// A chance outcome drawn from the state's rng, or a uniformly random legal action (`legal`
/// is scratch space).
pub fn random_action(g: &Tkr, s: &mut State, rng: &mut Rng, legal: &mut Vec<ActionId>) -> ActionId {
    if g.current_player(s) == CHANCE {
        return g.sample_chance(s);
    }
    legal.clear();
    g.legal_actions(s, legal);
    assert!(!legal.is_empty(), "dead end");
    legal[rng.below(legal.len() as u32) as usize]
}

/// Plays a random game to the end (chance from the state's rng); returns steps taken.
pub fn random_game(g: &Tkr, seed: u64) -> (kassen_core::games::three_kingdoms_redux::State, usize) {
    let mut s = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed ^ 77);
    let mut ev = Events::off();
    let mut legal: Vec<ActionId> = Vec::new();
    let mut n = 0;
    loop {
        let p = g.current_player(&s);
        if p == TERMINAL {
            return (s, n);
        }
        let a = random_action(g, &mut s, &mut rng, &mut legal);
        assert!(g.is_legal(&s, a), "illegal {a} at {n}");
        g.apply(&mut s, a, &mut ev);
        n += 1;
        assert!(n < 40_000, "runaway game");
    }
}

pub fn idx(g: &Tkr, general: &str) -> u8 {
    g.data().general_index(general).unwrap_or_else(|| panic!("no general {general}"))
}

pub fn dev(g: &Tkr, id: &str) -> u8 {
    g.data().dev_index(id).unwrap_or_else(|| panic!("no development {id}"))
}

pub fn region(g: &Tkr, id: &str) -> u8 {
    g.data().region_index(id).unwrap_or_else(|| panic!("no region {id}"))
}

pub fn act(g: &Tkr, s: &mut kassen_core::games::three_kingdoms_redux::State, a: Action) {
    let id = g.encode(a);
    assert!(g.is_legal(s, id), "{a:?} is not legal; legal: {:?}", g.legal_typed(s));
    g.apply(s, id, &mut Events::off());
}

pub fn cfg_all() -> Vec<Value> {
    Tkr::covered_configs()
}

pub fn j(v: Value) -> Value {
    json!(v)
}

use kassen_core::games::three_kingdoms_redux::{GLoc, Pending, Stage, State};

/// A bidding position of `round` from the real data: the rulers plus `generals` recruited,
/// no development hands, alliance action `ally` (an action index; 255 = none).
pub fn bidding(g: &Tkr, round: u8, generals: &[&str], ally: u8) -> State {
    let mut s = g.new_initial_state(0);
    for name in generals {
        let i = idx(g, name) as usize;
        s.gloc[i] = GLoc::Active;
        s.recruited_round[i] = 1;
    }
    s.round = round;
    s.stage = Stage::Bidding;
    s.alliance_action = ally;
    s.pending = Pending::Auto;
    g.settle(&mut s, &mut Events::off());
    s
}

/// One placement turn: `general` on `action` with `extras`, then confirm if still open.
pub fn place(g: &Tkr, s: &mut State, general: &str, action: u8, extras: &[Action]) {
    let gi = idx(g, general);
    assert_eq!(s.seat, g.data().generals[gi as usize].kingdom, "not {general}'s kingdom's turn");
    act(g, s, Action::Place(gi));
    act(g, s, Action::Target(action));
    for &x in extras {
        act(g, s, x);
    }
    if s.pending == Pending::Extras {
        act(g, s, Action::Confirm);
    }
}

pub fn pass(g: &Tkr, s: &mut State) {
    act(g, s, Action::Pass);
}

/// Passes for every seat until bidding is over.
pub fn end_bidding(g: &Tkr, s: &mut State) {
    while s.pending == Pending::Bid {
        act(g, s, Action::Pass);
    }
}

pub const WEI: usize = 0;
pub const WU: usize = 1;
pub const SHU: usize = 2;
