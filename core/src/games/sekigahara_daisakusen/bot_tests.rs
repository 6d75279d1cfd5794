//! The evaluation's terms point where their docs say. The hooks' contract (legal answers,
//! evaluations in range, along playout-policy games) is checked for every game in
//! `crate::testing::positions`; the strength they give is measured by `make arena`.

use super::super::data::{Kind, NO_HEX, WEST};
use super::super::position::tests::states;
use super::super::Daisakusen;
use super::{approach, east_value, nearest, sortie};

#[test]
fn r13_the_west_values_hideyori_led_out_of_osaka() {
    let (g, mut s) = states();
    // R 3.0(2): 毛利輝元 stands with 秀頼 in 大坂; R 13.0(1): he is not released yet.
    assert_eq!(sortie(&g, &s), 0.3);
    s.hideyori_released = true;
    assert_eq!(sortie(&g, &s), 0.5);
    let held = east_value(&g, &s);
    s.hideyori_left = true;
    assert_eq!(sortie(&g, &s), 1.0);
    assert!(east_value(&g, &s) < held, "the West's estimate rises when 秀頼 has left 大坂");
    // Alone in 大坂 nobody can lead him out (R 13.0(5)).
    s.hideyori_left = false;
    let osaka = g.data.osaka;
    for (u, x) in s.units.iter_mut().enumerate() {
        if x.loc == osaka && u as u8 != g.data.hideyori {
            x.loc = g.data.hexes[osaka as usize].nb.into_iter().find(|&n| n != NO_HEX).unwrap();
        }
    }
    g.rebuild(&mut s);
    assert_eq!(sortie(&g, &s), 0.0);
}

#[test]
fn r7_a_commander_next_to_the_enemy_raises_his_sides_approach() {
    let (g, mut s) = states();
    let before = approach(&g, &s, WEST);
    // A West commander (not a 総大将) moved next to an East stack.
    let east = s.units.iter().position(|x| x.side != WEST && Daisakusen::on_map(x.loc)).unwrap();
    let target = s.units[east].loc;
    let beside = g.data.hexes[target as usize].nb.into_iter().find(|&n| n != NO_HEX && s.occ[n as usize][0] == 0).unwrap();
    let far = (0..s.units.len())
        .filter(|&u| s.units[u].side == WEST && Daisakusen::on_map(s.units[u].loc) && g.data.counters[u].kind == Kind::Commander)
        .filter(|&u| u as u8 != g.data.ishida && u as u8 != g.data.hideyori)
        .max_by_key(|&u| g.data.grid.distance(s.units[u].loc as usize, target as usize))
        .unwrap();
    s.units[far].loc = beside;
    g.rebuild(&mut s);
    assert!(approach(&g, &s, WEST) > before, "{} -> {}", before, approach(&g, &s, WEST));
}

#[test]
fn nearest_measures_the_grids_distance_from_the_axial_table() {
    let (g, _) = states();
    let n = g.data.grid.len();
    assert_eq!(g.data.axial.len(), n);
    for a in 0..n {
        for b in 0..n {
            assert_eq!(nearest(&g, a as u16, &[b as u16]), g.data.grid.distance(a, b), "hexes {a} and {b}");
        }
    }
    let targets: Vec<u16> = (0..n as u16).step_by(7).collect();
    for a in 0..n {
        let want = targets.iter().map(|&t| g.data.grid.distance(a, t as usize)).min().unwrap();
        assert_eq!(nearest(&g, a as u16, &targets), want);
    }
    assert_eq!(nearest(&g, 0, &[]), 0);
}

/// Self-play positions for fitting the evaluation's weights (`fit_weights.py`, which says how
/// to run it): one CSV line every `FIT_EVERY` decisions, `game,turn,features...,east_return`.
/// The games are played through the engine's handles between two `FIT_SPEC` bots; each one's
/// history is replayed on the typed state, which must end as the game did.
#[test]
#[ignore = "a data generator, run by hand"]
fn dump_fit_data() {
    use super::super::state::State;
    use super::features;
    use crate::game::Game;
    use std::io::Write;
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let out = var("FIT_OUT", "/tmp/fit.csv");
    let games: u64 = var("FIT_GAMES", "20").parse().unwrap();
    let first: u64 = var("FIT_FIRST", "0").parse().unwrap();
    let spec = var("FIT_SPEC", "ismcts:easy");
    let every: usize = var("FIT_EVERY", "4").parse().unwrap();
    let handle = crate::load_game("sekigahara_daisakusen", None).unwrap();
    let g = Daisakusen::setup(&serde_json::Map::new()).unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
    for k in first..first + games {
        let mut bots: Vec<_> = (0..2).map(|p| crate::bots::from_spec(&spec, k * 2 + p + 1).unwrap()).collect();
        let mut st = handle.new_initial_state(k);
        while !st.is_terminal() {
            let p = st.current_player() as usize;
            let a = bots[p].choose(&st);
            st.apply_in_place(a).unwrap();
        }
        let ret = st.returns()[0];
        let mut s: State = g.new_initial_state(k);
        let mut ev = crate::events::Events::off();
        let mut decisions = 0usize;
        for &a in st.history() {
            if g.current_player(&s) >= 0 {
                if decisions % every == 0 {
                    let x = features(&g, &s);
                    let xs: Vec<String> = x.iter().map(|v| format!("{v:.5}")).collect();
                    writeln!(f, "{k},{},{},{ret}", s.turn, xs.join(",")).unwrap();
                }
                decisions += 1;
            }
            g.apply(&mut s, a, &mut ev);
        }
        assert_eq!(g.returns(&s)[0], ret, "the replay ends as the game did");
        eprintln!("game {k}: {ret}");
    }
}
