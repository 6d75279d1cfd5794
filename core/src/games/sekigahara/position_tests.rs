//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! samples keep the observer's view, and the scenario files are these
//! scenarios. The checks every game shares (position files load and play to the end, the
//! fuzz, playout-policy games): `crate::testing::positions`.

use serde_json::{json, Map};

use super::super::data::NONE;
use super::super::state::{Pending, State, BAG, DEAD, DEPLOYED, IN_CASTLE, MORI_BOX, MOVED};
use super::super::Sekigahara;
use super::{sample_position, validate_position};
use crate::game::Game;
use crate::rng::Rng;
use crate::testing::positions::{self, playout, Scenario};

fn game() -> Sekigahara {
    Sekigahara::setup(&Map::new()).unwrap()
}

#[test]
fn every_state_of_random_games_validates() {
    let g = game();
    let states =
        positions::every_state_validates(&g, 0..500, 0x33, |s| format!("{:?} week {} turn {} step {}", s.pending, s.week, s.turn, s.step));
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

#[test]
fn samples_keep_the_observers_view_and_validate_and_vary() {
    let g = game();
    let (mut varied, mut compared) = (0, 0);
    for seed in 0..8u64 {
        compared += positions::samples_keep_the_view(
            &g,
            seed,
            6,
            |step, _| step % 23 == 0,
            |step, k| seed * 1009 + step * 7 + k,
            |t| (t.blocks.clone(), t.hand.clone(), t.deck.clone(), t.discard.clone()),
            |_, _, _, distinct| varied += usize::from(distinct > 1),
        );
    }
    // Every state past the setup draws hides a hand or a bag from every observer.
    assert!(varied > 100 && compared > 1000, "{varied} {compared}");
}

#[test]
fn samples_depend_only_on_the_view() {
    positions::samples_depend_only_on_the_view(&game(), 3, 31);
}

#[test]
fn r5_the_own_blocks_and_cards_are_kept_and_the_others_dealt_anew() {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(6), 6, |x| {
        if s.is_none() && x.week == 2 && x.pending == Pending::Mode {
            s = Some(x.clone());
        }
    });
    let s = s.unwrap();
    let mut moved_block = false;
    for k in 0..20 {
        let t = sample_position(&g, &s, 0, &mut Rng::from_seed(k));
        assert_eq!(
            t.hand.iter().zip(&g.data.cards).filter(|(_, c)| c.side == 0).map(|(n, _)| n).collect::<Vec<_>>(),
            s.hand.iter().zip(&g.data.cards).filter(|(_, c)| c.side == 0).map(|(n, _)| n).collect::<Vec<_>>(),
            "Tokugawa's own hand"
        );
        for (i, b) in s.blocks.iter().enumerate() {
            if g.data.blocks[i].side == 0 {
                assert_eq!(t.blocks[i], *b, "Tokugawa's own block {i}");
            } else if [MORI_BOX, DEAD].contains(&b.loc) {
                assert_eq!(t.blocks[i], *b, "a face-up Ishida block {i}");
            } else {
                moved_block |= t.blocks[i] != *b;
            }
        }
    }
    assert!(moved_block, "Ishida's face-down blocks were never dealt anew");
}

// === corruptions ===

fn mid_game() -> (Sekigahara, State) {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(2), 2, |x| {
        if s.is_none() && x.week == 2 && x.pending == Pending::Mode && !x.due.any() {
            s = Some(x.clone());
        }
    });
    let s = s.unwrap();
    validate_position(&g, &s).unwrap();
    (g, s)
}

fn rejected(g: &Sekigahara, s: &State, needle: &str) {
    positions::assert_rejected(validate_position(g, s), needle);
}

fn block_at(s: &State, pred: impl Fn(usize) -> bool) -> usize {
    (0..s.blocks.len()).find(|&i| pred(i)).expect("such a block")
}

#[test]
fn r5_blocks_stay_where_their_origin_allows() {
    let (g, s) = mid_game();
    let fixed =
        block_at(&s, |i| g.data.blocks[i].start != super::super::data::Start::Bag && s.blocks[i].loc < 100 && !g.data.blocks[i].commander);
    let mut t = s.clone();
    t.blocks[fixed].loc = BAG;
    t.blocks[fixed].flags = 0;
    t.blocks[fixed].from = NONE;
    rejected(&g, &t, "is in a bag or recruitment box but starts on the map");
    let mut t = s.clone();
    t.blocks[fixed].loc = MORI_BOX;
    rejected(&g, &t, "which holds only Mori blocks (9.3)");
    let mut t = s.clone();
    t.blocks[fixed].loc = 99;
    rejected(&g, &t, "neither on the map nor a box");
    let bagged = block_at(&s, |i| s.blocks[i].loc == BAG);
    let mut t = s.clone();
    t.blocks[bagged].flags = IN_CASTLE;
    rejected(&g, &t, "off the map with flags");
    let no_castle = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_none()).unwrap() as u8;
    let mut t = s.clone();
    t.blocks[fixed].loc = no_castle;
    t.blocks[fixed].flags = IN_CASTLE;
    rejected(&g, &t, "inside a castle where there is none (8.9.2)");
    let mut t = s.clone();
    t.blocks[fixed].flags = DEPLOYED;
    rejected(&g, &t, "deployed outside the battle in progress (8.2.3)");
}

#[test]
fn r3_3_every_card_is_in_exactly_one_pile() {
    let (g, s) = mid_game();
    let c = (0..g.data.cards.len()).find(|&c| s.deck[c] > 0).unwrap();
    let mut t = s.clone();
    t.deck[c] -= 1;
    rejected(&g, &t, "copies of");
    let mut t = s.clone();
    t.hand[c] += 1;
    rejected(&g, &t, "in hand, deck, discards, reinforcement discards, bid and battle");
    let mut t = s.clone();
    t.deck[c] -= 1;
    t.reinforce_discards[c] += 1;
    rejected(&g, &t, "reinforce_done");
    let mut t = s.clone();
    t.bids[0] = c as u8;
    rejected(&g, &t, "a bid card without a bid (6.3)");
    let mut t = s.clone();
    let side = g.data.cards[c].side;
    for &k in &g.data.side_cards[side as usize] {
        t.discard[k as usize] += t.deck[k as usize];
        t.deck[k as usize] = 0;
    }
    t.due.cards[side as usize] = 1;
    rejected(&g, &t, "a card is owed from an empty deck");
}

#[test]
fn r4_3_castle_control_follows_the_units() {
    let (g, s) = mid_game();
    let l = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_some() && !s.contested(&g, l as u8)).unwrap();
    let mut t = s.clone();
    t.castle[l] = 1 - s.castle[l];
    rejected(&g, &t, &format!("castle[{l}]: held by side"));
    let none = (0..g.data.locations.len()).find(|&l| g.data.locations[l].castle.is_none()).unwrap();
    let mut t = s.clone();
    t.castle[none] = 0;
    rejected(&g, &t, "has no castle (4.3)");
    let mut t = s.clone();
    let r = (0..g.data.locations.len()).find(|&l| !g.data.locations[l].resource).unwrap();
    t.resource[r] = 0;
    rejected(&g, &t, "is no resource location");
}

#[test]
fn r6_the_sequence_matches_the_pending_decision() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.step = 1;
    rejected(&g, &t, "in step 1 of the turn");
    let mut t = s.clone();
    t.pending = Pending::Bid { side: 0 };
    t.step = 0;
    t.turn = 1;
    rejected(&g, &t, "during the week's start");
    let mut t = s.clone();
    t.pending = Pending::Deploy;
    t.step = 1;
    rejected(&g, &t, "no battle with the decision Deploy");
    let mut t = s.clone();
    t.week = 0;
    rejected(&g, &t, "week: week 0");
    let mut t = s.clone();
    t.bid_made = [true, false];
    rejected(&g, &t, "bids outstanding after the bid");
    let mut t = s.clone();
    t.mode = super::super::state::Mode::Limited;
    t.pending = Pending::PayMode { left: 2 };
    rejected(&g, &t, "2 cards left to pay for the limited mode (7.1)");
    t.pending = Pending::Exchange { discarded: 0 };
    rejected(&g, &t, "a card exchange in the limited mode (7.1)");
    let mut t = s.clone();
    t.forced = Some((200, 0));
    rejected(&g, &t, "forced: (200, 0) is no battle");
    // 7.3: a group sets out from its origin.
    let mut t = found(|x| x.pending == Pending::Group && x.group.steps == 0);
    validate_position(&g, &t).unwrap();
    t.group.origin = if t.group.at == 0 { 1 } else { 0 };
    rejected(&g, &t, "a group that has not stepped is away from its origin (7.3)");
}

#[test]
fn r2_over_exactly_when_the_game_ends() {
    let (g, s) = mid_game();
    let commander = (0..s.blocks.len()).find(|&i| g.data.blocks[i].commander && g.data.blocks[i].side == 1).unwrap();
    let mut t = s.clone();
    t.blocks[commander] = super::super::state::Blk { loc: DEAD, flags: 0, from: NONE };
    rejected(&g, &t, "a commander is eliminated or Hideyori captured, so the game is over (2.1)");
    t.pending = Pending::Over;
    t.end = Some(super::super::state::EndReason::Immediate);
    t.winner = 0;
    validate_position(&g, &t).unwrap();
    t.winner = 1;
    rejected(&g, &t, "without its cause (2.1-2.2)");
    let mut t = s.clone();
    t.pending = Pending::Over;
    t.end = Some(super::super::state::EndReason::Points);
    t.winner = 0;
    rejected(&g, &t, "without its cause");
    let mut t = s.clone();
    t.winner = 0;
    rejected(&g, &t, "end: set while the game goes on (2)");
}

/// Issue 33: a castle held by the side whose blocks just arrived, which made the engine ask
/// that side to choose between a siege and a field battle. The castle is the defender's: it
/// was there when the attacker moved in (4.3, 8.9.1).
#[test]
fn r8_9_1_a_castle_is_not_held_by_the_side_that_just_arrived() {
    let g = game();
    let s = found(|s| matches!(s.pending, Pending::SiegeChoice { .. }));
    let b = s.battle.clone().unwrap();
    assert_eq!(validate_position(&g, &s), Ok(()));
    assert!(s.blocks.iter().zip(&g.data.blocks).any(|(x, d)| x.loc == b.loc && d.side == b.attacker && x.flags & MOVED != 0));
    let mut t = s.clone();
    t.castle[b.loc as usize] = b.attacker;
    t.battle.as_mut().unwrap().holder = b.attacker;
    t.pending = Pending::SiegeChoice { side: b.attacker };
    rejected(&g, &t, "whose units there all just arrived");
    // The same castle before the battle is declared.
    let mut t = s.clone();
    t.castle[b.loc as usize] = b.attacker;
    t.battle = None;
    t.declared &= !(1 << b.loc);
    t.pending = Pending::Combat;
    rejected(&g, &t, "whose units there all just arrived");
}

/// 8.9.2: the side asked to choose a siege or a field battle is the battle's castle holder.
#[test]
fn r8_9_2_the_siege_choice_is_the_castle_holders() {
    let g = game();
    let s = found(|s| matches!(s.pending, Pending::SiegeChoice { .. }));
    let Pending::SiegeChoice { side } = s.pending else { unreachable!() };
    let mut t = s.clone();
    t.pending = Pending::SiegeChoice { side: 1 - side };
    rejected(&g, &t, "chooses a siege or a field battle, but the castle there is held by side");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&State) -> bool) -> State {
    positions::first_state(&game(), 0..300, |s| !s.due.any() && pick(s))
}

fn scenarios() -> Vec<(&'static str, &'static str, State)> {
    vec![
        (
            "initiative_bid",
            "Week 2: Tokugawa has bid a card face down for the initiative and Ishida bids now without seeing it; the higher initiative chooses who moves first (rule §6.3)",
            found(|s| s.week == 2 && s.pending == (Pending::Bid { side: 1 })),
        ),
        (
            "muster_from_the_recruitment_box",
            "A muster under way: blocks from the recruitment box go to a location that may recruit them, option A or B (rule §7.2)",
            found(|s| matches!(s.pending, Pending::Muster { .. })),
        ),
        (
            "siege_choice",
            "The holder of a castle chooses to stay inside (a siege) or fight outside (rule §8.9.2)",
            found(|s| matches!(s.pending, Pending::SiegeChoice { .. })),
        ),
        (
            "loyalty_challenge",
            "A block was just deployed: its opponent may play a Loyalty Challenge, which the deploying side must refute with a matching card or lose the block to the enemy (rule §8.6.1)",
            found(|s| s.pending == Pending::Challenge),
        ),
        (
            "retreat_after_battle",
            "A battle is lost: the loser chooses where its surviving blocks retreat (rule §8.8)",
            found(|s| s.pending == Pending::Retreat),
        ),
        (
            "last_week_combat",
            "The last week's last combat phase: when it ends, the castles (2 points) and resource locations (1 point) decide the winner (rule §2.2)",
            found(|s| s.week == game().data.weeks && s.turn == 1 && s.step == 3 && s.pending == Pending::Combat),
        ),
    ]
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them).
#[test]
fn scenario_files_are_up_to_date() {
    let scenarios: Vec<Scenario<Sekigahara>> =
        scenarios().into_iter().map(|(name, description, s)| (name, json!({}), description, s)).collect();
    positions::scenario_files_are_up_to_date::<Sekigahara>(&scenarios);
}
