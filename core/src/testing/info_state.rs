//! Checks of the information-state key ([`crate::DynState::info_state_hash`]):
//! - it changes at a step whenever the observer sees something new (an event, another player
//!   to act);
//! - it is perfect recall: two states that give an observer the same key give it the same view,
//!   tensor and, where it is to act, legal actions ([`Recall`], over every state of every game
//!   of a conformance run, so a key that stays while any of them changes is caught);
//! - it is the same for a determinization of the observer and after a save and load (the
//!   incremental fold equals a fold from scratch), and no two observers share one.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::engine::{StableHasher, StateHandle};
use crate::game::{Player, SPECTATOR};

use super::ensure;

/// What one observer knew at one state: its key, its number of events, the player to act.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    key: u64,
    events: usize,
    to_act: Player,
}

/// The keys of every observer (spectator first), checked against the step before (`prev`).
pub fn check_step(s: &StateHandle, players: i32, prev: &[Seen]) -> Result<Vec<Seen>, String> {
    let mut now = Vec::new();
    for p in SPECTATOR..players {
        let key = s.info_state_hash(p).map_err(|e| e.to_string())?;
        ensure(s.info_state_hash(p) == Ok(key), || format!("seat {p}: a repeated query changed the key"))?;
        let before = prev.get((p + 1) as usize);
        let new_events = s.events_since(p, before.map_or(0, |b| b.events)).map_err(|e| e.to_string())?.len();
        let seen = Seen { key, events: before.map_or(0, |b| b.events) + new_events, to_act: s.current_player() };
        if let Some(b) = before {
            let news = new_events > 0 || b.to_act != seen.to_act;
            ensure(!news || b.key != key, || {
                format!("seat {p}: key kept with {new_events} new events and player to act {} -> {}", b.to_act, seen.to_act)
            })?;
        }
        now.push(seen);
    }
    let mut keys: Vec<u64> = now.iter().map(|x| x.key).collect();
    keys.sort_unstable();
    ensure(keys.windows(2).all(|w| w[0] != w[1]), || "two observers share an information-state key".into())?;
    Ok(now)
}

/// `other` (a determinization for `p`, or a reload) gives `p` the same key as `s`.
pub fn check_same_key(s: &StateHandle, other: &StateHandle, p: Player, what: &str) -> Result<(), String> {
    let (a, b) = (s.info_state_hash(p).map_err(|e| e.to_string())?, other.info_state_hash(p).map_err(|e| e.to_string())?);
    ensure(a == b, || format!("seat {p}: the information-state key differs in {what}"))?;
    let (a, b) = (s.info_state_string(p).map_err(|e| e.to_string())?, other.info_state_string(p).map_err(|e| e.to_string())?);
    ensure(a == b, || format!("seat {p}: the information-state string differs in {what}"))
}

/// Perfect recall over many states: every (observer, key) seen, with a hash of what the
/// observer could tell from that state (its view, its tensor, and its legal actions where it
/// is to act) and the step it was seen at.
#[derive(Default)]
pub struct Recall {
    seen: HashMap<(Player, u64), (u64, usize, String)>,
}

impl Recall {
    /// Records what every observer of `s` (spectator first) can tell under its key; fails when a
    /// key recorded before stood for something else.
    pub fn check(&mut self, s: &StateHandle, players: i32, step: usize) -> Result<(), String> {
        for p in SPECTATOR..players {
            let key = s.info_state_hash(p).map_err(|e| e.to_string())?;
            let mut h = StableHasher::default();
            let view = s.view_json(p).map_err(|e| e.to_string())?;
            view.hash(&mut h);
            for x in s.observation_tensor(p).map_err(|e| e.to_string())? {
                h.write_u32(x.to_bits());
            }
            if p >= 0 && s.current_player() == p {
                s.legal_actions().hash(&mut h);
            }
            let told = h.finish();
            match self.seen.insert((p, key), (told, step, view.clone())) {
                Some((before, at, then)) if before != told => {
                    let diff = if then == view { "the same view".to_string() } else { format!("views\n{then}\n{view}") };
                    return Err(format!(
                        "seat {p}: the state at step {step} has the information-state key of the one at step {at}, \
                         but its view, tensor or legal actions differ (the key is not perfect recall): {diff}"
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }
}
