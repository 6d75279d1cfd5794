//! The rulebook's worked examples: movement (7, A-E) and combat (8).

use super::*;

#[test]
fn r7_movement_example_a_to_e() {
    let mut t = Tb::blank();
    // A: five blocks in Osaka castle (friendly, controlled: command).
    let a = ["I_kobayakawa_01", "I_kobayakawa_02", "I_kobayakawa_03", "I_kobayakawa_04", "I_kobayakawa_05"];
    t.put(&a, "osaka");
    // B: two blocks in Gifu castle (command); C: one block, no leader; D: a leader and one
    // block; E: two blocks in Ueda castle (command).
    let b = ["I_ukita_06", "I_ukita_07"];
    t.put(&b, "gifu");
    t.put(&["I_mori_07"], "tsuruga");
    let d = ["I_ukita_01", "I_ukita_02"];
    t.put(&d, "wakayama");
    let e = ["I_uesugi_04", "I_uesugi_05"];
    t.put(&e, "ueda");
    t.put_at(&["I_mori_08"], BOX);
    // "All" mode: two cards, every stack and one muster, done first.
    t.moving_all(I);
    t.act(Action::MusterB(t.l("himeji")));
    t.sel(&["I_mori_08"]);
    t.act(Action::Done);
    assert_eq!(t.at("I_mori_08"), t.l("himeji"));
    assert!(!t.legal().iter().any(|a| matches!(a, Action::MusterA(_) | Action::MusterB(_))), "one muster per phase");
    let before_a = t.clone();

    // A: 1 + main road 1 + command 1 - 1 (5-8 blocks) = 2: Osaka - Kyoto - Minakuchi.
    t.act(Action::Origin(t.l("osaka")));
    let mut four = t.clone();
    let mut dropping = t.clone();
    t.sel(&a);
    t.act(Action::Step(t.r("osaka", "kyoto")));
    t.act(Action::Step(t.r("kyoto", "minakuchi")));
    assert!(!t.ok(Action::Step(t.r("minakuchi", "kuwana"))), "five blocks move two");
    assert!(t.steps().is_empty());
    t.act(Action::Stop);
    assert!(a.iter().all(|x| t.at(x) == t.l("minakuchi") && t.flags(x) & MOVED != 0));
    assert_eq!(t.s.pending, Pending::Menu, "the stack at Osaka is finished");
    // ... had one block stayed behind, the four would have reached Kuwana.
    four.sel(&a[..4]);
    four.act(Action::Step(four.r("osaka", "kyoto")));
    four.act(Action::Step(four.r("kyoto", "minakuchi")));
    four.act(Action::Step(four.r("minakuchi", "kuwana")));
    assert_eq!(four.at(a[0]), four.l("kuwana"));
    assert_eq!(four.at(a[4]), four.l("osaka"));
    // 7.3.5: dropping a block on the way does not lift the penalty of the group that set out.
    dropping.sel(&a);
    dropping.act(Action::Step(dropping.r("osaka", "kyoto")));
    dropping.act(Action::Drop(dropping.b(a[4])));
    dropping.act(Action::Step(dropping.r("kyoto", "minakuchi")));
    assert!(!dropping.ok(Action::Step(dropping.r("minakuchi", "kuwana"))));
    assert_eq!(dropping.at(a[4]), dropping.l("kyoto"));

    // B: Gifu - Sawayama - Kyoto on the highway, with command it could go on to Minakuchi, but A
    // used that road this phase (and the Osaka road); Ayabe is off the highway.
    let mut b_alone = before_a.clone();
    t.act(Action::Origin(t.l("gifu")));
    t.sel(&b);
    t.act(Action::Step(t.r("gifu", "sawayama")));
    t.act(Action::Step(t.r("sawayama", "kyoto")));
    assert!(t.steps().is_empty(), "{:?}", t.steps());
    assert!(t.ok(Action::Stop));
    t.act(Action::Stop);
    assert_eq!(t.at(b[0]), t.l("kyoto"));
    b_alone.act(Action::Origin(b_alone.l("gifu")));
    b_alone.sel(&b);
    b_alone.act(Action::Step(b_alone.r("gifu", "sawayama")));
    b_alone.act(Action::Step(b_alone.r("sawayama", "kyoto")));
    assert_eq!(b_alone.steps(), vec![pair("kyoto", "minakuchi"), pair("kyoto", "osaka")]);

    // C: one block, no leader, no command, plain road: one location.
    t.act(Action::Origin(t.l("tsuruga")));
    t.sel(&["I_mori_07"]);
    assert!(!t.legal().iter().any(|a| matches!(a, Action::Command(_))), "no leader to reveal");
    t.act(Action::Step(t.r("tsuruga", "kitanosho")));
    assert!(t.steps().is_empty());
    t.act(Action::Stop);

    // D: the base move and the leader's command: two locations; the leader is shown.
    t.act(Action::Origin(t.l("wakayama")));
    t.sel(&d);
    let mut no_command = t.clone();
    let ev = t.act(Action::Command(t.b("I_ukita_01")));
    assert!(
        ev.iter().any(|e| e["kind"] == "leader_revealed" && e["block"] == "I_ukita_01" && e["at"] == "wakayama" && e["audience"] == "all"),
        "{ev:?}"
    );
    let seen: Vec<Value> = t.view(T as Player)["blocks"].as_array().unwrap().clone();
    assert!(seen.iter().any(|x| x["id"] == "I_ukita_01"), "Tokugawa sees the revealed leader");
    assert!(!seen.iter().any(|x| x["id"] == "I_ukita_02"), "but not the rest of the stack");
    assert!(!t.legal().iter().any(|a| matches!(a, Action::Command(_))), "command counts once");
    t.act(Action::Step(t.r("wakayama", "tanabe")));
    t.act(Action::Step(t.r("tanabe", "kumano")));
    assert!(t.steps().is_empty());
    t.act(Action::Stop);
    assert_eq!(t.at("I_ukita_01"), t.l("kumano"));
    no_command.act(Action::Step(no_command.r("wakayama", "tanabe")));
    assert!(no_command.steps().is_empty(), "without the leader's command: one location");

    // E: command from Ueda castle, but not all on the highway: two locations.
    t.act(Action::Origin(t.l("ueda")));
    t.sel(&e);
    assert!(!t.legal().iter().any(|a| matches!(a, Action::Command(_))));
    t.act(Action::Step(t.r("ueda", "saku")));
    t.act(Action::Step(t.r("saku", "suwa")));
    assert!(t.steps().is_empty(), "{:?}", t.steps());
    t.act(Action::Stop);
    assert_eq!(t.at(e[0]), t.l("suwa"));
    // Every stack has moved; only the end of the phase is left.
    assert_eq!(t.legal(), vec![Action::EndPhase]);
}

// === 8 combat: the worked example ("戦闘の例") ===

#[test]
fn r8_combat_example_seven_ishida_blocks_attack_six_tokugawa() {
    let mut t = Tb::blank();
    let ishida = ["I_mori_02", "I_ukita_02", "I_ukita_03", "I_uesugi_03", "I_mori_12", "I_kobayakawa_02", "I_kobayakawa_03"];
    let toku = ["T_maeda_10", "T_tokugawa_02", "T_tokugawa_04", "T_tokugawa_03", "T_date_02", "T_date_03"];
    t.put(&toku, "minakuchi");
    t.put(&ishida, "minakuchi");
    t.came(&ishida, "kyoto");
    t.hand(T, &["T_maeda_4", "T_tokugawa_2", "T_tokugawa_2", "T_tokugawa_2"]);
    t.hand(I, &["I_ukita_5", "I_uesugi_1", "I_mori_3", "I_ukita_1", "I_uesugi_1"]);
    t.combat(I);
    assert_eq!(t.legal(), vec![Action::Battle(t.l("minakuchi"))]);
    t.act(Action::Battle(t.l("minakuchi")));
    assert_eq!((t.battle().attacker, t.battle().siege, t.initiative()), (I, false, I), "the attacker deploys first");
    assert_eq!(t.cp(), I as Player);

    // Mori leader without a card (8.2.4): 1. Ishida leads, the initiative passes.
    t.act(Action::Leader(t.b("I_mori_02")));
    assert_eq!(t.s.pending, Pending::Deploy, "no Loyalty Challenge against a free leader");
    assert_eq!((t.impact(), t.initiative()), ([0, 1], T));
    // Maeda cavalry with a Maeda sword card: 1 + 2.
    t.act(Action::Card(t.c("T_maeda_4")));
    t.act(Action::Select(t.b("T_maeda_10")));
    assert_eq!(t.last_deploy(), (1, 2, T));
    assert_eq!((t.s.pending, t.cp()), (Pending::Challenge, I as Player));
    assert_eq!(t.legal(), vec![Action::NoChallenge], "no Loyalty Challenge card in hand");
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([3, 1], I));
    // Ukita double card: two Ukita blocks, 2 and 2 + 1.
    assert!(!t.ok(Action::Leader(t.b("I_mori_02"))));
    t.act(Action::Card(t.c("I_ukita_5")));
    t.act(Action::Select(t.b("I_ukita_02")));
    assert!(matches!(t.s.pending, Pending::DeploySecond { .. }));
    t.act(Action::Select(t.b("I_ukita_03")));
    assert_eq!(t.last_deploy(), (3, 0, I));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([3, 6], T));
    // 3-mon Tokugawa with a Tokugawa card: 6-6, the defender leads on a tie.
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_02")));
    assert_eq!(t.last_deploy(), (3, 0, T));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([6, 6], I));
    // Uesugi arquebus with a card without a sword: 1, no special attack.
    t.act(Action::Card(t.c("I_uesugi_1")));
    t.act(Action::Select(t.b("I_uesugi_03")));
    assert_eq!(t.last_deploy(), (1, 0, I));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([6, 7], T));
    // 1-mon Tokugawa: 1 + 1 for the Tokugawa block already deployed.
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_04")));
    assert_eq!(t.last_deploy(), (2, 0, T));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([8, 7], I));
    // Mori arquebus with a Mori sword card: 1 + 2 + 2 (an arquebus already deployed) + 1 (Mori).
    t.act(Action::Card(t.c("I_mori_3")));
    t.act(Action::Select(t.b("I_mori_12")));
    assert_eq!(t.last_deploy(), (2, 4, I));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([8, 13], T));
    // 3-mon Tokugawa: 3 + 2. 13-13, Tokugawa (defender) leads.
    t.act(Action::Card(t.c("T_tokugawa_2")));
    t.act(Action::Select(t.b("T_tokugawa_03")));
    assert_eq!(t.last_deploy(), (5, 0, T));
    t.act(Action::NoChallenge);
    assert_eq!((t.impact(), t.initiative()), ([13, 13], I));
    // Ishida has two blocks and two cards left, of other clans: it can only declare the end.
    assert_eq!(t.legal(), vec![Action::EndDeploy]);
    t.act(Action::EndDeploy);
    assert_eq!((t.initiative(), t.cp()), (T, T as Player));
    assert_eq!(t.legal(), vec![Action::EndDeploy]);
    let ev = t.act(Action::EndDeploy);
    let result = ev.iter().find(|e| e["kind"] == "battle_result").expect("battle result");
    assert_eq!(result["winner"], "tokugawa");
    assert_eq!(result["casualties"]["tokugawa"], 1);
    assert_eq!(result["casualties"]["ishida"], 2);

    // Casualties (8.7.2): the attacker first, from the deployed blocks.
    assert_eq!((t.s.pending, t.cp()), (Pending::Casualty { side: I }, I as Player));
    assert_eq!(t.selects(), sorted(&ishida[..5]));
    t.sel(&["I_ukita_02", "I_ukita_03"]);
    assert_eq!((t.s.pending, t.cp()), (Pending::Casualty { side: T }, T as Player));
    assert_eq!(t.selects(), sorted(&toku[..4]));
    let ev = t.act(Action::Select(t.b("T_tokugawa_04")));
    // Ishida retreats to where it came from (its only choice, 8.8.2).
    assert!(has_kind(&ev, "retreat"), "{:?}", kinds(&ev));
    for x in ["I_mori_02", "I_uesugi_03", "I_mori_12", "I_kobayakawa_02", "I_kobayakawa_03"] {
        assert_eq!(t.at(x), t.l("kyoto"), "{x}");
    }
    for x in ["I_ukita_02", "I_ukita_03", "T_tokugawa_04"] {
        assert_eq!(t.at(x), DEAD);
    }
    assert_eq!(t.count_at(T, "minakuchi"), 5);
    // 8.10: the cards played are replaced; Ishida draws one more for two blocks lost.
    assert_eq!(t.s.due.cards, [4, 4]);
    assert_eq!(t.cp(), CHANCE);
}

// === 5 setup ===
