//! 5.1 leading, 6.0 movement (normal, strategic, ZOC, stacking), 8.0 recovery, 9.0 entry,
//! 10.0 castles, 13.0 豊臣秀頼 — on the real (reconstructed) map.

use super::common::*;
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::Game;

const N: u8 = 0;
const NE: u8 = 1;
const SE: u8 = 2;
const S: u8 = 3;
const NW: u8 = 5;

fn steps(g: &Daisakusen, s: &State) -> Vec<u8> {
    legal(g, s)
        .into_iter()
        .filter_map(|a| match g.decode(a) {
            Some(Action::Step(d)) => Some(d),
            _ => None,
        })
        .collect()
}

/// 福島正則 (戦意 3, 統率力 4) alone at `at`, everything else off the map but `keep`, moving on C05.
fn fukushima_moves(g: &Daisakusen, at: &str, keep: &[&str], strategic: bool) -> State {
    let mut s = after_setup(g, 1);
    let f = unit(g, "福島正則");
    let mut ids: Vec<u8> = keep.iter().map(|n| unit(g, n)).collect();
    // 黒田長政 stays at 2016 for C05's second activation.
    ids.extend([f, unit(g, "黒田長政")]);
    clear_map(g, &mut s, &ids);
    put(g, &mut s, f, hex(g, at));
    draw(g, &mut s, "C05");
    act(g, &mut s, Action::Commander(f));
    act(g, &mut s, Action::Act(if strategic { ACT_STRATEGIC } else { ACT_MOVE }));
    act(g, &mut s, Action::Done);
    s
}

#[test]
fn r6_2_1_normal_move_has_morale_points_and_no_river_without_a_road() {
    let g = game();
    let s = fukushima_moves(&g, "1916", &[], false);
    assert_eq!(s.mp, 3);
    // 1916: N 1915 岐阜 across a ford (road), NE 2015 犬山, SE 2016, S 1917 清洲 by road;
    // SW 1816 and NW 1815 across the 木曽川 / 長良川 without a road: closed (R 6.2(1)③).
    assert_eq!(steps(&g, &s), vec![N, NE, SE, S]);
}

#[test]
fn r6_2_1_mountains_and_all_sea_are_closed() {
    let g = game();
    // 関ヶ原 1515: N 1514 and NE 1614 are mountain.
    let s = fukushima_moves(&g, "1515", &[], false);
    let st = steps(&g, &s);
    assert!(!st.contains(&N) && !st.contains(&NE));
    assert!(st.contains(&SE) && st.contains(&S));
    // 草津 1019: N 1018 is 琵琶湖 (all sea); NW 大津 lies across an all-sea hexside.
    let s = fukushima_moves(&g, "1019", &[], false);
    let st = steps(&g, &s);
    assert!(!st.contains(&N) && !st.contains(&NW));
}

#[test]
fn r6_2_1_each_step_costs_one_point_and_the_move_ends_when_they_are_spent() {
    let g = game();
    let mut s = fukushima_moves(&g, "2016", &[], false);
    act(&g, &mut s, Action::Step(NE)); // 2116
    act(&g, &mut s, Action::Step(S)); // 2117
    assert_eq!(s.mp, 1);
    act(&g, &mut s, Action::Step(S)); // 2118
    assert_eq!(s.units[unit(&g, "福島正則") as usize].loc, hex(&g, "2118"));
    assert_eq!(s.pending, Pending::Commander, "the second activation of C05");
}

#[test]
fn r6_2_2_strategic_move_is_a_die_plus_morale_along_roads_only() {
    let g = game();
    let mut s = fukushima_moves(&g, "1916", &[], true);
    assert_eq!(s.pending, Pending::StratDie);
    act(&g, &mut s, Action::Die(4));
    assert_eq!(s.mp, 7);
    // Only the road hexsides: N (the 岐阜 ford) and S (清洲).
    assert_eq!(steps(&g, &s), vec![N, S]);
    // A commander off the roads may not move strategically.
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    clear_map(&g, &mut s, &[f]);
    put(&g, &mut s, f, hex(&g, "2117"));
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    assert!(!is_legal(&g, &s, Action::Act(ACT_STRATEGIC)));
    assert!(is_legal(&g, &s, Action::Act(ACT_MOVE)));
}

#[test]
fn r6_3_entering_an_enemy_zoc_ends_the_move_leaving_is_free() {
    let g = game();
    // A West counter at 1815 puts 1916 in its ZOC.
    let mut s = fukushima_moves(&g, "2016", &["W44"], false);
    put(&g, &mut s, unit(&g, "W44"), hex(&g, "1815"));
    act(&g, &mut s, Action::Step(NW)); // 1916
    assert_eq!(s.units[unit(&g, "福島正則") as usize].loc, hex(&g, "1916"));
    assert_eq!(s.mp, 0);
    assert_eq!(s.pending, Pending::Commander, "R 6.3(1): the move ended in the ZOC");
    // Starting in the ZOC: leaving is free (R 6.3(2)), and the ZOC-to-ZOC step is one hex.
    let f = unit(&g, "福島正則");
    act(&g, &mut s, Action::Commander(unit(&g, "黒田長政")));
    act(&g, &mut s, Action::Act(ACT_HOLD));
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.mp, 3);
    act(&g, &mut s, Action::Step(SE)); // 2016: out of the ZOC
    assert_eq!(s.mp, 2);
    assert_eq!(s.pending, Pending::Moving);
}

#[test]
fn r6_3_6_and_r10_1_no_zoc_in_a_castle_hex() {
    let g = game();
    // 1815's West counter would cover 岐阜 1915, but a castle hex is never in a ZOC.
    let mut s = fukushima_moves(&g, "2015", &["W44"], false);
    put(&g, &mut s, unit(&g, "W44"), hex(&g, "1815"));
    let f = unit(&g, "福島正則");
    assert!(!g.enemy_zoc(&s, hex(&g, "1915"), EAST));
    assert!(g.enemy_zoc(&s, hex(&g, "1916"), EAST));
    // Own ZOC never matters (R 6.3(5)): 1814 lies in the West counter's own ZOC only.
    assert!(!g.enemy_zoc(&s, hex(&g, "1814"), WEST));
    assert!(g.enemy_zoc(&s, hex(&g, "1814"), EAST));
    let _ = f;
}

#[test]
fn r10_2_entering_an_empty_enemy_castle_ends_the_move_and_takes_it() {
    let g = game();
    let mut s = fukushima_moves(&g, "1916", &[], false);
    let start = s.chouryaku;
    let ev = act_ev(&g, &mut s, Action::Step(N)); // 岐阜, West, empty
    assert!(ev.iter().any(|e| e["kind"] == "castle_taken"));
    // A double castle: 2 boxes toward the East for the 調略 marker (R 11.0(1)③).
    assert_eq!(s.chouryaku, start - 2);
    assert_eq!(s.pending, Pending::Commander);
    // Taken by force, it no longer works as a castle (R 10.0(4)).
    assert!(!g.castle_alive(&s, hex(&g, "1915")));
}

#[test]
fn r11_1_4_ending_a_move_in_kyoto_takes_it() {
    let g = game();
    let mut s = fukushima_moves(&g, "0818", &[], false);
    let start = s.chouryaku;
    act(&g, &mut s, Action::Step(S)); // 0819 京
    act(&g, &mut s, Action::Done);
    assert_eq!(s.kyoto_owner, EAST);
    assert_eq!(s.chouryaku, start - 2);
}

#[test]
fn r6_1_3_the_stacking_limit_applies_at_the_end_of_the_move() {
    let g = game();
    // 福島 + 3 福島 ashigaru (4) next to a hex holding 3 East counters: 7 > 6.
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let mine = ["E22", "E23", "E24"].map(|n| unit(&g, n));
    let others = ["E18", "E19", "E20"].map(|n| unit(&g, n));
    let mut keep = vec![f];
    keep.extend(mine);
    keep.extend(others);
    clear_map(&g, &mut s, &keep);
    for &u in &keep[..4] {
        put(&g, &mut s, u, hex(&g, "2016"));
    }
    for &u in &others {
        put(&g, &mut s, u, hex(&g, "2116"));
    }
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    for &u in &mine {
        act(&g, &mut s, Action::Select(u));
    }
    // 統率力 4: the commander and three more.
    assert!(legal(&g, &s).iter().all(|&a| !matches!(g.decode(a), Some(Action::Select(_)))));
    act(&g, &mut s, Action::Done);
    // Passing through 2116 is allowed (points left, a way out)...
    assert!(steps(&g, &s).contains(&NE));
    act(&g, &mut s, Action::Step(NE));
    // ... but the move cannot end there.
    assert!(!is_legal(&g, &s, Action::Done));
    act(&g, &mut s, Action::Step(S)); // 2117
    assert!(is_legal(&g, &s, Action::Done));
    // With one point left, entering the full hex would end the move there: closed.
    assert_eq!(s.mp, 1);
    assert!(!is_legal(&g, &s, Action::Step(N)));
}

#[test]
fn r5_1_5_who_may_be_led() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let ishida = unit(&g, "石田三成");
    let sakon = unit(&g, "島左近");
    let ukita = unit(&g, "宇喜多秀家");
    let ukita_ashigaru = unit(&g, "W20");
    let garrison = unit(&g, "福原長堯");
    let enemy = unit(&g, "E22");
    clear_map(&g, &mut s, &[ishida, sakon, ukita, ukita_ashigaru, garrison, enemy]);
    for u in [ishida, sakon, ukita, ukita_ashigaru, garrison] {
        put(&g, &mut s, u, hex(&g, "1716"));
    }
    put(&g, &mut s, enemy, hex(&g, "1715"));
    let before = s.clone();
    draw(&g, &mut s, "C09");
    act(&g, &mut s, Action::Commander(ishida));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    // ① 武将 of another clan yes; R 2.3.2(1), 5.1(5): another clan's commander no, nor
    // (②) 足軽 of 宇喜多 without a 宇喜多 武将 in the group; R 5.1(6): never a garrison.
    assert!(is_legal(&g, &s, Action::Select(sakon)));
    assert!(!is_legal(&g, &s, Action::Select(ukita)));
    assert!(!is_legal(&g, &s, Action::Select(ukita_ashigaru)));
    assert!(!is_legal(&g, &s, Action::Select(garrison)));
    // R 7.1(1): an attack may take another commander along, and his 足軽 with him.
    let mut s = before;
    draw(&g, &mut s, "C09");
    act(&g, &mut s, Action::Commander(ishida));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    assert!(!is_legal(&g, &s, Action::Select(ukita_ashigaru)));
    act(&g, &mut s, Action::Select(ukita));
    assert!(is_legal(&g, &s, Action::Select(ukita_ashigaru)));
}

/// The suggested 外様主力 set-up puts 池田輝政 (戦意 2) and 浅野幸長 (戦意 1) with their 足軽 at
/// 1917; C06 activates 池田.
fn ikeda_acts(g: &Daisakusen, act_kind: u8) -> State {
    let mut s = after_setup(g, 1);
    let (ikeda, asano) = (unit(g, "池田輝政"), unit(g, "浅野幸長"));
    assert_eq!(s.units[ikeda as usize].loc, hex(g, "1917"));
    assert_eq!(s.units[asano as usize].loc, hex(g, "1917"));
    draw(g, &mut s, "C06");
    act(g, &mut s, Action::Commander(ikeda));
    act(g, &mut s, Action::Act(act_kind));
    s
}

#[test]
fn r5_1_5_commander_cannot_lead_other_clan() {
    let g = game();
    let asano = unit(&g, "浅野幸長");
    let (ikeda_ashigaru, asano_ashigaru) = (unit(&g, "E18"), unit(&g, "E20"));
    // R 2.3.2(1) "指挥官驹也作为军势驹使用", R 5.1(5) "不能率领其他大名家的军势驹": neither a
    // normal nor a strategic move takes 浅野 or his 足軽 along; 池田's own 足軽 may go.
    for kind in [ACT_MOVE, ACT_STRATEGIC] {
        let s = ikeda_acts(&g, kind);
        assert!(!is_legal(&g, &s, Action::Select(asano)), "{kind}");
        assert!(!is_legal(&g, &s, Action::Select(asano_ashigaru)), "{kind}");
        assert!(is_legal(&g, &s, Action::Select(ikeda_ashigaru)), "{kind}");
    }
    // A commander of the same clan is led like any counter of the clan: 毛利元康 with 毛利輝元.
    let mut s = after_setup(&g, 1);
    let (terumoto, motoyasu) = (unit(&g, "毛利輝元"), unit(&g, "毛利元康"));
    let osaka = s.units[terumoto as usize].loc;
    put(&g, &mut s, motoyasu, osaka);
    s.morale[g.data().terumoto_track as usize] = g.data().morale_tracks[g.data().terumoto_track as usize].values.len() as u8 - 1;
    draw(&g, &mut s, "C14");
    act(&g, &mut s, Action::Commander(terumoto));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    assert!(is_legal(&g, &s, Action::Select(motoyasu)));
}

#[test]
fn r5_1_5_note_kikkawa_leads_mori_ashigaru() {
    let g = game();
    let mut s = after_setup(&g, 1);
    draw(&g, &mut s, "C16");
    act(&g, &mut s, Action::Commander(unit(&g, "吉川広家")));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    assert!(is_legal(&g, &s, Action::Select(unit(&g, "W37"))));
    // 小早川 may not lead another clan's 足軽 without its 武将.
    let mut s = after_setup(&g, 1);
    put(&g, &mut s, unit(&g, "W37"), hex(&g, "1516"));
    draw(&g, &mut s, "C16");
    act(&g, &mut s, Action::Commander(unit(&g, "小早川秀秋")));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    assert!(!is_legal(&g, &s, Action::Select(unit(&g, "W37"))));
    assert!(is_legal(&g, &s, Action::Select(unit(&g, "W41"))));
}

#[test]
fn r8_recovery_up_to_leadership_never_in_an_enemy_zoc() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let a = ["E22", "E23", "E24"].map(|n| unit(&g, n));
    clear_map(&g, &mut s, &[f, a[0], a[1], a[2], unit(&g, "W44")]);
    for u in [f, a[0], a[1], a[2]] {
        put(&g, &mut s, u, hex(&g, "2016"));
        s.units[u as usize].flipped = true;
    }
    let mut t = s.clone();
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    act(&g, &mut s, Action::Act(ACT_RECOVER));
    for u in [f, a[0], a[1], a[2]] {
        act(&g, &mut s, Action::Select(u));
    }
    act(&g, &mut s, Action::Done);
    assert!([f, a[0], a[1], a[2]].iter().all(|&u| !s.units[u as usize].flipped));
    // An enemy next door: no recovery (R 8.0(3)).
    put(&g, &mut t, unit(&g, "W44"), hex(&g, "2116"));
    draw(&g, &mut t, "C05");
    act(&g, &mut t, Action::Commander(f));
    assert!(!is_legal(&g, &t, Action::Act(ACT_RECOVER)));
}

#[test]
fn r9_entry_track_arrival_needs_room() {
    let g = game();
    let mut s = after_setup(&g, 1);
    s.entry[0] = 6; // 岡崎
    let w = unit(&g, "W44");
    put(&g, &mut s, w, hex(&g, "2219"));
    draw(&g, &mut s, "C01");
    act(&g, &mut s, Action::Commander(unit(&g, "徳川家康")));
    assert!(!is_legal(&g, &s, Action::Act(ACT_MARCH)), "an enemy holds the entry hex");
}

#[test]
fn r13_hideyori_no_tozama_attack_capture_when_alone() {
    let g = game();
    let hy = unit(&g, "豊臣秀頼");
    let f = unit(&g, "福島正則");
    let ieyasu = unit(&g, "徳川家康");
    let mut s = after_setup(&g, 1);
    clear_map(&g, &mut s, &[hy, f, ieyasu]);
    put(&g, &mut s, hy, hex(&g, "0622"));
    put(&g, &mut s, f, hex(&g, "0722"));
    put(&g, &mut s, ieyasu, hex(&g, "0722"));
    let t = s.clone();
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(f));
    // R 13.0(3): an East 外様 commander may not attack 秀頼's hex.
    assert!(!is_legal(&g, &s, Action::Act(ACT_ATTACK)));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    act(&g, &mut s, Action::Done);
    // R 13.0(4): 秀頼 alone and no ZOC: the 外様 commander may enter and capture him.
    let d = (0..6u8).find(|&d| g.data().hexes[hex(&g, "0722") as usize].nb[d as usize] == hex(&g, "0622")).unwrap();
    assert!(!g.enemy_zoc(&s, hex(&g, "0722"), EAST), "秀頼 has no ZOC");
    act(&g, &mut s, Action::Step(d));
    assert_eq!(s.pending, Pending::Over);
    assert_eq!(g.returns(&s), vec![1.0, -1.0], "R 14.0(2)");
    // 家康 (徳川) may attack him.
    let mut s = t;
    s.entry[0] = 7;
    draw(&g, &mut s, "C01");
    act(&g, &mut s, Action::Commander(ieyasu));
    assert!(is_legal(&g, &s, Action::Act(ACT_ATTACK)));
}

#[test]
fn d10_a_counter_acts_once_per_card() {
    let g = game();
    let mut s = after_setup(&g, 1);
    let f = unit(&g, "福島正則");
    let k = unit(&g, "黒田長政");
    let e22 = unit(&g, "E22");
    let enemy = unit(&g, "W44");
    clear_map(&g, &mut s, &[f, k, e22, enemy]);
    for u in [f, k, e22] {
        put(&g, &mut s, u, hex(&g, "2016"));
    }
    put(&g, &mut s, enemy, hex(&g, "1916"));
    draw(&g, &mut s, "C05");
    act(&g, &mut s, Action::Commander(k));
    act(&g, &mut s, Action::Act(ACT_ATTACK));
    act(&g, &mut s, Action::Select(f));
    act(&g, &mut s, Action::Done);
    let d = (0..6u8).find(|&d| g.data().hexes[hex(&g, "2016") as usize].nb[d as usize] == hex(&g, "1916")).unwrap();
    act(&g, &mut s, Action::Target(d));
    act(&g, &mut s, Action::Die(6));
    act(&g, &mut s, Action::Die(6));
    // 福島 attacked with 黒田 (R 7.1(1)): he may not act again on this card; the ashigaru left
    // behind may not be led by him either.
    assert_eq!(s.pending, Pending::Draw);
    assert_eq!(s.units[e22 as usize].loc, hex(&g, "2016"));
}

#[test]
fn r6_3_6_a_zoc_reaches_across_an_all_sea_hexside() {
    // R 6.3 "所有军势所在格及其周边相邻的 6 格为该军势的支配区域 ZOC"; R 6.3(6) "ZOC 不包括完全海
    // 六边格和敌城塞格" excludes hexes, not hexsides (RULES_NOTES.md D6).
    let g = game();
    // The map's one all-sea hexside: 大津 0919 (SE) | 1019.
    let (n, h) = (hex(&g, "0919"), hex(&g, "1019"));
    let k = (0..6).find(|&k| g.data().hexes[n as usize].nb[k] == h).unwrap();
    assert_ne!(g.data().hexes[n as usize].sides[k] & data::SEA_SIDE, 0);
    let mut s = after_setup(&g, 1);
    let w = unit(&g, "W44");
    clear_map(&g, &mut s, &[w]);
    put(&g, &mut s, w, n);
    assert!(
        g.enemy_zoc(&s, h, EAST),
        "{} is in the ZOC of a West counter at {}",
        g.data().hexes[h as usize].id,
        g.data().hexes[n as usize].id
    );
    // The observation's ZOC plane says the same.
    let len = g.info().observation_len();
    let mut t = vec![0.0f32; len];
    g.observation_tensor(&s, 0, &mut t);
    let layout = g.info().observation_layout;
    let plane = layout.iter().find(|f| f.name == "enemy_zoc").unwrap();
    assert_eq!(t[plane.offset + h as usize], 1.0);
}

#[test]
fn r13_0_1_hideyori_is_released_for_good_once_the_condition_is_met() {
    // "游戏开始一直到满足条件为止，期间丰臣秀赖不得离开大阪城" (RULES_NOTES.md D18).
    let g = game();
    let mut s = after_setup(&g, 1);
    let (terumoto, hy) = (unit(&g, "毛利輝元"), unit(&g, "豊臣秀頼"));
    assert!(!g.hideyori_may_leave(&s), "held in 大坂 at the start");
    assert!(!s.hideyori_released);
    // C14 毛利輝元 moves his marker toward the West until his 戦意 is 1 or more; the 調略
    // marker is not on the West side yet.
    let t = g.data().terumoto_track as usize;
    while g.data().morale_tracks[t].values[s.morale[t] as usize] == 0 {
        draw(&g, &mut s, "C14");
        if s.pending == Pending::Commander {
            act(&g, &mut s, Action::Pass);
        }
    }
    assert_ne!(g.data().chouryaku_side[s.chouryaku as usize], WEST);
    assert!(!s.hideyori_released);
    // The West takes castles (R 11.0(1)③) until the 調略 marker is on its side: released.
    let mut released = false;
    while g.data().chouryaku_side[s.chouryaku as usize] != WEST {
        let mut ev = kassen_core::Events::recording();
        g.move_all(&mut s, WEST, 1, &"enemy castle taken (R 11.0(1)③)", &mut ev);
        released |= ev.into_vec().iter().any(|e| e.body.to_value()["kind"] == "hideyori_released");
    }
    assert!(released && s.hideyori_released);
    // The 調略 marker goes back to the East side: the condition fails, 秀頼 stays free.
    while g.data().chouryaku_side[s.chouryaku as usize] == WEST {
        g.move_all(&mut s, EAST, 1, &"a failed 恫喝判定 (R 12.2(3))", &mut kassen_core::Events::off());
    }
    assert_ne!(g.data().chouryaku_side[s.chouryaku as usize], WEST, "the condition of R 13.0(1) fails");
    assert!(g.hideyori_may_leave(&s));
    while g.data().morale_tracks[t].values[s.morale[t] as usize] == 0 {
        draw(&g, &mut s, "C14");
        if s.pending == Pending::Commander {
            act(&g, &mut s, Action::Pass);
        }
    }
    draw(&g, &mut s, "C14");
    act(&g, &mut s, Action::Commander(terumoto));
    act(&g, &mut s, Action::Act(ACT_MOVE));
    assert!(is_legal(&g, &s, Action::Select(hy)), "he may be led out of 大坂");
}
