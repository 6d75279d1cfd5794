//! 2.0 components: the data file, its validator (errors name the bad field) and a random
//! mutation fuzz of the validator whose accepted files are played to the end.

use super::common::*;
use kassen_core::games::sekigahara_daisakusen::data::{Data, Kind, EMBEDDED};
use kassen_core::games::sekigahara_daisakusen::*;
use kassen_core::rng::Rng;
use kassen_core::{Game, SetupError};
use serde_json::{json, Value};

fn embedded() -> Value {
    serde_json::from_str(EMBEDDED).unwrap()
}

fn load(v: Value) -> Result<Daisakusen, SetupError> {
    Daisakusen::setup(json!({ "data": v }).as_object().unwrap())
}

fn err(v: Value) -> String {
    match load(v) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn r2_the_embedded_components_match_the_rulebook_and_notes() {
    let d = Data::embedded();
    assert_eq!(d.hexes.len(), 22 * 25);
    assert_eq!(d.counters.len(), 84);
    assert_eq!(d.counters.iter().filter(|c| c.side == EAST).count(), 38);
    assert_eq!(d.castles.len(), 19);
    assert_eq!(d.castles.iter().filter(|c| c.double).count(), 8);
    assert_eq!(d.cards.len(), 16);
    assert_eq!(d.cards.iter().filter(|c| c.enters == data::Enters::AtStart).count(), 14);
    assert_eq!(d.morale_tracks.len(), 4);
    assert_eq!(d.chouryaku_labels.len(), 15);
    assert_eq!(d.counters.iter().filter(|c| c.kind == Kind::Garrison).count(), 10);
    // 192 special hexsides, each stored on both of its hexes.
    let marked: usize = d.hexes.iter().map(|h| h.sides.iter().filter(|&&f| f != 0).count()).sum();
    assert_eq!(marked, 2 * 192);
    // Neighbour symmetry of the grid.
    for (i, h) in d.hexes.iter().enumerate() {
        for (k, &n) in h.nb.iter().enumerate() {
            if n != data::NO_HEX {
                assert_eq!(d.hexes[n as usize].nb[(k + 3) % 6], i as u16);
                assert_eq!(d.hexes[n as usize].sides[(k + 3) % 6], h.sides[k]);
            }
        }
    }
    // Every counter keeps a provenance class.
    let counts = &d.provenance["counter_values"];
    assert_eq!(counts.as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum::<u64>(), 84);
}

#[test]
fn the_validator_names_the_bad_field() {
    let mut v = embedded();
    v["counters"]["list"][3]["attack"] = json!({"front": 9, "back": 1});
    assert!(err(v).contains("counters.list[3].attack.front"));
    let mut v = embedded();
    v["map"]["hexes"][5]["base_terrain"] = json!("lava");
    assert!(err(v).contains("map.hexes[5].base_terrain"));
    let mut v = embedded();
    v["counters"]["list"][0]["value_provenance"] = json!("made up");
    assert!(err(v).contains("counters.list[0].value_provenance"));
    let mut v = embedded();
    v["setup"]["hex_stacks"]["0523"].as_array_mut().unwrap().retain(|x| x != "W05");
    assert!(err(v).contains("never placed"));
    let mut v = embedded();
    v["map"]["hexsides"][0]["side_of_first"] = json!("N");
    assert!(err(v).contains("map.hexsides[0].side_of_first"));
    let mut v = embedded();
    v["schema_version"] = json!(1);
    assert!(err(v).contains("schema_version"));
}

#[test]
fn the_validator_rejects_a_deck_whose_games_cannot_end() {
    // Without 家康行動 the turn never advances and max_turns could never end the game.
    let mut v = embedded();
    v["cards"]["list"][0]["effect"].as_object_mut().unwrap().remove("after_use");
    assert!(err(v).contains("家康行動"));
    let mut v = embedded();
    v["cards"]["list"][0]["in_start_deck"] = json!(false);
    assert!(load(v).is_err());
}

#[test]
fn config_keys_are_checked() {
    assert!(matches!(Daisakusen::setup(json!({"max_turns": 0}).as_object().unwrap()), Err(SetupError::OutOfRange(_))));
    assert!(matches!(Daisakusen::setup(json!({"turns": 3}).as_object().unwrap()), Err(SetupError::UnknownKey(_))));
    // A number that is not an integer is no turn count, even 20.0 (issue 37.7).
    for bad in [json!(20.0), json!(7.5), json!("20")] {
        assert!(matches!(Daisakusen::setup(json!({"max_turns": bad}).as_object().unwrap()), Err(SetupError::InvalidConfig(_))), "{bad}");
    }
    assert!(matches!(Daisakusen::setup(json!({"max_turns": -3}).as_object().unwrap()), Err(SetupError::OutOfRange(_))));
    assert_eq!(game_with(json!({"max_turns": 7})).info().config, json!({"max_turns": 7}));
    assert!(load(embedded()).is_ok());
}

#[test]
fn eval_weights_are_ten_bounded_numbers_and_kept_in_the_config() {
    let w = json!([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -7.0, 0.5, 0.0, 0.0]);
    assert_eq!(game_with(json!({"eval_weights": w})).info().config, json!({"max_turns": 20, "eval_weights": w}));
    for bad in [json!([1, 2, 3]), json!([1, 2, 3, 4, 5, 6, 7, 8, 9, "10"]), json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 1e9]), json!("x")] {
        let e = Daisakusen::setup(json!({"eval_weights": bad}).as_object().unwrap()).err();
        assert!(matches!(e, Some(SetupError::InvalidConfig(ref m)) if m.contains("eval_weights")), "{bad}: {e:?}");
    }
    // A saved game keeps its weights: the same config comes back with it.
    let g = kassen_core::load_game("sekigahara_daisakusen", Some(&json!({"eval_weights": w}))).unwrap();
    let s = g.new_initial_state(3);
    let back = kassen_core::StateHandle::from_json(&s.to_json_string()).unwrap();
    assert_eq!(back.game().info().config["eval_weights"], w);
}

fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(json!(k));
                leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |cur, k| match k {
        Value::String(s) => &mut cur[s.as_str()],
        k => &mut cur[k.as_u64().unwrap() as usize],
    })
}

/// Random mutations of the data file: the validator either rejects them with a setup error
/// or the games it accepts play to the end within `max_game_length` (no panic, no dead end).
#[test]
fn validator_fuzz_accepted_files_play_to_the_end() {
    let base = embedded();
    let mut paths = Vec::new();
    leaves(&base, &mut Vec::new(), &mut paths);
    // Bias toward the parts the rules read.
    paths.retain(|p| {
        let top = p[0].as_str().unwrap_or("");
        matches!(top, "map" | "counters" | "cards" | "setup" | "tracks")
            && !(p.len() > 3 && p[1] == "hexes" && matches!(p[3].as_str(), Some("lon" | "lat")))
    });
    let mut rng = Rng::from_seed(32);
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..120 {
        let mut v = base.clone();
        for _ in 0..1 + rng.below(3) {
            let p = &paths[rng.below(paths.len() as u32) as usize];
            let slot = at(&mut v, p);
            *slot = match rng.below(6) {
                0 => json!(rng.below(8)),
                1 => json!(rng.below(3) as i64 - 1),
                2 => Value::Null,
                3 => json!(rng.below(2) == 0),
                4 => json!(
                    ["east", "west", "either", "plain", "hill", "mountain", "ashigaru", "busho", "commander", "garrison"]
                        [rng.below(10) as usize]
                ),
                _ => {
                    // swap with another leaf of the same file
                    let q = &paths[rng.below(paths.len() as u32) as usize];
                    at(&mut base.clone(), q).clone()
                }
            };
        }
        match load(v) {
            Err(e) => {
                assert!(matches!(e, SetupError::InvalidData(_)), "round {round}: {e}");
                rejected += 1;
            }
            Ok(g) => {
                accepted += 1;
                let limit = g.info().max_game_length as usize;
                for seed in 0..2 {
                    let (s, steps) = random_game(&g, seed + round as u64 * 7);
                    assert!(steps <= limit, "round {round}: {steps} steps > {limit}");
                    assert_eq!(s.pending, Pending::Over);
                }
            }
        }
    }
    assert!(accepted > 10 && rejected > 10, "accepted {accepted}, rejected {rejected}");
}
