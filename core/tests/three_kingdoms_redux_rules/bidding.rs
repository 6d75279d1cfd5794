//! §7 conflict phase: every numeric bidding example of the rulebook, alliance, battle bids,
//! tokens, the tribal action; clarifications C1-C7, C15.

use kassen_core::events::Events;
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, Pending, NONE};

use super::common::*;

#[test]
fn s7_example_bid_jia_xu_5_beats_jiang_wei_4() {
    // §7 예시: 입찰 — 가후(행정력 5) vs 강유(행정력 4) on the market action (administration)
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu", "jiang_wei"], NONE);
    place(&g, &mut s, "jia_xu", A_MARKET, &[]);
    pass(&g, &mut s);
    place(&g, &mut s, "jiang_wei", A_MARKET, &[]);
    assert_eq!(s.totals[A_MARKET as usize], [5, 0, 4]);
    assert_eq!(g.bid_winner(&s, A_MARKET), 1 << WEI);
}

#[test]
fn s7_example_tie_reached_first_and_cao_cao_c3_c4() {
    // §7 예시: 동률 입찰 (C3, C4): 가후 5 = 장완 5 → Wei reached 5 first.
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu", "jiang_wei", "jiang_wan", "xun_you", "xu_chu"], NONE);
    place(&g, &mut s, "jia_xu", A_MARKET, &[]);
    pass(&g, &mut s); // Wu
    place(&g, &mut s, "jiang_wan", A_MARKET, &[]);
    assert_eq!(g.bid_winner(&s, A_MARKET), 1 << WEI);
    // Shu adds 강유 (9) before Wei adds 순유 (9): Shu reached 9 first.
    place(&g, &mut s, "xu_chu", A_TRAIN, &[]);
    place(&g, &mut s, "jiang_wei", A_MARKET, &[]);
    place(&g, &mut s, "xun_you", A_MARKET, &[]);
    assert_eq!(s.totals[A_MARKET as usize], [9, 0, 9]);
    assert_eq!(g.bid_winner(&s, A_MARKET), 1 << SHU);

    // with 조조 (admin 5, win_ties) instead of 가후, Wei wins the same tie
    let mut s = bidding(&g, 1, &["jiang_wei", "jiang_wan", "xun_you", "xu_chu"], NONE);
    place(&g, &mut s, "cao_cao", A_MARKET, &[]);
    pass(&g, &mut s);
    place(&g, &mut s, "jiang_wan", A_MARKET, &[]);
    place(&g, &mut s, "xu_chu", A_TRAIN, &[]);
    place(&g, &mut s, "jiang_wei", A_MARKET, &[]);
    place(&g, &mut s, "xun_you", A_MARKET, &[]);
    assert_eq!(s.totals[A_MARKET as usize], [9, 0, 9]);
    assert_eq!(g.bid_winner(&s, A_MARKET), 1 << WEI);
}

#[test]
fn s7_example_alliance_bid_c5() {
    // §7 예시: 동맹 액션 입찰 — market is the alliance action; 가후 5 vs 여범 4 + 장완 5 = 9
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu", "lu_fan", "jiang_wan", "xun_you"], A_MARKET);
    place(&g, &mut s, "jia_xu", A_MARKET, &[]);
    place(&g, &mut s, "lu_fan", A_MARKET, &[]);
    place(&g, &mut s, "jiang_wan", A_MARKET, &[]);
    assert_eq!(g.bid_winner(&s, A_MARKET), (1 << WU) | (1 << SHU));
    // both allies bid and won: both perform it (§7 2))
    end_bidding(&g, &mut s);
    assert!(s.seats[WU].todo & (1 << A_MARKET) != 0 && s.seats[SHU].todo & (1 << A_MARKET) != 0);
    assert_eq!(s.seats[WEI].won, 0);

    // C5: Wei reaches 9 (순유) before the alliance does → Wei wins
    let mut s = bidding(&g, 1, &["jia_xu", "lu_fan", "jiang_wan", "xun_you"], A_MARKET);
    place(&g, &mut s, "jia_xu", A_MARKET, &[]);
    place(&g, &mut s, "lu_fan", A_MARKET, &[]);
    place(&g, &mut s, "liu_bei", A_FARM, &[]);
    place(&g, &mut s, "xun_you", A_MARKET, &[]);
    act(&g, &mut s, Action::Pass); // Wu
    assert_eq!(s.seat as usize, SHU);
    place(&g, &mut s, "jiang_wan", A_MARKET, &[]);
    assert_eq!(s.totals[A_MARKET as usize], [9, 4, 5]);
    assert_eq!(g.bid_winner(&s, A_MARKET), 1 << WEI);
}

#[test]
fn c1_c2_alliance_chooser_is_player_3_and_not_last_rounds_action() {
    let g = plain();
    let mut s = kassen_core::game::Game::new_initial_state(&g, 5);
    while s.pending != Pending::Alliance {
        let mut v = Vec::new();
        kassen_core::game::Game::legal_actions(&g, &s, &mut v);
        kassen_core::game::Game::apply(&g, &mut s, v[0], &mut Events::off());
    }
    assert_eq!(s.seat, s.bid_order[2]);
    let legal = g.legal_typed(&s);
    // the 10 fixed-criterion general actions; never Win Popular Support / Control Han Emperor
    assert_eq!(legal.len(), 10);
    assert!(!legal.contains(&Action::Alliance(A_SUPPORT)) && !legal.contains(&Action::Alliance(A_HAN)));
    s.last_alliance_action = A_TRADE;
    let legal = g.legal_typed(&s);
    assert_eq!(legal.len(), 9);
    assert!(!legal.contains(&Action::Alliance(A_TRADE)));
}

#[test]
fn s7_example_battle_bids_units_and_leadership() {
    // §7 예시: 전투 액션 입찰 — 주창 (통솔 1) carries at most one unit; 감녕 two of one type;
    // 조운 may bid with no unit.
    let g = plain();
    let mut s = bidding(&g, 1, &["zhou_cang", "gan_ning", "zhao_yun"], NONE);
    for k in [WU, SHU] {
        s.seats[k].trained = 4;
        s.seats[k].weapons = [2, 2, 2, 2];
    }
    pass(&g, &mut s); // Wei
                      // Wu: 감녕 + 2 cavalry; a second type is not offered once one is assigned
    act(&g, &mut s, Action::Place(idx(&g, "gan_ning")));
    act(&g, &mut s, Action::Target(A_BATTLE0 + 1));
    act(&g, &mut s, Action::Unit(1));
    assert!(!g.legal_typed(&s).contains(&Action::Unit(0)));
    act(&g, &mut s, Action::Unit(1));
    assert!(!g.legal_typed(&s).iter().any(|a| matches!(a, Action::Unit(_))), "leadership 2 reached");
    act(&g, &mut s, Action::Confirm);
    // Shu: 주창 + 1 infantry, then no more units (leadership 1)
    act(&g, &mut s, Action::Place(idx(&g, "zhou_cang")));
    act(&g, &mut s, Action::Target(A_BATTLE0 + 1));
    act(&g, &mut s, Action::Unit(0));
    assert!(!g.legal_typed(&s).iter().any(|a| matches!(a, Action::Unit(_))));
    act(&g, &mut s, Action::Confirm);
    // Wu passes; Shu adds 조운 with two archers (a different type is fine on another general)
    pass(&g, &mut s);
    place(&g, &mut s, "zhao_yun", A_BATTLE0 + 1, &[Action::Unit(2), Action::Unit(2)]);
    let (gan, zc, zy) = (
        &g.data().generals[idx(&g, "gan_ning") as usize],
        &g.data().generals[idx(&g, "zhou_cang") as usize],
        &g.data().generals[idx(&g, "zhao_yun") as usize],
    );
    // totals: combat + units (+ abilities: 장비-like bonuses are not on these generals' battle bids
    // except those in the data; compare with the data's own numbers)
    let bonus = |who: &str| s.placements.iter().find(|p| p.general == idx(&g, who)).unwrap().bonus;
    assert_eq!(s.totals[(A_BATTLE0 + 1) as usize][WU], gan.combat as i32 + 2 + bonus("gan_ning"));
    assert_eq!(
        s.totals[(A_BATTLE0 + 1) as usize][SHU],
        zc.combat as i32 + 1 + bonus("zhou_cang") + zy.combat as i32 + 2 + bonus("zhao_yun")
    );
    // Shu may not bid on the Wei-Wu border (§7 d.)
    assert!(s.pending == Pending::Bid);
}

#[test]
fn s7_only_bordering_states_bid_on_a_battle() {
    let g = plain();
    let mut s = bidding(&g, 1, &[], NONE);
    act(&g, &mut s, Action::Place(idx(&g, "cao_cao")));
    let legal = g.legal_typed(&s);
    assert!(legal.contains(&Action::Target(A_BATTLE0)) && legal.contains(&Action::Target(A_BATTLE0 + 2)));
    assert!(!legal.contains(&Action::Target(A_BATTLE0 + 1)), "Wei is not on the Shu-Wu border");
    assert!(legal.contains(&Action::Target(A_TRIBAL0)) && !legal.contains(&Action::Target(A_TRIBAL0 + 1)));
}

#[test]
fn c7_support_and_han_tokens_raise_the_bid_with_their_general() {
    let g = plain();
    let mut s = bidding(&g, 1, &["jia_xu"], NONE);
    s.seats[WEI].support = 2;
    s.han_holder = WEI as u8;
    place(&g, &mut s, "jia_xu", A_MARKET, &[Action::Support, Action::Support, Action::Han]);
    assert_eq!(s.totals[A_MARKET as usize][WEI], 5 + 2 + 1);
    assert_eq!(s.seats[WEI].support, 0);
    assert!(s.han_used);
    // the Han token is usable once per round
    pass(&g, &mut s);
    pass(&g, &mut s);
    act(&g, &mut s, Action::Place(idx(&g, "cao_cao")));
    act(&g, &mut s, Action::Target(A_FARM));
    assert!(!g.legal_typed(&s).contains(&Action::Han));
}

#[test]
fn c15_tribal_action_guaranteed_one_general_gold_or_units() {
    // §8 예시: 부족 우호도 — Shu at 2 places 강유 with 2 gold → 4
    let g = plain();
    let mut s = bidding(&g, 1, &["jiang_wei", "zhao_yun"], NONE);
    s.seats[SHU].tribal = 2;
    s.seats[SHU].trained = 1;
    s.seats[SHU].weapons = [1, 0, 0, 0];
    pass(&g, &mut s);
    pass(&g, &mut s);
    act(&g, &mut s, Action::Place(idx(&g, "jiang_wei")));
    act(&g, &mut s, Action::Target(A_TRIBAL0 + 2));
    act(&g, &mut s, Action::Gold);
    // gold and units do not mix
    assert!(!g.legal_typed(&s).iter().any(|a| matches!(a, Action::Unit(_))));
    act(&g, &mut s, Action::Gold);
    assert_eq!(s.pending, Pending::Bid, "leadership 2 reached: the turn confirms itself");
    // at most one general per round on the tribal action
    act(&g, &mut s, Action::Place(idx(&g, "zhao_yun")));
    assert!(!g.legal_typed(&s).contains(&Action::Target(A_TRIBAL0 + 2)));
    act(&g, &mut s, Action::Target(A_FARM));
    act(&g, &mut s, Action::Confirm);
    end_bidding(&g, &mut s);
    assert!(s.seats[SHU].won & (1 << (A_TRIBAL0 + 2)) != 0, "guaranteed, counts as a won action");
    assert_eq!(s.seat as usize, SHU);
    act(&g, &mut s, Action::Perform(A_TRIBAL0 + 2));
    assert_eq!(s.seats[SHU].tribal, 4);
    assert_eq!(s.seats[SHU].gold, 5 - 2, "the gold is paid");
}

#[test]
fn c6_two_win_ties_fall_back_to_reached_first() {
    // 조조 (win_ties on all actions) and 황개 (win_ties on battles) tie on the Wei-Wu battle
    let g = plain();
    let mut s = bidding(&g, 1, &["huang_gai"], NONE);
    s.seats[WEI].support = 1;
    place(&g, &mut s, "cao_cao", A_BATTLE0 + 2, &[Action::Support]); // 4 + 1 = 5, first
    s.seats[WU].support = 1;
    place(&g, &mut s, "huang_gai", A_BATTLE0 + 2, &[Action::Support]); // 4 + 1 = 5
    assert_eq!(s.totals[(A_BATTLE0 + 2) as usize][WEI], s.totals[(A_BATTLE0 + 2) as usize][WU]);
    assert_eq!(g.bid_winner(&s, A_BATTLE0 + 2), 1 << WEI);
}

#[test]
fn the_action_of_a_placement_under_way_is_in_every_seat_s_key() {
    // Every view shows the placement under way (`placing`: general, action, what goes with it),
    // so the information-state key of every seat must tell two actions apart (issue 37: the
    // one-action variant search of the conformance suite found the spectator's key equal).
    const ACTIONS: [u32; 42] = [
        131, 128, 118, 135, 158, 151, 146, 172, 176, 184, 222, 271, 295, 263, 280, 294, 218, 281, 246, 271, 294, 200, 271, 295, 215, 272,
        205, 280, 298, 332, 332, 307, 326, 299, 332, 334, 186, 295, 223, 277, 294, 263,
    ];
    let g = kassen_core::load_game("three_kingdoms_redux", None).unwrap();
    let mut s = g.new_initial_state(1);
    for a in ACTIONS {
        s.apply_in_place(a).unwrap();
    }
    let (a, b) = (s.child(276).unwrap(), s.child(273).unwrap());
    for p in kassen_core::SPECTATOR..3 {
        assert_ne!(a.view_json(p).unwrap(), b.view_json(p).unwrap(), "seat {p}");
        assert_ne!(a.info_state_hash(p).unwrap(), b.info_state_hash(p).unwrap(), "seat {p}");
        assert_ne!(a.info_state_string(p).unwrap(), b.info_state_string(p).unwrap(), "seat {p}");
    }
}

#[test]
fn the_won_action_performed_next_is_in_every_seat_s_key() {
    // The view's decision names the action being performed: every key must tell two apart
    // (issue 37, found by KASSEN_VARIANT_ROUNDS=80 on {"trade_rates": "literal"}, seed 2).
    const ACTIONS: [u32; 55] = [
        116, 129, 126, 128, 139, 149, 138, 172, 181, 189, 200, 279, 223, 270, 292, 246, 279, 294, 216, 281, 295, 295, 213, 274, 295, 326,
        324, 301, 332, 315, 185, 215, 272, 225, 283, 295, 216, 274, 236, 278, 200, 272, 223, 273, 203, 279, 226, 283, 295, 319, 299, 332,
        333, 306, 310,
    ];
    let g = kassen_core::load_game("three_kingdoms_redux", Some(&serde_json::json!({"trade_rates": "literal"}))).unwrap();
    let mut s = g.new_initial_state(2);
    for a in ACTIONS {
        s.apply_in_place(a).unwrap();
    }
    let (a, b) = (s.child(305).unwrap(), s.child(300).unwrap());
    for p in kassen_core::SPECTATOR..3 {
        assert_ne!(a.view_json(p).unwrap(), b.view_json(p).unwrap(), "seat {p}");
        assert_ne!(a.info_state_hash(p).unwrap(), b.info_state_hash(p).unwrap(), "seat {p}");
    }
}
