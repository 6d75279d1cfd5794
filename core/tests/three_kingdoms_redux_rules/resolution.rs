//! §8 resolution: tokens back, next-round order, every action, occupation, tribal decrease,
//! round-end benefits; clarifications C9-C27.

use kassen_core::events::Events;
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, Pending, Stage, NONE};
use serde_json::json;

use super::common::*;

#[test]
fn s8_2_example_turn_order_4_3_4_military_0_2_c25() {
    // §8 예시: 차례 순서 결정 — Wei 4, Wu 3, Shu 4 won actions
    for (shu_military, expect) in [(2, [2u8, 0, 1]), (0, [0u8, 2, 1])] {
        let g = plain();
        let mut s = bidding(&g, 4, &["jia_xu", "xun_you", "cao_hong", "lu_fan", "zhou_yu", "jiang_wan", "jiang_wei", "zhao_yun"], NONE);
        s.seats[SHU].military = shu_military;
        let plan: [(&str, u8); 11] = [
            ("jia_xu", A_FARM),
            ("lu_fan", A_BUILD),
            ("jiang_wan", A_RECRUIT),
            ("xun_you", A_MARKET),
            ("zhou_yu", A_SPEAR_HORSE),
            ("jiang_wei", A_TRAIN),
            ("cao_hong", A_TRADE),
            ("sun_jian", A_TRIBAL0 + 1),
            ("zhao_yun", A_TRIBUTE),
            ("cao_cao", A_INSTRUCT),
            ("liu_bei", A_SUPPORT),
        ];
        for (who, a) in plan {
            place(&g, &mut s, who, a, &[]);
        }
        end_bidding(&g, &mut s);
        let counts: Vec<u32> = s.seats.iter().map(|p| p.won.count_ones()).collect();
        assert_eq!(counts, vec![4, 3, 4], "the tribal action counts as won");
        assert_eq!(s.action_order, [0, 1, 2], "actions follow this round's bid order");
        assert_eq!(s.bid_order, expect, "military {shu_military}: Shu-Wei-Wu, or Wei-Shu-Wu on equal military");
    }
}

#[test]
fn s8_3_farm_develop_and_harvest_examples_c11() {
    // §8 예시: 농장 개발 / 수확
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu"], NONE);
    place(&g, &mut s, "jia_xu", A_FARM, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_FARM)); // no developed token: develop only
    assert_eq!((s.seats[WEI].farm_level, s.seats[WEI].farm_area), (1, 1));

    // three developed tokens, bank 2, cash 1 → +5 rice, level stays 3
    let mut s = bidding(&g, 1, &["jia_xu"], NONE);
    s.seats[WEI].farm_level = 3;
    s.seats[WEI].farm_area = 3;
    place(&g, &mut s, "jia_xu", A_FARM, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_FARM));
    assert_eq!(s.pending, Pending::DevelopMode { action: A_FARM });
    act(&g, &mut s, Action::Choice(1));
    act(&g, &mut s, Action::Choice(2));
    let p = &s.seats[WEI];
    assert_eq!((p.farm_level, p.farm_area, p.granary_farm, p.rice), (3, 0, 2, 3 + 5));
}

#[test]
fn s8_3_market_develop_and_collect_tax_example() {
    // §8 예시: 세금 징수 — 4 developed, 2 to the treasury, 2 cashed for 4 gold each
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu"], NONE);
    s.seats[WEI].market_level = 4;
    s.seats[WEI].market_area = 4;
    place(&g, &mut s, "jia_xu", A_MARKET, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_MARKET));
    act(&g, &mut s, Action::Choice(1));
    act(&g, &mut s, Action::Choice(2));
    let p = &s.seats[WEI];
    assert_eq!((p.market_level, p.treasury_market, p.gold), (4, 2, 3 + 8));
}

#[test]
fn s8_3_han_emperor_example_c9() {
    // §8 예시: 한나라 황제 조종 — Wei flipped 조홍 in round 2; round 3 Wu wins with 주유 + 감녕,
    // Shu's 조운 loses; Wu pays 1 gold, 태수 → 대장군, flips 감녕; Wei passes the token to Wu.
    let g = plain();
    let mut s = bidding(&g, 3, &["cao_hong", "xun_you", "zhou_yu", "gan_ning", "zhao_yun"], NONE);
    s.han_flipped = idx(&g, "cao_hong");
    s.han_holder = WEI as u8;
    // 조홍 cannot bid this round
    act(&g, &mut s, Action::Pass);
    assert!(s.pending == Pending::Bid);
    let mut s = bidding(&g, 3, &["cao_hong", "xun_you", "zhou_yu", "gan_ning", "zhao_yun"], NONE);
    s.han_flipped = idx(&g, "cao_hong");
    s.han_holder = WEI as u8;
    assert!(!g.legal_typed(&s).contains(&Action::Place(idx(&g, "cao_hong"))));
    place(&g, &mut s, "xun_you", A_MARKET, &[Action::Han]);
    place(&g, &mut s, "zhou_yu", A_HAN, &[]);
    place(&g, &mut s, "zhao_yun", A_HAN, &[]);
    pass(&g, &mut s);
    place(&g, &mut s, "gan_ning", A_HAN, &[]);
    end_bidding(&g, &mut s);
    assert_eq!(s.han_flipped, NONE, "조홍 is back after step 1 (usable in round 4)");
    assert_eq!(s.han_winner as usize, WU);
    // Wei performs the market, then Wu the Han action
    act(&g, &mut s, Action::Perform(A_MARKET));
    assert_eq!(s.seat as usize, WU);
    act(&g, &mut s, Action::Perform(A_HAN));
    assert_eq!(s.pending, Pending::HanFlip);
    act(&g, &mut s, Action::General(idx(&g, "gan_ning")));
    assert_eq!(s.seats[WU].office, 1);
    assert_eq!(s.seats[WU].gold, 4 - 1);
    assert_eq!(s.han_flipped, idx(&g, "gan_ning"));
    // upkeep passes the token to Wu
    let mut t = s.clone();
    g.upkeep(&mut t, &mut Events::off());
    assert_eq!(t.han_holder as usize, WU);
    // nobody bid on the action → the token returns to the supply
    let mut u = s.clone();
    u.han_winner = NONE;
    g.upkeep(&mut u, &mut Events::off());
    assert_eq!(u.han_holder, NONE);
}

/// A position where `seat` won battle action `a` with the given placements already made.
fn battle(
    g: &kassen_core::games::three_kingdoms_redux::Tkr,
    who: &[(&str, u8, u8)],
    gens: &[&str],
    a: u8,
) -> kassen_core::games::three_kingdoms_redux::State {
    let mut s = bidding(g, 1, gens, NONE);
    for k in 0..3 {
        s.seats[k].trained = 6;
        s.seats[k].weapons = [3, 3, 3, 3];
    }
    for &(name, unit, n) in who {
        let gi = idx(g, name);
        let seat = g.data().generals[gi as usize].kingdom;
        while s.seat != seat {
            pass(g, &mut s);
        }
        let extras: Vec<Action> = (0..n).map(|_| Action::Unit(unit)).collect();
        place(g, &mut s, name, a, &extras);
    }
    end_bidding(g, &mut s);
    s
}

#[test]
fn s8_example_occupation_wu_c20() {
    // §8 예시: 국경 지대에 장군과 부대 점령 (C20): 감녕 + 2 archers, 능조 + 1 navy win Shu-Wu
    let g = plain();
    let a = A_BATTLE0 + 1;
    let s = battle(&g, &[("gan_ning", 2, 2), ("ling_cao", 3, 1)], &["gan_ning", "ling_cao"], a);
    assert_eq!(s.seat as usize, WU);
    let mut t = s.clone();
    act(&g, &mut t, Action::Perform(a));
    let legal = g.legal_typed(&t);
    assert!(legal.contains(&Action::General(idx(&g, "gan_ning"))) && legal.contains(&Action::General(idx(&g, "ling_cao"))));
    // 감녕 with archers: 효정 or 백제성, token not flipped (specialty cavalry)
    act(&g, &mut t, Action::General(idx(&g, "gan_ning")));
    let regions = g.legal_typed(&t);
    assert_eq!(regions, vec![Action::Region(region(&g, "xiaoting")), Action::Region(region(&g, "baidicheng"))]);
    act(&g, &mut t, Action::Region(region(&g, "xiaoting")));
    act(&g, &mut t, Action::Choice(2));
    act(&g, &mut t, Action::Choice(1)); // treasury
    let r = t.regions[region(&g, "xiaoting") as usize];
    assert_eq!((r.seat as usize, r.units, r.flipped), (WU, 2, false));
    // 능조 with his navy unit on 의도: flipped (navy specialty)
    let mut t = s.clone();
    act(&g, &mut t, Action::Perform(a));
    act(&g, &mut t, Action::General(idx(&g, "ling_cao")));
    assert_eq!(g.legal_typed(&t), vec![Action::Region(region(&g, "yidu"))]);
    act(&g, &mut t, Action::Region(region(&g, "yidu")));
    act(&g, &mut t, Action::Choice(0)); // granary
    let r = t.regions[region(&g, "yidu") as usize];
    assert!(r.flipped && t.seats[WU].granary_regions & (1 << region(&g, "yidu")) != 0);
    // one general per battle action; 감녕's units went home
    assert_eq!(t.seats[WU].todo & (1 << a), 0);
    assert_eq!(t.seats[WU].trained, 6 - 1);
}

#[test]
fn s8_example_second_general_c18_both_switch_values() {
    // §8 예시: 두 번째 혹은 그 이후의 장군 점령 — Wei has 조인 on 적벽 (Wei-Wu); this round it
    // wins only Wei-Wu (하후돈 + cavalry, 7 > 5) and loses Shu-Wei (서황 + 1 infantry 5 < 6).
    for (cfg, can) in [(json!({}), false), (json!({"alternation": "rule_text"}), true)] {
        let g = game(cfg.clone());
        let mut s = bidding(&g, 4, &["cao_ren", "xiahou_dun", "xu_huang", "jiang_wei", "ling_cao"], NONE);
        for k in 0..3 {
            s.seats[k].trained = 6;
            s.seats[k].weapons = [3, 3, 3, 3];
        }
        let chibi = region(&g, "chibi") as usize;
        s.regions[chibi] = kassen_core::games::three_kingdoms_redux::RegionState {
            seat: 0,
            general: idx(&g, "cao_ren"),
            unit: 3,
            units: 2,
            flipped: true,
        };
        s.gloc[idx(&g, "cao_ren") as usize] = kassen_core::games::three_kingdoms_redux::GLoc::Stationed;
        s.stationed[WEI].push(chibi as u8);
        place(&g, &mut s, "xiahou_dun", A_BATTLE0 + 2, &[Action::Unit(1), Action::Unit(1)]);
        place(&g, &mut s, "ling_cao", A_BATTLE0 + 2, &[]);
        place(&g, &mut s, "jiang_wei", A_BATTLE0, &[Action::Unit(0), Action::Unit(0)]);
        place(&g, &mut s, "xu_huang", A_BATTLE0, &[Action::Unit(0)]);
        end_bidding(&g, &mut s);
        assert!(s.seats[WEI].won & (1 << (A_BATTLE0 + 2)) != 0, "{cfg}: Wei wins Wei-Wu");
        assert!(s.seats[WEI].won & (1 << A_BATTLE0) == 0, "{cfg}: Wei loses Shu-Wei");
        act(&g, &mut s, Action::Perform(A_BATTLE0 + 2));
        let occupied = s.pending != Pending::ChooseAction && s.acting != NONE;
        assert_eq!(occupied, can, "{cfg}: 하후돈 may occupy 광릉 only under the rule-text reading");
    }
}

#[test]
fn s8_4_tribal_decrease_rebellion_and_jia_xu_even_rounds_c16_c17() {
    let g = plain();
    // 가후 holds Wei's marker at 12 in an even round; Wei may buy a support for 2 rice
    let mut s = bidding(&g, 8, &["jia_xu"], NONE);
    s.seats[WEI].tribal = 12;
    s.seats[WU].tribal = 2;
    s.seats[SHU].tribal = 1;
    end_bidding(&g, &mut s);
    assert_eq!(s.pending, Pending::Tribal12);
    act(&g, &mut s, Action::Choice(1));
    assert_eq!((s.seats[WEI].tribal, s.seats[WEI].support, s.seats[WEI].rice), (12, 1, 1));
    // Wu drops to 1 → rebellion deficit; Shu stays at 1 → deficit too
    assert_eq!(s.seats[WU].tribal, 1);
    assert_eq!(s.seats[WU].deficits, 1);
    assert_eq!(s.seats[SHU].deficits, 1);
    // odd round: 가후 does not hold it
    let mut s = bidding(&g, 7, &["jia_xu"], NONE);
    s.seats[WEI].tribal = 12;
    end_bidding(&g, &mut s);
    assert_eq!(s.seats[WEI].tribal, 11);
}

#[test]
fn s8_5_example_barter_post_then_ma_chao_horses_c32() {
    // §8 예시: 혜택받기 및 활성화 — Shu has 마초 (4 horses on the card) and 물물교환소, did not
    // trade, holds 1 horse: barter 2 rice for a horse, then 마초 gives one (Shu has 2).
    let g = plain();
    let mut s = bidding(&g, 2, &["ma_chao"], NONE);
    let mc = idx(&g, "ma_chao") as usize;
    s.reservoir[mc] = 4;
    let bp = dev(&g, "barter_post");
    s.seats[SHU].built |= 1 << bp;
    s.built_round[bp as usize] = 1;
    s.seats[SHU].weapons = [0, 1, 0, 0];
    end_bidding(&g, &mut s);
    // §8 5): Shu orders its two benefits: the exchange first, then 마초
    assert_eq!(s.pending, Pending::BenefitOrder);
    assert_eq!(g.legal_typed(&s), vec![Action::Choice(0), Action::Choice(1)]);
    act(&g, &mut s, Action::Choice(1));
    assert_eq!(s.pending, Pending::Exchange { card: (g.data().generals.len() + bp as usize) as u16, effect: 0, left: 1 });
    act(&g, &mut s, Action::Choice(2)); // give 2 rice, get 1 weapon
    act(&g, &mut s, Action::Weapon(1)); // a horse
    assert_eq!(s.seats[SHU].weapons[1], 3, "bartered horse + 마초's foal");
    assert_eq!(s.reservoir[mc], 3);
    // 2 rice for the horse, then 1 rice of support upkeep (2 tokens) in this round's upkeep
    assert_eq!(s.seats[SHU].rice, 5 - 2 - 1);
}

#[test]
fn s8_5_the_other_order_loses_the_foal() {
    // with 마초 first, Shu holds 1 horse: no foal; then the barter still buys one
    let g = plain();
    let mut s = bidding(&g, 2, &["ma_chao"], NONE);
    let mc = idx(&g, "ma_chao") as usize;
    s.reservoir[mc] = 4;
    let bp = dev(&g, "barter_post");
    s.seats[SHU].built |= 1 << bp;
    s.seats[SHU].weapons = [0, 1, 0, 0];
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Choice(0));
    assert_eq!(s.reservoir[mc], 4);
    act(&g, &mut s, Action::Choice(2));
    act(&g, &mut s, Action::Weapon(1));
    assert_eq!(s.seats[SHU].weapons[1], 2);
}

#[test]
fn c32_ma_chao_recruited_stocks_at_round_end_and_pays_from_next_round() {
    let g = plain();
    let mut s = bidding(&g, 1, &["ma_chao"], NONE);
    s.seats[SHU].weapons = [0, 2, 0, 0];
    end_bidding(&g, &mut s);
    assert_eq!(s.reservoir[idx(&g, "ma_chao") as usize], 4);
    assert_eq!(s.seats[SHU].weapons[1], 2, "nothing paid in the round of recruitment");
    assert_eq!(s.round, 2);
    assert_eq!(s.stage, Stage::Alliance);
}

#[test]
fn c21_no_units_no_occupation_everything_returns() {
    let g = plain();
    let mut s = bidding(&g, 1, &["zhang_fei"], NONE);
    pass(&g, &mut s);
    pass(&g, &mut s);
    place(&g, &mut s, "zhang_fei", A_BATTLE0 + 1, &[]);
    end_bidding(&g, &mut s);
    assert!(s.seats[SHU].won & (1 << (A_BATTLE0 + 1)) != 0);
    // the battle was won but 장비 carries no unit: performing it occupies nothing
    act(&g, &mut s, Action::Perform(A_BATTLE0 + 1));
    assert!(s.regions.iter().all(|r| r.seat == NONE));
    assert_eq!(s.gloc[idx(&g, "zhang_fei") as usize], kassen_core::games::three_kingdoms_redux::GLoc::Active);
}
