//! Component data: validation (errors name the field), a random-mutation fuzz of the
//! validator whose accepted files must play to the end, a replacement file that changes play
//! and provenance; the three switches each both ways; perft counts.

use kassen_core::events::Events;
use kassen_core::game::{ActionId, Game, CHANCE, TERMINAL};
use kassen_core::games::three_kingdoms_redux::data::*;
use kassen_core::games::three_kingdoms_redux::{Action, Tkr, NONE};
use kassen_core::rng::Rng;
use serde_json::{json, Value};

use super::common::*;

fn embedded() -> Value {
    serde_json::from_str(EMBEDDED).unwrap()
}

fn with_data(v: Value) -> Result<Tkr, String> {
    let mut m = serde_json::Map::new();
    m.insert("data".into(), v);
    Tkr::setup(&m).map_err(|e| e.to_string())
}

#[test]
fn data_counts_match_the_rulebook() {
    let g = plain();
    let d = g.data();
    assert_eq!(d.generals.len(), 69);
    assert_eq!(d.developments.len(), 42);
    assert_eq!(d.regions.len(), 15);
    assert_eq!([d.dev_decks[0].len(), d.dev_decks[1].len()], [21, 21]);
    assert_eq!(d.decks.iter().map(Vec::len).collect::<Vec<_>>(), vec![22, 22, 22]);
    assert_eq!(d.start_tribal, [5, 6, 7]);
    assert_eq!(d.start_hand, [[1, 3], [2, 3], [3, 3]]);
    assert_eq!(d.setup_recruit, [(6, 4), (6, 3), (6, 2)]);
    let info = g.info();
    assert_eq!(info.provenance["generals_fields"]["rulebook"], json!(132));
    assert_eq!(info.provenance["generals_fields"]["reconstructed"], json!(469));
}

#[test]
fn validation_errors_name_the_bad_field() {
    type Mutation = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Mutation, &str)> = vec![
        (Box::new(|v| v["generals"][3]["administration"] = json!(9)), "generals[3] (cao_ren).administration"),
        (
            Box::new(|v| v["generals"][0]["ability"]["effect"][0]["type"] = json!("teleport")),
            "generals[0] (cao_cao).ability.effect[0].type",
        ),
        (Box::new(|v| v["state_developments"][0]["cost"]["jade"] = json!(1)), "state_developments[0] (imperial_palace).cost.jade"),
        (Box::new(|v| v["board"]["regions"][0]["required_unit"] = json!("dragon")), "board.regions[0].required_unit"),
        (Box::new(|v| v["generals"][1]["provenance"]["combat"]["source"] = json!("rumour")), "generals[1] (jia_xu).provenance.combat"),
        (Box::new(|v| v["actions"][10]["alliance_eligible"] = json!(true)), "actions[10].alliance_eligible"),
        (Box::new(|v| v["recruitment"]["rounds"]["3"]["Wei"]["draw"] = json!(30)), "recruitment.rounds.3.Wei.draw"),
        (Box::new(|v| v["board"]["round_track"]["rounds"] = json!(0)), "board.round_track.rounds"),
    ];
    for (mutate, field) in cases {
        let mut v = embedded();
        mutate(&mut v);
        let err = with_data(v).err().unwrap_or_else(|| panic!("{field}: accepted"));
        assert!(err.contains(field), "error {err:?} does not name {field}");
    }
}

fn play_to_end(g: &Tkr, seed: u64) {
    let mut s = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    for _ in 0..40_000 {
        match g.current_player(&s) {
            TERMINAL => return,
            CHANCE => {
                let a = g.sample_chance(&mut s);
                g.apply(&mut s, a, &mut Events::off());
            }
            _ => {
                legal.clear();
                g.legal_actions(&s, &mut legal);
                assert!(!legal.is_empty());
                let a = legal[rng.below(legal.len() as u32) as usize];
                g.apply(&mut s, a, &mut Events::off());
            }
        }
    }
    panic!("a game of an accepted data file did not end");
}

/// Every number in the data is a mutation target: replaced by a random small integer.
fn numbers(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Number(_) => out.push(path.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                numbers(x, path, out);
                path.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                if k == "provenance" || k == "sources" || k == "rules_clarifications" {
                    continue;
                }
                path.push(json!(k));
                numbers(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    let mut cur = v;
    for p in path {
        cur = match p {
            Value::Number(n) => &mut cur[n.as_u64().unwrap() as usize],
            Value::String(s) => &mut cur[s.as_str()],
            _ => unreachable!(),
        };
    }
    cur
}

#[test]
fn fuzz_the_validator_accepted_files_play_to_the_end() {
    let base = embedded();
    let mut targets = Vec::new();
    numbers(&base, &mut Vec::new(), &mut targets);
    let mut rng = Rng::from_seed(2026);
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..60 {
        let mut v = base.clone();
        for _ in 0..3 {
            let p = &targets[rng.below(targets.len() as u32) as usize];
            *at(&mut v, p) = json!(rng.below(14) as i64 - 2);
        }
        match with_data(v) {
            Ok(g) => {
                accepted += 1;
                play_to_end(&g, round);
            }
            Err(e) => {
                rejected += 1;
                assert!(e.contains('.') || e.contains('['), "error without a field: {e}");
            }
        }
    }
    assert!(accepted > 5 && rejected > 5, "accepted {accepted}, rejected {rejected}");
}

#[test]
fn replacement_data_with_one_general_changed_plays_differently_and_is_reported() {
    let mut v = embedded();
    // 가후 becomes a combat general with 5 combat
    v["generals"][1]["combat"] = json!(5);
    v["generals"][1]["provenance"]["combat"] = json!({"source": "original", "cite": "test replacement"});
    let changed = with_data(v).unwrap();
    let g = plain();
    assert_ne!(changed.info().provenance["generals_digest"], g.info().provenance["generals_digest"]);
    assert_eq!(changed.info().provenance["generals_fields"]["original"], json!(21));
    let mut a = bidding(&g, 1, &["jia_xu"], NONE);
    let mut b = bidding(&changed, 1, &["jia_xu"], NONE);
    place(&g, &mut a, "jia_xu", A_TRAIN, &[]);
    place(&changed, &mut b, "jia_xu", A_TRAIN, &[]);
    assert_eq!((a.totals[A_TRAIN as usize][WEI], b.totals[A_TRAIN as usize][WEI]), (2, 5));
}

#[test]
fn switch_trade_rates_both_ways_c14() {
    for (cfg, buy_rice_gold, sell_weapons_gold) in [(json!({}), 5, 5), (json!({"trade_rates": "literal"}), 3, 7)] {
        let g = game(cfg.clone());
        let mut s = bidding(&g, 1, &["jia_xu"], NONE);
        s.seats[WEI].gold = 20;
        s.seats[WEI].weapons = [3, 0, 0, 0];
        place(&g, &mut s, "jia_xu", A_TRADE, &[]);
        end_bidding(&g, &mut s);
        act(&g, &mut s, Action::Perform(A_TRADE));
        act(&g, &mut s, Action::Choice(1)); // buy one lot of rice
        assert_eq!((s.seats[WEI].gold, s.seats[WEI].rice), (20 - buy_rice_gold, 3 + 4), "{cfg}");
        act(&g, &mut s, Action::Choice(3)); // sell one lot of weapons
        for _ in 0..3 {
            act(&g, &mut s, Action::Weapon(0));
        }
        assert_eq!(s.seats[WEI].gold, 20 - buy_rice_gold + sell_weapons_gold, "{cfg}");
        assert_eq!(s.seats[WEI].weapons, [0; 4]);
    }
}

#[test]
fn switch_component_limits_both_ways_c35() {
    for (cfg, got) in [(json!({}), 1), (json!({"component_limits": false}), 2)] {
        let g = game(cfg.clone());
        let mut s = bidding(&g, 1, &["xu_chu"], NONE);
        // 11 of the 12 spears are already in supplies
        s.seats[WU].weapons = [6, 0, 0, 0];
        s.seats[SHU].weapons = [5, 0, 0, 0];
        place(&g, &mut s, "xu_chu", A_SPEAR_HORSE, &[]);
        end_bidding(&g, &mut s);
        act(&g, &mut s, Action::Perform(A_SPEAR_HORSE));
        act(&g, &mut s, Action::Choice(2)); // two spears
        assert_eq!(s.seats[WEI].weapons[0], got, "{cfg}");
    }
}

#[test]
fn switch_alternation_both_ways_is_in_resolution_tests() {
    // resolution::s8_example_second_general_c18_both_switch_values covers both values; here the
    // normalized config reports them
    assert_eq!(game(json!({})).info().config["alternation"], json!("example"));
    assert_eq!(game(json!({"alternation": "rule_text"})).info().config["alternation"], json!("rule_text"));
    assert!(Tkr::setup(json!({"alternation": "maybe"}).as_object().unwrap()).is_err());
    assert!(Tkr::setup(json!({"players": 3}).as_object().unwrap()).is_err());
}

fn perft(g: &Tkr, s: &kassen_core::games::three_kingdoms_redux::State, depth: u32) -> u64 {
    if depth == 0 || g.is_terminal(s) {
        return 1;
    }
    let mut legal: Vec<ActionId> = Vec::new();
    g.legal_actions(s, &mut legal);
    legal.iter().map(|&a| perft(g, &g.child(s, a).unwrap(), depth - 1)).sum()
}

#[test]
fn perft_from_fixed_seeds() {
    // the first bidding decision of round 1 after a random setup, 3 plies deep
    let g = plain();
    let mut counts = Vec::new();
    for seed in [1u64, 2] {
        let mut s = g.new_initial_state(seed);
        let mut rng = Rng::from_seed(seed);
        while s.pending != kassen_core::games::three_kingdoms_redux::Pending::Bid {
            let a = if g.current_player(&s) == CHANCE {
                g.sample_chance(&mut s)
            } else {
                let mut l = Vec::new();
                g.legal_actions(&s, &mut l);
                l[rng.below(l.len() as u32) as usize]
            };
            g.apply(&mut s, a, &mut Events::off());
        }
        counts.push((perft(&g, &s, 1), perft(&g, &s, 2), perft(&g, &s, 3)));
    }
    // Wei bids first: 5 generals + pass; each general has 17 targets (not the Shu-Wu battle
    // nor the other tribal actions: 12 general + 2 battle + own tribal = 15)
    assert_eq!(counts[0].0, 6);
    // a pass hands the turn to Wu: its 4 generals + pass
    assert_eq!(counts[0].1, 5 * 15 + 5);
    assert_eq!(counts, PERFT);
}

// depth 3: 14 targets x Wu's 5 answers + tribal (gold or confirm) per general, + the pass line (4 x 15 + 4)
const PERFT: [(u64, u64, u64); 2] = [(6, 80, 424), (6, 80, 424)];
