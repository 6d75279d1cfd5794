//! Field battles (8.2-8.8): deployment, special attacks, double cards, initiative, loyalty, casualties, retreats.

use super::*;

#[test]
fn r8_2_4_leaders_deploy_free_only_before_the_sides_first_card() {
    let mut t = Tb::blank();
    t.hand(T, &["T_tokugawa_2", "T_loyalty_8"]);
    t.hand(I, &["I_ukita_1", "I_loyalty_7"]);
    field(
        &mut t,
        "minakuchi",
        T,
        &["T_tokugawa_01", "T_fukushima_01", "T_tokugawa_02"],
        "kuwana",
        &["I_ukita_01", "I_ukita_02", "I_kobayakawa_01"],
    );
    assert_eq!(leaders(&t), sorted(&["T_fukushima_01", "T_tokugawa_01"]));
    t.act(Action::Leader(t.b("T_fukushima_01")));
    assert_eq!(t.s.pending, Pending::Deploy, "a free leader cannot be challenged");
    assert_eq!((t.impact(), t.initiative()), ([1, 0], I));
    t.act(Action::Card(t.c("I_ukita_1")));
    t.act(Action::Select(t.b("I_ukita_02")));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([1, 2], T));
    // Tokugawa has not played a card yet: a second free leader.
    assert_eq!(leaders(&t), sorted(&["T_tokugawa_01"]));
    t.act(Action::Leader(t.b("T_tokugawa_01")));
    assert_eq!((t.impact(), t.initiative()), ([2, 2], T), "2-2: the defender leads");
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_02")));
    assert_eq!(t.last_deploy(), (4, 0, T), "3 + 1 for the Tokugawa leader already deployed (8.3.3)");
    t.act(Action::NoChallenge);
    // Ishida has played a card: its leaders now need one.
    assert_eq!(t.initiative(), I);
    assert!(leaders(&t).is_empty());
}

#[test]
fn r8_2_2_any_card_blocks_ishida_mitsunari_and_ii_naomasa() {
    let mut t = Tb::blank();
    t.hand(I, &["I_mori_1", "I_uesugi_1", "I_loyalty_7"]);
    t.hand(T, &["T_fukushima_2", "T_tokugawa_6", "T_loyalty_8"]);
    field(&mut t, "minakuchi", I, &["I_ishida_01", "I_kobayakawa_02"], "kyoto", &["T_ii_01", "T_tokugawa_02", "T_date_02"]);
    // 9.5: any clan card deploys Ishida Mitsunari; a Loyalty Challenge card deploys nothing.
    assert!(t.ok(Action::Card(t.c("I_mori_1"))) && t.ok(Action::Card(t.c("I_uesugi_1"))));
    assert!(!t.ok(Action::Card(t.c("I_loyalty_7"))));
    t.act(Action::Card(t.c("I_mori_1")));
    assert_eq!(t.selects(), sorted(&["I_ishida_01"]));
    t.act(Action::Select(t.b("I_ishida_01")));
    // A Loyalty Challenge: any clan card in hand proves Mitsunari loyal (8.6.1), and returns.
    t.act(Action::Challenge);
    assert_eq!((t.s.pending, t.cp()), (Pending::Refute, I as Player));
    assert_eq!(t.legal(), vec![Action::Refute(t.c("I_uesugi_1"))]);
    let ev = t.act(Action::Refute(t.c("I_uesugi_1")));
    assert!(has_kind(&ev, "challenge_refuted"));
    assert_eq!(t.held("I_uesugi_1"), 1);
    assert_eq!((t.impact(), t.initiative()), ([0, 1], T));
    // 9.4: a Fukushima card deploys Ii Naomasa (4 mons).
    assert!(t.ok(Action::Card(t.c("T_fukushima_2"))));
    assert!(!t.ok(Action::Card(t.c("T_loyalty_8"))));
    t.act(Action::Card(t.c("T_fukushima_2")));
    assert_eq!(t.selects(), sorted(&["T_ii_01"]));
    t.act(Action::Select(t.b("T_ii_01")));
    assert_eq!(t.last_deploy(), (4, 0, T));
}

#[test]
fn r8_4_1_special_attacks_add_two_and_two_per_block_of_the_type_already_deployed() {
    let mut t = Tb::blank();
    t.hand(T, &["T_fukushima_4", "T_tokugawa_4", "T_maeda_2", "T_maeda_4", "T_tokugawa_2"]);
    field(
        &mut t,
        "minakuchi",
        T,
        &["T_fukushima_02", "T_tokugawa_14", "T_maeda_10", "T_maeda_11", "T_tokugawa_12"],
        "kuwana",
        &["I_kobayakawa_02"],
    );
    t.act(Action::Card(t.c("T_fukushima_4")));
    t.act(Action::Select(t.b("T_fukushima_02")));
    assert_eq!(t.last_deploy(), (1, 2, T), "cavalry with a sword card: 1 + 2");
    // Ishida, with nothing to deploy, is done: Tokugawa keeps the initiative for good (8.5).
    assert_eq!((t.initiative(), t.legal()), (I, vec![Action::EndDeploy]));
    t.act(Action::EndDeploy);
    assert_eq!(t.initiative(), T);
    t.act(Action::Card(t.c("T_tokugawa_4")));
    t.act(Action::Select(t.b("T_tokugawa_14")));
    assert_eq!(t.last_deploy(), (1, 4, T), "another clan's cavalry already deployed: +2 more");
    assert_eq!(t.initiative(), T);
    t.act(Action::Card(t.c("T_maeda_2")));
    t.act(Action::Select(t.b("T_maeda_10")));
    assert_eq!(t.last_deploy(), (1, 0, T), "no sword card: no special attack");
    t.act(Action::Card(t.c("T_maeda_4")));
    t.act(Action::Select(t.b("T_maeda_11")));
    assert_eq!(t.last_deploy(), (2, 8, T), "1 + Maeda 1; special 2 + 2 x 3 cavalry already deployed");
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_12")));
    assert_eq!(t.last_deploy(), (2, 0, T), "an arquebus counts no cavalry");
    assert_eq!(t.impact(), [3 + 5 + 1 + 10 + 2, 0]);
}

#[test]
fn r8_4_2_double_cards() {
    let mut t = Tb::blank();
    field(
        &mut t,
        "minakuchi",
        I,
        &["I_ukita_02", "I_ukita_03", "I_ukita_10", "I_ukita_11", "I_ishida_01", "I_kobayakawa_02"],
        "kyoto",
        &["T_date_02"],
    );
    t.hand(I, &["I_ukita_5"]);
    let start = t.clone();
    // Two blocks, one after the other; the second gets the clan bonus; no special attacks.
    t.act(Action::Card(t.c("I_ukita_5")));
    t.act(Action::Select(t.b("I_ukita_10")));
    assert_eq!(t.last_deploy(), (1, 0, I));
    assert!(matches!(t.s.pending, Pending::DeploySecond { .. }));
    // INTERPRETATION: the second block must carry the card's clan; the any-card block does not.
    assert_eq!(t.selects(), sorted(&["I_ukita_02", "I_ukita_03", "I_ukita_11"]));
    assert!(t.ok(Action::Done), "the second block is optional");
    t.act(Action::Select(t.b("I_ukita_11")));
    assert_eq!(t.last_deploy(), (2, 0, I));
    assert_eq!(t.impact(), [0, 3]);
    // One block only.
    let mut one = start.clone();
    one.act(Action::Card(one.c("I_ukita_5")));
    one.act(Action::Select(one.b("I_ukita_02")));
    one.act(Action::Done);
    assert_eq!(one.battle().deploys.len(), 1);
    assert_eq!(one.s.pending, Pending::Deploy);
    // Used on Ishida Mitsunari, the double card loses its second block.
    let mut any = start.clone();
    any.act(Action::Card(any.c("I_ukita_5")));
    any.act(Action::Select(any.b("I_ishida_01")));
    assert_eq!(any.s.pending, Pending::Deploy, "no second block");
    assert_eq!(any.battle().deploys.len(), 1);
}

// === 8.6 Loyalty Challenge ===

#[test]
fn r8_6_1_a_matching_card_refutes_the_challenge_and_returns_to_hand() {
    let mut t = Tb::blank();
    t.hand(T, &["T_tokugawa_2", "T_tokugawa_4"]);
    t.hand(I, &["I_loyalty_7", "I_kobayakawa_1"]);
    field(&mut t, "minakuchi", T, &["T_tokugawa_02", "T_tokugawa_09"], "kuwana", &["I_kobayakawa_02"]);
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_02")));
    assert_eq!((t.s.pending, t.cp()), (Pending::Challenge, I as Player));
    let mut expected = vec![Action::Challenge, Action::NoChallenge];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected);
    let ev = t.act(Action::Challenge);
    assert!(has_kind(&ev, "loyalty_challenge"));
    assert_eq!((t.s.pending, t.cp()), (Pending::Refute, T as Player));
    assert_eq!(t.legal(), vec![Action::Refute(t.c("T_tokugawa_4"))]);
    t.act(Action::Refute(t.c("T_tokugawa_4")));
    assert_eq!(t.held("T_tokugawa_4"), 1, "the card shown goes back to the hand");
    assert_eq!(t.held("I_loyalty_7"), 0);
    assert_eq!(t.battle().used[t.c("I_loyalty_7") as usize], 1, "the challenge card is spent");
    assert_eq!(t.impact(), [3, 0]);
    assert_eq!(t.flags("T_tokugawa_02") & DEFECTED, 0);
}

#[test]
fn r8_6_2_a_defector_takes_its_impact_without_the_special_attack_and_counts_for_later_ones() {
    let mut t = Tb::blank();
    t.hand(T, &["T_tokugawa_4", "T_date_2"]);
    t.hand(I, &["I_loyalty_7", "I_mori_3"]);
    field(&mut t, "minakuchi", T, &["T_tokugawa_14", "T_date_02"], "kuwana", &["I_mori_14", "I_kobayakawa_02"]);
    t.act(Action::Card(t.c("T_tokugawa_4")));
    t.act(Action::Select(t.b("T_tokugawa_14")));
    assert_eq!(t.impact(), [3, 0]);
    // No Tokugawa card left in hand: the cavalry defects, with its 1 mon only.
    let ev = t.act(Action::Challenge);
    assert!(has_kind(&ev, "defection"), "{:?}", kinds(&ev));
    assert_eq!(t.impact(), [0, 1]);
    assert_eq!(t.last_deploy(), (1, 0, I));
    assert_ne!(t.flags("T_tokugawa_14") & DEFECTED, 0);
    // Ishida leads 1-0: Tokugawa's initiative; it stops.
    assert_eq!(t.initiative(), T);
    t.act(Action::EndDeploy);
    // Ishida's cavalry special attack counts the defected cavalry: 1 + 2 + 2.
    t.act(Action::Card(t.c("I_mori_3")));
    t.act(Action::Select(t.b("I_mori_14")));
    assert_eq!(t.last_deploy(), (1, 4, I));
    assert_eq!(t.impact(), [0, 6]);
}

#[test]
fn r8_6_3_a_double_card_defects_whole_or_is_refuted_with_one_card() {
    let mut t = Tb::blank();
    t.hand(T, &["T_loyalty_8", "T_date_2"]);
    t.hand(I, &["I_ukita_5"]);
    field(&mut t, "minakuchi", I, &["I_ukita_02", "I_ukita_03", "I_kobayakawa_02"], "kyoto", &["T_date_02"]);
    let mut refuted = t.clone();
    t.act(Action::Card(t.c("I_ukita_5")));
    t.sel(&["I_ukita_02", "I_ukita_03"]);
    assert_eq!(t.impact(), [0, 5]);
    let ev = t.act(Action::Challenge);
    let d = ev.iter().find(|e| e["kind"] == "defection").expect("defection");
    assert_eq!(d["blocks"].as_array().unwrap().len(), 2);
    assert_eq!(t.impact(), [5, 0], "both blocks, with the second block's clan bonus");
    assert!(t.battle().deploys.iter().all(|d| d.side == T));

    refuted.hand(I, &["I_ukita_5", "I_ukita_1"]);
    refuted.act(Action::Card(refuted.c("I_ukita_5")));
    refuted.sel(&["I_ukita_02", "I_ukita_03"]);
    refuted.act(Action::Challenge);
    assert_eq!(refuted.legal(), vec![Action::Refute(refuted.c("I_ukita_1"))]);
    refuted.act(Action::Refute(refuted.c("I_ukita_1")));
    assert_eq!(refuted.impact(), [0, 5], "one card keeps both loyal");
}

#[test]
fn r8_5_a_side_that_declared_the_end_may_still_challenge() {
    let mut t = Tb::blank();
    t.hand(T, &["T_date_2", "T_date_2"]);
    t.hand(I, &["I_loyalty_7"]);
    field(&mut t, "minakuchi", T, &["T_date_02", "T_date_03"], "kuwana", &["I_kobayakawa_02"]);
    t.act(Action::Card(t.c("T_date_2")));
    t.act(Action::Select(t.b("T_date_02")));
    t.act(Action::NoChallenge);
    assert_eq!(t.legal(), vec![Action::EndDeploy]);
    t.act(Action::EndDeploy);
    t.act(Action::Card(t.c("T_date_2")));
    t.act(Action::Select(t.b("T_date_03")));
    assert_eq!((t.s.pending, t.cp()), (Pending::Challenge, I as Player));
    assert!(t.ok(Action::Challenge));
    t.act(Action::Challenge);
    // INTERPRETATION: the defector takes its whole impact (3 + 1 Date bonus) across, as the
    // second block of a double card does (8.6.3).
    assert_eq!(t.impact(), [2, 4], "no Date card left: the block defects");
}

// === 8.7 casualties ===

#[test]
fn r8_7_2_casualties_defected_then_deployed_then_undeployed_attacker_first() {
    let mut t = Tb::blank();
    let ishida = ["I_ukita_02", "I_ukita_03", "I_kobayakawa_02", "I_kobayakawa_03", "I_kobayakawa_04", "I_kobayakawa_05"];
    t.put(&ishida, "minakuchi");
    t.came(&ishida, "kyoto");
    t.put(&["T_date_02", "T_date_03", "T_date_04"], "minakuchi");
    // Two Ukita blocks defected to Tokugawa; 14-14: the defender wins.
    t.staged(
        "minakuchi",
        I,
        false,
        NONE,
        [14, 14],
        &[("I_ukita_02", T), ("I_ukita_03", T), ("I_kobayakawa_02", I), ("I_kobayakawa_03", I), ("T_date_02", T)],
    );
    let ev = t.act(Action::EndDeploy);
    let r = ev.iter().find(|e| e["kind"] == "battle_result").unwrap();
    assert_eq!(
        (r["winner"].as_str(), r["casualties"]["ishida"].as_u64(), r["casualties"]["tokugawa"].as_u64()),
        (Some("tokugawa"), Some(3), Some(2))
    );
    // Ishida (the attacker) first: both defectors go without a choice, then one deployed block.
    assert_eq!(t.at("I_ukita_02"), DEAD);
    assert_eq!(t.at("I_ukita_03"), DEAD);
    assert_eq!(t.s.pending, Pending::Casualty { side: I });
    assert_eq!(t.selects(), sorted(&["I_kobayakawa_02", "I_kobayakawa_03"]));
    t.act(Action::Select(t.b("I_kobayakawa_03")));
    // Tokugawa: its one deployed block, then one of the others.
    assert_eq!(t.at("T_date_02"), DEAD);
    assert_eq!(t.s.pending, Pending::Casualty { side: T });
    assert_eq!(t.selects(), sorted(&["T_date_03", "T_date_04"]));
    let ev = t.act(Action::Select(t.b("T_date_04")));
    // Eliminated blocks are shown.
    for e in ev.iter().chain(std::iter::once(&Value::Null)).filter(|e| e["kind"] == "block_eliminated") {
        assert_eq!(e["audience"], "all");
    }
    let seen = t.view(T as Player)["blocks"].as_array().unwrap().clone();
    assert!(seen.iter().any(|x| x["id"] == "I_kobayakawa_03" && x["at"] == "eliminated"));
    // The defected blocks were Ishida's own losses; the survivors retreat to Kyoto.
    for x in ["I_kobayakawa_02", "I_kobayakawa_04", "I_kobayakawa_05"] {
        assert_eq!(t.at(x), t.l("kyoto"));
        assert_eq!(t.flags(x) & (DEPLOYED | DEFECTED), 0);
    }
}

// === 8.8 retreat ===

#[test]
fn r8_8_2_the_attacker_retreats_where_it_came_from() {
    let mut t = Tb::blank();
    t.put(&["T_date_02"], "kuwana");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03", "I_kobayakawa_04"], "kuwana");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_04"], "minakuchi");
    t.came(&["I_kobayakawa_03"], "anotsu");
    t.staged("kuwana", I, false, NONE, [0, 0], &[]);
    t.act(Action::EndDeploy);
    // 0-0: the defender wins; the loser loses one block.
    t.act(Action::Select(t.b("I_kobayakawa_02")));
    assert_eq!((t.s.pending, t.cp()), (Pending::Retreat, I as Player));
    let mut expected = vec![Action::Retreat(t.l("minakuchi")), Action::Retreat(t.l("anotsu"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected, "not Kiyosu");
    t.act(Action::Retreat(t.l("anotsu")));
    assert_eq!((t.at("I_kobayakawa_03"), t.at("I_kobayakawa_04")), (t.l("anotsu"), t.l("anotsu")), "together");
}

#[test]
fn r8_8_3_the_defender_retreats_where_no_enemy_is_or_came_from() {
    let mut t = Tb::blank();
    t.put(&["T_date_02", "T_date_03", "T_date_04"], "kuwana");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "kuwana");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_03"], "minakuchi");
    let mut enemy_at_kiyosu = t.clone();
    t.staged("kuwana", I, false, NONE, [0, 1], &[]);
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("T_date_02")));
    let mut expected = vec![Action::Retreat(t.l("anotsu")), Action::Retreat(t.l("kiyosu"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!((t.cp(), t.legal()), (T as Player, expected), "not Minakuchi, where the attackers came from");
    // With an enemy block at Kiyosu, Anotsu is the only choice: taken at once.
    enemy_at_kiyosu.put(&["I_kobayakawa_04"], "kiyosu");
    enemy_at_kiyosu.staged("kuwana", I, false, NONE, [0, 1], &[]);
    enemy_at_kiyosu.act(Action::EndDeploy);
    enemy_at_kiyosu.act(Action::Select(enemy_at_kiyosu.b("T_date_02")));
    assert_eq!(enemy_at_kiyosu.at("T_date_03"), enemy_at_kiyosu.l("anotsu"));
}

#[test]
fn r8_8_5_a_retreat_into_the_enemy_starts_a_battle_the_retreating_side_attacks() {
    let mut t = Tb::blank();
    t.put(&["T_date_02", "T_date_03", "T_date_04"], "minakuchi");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "minakuchi");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_03"], "kyoto");
    t.put(&["I_kobayakawa_04"], "kuwana");
    t.staged("minakuchi", I, false, NONE, [0, 1], &[]);
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("T_date_02")));
    // No safe location: any neighbour.
    let mut expected = vec![Action::Retreat(t.l("kyoto")), Action::Retreat(t.l("kuwana"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected);
    let ev = t.act(Action::Retreat(t.l("kuwana")));
    let declared = ev.iter().find(|e| e["kind"] == "battle_declared").expect("a new battle");
    assert_eq!((declared["at"].as_str(), declared["attacker"].as_str()), (Some("kuwana"), Some("tokugawa")));
    assert_eq!((t.battle().loc, t.battle().attacker, t.s.pending), (t.l("kuwana"), T, Pending::Deploy));
    t.resolve_chance();
    assert_eq!(t.cp(), T as Player, "the retreating side deploys first");
}

#[test]
fn r8_8_4_up_to_two_blocks_retreat_into_the_castle_held_before() {
    let mut t = Tb::blank();
    let toku = ["T_date_02", "T_date_03", "T_date_04", "T_date_05"];
    t.put(&toku, "okazaki");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "okazaki");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_03"], "kiyosu");
    let mut attacker_lost = t.clone();
    t.staged("okazaki", I, false, T, [0, 1], &[]);
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("T_date_02")));
    assert_eq!((t.s.pending, t.cp()), (Pending::RetreatCastle, T as Player));
    assert!(t.ok(Action::Done), "none need go in");
    t.sel(&["T_date_03", "T_date_04"]);
    assert_eq!(t.legal(), vec![Action::Done], "two at most");
    t.act(Action::Done);
    // The rest retreat together: Hamamatsu (the attackers came from Kiyosu).
    assert_eq!(t.at("T_date_05"), t.l("hamamatsu"));
    assert!(["T_date_03", "T_date_04"].iter().all(|x| t.at(x) == t.l("okazaki") && t.flags(x) & IN_CASTLE != 0));
    assert_eq!(t.s.castle[t.l("okazaki") as usize], T, "besieged, still Tokugawa's");
    // The loser that did not hold the castle gets no such choice.
    attacker_lost.staged("okazaki", I, false, T, [1, 0], &[]);
    attacker_lost.act(Action::EndDeploy);
    attacker_lost.act(Action::Select(attacker_lost.b("I_kobayakawa_02")));
    assert_eq!(attacker_lost.at("I_kobayakawa_03"), attacker_lost.l("kiyosu"));
}

// === 8.9 sieges ===

#[test]
fn r8_7_1_a_losing_force_retreating_into_four_times_its_number_is_overrun() {
    // Tokugawa loses at Minakuchi with one block left; no safe location (Ishida came from
    // Kyoto, four Ishida blocks hold Kuwana). Retreating into Kuwana, it is overrun (8.7.1 note:
    // not before the retreat, but after it; 8.8.5: a retreat may cause a battle or an overrun).
    let mut t = Tb::blank();
    t.put(&["T_date_02", "T_date_03"], "minakuchi");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "minakuchi");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_03"], "kyoto");
    t.put(&["I_kobayakawa_04", "I_kobayakawa_05", "I_kobayakawa_06", "I_kobayakawa_07"], "kuwana");
    t.staged("minakuchi", I, false, NONE, [0, 1], &[]);
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("T_date_02")));
    assert_eq!(t.s.pending, Pending::Retreat);
    let ev = t.act(Action::Retreat(t.l("kuwana")));
    assert!(has_kind(&ev, "overrun"), "{:?}", kinds(&ev));
    assert!(!has_kind(&ev, "battle_declared"));
    assert_eq!(t.at("T_date_03"), DEAD);
    assert_eq!(t.count_at(I, "kuwana"), 4);
}

#[test]
fn r8_8_5_a_retreat_into_a_besieged_garrison_joins_it_and_the_next_battle_is_in_the_field() {
    let mut t = Tb::blank();
    t.put(&["T_date_02", "T_date_03", "T_date_04"], "kiyosu");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "kiyosu");
    t.came(&["I_kobayakawa_02", "I_kobayakawa_03"], "kuwana");
    t.put(&["I_kobayakawa_04"], "gifu");
    t.put(&["T_date_05"], "okazaki");
    t.flag(&["T_date_05"], IN_CASTLE);
    t.put(&["I_kobayakawa_05"], "okazaki");
    t.staged("kiyosu", I, false, NONE, [0, 1], &[]);
    t.s.declared |= 1 << t.l("okazaki"); // the siege at Okazaki was fought earlier this phase
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("T_date_02")));
    let mut expected = vec![Action::Retreat(t.l("gifu")), Action::Retreat(t.l("kuwana")), Action::Retreat(t.l("okazaki"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected, "no safe location: any neighbour");
    let ev = t.act(Action::Retreat(t.l("okazaki")));
    assert!(!has_kind(&ev, "battle_declared"), "they join the fight there");
    // INTERPRETATION (RULES_NOTES.md S24): joining the garrison is the retreating side's choice.
    assert_eq!((t.s.pending, t.cp()), (Pending::JoinGarrison { to: t.l("okazaki") }, T as Player));
    assert_eq!(t.legal(), vec![Action::Siege, Action::Field]);
    t.act(Action::Siege);
    assert!(["T_date_03", "T_date_04", "T_date_05"].iter().all(|x| t.at(x) == t.l("okazaki") && t.flags(x) & IN_CASTLE != 0));
    // Three blocks now: at the next battle they cannot stay inside (8.9.6).
    t.resolve_chance();
    t.combat(I);
    t.act(Action::Battle(t.l("okazaki")));
    assert_eq!(t.s.pending, Pending::Deploy);
    assert!(!t.battle().siege);
}

// === 4 control, 3.3 decks, 6.4 turn order ===

#[test]
fn r8_8_5_a_retreat_into_a_castle_held_by_a_disk_alone_may_join_its_garrison() {
    // Tokugawa besieges Osaka, held by Hideyori alone (a disk is a unit of the garrison, 8.9.3).
    // Ishida loses at Wakayama; with no safe location it retreats into Osaka.
    let mut t = Tb::blank();
    t.put(&["T_date_05"], "osaka");
    let att = ["T_date_02", "T_date_03", "T_date_04"];
    t.put(&att, "wakayama");
    t.came(&att, "tanabe");
    t.put(&["I_kobayakawa_02", "I_kobayakawa_03"], "wakayama");
    t.staged("wakayama", T, false, NONE, [1, 0], &[]);
    t.act(Action::EndDeploy);
    t.act(Action::Select(t.b("I_kobayakawa_02")));
    let mut expected = vec![Action::Retreat(t.l("osaka")), Action::Retreat(t.l("tanabe"))];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected);
    let ev = t.act(Action::Retreat(t.l("osaka")));
    assert!(!has_kind(&ev, "battle_declared"), "no new battle: they reach their own besieged castle");
    assert_eq!((t.s.pending, t.cp()), (Pending::JoinGarrison { to: t.l("osaka") }, I as Player));
    let decision = serde_json::to_value(t.g.decision(&t.s, SPECTATOR)).unwrap();
    assert_eq!(decision["kind"], "join_garrison");
    assert_eq!(decision["at"], "osaka");
    assert_eq!(t.g.action_to_string(&t.s, t.id(Action::Siege)), "join_garrison osaka");
    assert_eq!(t.g.action_to_string(&t.s, t.id(Action::Field)), "stay_outside osaka");
    // Into the castle, with Hideyori.
    let mut inside = t.clone();
    let ev = inside.act(Action::Siege);
    assert!(!has_kind(&ev, "battle_declared"));
    assert_eq!(inside.at("I_kobayakawa_03"), inside.l("osaka"));
    assert_ne!(inside.flags("I_kobayakawa_03") & IN_CASTLE, 0);
    assert_eq!(inside.s.castle[inside.l("osaka") as usize], I);
    assert_eq!(inside.s.forced, None);
    // Or outside it, joining the fight there: still no new battle.
    let ev = t.act(Action::Field);
    assert!(!has_kind(&ev, "battle_declared"));
    assert_eq!(t.at("I_kobayakawa_03"), t.l("osaka"));
    assert_eq!(t.flags("I_kobayakawa_03") & IN_CASTLE, 0);
    assert_eq!(t.s.castle[t.l("osaka") as usize], I, "Hideyori still holds the castle");
    assert_eq!(t.s.forced, None);
}
