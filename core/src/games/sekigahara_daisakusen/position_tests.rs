//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! the position is its own sample, and the scenario files are these
//! scenarios. The checks every game shares (position files load and play to the end, the
//! fuzz, playout-policy games): `crate::testing::positions`.

use serde_json::{json, Map};

use super::super::data::{Faction, NONE, WEST};
use super::super::state::{Fight, Mode, Pending, State, DEAD, TRACK};
use super::super::Daisakusen;
use crate::events::Events;
use crate::game::{Game, SPECTATOR};
use crate::rng::Rng;
use crate::testing::positions::{self, playout, Scenario};

fn game() -> Daisakusen {
    Daisakusen::setup(&Map::new()).unwrap()
}

#[test]
fn every_state_of_random_games_validates() {
    let mut states = 0;
    for (cfg, games) in [(json!({}), 500u64), (json!({"max_turns": 2}), 200)] {
        let g = Daisakusen::setup(cfg.as_object().unwrap()).unwrap();
        states +=
            positions::every_state_validates(&g, 0..games, 0x77, |s| format!("{cfg} {:?} card {} cmdr {}", s.pending, s.card, s.cmdr));
    }
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

#[test]
fn a_position_is_its_own_sample_nothing_is_hidden() {
    let g = game();
    let s = playout(&g, g.new_initial_state(4), 4, |_| {});
    for observer in SPECTATOR..2 {
        assert_eq!(g.sample_position(&s, observer, &mut Rng::from_seed(1)), Some(s.clone()));
    }
}

// === corruptions ===

/// A state after set-up with the first card drawn (seed 2), and a mid-game state.
pub(in super::super) fn states() -> (Daisakusen, State) {
    let g = game();
    let mut s = g.new_initial_state(2);
    let mut rng = Rng::from_seed(9);
    let mut legal = Vec::new();
    while matches!(s.pending, Pending::Setup { .. } | Pending::Draw) {
        positions::random_step(&g, &mut s, &mut rng, &mut legal);
    }
    g.validate_position(&s).unwrap();
    (g, s)
}

fn rejected(g: &Daisakusen, s: &State, needle: &str) {
    positions::assert_rejected(g.validate_position(s), needle);
}

/// Edits a counter and keeps the occupancy caches in step.
fn moved(g: &Daisakusen, s: &State, u: usize, f: impl Fn(&mut super::super::state::Unit)) -> State {
    let mut t = s.clone();
    f(&mut t.units[u]);
    g.rebuild(&mut t);
    t
}

fn on_map(s: &State) -> usize {
    s.units.iter().position(|x| x.loc < TRACK && matches!(x.faction, Faction::Tokugawa | Faction::Fudai | Faction::WestMain)).unwrap()
}

#[test]
fn r12_1_only_turning_factions_change_sides_and_take_the_turning_faction() {
    let (g, s) = states();
    let u = on_map(&s);
    rejected(&g, &moved(&g, &s, u, |x| x.faction = Faction::Fudai), "(R 12.1(2))");
    let turned = |x: &mut super::super::state::Unit| {
        x.side = 1 - x.side;
        x.faction = if x.side == 0 { Faction::EastTozama } else { Faction::WestShosho };
    };
    rejected(&g, &moved(&g, &s, u, turned), "only 東軍外様 and 西軍諸将 counters turn (R 12.1)");
}

#[test]
fn r6_counters_stand_on_passable_hexes_within_the_stacking_limit() {
    let (g, s) = states();
    let d = g.data();
    let u = on_map(&s);
    let closed = (0..d.hexes.len()).find(|&h| !d.hexes[h].passable()).unwrap() as u16;
    rejected(&g, &moved(&g, &s, u, |x| x.loc = closed), "which no counter may enter (R 2.4, 6.2(1))");
    // Every East counter on the map onto one hex.
    let mut t = s.clone();
    let h = t.units[u].loc;
    for x in t.units.iter_mut().filter(|x| x.side == 0 && x.loc < TRACK) {
        x.loc = h;
    }
    g.rebuild(&mut t);
    rejected(&g, &t, "the stacking limit is");
}

#[test]
fn r9_entry_tracks_hold_their_own_groups_until_they_arrive() {
    let (g, s) = states();
    let d = g.data();
    let t0 = d.entry.iter().position(|e| !e.group.is_empty()).unwrap();
    let member = d.entry[t0].group[0] as usize;
    rejected(&g, &moved(&g, &s, on_map(&s), |x| x.loc = TRACK + t0 as u16), "which it does not belong to (R 9.0)");
    let mut t = s.clone();
    t.entry[t0] = d.entry[t0].boxes.len() as u8 + 1;
    rejected(&g, &t, &format!("entry[{t0}]: box"));
    let h = s.units[on_map(&s)].loc;
    rejected(&g, &moved(&g, &s, member, |x| x.loc = h), "has not arrived");
}

#[test]
fn r4_1_every_entered_card_is_in_exactly_one_place() {
    let (g, s) = states();
    let d = g.data();
    let mut t = s.clone();
    let c = s.deck.trailing_zeros();
    t.discard |= 1 << c;
    rejected(&g, &t, "both in the deck and in the discards (R 4.1)");
    let mut t = s.clone();
    t.deck &= !(1 << c);
    rejected(&g, &t, "has entered the game but is nowhere");
    let late = d.cards.iter().position(|c| c.enters != super::super::data::Enters::AtStart).unwrap();
    let mut t = s.clone();
    t.deck |= 1 << late;
    if t.card as usize != late {
        rejected(&g, &t, "is in play before it enters the game");
    }
    let mut t = s.clone();
    t.ieyasu_arrived = true;
    rejected(&g, &t, "ieyasu_arrived: true but 家康's entry track has not");
    let mut t = s.clone();
    t.first_draw = true;
    rejected(&g, &t, "first_draw: set after the first card was drawn");
}

#[test]
fn r11_markers_stay_in_their_boxes() {
    let (g, s) = states();
    let mut t = s.clone();
    t.chouryaku = g.data().chouryaku_labels.len() as u8;
    rejected(&g, &t, "chouryaku: box");
    let mut t = s.clone();
    t.morale[0] = 200;
    rejected(&g, &t, "morale[0]: box 200");
    let mut t = s.clone();
    t.kyoto_owner = 2;
    rejected(&g, &t, "kyoto_owner: 2");
}

#[test]
fn r4_0_the_card_program_matches_the_decision() {
    let (g, s) = states();
    let mut t = s.clone();
    t.discard |= 1 << t.card;
    t.card = NONE;
    rejected(&g, &t, "card: none with the decision");
    let mut t = s.clone();
    t.pending = Pending::Draw;
    t.card = s.card;
    rejected(&g, &t, "card: a card in play with the decision Draw");
    let mut t = s.clone();
    t.mp = 3;
    rejected(&g, &t, "movement points outside a move (R 6.2)");
    let mut t = s.clone();
    t.fight = Some(Fight { from: 0, target: 0, dir: 0, siege: false, stage: 1, queue: 0, hits: 0, modifier: 0 });
    rejected(&g, &t, "fight: an attack with the decision");
    let mut t = s.clone();
    t.pending = Pending::Select { mode: Mode::Move };
    rejected(&g, &t, "cmdr: none with the decision");
    let mut t = s.clone();
    t.turn = 0;
    rejected(&g, &t, "turn: 0 is outside 1..=20");
}

#[test]
fn r14_over_exactly_when_a_victory_condition_holds() {
    let (g, s) = states();
    let d = g.data();
    rejected(&g, &moved(&g, &s, d.ishida as usize, |x| x.loc = DEAD), "a victory condition holds, so the game is over (R 14.0)");
    let mut t = s.clone();
    t.winner = 0;
    rejected(&g, &t, "winner: set while the game goes on");
    let mut t = s.clone();
    t.pending = Pending::Over;
    t.winner = 1;
    rejected(&g, &t, "winner: 1 without its cause");
    // The 調略 marker in the West's victory box is the cause (R 14.0(3)).
    t.chouryaku = d.chouryaku_labels.len() as u8 - 1;
    g.validate_position(&t).unwrap();
    t.winner = 0;
    rejected(&g, &t, "winner: 0 without its cause");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&Daisakusen, &State) -> bool) -> State {
    let g = game();
    positions::first_state(&g, 0..400, |s| pick(&g, s))
}

/// The scenario of the rule test `r7_2_siege_the_besieged_fire_first_and_the_attacker_at_minus_two`
/// on the full map (nothing cleared): 福島正則 moved to 1815, card C05 drawn, an attack on 大垣.
fn siege_at_ogaki() -> State {
    use super::super::action::{Action, ACT_ATTACK};
    let g = game();
    let d = g.data();
    let mut s = g.new_initial_state(1);
    let mut legal = Vec::new();
    while matches!(s.pending, Pending::Setup { .. }) {
        legal.clear();
        g.legal_actions(&s, &mut legal);
        g.apply(&mut s, legal[0], &mut Events::off());
    }
    let (from, ogaki) = (d.hex_index("1815").unwrap(), d.hex_index("1716").unwrap());
    let fukushima = d.counter_index("福島正則").unwrap();
    s.units[fukushima as usize].loc = from;
    g.rebuild(&mut s);
    let c05 = d.cards.iter().position(|c| c.id == "C05").unwrap() as u8;
    let step = |s: &mut State, a: Action| g.step(s, g.encode(a), &mut Events::off()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    step(&mut s, Action::Draw(c05));
    step(&mut s, Action::Commander(fukushima));
    step(&mut s, Action::Act(ACT_ATTACK));
    step(&mut s, Action::Done);
    let dir = (0..6).find(|&k| d.hexes[from as usize].nb[k] == ogaki).unwrap() as u8;
    step(&mut s, Action::Target(dir));
    assert!(s.fight.is_some_and(|f| f.siege && f.stage == 0));
    s
}

/// R 7.2: while the dice are rolled, the attack on 大垣 (a working castle) is a siege; written
/// as a field battle, the position cannot arise.
#[test]
fn r7_2_an_attack_on_a_working_castle_is_a_siege() {
    let g = game();
    let s = siege_at_ogaki();
    assert_eq!(g.validate_position(&s), Ok(()));
    let mut t = s.clone();
    t.fight.as_mut().unwrap().siege = false;
    t.fight.as_mut().unwrap().stage = 1;
    rejected(&g, &t, "fight: siege false at hex 1716, whose castle works: true");
}

/// R 10.0(2)(3): the West's counters stand in 大垣; the castle written as the East's, while
/// they stand in it, cannot arise (entering or turning in a castle takes it at once), and the
/// attack on it would be asked of the wrong side.
#[test]
fn r10_0_a_castle_is_held_by_the_side_whose_counters_stand_in_it() {
    let g = game();
    let d = g.data();
    let s = siege_at_ogaki();
    let ogaki = d.hex_index("1716").unwrap();
    let c = d.hexes[ogaki as usize].castle;
    assert!(s.occ[ogaki as usize][WEST as usize] > 0 && s.castle_west & (1 << c) != 0);
    let mut t = s.clone();
    t.castle_west &= !(1 << c);
    rejected(&g, &t, "is held by side 0, but units[");
    rejected(&g, &t, "(R 10.0(2)(3))");
}

fn scenarios() -> Vec<(&'static str, &'static str, State)> {
    let g = game();
    vec![
        (
            "setup_tozama_placement",
            "The start: East places the 外様主力 counters one by one in the set-up hexes with room, then the first card is drawn (rule §3.0(1)①, RULES_NOTES D23)",
            g.new_initial_state(1),
        ),
        (
            "siege_besieged_fire_first",
            "As the rule test r7_2: 福島正則 (card C05) attacks the castle of 大垣 (1716) from 1815; the garrison 福原長堯 fires first with no modifier, then 福島 at -2, minimum 1 (rule §7.2)",
            siege_at_ogaki(),
        ),
        (
            "advance_after_combat",
            "An attack emptied the target hex: the commander may advance with part of the surviving group, under the movement limits (rule §7.3)",
            found(|_, s| s.pending == Pending::Advance),
        ),
        (
            "chouryaku_judgement",
            "The card owner may attempt a 調略 or 恫喝判定 against a hex of enemy counters before the activations (rule §12.1-12.2)",
            found(|_, s| s.pending == Pending::Plot),
        ),
        (
            "chouryaku_one_box_from_victory",
            "The 調略 marker stands one box from a victory box: the next marker move toward that side wins at once (rule §14.0(3), §11.0(1))",
            found(|g, s| s.pending == Pending::Draw && (s.chouryaku == 1 || s.chouryaku as usize + 2 == g.data().chouryaku_labels.len())),
        ),
        (
            "ieyasu_takes_the_field",
            "家康's group has arrived on the map, so 家康出馬 is in the deck (rule §4.2①, §9.0)",
            found(|_, s| s.pending == Pending::Draw && s.ieyasu_arrived),
        ),
    ]
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them).
#[test]
fn scenario_files_are_up_to_date() {
    let scenarios: Vec<Scenario<Daisakusen>> =
        scenarios().into_iter().map(|(name, description, s)| (name, json!({}), description, s)).collect();
    positions::scenario_files_are_up_to_date::<Daisakusen>(&scenarios);
}
