//! Hostile saves of every registered game and covered config: one value of a real save changed
//! to a value at or past a bound (a sentinel minus one, 255 as a side, `u32::MAX` as a chance
//! outcome, a negative, a wrong type), an unknown field inside the snapshot, a null config.
//! Every such save loads into exactly the state it describes or fails with a load code; no
//! value reaches an index unchecked (a panic fails the test with the value's JSON pointer).

use std::panic::{catch_unwind, AssertUnwindSafe};

use kassen_core::{covered_configs, games, load_game, ErrorCode, StateHandle};
use serde_json::{json, Value};

/// Every (game id, config) the tests cover.
fn all_configs() -> Vec<(String, Value)> {
    games().into_iter().flat_map(|(id, _)| covered_configs(id).into_iter().map(move |c| (id.to_string(), c))).collect()
}

/// A save after `steps` pseudo-random actions from `seed`.
fn save_after(id: &str, cfg: &Value, seed: u64, steps: usize) -> Value {
    let mut s = load_game(id, Some(cfg)).unwrap().new_initial_state(seed);
    let mut r = seed;
    for _ in 0..steps {
        if s.is_terminal() {
            break;
        }
        let legal = s.legal_actions();
        r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        s.apply_in_place(legal[(r >> 33) as usize % legal.len()]).unwrap();
    }
    s.to_json()
}

/// The JSON pointers of every number, bool and string under `v`.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| leaves(x, format!("{at}/{i}"), out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| leaves(x, format!("{at}/{k}"), out)),
        _ => out.push(at),
    }
}

/// The JSON pointers of every object under `v` (itself included).
fn objects(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| objects(x, format!("{at}/{i}"), out)),
        Value::Object(m) => {
            out.push(at.clone());
            m.iter().for_each(|(k, x)| objects(x, format!("{at}/{k}"), out));
        }
        _ => {}
    }
}

/// Values at and past the bounds of the integer `v` (and of the types the snapshot uses).
fn hostile(v: &Value) -> Vec<Value> {
    let mut out = vec![json!(0), json!(1), json!(2), json!(255), json!(256), json!(65519), json!(65535), json!(65536)];
    out.extend([json!(u32::MAX), json!(u64::MAX), json!(-1), json!(i64::MIN), json!(0.5), Value::Null, json!("x"), json!(true)]);
    if let Some(n) = v.as_u64() {
        out.extend([json!(n.wrapping_add(1)), json!(n.saturating_sub(1)), json!(n.wrapping_mul(2).wrapping_add(7))]);
    }
    out
}

/// Loads `save`; a panic fails the test, naming `what`.
fn load(save: &Value, what: &str) -> Result<StateHandle, ErrorCode> {
    match catch_unwind(AssertUnwindSafe(|| StateHandle::from_value(save))) {
        Ok(r) => r.map_err(|e| e.code()),
        Err(_) => panic!("loading a save with {what} panicked"),
    }
}

/// A load gives back exactly the save's snapshot and log, or fails with a load code.
fn assert_loads_as_saved_or_fails(save: &Value, what: &str) {
    match load(save, what) {
        Ok(s) => {
            let back = s.to_json();
            assert_eq!(back["state"], save["state"], "{what}: loaded another snapshot than the save's");
            assert_eq!(back["history"], save["history"], "{what}: loaded another log than the save's");
        }
        Err(code) => assert!((300..400).contains(&(code as i32)), "{what}: code {code:?} is not a load code"),
    }
}

/// Every `stride`-th entry of `v`, starting at `offset`, so that a sweep stays quick while
/// every entry is covered by some (seed, offset).
fn every_nth<T: Clone>(v: &[T], stride: usize, offset: usize) -> Vec<T> {
    v.iter().skip(offset % stride.max(1)).step_by(stride.max(1)).cloned().collect()
}

#[test]
fn a_snapshot_value_out_of_its_bounds_is_a_load_error_never_a_panic() {
    for (id, cfg) in all_configs() {
        for (k, (seed, steps)) in [(3u64, 0usize), (5, 41), (8, 160)].into_iter().enumerate() {
            let save = save_after(&id, &cfg, seed, steps);
            let mut ptrs = Vec::new();
            leaves(&save["state"], "/state".into(), &mut ptrs);
            let stride = ptrs.len().div_ceil(120);
            for ptr in every_nth(&ptrs, stride, k) {
                for v in hostile(save.pointer(&ptr).unwrap()) {
                    let mut bad = save.clone();
                    *bad.pointer_mut(&ptr).unwrap() = v.clone();
                    assert_loads_as_saved_or_fails(&bad, &format!("{id} {cfg} seed {seed}: {ptr} = {v}"));
                }
            }
        }
    }
}

#[test]
fn a_chance_outcome_or_action_out_of_range_in_the_log_is_a_load_error() {
    for (id, cfg) in all_configs() {
        let n = load_game(&id, Some(&cfg)).unwrap().info().num_distinct_actions as u64;
        for seed in [4u64, 9] {
            let save = save_after(&id, &cfg, seed, 90);
            let len = save["history"].as_array().unwrap().len();
            // With "recorded" the log's start is replayed as recorded (a determinization's save),
            // outcomes the engine would have drawn itself included: those are checked too.
            for recorded in [0, len] {
                let mut base = save.clone();
                base["recorded"] = json!(recorded);
                for i in every_nth(&(0..len).collect::<Vec<_>>(), len.div_ceil(30), seed as usize) {
                    let a = save["history"][i].as_u64().unwrap();
                    for v in [json!(u32::MAX), json!(n), json!(n + 1), json!(a + 1), json!(a.saturating_sub(1)), json!(0)] {
                        let mut bad = base.clone();
                        bad["history"][i] = v.clone();
                        let what = format!("{id} {cfg} seed {seed} recorded {recorded}: history[{i}] = {v}");
                        assert_loads_as_saved_or_fails(&bad, &what);
                        if v == json!(u32::MAX) || v == json!(n) || v == json!(n + 1) {
                            assert!(load(&bad, &what).is_err(), "{what}: an id past the action space loaded");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn an_unknown_field_anywhere_in_the_snapshot_is_a_load_error() {
    for (id, cfg) in all_configs() {
        let save = save_after(&id, &cfg, 6, 50);
        let mut ptrs = Vec::new();
        objects(&save["state"], "/state".into(), &mut ptrs);
        assert!(!ptrs.is_empty(), "{id}: the snapshot has no object");
        for ptr in ptrs {
            let mut bad = save.clone();
            bad.pointer_mut(&ptr).unwrap().as_object_mut().unwrap().insert("colour".into(), json!(1));
            let what = format!("{id} {cfg}: an unknown field in {ptr}");
            assert_eq!(load(&bad, &what).err(), Some(ErrorCode::InvalidState), "{what}");
        }
    }
}

#[test]
fn a_saved_config_that_is_not_an_object_is_a_load_error() {
    for (id, _) in games() {
        let save = save_after(id, &json!({}), 2, 10);
        for v in [Value::Null, json!([]), json!("default"), json!(2)] {
            let mut bad = save.clone();
            bad["config"] = v.clone();
            assert_eq!(load(&bad, &format!("{id}: config {v}")).err(), Some(ErrorCode::InvalidState), "{id}: config {v}");
        }
        // A config that sets up no game makes the save invalid: 304, the same as the header says.
        let mut bad = save.clone();
        bad["config"] = json!({"colour": 1});
        assert_eq!(load(&bad, "an unknown config key").err(), Some(ErrorCode::InvalidState), "{id}");
        let mut missing = save.clone();
        missing.as_object_mut().unwrap().remove("config");
        assert_loads_as_saved_or_fails(&missing, &format!("{id}: no config"));
    }
}
