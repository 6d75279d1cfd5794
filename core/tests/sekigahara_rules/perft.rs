//! Move-generation counts from fixed seeds, the action space, and saved states.

use super::*;

#[test]
fn perft_counts_from_fixed_seeds() {
    let mut found = Vec::new();
    for seed in [1u64, 2, 3] {
        let s = first_state(seed, "bid");
        found.push([1, 2, 3, 4, 5].map(|d| perft(&s, d)));
    }
    for seed in [1u64, 2] {
        let s = first_state(seed, "mode");
        found.push([1, 2, 3, 4, 5].map(|d| perft(&s, d)));
    }
    assert_eq!(found, PERFT_EXPECTED, "move generation changed: update the counts knowingly");
}

// Depths 1-5 from the first bid of seeds 1-3 (5, 5 and 3 distinct cards in the Tokugawa hand;
// then the Ishida bid, the choice of the first player, the mode, its cards) and from the first
// movement phase of seeds 1-2 (state RNG for chance).
const PERFT_EXPECTED: [[u64; 5]; 5] =
    [[5, 25, 50, 200, 1300], [5, 25, 50, 200, 1275], [3, 15, 30, 120, 735], [4, 28, 147, 795, 4429], [4, 27, 143, 785, 4411]];

#[test]
fn every_legal_action_applies_and_ids_out_of_range_are_rejected() {
    let g = game();
    let n = g.num_distinct_actions();
    assert_eq!(g.info().num_distinct_actions, n);
    let mut states = 0;
    for seed in [3u64, 4] {
        let mut rng = Rng::from_seed(seed);
        random_walk(seed, 1500, |g, _, s, _| {
            if g.current_player(s) == TERMINAL {
                return;
            }
            states += 1;
            let mut legal = Vec::new();
            g.legal_actions(s, &mut legal);
            assert!(!legal.is_empty());
            assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending, no duplicates");
            for &a in &legal {
                assert!(a < n);
                let mut c = s.clone();
                g.step(&mut c, a, &mut Events::off()).unwrap_or_else(|e| panic!("{:?}: {e}", g.decode(a)));
                assert_eq!(g.validate(&c), Ok(()));
            }
            for a in [n, n + 1, n + 1000, u32::MAX] {
                let mut c = s.clone();
                assert!(!g.is_legal(&c, a));
                assert!(matches!(g.step(&mut c, a, &mut Events::off()), Err(RuleError::ActionOutOfRange { .. })));
                assert_eq!(c, *s);
            }
            for _ in 0..8 {
                let a = rng.below(n);
                if legal.binary_search(&a).is_err() {
                    let mut c = s.clone();
                    assert!(matches!(g.step(&mut c, a, &mut Events::off()), Err(RuleError::IllegalAction { .. })), "{:?}", g.decode(a));
                    assert_eq!(c, *s);
                }
            }
        });
    }
    assert!(states > 1000);
}

#[test]
fn a_saved_state_with_an_unknown_field_is_rejected() {
    let s = first_state(1, "mode");
    let saved = s.to_json();
    assert!(kassen_core::StateHandle::from_json(&saved.to_string()).is_ok());
    let mut extra = saved.clone();
    extra["state"]["extra"] = serde_json::json!(1);
    let e = kassen_core::StateHandle::from_json(&extra.to_string()).expect_err("an unknown field in the state");
    assert!(matches!(e, kassen_core::LoadError::InvalidState(_)), "{e}");
    assert_eq!(e.code() as i32, 304);
    // Inside a nested struct too (the group being moved, a block).
    for path in [&["group"][..], &["blocks", "0"][..], &["due"][..]] {
        let mut v = saved.clone();
        let mut x = &mut v["state"];
        for k in path {
            x = match k.parse::<usize>() {
                Ok(i) => &mut x[i],
                Err(_) => &mut x[*k],
            };
        }
        assert!(x.is_object(), "{path:?}");
        x["extra"] = serde_json::json!(true);
        let e = kassen_core::StateHandle::from_json(&v.to_string()).expect_err("rejected");
        assert_eq!(e.code() as i32, 304, "{path:?}");
    }
}

/// `is_legal` (direct checks for the movement and battle decisions) agrees with membership in
/// `legal_actions` for every action id at every state of random games.
#[test]
fn is_legal_agrees_with_the_legal_list() {
    let g = game();
    let n = g.num_distinct_actions();
    let mut v = Vec::new();
    let mut checked = 0u64;
    for seed in 0..40u64 {
        let mut s = g.new_initial_state(seed);
        let mut rng = Rng::from_seed(seed ^ 0x5e1);
        while !g.is_terminal(&s) {
            v.clear();
            g.legal_actions(&s, &mut v);
            for a in 0..n {
                assert_eq!(g.is_legal(&s, a), v.binary_search(&a).is_ok(), "seed {seed}: action {a} at {:?}", s.pending);
            }
            checked += 1;
            let a = if g.current_player(&s) == CHANCE { g.sample_chance(&mut s) } else { v[rng.below(v.len() as u32) as usize] };
            g.apply(&mut s, a, &mut Events::off());
        }
    }
    assert!(checked > 1000, "{checked} states");
}
