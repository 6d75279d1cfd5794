//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! samples keep the observer's view, and the scenario files are these
//! scenarios. The checks every game shares (position files load and play to the end, the
//! fuzz, playout-policy games): `crate::testing::positions`.

use serde_json::{json, Map};

use super::super::data::{A_BATTLE0, A_FARM};
use super::super::state::*;
use super::super::Tkr;
use super::{sample_position, validate_position};
use crate::game::{Game, CHANCE};
use crate::rng::Rng;
use crate::testing::positions::{self, playout, Scenario};

fn game() -> Tkr {
    Tkr::setup(&Map::new()).unwrap()
}

#[test]
fn every_state_of_random_games_validates() {
    let mut states = 0;
    for cfg in Tkr::covered_configs() {
        let g = Tkr::setup(cfg.as_object().unwrap()).unwrap();
        states += positions::every_state_validates(&g, 0..200, 0x99, |s| format!("{cfg} {:?} {:?} round {}", s.stage, s.pending, s.round));
    }
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

#[test]
fn samples_keep_the_observers_view_and_validate_and_vary() {
    let g = game();
    let (mut varied, mut compared) = (0, 0);
    for seed in 0..6u64 {
        compared += positions::samples_keep_the_view(
            &g,
            seed,
            6,
            |step, _| step % 17 == 0,
            |step, k| seed * 1013 + step * 7 + k,
            |t| (t.seats.iter().map(|p| (p.hand, p.import_drawn)).collect::<Vec<_>>(), t.gloc.clone(), t.bottom.clone()),
            |_, _, _, distinct| varied += usize::from(distinct > 1),
        );
    }
    assert!(varied > 100 && compared > 1000, "{varied} {compared}");
}

#[test]
fn samples_depend_only_on_the_view() {
    positions::samples_depend_only_on_the_view(&game(), 5, 29);
}

#[test]
fn r7_1_unrevealed_generals_are_dealt_from_their_own_kingdoms_deck() {
    let g = game();
    let mut s = None;
    playout(&g, g.new_initial_state(2), 2, |x| {
        if s.is_none() && x.round > 1 && matches!(x.pending, Pending::Keep { seat: 2, .. }) {
            s = Some(x.clone());
        }
    });
    let s = s.expect("a recruitment with drawn generals");
    let mut varied = false;
    for k in 0..20 {
        let t = sample_position(&g, &s, 0, &mut Rng::from_seed(k));
        for (i, gen) in g.data.generals.iter().enumerate() {
            if gen.kingdom == 0 {
                assert_eq!(t.gloc[i], s.gloc[i], "seat 0's own generals are kept");
            }
        }
        varied |= t.gloc != s.gloc;
    }
    assert!(varied, "the other seats' drawn generals never changed");
}

// === corruptions ===

fn mid_game() -> (Tkr, State) {
    let g = game();
    let mut s = None;
    for seed in 0..100 {
        playout(&g, g.new_initial_state(seed), seed, |x| {
            if s.is_none()
                && x.round >= 4
                && x.pending == Pending::Bid
                && x.placements.len() >= 2
                && x.stationed.iter().any(|v| !v.is_empty())
            {
                s = Some(x.clone());
            }
        });
        if s.is_some() {
            break;
        }
    }
    let s = s.expect("bidding with a stationed general");
    validate_position(&g, &s).unwrap();
    (g, s)
}

fn rejected(g: &Tkr, s: &State, needle: &str) {
    positions::assert_rejected(validate_position(g, s), needle);
}

#[test]
fn r2_every_development_card_is_in_one_place() {
    let (g, s) = mid_game();
    let k = (0..3).find(|&k| s.seats[k].hand != 0).unwrap();
    let c = s.seats[k].hand.trailing_zeros();
    let mut t = s.clone();
    t.seats[(k + 1) % 3].hand |= 1 << c;
    rejected(&g, &t, "a development card is in two places (§2)");
    let mut t = s.clone();
    t.seats[k].built |= 1 << c;
    rejected(&g, &t, "a development card is in two places");
    let mut t = s.clone();
    t.seats[k].hand &= !(1 << c);
    t.seats[k].built |= 1 << c;
    rejected(&g, &t, &format!("built_round[{c}]: 0 for a card built"));
    let mut t = s.clone();
    let deck = g.data.developments[c as usize].deck as usize;
    t.bottom[deck].push((c as u8, 0));
    rejected(&g, &t, "is at the bottom and in another place (T1)");
    let mut t = s.clone();
    t.bottom[1 - deck].push((c as u8, 0));
    rejected(&g, &t, "is no card of that deck");
}

#[test]
fn r7_generals_are_in_one_place_with_their_recruitment_round() {
    let (g, s) = mid_game();
    let ruler = g.data.rulers[0] as usize;
    let mut t = s.clone();
    t.gloc[ruler] = GLoc::Deck;
    rejected(&g, &t, "recruited_round");
    let undrafted = (0..s.gloc.len()).find(|&i| s.gloc[i] == GLoc::Deck).unwrap();
    let mut t = s.clone();
    t.gloc[undrafted] = GLoc::Drawn;
    rejected(&g, &t, "outside a recruitment (§7 1))");
    let mut t = s.clone();
    t.recruited_round[ruler] = s.round + 1;
    rejected(&g, &t, &format!("in round {} (§7 1))", s.round));
    // A seat keeps some of the generals it draws, no more.
    // (a chance node: `found` skips those)
    let mut t = positions::first_state(&g, 0..300, |x| matches!(x.pending, Pending::DrawGeneral { .. }));
    validate_position(&g, &t).unwrap();
    let Pending::DrawGeneral { seat, .. } = t.pending else { unreachable!() };
    t.keep_left[seat as usize] = 51;
    rejected(&g, &t, "generals it draws (§7 1))");
}

#[test]
fn r8_regions_are_held_by_stationed_generals_of_the_holder() {
    let (g, s) = mid_game();
    let r = (0..s.regions.len()).find(|&r| s.regions[r].seat != NONE).unwrap();
    let holder = s.regions[r].seat as usize;
    let mut t = s.clone();
    t.regions[r].seat = ((holder + 1) % 3) as u8;
    rejected(&g, &t, "is no occupation");
    let mut t = s.clone();
    let gen = t.regions[r].general as usize;
    t.regions[r] = RegionState { seat: NONE, general: NONE, unit: NONE, units: 0, flipped: false };
    rejected(&g, &t, &format!("gloc[{gen}]: {} is Stationed but holds no region", g.data.generals[gen].id));
    t.gloc[gen] = GLoc::Active;
    rejected(&g, &t, &format!("stationed[{holder}]: region {r} is not held by seat {holder}"));
    let mut t = s.clone();
    t.seats[0].granary_regions |= 1;
    t.seats[1].granary_regions |= 1;
    rejected(&g, &t, "a region token beyond the map or in two places");
    // The holder banked the region's token when it occupied it; an empty region's is unbanked.
    let empty = (0..s.regions.len()).find(|&r| s.regions[r].seat == NONE).unwrap();
    let mut t = s.clone();
    t.seats[holder].treasury_regions |= 1 << empty;
    rejected(&g, &t, &format!("seats[{holder}].treasury_regions: the region tokens banked are not those"));
    let mut t = s.clone();
    t.seats[holder].granary_regions &= !(1 << r);
    t.seats[holder].treasury_regions &= !(1 << r);
    rejected(&g, &t, &format!("seats[{holder}].treasury_regions: the region tokens banked are not those"));
}

#[test]
fn r9_supplies_stay_in_bounds() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.seats[1].rice = -1;
    rejected(&g, &t, "seats[1].rice: -1 is below zero");
    let mut t = s.clone();
    t.seats[2].tribal = g.data.tribal_max + 1;
    rejected(&g, &t, "seats[2].tribal");
    let mut t = s.clone();
    t.seats[0].trained = g.data.limit_armies + 1;
    rejected(&g, &t, "beyond the components (C35)");
    let mut t = s.clone();
    t.seats[1].farm_area = t.seats[1].farm_level + 1;
    rejected(&g, &t, "the developed tokens are at most the level");
    let mut t = s.clone();
    t.seats[0].todo |= 1 << 3;
    t.seats[0].won &= !(1 << 3);
    rejected(&g, &t, "an action to perform that was not won");
}

#[test]
fn r7_3_the_bids_add_up_and_the_stage_matches_the_decision() {
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.totals[0][0] += 1;
    rejected(&g, &t, "do not add up to the placements");
    let mut t = s.clone();
    let p = t.placements[0];
    t.placements.push(p);
    rejected(&g, &t, "is placed twice");
    let mut t = s.clone();
    t.stage = Stage::Alliance;
    rejected(&g, &t, "in the Alliance stage");
    let mut t = s.clone();
    t.acting = 2;
    rejected(&g, &t, "acting: an action under way");
    let mut t = s.clone();
    t.round = 0;
    rejected(&g, &t, "round: 0");
    let mut t = s.clone();
    t.bid_order = [0, 0, 1];
    rejected(&g, &t, "bid_order");
    // T4: what goes with a general: units up to its leadership, of one type, on a battle or
    // tribal action; gold on a tribal action only, never with units.
    let mut t = s.clone();
    t.placements[0].units = 127;
    t.placements[0].unit = 0;
    t.placements[0].action = A_BATTLE0;
    rejected(&g, &t, "(T4)");
    let mut t = s.clone();
    t.placements[0].units = 1;
    t.placements[0].unit = NONE;
    rejected(&g, &t, "(T4)");
    let mut t = s.clone();
    t.placements[0].action = A_FARM;
    t.placements[0].unit = 0;
    t.placements[0].units = 1;
    rejected(&g, &t, "(T4)");
    let mut t = s.clone();
    t.placements[0].action = A_BATTLE0;
    t.placements[0].gold = 1;
    rejected(&g, &t, "(T4)");
    // The placement under way: nothing goes with the general before its action (T4).
    let mut t = found(|x| x.pending == Pending::Target);
    validate_position(&g, &t).unwrap();
    t.cur.as_mut().expect("a placement under way").gold = 1;
    rejected(&g, &t, "before its action is chosen (T4)");
    // §8 3): the seat in action order performs, one of its won actions still to do.
    let s = found(|x| x.stage == Stage::Perform && x.acting != NONE);
    validate_position(&g, &s).unwrap();
    let mut t = s.clone();
    t.seat = (t.seat + 1) % 3;
    rejected(&g, &t, "is the one in action order");
    let mut t = s.clone();
    t.seats[t.seat as usize].todo &= !(1 << t.acting);
    rejected(&g, &t, "its actions to do are");
    // The end queued behind an action's bonuses is that action's, of the seat performing it.
    let is_finish = |q: &Deferred| matches!(q, Deferred::Finish { .. });
    let mut t = found(|x| x.queue.iter().any(is_finish));
    validate_position(&g, &t).unwrap();
    let i = t.queue.iter().position(is_finish).unwrap();
    t.queue[i] = Deferred::Finish { seat: (t.seat + 1) % 3, action: t.acting };
    rejected(&g, &t, "queue: Finish");
}

#[test]
fn r11_over_exactly_with_its_trigger_and_scores() {
    let g = game();
    let end = playout(&g, g.new_initial_state(8), 8, |_| {});
    validate_position(&g, &end).unwrap();
    let mut t = end.clone();
    t.final_scores[0] += 1;
    rejected(&g, &t, "final_scores");
    let mut t = end.clone();
    t.end_reason = if end.end_reason == 1 { 2 } else { 1 };
    rejected(&g, &t, "end_reason");
    let (g, s) = mid_game();
    let mut t = s.clone();
    t.end_reason = 1;
    rejected(&g, &t, "end_reason: set while the game goes on");
}

// === scenario files (positions/*.json) ===

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(pick: impl Fn(&State) -> bool) -> State {
    let g = game();
    positions::first_state(&g, 0..300, |s| g.current_player(s) != CHANCE && pick(s))
}

fn scenarios() -> Vec<(&'static str, &'static str, State)> {
    vec![
        (
            "recruitment_keep",
            "A recruitment: each kingdom keeps generals from its draws in secret; they are revealed when all three have chosen (rule §7 1))",
            found(|s| s.round > 1 && matches!(s.pending, Pending::Keep { .. })),
        ),
        (
            "alliance_token",
            "The third player in bid order puts the alliance token on an action (rule §7 2))",
            found(|s| s.round > 1 && s.pending == Pending::Alliance),
        ),
        (
            "bidding_round",
            "Bidding in progress: generals with units, gold and support tokens on the actions; the highest total wins each action (rule §7 3))",
            found(|s| s.pending == Pending::Bid && s.placements.len() >= 4),
        ),
        (
            "import_technology_keep",
            "Import Technology: the importer keeps some of the drawn development cards; the others go to the bottom of their deck, known only to the importer (rule §8 3), RULES_NOTES T1)",
            found(|s| matches!(s.pending, Pending::KeepImport { .. })),
        ),
        (
            "battle_occupy_region",
            "A battle won: the winning general occupies a border region with units (rule §8 3))",
            found(|s| matches!(s.pending, Pending::OccupyRegion { .. })),
        ),
        (
            "last_round_resolution",
            "The last round's resolution: after it the game ends and is scored (rule §11)",
            found(|s| s.round == game().data.rounds && s.pending == Pending::ChooseAction),
        ),
    ]
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them).
#[test]
fn scenario_files_are_up_to_date() {
    let scenarios: Vec<Scenario<Tkr>> = scenarios().into_iter().map(|(name, description, s)| (name, json!({}), description, s)).collect();
    positions::scenario_files_are_up_to_date::<Tkr>(&scenarios);
}
