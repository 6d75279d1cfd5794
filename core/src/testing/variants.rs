//! One-action variants: the information-state key against histories that differ in one action.
//!
//! The perfect-recall check of a conformance game ([`super::info_state::Recall`]) compares the
//! states of a few independent random games; their keys part at the first public step, so it
//! never meets two histories a seat cannot tell apart, and the determinizations keep every
//! block and card a seat has seen where the game had it. The states where a wrong key shows
//! are the near ones: the same game with one action of another seat (or one chance outcome)
//! changed. This search makes them. Along a random game it takes sampled steps, applies
//! another legal action there, replays the game's next actions while they stay legal, and at
//! every step checks for each observer that
//! - the key's hash and its string agree (equal together);
//! - equal keys mean an equal view, tensor, events since the change, player to act and, where
//!   the observer acts, legal actions: the key separates everything the observer can tell apart.
//!
//! - where their views differ, so do their compact observations (`compact.rs`).
//!
//! Deterministic (seeded). Its size is [`rounds`] changed steps per game.

use std::hash::Hasher;

use crate::engine::StateHandle;
use crate::game::{ActionId, Player, SPECTATOR};
use crate::rng::Rng;
use crate::DynGame;

use super::ensure;

/// Steps replayed after the changed one, at most.
const REPLAY: usize = 12;

/// Changed steps per game: 12, or `KASSEN_VARIANT_ROUNDS` for a deeper local run.
pub fn rounds() -> usize {
    std::env::var("KASSEN_VARIANT_ROUNDS").ok().and_then(|x| x.parse().ok()).unwrap_or(12)
}

/// What one observer could tell at one state, for comparing two of them.
struct Told {
    key: u64,
    view: String,
    tensor: u64,
    events: Vec<String>,
    legal: Option<Vec<ActionId>>,
}

fn told(s: &StateHandle, p: Player, since: usize) -> Result<Told, String> {
    let mut h = crate::engine::StableHasher::default();
    for x in s.observation_tensor(p).map_err(|e| e.to_string())? {
        h.write_u32(x.to_bits());
    }
    let events = s.events_since(p, since).map_err(|e| e.to_string())?;
    Ok(Told {
        key: s.info_state_hash(p).map_err(|e| e.to_string())?,
        view: s.view_json(p).map_err(|e| e.to_string())?,
        tensor: h.finish(),
        events: events.iter().map(|e| serde_json::to_string(e).unwrap_or_default()).collect(),
        legal: (p >= 0 && s.current_player() == p).then(|| s.legal_actions()),
    })
}

/// The first difference of two texts, with some context on either side.
pub(super) fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let cut = |t: &str| {
        let from = (0..=at.saturating_sub(120)).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        let to = (at + 120..=t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(t.len());
        t[from..to].to_string()
    };
    format!("...{}...\n  vs ...{}...", cut(a), cut(b))
}

/// Compares the game (`a`) and its variant (`b`) for every observer still unable to tell them
/// apart (`same[p + 1]`, cleared where the keys part). `since[p + 1]`: the observer's events
/// before the changed step; `last`: the last step replayed.
fn compare(a: &StateHandle, b: &StateHandle, players: i32, since: &[usize], same: &mut [bool], last: bool) -> Result<(), String> {
    for p in SPECTATOR..players {
        let slot = (p + 1) as usize;
        if !same[slot] {
            continue;
        }
        let (ka, kb) = (a.info_state_hash(p).map_err(|e| e.to_string())?, b.info_state_hash(p).map_err(|e| e.to_string())?);
        // Parted for good once the folded history differs (not only the player to act). The
        // strings (costly: every event) are compared where the keys part and at the last step.
        let parted = ka != kb && a.current_player() == b.current_player();
        if parted || (ka == kb && last) {
            let (sa, sb) = (a.info_state_string(p).map_err(|e| e.to_string())?, b.info_state_string(p).map_err(|e| e.to_string())?);
            ensure((ka == kb) == (sa == sb), || {
                format!("seat {p}: the information-state hashes are {} but the strings {}", eq(ka == kb), eq(sa == sb))
            })?;
        }
        if ka != kb {
            same[slot] = !parted;
            continue;
        }
        let (x, y) = (told(a, p, since[slot])?, told(b, p, since[slot])?);
        let what = if x.view != y.view {
            format!("view: {}", first_difference(&x.view, &y.view))
        } else if x.tensor != y.tensor {
            "observation tensor".to_string()
        } else if x.events != y.events {
            let i = (0..).find(|&i| x.events.get(i) != y.events.get(i)).unwrap_or(0);
            format!("events: {} vs {}", x.events.get(i).map_or("(none)", |e| e), y.events.get(i).map_or("(none)", |e| e))
        } else if x.legal != y.legal {
            "legal actions".to_string()
        } else {
            debug_assert_eq!(x.key, y.key);
            continue;
        };
        return Err(format!("seat {p} has the same information-state key (hash and string) in both, but not the same {what}"));
    }
    Ok(())
}

fn eq(b: bool) -> &'static str {
    if b {
        "equal"
    } else {
        "different"
    }
}

/// Plays a random game from `seed` and checks `rounds` one-action variants of it (see the
/// module documentation). Returns the number of variant states compared.
pub fn check(game: &dyn DynGame, seed: u64, rounds: usize) -> Result<u32, String> {
    let players = game.num_players() as i32;
    let (_, actions) = super::random_playout(game, seed);
    if actions.is_empty() || rounds == 0 {
        return Ok(0);
    }
    let mut rng = Rng::from_seed(seed ^ 0x0ae1_7a17_c0de);
    // Changed steps in order, apart enough that the game's own replays never overlap (its
    // shared event log then only grows).
    let mut pivots: Vec<usize> = (0..rounds).map(|_| rng.below(actions.len() as u32) as usize).collect();
    pivots.sort_unstable();
    pivots.dedup();
    let mut compared = 0;
    let mut s = game.new_initial_state(seed);
    let mut done = 0;
    let mut last_end = 0;
    for &i in &pivots {
        if i < last_end {
            continue;
        }
        while done < i {
            s.apply_in_place(actions[done]).map_err(|e| format!("replay rejected {}: {e}", actions[done]))?;
            done += 1;
        }
        let legal = s.legal_actions();
        let others: Vec<ActionId> = legal.iter().copied().filter(|&a| a != actions[i]).collect();
        if others.is_empty() {
            continue;
        }
        let alt = others[rng.below(others.len() as u32) as usize];
        let since: Vec<usize> =
            (SPECTATOR..players).map(|p| s.events(p).map(|e| e.len()).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
        // The variant gets an event log of its own (a reload), so the two never rebuild each other's.
        let mut a = s.clone();
        let mut b = StateHandle::from_value(&s.to_json()).map_err(|e| format!("reload failed: {e}"))?;
        a.apply_in_place(actions[i]).map_err(|e| e.to_string())?;
        b.apply_in_place(alt).map_err(|e| e.to_string())?;
        let mut same = vec![true; players as usize + 1];
        let mut k = i + 1;
        let fail = |k: usize, e: String| {
            let list: Vec<String> = actions[..k].iter().map(|a| a.to_string()).collect();
            format!(
                "seed {seed}: the actions {} and the same with action {i} changed from {} ({:?}) to {alt} ({:?}): {e}",
                list.join(" "),
                actions[i],
                s.action_to_string(actions[i]).unwrap_or_default(),
                s.action_to_string(alt).unwrap_or_default(),
            )
        };
        loop {
            let last = k >= actions.len() || k > i + REPLAY || !b.is_legal(actions[k]);
            compare(&a, &b, players, &since, &mut same, last).map_err(|e| fail(k, e))?;
            super::compact::check_apart(&a, &b, players).map_err(|e| fail(k, e))?;
            compared += 1;
            if last || (same.iter().all(|x| !x) && a.current_player() == b.current_player()) {
                break;
            }
            a.apply_in_place(actions[k]).map_err(|e| e.to_string())?;
            b.apply_in_place(actions[k]).map_err(|e| e.to_string())?;
            k += 1;
        }
        last_end = k;
    }
    Ok(compared)
}
