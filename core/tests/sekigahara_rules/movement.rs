//! Movement (7): modes, musters, roads, allowance, command, overruns; control (4.2-4.3).

use super::*;

#[test]
fn r7_1_movement_modes_and_their_cards() {
    let mut t = Tb::blank();
    for (loc, ids) in [
        ("edo", &["T_tokugawa_05", "T_tokugawa_06"][..]),
        ("kiyosu", &["T_fukushima_03"]),
        ("kanazawa", &["T_maeda_05"]),
        ("sendai", &["T_date_04"]),
        ("anotsu", &["T_date_05"]),
    ] {
        t.put(ids, loc);
    }
    t.put_at(&["T_tokugawa_07"], BOX);
    let all_stacks = sorted(&["anotsu", "edo", "kanazawa", "kiyosu", "sendai"]);
    t.movement(T);
    assert_eq!(modes(&t), vec![Mode::NoMove, Mode::Minimal], "no card in hand");
    t.hand(T, &["T_date_2"]);
    assert_eq!(modes(&t), vec![Mode::NoMove, Mode::Minimal, Mode::Limited]);
    t.hand(T, &["T_date_2", "T_maeda_2", "T_tokugawa_2"]);
    assert_eq!(modes(&t), Mode::ALL.to_vec());
    let start = t.clone();

    // Minimal: one stack (or one muster), no card.
    t.act(Action::Mode(Mode::Minimal));
    assert_eq!(t.s.pending, Pending::Menu);
    assert_eq!(origins(&t), all_stacks);
    assert!(musters(&t) > 0);
    t.act(Action::Origin(t.l("edo")));
    t.sel(&["T_tokugawa_05"]);
    t.act(Action::Step(t.r("edo", "mito")));
    t.act(Action::Stop);
    t.act(Action::EndStack);
    assert_eq!(t.legal(), vec![Action::EndPhase], "one stack only");
    assert_eq!(t.hand_size(T), 3);
    // Minimal with the muster instead.
    let mut m = start.clone();
    m.act(Action::Mode(Mode::Minimal));
    m.act(Action::MusterB(m.l("edo")));
    m.sel(&["T_tokugawa_07"]);
    m.act(Action::Done);
    assert_eq!(m.legal(), vec![Action::EndPhase], "the muster was the one move");

    // Limited: one card, three stacks, one of which may be the muster.
    let mut l = start.clone();
    l.act(Action::Mode(Mode::Limited));
    assert!(matches!(l.s.pending, Pending::PayMode { left: 1 }));
    l.act(Action::Discard(l.c("T_date_2")));
    assert_eq!(l.hand_size(T), 2);
    l.act(Action::MusterB(l.l("kanazawa")));
    l.sel(&["T_tokugawa_07"]);
    l.act(Action::Done);
    for o in ["edo", "kiyosu"] {
        assert!(!origins(&l).is_empty());
        l.act(Action::Origin(l.l(o)));
        l.act(Action::EndStack);
    }
    assert_eq!(l.legal(), vec![Action::EndPhase], "three moves used");

    // All: two cards, every stack and one muster.
    let mut a = start.clone();
    a.act(Action::Mode(Mode::All));
    a.act(Action::Discard(a.c("T_date_2")));
    a.act(Action::Discard(a.c("T_maeda_2")));
    assert_eq!(a.hand_size(T), 1);
    for o in ["anotsu", "edo", "kanazawa", "kiyosu", "sendai"] {
        a.act(Action::Origin(a.l(o)));
        a.act(Action::EndStack);
    }
    assert!(musters(&a) > 0, "the muster comes on top of every stack");
    a.act(Action::MusterA(a.l("edo")));
    a.sel(&["T_tokugawa_07"]);
    a.act(Action::Done);
    assert_eq!(a.legal(), vec![Action::EndPhase]);

    // No movement: nothing moves; any number of cards are exchanged.
    let mut n = start.clone();
    n.act(Action::Mode(Mode::NoMove));
    assert!(n.legal().iter().all(|a| matches!(a, Action::Discard(_) | Action::Done)), "{:?}", n.legal());
    n.act(Action::Discard(n.c("T_date_2")));
    n.act(Action::Discard(n.c("T_maeda_2")));
    assert_eq!(n.hand_size(T), 1);
    n.act(Action::Done);
    assert_eq!(n.s.due.cards[T as usize], 2, "as many cards are drawn");
    n.resolve_chance();
    assert_eq!(n.hand_size(T), 3);
    assert_eq!(n.s.step, 2, "and the phase is over (nothing to fight): Ishida moves");
    assert_eq!(n.s.pending, Pending::Mode);
}

// === 7.2 muster ===

#[test]
fn r7_2_muster_option_a_revealed_option_b_hidden() {
    let mut t = Tb::blank();
    let maeda = ["T_maeda_05", "T_maeda_07", "T_maeda_08"];
    t.put_at(&maeda, BOX);
    t.put_at(&["T_date_04", "T_tokugawa_05"], BOX);
    t.put(&["T_maeda_02"], "kanazawa");
    t.put(&["I_uesugi_02"], "kanazawa"); // a battle already set up at Kanazawa
    t.put(&["I_uesugi_03"], "sendai"); // only the enemy at Sendai
    t.moving_all(T);
    let sites = |t: &Tb, a: bool| -> Vec<String> {
        let mut v: Vec<String> = t
            .legal()
            .into_iter()
            .filter_map(|x| match x {
                Action::MusterA(l) if a => Some(t.g.data().locations[l as usize].id.clone()),
                Action::MusterB(l) if !a => Some(t.g.data().locations[l as usize].id.clone()),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    // A needs a block of the printed clan; B takes any block to any own recruitment location;
    // never into a location held by the enemy alone (Sendai), never to Ishida's locations.
    assert_eq!(sites(&t, true), sorted(&["edo", "kanazawa"]));
    assert_eq!(sites(&t, false), sorted(&["edo", "kanazawa", "kiyosu"]));

    let mut b = t.clone();
    // Option A: every matching block may come, shown to the opponent.
    t.act(Action::MusterA(t.l("kanazawa")));
    assert_eq!(t.selects(), sorted(&maeda), "only Maeda blocks match Kanazawa");
    assert!(!t.ok(Action::Done), "at least one block");
    t.sel(&maeda);
    let ev = t.act(Action::Done);
    let m = ev.iter().find(|e| e["kind"] == "muster").unwrap();
    assert_eq!(m["audience"], "all");
    assert_eq!(m["blocks"].as_array().unwrap().len(), 3);
    // 7.4.1: the mustered blocks overrun: four to one.
    assert!(has_kind(&ev, "overrun"), "{:?}", kinds(&ev));
    assert_eq!(t.at("I_uesugi_02"), DEAD);
    assert!(maeda.iter().all(|x| t.at(x) == t.l("kanazawa") && t.flags(x) & MUSTERED != 0));
    assert_eq!(musters(&t), 0, "one muster per phase");
    // Mustered blocks cannot move this turn: only the block that was there may.
    t.act(Action::Origin(t.l("kanazawa")));
    assert_eq!(t.selects(), sorted(&["T_maeda_02"]));

    // Option B: one block of any clan, not shown.
    b.act(Action::MusterB(b.l("kiyosu")));
    b.act(Action::Select(b.b("T_date_04")));
    assert_eq!(b.legal(), vec![Action::Done], "a single block");
    let ev = b.act(Action::Done);
    assert_eq!(b.at("T_date_04"), b.l("kiyosu"));
    for e in &ev {
        if e["audience"] == "all" {
            assert!(!e.to_string().contains("T_date_04"), "{e}");
        }
    }
    assert!(ev.iter().any(|e| e["kind"] == "muster_private" && e["audience"] == serde_json::json!([0])));
    assert!(!b.view(I as Player)["blocks"].as_array().unwrap().iter().any(|x| x["id"] == "T_date_04"));
    assert!(!origins(&b).contains(&"kiyosu".to_string()), "mustered blocks cannot move");
}

// === 7.3 movement ===

#[test]
fn r7_3_1_one_stack_per_road_drops_and_no_pickups() {
    let mut t = Tb::blank();
    t.put(&["T_date_04", "T_date_05", "T_date_06"], "edo");
    t.put(&["T_maeda_05"], "hakone");
    t.put(&["T_fukushima_03", "T_fukushima_04"], "oshi");
    t.moving_all(T);
    // From Edo (capital: command) along the Tokaido, through Hakone where a block waits.
    t.act(Action::Origin(t.l("edo")));
    t.sel(&["T_date_04", "T_date_05", "T_date_06"]);
    t.act(Action::Step(t.r("edo", "hakone")));
    assert!(!t.legal().iter().any(|a| matches!(a, Action::Select(_))), "no pick-ups on the way");
    t.act(Action::Drop(t.b("T_date_06")));
    assert_eq!(t.at("T_date_06"), t.l("hakone"));
    t.act(Action::Step(t.r("hakone", "numazu")));
    t.act(Action::Drop(t.b("T_date_05")));
    assert!(!t.legal().iter().any(|a| matches!(a, Action::Drop(_))), "the last block stops instead of dropping");
    t.act(Action::Step(t.r("numazu", "sunpu")));
    assert!(t.steps().is_empty(), "1 + highway + command");
    t.act(Action::Stop);
    assert_eq!(t.at("T_maeda_05"), t.l("hakone"), "the waiting block was not picked up");
    // The dropped blocks have moved; the waiting one has not.
    assert_eq!(origins(&t), sorted(&["hakone", "oshi"]));
    t.act(Action::Origin(t.l("hakone")));
    assert_eq!(t.selects(), sorted(&["T_maeda_05"]));
    // The roads used this phase are closed to every other move.
    t.sel(&["T_maeda_05"]);
    assert_eq!(t.steps(), Vec::<(String, String)>::new(), "Hakone's two roads were used");
    t.act(Action::EndStack);
    t.act(Action::Origin(t.l("oshi")));
    t.sel(&["T_fukushima_03"]);
    assert_eq!(t.steps(), vec![pair("edo", "oshi"), pair("oshi", "takasaki")]);
    // INTERPRETATION: a second group of the same stack may not take a road its first group took.
    let mut split = t.clone();
    split.act(Action::Step(split.r("oshi", "takasaki")));
    split.act(Action::Stop);
    assert_eq!(split.s.pending, Pending::Group, "the rest of the stack may move as another group");
    split.sel(&["T_fukushima_04"]);
    assert!(!split.ok(Action::Step(split.r("oshi", "takasaki"))));
}

#[test]
fn r7_3_5_size_penalty_5_9_13_17() {
    // Base 1 + highway 1 + command 1, minus 1 per four blocks beyond the first four.
    let plain: Vec<usize> = [1, 4, 5, 8, 9, 12, 13, 16, 17].iter().map(|&n| reach(n, false)).collect();
    assert_eq!(plain, vec![3, 3, 2, 2, 1, 1, 0, 0, 0]);
    // With a forced march (+1): 17 or more cannot move at all.
    let forced: Vec<usize> = [4, 5, 8, 9, 12, 13, 16].iter().map(|&n| reach(n, true)).collect();
    assert_eq!(forced, vec![4, 3, 3, 2, 2, 1, 1]);
}

#[test]
fn r7_3_4_command_needs_an_own_controlled_castle_or_own_capital() {
    // Ishida in Tokugawa's Okazaki castle (which it controls): no command.
    let mut t = Tb::blank();
    t.put(&["I_ukita_06"], "okazaki");
    let l = t.l("okazaki");
    t.s.castle[l as usize] = I;
    t.put(&["I_ukita_07"], "edo");
    t.moving_all(I);
    t.act(Action::Origin(t.l("okazaki")));
    t.sel(&["I_ukita_06"]);
    t.act(Action::Step(t.r("okazaki", "hamamatsu")));
    t.act(Action::Step(t.r("hamamatsu", "sunpu")));
    assert!(t.steps().is_empty(), "1 + highway only");
    t.act(Action::Stop);
    // Ishida in Edo, the Tokugawa capital: no command either.
    t.act(Action::Origin(t.l("edo")));
    t.sel(&["I_ukita_07"]);
    t.act(Action::Step(t.r("edo", "oshi")));
    t.act(Action::Step(t.r("oshi", "takasaki")));
    assert!(t.steps().is_empty());

    // Tokugawa outside its own Okazaki castle, held by Ishida blocks inside: not controlled.
    let mut t = Tb::blank();
    t.put(&["I_ukita_06"], "okazaki");
    t.flag(&["I_ukita_06"], IN_CASTLE);
    let l = t.l("okazaki");
    t.s.castle[l as usize] = I;
    t.put(&["T_date_04"], "okazaki");
    t.moving_all(T);
    t.act(Action::Origin(t.l("okazaki")));
    t.sel(&["T_date_04"]);
    t.act(Action::Step(t.r("okazaki", "hamamatsu")));
    t.act(Action::Step(t.r("hamamatsu", "sunpu")));
    assert!(t.steps().is_empty(), "no command from a castle the enemy holds");
    assert!(t.legal().iter().any(|a| matches!(a, Action::ForcedMarch(_))), "a forced march is still possible");
    t.act(Action::ForcedMarch(t.c("T_maeda_2")));
    assert_eq!(t.steps(), vec![pair("numazu", "sunpu")]);
}

#[test]
fn r7_3_4_a_revealed_leader_gives_command_to_every_group_of_its_stack() {
    // INTERPRETATION (RULES_NOTES.md S7): command is given to "one stack of one location"
    // (7.3.4), to "blocks moving from within command" (7.3.3): a group that leaves the leader
    // behind has it too. Ayabe: no castle, no capital, no highway.
    let mut t = Tb::blank();
    t.put(&["T_fukushima_01", "T_fukushima_03"], "ayabe");
    t.moving_all(T);
    t.act(Action::Origin(t.l("ayabe")));
    let mut plain = t.clone();
    t.sel(&["T_fukushima_03"]);
    let ev = t.act(Action::Command(t.b("T_fukushima_01")));
    assert!(ev.iter().any(|e| e["kind"] == "leader_revealed" && e["audience"] == "all"));
    t.act(Action::Step(t.r("ayabe", "miyazu")));
    assert_eq!(t.steps(), vec![pair("miyazu", "tsuruga")], "1 + command");
    t.act(Action::Step(t.r("miyazu", "tsuruga")));
    t.act(Action::Stop);
    // The next group of the same stack, the leader itself, is in command as well.
    assert_eq!(t.s.pending, Pending::Group);
    assert!(t.s.group.command);
    t.sel(&["T_fukushima_01"]);
    t.act(Action::Step(t.r("ayabe", "kyoto")));
    assert!(t.ok(Action::Step(t.r("kyoto", "sawayama"))));
    // Without the leader shown: one location.
    plain.sel(&["T_fukushima_03"]);
    plain.act(Action::Step(plain.r("ayabe", "miyazu")));
    assert!(plain.steps().is_empty());
}

#[test]
fn r7_3_4_a_shown_leader_joining_or_leaving_the_group_is_public() {
    // INTERPRETATION (RULES_NOTES.md S7): a leader shown for command is face up until its stack
    // is finished: both sides see whether it is in the group, and where it is left behind.
    let mut t = Tb::blank();
    t.put(&["T_fukushima_01", "T_fukushima_03"], "ayabe");
    t.moving_all(T);
    t.act(Action::Origin(t.l("ayabe")));
    let mut other = t.clone();
    // Chosen, then shown: the reveal says it is in the group.
    t.sel(&["T_fukushima_01"]);
    let ev = t.act(Action::Command(t.b("T_fukushima_01")));
    let e = ev.iter().find(|e| e["kind"] == "leader_revealed").expect("revealed");
    assert_eq!((e["audience"].as_str(), e["at"].as_str(), e["in_group"].as_bool()), (Some("all"), Some("ayabe"), Some(true)));
    // Shown, then chosen: the choice is public and names it.
    other.act(Action::Command(other.b("T_fukushima_01")));
    let ev = other.act(Action::Select(other.b("T_fukushima_01")));
    let e = ev.iter().find(|e| e["kind"] == "leader_joins").expect("joins");
    assert_eq!((e["audience"].as_str(), e["block"].as_str(), e["at"].as_str()), (Some("all"), Some("T_fukushima_01"), Some("ayabe")));
    // A face-down block's choice stays the mover's; a shown leader left behind is named.
    let ev = other.act(Action::Select(other.b("T_fukushima_03")));
    assert!(ev.iter().all(|e| e["audience"] != "all"), "{ev:?}");
    other.act(Action::Step(other.r("ayabe", "miyazu")));
    let ev = other.act(Action::Drop(other.b("T_fukushima_01")));
    let e = ev.iter().find(|e| e["kind"] == "block_dropped").expect("dropped");
    assert_eq!((e["block"].as_str(), e["at"].as_str()), (Some("T_fukushima_01"), Some("miyazu")));
}

#[test]
fn r7_3_3_a_forced_march_is_paid_only_for_a_group_that_then_moves() {
    // INTERPRETATION (RULES_NOTES.md S8): a forced march is for "a group that starts and ends
    // its move together" (7.3.3): once paid, the group must take a step before it stops.
    let mut t = Tb::blank();
    t.mori_box_filled();
    t.put(&["I_ukita_02", "I_ukita_03"], "himeji");
    t.hand(I, &["I_ukita_1", "I_ukita_1"]);
    t.movement(I);
    t.act(Action::Mode(Mode::Minimal));
    t.act(Action::Origin(t.l("himeji")));
    t.sel(&["I_ukita_02"]);
    t.act(Action::ForcedMarch(t.c("I_ukita_1")));
    assert_eq!(t.in_mori_box(), 4, "the card counts for the Mori box (9.3)");
    assert!(!t.ok(Action::EndStack), "no stack end before the march");
    assert!(!t.ok(Action::Select(t.b("I_ukita_03"))), "the group set out");
    assert_eq!(t.steps(), vec![pair("ayabe", "himeji"), pair("himeji", "osaka")]);
    t.act(Action::Step(t.r("himeji", "ayabe")));
    t.act(Action::Step(t.r("ayabe", "kyoto")));
    assert!(t.steps().is_empty(), "1 + forced march");
    t.act(Action::Stop);
    // A group that has moved may still march on; it must then take the step it paid for.
    t.sel(&["I_ukita_03"]);
    t.act(Action::Step(t.r("himeji", "osaka")));
    assert!(t.steps().is_empty() && t.ok(Action::Stop));
    t.act(Action::ForcedMarch(t.c("I_ukita_1")));
    assert!(!t.ok(Action::Stop));
    assert_eq!(t.steps(), vec![pair("kyoto", "osaka"), pair("osaka", "wakayama")]);
    t.act(Action::Step(t.r("osaka", "wakayama")));
    assert!(t.ok(Action::Stop));

    // 17 blocks cannot move even with a forced march: none is offered (7.3.5).
    let mut big = Tb::blank();
    let ids: Vec<String> = big.g.data().blocks.iter().filter(|b| b.side == T).take(17).map(|b| b.id.clone()).collect();
    let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
    big.put(&ids, "edo");
    big.moving_all(T);
    big.act(Action::Origin(big.l("edo")));
    big.sel(&ids);
    assert!(!big.legal().iter().any(|a| matches!(a, Action::ForcedMarch(_))));
    assert!(big.ok(Action::EndStack));
}

// === 7.4 overrun ===

#[test]
fn r7_4_overrun_four_to_one_during_a_move_and_the_move_goes_on() {
    let mut t = Tb::blank();
    let four = ["T_date_04", "T_date_05", "T_date_06", "T_date_07"];
    t.put(&four, "kiyosu");
    t.put(&["I_ukita_06"], "kuwana");
    let mut three = t.clone();
    t.moving_all(T);
    t.act(Action::Origin(t.l("kiyosu")));
    t.sel(&four);
    let ev = t.act(Action::Step(t.r("kiyosu", "kuwana")));
    assert!(has_kind(&ev, "overrun"), "{:?}", kinds(&ev));
    assert_eq!(t.at("I_ukita_06"), DEAD);
    assert!(!has_kind(&ev, "contact"));
    assert_eq!(t.s.resource[t.l("kuwana") as usize], T);
    // Moving on after the overrun: 1 + highway.
    assert!(t.ok(Action::Step(t.r("kuwana", "minakuchi"))));
    assert_eq!(t.s.due.cards, [0, 0], "one card per two blocks lost");

    // Three to one: contact, the group stops.
    three.put(&["T_date_07"], "edo");
    three.moving_all(T);
    three.act(Action::Origin(three.l("kiyosu")));
    three.sel(&four[..3]);
    let ev = three.act(Action::Step(three.r("kiyosu", "kuwana")));
    assert!(has_kind(&ev, "contact") && !has_kind(&ev, "overrun"));
    assert_eq!(three.at("I_ukita_06"), three.l("kuwana"));
    assert!(three.steps().is_empty() && !three.ok(Action::Stop), "the group has stopped");
}

#[test]
fn r7_4_2_blocks_already_there_join_the_overrun() {
    // The rulebook example: a stack of two moves into contact with one block; then another
    // stack of two arrives: four to one, overrun. The second stack may go on, the first may not
    // move again.
    let mut t = Tb::blank();
    t.put(&["T_date_04", "T_date_05"], "anotsu");
    t.put(&["I_ukita_06"], "kuwana");
    t.put(&["T_date_06", "T_date_07"], "kiyosu");
    t.moving_all(T);
    t.act(Action::Origin(t.l("anotsu")));
    t.sel(&["T_date_04", "T_date_05"]);
    let ev = t.act(Action::Step(t.r("anotsu", "kuwana")));
    assert!(has_kind(&ev, "contact") && !has_kind(&ev, "overrun"));
    t.act(Action::Origin(t.l("kiyosu")));
    t.sel(&["T_date_06", "T_date_07"]);
    let ev = t.act(Action::Step(t.r("kiyosu", "kuwana")));
    assert!(has_kind(&ev, "overrun"));
    assert_eq!(t.at("I_ukita_06"), DEAD);
    assert!(t.ok(Action::Step(t.r("kuwana", "minakuchi"))), "the moving stack goes on");
    t.act(Action::Step(t.r("kuwana", "minakuchi")));
    t.act(Action::Stop);
    assert!(!origins(&t).contains(&"kuwana".to_string()), "the first stack has moved");

    // Two overrun blocks: their side draws one card (8.10).
    let mut t = Tb::blank();
    t.put(&["T_date_04", "T_date_05", "T_date_06", "T_date_07"], "kuwana");
    t.put(&["I_ukita_06", "I_ukita_07"], "kuwana");
    t.put(&["T_date_08", "T_date_09", "T_date_10", "T_maeda_05"], "kiyosu");
    t.moving_all(T);
    t.act(Action::Origin(t.l("kiyosu")));
    t.sel(&["T_date_08", "T_date_09", "T_date_10", "T_maeda_05"]);
    let ev = t.act(Action::Step(t.r("kiyosu", "kuwana")));
    assert!(has_kind(&ev, "overrun"));
    assert_eq!(t.s.due.cards, [0, 1]);
}

#[test]
fn r7_4_3_castle_holders_cannot_be_overrun_but_the_garrison_helps() {
    // One Ishida block holding Gifu castle against four.
    let mut t = Tb::blank();
    let four = ["T_date_04", "T_date_05", "T_date_06", "T_date_07"];
    t.put(&four, "iwamura");
    t.put(&["I_ukita_06"], "gifu");
    t.moving_all(T);
    t.act(Action::Origin(t.l("iwamura")));
    t.sel(&four);
    let ev = t.act(Action::Step(t.r("iwamura", "gifu")));
    assert!(!has_kind(&ev, "overrun") && has_kind(&ev, "contact"), "{:?}", kinds(&ev));
    assert_eq!(t.at("I_ukita_06"), t.l("gifu"));
    assert_eq!(t.s.castle[t.l("gifu") as usize], I);

    // Two Tokugawa blocks besieged in Okazaki; two more arrive: with the garrison, four to one
    // against the besieger.
    let mut t = Tb::blank();
    t.put(&["T_date_04", "T_date_05"], "okazaki");
    t.flag(&["T_date_04", "T_date_05"], IN_CASTLE);
    t.put(&["I_ukita_06"], "okazaki");
    t.put(&["T_date_06", "T_date_07"], "kiyosu");
    t.moving_all(T);
    assert!(!origins(&t).contains(&"okazaki".to_string()), "besieged blocks cannot leave (8.9.6)");
    t.act(Action::Origin(t.l("kiyosu")));
    t.sel(&["T_date_06", "T_date_07"]);
    let ev = t.act(Action::Step(t.r("kiyosu", "okazaki")));
    assert!(has_kind(&ev, "overrun"), "{:?}", kinds(&ev));
    assert_eq!(t.at("I_ukita_06"), DEAD);
    // 8.9.2: the besieger gone, the garrison is no longer inside the castle (and may move).
    assert_eq!(t.flags("T_date_04") & IN_CASTLE, 0);
    assert_eq!(t.flags("T_date_05") & IN_CASTLE, 0);
}

// === 8.2-8.5 field battles ===

#[test]
fn r4_2_r4_3_resources_stay_with_the_last_side_through_castles_revert_when_empty() {
    let mut t = Tb::blank();
    t.put(&["T_date_04"], "iwamura");
    t.moving_all(T);
    t.act(Action::Origin(t.l("iwamura")));
    t.sel(&["T_date_04"]);
    // Through Kiso (a resource) to Suwa: Kiso is Tokugawa's though nobody stays there.
    t.act(Action::Step(t.r("iwamura", "kiso")));
    t.act(Action::Step(t.r("kiso", "suwa")));
    t.act(Action::Stop);
    assert_eq!(t.s.resource[t.l("kiso") as usize], T);
    assert_eq!(t.count_at(T, "kiso"), 0);
    // An empty Ishida castle: taken by the side whose blocks are there, back to Ishida when left.
    let mut t = Tb::blank();
    t.put(&["T_date_04"], "iwamura");
    t.moving_all(T);
    t.act(Action::Origin(t.l("iwamura")));
    t.sel(&["T_date_04"]);
    t.act(Action::Step(t.r("iwamura", "gifu")));
    t.act(Action::Stop);
    assert_eq!(t.s.castle[t.l("gifu") as usize], T);
    t.moving_all(T);
    t.act(Action::Origin(t.l("gifu")));
    t.sel(&["T_date_04"]);
    t.act(Action::Step(t.r("gifu", "sawayama")));
    assert_eq!(t.s.castle[t.l("gifu") as usize], I, "no block there: back to its own side");
}
