//! 4.0 the sequence of play and the 16 action cards (one test per card text).

use super::common::*;
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::{Game, CHANCE};

fn track(g: &Daisakusen, name: &str) -> usize {
    g.data().morale_tracks.iter().position(|t| t.name == name).unwrap()
}

#[test]
fn r4_1_draw_is_a_uniform_chance_node_over_the_deck() {
    let g = game();
    let s = after_setup(&g, 1);
    assert_eq!(g.current_player(&s), CHANCE);
    let mut out = Vec::new();
    g.chance_outcomes(&s, &mut out);
    assert_eq!(out.len(), 14);
    assert!(out.iter().all(|&(_, p)| (p - 1.0 / 14.0).abs() < 1e-12));
    assert!(!out.iter().any(|&(a, _)| a == g.encode(Action::Draw(card(&g, "C04"))) || a == g.encode(Action::Draw(card(&g, "C12")))));
}

#[test]
fn r4_1_2_a_carried_out_card_is_discarded() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C10");
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.pending, Pending::Draw);
    assert_ne!(s.discard & 1 << card(&g, "C10"), 0);
    assert_eq!(s.deck & 1 << card(&g, "C10"), 0);
}

#[test]
fn c01_ieyasu_acts_and_the_deck_is_reshuffled() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C10");
    act(&g, &mut s, Action::Pass);
    let before = s.turn;
    draw(&g, &mut s, "C01");
    let ieyasu = unit(&g, "徳川家康");
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Pass), g.encode(Action::Commander(ieyasu))]);
    act(&g, &mut s, Action::Commander(ieyasu));
    // On the entry track he can only march (R 5.1(1)④) or hold.
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Act(ACT_MARCH)), g.encode(Action::Act(ACT_HOLD))]);
    act(&g, &mut s, Action::Act(ACT_MARCH));
    assert_eq!(s.entry[0], 1);
    // R 4.1(4): the discards, the undrawn cards and this card form the new deck.
    assert_eq!(s.pending, Pending::Draw);
    assert_eq!(s.discard, 0);
    assert_eq!(s.deck.count_ones(), 14);
    assert_eq!(s.turn, before + 1);
}

#[test]
fn c02_ieyasu_letter_moves_one_west_marker_toward_the_east() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C02");
    assert_eq!(s.pending, Pending::Marker);
    let t = track(&g, "毛利元康");
    // The 調略 marker and 前田's marker are not choices.
    assert_eq!(legal(&g, &s).len(), 3);
    assert!(!is_legal(&g, &s, Action::Marker(track(&g, "前田利長") as u8)));
    let start = s.morale[t];
    act(&g, &mut s, Action::Marker(t as u8));
    assert_eq!(s.morale[t], start - 1);
    assert_eq!(s.pending, Pending::Draw);
}

#[test]
fn c03_hidetada_acts() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C03");
    let h = unit(&g, "徳川秀忠");
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Pass), g.encode(Action::Commander(h))]);
    act(&g, &mut s, Action::Commander(h));
    act(&g, &mut s, Action::Act(ACT_MARCH));
    assert_eq!(s.entry[1], 1);
}

#[test]
fn c04_ieyasu_takes_the_field_enters_the_deck_when_he_arrives_and_gives_a_chouryaku_and_any_commander() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let c04 = card(&g, "C04");
    let ieyasu = unit(&g, "徳川家康");
    assert_eq!(s.deck & 1 << c04, 0);
    for k in 0..7 {
        draw(&g, &mut s, "C01");
        act(&g, &mut s, Action::Commander(ieyasu));
        act(&g, &mut s, Action::Act(ACT_MARCH));
        assert_eq!(s.deck & 1 << c04 != 0, k == 6, "after march {}", k + 1);
    }
    // R 9.0(3)①: 家康's group stands on the 東海道 entry hex.
    let tokaido = hex(&g, "2219");
    assert!(g.data().entry[0].group.iter().all(|&u| s.units[u as usize].loc == tokaido));
    // The card: a 調略 / 恫喝判定 against any hex with West units, then one East commander.
    draw(&g, &mut s, "C04");
    assert_eq!(s.pending, Pending::Plot);
    let l = legal(&g, &s);
    assert!(l.contains(&g.encode(Action::Intimidate(hex(&g, "1615")))));
    // The marker is at 0, on nobody's side: no 調略判定 (R 12.1).
    assert!(!l.contains(&g.encode(Action::Chouryaku(hex(&g, "1615")))));
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.pending, Pending::Commander);
    for u in [unit(&g, "福島正則"), unit(&g, "浅野幸長"), ieyasu, unit(&g, "徳川秀忠"), unit(&g, "前田利長")] {
        assert!(is_legal(&g, &s, Action::Commander(u)), "{u}");
    }
    act(&g, &mut s, Action::Commander(unit(&g, "浅野幸長")));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    // One commander only.
    assert_eq!(s.pending, Pending::Draw);
}

#[test]
fn c05_c06_c07_tozama_cards_pick_by_morale() {
    let g = game();
    let fukushima = unit(&g, "福島正則");
    let kuroda = unit(&g, "黒田長政");
    let ikeda = unit(&g, "池田輝政");
    let hosokawa = unit(&g, "細川忠興");
    let asano = unit(&g, "浅野幸長");
    let maeda = unit(&g, "前田利長");
    let commanders = |g: &Daisakusen, s: &State| -> Vec<u8> {
        legal(g, s)
            .into_iter()
            .filter_map(|a| match g.decode(a) {
                Some(Action::Commander(u)) => Some(u),
                _ => None,
            })
            .collect()
    };
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C05");
    assert_eq!(commanders(&g, &s), vec![fukushima, kuroda]);
    act(&g, &mut s, Action::Commander(fukushima));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    // Two commanders, one after the other (R 5.1(2)).
    assert_eq!(commanders(&g, &s), vec![kuroda]);
    act(&g, &mut s, Action::Commander(kuroda));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    assert_eq!(s.pending, Pending::Draw);

    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C06");
    assert_eq!(commanders(&g, &s), vec![ikeda, hosokawa]);
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C07");
    assert_eq!(commanders(&g, &s), vec![fukushima, kuroda, asano]);
    act(&g, &mut s, Action::Commander(asano));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    assert_eq!(s.pending, Pending::Draw);
    // 前田 joins when his track shows the card's 戦意 (R 5.2(1)②).
    let mut s = after_setup(&g, 1);
    let t = track(&g, "前田利長");
    s.morale[t] = 0; // the East end: 戦意 3
    draw(&g, &mut s, "C05");
    assert!(commanders(&g, &s).contains(&maeda));
}

#[test]
fn c08_forced_march_draws_again_and_is_redrawn_at_the_start() {
    let g = game();
    let c08 = card(&g, "C08");
    let mut s = after_setup(&g, 1);
    assert!(s.first_draw);
    act(&g, &mut s, Action::Draw(c08));
    // At the start of the game: back into the deck, draw again.
    assert_eq!(s.pending, Pending::Draw);
    assert_ne!(s.deck & 1 << c08, 0);
    assert_eq!(s.deck.count_ones(), 14);
    // Later: discarded, and the next card is drawn at once.
    draw(&g, &mut s, "C08");
    assert_eq!(s.pending, Pending::Draw);
    assert_ne!(s.discard & 1 << c08, 0);
    assert_eq!(s.card, NONE);
}

#[test]
fn c09_ishida_acts_then_moves_a_west_marker_toward_the_west() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C09");
    let ishida = unit(&g, "石田三成");
    act(&g, &mut s, Action::Commander(ishida));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    assert_eq!(s.pending, Pending::Marker);
    let t = track(&g, "毛利輝元");
    act(&g, &mut s, Action::Marker(t as u8));
    assert_eq!(g.track_value(&s, t as u8), 1);
    assert_eq!(s.pending, Pending::Draw);
}

#[test]
fn c10_ukita_acts() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C10");
    let u = unit(&g, "宇喜多秀家");
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Pass), g.encode(Action::Commander(u))]);
}

#[test]
fn c11_otani_acts_and_in_echizen_moves_maeda_toward_the_west() {
    let g = game();
    let t = track(&g, "前田利長");
    let otani = unit(&g, "大谷吉継");
    let mut s = after_setup(&g, 1);
    let start = s.morale[t];
    draw(&g, &mut s, "C11");
    act(&g, &mut s, Action::Commander(otani));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    // 敦賀 (1112) lies in 越前.
    assert_eq!(s.morale[t], start + 1);
    let mut s = after_setup(&g, 1);
    put(&g, &mut s, otani, hex(&g, "1515"));
    draw(&g, &mut s, "C11");
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.morale[t], start);
}

#[test]
fn c12_hideyori_sortie_enters_when_he_leaves_osaka() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let c12 = card(&g, "C12");
    let terumoto = unit(&g, "毛利輝元");
    let hideyori = unit(&g, "豊臣秀頼");
    // 毛利輝元's card raises his 戦意 to 1, but the 調略 marker is not on the West side.
    draw(&g, &mut s, "C14");
    act(&g, &mut s, Action::Commander(terumoto));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    assert!(!is_legal(&g, &s, Action::Select(hideyori)), "R 13.0(1)");
    let mut s = after_setup(&g, 1);
    s.chouryaku += 1;
    draw(&g, &mut s, "C14");
    act(&g, &mut s, Action::Commander(terumoto));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    act(&g, &mut s, Action::Select(hideyori));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.deck & 1 << c12, 0);
    act(&g, &mut s, Action::Step(1)); // NE along the road
    assert_ne!(s.deck & 1 << c12, 0, "R 4.2②, 13.0(2)");
    // The card: a West 調略 / 恫喝 on any hex with East units, then one West commander with 戦意 ≥ 1.
    draw(&g, &mut s, "C12");
    assert_eq!(s.pending, Pending::Plot);
    assert!(is_legal(&g, &s, Action::Chouryaku(hex(&g, "1916"))), "the marker is on the West side");
    act(&g, &mut s, Action::Pass);
    assert!(is_legal(&g, &s, Action::Commander(unit(&g, "石田三成"))));
    assert!(is_legal(&g, &s, Action::Commander(terumoto)));
    assert!(!is_legal(&g, &s, Action::Commander(unit(&g, "吉川広家"))), "西軍諸将 at 戦意 0");
}

#[test]
fn c13_mitsunari_order_any_west_commander_with_morale_then_a_marker() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C13");
    assert!(is_legal(&g, &s, Action::Commander(unit(&g, "宇喜多秀家"))));
    assert!(!is_legal(&g, &s, Action::Commander(unit(&g, "毛利輝元"))), "戦意 0");
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.pending, Pending::Marker);
    let t = track(&g, "西軍諸将");
    act(&g, &mut s, Action::Marker(t as u8));
    assert_eq!(g.track_value(&s, t as u8), 1);
}

#[test]
fn c14_c15_mori_cards_raise_their_marker_first() {
    let g = game();
    for (id, name) in [("C14", "毛利輝元"), ("C15", "毛利元康")] {
        let mut s = after_setup(&g, 1);
        let t = track(&g, name);
        draw(&g, &mut s, id);
        assert_eq!(g.track_value(&s, t as u8), 1);
        assert!(is_legal(&g, &s, Action::Commander(unit(&g, name))));
        // At the East end the marker shows 0 even after one box: no activation.
        let mut s = after_setup(&g, 1);
        s.morale[t] = 0;
        draw(&g, &mut s, id);
        assert_eq!(s.pending, Pending::Draw, "{id}");
    }
}

#[test]
fn c16_west_generals_raise_their_marker_and_one_of_them_acts() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C16");
    for name in ["吉川広家", "小早川秀秋", "小野木公郷", "鍋島勝茂"] {
        assert!(is_legal(&g, &s, Action::Commander(unit(&g, name))), "{name}");
    }
    for name in ["石田三成", "宇喜多秀家", "毛利輝元"] {
        assert!(!is_legal(&g, &s, Action::Commander(unit(&g, name))), "{name}");
    }
    act(&g, &mut s, Action::Commander(unit(&g, "吉川広家")));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    assert_eq!(s.pending, Pending::Draw);
}

#[test]
fn max_turns_ends_a_stalemate_as_a_draw() {
    let g = game_with(serde_json::json!({"max_turns": 1}));
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C01");
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.pending, Pending::Over);
    assert_eq!(g.returns(&s), vec![0.0, 0.0]);
}
