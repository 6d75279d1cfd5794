//! The 18 effect types of the vocabulary, each exercised through a card of the real data.

use std::collections::BTreeSet;

use kassen_core::events::Events;
use kassen_core::game::Game;
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, GLoc, Pending, RegionState, Stage, NONE};

use super::common::*;

#[test]
fn every_effect_type_is_used_by_the_data() {
    let g = plain();
    let mut kinds = BTreeSet::new();
    for gen in &g.data().generals {
        kinds.extend(gen.effects.iter().map(|e| e.kind()));
    }
    for d in &g.data().developments {
        kinds.extend(d.effects.iter().map(|e| e.kind()));
    }
    assert_eq!(kinds.len(), 18);
}

#[test]
fn e01_bid_bonus_with_general_and_battle() {
    // 허저: +1 with 조조 on the same action (added when the partner arrives)
    let g = plain();
    let mut s = bidding(&g, 1, &["xu_chu"], NONE);
    place(&g, &mut s, "xu_chu", A_TRAIN, &[]);
    pass(&g, &mut s);
    pass(&g, &mut s);
    assert_eq!(s.totals[A_TRAIN as usize][WEI], 5);
    place(&g, &mut s, "cao_cao", A_TRAIN, &[]);
    assert_eq!(s.totals[A_TRAIN as usize][WEI], 5 + 4 + 1);
    // 장비: +1 on battle actions
    let mut s = bidding(&g, 1, &["zhang_fei"], NONE);
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "zhang_fei", A_BATTLE0, &[]);
    assert_eq!(s.totals[A_BATTLE0 as usize][SHU], 5 + 1);
}

#[test]
fn e02_win_ties_huang_gai_on_battles() {
    let g = plain();
    let mut s = bidding(&g, 1, &["huang_gai", "zhang_liao"], NONE);
    // Wei 장료 combat 5 (+2 on Wei-Wu) = 7 first; Wu 황개 4 + 3 support = 7 later but wins ties
    s.seats[WU].support = 3;
    place(&g, &mut s, "zhang_liao", A_BATTLE0 + 2, &[]);
    place(&g, &mut s, "huang_gai", A_BATTLE0 + 2, &[Action::Support, Action::Support, Action::Support]);
    assert_eq!(s.totals[(A_BATTLE0 + 2) as usize][WEI], s.totals[(A_BATTLE0 + 2) as usize][WU]);
    assert_eq!(g.bid_winner(&s, A_BATTLE0 + 2), 1 << WU);
}

#[test]
fn e03_bid_with_stat_zhuge_liang_higher() {
    let g = plain();
    let mut s = bidding(&g, 1, &["zhuge_liang"], NONE);
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "zhuge_liang", A_TRAIN, &[]); // combat action, bids his administration 5
    assert_eq!(s.totals[A_TRAIN as usize][SHU], 5);
}

#[test]
fn e04_stat_change_from_round_lu_meng() {
    let g = plain();
    let lm = idx(&g, "lu_meng");
    assert_eq!(g.stat(lm, 3, Stat::Admin), g.data().generals[lm as usize].admin);
    assert_eq!(g.stat(lm, 4, Stat::Admin), 4);
}

#[test]
fn e05_action_bonus_xiahou_dun_rice_on_farm() {
    let g = plain();
    let mut s = bidding(&g, 1, &["xiahou_dun"], NONE);
    place(&g, &mut s, "xiahou_dun", A_FARM, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_FARM));
    assert_eq!(s.seats[WEI].rice, 3 + 2);
}

#[test]
fn e06_action_param_dian_wei_trains_three() {
    let g = plain();
    let mut s = bidding(&g, 1, &["dian_wei"], NONE);
    s.seats[WEI].untrained = 4;
    place(&g, &mut s, "dian_wei", A_TRAIN, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_TRAIN));
    let legal = g.legal_typed(&s);
    assert_eq!(legal.last(), Some(&Action::Choice(3)), "train limit 2 + 1");
    act(&g, &mut s, Action::Choice(3));
    assert_eq!((s.seats[WEI].untrained, s.seats[WEI].trained), (1, 3));
}

#[test]
fn e07_round_end_income_mi_zhu() {
    let g = plain();
    let mut s = bidding(&g, 1, &["mi_zhu"], NONE);
    end_bidding(&g, &mut s);
    assert_eq!(s.seats[SHU].gold, 5 + 1);
}

#[test]
fn e08_e09_exchange_and_reservoir_are_in_resolution_tests() {
    // round_end_exchange (물물교환소) and card_reservoir (마초): resolution.rs §8 5) example;
    // here the development reservoir 목장 stocks 3 horses at the end of the round it is built.
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu"], NONE);
    let hr = dev(&g, "horse_ranch");
    s.seats[WEI].hand = 1 << hr;
    s.seats[WEI].gold = 5;
    place(&g, &mut s, "jia_xu", A_BUILD, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BUILD));
    act(&g, &mut s, Action::Dev(hr));
    assert_eq!(s.reservoir[g.data().generals.len() + hr as usize], 3);
}

#[test]
fn e11_upkeep_reduction_lu_fan() {
    let g = plain();
    let mut s = bidding(&g, 2, &["lu_fan", "zhou_yu"], NONE);
    let r = region(&g, "chibi") as usize;
    s.regions[r] = RegionState { seat: WU as u8, general: idx(&g, "zhou_yu"), unit: 3, units: 2, flipped: true };
    s.gloc[idx(&g, "zhou_yu") as usize] = GLoc::Stationed;
    assert_eq!(g.upkeep_due(&s, WU).1, 2 - 1);
}

#[test]
fn e12_immediate_gain_cao_hong_at_the_reveal() {
    let g = plain();
    let ch = idx(&g, "cao_hong");
    // play setup until Wei's keep, keeping 조홍 when drawn
    for seed in 0..200 {
        let mut s = kassen_core::game::Game::new_initial_state(&g, seed);
        let mut ev = Events::off();
        while s.stage == Stage::Setup || s.stage == Stage::Recruit {
            let legal = g.legal_typed(&s);
            let a = if legal.contains(&Action::Keep(ch)) {
                Action::Keep(ch)
            } else if matches!(s.pending, Pending::Criterion | Pending::DrawDev { .. } | Pending::DrawGeneral { .. }) {
                let id = kassen_core::game::Game::sample_chance(&g, &mut s);
                g.decode(id).unwrap()
            } else {
                legal[0]
            };
            g.apply_typed(&mut s, a, &mut ev);
        }
        if s.gloc[ch as usize] == GLoc::Active {
            assert_eq!(s.seats[WEI].gold, 3 + 3);
            return;
        }
    }
    panic!("조홍 was never drawn");
}

#[test]
fn e13_e14_end_game_vp_and_ranking_bonus() {
    let g = plain();
    let mut s = bidding(&g, 12, &[], NONE);
    let irr = dev(&g, "irrigation");
    let wall = dev(&g, "great_wall");
    s.seats[WEI].built = (1 << irr) | (1 << wall);
    let base = g.scores(&s)[WEI].developments;
    s.seats[WEI].farm_level = 5;
    assert_eq!(g.scores(&s)[WEI].developments, base + 3, "irrigation at farm level 5");
    // great wall: +3 to the security comparison only
    for p in s.seats.iter_mut() {
        p.tribal = 6;
        p.support = 0;
    }
    assert_eq!(g.scores(&s)[WEI].security, 5);
    assert_eq!(g.scores(&s)[WEI].tribal_bonus, 0);
}

#[test]
fn e15_military_score_change_mobile_siege_tower() {
    let g = plain();
    let mut s = bidding(&g, 3, &["jia_xu", "zhou_yu"], NONE);
    let mst = dev(&g, "mobile_siege_tower");
    s.seats[WEI].hand = 1 << mst;
    s.seats[WEI].gold = 6;
    s.seats[WEI].untrained = 2;
    s.seats[WU].military = 5;
    s.seats[SHU].military = 1;
    let r = region(&g, "chibi") as usize;
    s.regions[r] = RegionState { seat: WEI as u8, general: idx(&g, "cao_cao"), unit: 3, units: 1, flipped: false };
    s.stationed[WEI].push(r as u8);
    s.gloc[idx(&g, "cao_cao") as usize] = GLoc::Stationed;
    place(&g, &mut s, "jia_xu", A_BUILD, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BUILD));
    act(&g, &mut s, Action::Dev(mst));
    assert_eq!((s.seats[WU].military, s.seats[SHU].military), (3, 0));
    // transfer: 2 + 1 taken, then +1 for the stationed unit in this round's upkeep
    assert_eq!(s.seats[WEI].military, 3 + 1);
}

#[test]
fn e16_occupation_rules_guan_yu_and_zhou_cang() {
    let g = plain();
    let mut s = bidding(&g, 1, &["guan_yu", "zhou_cang"], NONE);
    s.seats[SHU].trained = 4;
    s.seats[SHU].weapons = [3, 3, 3, 3];
    pass(&g, &mut s);
    pass(&g, &mut s);
    // 주창 + infantry may take a navy region (substitute_unit)
    place(&g, &mut s, "zhou_cang", A_BATTLE0 + 1, &[Action::Unit(0)]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BATTLE0 + 1));
    act(&g, &mut s, Action::General(idx(&g, "zhou_cang")));
    let regions = g.legal_typed(&s);
    assert!(regions.contains(&Action::Region(region(&g, "yidu"))), "navy region with infantry");
    assert!(regions.contains(&Action::Region(region(&g, "jiangling"))));
    // 관우 + cavalry: token always flipped
    let mut s = bidding(&g, 1, &["guan_yu"], NONE);
    s.seats[SHU].trained = 4;
    s.seats[SHU].weapons = [3, 3, 3, 3];
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "guan_yu", A_BATTLE0, &[Action::Unit(2)]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_BATTLE0));
    act(&g, &mut s, Action::General(idx(&g, "guan_yu")));
    act(&g, &mut s, Action::Region(region(&g, "qishan")));
    act(&g, &mut s, Action::Choice(0));
    assert!(s.regions[region(&g, "qishan") as usize].flipped, "archers are not 관우's specialty, but always_flip");
}

#[test]
fn e17_recruitment_bonus_guo_jia_draws_two_more() {
    let g = plain();
    let mut s = bidding(&g, 3, &["guo_jia"], NONE);
    s.stage = Stage::Recruit;
    s.cursor = 0;
    s.scratch = 0;
    s.pending = Pending::Auto;
    g.settle(&mut s, &mut Events::off());
    assert_eq!(s.pending, Pending::DrawGeneral { seat: 0, left: 4 + 2 });
}

#[test]
fn e18_deficit_protection_watchtower() {
    let g = plain();
    let mut s = bidding(&g, 2, &[], NONE);
    let wt = dev(&g, "watchtower");
    s.seats[WU].built = 1 << wt;
    s.seats[WU].tribal = 2;
    end_bidding(&g, &mut s);
    assert_eq!(s.pending, Pending::Protect { card: wt });
    act(&g, &mut s, Action::Choice(1));
    assert_eq!((s.seats[WU].deficits, s.seats[WU].gold), (0, 4 - 2));
}

#[test]
fn e18_deficit_protection_against_upkeep_in_a_replacement_file() {
    let mut v: serde_json::Value = serde_json::from_str(EMBEDDED).unwrap();
    let i = v["state_developments"].as_array().unwrap().iter().position(|d| d["id"] == "watchtower").unwrap();
    v["state_developments"][i]["effect"][0]["cause"] = serde_json::json!("upkeep");
    let g = game(serde_json::json!({ "data": v }));
    let mut s = bidding(&g, 2, &[], NONE);
    let wt = dev(&g, "watchtower");
    s.seats[WU].built = 1 << wt;
    s.seats[WU].support = 4; // 2 rice of support upkeep
    s.seats[WU].rice = 0;
    end_bidding(&g, &mut s);
    assert_eq!(s.seats[WU].deficits, 1, "one of the two missing rice is covered by paying 2 gold");
    assert_eq!(s.seats[WU].gold, 4 - 2);
}

/// Wu wins Win Popular Support with 여몽 (Lu Meng), with the 주둔지 (Garrison) built: both
/// bonuses are pending and their order matters, so Wu orders them.
fn lu_meng_and_garrison_pending() -> (kassen_core::games::three_kingdoms_redux::Tkr, kassen_core::games::three_kingdoms_redux::State) {
    let g = plain();
    let mut s = bidding(&g, 2, &["lu_meng"], NONE);
    s.han_criterion = 0; // Win Popular Support bids on combat
    let garrison = dev(&g, "garrison");
    s.seats[WU].built = 1 << garrison;
    pass(&g, &mut s);
    place(&g, &mut s, "lu_meng", A_SUPPORT, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_SUPPORT));
    assert_eq!(s.pending, Pending::BonusOrder, "two order-sensitive bonuses: the owner orders them (T10)");
    assert_eq!(s.seat as usize, WU);
    assert_eq!(g.legal_typed(&s), vec![Action::Choice(0), Action::Choice(1)]);
    (g, s)
}

#[test]
fn compendium_example_lu_meng_then_garrison_trains_the_new_army() {
    // S1 example 2 (stacking principle: the owner orders the bonuses): Wu resolves 여몽
    // first, takes his untrained army, and the 주둔지 (Garrison) then trains that same army
    let (g, mut s) = lu_meng_and_garrison_pending();
    assert!(g.action_to_string(&s, g.encode(Action::Choice(0))).contains("Lü Meng"));
    act(&g, &mut s, Action::Choice(0)); // 여몽 first
    assert!(matches!(s.pending, Pending::BonusChoice { .. }));
    act(&g, &mut s, Action::Choice(0)); // the untrained army
                                        // the one bonus left resolves by itself
    assert_eq!((s.seats[WU].untrained, s.seats[WU].trained), (0, 1));
    assert_eq!(s.seats[WU].support, 1 + 1);
}

#[test]
fn t10_garrison_first_finds_no_untrained_army_to_train() {
    // the other order: the Garrison trains first (nothing to train), then 여몽's army stays
    // untrained
    let (g, mut s) = lu_meng_and_garrison_pending();
    act(&g, &mut s, Action::Choice(1)); // 주둔지 first
    assert!(matches!(s.pending, Pending::BonusChoice { .. }), "여몽's choice follows by itself");
    act(&g, &mut s, Action::Choice(0));
    assert_eq!((s.seats[WU].untrained, s.seats[WU].trained), (1, 0));
}

#[test]
fn t10_a_single_bonus_or_order_free_bonuses_resolve_by_themselves() {
    // only the Garrison: no order prompt; it trains one of Wu's untrained armies
    let g = plain();
    let mut s = bidding(&g, 2, &[], NONE);
    s.han_criterion = 0;
    s.seats[WU].built = 1 << dev(&g, "garrison");
    s.seats[WU].untrained = 2;
    pass(&g, &mut s);
    place(&g, &mut s, "sun_jian", A_SUPPORT, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_SUPPORT));
    assert_ne!(s.pending, Pending::BonusOrder);
    assert_eq!((s.seats[WU].untrained, s.seats[WU].trained), (1, 1));
    // two bonuses whose order cannot matter: 유비 (Liu Bei)'s support and the Garrison's
    // training (no untrained army is gained): no order prompt either
    let mut s = bidding(&g, 2, &[], NONE);
    s.han_criterion = 0;
    s.seats[SHU].built = 1 << dev(&g, "garrison");
    s.seats[SHU].untrained = 1;
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "liu_bei", A_SUPPORT, &[]);
    end_bidding(&g, &mut s);
    let support = s.seats[SHU].support;
    act(&g, &mut s, Action::Perform(A_SUPPORT));
    assert_ne!(s.pending, Pending::BonusOrder);
    assert_eq!((s.seats[SHU].untrained, s.seats[SHU].trained), (0, 1));
    assert!(s.seats[SHU].support > support + 1, "the action's support and 유비's bonus");
}
