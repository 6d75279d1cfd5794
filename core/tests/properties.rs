//! Property tests over every registered game and covered config: configs, saves and action
//! sequences from proptest's generators. Whatever comes in, the engine answers with a value or
//! an error with the right stable code, never a panic, and a rejected input changes nothing.
//! Failing cases proptest finds are kept in `properties.proptest-regressions` beside this
//! file and replayed first on every run.

use kassen_core::{covered_configs, games, load_game, ActionId, ErrorCode, StateHandle};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Every (game id, config) the tests cover.
fn all_configs() -> Vec<(String, Value)> {
    games().into_iter().flat_map(|(id, _)| covered_configs(id).into_iter().map(move |c| (id.to_string(), c))).collect()
}

/// Arbitrary JSON of bounded depth and size.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1e300f64..1e300).prop_map(|f| json!(f)),
        "[a-z_]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{0,10}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A config: some of the keys games know, with arbitrary values, plus maybe an unknown key.
fn config() -> impl Strategy<Value = Value> {
    let key = prop_oneof![Just("players"), Just("explicit_chance"), Just("data"), Just("colour")];
    prop::collection::vec((key, json_value()), 0..3).prop_map(|kv| {
        let m: Map<String, Value> = kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        Value::Object(m)
    })
}

/// The codes of a setup error: the 100s, and 305 for a component data file.
fn is_setup_code(c: ErrorCode) -> bool {
    (100..200).contains(&(c as i32)) || c == ErrorCode::InvalidData
}

/// A state after `steps` random actions from `seed`.
fn played(id: &str, cfg: &Value, seed: u64, steps: usize) -> StateHandle {
    let game = load_game(id, Some(cfg)).unwrap();
    let mut s = game.new_initial_state(seed);
    let mut r = seed;
    for _ in 0..steps {
        if s.is_terminal() {
            break;
        }
        let legal = s.legal_actions();
        r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        s.apply_in_place(legal[(r >> 33) as usize % legal.len()]).unwrap();
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, max_shrink_iters: 200, ..ProptestConfig::default() })]

    /// A config loads or fails with a setup code; a loaded game's normalized config loads the
    /// same game again (normalization is idempotent).
    #[test]
    fn configs_load_or_fail_with_a_setup_code(g in 0usize..64, cfg in config()) {
        let ids = games();
        let id = ids[g % ids.len()].0;
        match load_game(id, Some(&cfg)) {
            Ok(game) => {
                let again = load_game(id, Some(&game.info().config)).unwrap();
                prop_assert_eq!(again.info(), game.info());
            }
            Err(e) => prop_assert!(is_setup_code(e.code()), "{} for {}", e, cfg),
        }
    }

    /// Random action ids: legal ones apply, the others are rejected with the state unchanged.
    #[test]
    fn action_sequences_apply_or_leave_the_state_unchanged(
        c in 0usize..64, seed in any::<u64>(), actions in prop::collection::vec(any::<u32>(), 1..60), small in any::<bool>(),
    ) {
        let configs = all_configs();
        let (id, cfg) = &configs[c % configs.len()];
        let mut s = played(id, cfg, seed, 0);
        let n = s.game().info().num_distinct_actions;
        for a in actions {
            // Half the time an id inside the action space, where legal ones are likelier.
            let a: ActionId = if small { a % n } else { a };
            let (before, hash, legal) = (s.to_json(), s.stable_hash(), s.legal_actions());
            match s.apply_in_place(a) {
                Ok(()) => prop_assert!(legal.contains(&a), "illegal {} accepted", a),
                Err(e) => {
                    prop_assert!(!legal.contains(&a), "legal {} rejected: {}", a, e);
                    prop_assert!((200..300).contains(&(e.code() as i32)));
                    prop_assert_eq!(s.to_json(), before);
                    prop_assert_eq!(s.stable_hash(), hash);
                }
            }
        }
    }

    /// Saves with one field replaced by arbitrary JSON load (into a valid state that saves
    /// back to the same text) or fail with a load or setup code.
    #[test]
    fn mutated_saves_load_or_fail_with_a_load_code(
        c in 0usize..64, seed in any::<u64>(), steps in 0usize..80, field in 0usize..9, value in json_value(),
    ) {
        let configs = all_configs();
        let (id, cfg) = &configs[c % configs.len()];
        let s = played(id, cfg, seed, steps);
        let mut save = s.to_json();
        let keys = ["format", "game", "rules_version", "config", "seed", "history", "state", "recorded", "extra"];
        save[keys[field]] = value;
        match StateHandle::from_value(&save) {
            Ok(t) => {
                let back = StateHandle::from_value(&t.to_json()).unwrap();
                prop_assert!(back == t);
            }
            Err(e) => {
                let code = e.code() as i32;
                prop_assert!((300..400).contains(&code) || is_setup_code(e.code()) || code == 6, "{}", e);
            }
        }
    }

    /// A save text cut anywhere or with a byte changed loads or fails with a load code.
    #[test]
    fn damaged_save_texts_fail_cleanly(c in 0usize..64, seed in any::<u64>(), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let configs = all_configs();
        let (id, cfg) = &configs[c % configs.len()];
        let text = played(id, cfg, seed, 20).to_json_string();
        let mut bytes = text.clone().into_bytes();
        let i = cut.index(bytes.len());
        bytes[i] = byte;
        for t in [String::from_utf8_lossy(&bytes).into_owned(), text[..i].to_string()] {
            if let Err(e) = StateHandle::from_json(&t) {
                let code = e.code() as i32;
                prop_assert!((300..400).contains(&code) || is_setup_code(e.code()) || code == 6, "{}", e);
            }
        }
    }
}
