//! §8 기술 수입 and the data's import_tech.keep ("the rest go to the bottom of their deck"):
//! the known bottom part of a development deck (T1), its visibility and determinization.

use kassen_core::events::Events;
use kassen_core::game::{ActionId, Game, CHANCE, SPECTATOR, TERMINAL};
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, Pending, State, Tkr, NONE};
use kassen_core::rng::Rng;
use serde_json::{json, Value};

use super::common::*;

#[test]
fn t1_imports_not_kept_go_to_the_bottom_known_to_the_returner_and_come_back_last() {
    let g = plain();
    let mut s = bidding(&g, 2, &["jia_xu"], NONE);
    // 황실 학당 (Imperial Academy): import draws 2 and keeps 1
    let academy = dev(&g, "imperial_academy");
    s.seats[WEI].built = 1 << academy;
    // three unity cards left in the deck; Wu holds the others
    let unity: Vec<u8> = g.data().dev_decks[0].iter().copied().filter(|&d| d != academy).collect();
    for &d in &unity[3..] {
        s.seats[WU].hand |= 1 << d;
    }
    place(&g, &mut s, "jia_xu", A_INSTRUCT, &[]);
    end_bidding(&g, &mut s);
    act(&g, &mut s, Action::Perform(A_INSTRUCT));
    act(&g, &mut s, Action::Choice(0)); // no instructor
    act(&g, &mut s, Action::Choice(1)); // import from the unity deck
    assert_eq!(g.legal_typed(&s).len(), 3);
    act(&g, &mut s, Action::DrawDev(0)); // unity[0]
    act(&g, &mut s, Action::DrawDev(0)); // unity[1]
    assert!(matches!(s.pending, Pending::KeepImport { .. }));
    act(&g, &mut s, Action::Dev(unity[1]));
    assert_eq!(s.bottom[0], vec![(unity[0], WEI as u8)], "the card not kept is at the bottom");
    let id = g.data().developments[unity[0] as usize].id.clone();
    // the returner knows it; the others and the spectator see one unknown card
    assert_eq!(g.view(&s, WEI as i32)["deck_bottoms"]["unity"], json!([id]));
    for p in [WU as i32, SHU as i32, SPECTATOR] {
        assert_eq!(g.view(&s, p)["deck_bottoms"]["unity"], json!([null]));
        assert!(!g.view(&s, p).to_string().contains(&format!("\"{id}\"")), "seat {p} sees the bottom card");
    }
    let (mut tw, mut tu) = (vec![0.0; g.info().observation_shape[0]], vec![0.0; g.info().observation_shape[0]]);
    g.observation_tensor(&s, WEI as i32, &mut tw);
    g.observation_tensor(&s, WU as i32, &mut tu);
    assert!(tw.iter().sum::<f32>() > 0.0 && tu.iter().sum::<f32>() > 0.0);
    // a later draw of two from that deck: first the unknown part (one card), then the bottom
    s.seat = WU as u8;
    s.pending = Pending::DrawDev { seat: WU as u8, deck: 0, left: 2, import: true };
    assert_eq!(g.legal_typed(&s), vec![Action::DrawDev(0)]);
    act(&g, &mut s, Action::DrawDev(0));
    assert_eq!(s.seats[WU].import_drawn, 1 << unity[2], "the unknown part comes first");
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes, vec![(g.encode(Action::DrawDev(0)), 1.0)], "the bottom card is certain");
    act(&g, &mut s, Action::DrawDev(0));
    assert_eq!(s.seats[WU].import_drawn, (1 << unity[2]) | (1 << unity[0]));
    assert!(s.bottom[0].is_empty());
}

/// The embedded data with Import Technology drawing 3 and keeping 1, so that bottoms fill.
fn import_three() -> Value {
    let mut v: Value = serde_json::from_str(EMBEDDED).unwrap();
    for a in v["actions"].as_array_mut().unwrap() {
        if a["id"] == "hire_instructor_import_tech" {
            a["params"]["import_tech.draw"] = json!(3);
        }
    }
    json!({"data": v})
}

/// A random game that prefers importing (chance from the state's rng); returns its player
/// actions and the numbers of player actions before each draw from a deck's bottom.
fn importing_game(g: &Tkr, seed: u64) -> (Vec<ActionId>, Vec<usize>) {
    let mut s: State = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed);
    let (mut history, mut after_bottom) = (Vec::new(), Vec::new());
    let mut legal = Vec::new();
    while g.current_player(&s) != TERMINAL {
        let a = if g.current_player(&s) == CHANCE {
            g.sample_chance(&mut s)
        } else {
            legal.clear();
            g.legal_actions(&s, &mut legal);
            let wanted = [Action::Target(A_INSTRUCT), Action::Perform(A_INSTRUCT), Action::Choice(1), Action::Choice(2)];
            let import = matches!(s.pending, Pending::Import | Pending::ChooseAction | Pending::Target);
            match legal.iter().find(|&&x| import && g.decode(x).is_some_and(|x| wanted.contains(&x))) {
                Some(&x) => x,
                None => legal[rng.below(legal.len() as u32) as usize],
            }
        };
        let before = s.bottom[0].len() + s.bottom[1].len();
        let drew = matches!(s.pending, Pending::DrawDev { .. });
        if g.current_player(&s) != CHANCE {
            history.push(a);
        }
        g.apply(&mut s, a, &mut Events::off());
        if drew && s.bottom[0].len() + s.bottom[1].len() < before && after_bottom.last() != Some(&history.len()) {
            after_bottom.push(history.len());
        }
    }
    (history, after_bottom)
}

#[test]
fn t1_determinization_keeps_bottoms_consistent_with_each_seats_information() {
    let cfg = import_three();
    let typed = game(cfg.clone());
    let handle = kassen_core::load_game(Tkr::ID, Some(&cfg)).unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let (history, after_bottom) = importing_game(&typed, seed);
        if after_bottom.is_empty() {
            continue;
        }
        // states just after bottom draws (the chance steps follow the last player action by
        // themselves, from the same seed) and at the end of the game
        let mut cuts: Vec<usize> = after_bottom.iter().copied().take(4).collect();
        cuts.push(history.len());
        for cut in cuts {
            let mut h = handle.new_initial_state(seed);
            for &a in &history[..cut] {
                h.apply_in_place(a).unwrap();
            }
            for obs in [0, 1, 2, SPECTATOR] {
                kassen_core::testing::check_determinization(&h, obs, seed ^ cut as u64)
                    .unwrap_or_else(|e| panic!("seed {seed}, step {cut}, seat {obs}: {e}"));
            }
        }
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert_eq!(checked, 3, "games with draws from a deck's bottom were found");
}
