//! The C ABI driven from Rust: semantics the golden replays do not reach.

use std::ffi::CStr;

use kassen::*;
use kassen_core::engine::load_game;
use kassen_tests::capi::{game_ids, CGame};

fn last_error() -> String {
    unsafe { CStr::from_ptr(kassen_last_error_message()) }.to_string_lossy().into_owned()
}

#[test]
fn games_json_lists_the_registry() {
    let ids = game_ids();
    let core: Vec<String> = kassen_core::engine::games().iter().map(|(id, _)| id.to_string()).collect();
    assert_eq!(ids, core);
    // Each entry lists the covered configs, and each of them creates its game.
    let list = kassen_tests::capi::json_of(|b| unsafe { kassen_games_json(b) }).unwrap();
    for entry in list.as_array().unwrap() {
        let id = entry["id"].as_str().unwrap();
        let configs = entry["configs"].as_array().unwrap();
        assert_eq!(configs, &kassen_core::covered_configs(id));
        for c in configs {
            assert!(CGame::new(id, Some(&c.to_string())).is_ok(), "{id} {c}");
        }
    }
}

#[test]
fn explicit_chance_games_expose_chance_nodes() {
    for id in game_ids() {
        let g = CGame::new(&id, Some(r#"{"explicit_chance": true}"#)).unwrap();
        let mut s = g.new_state(5);
        let mut policy = kassen_core::rng::Rng::from_seed(5);
        let mut chance_nodes = 0;
        while !s.is_terminal() {
            let p = s.current_player();
            let legal = s.legal_actions();
            if p == -1 {
                chance_nodes += 1;
                let (mut ids, mut probs, mut len) = (vec![0u32; legal.len()], vec![0f64; legal.len()], 0usize);
                let st = unsafe { kassen_state_chance_outcomes(s.raw(), ids.as_mut_ptr(), probs.as_mut_ptr(), ids.len(), &mut len) };
                assert_eq!(st, kassen_status::Ok, "{}", last_error());
                assert_eq!(ids, legal, "chance outcome ids are the legal actions of a chance node");
                assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                // A seat cannot act for chance.
                assert_eq!(s.apply_as(0, ids[0]).unwrap_err().status, kassen_status::NotYourTurn);
            }
            let a = legal[policy.below(legal.len() as u32) as usize];
            s.apply_as(p, a).unwrap();
        }
        assert!(chance_nodes > 0, "{id}: no chance node with explicit chance");
    }
}

#[test]
fn c_and_core_agree_on_everything_a_frontend_reads() {
    for id in game_ids() {
        let core_game = load_game(&id, None).unwrap();
        let g = CGame::new(&id, None).unwrap();
        assert_eq!(g.info(), core_game.info_json());
        let mut core = core_game.new_initial_state(11);
        let mut c = g.new_state(11);
        let mut step = 0;
        while !core.is_terminal() {
            let p = core.current_player();
            let legal = core.legal_actions();
            assert_eq!(c.legal_actions(), legal);
            let a = legal[step % legal.len()];
            if step % 7 == 0 {
                assert_eq!(c.action_to_string(a).unwrap(), core.action_to_string(a).unwrap());
                assert_eq!(c.action_to_json(a).unwrap(), core.action_to_json(a).unwrap());
                for q in -1..core_game.num_players() as i32 {
                    assert_eq!(c.observation(q).unwrap(), core.observation_tensor(q).unwrap());
                    assert_eq!(c.events(q).unwrap(), serde_json::to_value(core.events(q).unwrap()).unwrap());
                }
            }
            core.apply_as(p, a).unwrap();
            c.apply_as(p, a).unwrap();
            assert_eq!(c.hash(), core.stable_hash());
            step += 1;
        }
        assert_eq!(c.returns(), core.returns());
        assert_eq!(c.to_json(), core.to_json());
    }
}

#[test]
fn rejected_actions_leave_the_state_unchanged() {
    for id in game_ids() {
        let g = CGame::new(&id, None).unwrap();
        let mut s = g.new_state(3);
        let before = (s.hash(), s.to_json_text());
        let legal = s.legal_actions();
        let illegal = (0..).find(|a| !legal.contains(a)).unwrap();
        let err = s.apply_in_place(illegal).unwrap_err();
        assert_eq!(err.status, kassen_status::IllegalAction);
        assert_eq!(err.message, format!("action {illegal} is not legal here"));
        let p = s.current_player();
        let err = s.apply_as(p + 1, legal[0]).unwrap_err();
        assert_eq!(err.status, kassen_status::NotYourTurn);
        assert!(s.apply(illegal).is_err());
        assert_eq!((s.hash(), s.to_json_text()), before);
        // The pure transition does not touch its input either.
        let child = s.apply(legal[0]).unwrap();
        assert_eq!((s.hash(), s.to_json_text()), before);
        assert!(!child.equal(&s));
        let mut copy = s.clone();
        copy.apply_in_place(legal[0]).unwrap();
        assert!(copy.equal(&child));
    }
}

#[test]
fn the_last_error_is_per_thread_and_cleared_by_success() {
    assert!(CGame::new("no-such-game", None).is_err());
    assert!(last_error().contains("no-such-game"));
    let other = std::thread::spawn(last_error).join().unwrap();
    assert_eq!(other, "", "another thread does not see this thread's error");
    let mut b = kassen_buf { data: std::ptr::null(), len: 0 };
    assert_eq!(unsafe { kassen_games_json(&mut b) }, kassen_status::Ok);
    unsafe { kassen_buf_free(&mut b) };
    assert_eq!(last_error(), "");
}

#[test]
fn states_outlive_their_game_handle() {
    for id in game_ids() {
        let s = {
            let g = CGame::new(&id, None).unwrap();
            g.new_state(1)
        };
        let mut game = std::ptr::null_mut();
        assert_eq!(unsafe { kassen_state_game(s.raw(), &mut game) }, kassen_status::Ok);
        let mut n = 0;
        assert_eq!(unsafe { kassen_game_num_players(game, &mut n) }, kassen_status::Ok);
        assert!(n >= 1);
        unsafe { kassen_game_free(game) };
        assert!(!s.legal_actions().is_empty());
    }
}
