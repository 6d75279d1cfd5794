//! §3 setup and §7 1) recruitment.

use kassen_core::events::Events;
use kassen_core::game::{Game, CHANCE};
use kassen_core::games::three_kingdoms_redux::{Action, GLoc, Pending, Stage};
use kassen_core::rng::Rng;

use super::common::*;

/// Plays random choices until `stop` holds.
fn run_until(
    g: &kassen_core::games::three_kingdoms_redux::Tkr,
    s: &mut kassen_core::games::three_kingdoms_redux::State,
    seed: u64,
    stop: impl Fn(&kassen_core::games::three_kingdoms_redux::State) -> bool,
) {
    let mut rng = Rng::from_seed(seed);
    let mut ev = Events::off();
    while !stop(s) {
        let a = if g.current_player(s) == CHANCE {
            g.sample_chance(s)
        } else {
            let mut l = Vec::new();
            g.legal_actions(s, &mut l);
            l[rng.below(l.len() as u32) as usize]
        };
        g.apply(s, a, &mut ev);
    }
}

#[test]
fn s3_setup_resources_tracks_cards_generals_order_alliance() {
    let g = plain();
    let mut s = g.new_initial_state(11);
    // C: the Control Han Emperor marker side is a fair coin
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| (o.1 - 0.5).abs() < 1e-12));
    run_until(&g, &mut s, 11, |s| s.stage == Stage::Alliance);
    let d = g.data();
    // J: resources; G: tribal 5/6/7; E: office 태수, military 0; F: levels 0
    let res: Vec<(i32, i32, i32)> = s.seats.iter().map(|p| (p.gold, p.rice, p.support)).collect();
    // 조홍 (+3 gold) and 정보 (+1 trained) are immediate gains when kept at setup
    let extra_gold = if s.gloc[idx(&g, "cao_hong") as usize] == GLoc::Active { 3 } else { 0 };
    assert_eq!(res, vec![(3 + extra_gold, 3, 0), (4, 4, 1), (5, 5, 2)]);
    assert_eq!(s.seats.iter().map(|p| p.tribal).collect::<Vec<_>>(), vec![5, 6, 7]);
    assert!(s.seats.iter().all(|p| p.office == 0 && p.military == 0 && p.farm_level == 0 && p.market_level == 0));
    // K: development hands (separation + unity): Wei 1+3, Wu 2+3, Shu 3+3
    for (k, (sep, uni)) in [(1, 3), (2, 3), (3, 3)].into_iter().enumerate() {
        let hand = s.seats[k].hand;
        let count = |deck: u8| (0..d.developments.len()).filter(|&c| hand & (1 << c) != 0 && d.developments[c].deck == deck).count();
        assert_eq!((count(1), count(0)), (sep, uni), "seat {k}");
    }
    // L: ruler + 4 / 3 / 2 kept of 6 drawn, revealed together; the rest back in the decks
    let active: Vec<usize> =
        (0..3).map(|k| (0..s.gloc.len()).filter(|&i| d.generals[i].kingdom as usize == k && s.gloc[i] == GLoc::Active).count()).collect();
    assert_eq!(active, vec![5, 4, 3]);
    assert!(s.gloc.iter().all(|l| matches!(l, GLoc::Deck | GLoc::Active)));
    // B, H: bid order Wei-Wu-Shu; Shu (player 3) holds the alliance token and chooses
    assert_eq!(s.bid_order, [0, 1, 2]);
    assert_eq!(s.pending, Pending::Alliance);
    assert_eq!(s.seat, 2);
    assert_eq!(s.round, 1);
}

#[test]
fn s7_1_recruitment_in_rounds_3_5_9_draw_choose_plus_2() {
    let g = plain();
    let mut s = g.new_initial_state(3);
    run_until(&g, &mut s, 3, |s| s.round == 3 || s.is_over());
    assert!(!s.is_over());
    // round 3: Wei draws 4 (choose 2 + 2); 곽가 adds 2 more
    let guo = s.gloc[idx(&g, "guo_jia") as usize] == GLoc::Active;
    assert_eq!(s.stage, Stage::Recruit);
    assert_eq!(s.pending, Pending::DrawGeneral { seat: 0, left: if guo { 6 } else { 4 } });
    run_until(&g, &mut s, 4, |s| matches!(s.pending, Pending::Keep { .. }));
    assert_eq!(s.pending, Pending::Keep { seat: 0, left: 2 });
    let drawn = s.gloc.iter().filter(|l| **l == GLoc::Drawn).count();
    assert_eq!(drawn, if guo { 6 } else { 4 });
    // keep two; the other two go back to the deck; nothing is revealed before Shu has chosen
    let keep: Vec<Action> = g.legal_typed(&s);
    kassen_core::game::Game::apply(&g, &mut s, g.encode(keep[0]), &mut Events::off());
    kassen_core::game::Game::apply(&g, &mut s, g.encode(keep[1]), &mut Events::off());
    assert_eq!(s.gloc.iter().filter(|l| **l == GLoc::Chosen).count(), 2);
    assert_eq!(s.gloc.iter().filter(|l| **l == GLoc::Drawn).count(), 0);
    assert_eq!(s.pending, Pending::DrawGeneral { seat: 1, left: 3 });
    run_until(&g, &mut s, 5, |s| s.stage == Stage::Alliance);
    assert_eq!(s.gloc.iter().filter(|l| **l == GLoc::Chosen).count(), 0);
    // no round 4 recruitment
    run_until(&g, &mut s, 6, |s| s.round == 4 || s.is_over());
    if !s.is_over() {
        assert_eq!(s.stage, Stage::Alliance);
    }
}
