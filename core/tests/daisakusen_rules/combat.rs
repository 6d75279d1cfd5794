//! 7.0 attack, 7.2 sieges, 7.3 advance, 11.0(2), 12.0 調略 and 恫喝, 14.0 victory, and the
//! calibration examples of the data notes.

use super::common::*;
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::Game;
use serde_json::Value;

const NW: u8 = 5;
const S: u8 = 3;
const SW: u8 = 4;
const SE: u8 = 2;

fn needs(ev: &[Value]) -> Vec<i64> {
    ev.iter().filter(|e| e["kind"] == "combat_die").map(|e| e["need"].as_i64().unwrap()).collect()
}

/// West 吉川広家 (火力 2, via C16) alone at `from`, East 福島正則 at `target`.
fn kikkawa_attacks(g: &Daisakusen, from: &str, target: &str, d: u8) -> State {
    let mut s = after_setup(g, 1);
    let k = unit(g, "吉川広家");
    let f = unit(g, "福島正則");
    clear_map(g, &mut s, &[k, f]);
    put(g, &mut s, k, hex(g, from));
    put(g, &mut s, f, hex(g, target));
    draw(g, &mut s, "C16");
    act(g, &mut s, Action::Commander(k));
    act(g, &mut s, Action::Act(ACT_ATTACK));
    act(g, &mut s, Action::Done);
    act(g, &mut s, Action::Target(d));
    s
}

#[test]
fn r7_1_3_hill_to_plain_is_plus_one() {
    let g = game();
    let mut s = kikkawa_attacks(&g, "1615", "1515", NW);
    let ev = act_ev(&g, &mut s, Action::Die(3));
    assert_eq!(needs(&ev), vec![3]);
    assert_eq!(s.pending, Pending::Allocate { side: EAST });
    act(&g, &mut s, Action::Hit(unit(&g, "福島正則")));
    assert!(s.units[unit(&g, "福島正則") as usize].flipped);
    assert_eq!(s.pending, Pending::Draw, "no advance: the hex still holds the defender");
}

#[test]
fn r7_1_3_plain_to_hill_and_across_a_river_are_minus_one() {
    let g = game();
    let mut s = kikkawa_attacks(&g, "1515", "1615", SE);
    let ev = act_ev(&g, &mut s, Action::Die(2));
    assert_eq!(needs(&ev), vec![1]);
    assert_eq!(s.pending, Pending::Draw, "a miss");
    // 1815 → 1816 across the river, plain to plain.
    let mut s = kikkawa_attacks(&g, "1815", "1816", S);
    let ev = act_ev(&g, &mut s, Action::Die(1));
    assert_eq!(needs(&ev), vec![1]);
}

#[test]
fn r7_1_3_3_no_attack_across_all_sea() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let k = unit(&g, "吉川広家");
    let f = unit(&g, "福島正則");
    clear_map(&g, &mut s, &[k, f]);
    put(&g, &mut s, k, hex(&g, "1019"));
    put(&g, &mut s, f, hex(&g, "0919"));
    draw(&g, &mut s, "C16");
    act(&g, &mut s, Action::Commander(k));
    assert!(!is_legal(&g, &s, Action::Act(ACT_ATTACK)), "大津|草津 is an all-sea hexside");
}

#[test]
fn r7_1_4_hits_flip_every_counter_before_removing_any() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let ukita = unit(&g, "宇喜多秀家");
    let w: Vec<u8> = ["W20", "W21", "W22", "W23"].iter().map(|n| unit(&g, n)).collect();
    let f = unit(&g, "福島正則");
    let e = unit(&g, "E22");
    let mut keep = vec![ukita, f, e];
    keep.extend(&w);
    clear_map(&g, &mut s, &keep);
    for &u in keep.iter().filter(|&&u| u != f && u != e) {
        put(&g, &mut s, u, hex(&g, "1615"));
    }
    put(&g, &mut s, f, hex(&g, "1515"));
    put(&g, &mut s, e, hex(&g, "1515"));
    draw(&g, &mut s, "C10");
    act(&g, &mut s, Action::Commander(ukita));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    for &u in &w {
        act(&g, &mut s, Action::Select(u));
    }
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Target(NW));
    // Five dice, one per unit (R 7.1(2)): hill → plain, 火力 3 + 1.
    for _ in 0..3 {
        act(&g, &mut s, Action::Die(1));
    }
    act(&g, &mut s, Action::Die(6));
    act(&g, &mut s, Action::Die(6));
    assert_eq!(s.fight.unwrap().hits, 3);
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Hit(f)), g.encode(Action::Hit(e))]);
    act(&g, &mut s, Action::Hit(f));
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Hit(e))], "flip first");
    act(&g, &mut s, Action::Hit(e));
    let start = s.chouryaku;
    act(&g, &mut s, Action::Hit(f));
    assert_eq!(s.units[f as usize].loc, DEAD);
    // An enemy commander removed: every marker one box toward the West (R 11.0(1)①).
    assert_eq!(s.chouryaku, start + 1);
}

#[test]
fn r7_2_siege_the_besieged_fire_first_and_the_attacker_at_minus_two() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let gar = unit(&g, "福原長堯");
    clear_map(&g, &mut s, &[f, gar, unit(&g, "黒田長政")]);
    put(&g, &mut s, f, hex(&g, "1815"));
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Target(SW)); // 大垣, across the river: ignored in a siege
    let fight = s.fight.unwrap();
    assert!(fight.siege && fight.stage == 0);
    // The garrison (火力 1) fires first with no modifier.
    let ev = act_ev(&g, &mut s, Action::Die(1));
    assert_eq!(needs(&ev), vec![1]);
    assert_eq!(s.pending, Pending::Allocate { side: EAST });
    act(&g, &mut s, Action::Hit(f));
    // 福島 flipped: 火力 2 − 2 = 0, raised to the minimum 1.
    let ev = act_ev(&g, &mut s, Action::Die(2));
    assert_eq!(needs(&ev), vec![1]);
    assert_eq!(s.pending, Pending::Commander, "a miss; 黒田 may still act");
}

#[test]
fn r7_3_advance_after_combat_takes_the_castle_under_the_movement_limits() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let gar = unit(&g, "福原長堯");
    clear_map(&g, &mut s, &[f, gar]);
    s.units[gar as usize].flipped = true;
    put(&g, &mut s, f, hex(&g, "1715"));
    let mut river = s.clone();
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Target(S));
    act(&g, &mut s, Action::Die(6)); // the garrison misses
    act(&g, &mut s, Action::Die(1)); // 福島 hits
    act(&g, &mut s, Action::Hit(gar));
    assert_eq!(s.units[gar as usize].loc, DEAD);
    assert_eq!(legal(&g, &s), vec![g.encode(Action::Advance), g.encode(Action::Stay)]);
    let start = s.chouryaku;
    act(&g, &mut s, Action::Advance);
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[f as usize].loc, hex(&g, "1716"));
    assert_eq!(s.chouryaku, start - 2, "大垣 is a double castle");
    assert!(!g.castle_alive(&s, hex(&g, "1716")));
    // From 1815 the river has no road: the advance is closed (R 7.3①).
    put(&g, &mut river, f, hex(&g, "1815"));
    draw(&g, &mut river, "C05");
    act(&g, &mut river, Action::Commander(f));
    act(&g, &mut river, Action::Act(ACT_ATTACK));
    act(&g, &mut river, Action::Done);
    act(&g, &mut river, Action::Target(SW));
    act(&g, &mut river, Action::Die(6));
    act(&g, &mut river, Action::Die(1));
    act(&g, &mut river, Action::Hit(gar));
    assert_eq!(legal(&g, &river), vec![g.encode(Action::Stay)]);
}

#[test]
fn r11_2_an_attacked_commander_moves_his_marker_toward_his_side() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let k = unit(&g, "吉川広家");
    clear_map(&g, &mut s, &[f, k]);
    put(&g, &mut s, f, hex(&g, "1515"));
    let t = g.data().morale_tracks.iter().position(|t| t.name == "西軍諸将").unwrap();
    let start = s.morale[t];
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Target(SE));
    assert_eq!(s.morale[t], start + 1);
}

#[test]
fn r14_1_ieyasu_removed_the_west_wins() {
    let g = game();
    let mut s = kikkawa_attacks(&g, "1615", "1515", NW);
    let ieyasu = unit(&g, "徳川家康");
    let f = unit(&g, "福島正則");
    s.units[f as usize].loc = DEAD;
    s.units[ieyasu as usize].loc = hex(&g, "1515");
    s.units[ieyasu as usize].flipped = true;
    g.rebuild(&mut s);
    act(&g, &mut s, Action::Die(1));
    act(&g, &mut s, Action::Hit(ieyasu));
    assert_eq!(s.pending, Pending::Over);
    assert_eq!(g.returns(&s), vec![-1.0, 1.0]);
}

#[test]
fn r14_2_ishida_removed_the_east_wins() {
    let g = game();
    let mut s = kikkawa_attacks(&g, "1615", "1515", NW);
    act(&g, &mut s, Action::Die(6));
    let ishida = unit(&g, "石田三成");
    let mut ev = kassen_core::Events::off();
    g.eliminate(&mut s, ishida, EAST, "test", &mut ev);
    assert_eq!(g.returns(&s), vec![1.0, -1.0]);
}

#[test]
fn r14_3_the_chouryaku_marker_on_a_victory_box_wins() {
    let g = game();
    let mut s = after_setup(&g, 1);
    s.chouryaku = 2;
    let f = unit(&g, "福島正則");
    clear_map(&g, &mut s, &[f]);
    put(&g, &mut s, f, hex(&g, "1916"));
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Step(0)); // 岐阜: 2 boxes toward the East
    assert_eq!(s.chouryaku, 0);
    assert_eq!(g.returns(&s), vec![1.0, -1.0]);
}

// === 12.0 調略 ===

fn west_plots(g: &Daisakusen, marker: i32) -> State {
    let mut s = after_setup(g, 1);
    s.chouryaku = (s.chouryaku as i32 + marker) as u8;
    draw(g, &mut s, "C12");
    s
}

#[test]
fn calibration_s8_a_west_chouryaku_roll_of_2_succeeds_against_fukushima_at_w2() {
    let g = game();
    let f = unit(&g, "福島正則");
    let h = s_loc(&g, f);
    let mut s = west_plots(&g, 2);
    act(&g, &mut s, Action::Chouryaku(h));
    let start = s.chouryaku;
    act(&g, &mut s, Action::Die(2));
    for u in [f, unit(&g, "E22"), unit(&g, "E23"), unit(&g, "E24")] {
        assert_eq!(s.units[u as usize].side, WEST);
        assert_eq!(s.units[u as usize].faction, data::Faction::WestShosho, "R 12.1(4)②");
    }
    assert_eq!(s.chouryaku, start + 1, "a commander turned (R 11.0(1)②)");
    // A turned East commander takes the 西軍諸将 track (R 5.2(2)③).
    let t = g.data().morale_tracks.iter().position(|t| t.name == "西軍諸将").unwrap() as u8;
    assert_eq!(g.morale_of(&s, f), g.track_value(&s, t));
    // A 3 fails and changes nothing (R 12.1(5)).
    let mut s = west_plots(&g, 2);
    act(&g, &mut s, Action::Chouryaku(h));
    let before = s.units.clone();
    act(&g, &mut s, Action::Die(3));
    assert_eq!(s.units, before);
}

fn s_loc(g: &Daisakusen, u: u8) -> u16 {
    after_setup(g, 1).units[u as usize].loc
}

#[test]
fn r12_1_3_ineligible_counters_beside_the_turned_ones_are_removed() {
    let g = game();
    let f = unit(&g, "福島正則");
    let h = s_loc(&g, f);
    let mut s = west_plots(&g, 3);
    let fudai = unit(&g, "E03");
    s.units[fudai as usize].loc = h;
    s.units[unit(&g, "E24") as usize].loc = hex(&g, "1918");
    g.rebuild(&mut s);
    act(&g, &mut s, Action::Chouryaku(h));
    act(&g, &mut s, Action::Die(1));
    assert_eq!(s.units[fudai as usize].loc, DEAD);
    // Only 徳川/譜代 counters: nothing to turn, no effect (R 12.1(2)).
    let mut s = west_plots(&g, 3);
    s.entry[0] = 7;
    for &u in &g.data().entry[0].group {
        s.units[u as usize].loc = hex(&g, "2219");
    }
    g.rebuild(&mut s);
    act(&g, &mut s, Action::Chouryaku(hex(&g, "2219")));
    let before = s.units.clone();
    act(&g, &mut s, Action::Die(1));
    assert_eq!(s.units, before);
}

#[test]
fn r12_1_the_chouryaku_judgement_needs_the_marker_on_ones_side() {
    let g = game();
    let s = west_plots(&g, -1);
    assert!(!legal(&g, &s).iter().any(|&a| matches!(g.decode(a), Some(Action::Chouryaku(_)))));
    assert!(legal(&g, &s).iter().any(|&a| matches!(g.decode(a), Some(Action::Intimidate(_)))));
}

/// East 恫喝 against 吉川's 南宮山 with 家康 at `ieyasu` (or on his track).
fn east_intimidates(g: &Daisakusen, ieyasu: Option<&str>) -> State {
    let mut s = after_setup(g, 1);
    let e = unit(g, "徳川家康");
    if let Some(at) = ieyasu {
        s.units[e as usize].loc = hex(g, at);
        g.rebuild(&mut s);
    }
    draw(g, &mut s, "C04");
    act(g, &mut s, Action::Intimidate(hex(g, "1615")));
    s
}

#[test]
fn calibration_s10_intimidation_of_kikkawa_next_to_ieyasu_is_four_in_six() {
    let g = game();
    let k = unit(&g, "吉川広家");
    let mut s = east_intimidates(&g, Some("1715"));
    act(&g, &mut s, Action::Die(4));
    assert_eq!(s.units[k as usize].side, EAST);
    assert_eq!(s.units[k as usize].faction, data::Faction::EastTozama, "R 12.1(4)①");
    assert_eq!(g.morale_of(&s, k), 1, "R 5.2(1)③");
    let mut s = east_intimidates(&g, Some("1715"));
    let (c, m) = (s.chouryaku, s.morale.clone());
    act(&g, &mut s, Action::Die(5));
    assert_eq!(s.units[k as usize].side, WEST);
    // R 12.2(3): the 調略 marker and every 戦意 marker move 2 toward the West.
    assert_eq!(s.chouryaku, c + 2);
    for (t, &before) in m.iter().enumerate() {
        assert_eq!(s.morale[t], (before + 2).min(6));
    }
}

#[test]
fn r12_2_1_thresholds_three_next_to_a_friend_two_otherwise() {
    let g = game();
    // 家康 still on his track; no East counter next to 南宮山: 2.
    let mut s = east_intimidates(&g, None);
    act(&g, &mut s, Action::Die(3));
    assert_eq!(s.units[unit(&g, "吉川広家") as usize].side, WEST);
    let mut s = east_intimidates(&g, None);
    act(&g, &mut s, Action::Die(2));
    assert_eq!(s.units[unit(&g, "吉川広家") as usize].side, EAST);
    // Another East counter next to it: 3.
    let mut s = after_setup(&g, 1);
    s.units[unit(&g, "E22") as usize].loc = hex(&g, "1715");
    g.rebuild(&mut s);
    draw(&g, &mut s, "C04");
    act(&g, &mut s, Action::Intimidate(hex(&g, "1615")));
    act(&g, &mut s, Action::Die(3));
    assert_eq!(s.units[unit(&g, "吉川広家") as usize].side, EAST);
}

#[test]
fn r10_5_a_castle_that_falls_by_defection_keeps_working() {
    let g = game();
    let mut s = after_setup(&g, 1);
    s.chouryaku -= 3;
    s.entry[0] = 7;
    for &u in &g.data().entry[0].group {
        s.units[u as usize].loc = hex(&g, "2219");
    }
    g.rebuild(&mut s);
    draw(&g, &mut s, "C04");
    let gifu = hex(&g, "1915");
    act(&g, &mut s, Action::Chouryaku(gifu));
    let start = s.chouryaku;
    act(&g, &mut s, Action::Die(1));
    assert!(g.castle_alive(&s, gifu));
    let c = g.data().hexes[gifu as usize].castle;
    assert_eq!(g.castle_owner(&s, c), EAST);
    assert_eq!(s.chouryaku, start - 2, "岐阜 counts double");
}

#[test]
fn r7_1_3_2_no_hill_modifier_out_of_a_working_castle() {
    let g = game();
    // 大津 0919 is a castle on hill ground; 京 0819 (plain) lies SW across a road hexside.
    let mut s = kikkawa_attacks_from_castle(&g);
    let ev = act_ev(&g, &mut s, Action::Die(2));
    assert_eq!(needs(&ev), vec![2], "火力 2, no +1");
}

fn kikkawa_attacks_from_castle(g: &Daisakusen) -> State {
    let mut s = after_setup(g, 1);
    let k = unit(g, "吉川広家");
    let f = unit(g, "福島正則");
    clear_map(g, &mut s, &[k, f]);
    put(g, &mut s, k, hex(g, "0919"));
    put(g, &mut s, f, hex(g, "0819"));
    draw(g, &mut s, "C16");
    act(g, &mut s, Action::Commander(k));
    act(g, &mut s, Action::Act(ACT_ATTACK));
    act(g, &mut s, Action::Done);
    act(g, &mut s, Action::Target(SW));
    s
}

/// Data notes §2 (S8): "E+1 followed by the fall of 大津, worth 2 boxes, gave W+1".
#[test]
fn calibration_s8_the_fall_of_otsu_turns_e1_into_w1() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let m = unit(&g, "毛利元康");
    clear_map(&g, &mut s, &[m]);
    put(&g, &mut s, m, hex(&g, "0920"));
    s.chouryaku -= 1;
    assert_eq!(g.data().chouryaku_labels[s.chouryaku as usize], "E1");
    draw(&g, &mut s, "C15");
    act(&g, &mut s, Action::Commander(m));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Step(0)); // N: 大津, empty East castle
    assert_eq!(g.data().chouryaku_labels[s.chouryaku as usize], "W1");
}

/// 池田輝政 (統率力 3) at 1917 (the suggested set-up) attacks with 浅野幸長 and one 池田 足軽
/// (R 7.1(1)); a flipped West 武将 next door is removed by the first hit.
fn ikeda_wins_with_asano(g: &Daisakusen) -> (State, u16) {
    let mut s = after_setup(g, 1);
    let from = hex(g, "1917");
    let hx = &g.data().hexes[from as usize];
    let d = (0..6)
        .find(|&d| {
            let n = hx.nb[d];
            n != data::NO_HEX
                && g.data().hexes[n as usize].passable()
                && hx.sides[d] & (data::RIVER | data::SEA_SIDE) == 0
                && s.occ[n as usize] == [0, 0]
        })
        .expect("an open neighbour of 1917");
    let target = hx.nb[d];
    let sakon = unit(g, "島左近");
    s.units[sakon as usize].flipped = true;
    put(g, &mut s, sakon, target);
    draw(g, &mut s, "C06");
    act(g, &mut s, Action::Commander(unit(g, "池田輝政")));
    act(g, &mut s, Action::Act(ACT_ATTACK));
    for u in ["浅野幸長", "E18"] {
        act(g, &mut s, Action::Select(unit(g, u)));
    }
    act(g, &mut s, Action::Done);
    act(g, &mut s, Action::Target(d as u8));
    act(g, &mut s, Action::Die(1));
    while s.pending == Pending::Dice {
        act(g, &mut s, Action::Die(6));
    }
    act(g, &mut s, Action::Hit(sakon));
    assert_eq!(s.units[sakon as usize].loc, DEAD);
    assert_eq!(s.pending, Pending::Advance);
    (s, target)
}

#[test]
fn r7_3_1_the_advance_leads_only_whom_a_move_could_lead() {
    let g = game();
    let (mut s, target) = ikeda_wins_with_asano(&g);
    let (ikeda, asano, e18) = (unit(&g, "池田輝政"), unit(&g, "浅野幸長"), unit(&g, "E18"));
    act(&g, &mut s, Action::Advance);
    // R 7.3① "可以率领的军势数的上限…以及通常移动的限制全部适用": 浅野 is another clan's
    // commander (R 5.1(5)); 池田's 足軽 may follow; counters that did not attack may not.
    assert!(!is_legal(&g, &s, Action::Select(asano)));
    assert!(!is_legal(&g, &s, Action::Select(unit(&g, "E19"))), "E19 did not attack");
    assert!(is_legal(&g, &s, Action::Select(e18)));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[ikeda as usize].loc, target);
    for u in [asano, e18] {
        assert_eq!(s.units[u as usize].loc, hex(&g, "1917"));
        assert!(s.used & bit(u) != 0, "the attackers acted on this card (RULES_NOTES.md D10)");
    }
}

#[test]
fn r7_3_1_advancing_with_part_of_the_group() {
    let g = game();
    let (mut s, target) = ikeda_wins_with_asano(&g);
    let (ikeda, e18) = (unit(&g, "池田輝政"), unit(&g, "E18"));
    act(&g, &mut s, Action::Advance);
    act(&g, &mut s, Action::Select(e18));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[ikeda as usize].loc, target);
    assert_eq!(s.units[e18 as usize].loc, target);
    assert_eq!(s.occ[target as usize][EAST as usize], 2);
}

/// A working castle hex of the real map on `base` ground next to a `to` hex, across a hexside
/// with neither river nor sea: (castle hex, direction, neighbour).
fn castle_next_to(g: &Daisakusen, s: &State, base: data::Terrain, to: data::Terrain) -> (u16, u8, u16) {
    let d = g.data();
    for (h, hx) in d.hexes.iter().enumerate() {
        if hx.castle == NONE || hx.base != base || !g.castle_alive(s, h as u16) {
            continue;
        }
        for k in 0..6 {
            let n = hx.nb[k];
            if n != data::NO_HEX
                && d.hexes[n as usize].base == to
                && d.hexes[n as usize].castle == NONE
                && hx.sides[k] & (data::RIVER | data::SEA_SIDE) == 0
            {
                return (h as u16, k as u8, n);
            }
        }
    }
    panic!("no castle on {base:?} next to {to:?}")
}

/// 吉川広家 (火力 2) at `from` attacks 福島正則 at `target` in direction `d`.
fn kikkawa_attacks_at(g: &Daisakusen, mut s: State, from: u16, target: u16, d: u8) -> State {
    let k = unit(g, "吉川広家");
    let f = unit(g, "福島正則");
    clear_map(g, &mut s, &[k, f]);
    put(g, &mut s, k, from);
    put(g, &mut s, f, target);
    draw(g, &mut s, "C16");
    act(g, &mut s, Action::Commander(k));
    act(g, &mut s, Action::Act(ACT_ATTACK));
    act(g, &mut s, Action::Done);
    act(g, &mut s, Action::Target(d));
    s
}

#[test]
fn r7_1_3_1_plain_to_hill_is_minus_one_out_of_a_working_castle_too() {
    // R 7.1(3)① has no castle exception; ② "（城塞除外）" has (RULES_NOTES.md D9).
    let g = game();
    let s = after_setup(&g, 1);
    let (c, d, n) = castle_next_to(&g, &s, data::Terrain::Plain, data::Terrain::Hill);
    let mut s = kikkawa_attacks_at(&g, s, c, n, d);
    let ev = act_ev(&g, &mut s, Action::Die(1));
    assert_eq!(needs(&ev), vec![1], "火力 2 − 1");
}

#[test]
fn r10_0_4_a_castle_fallen_by_force_is_ordinary_ground() {
    // "寝返以外的情况，城塞陷落后失去城塞机能。之后不能进行攻城战，按通常攻击解决"
    // (RULES_NOTES.md D6, D9, D13).
    let g = game();
    let s = after_setup(&g, 1);
    let (c, d, n) = castle_next_to(&g, &s, data::Terrain::Hill, data::Terrain::Plain);
    let castle = g.data().hexes[c as usize].castle;
    let mut fallen = s.clone();
    fallen.castle_alive &= !(1 << castle);
    // Out of it: hill → plain +1 again.
    let mut t = kikkawa_attacks_at(&g, fallen.clone(), c, n, d);
    let ev = act_ev(&g, &mut t, Action::Die(1));
    assert_eq!(needs(&ev), vec![3], "火力 2 + 1");
    // Into it from the plain: no siege, plain → hill −1.
    let back = (d + 3) % 6;
    let mut t = kikkawa_attacks_at(&g, fallen.clone(), n, c, back);
    assert!(!t.fight.unwrap().siege);
    let ev = act_ev(&g, &mut t, Action::Die(1));
    assert_eq!(needs(&ev), vec![1], "火力 2 − 1, no siege");
    // It lies in a ZOC.
    let f = unit(&g, "福島正則");
    let mut z = fallen;
    clear_map(&g, &mut z, &[f]);
    put(&g, &mut z, f, n);
    assert!(g.enemy_zoc(&z, c, WEST));
    // A working castle does not.
    let mut z = s;
    clear_map(&g, &mut z, &[f]);
    put(&g, &mut z, f, n);
    assert!(!g.enemy_zoc(&z, c, WEST));
}
