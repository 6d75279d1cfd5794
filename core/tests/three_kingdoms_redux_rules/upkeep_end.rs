//! §9 upkeep, §10 deficits, §11 end triggers and scoring (every numeric example).

use kassen_core::events::Events;
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{rank_points, RegionState, NONE};

use super::common::*;

#[allow(clippy::too_many_arguments)]
fn occupy(
    s: &mut kassen_core::games::three_kingdoms_redux::State,
    g: &kassen_core::games::three_kingdoms_redux::Tkr,
    region_id: &str,
    seat: usize,
    general: &str,
    unit: u8,
    units: u8,
    flipped: bool,
) {
    let r = region(g, region_id) as usize;
    s.regions[r] = RegionState { seat: seat as u8, general: idx(g, general), unit, units, flipped };
    s.gloc[idx(g, general) as usize] = kassen_core::games::three_kingdoms_redux::GLoc::Stationed;
    s.stationed[seat].push(r as u8);
}

#[test]
fn s9_3_upkeep_examples_c22() {
    // §9 예시: 유지비용 지급 — Wu: 3 support, 2 occupying units, 1 region token in the granary
    let g = plain();
    let mut s = bidding(&g, 2, &["zhou_yu"], NONE);
    s.seats[WU].support = 3;
    occupy(&mut s, &g, "yidu", WU, "zhou_yu", 3, 2, true);
    s.seats[WU].granary_regions = 1 << region(&g, "yidu");
    assert_eq!(g.upkeep_due(&s, WU), (1, 2, 1));
    // second example: 4 support, treasury 1 market token, granary 1 region + 1 farm token
    s.seats[WU].support = 4;
    s.seats[WU].treasury_market = 1;
    s.seats[WU].granary_farm = 1;
    assert_eq!(g.upkeep_due(&s, WU), (2, 1, 0));
    // paying: shortfalls become deficits (C23)
    s.seats[WU].gold = 0;
    s.seats[WU].rice = 1;
    let mut t = s.clone();
    g.upkeep(&mut t, &mut Events::off());
    assert_eq!(t.seats[WU].deficits, 1 + 1, "1 gold and 1 rice missing");
    assert_eq!((t.seats[WU].gold, t.seats[WU].rice), (0, 0));
}

#[test]
fn s9_4_military_example_2_plus_2_units() {
    // §9 예시: 군사 점수 획득 — 장비 + 2 cavalry on 공안, 강유 + 2 archers on 기산 → +4
    let g = plain();
    let mut s = bidding(&g, 3, &["zhang_fei", "jiang_wei"], NONE);
    occupy(&mut s, &g, "gongan", SHU, "zhang_fei", 1, 2, true);
    occupy(&mut s, &g, "qishan", SHU, "jiang_wei", 2, 2, true);
    s.seats[SHU].gold = 10;
    s.seats[SHU].rice = 10;
    g.upkeep(&mut s, &mut Events::off());
    assert_eq!(s.seats[SHU].military, 4);
    assert_eq!(s.round, 4);
}

#[test]
fn s9_1_criterion_markers_flip_every_upkeep() {
    let g = plain();
    let mut s = bidding(&g, 2, &[], NONE);
    let before = s.han_criterion;
    g.upkeep(&mut s, &mut Events::off());
    assert_eq!(s.han_criterion, 1 - before);
}

#[test]
fn s11_ranking_examples_c28() {
    let r = &plain().data().rank_vp.clone();
    // 내정 예시: 10 / 5 / 7 → 5 / 0 / 2; variant 10 / 7 / 7 → 5 / 1 / 1
    assert_eq!(rank_points(r, [10, 5, 7]), [5, 0, 2]);
    assert_eq!(rank_points(r, [10, 7, 7]), [5, 1, 1]);
    // 치안 예시: 11+2, 12+0, 10+4 → 2 / 0 / 5
    assert_eq!(rank_points(r, [13, 12, 14]), [2, 0, 5]);
    // 관직 예시: 왕 4, 승상 3, 태위 2 → 5 / 2 / 0
    assert_eq!(rank_points(r, [4, 3, 2]), [5, 2, 0]);
    // all tied 3 each; two tied first 3 each
    assert_eq!(rank_points(r, [4, 4, 4]), [3, 3, 3]);
    assert_eq!(rank_points(r, [4, 4, 1]), [3, 3, 0]);
}

#[test]
fn s11_scoring_examples_borders_tokens_security_office_han() {
    let g = plain();
    let mut s = bidding(&g, 12, &["xiahou_dun", "xu_chu", "gan_ning", "ling_cao", "zhao_yun"], NONE);
    // borders: Wei wins Shu-Wei, loses Wei-Wu; Wu wins Wei-Wu, ties Shu-Wu; Shu ties, loses
    occupy(&mut s, &g, "huarong_road", WEI, "xu_chu", 0, 1, true);
    occupy(&mut s, &g, "chibi", WU, "ling_cao", 3, 1, true);
    occupy(&mut s, &g, "dongkou", WU, "gan_ning", 3, 1, false);
    occupy(&mut s, &g, "guangling", WEI, "xiahou_dun", 1, 1, true);
    occupy(&mut s, &g, "gongan", SHU, "zhao_yun", 1, 1, true);
    occupy(&mut s, &g, "xiaoting", WU, "sun_jian", 2, 1, true);
    // Wei-Wu: Wei 1, Wu 2 → Wu wins; Shu-Wu: 1-1 tie; Shu-Wei: Wei 1, Shu 0 → Wei wins
    // security example: tribal 11/12/10, support 2/0/4
    for (k, (t, sup)) in [(11, 2), (12, 0), (10, 4)].into_iter().enumerate() {
        s.seats[k].tribal = t;
        s.seats[k].support = sup;
    }
    // office example: 왕 / 승상 / 태위; Shu holds the Han token
    s.seats[WEI].office = 4;
    s.seats[WU].office = 3;
    s.seats[SHU].office = 2;
    s.han_holder = SHU as u8;
    // region tokens: Wu holds 4 tokens, 3 flipped (§11 예시: 국경 지대 점수)
    s.seats[WU].granary_regions = (1 << region(&g, "chibi")) | (1 << region(&g, "dongkou"));
    s.seats[WU].treasury_regions = (1 << region(&g, "xiaoting")) | (1 << region(&g, "jiangling"));
    s.regions[region(&g, "jiangling") as usize].flipped = true;
    let sc = g.scores(&s);
    assert_eq!([sc[0].borders, sc[1].borders, sc[2].borders], [2, 3, 1]);
    assert_eq!(sc[WU].region_tokens, 3);
    assert_eq!([sc[0].security, sc[1].security, sc[2].security], [2, 0, 5]);
    assert_eq!([sc[0].tribal_bonus, sc[1].tribal_bonus, sc[2].tribal_bonus], [3, 4, 2]);
    assert_eq!([sc[0].office_rank, sc[1].office_rank, sc[2].office_rank], [5, 2, 0]);
    assert_eq!([sc[0].office, sc[1].office, sc[2].office], [4, 3, 2], "C27: 왕 = 4");
    assert_eq!([sc[0].han, sc[1].han, sc[2].han], [0, 0, 2]);
    // deficits −3 each
    s.seats[WEI].deficits = 2;
    assert_eq!(g.scores(&s)[WEI].deficits, -6);
}

#[test]
fn s11_end_triggers_c39_and_no_upkeep_after_the_last_resolution() {
    let g = plain();
    let s = bidding(&g, 5, &[], NONE);
    assert_eq!(g.end_trigger(&s), 0);
    let mut t = s.clone();
    t.seats[WU].farm_level = 5;
    assert_eq!(g.end_trigger(&t), 0);
    t.seats[WU].market_level = 5;
    assert_eq!(g.end_trigger(&t), 2);
    let mut t = s.clone();
    t.seats[SHU].office = 5;
    assert_eq!(g.end_trigger(&t), 3);
    let mut t = s.clone();
    t.stationed[WEI] = vec![0, 1, 2, 3, 4];
    assert_eq!(g.end_trigger(&t), 4);
    // the last round: the game ends after resolution; no upkeep (military unchanged, no token pass)
    let mut t = bidding(&g, 12, &["jiang_wei"], NONE);
    occupy(&mut t, &g, "qishan", SHU, "jiang_wei", 2, 2, true);
    t.han_holder = WEI as u8;
    place(&g, &mut t, "cao_cao", A_HAN, &[]);
    end_bidding(&g, &mut t);
    // Wei performs Control Han Emperor
    act(&g, &mut t, kassen_core::games::three_kingdoms_redux::Action::Perform(A_HAN));
    assert!(t.is_over());
    assert_eq!(t.seats[SHU].military, 0, "no military gain in the last round");
    assert_eq!(t.han_holder as usize, WEI, "C10: the token is not passed after the last round");
    assert_eq!(t.end_reason, 1);
}

#[test]
fn s11_tie_breaks_gold_rice_then_shu_wu_wei() {
    let g = plain();
    let mut s = bidding(&g, 12, &[], NONE);
    s.final_scores = vec![10, 10, 10];
    s.seats[WEI].gold = 9;
    s.seats[WU].gold = 1;
    s.seats[SHU].gold = 1;
    for p in s.seats.iter_mut() {
        p.rice = 0;
    }
    assert_eq!(g.ranking(&s)[0], WEI);
    s.seats[WEI].gold = 1;
    assert_eq!(g.ranking(&s), [SHU, WU, WEI]);
}
