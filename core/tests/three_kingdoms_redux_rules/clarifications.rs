//! Clarifications that change play (C10-C41 not covered elsewhere) and the hidden-information
//! leak tests for hands and secret choices.

use kassen_core::events::Events;
use kassen_core::game::{Game, SPECTATOR};
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, GLoc, Pending, RegionState, Stage, NONE};
use serde_json::Value;

use super::common::*;

#[test]
fn c12_develop_is_impossible_at_level_5_harvest_still_is() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    s.seats[WEI].farm_level = 5;
    s.seats[WEI].farm_area = 0;
    place(&g, &mut s, "jia_xu", A_FARM, &[]);
    end_bidding(&g, &mut s);
    assert_eq!(g.legal_typed(&s), vec![Action::Decline(A_FARM)], "nothing to develop or harvest");
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    s.seats[WEI].farm_level = 5;
    s.seats[WEI].farm_area = 2;
    place(&g, &mut s, "jia_xu", A_FARM, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_FARM));
    assert!(matches!(s.pending, Pending::Bank { .. }), "only harvest is possible");
}

#[test]
fn c13_trade_caps_and_one_direction_per_mode() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    s.seats[WEI].gold = 40;
    s.seats[WEI].rice = 40;
    place(&g, &mut s, "jia_xu", A_TRADE, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_TRADE));
    // rice: skip, buy 1-3 lots (12 rice cap), sell 1-3 lots: one direction only
    assert_eq!(g.legal_typed(&s), (0..7).map(Action::Choice).collect::<Vec<_>>());
    act(&g, &mut s, Action::Choice(3));
    assert_eq!(s.seats[WEI].rice, 40 + 12);
    // weapons: at most 2 lots (6 weapons) each way; nothing to sell here
    assert_eq!(g.legal_typed(&s), vec![Action::Choice(0), Action::Choice(1), Action::Choice(2)]);
}

#[test]
fn c24_round_end_benefits_in_the_final_round() {
    let g = plain();
    let mut s = bidding(&g, 12, &["mi_zhu"], NONE);
    end_bidding(&g, &mut s);
    assert!(s.is_over());
    assert_eq!(s.seats[SHU].gold, 5 + 1, "미축's income is received in the final round");
}

#[test]
fn c26_a_player_orders_its_own_won_actions() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu", "xu_chu"], NONE);
    place(&g, &mut s, "jia_xu", A_FARM, &[]);
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "xu_chu", A_RECRUIT, &[]);
    end_bidding(&g, &mut s);
    let legal = g.legal_typed(&s);
    assert!(legal.contains(&Action::Perform(A_FARM)) && legal.contains(&Action::Perform(A_RECRUIT)));
    act(&g, &mut s, Action::Perform(A_RECRUIT));
    assert_eq!(s.seats[WEI].untrained, 2);
    assert_eq!(g.legal_typed(&s), vec![Action::Perform(A_FARM), Action::Decline(A_FARM)]);
}

#[test]
fn c29_no_regions_on_a_border_is_a_tie() {
    let g = plain();
    let s = bidding(&g, 12, &[], NONE);
    let sc = g.scores(&s);
    assert_eq!([sc[0].borders, sc[1].borders, sc[2].borders], [2, 2, 2], "two ties each");
}

#[test]
fn c31_abilities_stay_active_while_stationed() {
    // 조인: +1 military at each round end while stationed
    let g = plain();
    let mut s = bidding(&g, 2, &["cao_ren"], NONE);
    let r = region(&g, "chibi") as usize;
    s.regions[r] = RegionState { seat: 0, general: idx(&g, "cao_ren"), unit: 3, units: 1, flipped: true };
    s.gloc[idx(&g, "cao_ren") as usize] = GLoc::Stationed;
    s.stationed[WEI].push(r as u8);
    s.seats[WEI].gold = 5;
    s.seats[WEI].rice = 5;
    end_bidding(&g, &mut s);
    assert_eq!(s.seats[WEI].military, 1 + 1, "ability +1 and upkeep +1 for the unit");
}

#[test]
fn c33_an_empty_deck_cannot_be_drawn_from() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    // every unity card is in someone's hand
    for &d in &g.data().dev_decks[0] {
        s.seats[WU].hand |= 1 << d;
    }
    place(&g, &mut s, "jia_xu", A_INSTRUCT, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_INSTRUCT));
    act(&g, &mut s, Action::Choice(0)); // no instructor
    assert_eq!(g.legal_typed(&s), vec![Action::Choice(0), Action::Choice(2)], "only the separation deck");
}

/// Wei builds the 주둔지 (Garrison: 2 gold + 1 army) with `trained` and `untrained` armies in
/// its supply: the position right after choosing the card.
fn build_garrison(
    trained: i32,
    untrained: i32,
) -> (kassen_core::games::three_kingdoms_redux::Tkr, kassen_core::games::three_kingdoms_redux::State, u8) {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    let garrison = dev(&g, "garrison");
    s.seats[WEI].hand = 1 << garrison;
    s.seats[WEI].trained = trained;
    s.seats[WEI].untrained = untrained;
    place(&g, &mut s, "jia_xu", A_BUILD, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BUILD));
    act(&g, &mut s, Action::Dev(garrison));
    (g, s, garrison)
}

#[test]
fn c34_army_costs_take_either_side() {
    // only trained armies: no real choice, paid at once
    let (_, s, garrison) = build_garrison(1, 0);
    assert_eq!((s.seats[WEI].trained, s.seats[WEI].gold), (0, 3 - 2));
    assert!(s.seats[WEI].built & (1 << garrison) != 0);
}

#[test]
fn c34_t9_the_payer_chooses_which_armies_pay_when_it_has_both() {
    // the army icon of a cost accepts either side (C34): with one untrained and one trained
    // army the payer chooses; the cost is paid only when the choice is made
    let (g, mut s, garrison) = build_garrison(1, 1);
    assert_eq!(s.pending, Pending::ArmyCost { dev: garrison });
    assert_eq!(g.legal_typed(&s), vec![Action::Choice(0), Action::Choice(1)]);
    assert_eq!(s.seats[WEI].gold, 3, "nothing is paid before the choice");
    assert!(g.action_to_string(&s, g.encode(Action::Choice(1))).contains("1 trained and 0 untrained"));
    let mut other = s.clone();
    act(&g, &mut s, Action::Choice(1)); // pay with the trained army
    assert_eq!((s.seats[WEI].untrained, s.seats[WEI].trained, s.seats[WEI].gold), (1, 0, 1));
    assert!(s.seats[WEI].built & (1 << garrison) != 0);
    act(&g, &mut other, Action::Choice(0)); // or with the untrained one
    assert_eq!((other.seats[WEI].untrained, other.seats[WEI].trained), (0, 1));
}

#[test]
fn c38_security_counts_support_in_supply() {
    let g = plain();
    let mut s = bidding(&g, 12, &[], NONE);
    for p in s.seats.iter_mut() {
        p.tribal = 5;
        p.support = 0;
    }
    s.seats[SHU].support = 1;
    assert_eq!(g.scores(&s)[SHU].security, 5);
}

#[test]
fn c40_both_battle_actions_in_one_round() {
    let g = plain();
    let mut s = bidding(&g, 2, &["zhang_fei", "jiang_wei"], NONE);
    s.seats[SHU].trained = 4;
    s.seats[SHU].weapons = [2, 2, 2, 2];
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "zhang_fei", A_BATTLE0 + 1, &[Action::Unit(1), Action::Unit(1)]);
    place(&g, &mut s, "jiang_wei", A_BATTLE0, &[Action::Unit(2), Action::Unit(2)]);
    end_bidding(&g, &mut s);
    // §9 예시 (군사 점수): 장비 + 2 cavalry on 공안, 강유 + 2 archers on 기산
    act(&g, &mut s, Action::Perform(A_BATTLE0 + 1));
    act(&g, &mut s, Action::General(idx(&g, "zhang_fei")));
    act(&g, &mut s, Action::Region(region(&g, "gongan")));
    act(&g, &mut s, Action::Choice(2));
    act(&g, &mut s, Action::Choice(0));
    act(&g, &mut s, Action::Perform(A_BATTLE0));
    act(&g, &mut s, Action::General(idx(&g, "jiang_wei")));
    act(&g, &mut s, Action::Region(region(&g, "qishan")));
    act(&g, &mut s, Action::Choice(2));
    act(&g, &mut s, Action::Choice(1));
    assert_eq!(s.stationed[SHU].len(), 2);
    assert_eq!(s.seats[SHU].military, 4, "+4 in this round's upkeep");
}

/// Plays the setup to Wu's first keep decision.
fn to_wu_keep(seed: u64) -> (kassen_core::games::three_kingdoms_redux::Tkr, kassen_core::games::three_kingdoms_redux::State) {
    let g = plain();
    let mut s = g.new_initial_state(seed);
    let mut ev = Events::off();
    while !matches!(s.pending, Pending::Keep { seat: 1, .. }) {
        let a = match g.current_player(&s) {
            kassen_core::game::CHANCE => g.sample_chance(&mut s),
            _ => {
                let mut l = Vec::new();
                g.legal_actions(&s, &mut l);
                l[0]
            }
        };
        g.apply(&mut s, a, &mut ev);
    }
    (g, s)
}

#[test]
fn c41_secret_keeps_hidden_until_the_reveal() {
    let (g, s) = to_wu_keep(9);
    assert_eq!(s.stage, Stage::Recruit);
    // Wei has chosen 4 generals, hidden from Wu, Shu and the spectator
    let chosen: Vec<usize> = (0..s.gloc.len()).filter(|&i| s.gloc[i] == GLoc::Chosen).collect();
    assert_eq!(chosen.len(), 4);
    for p in [1, 2, SPECTATOR] {
        let v = g.view(&s, p);
        let text = v.to_string();
        for &c in &chosen {
            assert!(!text.contains(&format!("\"{}\"", g.data().generals[c].id)), "seat {p} sees Wei's chosen {}", g.data().generals[c].id);
        }
        assert_eq!(v["seats"][0]["generals_chosen"], Value::from(4));
    }
    // Wei sees its own choices
    assert!(g.view(&s, 0).to_string().contains(&format!("\"{}\"", g.data().generals[chosen[0]].id)));
    // the drawn generals of Wu are in Wu's view only
    let drawn: Vec<usize> = (0..s.gloc.len()).filter(|&i| s.gloc[i] == GLoc::Drawn).collect();
    assert_eq!(drawn.len(), 6);
    assert!(g.view(&s, 1).to_string().contains(&format!("\"{}\"", g.data().generals[drawn[0]].id)));
    assert!(!g.view(&s, 0).to_string().contains(&format!("\"{}\"", g.data().generals[drawn[0]].id)));
}

#[test]
fn development_hands_never_reach_another_seat() {
    let (g, s) = to_wu_keep(4);
    for k in 0..3 {
        for p in [0, 1, 2, SPECTATOR] {
            let v = g.view(&s, p);
            if p == k as i32 {
                assert!(v["seats"][k]["hand"].is_array());
            } else {
                assert!(v["seats"][k]["hand"].is_null(), "seat {p} sees seat {k}'s hand");
            }
            assert_eq!(v["seats"][k]["hand_size"], Value::from(g.data().start_hand[k][0] as u32 + g.data().start_hand[k][1] as u32));
        }
    }
    // two states that differ only in Wei's hand give Wu the same view and tensor
    let mut t = s.clone();
    let a = s.seats[0].hand.trailing_zeros() as u8;
    let deck = g.data().developments[a as usize].deck as usize;
    let in_use = |x: u8| s.seats.iter().any(|p| (p.hand | p.built) & (1 << x) != 0);
    let b = g.data().dev_decks[deck].iter().copied().find(|&x| !in_use(x)).expect("a card left in the deck");
    t.seats[0].hand = (t.seats[0].hand & !(1 << a)) | (1 << b);
    assert_eq!(g.view(&s, 1), g.view(&t, 1));
    let n = g.info().observation_len();
    let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
    g.observation_tensor(&s, 1, &mut x);
    g.observation_tensor(&t, 1, &mut y);
    assert_eq!(x, y);
    assert_ne!(g.view(&s, 0), g.view(&t, 0));
}
