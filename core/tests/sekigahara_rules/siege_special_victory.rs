//! Sieges (8.9), the special rules (9) and victory (2).

use super::*;

#[test]
fn r8_9_1_the_castle_holder_with_two_blocks_or_fewer_chooses_a_siege() {
    let t = gifu_attack(&["T_tokugawa_02", "T_tokugawa_03", "T_tokugawa_09"], &["I_kobayakawa_02", "I_kobayakawa_03"]);
    assert_eq!((t.s.pending, t.cp()), (Pending::SiegeChoice { side: I }, I as Player));
    let mut expected = vec![Action::Siege, Action::Field];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!(t.legal(), expected);
    let t = gifu_attack(&["T_tokugawa_02"], &["I_kobayakawa_02", "I_kobayakawa_03", "I_kobayakawa_04"]);
    assert_eq!(t.s.pending, Pending::Deploy, "three blocks must fight outside");
    assert!(!t.battle().siege);
}

#[test]
fn r8_9_4_siege_seven_impact_per_loss_no_special_attack_no_challenge() {
    let mut t = gifu_attack(&["T_tokugawa_14", "T_tokugawa_02", "T_tokugawa_03"], &["I_kobayakawa_02", "I_kobayakawa_03"]);
    t.hand(T, &["T_tokugawa_4", "T_tokugawa_2", "T_tokugawa_2"]);
    t.hand(I, &["I_loyalty_7", "I_kobayakawa_1"]);
    t.act(Action::Siege);
    assert!(t.battle().siege);
    assert!(["I_kobayakawa_02", "I_kobayakawa_03"].iter().all(|x| t.flags(x) & IN_CASTLE != 0));
    assert_eq!((t.battle().attacker, t.cp()), (T, T as Player));
    t.act(Action::Card(t.c("T_tokugawa_4")));
    t.act(Action::Select(t.b("T_tokugawa_14")));
    assert_eq!(t.last_deploy(), (1, 0, T), "no cavalry attack in a siege");
    assert_eq!((t.s.pending, t.cp()), (Pending::Deploy, T as Player), "no Loyalty Challenge, the attacker keeps going");
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_02")));
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_03")));
    assert_eq!(t.impact(), [1 + 4 + 5, 0]);
    let ev = t.act(Action::EndDeploy);
    let r = ev.iter().find(|e| e["kind"] == "battle_result").unwrap();
    assert_eq!((r["casualties"]["ishida"].as_u64(), r["casualties"]["tokugawa"].as_u64()), (Some(1), Some(0)));
    // The defender chooses its loss from the castle.
    assert_eq!((t.s.pending, t.cp()), (Pending::Casualty { side: I }, I as Player));
    assert_eq!(t.selects(), sorted(&["I_kobayakawa_02", "I_kobayakawa_03"]));
    t.act(Action::Select(t.b("I_kobayakawa_02")));
    // Not empty: the castle holds, besieged; the attacker lost nothing.
    assert_eq!(t.s.castle[t.l("gifu") as usize], I);
    assert_ne!(t.flags("I_kobayakawa_03") & IN_CASTLE, 0);
    assert_eq!(t.count_at(T, "gifu"), 3);
    // 8.10 / 8.9.4 F: the attacker replaces its three cards, the defender draws one per block lost.
    assert_eq!(t.s.due.cards, [3, 1]);
    t.resolve_chance();
    // 8.9.6: the besieged block cannot leave; the besiegers may.
    let mut b = t.clone();
    b.moving_all(I);
    assert!(!origins(&b).contains(&"gifu".to_string()));
    b.moving_all(T);
    assert!(origins(&b).contains(&"gifu".to_string()));
    // 8.9.2: in its own combat phase the besieged side may stay inside: no battle then.
    let mut own = t.clone();
    own.combat(I);
    own.act(Action::Battle(own.l("gifu")));
    assert_eq!(own.s.pending, Pending::SiegeChoice { side: I });
    let mut sortie = own.clone();
    let ev = own.act(Action::Siege);
    assert!(has_kind(&ev, "stays_in_castle") && !has_kind(&ev, "battle_begins"), "{:?}", kinds(&ev));
    assert!(own.s.battle.is_none());
    assert_eq!(own.count_at(I, "gifu"), 1);
    // ... or come out and fight a field battle, attacking.
    sortie.act(Action::Field);
    assert_eq!((sortie.battle().siege, sortie.battle().attacker, sortie.s.pending), (false, I, Pending::Deploy));
    assert_eq!(sortie.flags("I_kobayakawa_03") & IN_CASTLE, 0);
}

#[test]
fn r8_9_4_d_the_castle_falls_when_its_last_unit_is_lost() {
    let mut t = gifu_attack(&["T_tokugawa_02", "T_tokugawa_03", "T_tokugawa_09"], &["I_kobayakawa_02", "I_kobayakawa_03"]);
    t.hand(T, &["T_tokugawa_2", "T_tokugawa_2", "T_tokugawa_2"]);
    t.act(Action::Siege);
    for x in ["T_tokugawa_02", "T_tokugawa_03", "T_tokugawa_09"] {
        t.act(Action::Card(t.c("T_tokugawa_2")));
        t.act(Action::Select(t.b(x)));
    }
    assert_eq!(t.impact(), [3 + 4 + 5, 0]);
    // 12 impact: one loss only (7 per loss, rounded down).
    let mut twelve = t.clone();
    twelve.act(Action::EndDeploy);
    assert_eq!(twelve.battle().hits, [0, 1]);
    // With a fourth block: 18, two losses, the castle falls.
    t.put(&["T_tokugawa_10"], "gifu");
    t.hand(T, &["T_tokugawa_2"]);
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_10")));
    let ev = t.act(Action::EndDeploy);
    assert!(has_kind(&ev, "castle_falls"), "{:?}", kinds(&ev));
    assert_eq!(t.s.castle[t.l("gifu") as usize], T);
    assert_eq!(t.count_at(I, "gifu"), 0);
    assert_eq!(t.s.due.cards, [4, 2]);
}

// === 9 special rules ===

#[test]
fn r9_1_hideyori_falls_last_and_his_capture_wins_for_tokugawa() {
    let mut t = Tb::blank();
    let att = ["T_tokugawa_02", "T_tokugawa_03", "T_tokugawa_09", "T_tokugawa_10"];
    t.put(&["I_ukita_02"], "osaka");
    t.put(&att, "osaka");
    t.came(&att, "kyoto");
    t.hand(T, &["T_tokugawa_2", "T_tokugawa_2", "T_tokugawa_2", "T_tokugawa_2"]);
    t.combat(T);
    t.act(Action::Battle(t.l("osaka")));
    t.act(Action::Siege);
    for x in &att[..2] {
        t.act(Action::Card(t.c("T_tokugawa_2")));
        t.act(Action::Select(t.b(x)));
    }
    // 7: one loss; the block goes before Hideyori, who holds the castle alone.
    let mut one = t.clone();
    one.act(Action::EndDeploy);
    assert_eq!(one.at("I_ukita_02"), DEAD);
    assert!(one.s.disks[one.disk("toyotomi_hideyori") as usize]);
    assert_eq!(one.s.castle[one.l("osaka") as usize], I);
    assert!(!one.s.is_over());
    // 18: two losses: the block, then Hideyori: Tokugawa wins at once (2.1).
    for x in &att[2..] {
        t.act(Action::Card(t.c("T_tokugawa_2")));
        t.act(Action::Select(t.b(x)));
    }
    let ev = t.act(Action::EndDeploy);
    assert!(has_kind(&ev, "disk_eliminated") && has_kind(&ev, "game_over"), "{:?}", kinds(&ev));
    assert_eq!((t.s.pending, t.s.winner, t.s.end), (Pending::Over, T, Some(EndReason::Immediate)));
    assert_eq!(t.cp(), TERMINAL);
    assert_eq!(t.g.returns(&t.s), vec![1.0, -1.0]);
}

#[test]
fn r9_2_sanada_may_take_a_siege_loss_instead_of_a_block() {
    let mut t = Tb::blank();
    let att = ["T_tokugawa_02", "T_tokugawa_03"];
    t.put(&["I_uesugi_02"], "ueda");
    t.put(&att, "ueda");
    t.came(&att, "saku");
    t.hand(T, &["T_tokugawa_2", "T_tokugawa_2"]);
    t.combat(T);
    t.act(Action::Battle(t.l("ueda")));
    t.act(Action::Siege);
    for x in att {
        t.act(Action::Card(t.c("T_tokugawa_2")));
        t.act(Action::Select(t.b(x)));
    }
    t.act(Action::EndDeploy);
    let sanada = t.disk("sanada_masayuki");
    let mut expected = vec![Action::Select(t.b("I_uesugi_02")), Action::Disk(sanada)];
    expected.sort_by_key(|&a| t.id(a));
    assert_eq!((t.cp(), t.legal()), (I as Player, expected));
    let mut block = t.clone();
    t.act(Action::Disk(sanada));
    assert!(!t.s.disks[sanada as usize]);
    assert_eq!(t.at("I_uesugi_02"), t.l("ueda"));
    assert_eq!(t.s.due.cards, [2, 0], "no card for a disk");
    block.act(Action::Select(block.b("I_uesugi_02")));
    assert_eq!(block.s.due.cards, [2, 1]);
    assert_eq!(block.s.castle[block.l("ueda") as usize], I, "Sanada still holds Ueda");
}

#[test]
fn r9_3_mori_box_one_block_per_card_discarded_in_an_ishida_movement_phase_terumoto_last() {
    let mut t = Tb::blank();
    t.mori_box_filled();
    t.put(&["I_ukita_02"], "kyoto");
    t.hand(I, &["I_mori_1", "I_mori_1", "I_ukita_1", "I_ukita_1", "I_uesugi_1"]);
    t.movement(I);
    t.act(Action::Mode(Mode::All));
    t.act(Action::Discard(t.c("I_mori_1")));
    let ev = t.act(Action::Discard(t.c("I_mori_1")));
    assert!(has_kind(&ev, "mori_arrival"));
    assert_eq!(t.count_at(I, "osaka"), 2);
    assert_eq!(t.at("I_mori_02"), MORI_BOX, "Mori Terumoto comes last");
    assert!(!origins(&t).contains(&"osaka".to_string()), "arrivals cannot move this turn");
    t.act(Action::Origin(t.l("kyoto")));
    t.sel(&["I_ukita_02"]);
    t.act(Action::ForcedMarch(t.c("I_ukita_1")));
    assert_eq!(t.count_at(I, "osaka"), 3, "a forced march card too");
    t.act(Action::Step(t.r("kyoto", "minakuchi")));
    t.act(Action::Stop);
    t.act(Action::EndPhase);
    // Tokugawa's movement phase: Ishida discards nothing there; Tokugawa's discards do nothing.
    t.resolve_chance();
    t.moving_all(T);
    assert_eq!(t.in_mori_box(), 2);
    // Ishida exchanges two cards without moving: the last two, Terumoto last.
    t.hand(I, &["I_ukita_1", "I_uesugi_1"]);
    t.movement(I);
    t.act(Action::Mode(Mode::NoMove));
    t.act(Action::Discard(t.c("I_ukita_1")));
    assert_eq!(t.at("I_mori_02"), MORI_BOX);
    t.act(Action::Discard(t.c("I_uesugi_1")));
    assert_eq!(t.at("I_mori_02"), t.l("osaka"));
    assert_eq!(t.in_mori_box(), 0);
}

#[test]
fn r9_3_a_tokugawa_attack_on_osaka_brings_the_whole_mori_box() {
    let mut t = Tb::blank();
    t.mori_box_filled();
    t.put(&["I_ukita_02"], "osaka");
    let att = ["T_tokugawa_02", "T_tokugawa_03"];
    t.put(&att, "osaka");
    t.came(&att, "kyoto");
    t.combat(T);
    let ev = t.act(Action::Battle(t.l("osaka")));
    assert_eq!(kinds(&ev).iter().filter(|k| *k == "mori_arrival").count(), 5);
    assert_eq!(t.in_mori_box(), 0);
    assert_eq!(t.count_at(I, "osaka"), 6);
    assert_eq!(t.s.pending, Pending::Deploy, "six blocks: a field battle");
    assert!(!t.battle().siege);
    assert!(t.ok(Action::EndDeploy));
}

#[test]
fn r9_3_mori_blocks_brought_by_an_attack_on_osaka_cannot_move_in_that_turn() {
    // Tokugawa goes first: its combat phase and Ishida's next movement phase are in turn A.
    let mut t = Tb::blank();
    t.mori_box_filled();
    t.put(&["I_ukita_02"], "osaka");
    let att = ["T_tokugawa_02", "T_tokugawa_03"];
    t.put(&att, "osaka");
    t.came(&att, "kyoto");
    t.combat(T);
    t.act(Action::Battle(t.l("osaka")));
    assert_eq!(t.in_mori_box(), 0);
    assert!(!t.battle().siege);
    t.act(Action::EndDeploy);
    t.act(Action::EndDeploy);
    // 0 to 0: the defender wins; Tokugawa loses a block and goes back to Kyoto.
    t.act(Action::Select(t.b("T_tokugawa_02")));
    assert_eq!(t.at("T_tokugawa_03"), t.l("kyoto"));
    t.resolve_chance();
    assert_eq!((t.s.turn, t.s.step, t.s.pending, t.cp()), (0, 2, Pending::Mode, I as Player));
    t.act(Action::Mode(Mode::Minimal));
    t.act(Action::Origin(t.l("osaka")));
    assert_eq!(t.selects(), sorted(&["I_ukita_02"]), "the Mori blocks arrived this turn (9.3)");
    t.act(Action::EndStack);
    t.act(Action::EndPhase);
    // Turn B: Tokugawa moves first, then Ishida, whose Mori blocks may now move.
    t.resolve_chance();
    assert_eq!((t.s.turn, t.s.step, t.cp()), (1, 0, T as Player));
    t.act(Action::Mode(Mode::Minimal));
    t.act(Action::EndPhase);
    t.resolve_chance();
    assert_eq!((t.s.turn, t.s.step, t.cp()), (1, 2, I as Player));
    t.act(Action::Mode(Mode::Minimal));
    t.act(Action::Origin(t.l("osaka")));
    assert_eq!(t.selects(), sorted(&["I_mori_02", "I_mori_03", "I_mori_04", "I_mori_05", "I_mori_06", "I_ukita_02"]));
}

// === 2 victory ===

#[test]
fn r2_1_eliminating_a_commander_wins_at_once_both_in_one_battle_ishida() {
    // Ishida Mitsunari falls: Tokugawa wins.
    let mut t = Tb::blank();
    t.put(&["I_ishida_01"], "minakuchi");
    t.came(&["I_ishida_01"], "kyoto");
    t.put(&["T_date_02"], "minakuchi");
    t.staged("minakuchi", I, false, NONE, [7, 0], &[("I_ishida_01", I)]);
    t.act(Action::EndDeploy);
    assert_eq!((t.s.winner, t.s.end), (T, Some(EndReason::Immediate)));
    assert_eq!(t.g.returns(&t.s), vec![1.0, -1.0]);

    // Both commanders in the same battle: Ishida wins.
    let mut t = Tb::blank();
    t.put(&["I_ishida_01"], "minakuchi");
    t.came(&["I_ishida_01"], "kyoto");
    t.put(&["T_tokugawa_01"], "minakuchi");
    t.staged("minakuchi", I, false, NONE, [7, 8], &[("I_ishida_01", I), ("T_tokugawa_01", T)]);
    let ev = t.act(Action::EndDeploy);
    assert_eq!(t.at("I_ishida_01"), DEAD);
    assert_eq!(t.at("T_tokugawa_01"), DEAD);
    assert!(has_kind(&ev, "game_over"));
    assert_eq!((t.s.winner, t.s.pending), (I, Pending::Over));
    assert_eq!(t.g.returns(&t.s), vec![-1.0, 1.0]);

    // A commander overrun: the same.
    let mut t = Tb::blank();
    let four = ["T_date_04", "T_date_05", "T_date_06", "T_date_07"];
    t.put(&four, "kiyosu");
    t.put(&["I_ishida_01"], "kuwana");
    t.moving_all(T);
    t.act(Action::Origin(t.l("kiyosu")));
    t.sel(&four);
    t.act(Action::Step(t.r("kiyosu", "kuwana")));
    assert_eq!((t.s.winner, t.cp()), (T, TERMINAL));
}

#[test]
fn r2_2_points_after_week_seven_two_per_castle_one_per_resource_ties_to_ishida() {
    // Castles 5-4, resources 1-1 (the capitals): Tokugawa 11, Ishida 9.
    let mut t = end_of_week(8, 7);
    t.hand(T, &[]);
    t.hand(I, &[]);
    let mut tie = t.clone();
    let ev = t.act(Action::EndPhase);
    let over = ev.iter().find(|e| e["kind"] == "game_over").expect("the game ends");
    assert_eq!((over["points"]["tokugawa"].as_u64(), over["points"]["ishida"].as_u64()), (Some(11), Some(9)));
    assert_eq!((t.s.winner, t.s.end, t.cp()), (T, Some(EndReason::Points), TERMINAL));
    // Two more resources for Ishida: 11-11, Ishida wins.
    for r in ["kuwana", "kiso"] {
        let l = tie.l(r);
        tie.s.resource[l as usize] = I;
    }
    tie.act(Action::EndPhase);
    assert_eq!((tie.s.winner, tie.s.end), (I, Some(EndReason::Points)));
}

// === hidden information ===

#[test]
fn r8_9_3_a_disk_alone_holds_its_castle_and_is_besieged() {
    let mut t = Tb::blank();
    t.put(&["T_date_04", "T_date_05"], "saku");
    t.moving_all(T);
    t.act(Action::Origin(t.l("saku")));
    t.sel(&["T_date_04", "T_date_05"]);
    let ev = t.act(Action::Step(t.r("saku", "ueda")));
    assert!(has_kind(&ev, "contact") && !has_kind(&ev, "overrun"), "a disk stops the move, and cannot be overrun");
    assert_eq!(t.s.castle[t.l("ueda") as usize], I);
    // In Ishida's combat phase there is nothing Ishida can fight with there.
    let mut ishida = t.clone();
    ishida.combat(I);
    assert!(!ishida.ok(Action::Battle(ishida.l("ueda"))));
    // In Tokugawa's, a siege at once (a disk cannot fight outside).
    t.hand(T, &["T_date_2", "T_date_2"]);
    t.combat(T);
    t.act(Action::Battle(t.l("ueda")));
    assert_eq!(t.s.pending, Pending::Deploy);
    assert!(t.battle().siege);
    t.act(Action::Card(t.c("T_date_2")));
    t.act(Action::Select(t.b("T_date_04")));
    t.act(Action::Card(t.c("T_date_2")));
    t.act(Action::Select(t.b("T_date_05")));
    assert_eq!(t.impact(), [5, 0]);
    let mut weak = t.clone();
    weak.act(Action::EndDeploy);
    assert!(weak.s.disks[weak.disk("sanada_masayuki") as usize], "5 impact: no loss");
    // A third Date block: 2 + 3 + 5 (two Date blocks already deployed) = 10: Sanada is lost.
    t.put(&["T_date_06"], "ueda");
    t.hand(T, &["T_date_2"]);
    t.act(Action::Card(t.c("T_date_2")));
    t.act(Action::Select(t.b("T_date_06")));
    assert_eq!(t.impact(), [10, 0]);
    let ev = t.act(Action::EndDeploy);
    assert!(has_kind(&ev, "castle_falls"));
    assert_eq!(t.s.castle[t.l("ueda") as usize], T);
    assert_eq!(t.s.due.cards, [3, 0], "no card for a disk");
}
