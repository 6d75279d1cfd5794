//! Setup (5), the week cycle (6) and the decks (3.3).

use super::*;

#[test]
fn r5_setup_fixed_blocks_random_draws_boxes_and_hands() {
    let g = game();
    let s0 = g.new_initial_state(5);
    assert_eq!(g.current_player(&s0), CHANCE, "the setup draws come first");
    // The first draw is uniform over the bag of the side being drawn for.
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s0, &mut outcomes);
    let p = outcomes[0].1;
    assert!(outcomes.iter().all(|o| (o.1 - p).abs() < 1e-12));
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-9);

    let mut drawn_sets = std::collections::BTreeSet::new();
    for seed in 1..=6u64 {
        let t = Tb::new(seed);
        let d = t.g.data();
        // 5.2.1: blocks with a setup symbol on their printed places, the Mori box face up.
        for (i, b) in d.blocks.iter().enumerate() {
            match b.start {
                Start::Location(l) => assert_eq!(t.s.blocks[i].loc, l, "{}", b.id),
                Start::MoriBox => assert_eq!(t.s.blocks[i].loc, MORI_BOX, "{}", b.id),
                Start::Bag => assert!(matches!(t.s.blocks[i].loc, BAG | BOX) || (t.s.blocks[i].loc as usize) < d.locations.len()),
            }
        }
        assert_eq!(t.in_mori_box(), 5);
        let seen: Vec<Value> = t.view(T as Player)["blocks"].as_array().unwrap().clone();
        for id in ["I_mori_02", "I_mori_03", "I_mori_04", "I_mori_05", "I_mori_06"] {
            assert!(seen.iter().any(|x| x["id"] == id && x["at"] == "mori_box"), "{id} is face up in the Mori box");
        }
        // 5.2.2: "+N" locations get N random blocks of their side, from the bag.
        for (l, loc) in d.locations.iter().enumerate() {
            for side in [T, I] {
                let fixed = d.blocks.iter().filter(|b| b.side == side && b.start == Start::Location(l as u8)).count() as u32;
                let random = if loc.random_side == side { loc.random_setup as u32 } else { 0 };
                assert_eq!(t.s.count_at(&t.g, side, l as u8), fixed + random, "{} {side}", loc.id);
            }
        }
        // 5.2.3: four blocks in each recruitment box; the rest stay in the bags.
        for side in [T, I] {
            let n = |place: u8| t.s.blocks.iter().zip(&d.blocks).filter(|(b, x)| b.loc == place && x.side == side).count();
            assert_eq!(n(BOX), 4);
            assert_eq!(n(BAG), if side == T { 22 } else { 20 });
        }
        // 5.1: five cards each; week 1 has no reinforcement step (6.2): the bid is first.
        assert_eq!((t.hand_size(T), t.hand_size(I)), (5, 5));
        assert_eq!(t.s.pile_size(&t.g, &t.s.deck, T), 50);
        assert_eq!(t.s.pile_size(&t.g, &t.s.deck, I), 50);
        assert_eq!((t.s.week, t.s.pending), (1, Pending::Bid { side: T }));
        // Castles start with their natural owners, the capitals with their sides (4.5).
        for (l, loc) in d.locations.iter().enumerate() {
            assert_eq!(t.s.castle[l], loc.castle.unwrap_or(NONE));
            assert_eq!(t.s.resource[l], if loc.resource { loc.capital.unwrap_or(NONE) } else { NONE }, "{}", loc.id);
        }
        let ueda: Vec<usize> = (0..d.blocks.len()).filter(|&i| t.s.blocks[i].loc == t.l("ueda")).collect();
        drawn_sets.insert(ueda);
    }
    assert!(drawn_sets.len() > 1, "the random setup blocks depend on the seed");
}

// === 6.2 reinforcement ===

#[test]
fn r6_2_reinforcement_half_the_hand_with_the_rounding_chosen() {
    let mut t = end_of_week(3, 1);
    t.hand(T, &["T_date_2", "T_date_2", "T_maeda_2", "T_maeda_2", "T_tokugawa_2", "T_tokugawa_2", "T_fukushima_2"]);
    t.hand(I, &["I_mori_1", "I_mori_1", "I_ukita_1", "I_ukita_1", "I_uesugi_1"]);
    t.act(Action::EndPhase);
    assert_eq!((t.s.week, t.s.pending, t.cp()), (2, Pending::ReinforceDiscard { side: T }, T as Player));
    // Seven cards: three or four go.
    for (k, c) in ["T_date_2", "T_date_2", "T_maeda_2"].into_iter().enumerate() {
        assert!(!t.ok(Action::Done), "after {k} discards");
        t.act(Action::Discard(t.c(c)));
    }
    assert!(t.ok(Action::Done) && t.ok(Action::Discard(t.c("T_tokugawa_2"))), "rounding down or up");
    t.act(Action::Discard(t.c("T_tokugawa_2")));
    assert_eq!(t.hand_size(T), 3);
    // Four discarded: Ishida's turn. Five cards: two or three.
    assert_eq!(t.s.pending, Pending::ReinforceDiscard { side: I });
    t.act(Action::Discard(t.c("I_mori_1")));
    assert!(!t.ok(Action::Done));
    t.act(Action::Discard(t.c("I_mori_1")));
    let ev = t.act(Action::Done);
    assert_eq!(t.hand_size(I), 3);
    let shown = ev.iter().find(|e| e["kind"] == "reinforcement_discards").expect("shown to both");
    assert_eq!(shown["audience"], "all");
    assert_eq!(t.in_mori_box(), 5, "cards discarded outside the Ishida movement phase bring no Mori block");
    // Castles 5 to 4: Tokugawa draws a sixth card; resources 1 to 1: both draw the extra block.
    assert_eq!(t.s.due.cards, [6, 5]);
    assert_eq!(t.s.due.blocks, [3, 3]);
    t.resolve_chance();
    assert_eq!((t.hand_size(T), t.hand_size(I)), (9, 8));
    assert_eq!(t.s.pending, Pending::Bid { side: T });
}

#[test]
fn r6_2_reinforcement_bonuses_for_castles_and_resources() {
    // Week 5: the recruitment row gives one block.
    let mut t = end_of_week(4, 4);
    t.hand(T, &[]);
    t.hand(I, &[]);
    let (okazaki, hakone, kuwana) = (t.l("okazaki"), t.l("hakone"), t.l("kuwana"));
    t.s.castle[okazaki as usize] = I;
    t.s.castle[hakone as usize] = I;
    t.s.resource[kuwana as usize] = I;
    t.act(Action::EndPhase);
    // Empty hands: no discard decision at all.
    assert_eq!((t.s.week, t.s.pending), (5, Pending::Bid { side: T }));
    // Castles 3 to 6: Ishida draws 6; resources 1 to 2: only Ishida draws the extra block.
    assert_eq!(t.s.due.cards, [5, 6]);
    assert_eq!(t.s.due.blocks, [1, 2]);

    // A hand of one card still offers the rounding: keep it or discard it.
    let mut t = end_of_week(4, 2);
    t.hand(T, &["T_date_2"]);
    t.hand(I, &[]);
    t.act(Action::EndPhase);
    assert_eq!(t.s.pending, Pending::ReinforceDiscard { side: T });
    assert!(t.ok(Action::Done) && t.ok(Action::Discard(t.c("T_date_2"))));
    t.act(Action::Done);
    assert_eq!(t.s.pending, Pending::Bid { side: T }, "Ishida has nothing to discard");
    assert_eq!(t.s.due.blocks, [3, 3], "weeks 2-4: two blocks, +1 each on a resource tie");
}

#[test]
fn r6_2_cards_owed_at_the_weeks_end_arrive_before_the_half_hand_discard() {
    // Ishida went first, so Tokugawa's movement is the last phase of week 1. Tokugawa exchanges
    // its whole hand (7.1, no movement): the five cards it is owed are drawn before the
    // reinforcement step, which then halves the hand as it is after those draws (6.2).
    let mut t = end_of_week(3, 1);
    let five = ["T_date_2", "T_date_2", "T_maeda_2", "T_maeda_2", "T_fukushima_2"];
    t.hand(T, &five);
    t.hand(I, &[]);
    t.s.first = I;
    t.s.pending = Pending::Mode;
    assert_eq!(t.cp(), T as Player);
    t.act(Action::Mode(Mode::NoMove));
    for c in five {
        t.act(Action::Discard(t.c(c)));
    }
    assert_eq!(t.hand_size(T), 0);
    t.act(Action::Done);
    assert_eq!((t.s.week, t.cp()), (2, CHANCE), "the exchange draws come first");
    t.resolve_chance();
    assert_eq!((t.hand_size(T), t.s.pending), (5, Pending::ReinforceDiscard { side: T }), "five cards: two or three go");
    assert!(!t.ok(Action::Done));
    for _ in 0..2 {
        let c = t.legal().into_iter().find(|a| matches!(a, Action::Discard(_))).expect("a card to discard");
        t.act(c);
    }
    assert!(t.ok(Action::Done) && t.legal().iter().any(|a| matches!(a, Action::Discard(_))), "rounding down or up");
    t.act(Action::Done);
    // Ishida has no card and none owed: no decision.
    assert_eq!(t.s.pending, Pending::Bid { side: T });
    // Castles 5 to 4: six cards. Three kept + six = nine (keeping all five would make eleven).
    assert_eq!(t.s.due.cards, [6, 5]);
    t.resolve_chance();
    assert_eq!((t.hand_size(T), t.hand_size(I)), (9, 5));
}

// === 6.3 the initiative bid ===

#[test]
fn r6_3_bid_face_down_then_the_winner_chooses_who_goes_first() {
    let mut t = Tb::new(6);
    t.hand(T, &["T_tokugawa_6", "T_date_2"]);
    t.hand(I, &["I_mori_5", "I_ukita_1"]);
    let mut expected = vec![Action::Bid(t.c("T_date_2")), Action::Bid(t.c("T_tokugawa_6"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected);
    let mut other = t.clone();
    let ev = t.act(Action::Bid(t.c("T_tokugawa_6")));
    other.act(Action::Bid(other.c("T_date_2")));
    assert!(ev.iter().all(|e| e["audience"] != "all" || e.get("card").is_none()), "{ev:?}");
    // Ishida bids second without seeing the Tokugawa bid.
    assert_eq!((t.s.pending, t.cp()), (Pending::Bid { side: I }, I as Player));
    assert_eq!(t.view(I as Player), other.view(I as Player));
    let len = t.g.info().observation_shape[0];
    let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
    t.g.observation_tensor(&t.s, I as Player, &mut a);
    t.g.observation_tensor(&other.s, I as Player, &mut b);
    assert_eq!(a, b);
    assert_eq!(t.view(T as Player)["own_bid"], "T_tokugawa_6");
    assert_ne!(t.view(T as Player), other.view(T as Player));
    // 6 beats 5: Tokugawa chooses; both bids are discarded.
    let ev = t.act(Action::Bid(t.c("I_mori_5")));
    let shown = ev.iter().find(|e| e["kind"] == "bids_revealed").unwrap();
    assert_eq!(
        (shown["tokugawa"].as_str(), shown["ishida"].as_str(), shown["winner"].as_str()),
        (Some("T_tokugawa_6"), Some("I_mori_5"), Some("tokugawa"))
    );
    assert_eq!((t.s.pending, t.cp()), (Pending::ChooseFirst { side: T }, T as Player));
    assert_eq!(t.s.discard[t.c("T_tokugawa_6") as usize] + t.s.discard[t.c("I_mori_5") as usize], 2);
    t.act(Action::First(I));
    assert_eq!((t.s.first, t.s.pending, t.cp()), (I, Pending::Mode, I as Player));
    // 2 loses to 5: Ishida chooses.
    other.act(Action::Bid(other.c("I_mori_5")));
    assert_eq!(other.s.pending, Pending::ChooseFirst { side: I });
    // An empty hand bids nothing (value 0).
    let mut t = Tb::new(6);
    t.hand(T, &[]);
    t.hand(I, &["I_ukita_1"]);
    assert_eq!(t.legal(), vec![Action::BidNothing]);
    t.act(Action::BidNothing);
    t.act(Action::Bid(t.c("I_ukita_1")));
    assert_eq!(t.s.pending, Pending::ChooseFirst { side: I });
}

// === 7.1 movement modes ===

#[test]
fn r3_3_an_empty_deck_is_refilled_from_the_discard_pile() {
    let mut t = Tb::blank();
    t.hand(T, &["T_date_2", "T_maeda_2"]);
    for &c in &t.g.data().side_cards[T as usize].clone() {
        t.s.discard[c as usize] += t.s.deck[c as usize];
        t.s.deck[c as usize] = 0;
    }
    t.movement(T);
    t.act(Action::Mode(Mode::NoMove));
    t.act(Action::Discard(t.c("T_date_2")));
    let ev = t.act(Action::Done);
    assert!(has_kind(&ev, "deck_reshuffled"), "{:?}", kinds(&ev));
    t.resolve_chance();
    assert_eq!(t.hand_size(T), 2);
    assert_eq!(t.s.pile_size(&t.g, &t.s.discard, T), 0);
    // Nothing left to draw at all: the draw is dropped.
    let mut t = Tb::blank();
    t.hand(T, &["T_date_2"]);
    for &c in &t.g.data().side_cards[T as usize].clone() {
        t.s.deck[c as usize] = 0;
    }
    t.movement(T);
    t.act(Action::Mode(Mode::NoMove));
    t.act(Action::Discard(t.c("T_date_2")));
    let c = t.c("T_date_2");
    t.s.discard[c as usize] = 0;
    t.act(Action::Done);
    assert_eq!(t.s.due.cards, [0, 0]);
    assert_ne!(t.cp(), CHANCE);
}

#[test]
fn r6_4_turns_a_and_b_the_first_player_moves_and_fights_first_in_both() {
    let mut t = Tb::new(9);
    t.hand(T, &["T_date_2"]);
    t.hand(I, &["I_mori_1"]);
    t.act(Action::Bid(t.c("T_date_2")));
    t.act(Action::Bid(t.c("I_mori_1")));
    t.act(Action::First(I));
    t.resolve_chance();
    let mut seen = Vec::new();
    while t.s.week == 1 {
        assert_eq!(t.s.pending, Pending::Mode);
        seen.push((t.s.turn, t.s.step, t.cp()));
        t.act(Action::Mode(Mode::Minimal));
        t.act(Action::EndPhase);
        t.resolve_chance();
    }
    // Nothing to fight: the combat phases pass by themselves.
    assert_eq!(seen, vec![(0, 0, I as Player), (0, 2, T as Player), (1, 0, I as Player), (1, 2, T as Player)]);
    assert_eq!(t.s.week, 2);
    assert!(matches!(t.s.pending, Pending::Bid { .. } | Pending::ReinforceDiscard { .. }));
}
