//! Hostile positions (docs/positions.md) of every registered game: one value of a real
//! position changed to a value at or past a bound (0, 255, `u32::MAX`, one more or one less
//! than it was, a flipped flag). Each such document fails with `InvalidPosition` or loads into
//! a state that plays on (legal actions, steps, every observer's view and tensor, the picture)
//! without a panic: the games' `validate_position` must leave nothing unchecked that play
//! relies on.
//! Every game's checks live in `core/src/games/<id>/position.rs`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use kassen_core::rng::Rng;
use kassen_core::{games, load_game, ErrorCode, StateHandle, SPECTATOR};
use serde_json::{json, Value};

/// The JSON pointers of every number, bool and string under `v`.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| leaves(x, format!("{at}/{i}"), out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| leaves(x, format!("{at}/{k}"), out)),
        _ => out.push(at),
    }
}

/// Values at and past the bounds of `v`.
fn hostile(v: &Value) -> Vec<Value> {
    let mut out = vec![json!(0), json!(255), json!(u32::MAX)];
    if let Some(n) = v.as_u64() {
        out.extend([json!(n + 1), json!(n.saturating_sub(1))]);
    }
    if let Some(b) = v.as_bool() {
        out.push(json!(!b));
    }
    out
}

/// Plays up to 60 random steps, reading every observer's view and tensor and drawing the
/// board every 20.
fn exercise(p: &mut StateHandle, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    for step in 0..60 {
        if step % 20 == 0 {
            for q in SPECTATOR..p.game().num_players() as i32 {
                p.view_json(q).unwrap();
                p.observation_tensor(q).unwrap();
            }
            p.render_svg(SPECTATOR).unwrap();
        }
        if p.is_terminal() {
            break;
        }
        let legal = p.legal_actions();
        assert!(!legal.is_empty(), "a state that is not over has legal actions");
        let a = legal[rng.below(legal.len() as u32) as usize];
        p.apply_in_place(a).unwrap();
    }
}

#[test]
fn hostile_positions_fail_with_invalid_position_or_play_on() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for (id, _) in games() {
        let game = load_game(id, None).unwrap();
        let mut s = game.new_initial_state(2);
        let mut rng = Rng::from_seed(2);
        for _ in 0..40 {
            if s.is_terminal() {
                break;
            }
            let legal = s.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            s.apply_in_place(a).unwrap();
        }
        let doc = s.to_position();
        let mut ptrs = Vec::new();
        leaves(&doc["position"], "/position".into(), &mut ptrs);
        // About 150 values per game, spread over the whole state.
        let stride = (ptrs.len() / 150).max(1);
        for ptr in ptrs.iter().step_by(stride).filter(|p| !p.starts_with("/position/rng")) {
            let original = doc.pointer(ptr).unwrap().clone();
            for h in hostile(&original).into_iter().filter(|h| *h != original) {
                let mut d = doc.clone();
                *d.pointer_mut(ptr).unwrap() = h.clone();
                match catch_unwind(AssertUnwindSafe(|| StateHandle::from_position_value(&d))) {
                    Err(_) => failures.push(format!("{id} {ptr}={h}: panic while loading")),
                    Ok(Err(e)) if e.code() != ErrorCode::InvalidPosition => failures.push(format!("{id} {ptr}={h}: {:?}", e.code())),
                    Ok(Err(_)) => {}
                    Ok(Ok(mut p)) => {
                        if catch_unwind(AssertUnwindSafe(|| exercise(&mut p, 5))).is_err() {
                            failures.push(format!("{id} {ptr}={h}: accepted, then panicked in play"));
                        }
                    }
                }
            }
        }
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{} hostile positions got through:\n{}", failures.len(), failures.join("\n"));
}
